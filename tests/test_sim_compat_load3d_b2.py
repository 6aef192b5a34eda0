"""Cube and kernel-type idioms of So-cean/mamba-ascendc's mamba2_ssd_chunk_mix op kernels (round 17,
backends/sim/kernel_api/COMPAT.md): Load3Dv2 (LoadData3DParamsV2) from B1 to B2, the B operand of a K-split GEMM
(reference page Load3D: data paths A1 -> A2 and B1 -> B2; LoadData page: B2 holds "小N大Z" fractals);
``GetBasicConfig`` and ``GetIBShareNormConfig`` (round 28, page atlasascendc_api_07_0624) as Matmul template configs; BatchMatmul (``SetBatchNum`` / ``SetNBatchOutNum`` / ``IterateBatch``,
NORMAL layout, packed or with one A reused for every B); ``KERNEL_TASK_TYPE(key, type)`` choosing the cores of the
tiling key the kernel was built for (page "设置Kernel类型": the default applies to every key, the keyed form to
one). Our own kernel: kernels/compat/load3d_b2_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, on_sim
from pyasc_sim import hl_tiling

SRC = ASCENDC_DIR / "compat" / "load3d_b2_idioms.cpp"
MM, KK, NN = 32, 64, 48

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def _operands(seed):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((MM, KK)).astype(np.float16)
    b = rng.standard_normal((KK, NN)).astype(np.float16)
    return a, b, a.astype(np.float64) @ b.astype(np.float64)


def test_load3d_b1_to_b2_feeds_a_k_split_mmad(binary):
    a, b, ref = _operands(7)
    c = pyasc.full((MM * NN,), -1.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("load3d_b2_gemm"), 1, (on_sim(a.reshape(-1)), on_sim(b.reshape(-1)), c))
    pyasc.synchronize("sim")
    # fp16 products accumulated in fp32: a transposed or mis-ordered B2 fractal would be far off
    np.testing.assert_allclose(c.numpy().reshape(MM, NN), ref, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("kernel", ["basic_config_matmul", "ibshare_config_matmul"])
def test_config_matmul(binary, kernel):
    a, b, ref = _operands(8)
    t = hl_tiling.matmul_tiling(MM, NN, KK, a_dtype="float16", c_dtype="float32")
    c = pyasc.full((MM * NN,), -1.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function(kernel), 1,
                     (on_sim(a.reshape(-1)), on_sim(b.reshape(-1)), c, on_sim(np.frombuffer(t.to_bytes(), np.uint8).copy())))
    pyasc.synchronize("sim")
    np.testing.assert_allclose(c.numpy().reshape(MM, NN), ref, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("mode", [0, 1])
def test_batch_matmul_iterate_batch(binary, mode):
    rng = np.random.default_rng(9 + mode)
    batch = 3
    a = rng.standard_normal((batch, MM, KK)).astype(np.float16)
    b = rng.standard_normal((batch, KK, NN)).astype(np.float16)
    a_used = a if mode == 0 else np.broadcast_to(a[:1], a.shape)  # mode 1: batchA = 1, reused for each B
    ref = np.einsum("bmk,bkn->bmn", a_used.astype(np.float64), b.astype(np.float64))
    t = hl_tiling.matmul_tiling(MM, NN, KK, a_dtype="float16", c_dtype="float32")
    c = pyasc.full((batch * MM * NN,), -1.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("batch_matmul"), 1,
                     (on_sim(a.reshape(-1)), on_sim(b.reshape(-1)), c, on_sim(np.frombuffer(t.to_bytes(), np.uint8).copy()),
                      np.uint32(mode)))
    pyasc.synchronize("sim")
    np.testing.assert_allclose(c.numpy().reshape(batch, MM, NN), ref, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("key, aiv, aic", [
    (1, [11, 11, 0, 0], [99, 99]),     # MIX_AIC_1_1: one AIV (sub-block 0 of 1) and one AIC per block
    (2, [21, 22, 21, 22], [99, 99]),   # MIX_AIC_1_2: two AIV (sub-blocks 0, 1 of 2) and one AIC per block
    (0, [11, 11, 0, 0], [0, 0]),       # no keyed type: the vector-only default
])
def test_keyed_task_type_selects_the_built_key(key, aiv, aic):
    fn = pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", tiling_key=key), device="sim").function("keyed_task_type")
    out = pyasc.zeros((16 * 16,), dtype="int32", device="sim")  # one 64-byte line per core
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 2, (out,))
    pyasc.synchronize("sim")
    lines = out.numpy().reshape(16, 16)
    assert not lines[:, 1:].any()
    got = lines[:, 0]
    assert got[:4].tolist() == aiv
    assert got[8:10].tolist() == aic
    assert not got[4:8].any() and not got[10:].any()
