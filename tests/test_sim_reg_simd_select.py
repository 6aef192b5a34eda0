"""Register-based SIMD VFs of the Ascend 950: Compare / CompareScalar into a MaskReg and Select with it
(kapi/reg_simd_select.h), as vllm-ascend's flash_attn_c8_prepare uses them. Our own kernel
(kernels/compat/reg_simd_select.cpp), compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat/reg_simd_select.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")


@pytest.mark.parametrize("n", [64, 136])
def test_compare_select_match_numpy(binary, n):
    rng = np.random.default_rng(n)
    x = rng.standard_normal(n).astype(np.float32)
    s = np.where(rng.random(n) < 0.3, 0, rng.uniform(0.5, 2, n)).astype(np.float32)
    t = np.float32(0.25)
    dev_s = pyasc.tensor(s, device="sim")
    y = pyasc.zeros((n,), dtype="float32", device="sim")
    z = pyasc.zeros((n,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_select_rows"), 1,
                     (pyasc.tensor(x, device="sim"), dev_s, y, z, np.uint32(n), t))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), np.abs(x))
    np.testing.assert_array_equal(z.numpy(), (x > t).astype(np.float32))
    np.testing.assert_array_equal(dev_s.numpy(), np.where(s == 0, 1, s).astype(np.float32))
    assert (s == 0).any()  # the zero-scale branch is exercised
