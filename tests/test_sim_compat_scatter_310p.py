"""Scatter (Atlas inference series AI Core) on the simulator against NumPy: the count form, the
continuous-mask form, and the checks for repeated and misaligned offsets and for Atlas A2, where the
reference marks it unsupported (issue 8 point 6).
Kernels: backends/sim/kernel_api/tests/kernels/compat/scatter_310p.cpp (ours, in the public style)."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim

from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "scatter_310p.cpp"
N = 256


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend310P3"), device="sim")


def _run(kernels, x, offsets, mask, base):
    y = pyasc.full((2 * N,), 5.0, dtype="float16", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("scatter_half"), 1,
                     (pyasc.tensor(x, device="sim"), pyasc.tensor(offsets.view(np.int32), device="sim"), y, mask, base))
    pyasc.synchronize("sim")
    return y.numpy()


def test_count_form_reverses_like_the_documented_example(kernels):
    x = np.arange(N, dtype=np.float16)
    offsets = (np.arange(N)[::-1] * 2).astype(np.uint32)  # [510 508 ... 0] bytes
    got = _run(kernels, x, offsets, 0, 0)
    np.testing.assert_array_equal(got[:N], x[::-1])
    np.testing.assert_array_equal(got[N:], 0)


def test_count_form_with_a_base_address_and_a_random_permutation(kernels):
    rng = np.random.default_rng(8)
    x = rng.standard_normal(N).astype(np.float16)
    perm = rng.permutation(N)
    got = _run(kernels, x, (perm * 2).astype(np.uint32), 0, 2 * N)  # base: the second half of y
    want = np.zeros(2 * N, dtype=np.float16)
    want[N + perm] = x
    np.testing.assert_array_equal(got, want)


def test_mask_form_scatters_only_the_masked_lanes_of_each_repeat(kernels):
    rng = np.random.default_rng(9)
    x = rng.standard_normal(N).astype(np.float16)
    perm = rng.permutation(2 * N)[:N]
    got = _run(kernels, x, (perm * 2).astype(np.uint32), 100, 0)  # 100 of 128 lanes per repeat
    want = np.zeros(2 * N, dtype=np.float16)
    for r in range(2):
        lanes = np.arange(100) + 128 * r
        want[perm[lanes]] = x[lanes]
    np.testing.assert_array_equal(got, want)


def test_repeated_offsets_are_reported(kernels):
    offsets = (np.arange(N) * 2).astype(np.uint32)
    offsets[7] = offsets[3]
    with pytest.raises(pyasc.PyascError) as info:
        _run(kernels, np.zeros(N, dtype=np.float16), offsets, 0, 0)
    msg = str(info.value)
    assert "scatter-duplicate" in msg and "dstOffset[3]" in msg and "dstOffset[7]" in msg, msg


def test_misaligned_offsets_are_reported(kernels):
    offsets = (np.arange(N) * 2).astype(np.uint32)
    offsets[5] = 11
    with pytest.raises(pyasc.PyascError) as info:
        _run(kernels, np.zeros(N, dtype=np.float16), offsets, 0, 0)
    assert "ub-alignment" in str(info.value) and "dstOffset[5] = 11" in str(info.value)


def test_scatter_is_refused_on_atlas_a2(tmp_path):
    src = tmp_path / "a2_scatter.cpp"
    src.write_text(textwrap.dedent("""
        #include "kernel_operator.h"
        using namespace AscendC;
        extern "C" __global__ __aicore__ void a2_scatter(GM_ADDR x)
        {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            pipe.InitBuffer(b, 4096);
            LocalTensor<half> t = b.Get<half>();
            Scatter(t, t, b.Get<uint32_t>(), 0u, 16u);
        }
        """))
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(src, opt="-O0", soc="Ascend910B1")
    assert "AscendC::Scatter is not documented for this element type T on Atlas A2" in info.value.output
