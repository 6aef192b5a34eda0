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
