"""Register-based SIMD VFs of the Ascend 950 converting between register layouts (kapi/reg_simd_convert.h and the
DIST_UNPACK / DIST_BRC loads and DIST_PACK / DIST_FIRST_ELEMENT stores of kapi/reg_simd.h): CastTrait with
RegLayout::ZERO, ReduceSum / ReduceMax, Duplicate from a register, Div with a DivSpecificMode and `__VEC_SCOPE__`,
as vllm-ascend's kda_rms_norm_gated / flash_attn_c8_quant_stats write them. Our own kernels
(kernels/compat/reg_simd_convert.cpp), compared with NumPy."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat/reg_simd_convert.cpp"
BF16 = ml_dtypes.bfloat16

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")


@pytest.mark.parametrize("rows", [1, 5])
def test_bf16_row_norm_matches_numpy(binary, rows):
    rng = np.random.default_rng(rows)
    x = (rng.standard_normal((rows, 128)) * 3).astype(BF16)
    scale = rng.uniform(0.5, 2, rows).astype(np.float32)
    eps = np.float32(1e-6)
    y = pyasc.zeros((rows * 128,), dtype="bfloat16", device="sim")
    amax = pyasc.zeros((rows * 8,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_bf16_row_norm"), 1,
                     (pyasc.tensor(x.reshape(-1), device="sim"), pyasc.tensor(scale, device="sim"), y, amax,
                      np.uint32(rows), np.float32(eps)))
    pyasc.synchronize("sim")
    xf = x.astype(np.float32)
    inv = np.float32(1) / np.sqrt((xf * xf).sum(1, dtype=np.float32) / np.float32(128) + eps)
    want = (xf * (inv * scale)[:, None]).astype(BF16)
    got = y.numpy().reshape(rows, 128)
    # the row sum is accumulated in a different order than NumPy's: at most one bf16 step apart
    np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float32), rtol=8e-3, atol=1e-6)
    a = amax.numpy().reshape(rows, 8)
    np.testing.assert_array_equal(a[:, 0], np.abs(xf).max(1))
    np.testing.assert_array_equal(a[:, 1:], 0)  # DIST_FIRST_ELEMENT_B32 writes element 0 only


def test_int8_unpack4_pack4_halve_matches_numpy(binary):
    n = 192
    x = np.arange(-96, 96, dtype=np.int8)
    y = pyasc.zeros((n,), dtype="int8", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_int8_halve"), 1, (pyasc.tensor(x, device="sim"), y, np.uint32(n)))
    pyasc.synchronize("sim")
    h = x.astype(np.float64) * 0.5
    want = (np.sign(h) * np.floor(np.abs(h) + 0.5)).astype(np.int8)  # CAST_ROUND: ties away from zero
    np.testing.assert_array_equal(y.numpy(), want)


def test_fp8_e4m3fn_dequantize_and_quantize_match_ml_dtypes(binary):
    """fp8_e4m3fn_t (kapi/fp8.h): every code dequantised exactly (subnormals, 448, NaN), and float -> fp8 rounding
    to nearest even with values above 448 becoming NaN, as ml_dtypes' float8_e4m3fn."""
    f8 = ml_dtypes.float8_e4m3fn
    n = 256
    codes = np.arange(n, dtype=np.uint8)
    scale = np.float32(0.5)
    rng = np.random.default_rng(8)
    x = np.concatenate([rng.standard_normal(n - 16).astype(np.float32) * 100,
                        np.float32([0, -0.0, 1e-6, 0.0009765625, 0.00146484375, 224.0, 232.0, 240.0, 480.0 * 0.5,
                                    -232.0, 239.9, 1e9, np.inf, np.nan, 0.0013, -0.0029])])
    y = pyasc.zeros((n,), dtype="bfloat16", device="sim")
    q = pyasc.zeros((n,), dtype="uint8", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_fp8_round_trip"), 1,
                     (pyasc.tensor(codes, device="sim"), pyasc.tensor(x, device="sim"), y, q, np.uint32(n), scale))
    pyasc.synchronize("sim")
    want_y = (codes.view(f8).astype(np.float32) * scale).astype(BF16)
    np.testing.assert_array_equal(y.numpy(), want_y)  # NaN codes compare equal as NaN
    want_q = (x / scale).astype(f8)
    got_q = q.numpy().view(f8)
    nan = np.isnan(want_q.astype(np.float32))
    assert (np.isnan(got_q.astype(np.float32)) == nan).all()
    np.testing.assert_array_equal(got_q[~nan].view(np.uint8), want_q[~nan].view(np.uint8))
