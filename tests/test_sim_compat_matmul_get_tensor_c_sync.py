"""The synchronous Matmul::GetTensorC into local memory (backends/sim/kernel_api/COMPAT.md, "Round 22 (s22e)",
KsanaLLM's matmul_silu): GetTensorC<true>(ubTensor) returns once the C tile is in place (reference page GetTensorC:
"同步: ... 需要同步等待C矩阵分片获取完成"), so the vector op that consumes the tile right after it is ordered after the
cube unit -- no pipe-race is reported and the result matches NumPy with the checks on.  Our own kernel
(kernels/compat/matmul_get_tensor_c_ub.cpp) in the public style: Iterate, GetTensorC<true> into a VECOUT tile,
Muls on the tile, strided DataCopy of the tile to its place in C."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from pyasc_sim import hl_tiling

from ascendc_kernels import load


@pytest.fixture(scope="module")
def kernels():
    return load("compat/matmul_get_tensor_c_ub.cpp")


@pytest.mark.parametrize("m, n, k, base_m, base_n", [(32, 64, 64, 32, 64), (64, 96, 32, 32, 32), (48, 32, 48, 16, 32)])
def test_tiles_fetched_synchronously_are_ready_for_the_vector_op(kernels, m, n, k, base_m, base_n):
    rng = np.random.default_rng(m + n + k)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    t = hl_tiling.matmul_tiling(m, n, k, base_m=base_m, base_n=base_n)
    assert t.singleCoreM % t.baseM == 0 and t.singleCoreN % t.baseN == 0 and t.iterateOrder == 0
    c = pyasc.full((m * n,), -7.0, dtype="float32", device="sim")
    ws = pyasc.zeros(32, dtype="uint8", device="sim")
    til = pyasc.tensor(np.frombuffer(t.to_bytes(), dtype=np.uint8).copy(), device="sim")
    pyasc_acl.launch(kernels.function("matmul_tiles_scaled_in_ub"), 1,
                     (pyasc.tensor(a.ravel(), device="sim"), pyasc.tensor(b.ravel(), device="sim"), c, ws, til))
    pyasc.synchronize("sim")
    np.testing.assert_allclose(c.numpy().reshape(m, n), 2 * (a.astype(np.float64) @ b.astype(np.float64)),
                               rtol=1e-5, atol=1e-5)
