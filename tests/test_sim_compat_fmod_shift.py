"""The math library's Fmod (page atlasascendc_api_07_0608: a - Trunc(a / b) * b, A2 / A3 / 350), the Reg
ShiftLefts of the Ascend 950 (page atlasascendc_api_07_0386: logical left shift by an int16_t count) and its
ShiftRights (page atlasascendc_api_07_0387: arithmetic on signed, logical on unsigned types; arch35 voxel_to_point), the SDK's
ONE_REPEAT_FLOAT_SIZE constant (kernel_utils_constants.h), which Ascend/DrivingSDK's grid_sampler2d_v2 and arch35
point_to_voxel use (COMPAT.md "Round 30 (s30b)"; both kernels stopped at them before), and a Reg Cast whose
CastTrait is a block-scope `static constexpr` object in a class template's member (point_to_voxel's idiom: g++ 12
crashed on it while the kernel API took the trait by reference).

Our kernels in those idioms: backends/sim/kernel_api/tests/kernels/compat/fmod_shift_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat/fmod_shift_idioms.cpp"
N = 256

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def _fmod_reference(a, b):
    # the page's formula in float32, one rounding per step (quotient, product, difference)
    q = np.trunc((a / b).astype(np.float32))
    return (a - (q * b).astype(np.float32)).astype(np.float32)


@pytest.mark.parametrize("soc", [None, "Ascend950PR_9599"])
def test_fmod_matches_the_documented_formula(soc):
    binary = pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc=soc), device="sim")
    rng = np.random.default_rng(30)
    a = rng.uniform(-50, 50, N).astype(np.float32)
    b = rng.uniform(0.5, 7, N).astype(np.float32) * rng.choice([-1, 1], N).astype(np.float32)
    a[:4] = [2.0, -3.0, 7.5, -0.0]
    b[:4] = [1.5, 1.1, 2.5, 3.0]
    out = pyasc.full((2 * N,), -7.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("fmod_reflect"), 1,
                     (pyasc.tensor(a, device="sim"), pyasc.tensor(b, device="sim"), out, np.uint32(N)))
    pyasc.synchronize("sim")
    got = out.numpy().reshape(2, N)
    want = _fmod_reference(a, b)
    np.testing.assert_array_equal(got[0], want)
    np.testing.assert_array_equal(got[1], want)
    np.testing.assert_allclose(got[0][:3], [0.5, -0.8, 0.0], atol=1e-6)  # the page's examples and an exact multiple
    np.testing.assert_allclose(got[0], np.fmod(a, b), atol=2e-5)  # and C's fmod, up to the float quotient's rounding


def test_reg_shift_lefts_packs_voxel_keys():
    binary = pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")
    rng = np.random.default_rng(8)
    xyz = np.stack([rng.integers(-20, 2100, N), rng.integers(-20, 2100, N), rng.integers(-5, 270, N)]).astype(np.int32)
    xyz[:, 0] = (2047, 2047, 255)  # the largest key: every bit of the 30 used
    out = pyasc.full((N,), -7, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_voxel_key"), 1, (pyasc.tensor(xyz.reshape(-1), device="sim"), out, np.uint32(N)))
    pyasc.synchronize("sim")
    x, y, z = xyz.astype(np.int64)
    ok = (x >= 0) & (x < 2048) & (y >= 0) & (y < 2048) & (z >= 0) & (z < 256)
    want = np.where(ok, (x << 19) + (y << 8) + z, -1).astype(np.int32)
    np.testing.assert_array_equal(out.numpy(), want)
    assert out.numpy()[0] == (2047 << 19) + (2047 << 8) + 255 and 0 < ok.sum() < N


def test_reg_shift_rights_decodes_voxel_keys():
    # page atlasascendc_api_07_0387: arithmetic right shift on int32 (DrivingSDK's arch35 voxel_to_point decode),
    # logical on uint32; a count of 40 (>= 32) leaves the sign fill
    binary = pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")
    rng = np.random.default_rng(10)
    x, y, z = rng.integers(0, 2048, N), rng.integers(0, 2048, N), rng.integers(0, 256, N)
    keys = ((x << 19) + (y << 8) + z).astype(np.int32)
    keys[:4] = [-1, -256, np.iinfo(np.int32).min, (2047 << 19) + (2047 << 8) + 255]
    keys[4:8] = -rng.integers(1, 2**31 - 1, 4)
    out = pyasc.full((5 * N,), -7, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_voxel_decode"), 1, (pyasc.tensor(keys, device="sim"), out, np.uint32(N)))
    pyasc.synchronize("sim")
    got = out.numpy().reshape(5, N)
    k = keys.astype(np.int64)
    t = k >> 8  # NumPy's >> on signed integers is arithmetic
    wx = t >> 11
    np.testing.assert_array_equal(got[0], wx)
    np.testing.assert_array_equal(got[1], t - (wx << 11))
    np.testing.assert_array_equal(got[2], k - ((k >> 8) << 8))
    np.testing.assert_array_equal(got[3].view(np.uint32), keys.view(np.uint32) >> 20)
    np.testing.assert_array_equal(got[4], np.where(keys < 0, -1, 0))
    np.testing.assert_array_equal(got[:3, 8:], np.stack([x, y, z])[:, 8:])  # non-negative keys decode to (x, y, z)
    assert got[0, 0] == -1 and got[0, 2] == -4096 and got[3, 0] == 4095  # sign copied in; zeros shifted in


@pytest.mark.parametrize("left, api, page", [(1, "ShiftLefts", "07_0386"), (0, "ShiftRights", "07_0387")])
def test_reg_shift_by_a_negative_count_is_reported(left, api, page):
    # neither page supports a negative count: the launch fails naming the API, the count and the page; a count of 3
    # on the same launch path shifts, so the failure is the count's, and the device stays usable after it
    binary = pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")
    keys = np.arange(-N // 2, N // 2, dtype=np.int32) * 1000
    dev = pyasc.tensor(keys, device="sim")
    out = pyasc.full((N,), -7, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    with pytest.raises(pyasc.PyascError, match=rf"{api}: shift count -2 is negative \(page atlasascendc_api_{page}"):
        pyasc_acl.launch(binary.function("reg_shift_by"), 1, (dev, out, np.uint32(N), np.uint32(left), np.int32(-2)))
        pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_shift_by"), 1, (dev, out, np.uint32(N), np.uint32(left), np.int32(3)))
    pyasc.synchronize("sim")
    want = (keys.astype(np.int64) << 3).astype(np.int32) if left else keys >> 3
    np.testing.assert_array_equal(out.numpy(), want)


def test_reg_cast_trait_declared_in_a_class_template_member():
    binary = pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")
    pts = np.random.default_rng(9).uniform(-30, 30, N).astype(np.float32)
    pts[:4] = [0.0, -0.1, 0.25, -0.25]
    out = pyasc.full((N,), -7, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_floor_cells"), 1, (pyasc.tensor(pts, device="sim"), out, np.uint32(N)))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(out.numpy(), np.floor(pts * np.float32(4)).astype(np.int32))
    assert out.numpy()[:4].tolist() == [0, -1, 1, -1]
