"""High-level Ascend C APIs on the simulator (issue 8 point 9): Matmul with the host tiling helper
(pyasc_sim.hl_tiling.matmul_tiling -> TCubeTiling), REGIST_MATMUL_OBJ / Init, SetTensorA/B,
SetBias, SetTail, IterateAll over several cores and Iterate / GetTensorC; SoftMax, LayerNorm,
Sum / Mean and the activations, each kernel (backends/sim/kernel_api/tests/kernels/hl_api.cpp)
compared with NumPy; the tiling helpers reject bad shapes with clear errors."""

from __future__ import annotations

import math

import numpy as np
import pytest

import pyasc
import pyasc_acl
from pyasc_core.errors import ArgumentError
from pyasc_sim import hl_tiling

from ascendc_kernels import f32_arg, load


@pytest.fixture(scope="module")
def kernels():
    return load("hl_api.cpp")


def sim(a) -> pyasc.Tensor:
    return pyasc.tensor(np.asarray(a), device="sim")


def tiling_tensor(t) -> pyasc.Tensor:
    return sim(np.frombuffer(t.to_bytes(), dtype=np.uint8).copy())


@pytest.mark.parametrize("m, n, k, cores, bias", [(64, 64, 32, 1, False), (100, 70, 48, 8, True),
                                                  (256, 96, 40, 4, True), (17, 300, 16, 6, False),
                                                  (16, 256, 256, 1, False),  # base K limited by L0B
                                                  (40, 70, 32, 1, True)])  # one core's tile = the whole matrix
def test_matmul_iterate_all_over_cores(kernels, m, n, k, cores, bias):
    rng = np.random.default_rng(m * n + k)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    bvec = rng.uniform(-1, 1, n).astype(np.float32)
    t = hl_tiling.matmul_tiling(m, n, k, core_num=cores, bias=bias)
    assert t.usedCoreNum <= cores and t.singleCoreK == k and t.baseM % 16 == 0
    c = pyasc.full((m * n,), -7.0, dtype="float32", device="sim")
    ws = pyasc.zeros(32, dtype="uint8", device="sim")
    pyasc_acl.launch(kernels.function("hl_matmul"), cores,
                     (sim(a.ravel()), sim(b.ravel()), sim(bvec), c, ws, tiling_tensor(t)))
    want = a.astype(np.float64) @ b.astype(np.float64) + (bvec if bias else 0)
    np.testing.assert_allclose(c.numpy().reshape(m, n), want, rtol=1e-5, atol=1e-5)


def test_matmul_iterate_and_get_tensor_c_with_transposed_b(kernels):
    m, n, k = 48, 80, 32
    rng = np.random.default_rng(3)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    t = hl_tiling.matmul_tiling(m, n, k, base_m=16, base_n=32, iterate_order=1)
    c = pyasc.zeros(m * n, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("hl_matmul_iterate"), 1,
                     (sim(a.ravel()), sim(np.ascontiguousarray(b.T).ravel()), c, tiling_tensor(t)))
    np.testing.assert_allclose(c.numpy().reshape(m, n), a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5,
                               atol=1e-5)


def test_matmul_tiling_layout_and_errors():
    t = hl_tiling.matmul_tiling(128, 256, 64, core_num=4)
    raw = np.frombuffer(t.to_bytes(), dtype="<i4")
    assert raw.size == 50  # the SDK struct: 33 documented fields, 15 batch-layout words, BatchNum, mxTypePara
    assert list(raw[:11]) == [t.usedCoreNum, 128, 256, 64, 64, t.singleCoreM, t.singleCoreN, 64, t.baseM, t.baseN,
                              t.baseK]
    assert t.usedCoreNum == math.ceil(128 / t.singleCoreM) * math.ceil(256 / t.singleCoreN) <= 4
    # a core's tile never exceeds the matrix (a kernel that never trims its tail reads nothing past A / B);
    # the base blocks stay 16-aligned
    t = hl_tiling.matmul_tiling(40, 70, 32)
    assert (t.singleCoreM, t.singleCoreN, t.baseM, t.baseN, t.usedCoreNum) == (40, 70, 48, 80, 1)
    with pytest.raises(ArgumentError, match="m must be a positive int, got 0"):
        hl_tiling.matmul_tiling(0, 16, 16)
    with pytest.raises(ArgumentError, match="does not fit L0A/L0B"):
        hl_tiling.matmul_tiling(256, 256, 256, base_m=256, base_n=256, base_k=256)
    with pytest.raises(ArgumentError, match="a_dtype"):
        hl_tiling.matmul_tiling(16, 16, 16, a_dtype="float64")


def test_softmax_rows(kernels):
    rows, cols = 8, 40
    x = np.random.default_rng(4).standard_normal((rows, cols)).astype(np.float32) * 3
    t = hl_tiling.softmax_tiling(rows, cols)
    y = pyasc.zeros(rows * cols, dtype="float32", device="sim")
    s = pyasc.zeros(rows * 8, dtype="float32", device="sim")
    mx = pyasc.zeros(rows * 8, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("hl_softmax"), 1, (sim(x.ravel()), y, s, mx, tiling_tensor(t)))
    x64 = x.astype(np.float64)
    e = np.exp(x64 - x64.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y.numpy().reshape(rows, cols), e / e.sum(axis=1, keepdims=True), rtol=1e-6)
    np.testing.assert_allclose(s.numpy().reshape(rows, 8), np.repeat(e.sum(axis=1, keepdims=True), 8, 1), rtol=1e-6)
    np.testing.assert_array_equal(mx.numpy().reshape(rows, 8), np.repeat(x.max(axis=1, keepdims=True), 8, 1))
    with pytest.raises(ArgumentError, match="multiple of 32"):
        hl_tiling.softmax_tiling(4, 5)


@pytest.mark.parametrize("rows, cols", [(8, 40), (3, 1024), (5, 264)])
def test_float_softmax_is_its_documented_steps(kernels, rows, cols):
    """float SoftMax gives the bits of its documented steps composed from the simulator's basic
    instructions (ReduceMax, x - max, Exp, ReduceSum, Div by the sum), row by row."""
    rng = np.random.default_rng(rows * cols)
    x = (rng.standard_normal((rows, cols)) * 4).astype(np.float32)
    x[0, 3] = x[0, 7] = x[0].max() + 1  # a repeated maximum
    t = hl_tiling.softmax_tiling(rows, cols)
    y = pyasc.zeros(rows * cols, dtype="float32", device="sim")
    s = pyasc.zeros(rows * 8, dtype="float32", device="sim")
    mx = pyasc.zeros(rows * 8, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("hl_softmax"), 1, (sim(x.ravel()), y, s, mx, tiling_tensor(t)))
    want = pyasc.full((rows * cols,), -1.0, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("hl_softmax_steps"), 1, (sim(x.ravel()), want, tiling_tensor(t)))
    got, ref = y.numpy().reshape(rows, cols), want.numpy().reshape(rows, cols)
    assert np.array_equal(got.view(np.uint32), ref.view(np.uint32)), np.abs(got - ref).max()
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    # x - max rounded to float: up to 0.5 ulp of |x - max| (~1e-6 for inputs of this scale) in the exponent
    np.testing.assert_allclose(got, e / e.sum(axis=1, keepdims=True), rtol=5e-6)


def test_layernorm(kernels):
    b, s, h = 2, 4, 64
    rng = np.random.default_rng(5)
    x = rng.standard_normal((b, s, h)).astype(np.float32)
    gamma, beta = rng.standard_normal(h).astype(np.float32), rng.standard_normal(h).astype(np.float32)
    t = hl_tiling.layernorm_tiling(b, s, h)
    y = pyasc.zeros(b * s * h, dtype="float32", device="sim")
    mean = pyasc.zeros(b * s, dtype="float32", device="sim")
    var = pyasc.zeros(b * s, dtype="float32", device="sim")
    eps = 1e-5
    pyasc_acl.launch(kernels.function("hl_layernorm"), 1,
                     (sim(x.ravel()), sim(gamma), sim(beta), y, mean, var, f32_arg(eps), tiling_tensor(t)))
    x64 = x.astype(np.float64)
    mu, v = x64.mean(axis=-1), x64.var(axis=-1)
    want = (x64 - mu[..., None]) / np.sqrt(v[..., None] + np.float32(eps)) * gamma + beta
    np.testing.assert_allclose(y.numpy().reshape(b, s, h), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mean.numpy(), mu.ravel(), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(var.numpy(), v.ravel(), rtol=1e-6)
    with pytest.raises(ArgumentError, match="original_h"):
        hl_tiling.layernorm_tiling(1, 1, 8, original_h=9)


@pytest.mark.parametrize("b, s, h", [(2, 4, 64), (1, 8, 256), (2, 8, 248)])  # hl_layernorm: 1 KiB of tmp, 8k rows
def test_float_layernorm_is_its_documented_steps(kernels, b, s, h):
    """float LayerNorm gives the bits of its documented steps composed from the simulator's basic
    instructions (mean = ReduceSum(x * 1/h), variance = ReduceSum((x - mean)^2 * 1/h), rstd =
    Exp(Ln(variance + eps) * -0.5), y = (x - mean) * rstd * gamma + beta), row by row."""
    rng = np.random.default_rng(b * s * h)
    x = (rng.standard_normal((b, s, h)) * 3 + 1).astype(np.float32)
    gamma, beta = rng.standard_normal(h).astype(np.float32), rng.standard_normal(h).astype(np.float32)
    t = hl_tiling.layernorm_tiling(b, s, h)
    eps = 1e-5
    outs = {}
    for name in ("hl_layernorm", "hl_layernorm_steps"):
        y = pyasc.full((b * s * h,), -1.0, dtype="float32", device="sim")
        mean = pyasc.full((b * s,), -1.0, dtype="float32", device="sim")
        var = pyasc.full((b * s,), -1.0, dtype="float32", device="sim")
        pyasc_acl.launch(kernels.function(name), 1,
                         (sim(x.ravel()), sim(gamma), sim(beta), y, mean, var, f32_arg(eps), tiling_tensor(t)))
        outs[name] = [a.numpy() for a in (y, mean, var)]
    for got, ref in zip(outs["hl_layernorm"], outs["hl_layernorm_steps"]):
        assert np.array_equal(got.view(np.uint32), ref.view(np.uint32)), np.abs(got - ref).max()
    x64 = x.astype(np.float64)
    mu, v = x64.mean(axis=-1), x64.var(axis=-1)
    want = (x64 - mu[..., None]) / np.sqrt(v[..., None] + np.float32(eps)) * gamma + beta
    np.testing.assert_allclose(outs["hl_layernorm"][0].reshape(b, s, h), want, rtol=1e-5, atol=1e-5)


def test_sum_and_mean_over_padded_rows(kernels):
    rows, inner, n = 8, 24, 21
    x = np.random.default_rng(6).standard_normal((rows, inner)).astype(np.float32)
    out = pyasc.zeros(2 * rows, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("hl_sum_mean"), 1, (sim(x.ravel()), out, rows, inner, n))
    got = out.numpy()
    np.testing.assert_allclose(got[:rows], x[:, :n].astype(np.float64).sum(axis=1), rtol=1e-6)
    np.testing.assert_allclose(got[rows:], x[:, :n].astype(np.float64).mean(axis=1), rtol=1e-6)


def test_activations(kernels):
    count = 256
    x = np.linspace(-6, 6, count).astype(np.float32)
    y = pyasc.zeros(6 * count, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("hl_activations"), 1, (sim(x), y, count))
    got = y.numpy().reshape(6, count)
    v = x.astype(np.float64)
    sig = 1 / (1 + np.exp(-v))
    gelu_tanh = 0.5 * v * (1 + np.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3)))
    want = [sig, v * sig, gelu_tanh, v / (1 + np.exp(-1.702 * v)), np.tanh(v), v / (1 + np.exp(-1.5 * v))]
    for i, w in enumerate(want):
        np.testing.assert_allclose(got[i], w, rtol=2e-6, atol=1e-7, err_msg=f"activation {i}")


def test_matmul_without_tiling_is_reported(kernels):
    from ascendc_kernels import marked_line

    stream = pyasc.current_stream("sim")
    a = sim(np.ones(256, np.float16))
    c = pyasc.zeros(256, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("hl_matmul_uninit"), 1, (a, a, c), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    where = marked_line("hl_api.cpp", "matmul-uninit")
    assert f"sanitizer check 'matmul-tiling' failed at {where}" in msg, msg
    assert "Matmul::IterateAll before Init" in msg and "REGIST_MATMUL_OBJ" in msg, msg


def test_swiglu_and_simple_softmax(kernels):
    rows, cols = 4, 64
    rng = np.random.default_rng(11)
    x = rng.standard_normal(rows * cols).astype(np.float32)
    g = rng.standard_normal(rows * cols).astype(np.float32)
    y = pyasc.zeros(2 * rows * cols, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("hl_swiglu_simple_softmax"), 1,
                     (sim(x), sim(g), y, tiling_tensor(hl_tiling.softmax_tiling(rows, cols))))
    got = y.numpy()
    x64, g64 = x.astype(np.float64), g.astype(np.float64)
    np.testing.assert_allclose(got[:rows * cols], x64 * g64 / (1 + np.exp(-0.75 * g64)), rtol=2e-6, atol=1e-7)
    xr = x64.reshape(rows, cols)
    e = np.exp(xr - xr.max(axis=1, keepdims=True))
    np.testing.assert_allclose(got[rows * cols:].reshape(rows, cols), e / e.sum(axis=1, keepdims=True), rtol=1e-6)


def test_rmsnorm(kernels):
    b, s, h = 2, 3, 32
    rng = np.random.default_rng(12)
    x = rng.standard_normal((b, s, h)).astype(np.float32)
    gamma = rng.standard_normal(h).astype(np.float32)
    t = hl_tiling.rmsnorm_tiling(b, s, h)
    assert len(t.to_bytes()) == 12 * 4
    y = pyasc.zeros(b * s * h, dtype="float32", device="sim")
    eps = 1e-6
    pyasc_acl.launch(kernels.function("hl_rmsnorm"), 1, (sim(x.ravel()), sim(gamma), y, f32_arg(eps), tiling_tensor(t)))
    x64 = x.astype(np.float64)
    want = x64 / np.sqrt((x64 ** 2).mean(axis=-1, keepdims=True) + np.float32(eps)) * gamma
    np.testing.assert_allclose(y.numpy().reshape(b, s, h), want, rtol=1e-5, atol=1e-6)
    with pytest.raises(ArgumentError, match="h must be a positive int"):
        hl_tiling.rmsnorm_tiling(1, 1, 0)


def test_layernorm_tiling_has_the_documented_layout():
    """LayerNormTiling as the reference defines it (LayerNorm Tiling page): 25 uint32 fields then the float
    lastDimValueBack, 104 bytes -- the six temporary-tensor fields after numberOfTmpBuf included, so a host tiling
    struct embedding it (TILING_DATA_FIELD_DEF_STRUCT) puts its later fields where the NPU build reads them."""
    import dataclasses
    import struct as _struct

    names = [f.name for f in dataclasses.fields(hl_tiling.LayerNormTiling)]
    assert names[6:14] == ["numberOfTmpBuf", "meanTmpTensorPos", "meanTmpTensorSize", "varianceTmpTensorPos",
                           "varianceTmpTensorSize", "tmpBufSize", "oneTmpSize", "firstTmpStartPos"]
    t = hl_tiling.layernorm_tiling(2, 4, 64)
    raw = t.to_bytes()
    assert len(raw) == 104
    assert _struct.unpack_from("<I", raw, 8)[0] == 64 and _struct.unpack_from("<f", raw, 100)[0] == t.lastDimValueBack
