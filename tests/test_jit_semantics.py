"""The supported Python subset computes what Python computes: a scalar kernel with while, if/elif/
else, a helper, tuple unpacking, static and dynamic ranges, run on the simulator against Python."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc.lang as asc

STEPS = 3


@pyasc.jit
def classify(v, lo: int, hi: int):
    if v > hi:
        return v * 2
    elif v > lo:
        return v + 100
    else:
        return -v


@pyasc.jit
def scalar_kernel(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, lo: int, hi: int):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, n)
    z_gm.set_global_buffer(z, n)
    a, b = lo, hi
    a, b = b, a                      # swap: a = hi, b = lo
    for i in range(n):
        v = x_gm.get_value(i)
        r = classify(v, b, a)
        k = 0
        while k < STEPS:             # a static bound (module constant)
            r += k
            k += 1
        for j in range(i % 4, 0, -1):
            r = r - j
        z_gm.set_value(i, r)


def python_reference(xs, lo, hi):
    out = []
    for i, v in enumerate(xs):
        r = v * 2 if v > hi else v + 100 if v > lo else -v
        r += sum(range(STEPS))
        for j in range(i % 4, 0, -1):
            r -= j
        out.append(r)
    return np.array(out, np.int32)


@pytest.mark.parametrize("dtype", ["int32", "float32"])
def test_scalar_kernel_matches_python(dtype):
    xs = np.arange(-20, 44).astype(dtype)
    x, z = pyasc.tensor(xs), pyasc.empty(len(xs), dtype=dtype)
    scalar_kernel[1](x, z, len(xs), 3, 30)
    np.testing.assert_array_equal(z.numpy(), python_reference(xs.tolist(), 3, 30).astype(dtype))


@pyasc.jit
def scale_tiles(x: asc.GlobalAddress, z: asc.GlobalAddress, n: int, tile: asc.constexpr, factor: asc.constexpr):
    x_gm = asc.GlobalTensor()
    z_gm = asc.GlobalTensor()
    x_gm.set_global_buffer(x, n)
    z_gm.set_global_buffer(z, n)
    pipe = asc.TPipe()
    q = asc.TQueBind(asc.TPosition.VECIN, asc.TPosition.VECOUT, 1)
    pipe.init_buffer(q, 1, tile * x.dtype.sizeof())
    for i in range(n // tile):
        t = q.alloc_tensor(x.dtype)
        asc.data_copy(t, x_gm[i * tile:], tile)
        q.enque(t)
        t = q.deque(x.dtype)
        asc.muls(t, t, factor, tile)
        asc.pipe_barrier(asc.PIPE_V)
        asc.set_flag(asc.HardEvent.V_MTE3, 0)
        asc.wait_flag(asc.HardEvent.V_MTE3, 0)
        asc.data_copy(z_gm[i * tile:], t, tile)
        q.free_tensor(t)


def test_constexpr_parameters_are_baked_in_and_not_passed():
    xs = np.arange(1024, dtype=np.float32)
    x, z = pyasc.tensor(xs), pyasc.empty(1024, dtype="float32")
    scale_tiles[1](x, z, 1024, 128, 0.5)
    np.testing.assert_array_equal(z.numpy(), xs * 0.5)
    scale_tiles[1](x, z, 1024, 256, 3.0)  # other constexpr values: another specialisation
    np.testing.assert_array_equal(z.numpy(), xs * 3.0)
    src = scale_tiles.source(x, z, 1024, 256, 3.0)
    assert "void scale_tiles(GM_ADDR x, GM_ADDR z, int32_t n)" in src
    assert "AscendC::Muls(t, t, 3.0f, 256);" in src
    assert "AscendC::TQueBind<AscendC::TPosition::VECIN, AscendC::TPosition::VECOUT, 1> q;" in src
    assert scale_tiles.specialize(x, z, 1024, 128, 0.5) is not scale_tiles.specialize(x, z, 1024, 256, 3.0)


def test_simulated_time_is_the_same_as_the_cpp_kernel_of_the_generated_source():
    xs = np.arange(2048, dtype=np.float32)
    x, z = pyasc.tensor(xs), pyasc.empty(2048, dtype="float32")
    pyasc.synchronize("sim")
    cpp = pyasc.Kernel(scale_tiles.source(x, z, 2048, 256, 2.0), "scale_tiles")

    def timed(launch):
        start, end = pyasc.Event(enable_timing=True, device="sim"), pyasc.Event(enable_timing=True, device="sim")
        start.record()
        launch()
        end.record()
        end.synchronize()
        return start.elapsed_time(end)

    t_jit = timed(lambda: scale_tiles[1](x, z, 2048, 256, 2.0))
    t_cpp = timed(lambda: cpp[1](x, z, 2048))
    assert t_jit > 0 and t_jit == pytest.approx(t_cpp, rel=1e-6)
    np.testing.assert_array_equal(z.numpy(), xs * 2.0)
