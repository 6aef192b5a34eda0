"""LoadDataWithTranspose (L1 -> L0A / L0B, LoadData2dTransposeParams; the 16-bit, 32-bit and 8-bit forms) and Fixpipe's ND batch (the
eleven-argument FixpipeParamsV220 constructor, ndNum / srcNdStride / dstNdStride), as kda-ascendc's
k1_solve_* cube kernels use them (backends/sim/kernel_api/COMPAT.md, "Round 17 (study17a)"). Kernels are
our own (kernels/compat/transpose_load_idioms.cpp), run on sim and compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "transpose_load_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def _bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 values that are exact in bfloat16 -> their bfloat16 bit patterns (as int16: pyasc has no uint16)."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32)
    assert not np.any(bits & 0xFFFF), "test values must be exact in bfloat16"
    return (bits >> 16).astype(np.uint16).view(np.int16)


def _from_bf16_bits(b: np.ndarray) -> np.ndarray:
    return (b.view(np.uint16).astype(np.uint32) << 16).view(np.float32)


def _round_bf16(x: np.ndarray) -> np.ndarray:
    """float32 -> the nearest bfloat16 (ties to even), as float32 (finite inputs)."""
    bits = np.ascontiguousarray(x, dtype=np.float32).view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) << 16
    return rounded.astype(np.uint32).view(np.float32)


def _dev(x):
    return pyasc.tensor(np.ascontiguousarray(x), device="sim")


def test_band_loaded_b_operand_gives_a_times_s(binary):
    rng = np.random.default_rng(17)
    a = rng.integers(-4, 5, (32, 32)).astype(np.float32)
    s = (rng.integers(-64, 65, (32, 32)) / 8).astype(np.float32)
    assert not np.array_equal(s, s.T)
    y = pyasc.zeros((32 * 32,), dtype="int16", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("band_matmul"), 1, (_dev(_bf16_bits(a)), _dev(_bf16_bits(s)), y))
    pyasc.synchronize("sim")
    exact = (a.astype(np.float64) @ s.astype(np.float64)).astype(np.float32)  # exact: small multiples of 1/8
    want = _round_bf16(exact)  # Fixpipe F322BF16 rounds to nearest even
    assert not np.array_equal(want, exact)  # the rounding is exercised
    got = _from_bf16_bits(y.numpy()).reshape(32, 32)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("mode, picks", [(0, (1, 3)), (1, (0, 1))])
@pytest.mark.parametrize("dst_nd", [256, 288])
def test_transpose_picks_fractals_and_fixpipe_batches_nd(binary, mode, picks, dst_nd):
    rng = np.random.default_rng(mode * 100 + dst_nd)
    a = rng.integers(-3, 4, (2, 16, 16)).astype(np.float32)
    s = rng.integers(-5, 6, (4, 16, 16)).astype(np.float32)
    y = pyasc.full((256 + dst_nd,), -7.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("pick_nd_batch"), 1,
                     (_dev(_bf16_bits(a)), _dev(_bf16_bits(s)), y, np.int32(dst_nd), np.int32(mode)))
    pyasc.synchronize("sim")
    out = y.numpy()
    np.testing.assert_array_equal(out[:256].reshape(16, 16), a[0] @ s[picks[0]])
    np.testing.assert_array_equal(out[dst_nd:dst_nd + 256].reshape(16, 16), a[1] @ s[picks[1]])
    np.testing.assert_array_equal(out[256:dst_nd], -7.0)  # the gap between the two ND matrices is untouched


def test_float_band_b_operand_uses_the_32_bit_transpose(binary):
    rng = np.random.default_rng(32)
    a = rng.integers(-4, 5, (16, 16)).astype(np.float32)
    b = (rng.integers(-64, 65, (16, 32)) / 8).astype(np.float32)
    y = pyasc.full((16 * 32,), -7.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("float_band_matmul"), 1, (_dev(a), _dev(b), y))
    pyasc.synchronize("sim")
    want = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)  # exact: small multiples of 1/8
    np.testing.assert_array_equal(y.numpy().reshape(16, 32), want)


def test_int8_operands_use_the_8_bit_transpose(binary):
    rng = np.random.default_rng(8)
    a = rng.integers(-128, 128, (64, 64)).astype(np.int8)
    b = rng.integers(-128, 128, (64, 96)).astype(np.int8)
    y = pyasc.full((64 * 96,), -7, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    # A travels column-major (its transpose row-major), as Catlass's ColumnMajor A operand
    pyasc_acl.launch(binary.function("int8_band_matmul"), 1, (_dev(a.T.copy()), _dev(b), y))
    pyasc.synchronize("sim")
    want = a.astype(np.int64) @ b.astype(np.int64)
    np.testing.assert_array_equal(y.numpy().reshape(64, 96), want)


@pytest.mark.parametrize("mode, pattern", [
    (0, r"fixpipe-params.*ndNum = 2.*dstNdStride = 0"),
    (1, r"LoadDataWithTranspose writes"),
])
def test_misuse_is_reported(binary, mode, pattern):
    y = pyasc.zeros((512,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    with pytest.raises(pyasc.PyascError, match=pattern):
        pyasc_acl.launch(binary.function("transpose_load_misuse"), 1, (y, np.int32(mode)))
        pyasc.synchronize("sim")
