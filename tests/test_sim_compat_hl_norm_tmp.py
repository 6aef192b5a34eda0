"""Issue 8 point 4: the host tiling helpers of Sigmoid, Silu, Tanh, Gelu / FasterGelu, Sum, Mean, SoftMax / SimpleSoftMax, SoftmaxFlash(V2), LayerNorm, RmsNorm,
DeepNorm, LayerNormGrad and LayerNormGradBeta.
The C++ helpers (tiling/hl_norm_tiling_api.h, run inside a kernel as an op's TilingFunc runs them) and Python
(pyasc_sim.hl_tiling_tmp, hl_tiling_norm) report the same sizes and tilings; each API run with a sharedTmpBuffer
of the reported minimum (and larger) matches NumPy, one byte less is refused by the API naming both sizes.
Kernels: backends/sim/kernel_api/tests/kernels/compat/hl_norm_tmp_idioms.cpp, compiled once for the module."""
from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from pyasc_core.errors import ArgumentError
from pyasc_sim import hl_tiling, hl_tiling_norm
from pyasc_sim import hl_tiling_tmp as tmp

from ascendc_kernels import ASCENDC_DIR, on_sim

SRC = ASCENDC_DIR / "compat" / "hl_norm_tmp_idioms.cpp"
B, S, H = 2, 4, 64


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def _zeros(*shape):
    return pyasc.zeros(shape, dtype="float32", device="sim")


def _run(kernels, name, *args):
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, args)
    pyasc.synchronize("sim")


def _refused(kernels, name, *args, api, helper, have, need):
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, args)
    with pytest.raises(pyasc_acl.AclKernelError) as ei:
        pyasc.synchronize("sim")
    msg = str(ei.value)
    assert "local-out-of-bounds" in msg, msg
    assert f"{api}: sharedTmpBuffer holds {have} bytes, less than the {need} bytes {helper}" in msg, msg


def test_cpp_and_python_size_helpers_agree(kernels):
    out = pyasc.zeros((48,), dtype="int32", device="sim")
    _run(kernels, "norm_tmp_sizes", out)
    got = [int(v) for v in out.numpy()]
    want = [tmp.get_softmax_flash_v2_max_tmp_size((8, 64), 4, 4, True),
            tmp.get_softmax_flash_v2_min_tmp_size((8, 64), 4, 4, True),
            tmp.get_softmax_flash_v2_max_tmp_size((2, 4, 128), 2, 4, False, False, True),
            tmp.get_softmax_flash_v2_min_tmp_size((2, 4, 128), 2, 4, False, False, True),
            tmp.get_softmax_flash_max_tmp_size((8, 64), 4, True, False),
            tmp.get_softmax_flash_min_tmp_size((8, 64), 4, True, False),
            1, *tmp.get_deepnorm_max_min_tmp_size((2, 4, 64), 4),
            1, *tmp.get_deepnorm_max_min_tmp_size((2, 4, 128), 2, False, True),
            *tmp.get_layernorm_grad_max_min_tmp_size((2, 4, 64), 4),
            *tmp.get_layernorm_grad_max_min_tmp_size((2, 4, 64, 60), 2),
            *tmp.get_layernorm_grad_beta_max_min_tmp_size((2, 4, 64), 4),
            tmp.get_softmax_max_tmp_size((8, 64), 2), tmp.get_softmax_min_tmp_size((8, 64), 2),
            *tmp.get_layernorm_max_min_tmp_size((2, 4, 64), 4),
            1, *tmp.get_rmsnorm_max_min_tmp_size((2, 4, 64), 2, True),
            *tmp.get_sum_max_min_tmp_size(100, 2), *tmp.get_mean_max_min_tmp_size(60, 2, 4),
            *tmp.get_sigmoid_max_min_tmp_size((1000,), 2), *tmp.get_silu_tmp_size((4, 10), 4),
            *tmp.get_gelu_max_min_tmp_size((300,), 4),
            0, 0, 0, 0, 0]  # refused arguments: 0 / false
    assert got[:len(want)] == want
    # the figures: a row of float exp values .. all rows; one row of float z; two floats an element a row;
    # two float column sums for 8 columns .. all H
    assert want[:6] == [8 * 64 * 4, 64 * 4, 8 * 128 * 4, 128 * 4, 8 * 64 * 4, 64 * 4]
    assert want[6:12] == [1, 8 * 64 * 4, 64 * 4, 1, 8 * 128 * 4, 128 * 4]
    assert want[12:18] == [8 * 64 * 8, 64 * 8, 8 * 64 * 8, 64 * 8, 64 * 8, 64]
    assert want[18:25] == [8 * 64 * 4, 64 * 4, 8 * 64 * 4, 64 * 4, 1, 8 * 64 * 4, 64 * 4]
    assert want[25:29] == [416, 416, 256, 256]  # Sum / Mean: one row of n floats, max == min
    assert want[29:35] == [4000, 512, 160, 160, 1216, 256]  # activations: a float per value, 256 source bytes a chunk


def test_cpp_and_python_tilings_agree(kernels):
    ws, stack = 3 * 256 + 100, 4096
    out = pyasc.zeros((192,), dtype="int32", device="sim")
    _run(kernels, "norm_tilings", out, np.uint32(ws), np.uint32(stack))
    raw = out.numpy().tobytes()
    flash = tmp.softmax_flash_v2_tiling_func((10, 64), 4, 4, ws, True)
    assert (flash.splitM, flash.rangeM, flash.tailM, flash.outMaxK) == (3, 3, 1, 8)  # 3 rows a pass, 1 left
    want = (flash.to_bytes() + np.uint32(1).tobytes()
            + hl_tiling_norm.deepnorm_tiling(2, 4, 64, 60, stack_buffer_size=stack).to_bytes()
            + hl_tiling_norm.layernorm_grad_tiling(2, 4, 64, 60, stack_buffer_size=stack).to_bytes()
            + hl_tiling_norm.layernorm_grad_beta_tiling(2, 4, 64, 60, stack_buffer_size=stack).to_bytes()
            + tmp.softmax_tiling_func((10, 64), 4, ws).to_bytes()
            + hl_tiling.layernorm_tiling(2, 4, 64, 60).to_bytes()
            + np.uint32(1).tobytes() + hl_tiling.rmsnorm_tiling(2, 4, 64, 60).to_bytes()
            # the same filled as fields of an op's BEGIN_TILING_DATA_DEF struct (GetLayerNormNDTillingInfo spelling)
            + tmp.softmax_tiling_func((10, 64), 4, ws).to_bytes() + hl_tiling.layernorm_tiling(2, 4, 64, 60).to_bytes())
    assert raw[:len(want)] == want


def test_python_helpers_refuse_bad_arguments():
    with pytest.raises(ArgumentError, match=r"last dim \* type_size1 = 240 bytes must be a multiple of 32"):
        tmp.get_softmax_flash_v2_min_tmp_size((8, 60), 4, 4)
    with pytest.raises(ArgumentError, match="must be 2 / 2 \\(half\\), 4 / 4"):
        tmp.get_softmax_flash_v2_max_tmp_size((8, 64), 4, 2)
    with pytest.raises(ArgumentError, match="less than the 256 bytes"):
        tmp.softmax_flash_v2_tiling_func((8, 64), 4, 4, 255)
    with pytest.raises(ArgumentError, match="must not exceed 2040"):
        tmp.get_deepnorm_max_min_tmp_size((2, 4, 2048), 4)
    with pytest.raises(ArgumentError, match="documented for float"):
        tmp.get_deepnorm_max_min_tmp_size((2, 4, 64), 2, True)
    with pytest.raises(ArgumentError, match="is_basic_block needs H a multiple of 64"):
        tmp.get_deepnorm_max_min_tmp_size((2, 3, 64), 4, False, True)
    with pytest.raises(ArgumentError, match=r"\{B, S, H\} or \{B, S, H, originH\}"):
        tmp.get_layernorm_grad_max_min_tmp_size((8, 64), 4)
    with pytest.raises(ArgumentError, match=r"originH \(70\) must not exceed H \(64\)"):
        tmp.get_layernorm_grad_beta_max_min_tmp_size((2, 4, 64, 70), 4)


def test_softmax_flash_v2_with_the_minimum_buffer_works_and_one_byte_less_is_refused(kernels):
    m, k = 8, 64
    x = np.random.default_rng(1).uniform(-6, 6, (2, m, k)).astype(np.float32)  # two column blocks, block-major
    mx, mn = (tmp.get_softmax_flash_v2_max_tmp_size((m, k), 4, 4, True),
              tmp.get_softmax_flash_v2_min_tmp_size((m, k), 4, 4, True))
    xa, xb = x.astype(np.float64)
    ma = xa.max(axis=1)
    ya = np.exp(xa - ma[:, None])
    big = np.maximum(ma, xb.max(axis=1))
    yb = np.exp(xb - big[:, None])
    e = np.exp(ma - big)
    total = e * ya.sum(axis=1) + yb.sum(axis=1)
    for size in (mn, mx, 3 * mn + 32):  # a row a chunk, one pass, chunks of 3 rows
        y, stats = _zeros(2, m, k), _zeros(3, m, 8)
        _run(kernels, "flash_v2_tmp", on_sim(x), y, stats, np.uint32(m), np.uint32(k), np.uint32(size))
        np.testing.assert_allclose(y.numpy()[0], ya, rtol=1e-6)
        np.testing.assert_allclose(y.numpy()[1], yb, rtol=1e-6)
        st = stats.numpy()
        np.testing.assert_allclose(st[0], np.repeat(e[:, None], 8, 1), rtol=1e-6)
        np.testing.assert_allclose(st[1], np.repeat(total[:, None], 8, 1), rtol=1e-6)
        np.testing.assert_array_equal(st[2], np.repeat(big[:, None], 8, 1).astype(np.float32))
    y, stats = _zeros(2, m, k), _zeros(3, m, 8)
    _refused(kernels, "flash_v2_tmp", on_sim(x), y, stats, np.uint32(m), np.uint32(k), np.uint32(mn - 1),
             api="SoftmaxFlashV2", helper="GetSoftMaxFlashV2MinTmpSize", have=mn - 1, need=mn)


def test_deepnorm_with_the_minimum_buffer_works_and_one_byte_less_is_refused(kernels):
    rng = np.random.default_rng(2)
    x, gx = (rng.standard_normal((2, B, S, H)) * 2).astype(np.float32)
    gamma, beta = rng.standard_normal((2, H)).astype(np.float32)
    alpha, eps = 1.7, 1e-5
    mx, mn = tmp.get_deepnorm_max_min_tmp_size((B, S, H), 4)
    z = alpha * x.astype(np.float64) + gx
    mean, var = z.mean(axis=-1), z.var(axis=-1)
    want = (z - mean[..., None]) / np.sqrt(var[..., None] + eps) * gamma + beta
    for size in (mn, mx, 3 * mn):
        y, m_, v_ = _zeros(B, S, H), _zeros(B, S), _zeros(B, S)
        _run(kernels, "deepnorm_tmp", on_sim(x), on_sim(gx), on_sim(gamma), on_sim(beta), y, m_, v_, np.uint32(B),
             np.uint32(S), np.uint32(H), np.uint32(size), np.float32(alpha), np.float32(eps))
        np.testing.assert_allclose(y.numpy(), want, rtol=1e-5, atol=1e-5)
        np.testing.assert_allclose(m_.numpy(), mean, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(v_.numpy(), var, rtol=1e-5)
    y, m_, v_ = _zeros(B, S, H), _zeros(B, S), _zeros(B, S)
    _refused(kernels, "deepnorm_tmp", on_sim(x), on_sim(gx), on_sim(gamma), on_sim(beta), y, m_, v_, np.uint32(B),
             np.uint32(S), np.uint32(H), np.uint32(mn - 1), np.float32(alpha), np.float32(eps),
             api="DeepNorm", helper="GetDeepNormMaxMinTmpSize", have=mn - 1, need=mn)


def _grad_case():
    rng = np.random.default_rng(5)
    x, dy = rng.standard_normal((2, B, S, H)).astype(np.float32)
    x = x * 3 + 1
    gamma = rng.standard_normal(H).astype(np.float32)
    return x, dy, gamma, x.mean(axis=-1).astype(np.float32), x.var(axis=-1).astype(np.float32)


def _grad_run(kernels, size, beta_size, refused=None):
    x, dy, gamma, mean, var = _grad_case()
    eps = 1e-5
    pdx, res, pd_gamma, pd_beta = _zeros(B, S, H), _zeros(B, S, H), _zeros(H), _zeros(H)
    args = (on_sim(dy), on_sim(x), on_sim(var), on_sim(mean), on_sim(gamma), pdx, res, pd_gamma, pd_beta, np.uint32(B),
            np.uint32(S), np.uint32(H), np.uint32(size), np.uint32(beta_size), np.float32(eps))
    if refused:
        _refused(kernels, "layernorm_grad_tmp", *args, **refused)
        return
    _run(kernels, "layernorm_grad_tmp", *args)
    xd, dyd = x.astype(np.float64), dy.astype(np.float64)
    rstd = 1.0 / np.sqrt(var.astype(np.float64)[..., None] + eps)
    xhat = (xd - mean[..., None]) * rstd
    g = dyd * gamma
    want_dx = rstd * (g - g.mean(axis=-1, keepdims=True) - xhat * (g * xhat).mean(axis=-1, keepdims=True))
    np.testing.assert_allclose(pdx.numpy(), want_dx, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(res.numpy(), xhat, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(pd_gamma.numpy(), (dyd * xhat).sum(axis=(0, 1)), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(pd_beta.numpy(), dyd.sum(axis=(0, 1)), rtol=1e-5, atol=1e-5)


def test_layernorm_grad_and_beta_with_the_minimum_buffers_work_and_one_byte_less_is_refused(kernels):
    mx, mn = tmp.get_layernorm_grad_max_min_tmp_size((B, S, H), 4)
    bmx, bmn = tmp.get_layernorm_grad_beta_max_min_tmp_size((B, S, H), 4)
    assert (mn, bmn, bmx) == (H * 8, 64, H * 8)
    for size, beta_size in ((mn, bmn), (mx, bmx), (3 * mn, 3 * bmn)):  # a row / 8 columns a chunk, one pass, ...
        _grad_run(kernels, size, beta_size)
    _grad_run(kernels, mn - 1, bmn, refused=dict(api="LayerNormGrad", helper="GetLayerNormGradMaxMinTmpSize",
                                                 have=mn - 1, need=mn))
    _grad_run(kernels, mn, bmn - 1, refused=dict(api="LayerNormGradBeta", helper="GetLayerNormGradBetaMaxMinTmpSize",
                                                 have=bmn - 1, need=bmn))


def test_softmax_and_simple_softmax_with_the_minimum_buffer_work_and_one_byte_less_is_refused(kernels):
    m, k = 8, 64
    x = np.random.default_rng(3).uniform(-6, 6, (m, k)).astype(np.float32)
    mx, mn = tmp.get_softmax_max_tmp_size((m, k), 4), tmp.get_softmax_min_tmp_size((m, k), 4)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    want = e / e.sum(axis=1, keepdims=True)
    for size in (mn, mx, 3 * mn):
        y = _zeros(2, m, k)
        _run(kernels, "softmax_tmp", on_sim(x), y, np.uint32(m), np.uint32(k), np.uint32(size))
        np.testing.assert_allclose(y.numpy()[0], want, rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(y.numpy()[1], want, rtol=1e-6, atol=1e-9)
    _refused(kernels, "softmax_tmp", on_sim(x), _zeros(2, m, k), np.uint32(m), np.uint32(k), np.uint32(mn - 1),
             api="SoftMax", helper="GetSoftMaxMinTmpSize", have=mn - 1, need=mn)


@pytest.mark.parametrize("which", [1, 0])
def test_layernorm_and_rmsnorm_with_the_minimum_buffer_work_and_one_byte_less_is_refused(kernels, which):
    rng = np.random.default_rng(4)
    x = (rng.standard_normal((B, S, H)) * 2 + 0.5).astype(np.float32)
    gamma, beta = rng.standard_normal((2, H)).astype(np.float32)
    eps = 1e-5
    xd = x.astype(np.float64)
    if which:
        mx, mn = tmp.get_layernorm_max_min_tmp_size((B, S, H), 4)
        mean, var = xd.mean(axis=-1), xd.var(axis=-1)
        want = (xd - mean[..., None]) / np.sqrt(var[..., None] + eps) * gamma + beta
    else:
        mx, mn = tmp.get_rmsnorm_max_min_tmp_size((B, S, H), 4)
        want = xd / np.sqrt((xd * xd).mean(axis=-1, keepdims=True) + eps) * gamma
    args = lambda y, m_, v_, size: (on_sim(x), on_sim(gamma), on_sim(beta), y, m_, v_, np.uint32(B), np.uint32(S),
                                    np.uint32(H), np.uint32(size), np.float32(eps), np.uint32(which))
    for size in (mn, mx, 3 * mn):
        y, m_, v_ = _zeros(B, S, H), _zeros(B, S), _zeros(B, S)
        _run(kernels, "norm_tmp", *args(y, m_, v_, size))
        np.testing.assert_allclose(y.numpy(), want, rtol=1e-5, atol=1e-5)
        if which:
            np.testing.assert_allclose(m_.numpy(), mean, rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(v_.numpy(), var, rtol=1e-5)
    api = "LayerNorm" if which else "RmsNorm"
    _refused(kernels, "norm_tmp", *args(_zeros(B, S, H), _zeros(B, S), _zeros(B, S), mn - 1), api=api,
             helper=f"Get{api}MaxMinTmpSize", have=mn - 1, need=mn)


def test_sum_and_mean_with_the_documented_size_work_and_one_byte_less_is_refused(kernels):
    outter, inner, n = 3, 64, 50
    x = np.random.default_rng(6).uniform(-4, 4, (outter, inner)).astype(np.float32)
    mx, mn = tmp.get_sum_max_min_tmp_size(n, 4)
    assert mx == mn == 224 and tmp.get_mean_max_min_tmp_size(n, 4, 4) == (mx, mn)
    sums = x[:, :n].astype(np.float64).sum(axis=1)
    y = _zeros(16)
    _run(kernels, "sum_mean_tmp", on_sim(x), y, np.uint32(outter), np.uint32(inner), np.uint32(n), np.uint32(mn))
    np.testing.assert_allclose(y.numpy()[:outter], sums, rtol=1e-6)
    np.testing.assert_allclose(y.numpy()[8:8 + outter], sums / n, rtol=1e-6)
    _refused(kernels, "sum_mean_tmp", on_sim(x), _zeros(16), np.uint32(outter), np.uint32(inner), np.uint32(n),
             np.uint32(mn - 1), api="Sum", helper="GetSumMaxMinTmpSize", have=mn - 1, need=mn)
    with pytest.raises(ArgumentError, match="acc_type_size >= src_type_size"):
        tmp.get_mean_max_min_tmp_size(n, 4, 2)


def test_activations_with_the_minimum_buffer_work_and_one_byte_less_is_refused(kernels):
    count = 200
    x = np.random.default_rng(7).uniform(-5, 5, count).astype(np.float32)
    mx, mn = tmp.get_sigmoid_max_min_tmp_size((count,), 4)
    assert (mx, mn) == (800, 256) and tmp.get_gelu_max_min_tmp_size((count,), 4) == (mx, mn)
    xd = x.astype(np.float64)
    sig = 1 / (1 + np.exp(-xd))
    gelu = xd / (1 + np.exp(-1.5957691216057308 * (xd + 0.044715 * xd ** 3)))
    want = np.concatenate([sig, xd * sig, np.tanh(xd), gelu, xd / (1 + np.exp(-1.702 * xd))])
    for size in (mn, mx):
        y = _zeros(5 * count)
        _run(kernels, "activation_tmp", on_sim(x), y, np.uint32(count), np.uint32(size))
        np.testing.assert_allclose(y.numpy(), want, rtol=1e-6, atol=1e-7)
    _refused(kernels, "activation_tmp", on_sim(x), _zeros(5 * count), np.uint32(count), np.uint32(mn - 1),
             api="Sigmoid", helper="GetSigmoidMaxMinTmpSize", have=mn - 1, need=mn)
