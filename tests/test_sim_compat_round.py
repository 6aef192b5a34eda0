"""The math library's Round (nearest integer, ties to even; Round page atlasascendc_api_07_0581, the SDK's
adv_api/math/round.h "round half to even") on our own kernels in the style of Ascend/DrivingSDK's fake-quantisation
op (backends/sim/kernel_api/COMPAT.md, "Round 26 (s26a)"; kernel_api/tests/kernels/compat/round_quant_idioms.cpp):
Round alone (with and without a sharedTmpBuffer) and between Mul and ClampMax / ClampMin, compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import load

SRC = "compat/round_quant_idioms.cpp"
N = 512

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


def _values(dtype):
    ties = np.array([0.5, 1.5, 2.5, 3.5, -0.5, -1.5, -2.5, -3.5, 4.5, -4.5, 1023.5, -1024.5], np.float64)
    near = np.array([0.49, 0.51, -0.49, -0.51, 2.4999, 2.5001, -0.4, -0.0, 0.0, 3.0, -7.0, 1e4], np.float64)
    rng = np.random.default_rng(26)
    rest = rng.uniform(-300, 300, N - len(ties) - len(near))
    return np.concatenate([ties, near, rest]).astype(dtype)


@pytest.mark.parametrize("dtype,name", [("float32", "round_f32"), ("float16", "round_f16")])
def test_round_breaks_ties_to_even(kernels, dtype, name):
    x = _values(dtype)
    y = pyasc.full((2 * N,), -7, dtype=dtype, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, (pyasc.tensor(x, device="sim"), y))
    pyasc.synchronize("sim")
    got = y.numpy().reshape(2, N)
    want = np.rint(x)  # NumPy's rint: ties to even, keeps the sign of zero
    for row in got:
        np.testing.assert_array_equal(row, want)
        assert np.array_equal(np.signbit(row), np.signbit(want))  # Round(-0.4) is -0, Round(-0.0) is -0
    assert list(got[0][:8]) == [0, 2, 2, 4, -0.0, -2, -2, -4]  # not half away from zero (1, 2, 3, 4, -1, ...)


@pytest.mark.parametrize("dtype,name", [("float32", "fake_quant_f32"), ("float16", "fake_quant_f16")])
def test_fake_quant_round_clamp_matches_numpy(kernels, dtype, name):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(N) * 3).astype(dtype)
    amax = np.array([np.abs(x).max() * 0.7], dtype)
    lo, hi = -127, 127
    y = pyasc.full((N,), -7, dtype=dtype, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, (pyasc.tensor(x, device="sim"), pyasc.tensor(amax, device="sim"), y,
                                                 np.int32(lo), np.int32(hi)))
    pyasc.synchronize("sim")
    scale = (np.array(hi, dtype) / amax[0]).astype(dtype)
    q = np.clip(np.rint((x * scale).astype(dtype)), lo, hi).astype(dtype)
    np.testing.assert_array_equal(y.numpy(), (q / scale).astype(dtype))
    assert (np.abs(q) == hi).any()  # amax below max |x|: some values clamp
