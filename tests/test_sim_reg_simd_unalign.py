"""Register-based SIMD VFs of the Ascend 950 that append a varying number of elements to UB (kapi/reg_simd_unalign.h):
MaskReg stores / loads through an AddrReg, Squeeze / GatherMask with the AR special register, the unaligned store
through an UnalignReg and its Post, as Ascend/DrivingSDK's arch35 unique_voxel compacts its voxels, and the unaligned
loads. Our own kernel
(kernels/compat/reg_unalign_squeeze.cpp, one build), compared with NumPy; the misuses the reference forbids are
reported."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat/reg_unalign_squeeze.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")


def _compact(binary, x, mode):
    n = len(x)
    chunks = -(-n // 64)
    out = pyasc.zeros((chunks * 64,), dtype="int32", device="sim")
    bits = pyasc.zeros((chunks * 32,), dtype="uint8", device="sim")
    cnt = pyasc.zeros((8,), dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_compact_positive"), 1,
                     (pyasc.tensor(x, device="sim"), out, bits, cnt, np.uint32(n), np.uint32(mode)))
    pyasc.synchronize("sim")
    return out.numpy(), bits.numpy(), int(cnt.numpy()[0])


@pytest.mark.parametrize("n", [64, 136, 200])
def test_squeeze_store_reg_appends_through_ar(binary, n):
    """GatherMask<.., STORE_REG> + the AR-form DataCopyUnAlign append each register's kept elements after the last;
    GetSpr<AR> is their bytes; the stored MaskReg has one bit per VL byte (4 per int32 element)."""
    rng = np.random.default_rng(n)
    x = rng.integers(-5, 6, n).astype(np.int32)
    out, bits, kept = _compact(binary, x, 0)
    want = x[x > 0]
    assert kept == len(want)
    np.testing.assert_array_equal(out[:kept], want)
    np.testing.assert_array_equal(out[kept:], -7)  # nothing past the kept elements is written
    chunks = -(-n // 64)
    pos = np.zeros(chunks * 64, bool)
    pos[:n] = x > 0
    np.testing.assert_array_equal(bits, np.packbits(np.repeat(pos, 4), bitorder="little"))


def test_missing_post_loses_the_tail(binary):
    """Without DataCopyUnAlignPost the elements past the last 32-byte boundary stay in the UnalignReg (page
    atlas_ascendc_best_practices_10_00025): only whole 32-byte blocks reach UB."""
    x = np.arange(-20, 116, dtype=np.int32)  # 136 elements, 115 kept: 14 whole blocks of 8 and 3 left over
    out, _, kept = _compact(binary, x, 3)
    assert kept == 115
    np.testing.assert_array_equal(out[:112], x[x > 0][:112])
    np.testing.assert_array_equal(out[112:], -7)


@pytest.mark.parametrize("mode, message", [(1, "none came before it"), (2, "was never stored")])
def test_squeeze_and_ar_store_must_alternate(binary, mode, message):
    """The AR-form store needs a Squeeze<STORE_REG> right before it (page atlasascendc_api_07_0420)."""
    x = np.arange(-8, 56, dtype=np.int32)
    with pytest.raises(pyasc_acl.AclKernelError, match=f"vector-register.*{message}"):
        _compact(binary, x, mode)


def _float_kernel(binary, name, x, y_len, *scalars):
    """Launches float kernel `name(x, y, scalars...)` on one block; y (y_len floats) back."""
    y = pyasc.zeros((y_len,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function(name), 1, (pyasc.tensor(x, device="sim"), y) + tuple(map(np.uint32, scalars)))
    pyasc.synchronize("sim")
    return y.numpy()


def _prefix(binary, x, k, dst_off=0):
    chunks = len(x) // 64
    return _float_kernel(binary, "reg_unalign_prefix", x, -(-chunks * k // 8) * 8, chunks, k, dst_off)


@pytest.mark.parametrize("k", [5, 13, 64])
def test_store_unalign_post_update(binary, k):
    """StoreUnAlign(dst, reg, ureg, k) writes k elements and advances dst by k; one StoreUnAlignPost ends it."""
    chunks = 3
    x = np.random.default_rng(k).standard_normal(chunks * 64).astype(np.float32)
    y = _prefix(binary, x, k)
    want = x.reshape(chunks, 64)[:, :k].reshape(-1)
    np.testing.assert_array_equal(y[:chunks * k], want)
    np.testing.assert_array_equal(y[chunks * k:], -7)


def test_store_unalign_outside_ub_is_reported(binary):
    x = np.zeros(64, np.float32)
    with pytest.raises(pyasc_acl.AclKernelError, match="local-out-of-bounds.*Reg::StoreUnAlign"):
        _prefix(binary, x, 8, dst_off=1 << 20)


def _shift(binary, x, shift, pre=1):
    chunks = len(x) // 64 - 1
    return _float_kernel(binary, "reg_unalign_shift", x, chunks * 64, chunks, shift, pre)


@pytest.mark.parametrize("shift", [3, 8, 61])
def test_load_unalign_post_update(binary, shift):
    """LoadUnAlignPre once, then LoadUnAlign(reg, ureg, src, 64) reads a VL from the unaligned src and advances it."""
    x = np.arange(3 * 64, dtype=np.float32)
    np.testing.assert_array_equal(_shift(binary, x, shift), x[shift:shift + 128])


def test_load_unalign_without_pre_is_reported(binary):
    x = np.zeros(128, np.float32)
    with pytest.raises(pyasc_acl.AclKernelError, match="vector-register.*LoadUnAlignPre"):
        _shift(binary, x, 3, pre=0)

