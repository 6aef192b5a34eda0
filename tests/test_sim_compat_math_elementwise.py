"""The math library's elementwise functions Acos, Asin, Atan, Cos, Sin, Tan, Cosh, Sinh, Erf, Erfc, Log, Log2, Log10,
Power, Sign
(backends/sim/kernel_api/COMPAT.md, "Round 17 (study17c)", NPUKernelBench's foreach answers) on our own kernel
in the style of the public kernels studied (kernel_api/tests/kernels/compat/math_elementwise_idioms.cpp): passed
as function-pointer template arguments and called with a sharedTmpBuffer, compared with NumPy; and the basic
vector APIs Adds / Muls / Exp / Add / Mul named as function-pointer template arguments, count forms and repeat
(mask) forms (ForeachDivScalar's `Div` as a `..., uint64_t mask, const uint8_t, const BinaryRepeatParams &`
function pointer)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import load

SRC = "compat/math_elementwise_idioms.cpp"
N = 256
FUNCS = [np.arccos, np.arcsin, np.arctan, np.cos, np.sin, np.tan, np.cosh, np.sinh,
         np.vectorize(math.erf), np.vectorize(math.erfc)]


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.mark.parametrize("dtype,name,rtol", [("float32", "math_elementwise_f32", 1e-6),
                                             ("float16", "math_elementwise_f16", 1e-3)])
def test_math_elementwise_functions_match_numpy(kernels, dtype, name, rtol):
    x = np.linspace(-0.97, 0.97, N).astype(dtype)  # inside every function's domain (acos / asin: |x| <= 1)
    y = pyasc.zeros((len(FUNCS) * N,), dtype=dtype, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, (pyasc.tensor(x, device="sim"), y))
    pyasc.synchronize("sim")
    got = y.numpy().reshape(len(FUNCS), N)
    x64 = x.astype(np.float64)
    for f, row in zip(FUNCS, got):
        ref = f(x64).astype(dtype)  # rounded once to T, as the simulator documents
        np.testing.assert_allclose(row.astype(np.float64), ref.astype(np.float64), rtol=rtol, atol=rtol)


def test_basic_vector_apis_pass_as_function_pointers(kernels):
    x = np.linspace(-2, 2, N).astype(np.float32)
    y = pyasc.zeros((2 * N,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("vector_fnptr_f32"), 1, (pyasc.tensor(x, device="sim"), y))
    pyasc.synchronize("sim")
    got = y.numpy().reshape(2, N)
    np.testing.assert_allclose(got[0], np.exp(x + np.float32(0.5)) + x, rtol=2e-6)
    np.testing.assert_allclose(got[1], np.exp(x * np.float32(-2)) * x, rtol=2e-6)


def test_basic_vector_repeat_forms_pass_as_function_pointers(kernels):
    n = 600
    x = np.linspace(-3, 3, n).astype(np.float32)
    s = np.float32(1.75)
    y = pyasc.zeros((4 * n,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("vector_repeat_fnptr_f32"), 1,
                     (pyasc.tensor(x, device="sim"), pyasc.tensor(np.array([s], np.float32), device="sim"), y))
    pyasc.synchronize("sim")
    got = y.numpy().reshape(4, n)
    np.testing.assert_array_equal(got[0], x / s)  # the one-block scalar read with src1RepStride = 0
    np.testing.assert_allclose(got[1], np.exp(x), rtol=2e-6)
    np.testing.assert_array_equal(got[2], x + s)
    lanes = (np.arange(n) % 64) < 32  # bit mask {0xffffffff, 0}: the first 32 values of every repeat
    np.testing.assert_array_equal(got[3], np.where(lanes, x * x, np.float32(0)))


@pytest.mark.parametrize("dtype,name,rtol", [("float32", "math_log_f32", 1e-6), ("float16", "math_log_f16", 1e-3)])
def test_math_logarithms_match_numpy(kernels, dtype, name, rtol):
    x = np.geomspace(1e-3, 5e3, N).astype(dtype)
    y = pyasc.zeros((4 * N,), dtype=dtype, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, (pyasc.tensor(x, device="sim"), y))
    pyasc.synchronize("sim")
    got = y.numpy().reshape(4, N).astype(np.float64)
    x64 = x.astype(np.float64)
    for f, row in zip([np.log, np.log2, np.log10, np.log2], got):
        np.testing.assert_allclose(row, f(x64).astype(dtype).astype(np.float64), rtol=rtol, atol=rtol)


def _power(kernels, name, x, e):
    y = pyasc.zeros((3 * N,), dtype=x.dtype.name, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, (pyasc.tensor(x, device="sim"), pyasc.tensor(e, device="sim"), y))
    pyasc.synchronize("sim")
    return y.numpy().reshape(3, N)


@pytest.mark.parametrize("dtype,name,rtol", [("float32", "math_power_f32", 1e-6), ("float16", "math_power_f16", 1e-3)])
def test_math_power_float_matches_numpy(kernels, dtype, name, rtol):
    x = np.linspace(0.05, 3.0, N).astype(dtype)
    e = np.linspace(-2.0, 2.5, N).astype(dtype)
    got = _power(kernels, name, x, e).astype(np.float64)
    x64, e64, s = x.astype(np.float64), e.astype(np.float64), 1.5
    for row, ref in zip(got, [x64 ** e64, x64 ** s, s ** e64]):
        np.testing.assert_allclose(row, ref.astype(dtype).astype(np.float64), rtol=rtol)


def test_math_power_int32_is_the_exact_integer_power(kernels):
    rng = np.random.default_rng(3)
    x = rng.integers(-9, 10, N).astype(np.int32)
    e = rng.integers(-2, 7, N).astype(np.int32)
    got = _power(kernels, "math_power_s32", x, e)
    ipow = np.vectorize(lambda b, k: b ** k if k >= 0 else (1 if b == 1 else (-1) ** k if b == -1 else 0))
    np.testing.assert_array_equal(got[0], ipow(x, e).astype(np.int32))
    np.testing.assert_array_equal(got[1], x.astype(np.int64) ** 3)
    np.testing.assert_array_equal(got[2], ipow(np.full(N, 3), e).astype(np.int32))


@pytest.mark.parametrize("dtype,name", [("float32", "math_sign_f32"), ("float16", "math_sign_f16")])
def test_math_sign_matches_numpy(kernels, dtype, name):
    x = np.concatenate([np.linspace(-5, 5, N - 4), [0.0, -0.0, 1e-3, -1e-3]]).astype(dtype)
    y = pyasc.zeros((2 * N,), dtype=dtype, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, (pyasc.tensor(x, device="sim"), y))
    pyasc.synchronize("sim")
    got = y.numpy().reshape(2, N)
    np.testing.assert_array_equal(got[0], np.sign(x))
    np.testing.assert_array_equal(got[1], np.sign(x))


@pytest.mark.parametrize("dtype,name,rtol", [("float32", "activation_fnptr_f32", 1e-6),
                                             ("float16", "activation_fnptr_f16", 1e-3)])
def test_activations_pass_as_function_pointers(kernels, dtype, name, rtol):
    x = np.linspace(-6, 6, N).astype(dtype)
    y = pyasc.zeros((4 * N,), dtype=dtype, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, (pyasc.tensor(x, device="sim"), y))
    pyasc.synchronize("sim")
    got = y.numpy().reshape(4, N).astype(np.float64)
    x64 = x.astype(np.float64)
    sig, th = 1 / (1 + np.exp(-x64)), np.tanh(x64)
    for row, ref in zip(got, [sig, th, sig, th]):
        np.testing.assert_allclose(row, ref.astype(dtype).astype(np.float64), rtol=rtol, atol=rtol)
