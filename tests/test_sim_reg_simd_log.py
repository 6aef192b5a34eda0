"""Register-based SIMD VFs of the Ascend 950: MicroAPI::Log (the CANN 9.0 Reg page Log, atlasascendc_api_07_0349:
natural logarithm, half / float, ZEROING) and MicroAPI::MulAddDst (page 07_0380: dst = src0 * src1 + dst), as Ascend/DrivingSDK's arch35 sigmoid_focal_loss_grad calls it
(backends/sim/kernel_api/COMPAT.md "Round 26 (s26a)"). Our own kernel (kernels/compat/reg_simd_log.cpp): log(p) and
log(1 - p) of p = sigmoid(x) and p * (1 - p) + log(p) on registers, compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat/reg_simd_log.cpp"
N = 256

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")


def test_reg_log_of_sigmoid_matches_numpy(binary):
    x = np.linspace(-6, 6, N).astype(np.float32)
    y = pyasc.full((3 * N,), -7, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_log_sigmoid"), 1, (pyasc.tensor(x, device="sim"), y))
    pyasc.synchronize("sim")
    e = (np.exp(-x) + np.float32(1)).astype(np.float32)
    p = (np.float32(1) / e).astype(np.float32)
    q = (np.float32(1) - p).astype(np.float32)
    got = y.numpy().reshape(3, N)
    np.testing.assert_allclose(got[0], np.log(p.astype(np.float64)), rtol=2e-5, atol=1e-6)
    np.testing.assert_allclose(got[1], np.log(q.astype(np.float64)), rtol=2e-5, atol=1e-6)
    lp = np.log(p.astype(np.float64)).astype(np.float32)  # the register Log's float result
    want = (p.astype(np.float64) * q.astype(np.float64) + lp.astype(np.float64)).astype(np.float32)  # rounded once
    np.testing.assert_allclose(got[2], want, rtol=2e-5, atol=1e-6)
    assert (got[0] < 0).all() and (got[1] < 0).all()
