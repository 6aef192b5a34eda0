"""The blocked Mmad micro-kernel (kapi/mmad_kernel.h) gives the reference loop's bits: every
micro-kernel this CPU runs (baseline, AVX2 + FMA, AVX-512), and the public Mmad, against
sim_detail::mmad_reference on the same L0A / L0B / L0C contents, for half / bfloat16 / float / int8
inputs, ragged m / n / k, fresh and accumulating L0C, in native and portable builds."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "mmad_pin.cpp"
# dtype -> (kernel, elements per fractal row C0, numpy input type, output type)
TYPES = {
    "half": ("mmad_pin_half", 16, np.float16, np.float32),
    "bfloat16": ("mmad_pin_bfloat16", 16, ml_dtypes.bfloat16, np.float32),
    "float": ("mmad_pin_float", 8, np.float32, np.float32),
    "int8": ("mmad_pin_int8", 32, np.int8, np.int32),
}
# (m, n, k): whole fractals, ragged edges in each of m / n / k, one row, one column
SHAPES = [(16, 16, 16), (128, 128, 64), (40, 56, 70), (1, 130, 33), (100, 7, 130), (33, 17, 1)]
VARIANTS = {1: "public Mmad", 2: "baseline", 3: "avx2", 4: "avx512", 5: "avx512 without the float epilogue"}


def _cpu_flags() -> set[str]:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


FLAGS = _cpu_flags()
RUNNABLE = {1: True, 2: True, 3: {"avx2", "fma"} <= FLAGS, 4: "avx512f" in FLAGS, 5: "avx512f" in FLAGS}


@pytest.fixture(scope="module", params=["native", "portable"])
def binary(request):
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, isa=request.param), device="sim")


def _values(rng: np.random.Generator, size: int, dtype) -> np.ndarray:
    """Inputs over a wide range (so that sums round), about 15% zeros."""
    if dtype == np.int8:
        v = rng.integers(-128, 128, size)
    else:
        v = rng.standard_normal(size) * np.exp2(rng.integers(-8, 9, size))
        v[rng.random(size) < 0.15] = 0.0
    return v.astype(dtype)


def _run(binary, dtype: str, shape, init: int, variant: int, a, b, c) -> np.ndarray:
    name, _, _, _ = TYPES[dtype]
    m, n, k = shape
    out = pyasc.tensor(c.copy(), device="sim")
    pyasc.synchronize("sim")
    ta, tb = (pyasc.tensor(x.view(np.int16) if x.dtype.itemsize == 2 else x, device="sim") for x in (a, b))
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function(name), 1, (ta, tb, out, m, n, k, init, variant))
    return out.numpy()


def _operands(dtype: str, shape, seed: int):
    """Raw L0A / L0B contents (padding included: the reference ignores it) and an initial L0C."""
    _, c0, np_in, np_out = TYPES[dtype]
    m, n, k = shape
    mb, kb, nb = -(-m // 16), -(-k // c0), -(-n // 16)
    rng = np.random.default_rng(seed)
    a = _values(rng, mb * kb * 16 * c0, np_in)
    b = _values(rng, kb * nb * 16 * c0, np_in)
    if np_out == np.int32:
        c = rng.integers(-1000, 1000, mb * nb * 256).astype(np.int32)
    else:
        c = (rng.standard_normal(mb * nb * 256) * 100).astype(np.float32)
    return a, b, c


@pytest.mark.parametrize("dtype", list(TYPES))
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_blocked_mmad_is_bit_identical_to_the_reference(binary, dtype, shape):
    a, b, c = _operands(dtype, shape, seed=sum(shape) + len(dtype))
    for init in (1, 0):  # C = A x B, then C += A x B onto the random initial C
        want = _run(binary, dtype, shape, init, 0, a, b, c)
        assert np.any(want != c)
        for variant, label in VARIANTS.items():
            if not RUNNABLE[variant]:
                continue
            got = _run(binary, dtype, shape, init, variant, a, b, c)
            np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32),
                                          err_msg=f"{label} micro-kernel, init={init}")


@pytest.mark.parametrize("dtype", ["half", "float"])
def test_non_finite_inputs_and_nan_padding_keep_the_reference_bits(binary, dtype):
    """Inf / NaN in the used part of A or B hand the product to the reference loop (0 x Inf
    skipped there); NaN in the padding of the fractals is not data and changes nothing."""
    shape = (40, 20, 45)
    _, c0, np_in, _ = TYPES[dtype]
    a, b, c = _operands(dtype, shape, seed=7)
    kb = -(-45 // c0)
    a_pad = a.copy()
    a_pad.reshape(-1, 16, c0)[kb - 1, :, 45 % c0:] = np.nan  # columns k >= 45 of the first row block
    a_pad.reshape(-1, 16, c0)[-1, 40 % 16:, :] = np.nan      # rows m >= 40 of the last fractal
    for aa, bb in ((a_pad, b), (a, np.where(np.arange(b.size) == 3, np.inf, b).astype(np_in)),
                   (np.where(np.arange(a.size) == 5, -np.inf, a).astype(np_in), b)):
        for init in (1, 0):
            with np.errstate(invalid="ignore"):
                want = _run(binary, dtype, shape, init, 0, aa, bb, c)
                for variant in (1, 2, 4) if RUNNABLE[4] else (1, 2):
                    got = _run(binary, dtype, shape, init, variant, aa, bb, c)
                    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
