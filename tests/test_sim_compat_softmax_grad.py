"""SoftmaxGrad / SoftmaxGradFront (the softmax backward high-level API; backends/sim/kernel_api/COMPAT.md,
"Round 17 (study17c)", NPUKernelBench's InplaceFusedMatmulSoftmaxGrad answer) on our own kernels in the style
of the public kernels studied (kernel_api/tests/kernels/compat/softmax_grad_idioms.cpp), compared with the
reference page's Python formula."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim.hl_tiling as hl
from ascendc_kernels import load

SRC = "compat/softmax_grad_idioms.cpp"
M, K, KV = 6, 32, 27


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def _tiling():
    return pyasc.tensor(np.frombuffer(hl.softmax_tiling(M, K).to_bytes(), np.uint8).copy(), device="sim")


@pytest.mark.parametrize("dtype,name,tol", [("float32", "softmax_grad_f32", 1e-6), ("float16", "softmax_grad_f16", 2e-3)])
def test_softmax_grad_matches_the_reference_formula(kernels, dtype, name, tol):
    rng = np.random.default_rng(7)
    grad = rng.standard_normal((M, K)).astype(dtype)
    y = rng.random((M, K)).astype(dtype)
    dx = pyasc.zeros((M * K,), dtype=dtype, device="sim")
    per = 32 // np.dtype(dtype).itemsize
    sums = pyasc.zeros((2 * M * per,), dtype=dtype, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, (pyasc.tensor(grad.ravel(), device="sim"),
                                                 pyasc.tensor(y.ravel(), device="sim"), dx, sums, _tiling()))
    pyasc.synchronize("sim")
    g64, y64 = grad[:, :KV].astype(np.float64), y[:, :KV].astype(np.float64)
    s = (g64 * y64).sum(axis=-1, keepdims=True)  # the page's softmax_grad: rowsum(grad * src)
    got = dx.numpy().reshape(M, K)
    np.testing.assert_allclose(got[:, :KV].astype(np.float64), (g64 - s) * y64, rtol=tol, atol=tol)
    assert (got[:, KV:] == -7).all()  # only the oriSrcK columns are written
    front = sums.numpy().reshape(2, M, per).astype(np.float64)
    np.testing.assert_allclose(front[0], np.repeat(s, per, axis=1), rtol=tol, atol=tol)  # isFront: one block a row
    np.testing.assert_allclose(front[1], np.repeat(s, per, axis=1), rtol=tol, atol=tol)  # SoftmaxGradFront


def test_softmax_grad_front_refuses_a_too_small_tmp_buffer(kernels):
    grad = pyasc.tensor(np.ones(4 * 64, np.float32), device="sim")
    tiling = pyasc.tensor(np.frombuffer(hl.softmax_tiling(4, 64).to_bytes(), np.uint8).copy(), device="sim")
    pyasc.synchronize("sim")
    with pytest.raises(pyasc_acl.AclKernelError,
                       match=r"'local-out-of-bounds' failed at .*softmax_grad_idioms.cpp:\d+: SoftmaxGradFront: "
                             r"sharedTmpBuffer holds 64 bytes, less than the 256 bytes GetSoftMaxGradMinTmpSize"):
        pyasc_acl.launch(kernels.function("softmax_grad_small_tmp"), 1, (grad, tiling))
        pyasc.synchronize("sim")


def test_softmax_grad_host_helpers_size_a_row_of_float_products():
    import pyasc_sim.hl_tiling_tmp as htt
    assert htt.get_softmax_grad_min_tmp_size([M, K], 4) == K * 4  # one row of grad * src in float
    assert htt.get_softmax_grad_max_tmp_size([M, K], 2, True) == M * K * 4  # every row (half data staged in float)
    t = htt.softmax_grad_tiling_func([M, K], 4, K * 4)
    assert (t.srcM, t.srcK, t.splitM) == (M, K, 1)
