"""Cube chains and the CCE cross-core sync intrinsics, as sgl-kernel-npu's tri_inv uses them (backends/sim/
kernel_api/COMPAT.md, "Round 16 (tri16)"): Fixpipe from L0C into an L1 tensor (FixpipeParamsV220, CFG_NZ,
F322F16) feeding a second Mmad, the older FixpipeParams<float> with Nz2NdParams writing ND to GM, and an AIC /
AIV handshake through ffts_cross_core_sync / wait_flag_dev (flags 11 and 12). Kernels are our own
(kernels/compat/cube_chain_idioms.cpp), run on sim and compared with NumPy bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "cube_chain_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", core="mix"), device="sim")


def _dev(x):
    return pyasc.tensor(np.ascontiguousarray(x), device="sim")


@pytest.mark.parametrize("m, k, n, m2", [(32, 48, 64, 16), (16, 16, 16, 16), (48, 32, 32, 32)])
def test_fixpipe_into_l1_feeds_a_second_mmad(binary, m, k, n, m2):
    rng = np.random.default_rng(m * 1000 + k * 10 + n)
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = (rng.integers(-1000, 1001, (k, n)) / 256).astype(np.float16)  # sums need more than half's 11 bits
    a2 = rng.integers(-2, 3, (m2, m)).astype(np.float16)
    y = pyasc.full((m2 * n,), -1.0, dtype="float32", device="sim")
    shape = _dev(np.array([m, k, n, m2], np.int32))
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("chain_mm"), 1, (_dev(a), _dev(b), _dev(a2), y, shape))
    pyasc.synchronize("sim")
    c = a.astype(np.float64) @ b.astype(np.float64)  # exact: small integers times sixteenths
    c_half = c.astype(np.float32).astype(np.float16)  # Fixpipe F322F16 rounds to nearest even
    assert not np.array_equal(c_half.astype(np.float64), c)  # the rounding is exercised
    want = (a2.astype(np.float64) @ c_half.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(y.numpy().reshape(m2, n), want)


@pytest.mark.parametrize("groups", [1, 3])
def test_ffts_handshake_around_a_cube_chain(binary, groups):
    rng = np.random.default_rng(groups)
    x = rng.integers(-1, 2, (groups, 32, 32)).astype(np.float16)
    ws = pyasc.zeros((groups * 32 * 32,), dtype="float16", device="sim")
    y = pyasc.full((groups * 32 * 32,), -1.0, dtype="float32", device="sim")
    z = pyasc.full((groups * 2 * 32 * 32,), -1.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("ffts_cube_chain"), groups, (_dev(x), ws, y, z))
    pyasc.synchronize("sim")
    w = 2 * x.astype(np.float64)
    want = np.stack([wi @ (wi @ wi) for wi in w]).astype(np.float32)  # |w @ w| <= 128: exact in half
    np.testing.assert_array_equal(y.numpy().reshape(groups, 32, 32), want)
    zs = z.numpy().reshape(groups, 2, 32, 32)
    for sub in range(2):
        np.testing.assert_array_equal(zs[:, sub], want + sub)


@pytest.mark.parametrize("mode, pattern", [
    (0, r"ffts-config.*ffts_cross_core_sync\(pipe 10, config 0x231\).*mode in \[0, 2\]"),
    (1, r"fixpipe-l1.*writes NZ.*pass CFG_NZ"),
    (2, r"fixpipe-params.*nz2ndEn = true needs nz2ndParams.originalNSize"),
])
def test_misuse_is_reported(binary, mode, pattern):
    y = pyasc.zeros((256,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    with pytest.raises(pyasc.PyascError, match=pattern):
        pyasc_acl.launch(binary.function("cube_chain_misuse"), 1, (y, _dev(np.array([mode] * 8, np.int32))))
        pyasc.synchronize("sim")


@pytest.mark.parametrize("groups", [1, 2])
def test_mode2_release_needs_both_vector_cores_each_round(binary, groups):
    # AIV 1 only syncs, so it reaches each round's set before AIV 0 has written that round's value: the cube
    # core must still read each round's slot only after AIV 0 wrote it (the reference: "两个AIV都执行CrossCoreSetFlag后" the AIC proceeds)
    ws = pyasc.zeros((groups * 6 * 16,), dtype="int32", device="sim")
    out = pyasc.full((groups * 16,), -1, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("ffts_uneven_rounds"), groups, (ws, out))
    pyasc.synchronize("sim")
    got = out.numpy().reshape(groups, 16)[:, :6]
    np.testing.assert_array_equal(got, [[(g + 1) * 100 + r for r in range(6)] for g in range(groups)])
