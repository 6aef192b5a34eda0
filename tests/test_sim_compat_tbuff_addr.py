"""``LocalTensor::SetAddr(const TBuffAddr &)``: tensors over raw ``__ubuf__`` addresses, as the copy helpers of
sgl-kernel-npu's deepep ops build them (backends/sim/kernel_api/COMPAT.md, "Round 20 (s20f)"; data_copy.h
CopyUB2UB).  bufferAddr re-points the tensor, dataLen sizes it, logicPos moves it; the UB -> UB DataCopy between
two such tensors moves the data.  The kernel is our own (kernels/compat/tbuff_addr_idioms.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import load

SRC = "compat/tbuff_addr_idioms.cpp"


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def test_ub_copy_through_tbuff_addr(kernels):
    x = np.random.default_rng(20).standard_normal(64).astype(np.float32)
    y = pyasc.zeros((72,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("ub_copy_by_addr"), 1, (pyasc.tensor(x, device="sim"), y))
    pyasc.synchronize("sim")
    got = y.numpy()
    np.testing.assert_array_equal(got[:64], 2 * x)
    assert got[64] == 32.0  # dataLen = 32 floats sizes the tensor
    assert got[65] == 1.0   # logicPos moves it to VECIN
