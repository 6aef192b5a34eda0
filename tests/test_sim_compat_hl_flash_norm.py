"""High-level APIs of flash-attention and normalisation kernels on the simulator against NumPy (issue 8
point 4, issue 10 point 8): SoftmaxFlashV2 / SoftmaxFlash over several column blocks equal one full
softmax, DeepNorm = LayerNorm(alpha * x + gx), LayerNormGrad / LayerNormGradBeta = the analytic
LayerNorm gradient, ConfusionTranspose's 2-D transpose; an unlisted element type is a dtype-table
compile error.  Kernels: backends/sim/kernel_api/tests/kernels/compat/hl_flash_norm_idioms.cpp (ours,
in the public style), compiled once for the module."""
from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from pyasc_sim import hl_tiling_norm

from ascendc_kernels import ASCENDC_DIR, on_sim

SRC = ASCENDC_DIR / "compat" / "hl_flash_norm_idioms.cpp"
ROWS, BLK = 8, 32
B, S, H = 2, 4, 32


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def _tiling(t):
    return on_sim(np.frombuffer(t.to_bytes(), dtype=np.uint8))


def _flash(kernels, name, x, nblk):
    y = pyasc.zeros(x.shape, dtype=str(x.dtype), device="sim")
    stats = pyasc.zeros((3 * ROWS,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, (on_sim(x), y, stats, np.uint32(nblk)))
    pyasc.synchronize("sim")
    tiles = y.numpy().reshape(nblk, ROWS, BLK)  # tile-major, as the kernel keeps them
    st = stats.numpy().reshape(3, ROWS)
    return np.concatenate(list(tiles), axis=1), st[0], st[1], st[2]


def _softmax_ref(x):
    x = x.astype(np.float64)
    m = x.max(axis=1, keepdims=True)
    e = np.exp(x - m)
    return e / e.sum(axis=1, keepdims=True), m[:, 0], e.sum(axis=1)


@pytest.mark.parametrize("name", ["flash_v2_f32", "flash_v1_f32", "flash_v2_nobrc_f32"])
@pytest.mark.parametrize("nblk", [1, 3])
def test_flash_updates_over_column_blocks_equal_one_softmax(kernels, name, nblk):
    rng = np.random.default_rng(nblk)
    x = (rng.standard_normal((ROWS, nblk * BLK)) * 3).astype(np.float32)
    x[:, -1] += 8.0  # the row max sits in the last block: every earlier tile must be rescaled
    got, mx, sm, _ = _flash(kernels, name, x, nblk)
    want, want_max, want_sum = _softmax_ref(x)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(mx, want_max, rtol=1e-6)
    np.testing.assert_allclose(sm, want_sum, rtol=1e-5)


def test_flash_v2_out_reduce_max_is_the_last_blocks_own_row_max(kernels):
    rng = np.random.default_rng(11)
    x = rng.standard_normal((ROWS, 2 * BLK)).astype(np.float32)
    x[:, 3] += 10.0  # the running max stays in block 0; block 1's own max is smaller
    got, mx, _, red = _flash(kernels, "flash_v2_nobrc_f32", x, 2)
    np.testing.assert_allclose(got, _softmax_ref(x)[0], rtol=1e-5, atol=1e-7)
    np.testing.assert_array_equal(mx, x.max(axis=1))
    np.testing.assert_array_equal(red, x[:, BLK:].max(axis=1))


def test_flash_v2_half_data_with_float_statistics(kernels):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal((ROWS, 2 * BLK)) * 2).astype(np.float16)
    got, mx, sm, _ = _flash(kernels, "flash_v2_f16", x, 2)
    want, want_max, want_sum = _softmax_ref(x)
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=1e-2, atol=1e-3)
    np.testing.assert_allclose(mx, want_max, rtol=1e-6)
    np.testing.assert_allclose(sm, want_sum, rtol=2e-3)


def _layer_norm(z, gamma, beta, eps):
    mean = z.mean(axis=-1, keepdims=True)
    var = ((z - mean) ** 2).mean(axis=-1, keepdims=True)
    return (z - mean) / np.sqrt(var + eps) * gamma + beta, mean[..., 0], var[..., 0]


def test_deep_norm_is_layer_norm_of_alpha_x_plus_gx(kernels):
    rng = np.random.default_rng(3)
    x, gx = (rng.standard_normal((2, B, S, H)) * 2).astype(np.float32)
    gamma, beta = rng.standard_normal((2, H)).astype(np.float32)
    alpha, eps = 1.7, 1e-5
    y = pyasc.zeros((B, S, H), dtype="float32", device="sim")
    mean = pyasc.zeros((B, S), dtype="float32", device="sim")
    var = pyasc.zeros((B, S), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("deep_norm_f32"), 1,
                     (on_sim(x), on_sim(gx), on_sim(gamma), on_sim(beta), y, mean, var, _tiling(hl_tiling_norm.deepnorm_tiling(B, S, H)),
                      np.float32(alpha), np.float32(eps)))
    pyasc.synchronize("sim")
    want, want_mean, want_var = _layer_norm(alpha * x.astype(np.float64) + gx, gamma, beta, eps)
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mean.numpy(), want_mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(var.numpy(), want_var, rtol=1e-5)


def test_layer_norm_grad_and_grad_beta_match_the_analytic_gradient(kernels):
    rng = np.random.default_rng(5)
    x, dy = rng.standard_normal((2, B, S, H)).astype(np.float32)
    x = x * 3 + 1
    gamma = rng.standard_normal(H).astype(np.float32)
    eps = 1e-5
    mean = x.mean(axis=-1).astype(np.float32)
    var = x.var(axis=-1).astype(np.float32)
    pdx, res = (pyasc.zeros((B, S, H), dtype="float32", device="sim") for _ in range(2))
    pd_gamma, pd_beta = (pyasc.zeros((H,), dtype="float32", device="sim") for _ in range(2))
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("layernorm_grad_f32"), 1,
                     (on_sim(dy), on_sim(x), on_sim(var), on_sim(mean), on_sim(gamma), pdx, res, pd_gamma, pd_beta,
                      _tiling(hl_tiling_norm.layernorm_grad_tiling(B, S, H)), np.float32(eps)))
    pyasc.synchronize("sim")
    # the analytic gradient of y = (x - mean) * rstd * gamma + beta with the batch statistics
    xd, dyd = x.astype(np.float64), dy.astype(np.float64)
    rstd = 1.0 / np.sqrt(var.astype(np.float64)[..., None] + eps)
    xhat = (xd - mean[..., None]) * rstd
    g = dyd * gamma
    want_dx = rstd * (g - g.mean(axis=-1, keepdims=True) - xhat * (g * xhat).mean(axis=-1, keepdims=True))
    np.testing.assert_allclose(pdx.numpy(), want_dx, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(res.numpy(), xhat, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(pd_gamma.numpy(), (dyd * xhat).sum(axis=(0, 1)), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(pd_beta.numpy(), dyd.sum(axis=(0, 1)), rtol=1e-5, atol=1e-5)


def test_layer_norm_grad_agrees_with_a_finite_difference():
    """The closed form above is the true derivative: a central difference of sum(dy * LayerNorm(x))."""
    rng = np.random.default_rng(9)
    x, dy = rng.standard_normal((2, H))
    gamma, eps, h = rng.standard_normal(H), 1e-5, 1e-6

    def loss(v):
        return float((dy * _layer_norm(v, gamma, 0.0, eps)[0]).sum())

    num = np.array([(loss(x + h * e) - loss(x - h * e)) / (2 * h) for e in np.eye(H)])
    rstd = 1.0 / np.sqrt(x.var() + eps)
    xhat, g = (x - x.mean()) * rstd, dy * gamma
    np.testing.assert_allclose(rstd * (g - g.mean() - xhat * (g * xhat).mean()), num, rtol=1e-5, atol=1e-7)


def test_confusion_transpose_nd2nd_only_transposes_h_by_w(kernels):
    h, w = 32, 48
    x = np.arange(h * w, dtype=np.float16).reshape(h, w)
    y = pyasc.zeros((w, h), dtype="float16", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("confusion_transpose_f16"), 1, (on_sim(x), y, np.uint32(h), np.uint32(w),
                                                                      np.uint32(7)))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x.T)


def test_confusion_transpose_types_without_a_scenario_are_reported_as_unsupported(kernels):
    # TRANSPOSE_ND_UB_GM (8): the reference documents no ConfusionTranspose scenario for it (the NZ
    # scenarios 1-6 run: tests/test_sim_compat_hl_host_tiling.py)
    x = np.zeros((16, 16), dtype=np.float16)
    y = pyasc.zeros((16, 16), dtype="float16", device="sim")
    pyasc.synchronize("sim")
    with pytest.raises(pyasc_acl.AclKernelError, match="'unsupported' failed at .*hl_flash_norm_idioms.cpp:\\d+: "
                                                       ".*ConfusionTranspose: TransposeType 8 is not supported"):
        pyasc_acl.launch(kernels.function("confusion_transpose_f16"), 1,
                         (on_sim(x), y, np.uint32(16), np.uint32(16), np.uint32(8)))
        pyasc.synchronize("sim")


def test_an_unlisted_element_type_is_a_dtype_table_compile_error(tmp_path):
    src = tmp_path / "deepnorm_i32.cpp"
    src.write_text("""#include "kernel_operator.h"
#include "lib/normalization/deepnorm.h"
extern "C" __global__ __aicore__ void dn(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    AscendC::LocalTensor<int32_t> t = buf.Get<int32_t>();
    DeepNormTiling tiling;
    AscendC::DeepNorm<int32_t>(t, t, t, t, t, t, t, 1, 0, tiling);
}
""")
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(src, opt="-O0")
    out = ei.value.output
    assert "pyasc dtype-table: AscendC::DeepNorm is not documented for this element type T" in out
    assert "listed types: half, float" in out and "Atlas A2" in out


def test_host_tiling_helpers_lay_out_the_documented_structs_and_refuse_bad_shapes():
    t = hl_tiling_norm.deepnorm_tiling(2, 3, 64, 60)
    assert (t.bLength, t.sLength, t.hLength, t.originalHLength, t.meanVarSize) == (2, 3, 64, 60, 6)
    assert len(t.to_bytes()) == 26 * 4 and len(hl_tiling_norm.layernorm_grad_tiling(1, 1, 8).to_bytes()) == 30 * 4
    assert len(hl_tiling_norm.layernorm_grad_beta_tiling(1, 1, 8).to_bytes()) == 20 * 4
    assert hl_tiling_norm.confusion_transpose_tiling(32, 48).params[:3] == (16, 32, 48)
    with pytest.raises(pyasc.PyascError, match="exceeds the documented limit of 2040"):
        hl_tiling_norm.deepnorm_tiling(1, 1, 2048)
    with pytest.raises(pyasc.PyascError, match="h \\* itemsize = 36 bytes must be a multiple of 32"):
        hl_tiling_norm.layernorm_grad_tiling(1, 1, 9)
    with pytest.raises(pyasc.PyascError, match="original_h must be an int in \\[1, h = 8\\], got 9"):
        hl_tiling_norm.layernorm_grad_beta_tiling(1, 1, 8, 9)
    with pytest.raises(pyasc.PyascError, match="w must be a positive multiple of 16, got 20"):
        hl_tiling_norm.confusion_transpose_tiling(16, 20)
