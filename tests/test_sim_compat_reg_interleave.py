"""Reg (MicroAPI) calls of the arch35 deformable-sampling kernels, Ascend 950 (COMPAT.md "Round 29 (s29a)";
DrivingSDK's arch35 multi_scale_deformable_attn did not compile without them):

* `Interleave` / `DeInterleave` of two registers (CANN 9.0 Reg pages atlasascendc_api_07_0405 / 07_0406);
* `MulDstAdd` (page 07_00007: dst = dst * src0 + src1) and `FusedMulDstAdd`, the SDK's other spelling of it;
* `Compares<T, mode>(dst, reg, scalar, mask)`, the SDK's name of the register-with-scalar compare (= CompareScalar);
* `And` / `Not` of MaskRegs (the And page: the logical AND of the two masks' valid bits);
* `Simt::Floor`, the Simt-namespace spelling of the documented floorf (page 07_10510).

Our kernel in those idioms: backends/sim/kernel_api/tests/kernels/compat/reg_interleave_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat/reg_interleave_idioms.cpp"
PAIRS, W, H = 128, np.float32(7), np.float32(5)

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")


def test_pairs_split_scaled_joined_and_flagged(binary):
    xy = np.random.default_rng(7).uniform(-0.3, 1.3, (PAIRS, 2)).astype(np.float32)
    xy[0] = (0.0, 0.0)        # -0.5, -0.5: inside
    xy[1] = (-1 / 14, 0.5)    # x * 7 - 0.5 = -1: outside (not > -1)
    xy[2] = (1.0, 0.2)        # x * 7 - 0.5 = 6.5 < 7: inside
    out = pyasc.full((2 * PAIRS,), -7.0, dtype="float32", device="sim")
    flags = pyasc.full((PAIRS,), -7, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_pixel_coords"), 1, (pyasc.tensor(xy.reshape(-1), device="sim"), out, flags))
    pyasc.synchronize("sim")
    px = (xy[:, 0].astype(np.float64) * W - 0.5).astype(np.float32)  # one rounding, as the instruction
    py = (xy[:, 1].astype(np.float64) * H - 0.5).astype(np.float32)
    np.testing.assert_array_equal(out.numpy().reshape(PAIRS, 2), np.stack([px, py], axis=1))
    inside = (px > -1) & (py > -1) & (px < W) & (py < H)
    np.testing.assert_array_equal(flags.numpy(), (~inside).astype(np.int32))
    assert flags.numpy()[:3].tolist() == [0, 1, 0]


def test_simt_floor_matches_numpy(binary):
    x = np.array([2.4, -2.4, -0.0, 0.5, -0.5, 7.0, -1e-7, 1e7 + 0.5, np.inf, -np.inf, np.nan] * 20, np.float32)
    out = pyasc.full((x.size,), -7.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("simt_floor"), 1, (pyasc.tensor(x, device="sim"), out, x.size))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(out.numpy(), np.floor(x))
