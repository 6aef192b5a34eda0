"""The kernel side of computation-communication (MC2) ops as sgl-kernel-npu's deepep ops write it
(backends/sim/kernel_api/COMPAT.md, "Round 20 (s20f)"): the HCCL context slots (``SetHcclContext<index>`` /
``GetHcclContext<index>``, ``HCCL_GROUP_ID_0`` / ``_1``) whose address gives the rank and the GM windows of the
ranks, the ``Hccl`` client a kernel may hold (its methods report that the simulator has no HCCL server), and the MC2
communication tiling structs (``Mc2InitTiling``, 64 bytes; ``Mc2CcTiling``, 280 bytes) an op's tiling embeds ahead
of its own fields; the ``HcclDataType`` / ``HcclReduceOp`` enums of the client's task methods, as deepep's
notify_dispatch_a2 writes them into its BatchWrite items (COMPAT.md, "Round 21 (s21c)"). The simulator has no HCCL
runtime, so the kernel sets the slot from a context the test places in GM; an unset slot reads as nullptr. The
kernels are our own (kernels/compat/mc2_comm_idioms.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import load

SRC = "compat/mc2_comm_idioms.cpp"


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def _context(rank: int, dim: int, windows: list) -> np.ndarray:
    ctx = np.zeros(8 + 8 * 4, dtype=np.uint8)  # uint32 rankId, uint32 rankDim, uint64 windowsIn[4]
    ctx[0:8] = np.array([rank, dim], dtype=np.uint32).view(np.uint8)
    ptrs = np.zeros(4, dtype=np.uint64)
    ptrs[:len(windows)] = [w._data.ptr for w in windows]
    ctx[8:] = ptrs.view(np.uint8)
    return ctx


@pytest.mark.parametrize("rank,dim", [(0, 2), (1, 2), (2, 3)])
def test_context_gives_rank_and_peer_window(kernels, rank, dim):
    rng = np.random.default_rng(20 + rank)
    data = [rng.standard_normal(64).astype(np.float32) for _ in range(dim)]
    windows = [pyasc.tensor(d, device="sim") for d in data]
    ctx = pyasc.tensor(_context(rank, dim, windows), device="sim")
    ctx1 = pyasc.zeros((32,), dtype="uint8", device="sim")
    out = pyasc.zeros((72,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("hccl_window_copy"), 1, (ctx, ctx1, out))
    pyasc.synchronize("sim")
    got = out.numpy()
    np.testing.assert_array_equal(got[:64], data[(rank + 1) % dim] * np.float32(rank + 1))
    assert got[64] == dim  # rankDim read through GetHcclContext<0>()
    assert got[65] == 1.0  # domain 1 was empty before SetHcclContext<1>
    assert got[66] == 1.0  # and reads back the address stored


def test_mc2_tiling_structs_have_the_documented_sizes(kernels):
    tiling = np.zeros(64 + 280 + 16, dtype=np.uint8)
    tiling[344:352] = np.array([7, 0], dtype=np.uint32).view(np.uint8)
    tiling[352:360] = np.array([3], dtype=np.uint64).view(np.uint8)
    out = pyasc.zeros((8,), dtype="int64", device="sim")
    ws = pyasc.zeros((64,), dtype="uint8", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("mc2_tiling_fields"), 1, (out, ws, pyasc.tensor(tiling, device="sim")))
    pyasc.synchronize("sim")
    # Mc2InitTiling 64 bytes and Mc2CcTiling 280 bytes (Hccl Tiling "TilingData结构体"): the op's own fields follow
    np.testing.assert_array_equal(out.numpy()[:5], [64, 280, 344, 7, 21])


def test_hccl_client_methods_report_that_the_simulator_has_no_server(kernels):
    ctx = pyasc.zeros((64,), dtype="uint8", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("hccl_client_init"), 1, (ctx,))
    with pytest.raises(pyasc_acl.AclKernelError, match=r"'unsupported' failed at .*mc2_comm_idioms\.cpp:\d+.*Hccl::Init"):
        pyasc.synchronize("sim")


def test_batch_write_item_with_the_hccl_data_type(kernels):
    local = pyasc.zeros((96,), dtype="uint8", device="sim")
    remote = pyasc.zeros((96,), dtype="uint8", device="sim")
    item = pyasc.zeros((32,), dtype="uint8", device="sim")
    codes = pyasc.tensor(np.full(16, -7, dtype=np.int32), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("hccl_batch_write_item"), 1, (local, remote, item, codes))
    pyasc.synchronize("sim")
    want = np.zeros(32, dtype=np.uint8)
    want[0:24] = np.array([local._data.ptr, remote._data.ptr, 96], dtype=np.uint64).view(np.uint8)
    want[24:32] = np.array([11, 3], dtype=np.uint32).view(np.uint8)  # HCCL_DATA_TYPE_BFP16 = 11, target rank 3
    np.testing.assert_array_equal(item.numpy(), want)
    # HcclDataType INT8, INT32, FP16, FP32, BFP16, INT128 and HcclReduceOp SUM, PROD, MAX, MIN (HCCL reference)
    np.testing.assert_array_equal(codes.numpy()[:11], [0, 2, 3, 4, 11, 12, 0, 1, 2, 3, -7])


@pytest.mark.parametrize("mode,method", [(0, "BatchWrite"), (1, "AllReduce")])
def test_hccl_task_methods_report_that_the_simulator_has_no_server(kernels, mode, method):
    send = pyasc.zeros((8,), dtype="float32", device="sim")
    recv = pyasc.zeros((8,), dtype="float32", device="sim")
    flag = pyasc.tensor(np.array([mode], dtype=np.int32), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("hccl_task_call"), 1, (send, recv, flag))
    with pytest.raises(pyasc_acl.AclKernelError, match=rf"'unsupported' failed at .*Hccl::{method}"):
        pyasc.synchronize("sim")
