"""Idioms of the round 11 (study11a) public kernel (backends/sim/kernel_api/COMPAT.md), a PReLU-like
activation: a per-segment scalar read back with GetValue from a one-element DataCopyPad into a depth-1
queue, float arithmetic on offset views, half / bf16 through Cast CAST_NONE and back with CAST_ROUND (round
half away from zero, where NumPy's astype rounds half to even), and the sanitizer's ub-alignment report when
a segment view starts off a 32-byte boundary. The kernel is our own (kernels/compat/study11a_idioms.cpp)."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "study11a_idioms.cpp"
DTYPES = {"float16": (np.float16, 0), "float32": (np.float32, 1), "bfloat16": (ml_dtypes.bfloat16, 2)}
# x * slope lands exactly half-way between two neighbours of the 2-byte type, below an even neighbour:
# half: 1.0029296875 * 0.75 = 1540.5 ulps of 2^-11; bfloat16: 1.0234375 * 0.75 = 196.5 ulps of 2^-8
TIES = {"float16": (-1.0029296875, 0.75), "bfloat16": (-1.0234375, 0.75)}

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


# the default build (the compiler's automatic synchronisation on) and one with it off, where the kernel's own
# MTE2_S pair after the weight's DeQue is what orders its GetValue: clean and the same values in both
@pytest.fixture(scope="module", params=[(), ("--cce-auto-sync=off",)], ids=["auto-sync", "auto-sync-off"])
def kernel(request):
    path = pyasc_sim.compile(SRC, opt="-O1", extra_flags=list(request.param))
    return pyasc_acl.Binary(path, device="sim").function("segment_slope")


def _round_half_away(r: np.ndarray, npdt) -> np.ndarray:
    """float32 -> npdt, rounding half away from zero (Cast CAST_ROUND)."""
    r = r.astype(np.float32)
    if npdt is np.float32:
        return r
    down = r.astype(npdt)  # nearest, ties to even
    d = down.astype(np.float32)
    away = np.nextafter(down, np.where(r < 0, -np.inf, np.inf).astype(npdt)).astype(np.float32)
    tie = (d != r) & (np.abs(away - r) == np.abs(d - r)) & (np.abs(away) > np.abs(d))
    return np.where(tie, away, d).astype(npdt)


def _launch(kernel, x, slope, blocks, n, seg, dtype):
    xd, sd = pyasc.tensor(x, device="sim"), pyasc.tensor(slope, device="sim")
    y = pyasc.zeros((x.size,), dtype=dtype, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernel, blocks, (xd, sd, y, n, seg, DTYPES[dtype][1]))
    pyasc.synchronize("sim")
    return y.numpy()


@pytest.mark.parametrize("dtype", list(DTYPES))
def test_segment_slopes_match_numpy(kernel, dtype):
    npdt = DTYPES[dtype][0]
    blocks, n, seg = 2, 256, 64
    rng = np.random.default_rng(11)
    x = rng.uniform(-4, 4, blocks * n).astype(npdt)
    slope = rng.uniform(0.05, 0.9, blocks * n // seg).astype(npdt)
    if dtype in TIES:
        x[5], slope[0] = TIES[dtype]
    got = _launch(kernel, x, slope, blocks, n, seg, dtype)
    xf = x.astype(np.float32)
    a = np.repeat(slope.astype(np.float32), seg)
    want = _round_half_away(np.maximum(xf, 0) + np.minimum(xf, 0) * a, npdt)
    np.testing.assert_array_equal(got.astype(np.float32), want.astype(np.float32))
    if dtype in TIES:  # the tie went away from zero, where round-half-to-even would not
        tie = np.float32(TIES[dtype][0]) * np.float32(TIES[dtype][1])
        assert abs(float(got[5])) > abs(float(np.float32(tie).astype(npdt)))


def test_segment_off_a_32_byte_boundary_is_reported(kernel):
    x = np.linspace(-2, 2, 40, dtype=np.float32)
    slope = np.full(8, 0.5, dtype=np.float32)
    with pytest.raises(pyasc_acl.AclKernelError, match=r"'ub-alignment' failed at .*study11a_idioms.cpp:\d+: Maxs: "
                                                        r"dst starts at UB offset \d+ \(0x[0-9a-f]+\), which is "
                                                        r"not 32-byte aligned \(20 bytes past a boundary\)"):
        _launch(kernel, x, slope, 1, 40, 5, "float32")
