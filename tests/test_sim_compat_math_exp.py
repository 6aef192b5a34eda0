"""The math library's Exp<T, taylorExpandLevel, isReuseSource> (backends/sim/kernel_api/COMPAT.md, "Round 19
(study19c)", NPUKernelBench's SelectReduceMaxDSubExpReduceSumDRealDiv answer calls `Exp<half, 15, false>`) on our
own kernel (kernel_api/tests/kernels/compat/math_exp_idioms.cpp), next to the basic API Exp of the same name:
level 0 is e^x, a level n > 0 the reference's split e^floor(x) * (Taylor polynomial of e^frac(x), n terms), so
few terms show the documented truncation error; compared with NumPy."""

from __future__ import annotations

import math

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import load

SRC = "compat/math_exp_idioms.cpp"
N = 256


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def taylor_exp(x: np.ndarray, terms: int) -> np.ndarray:
    a = np.floor(x)
    b = x - a
    poly = sum(b ** k / math.factorial(k) for k in range(terms + 1))
    return np.exp(a) * poly


@pytest.mark.parametrize("dtype,name,rtol", [("float32", "math_exp_f32", 2e-7), ("float16", "math_exp_f16", 1e-3)])
def test_math_library_exp_levels_match_numpy(kernels, dtype, name, rtol):
    x = np.linspace(-6.0, 5.0, N).astype(dtype)
    y = pyasc.zeros((4 * N,), dtype=dtype, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, (pyasc.tensor(x, device="sim"), y))
    pyasc.synchronize("sim")
    got = y.numpy().reshape(4, N).astype(np.float64)
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(got[0], np.exp(x64), rtol=rtol)
    three = taylor_exp(x64, 3)
    np.testing.assert_allclose(got[1], three, rtol=rtol)
    # three terms is visibly not e^x (the documented truncation error: up to 1 - (1 + 1 + 1/2 + 1/6) / e ~ 1.9%)
    assert np.max(np.abs(three / np.exp(x64) - 1)) > 0.01
    np.testing.assert_allclose(got[2], np.exp(x64), rtol=rtol)
    np.testing.assert_allclose(got[3], np.exp(x64), rtol=max(rtol, 5e-7))
