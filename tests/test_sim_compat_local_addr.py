"""Raw Unified Buffer addressing through `LocalTensor::address_` (the SDK's internal address record) and
`__BLOCK_LOCAL__` globals, as Ascend/memfabric_hybrid's SHMEM device layer uses them: a tensor read as a
raw `__ubuf__` pointer, scalar stores through it, tensors re-pointed at a raw address for DataCopyPad.
Checked against NumPy; a tensor pointed outside local memory is reported, not read."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import launch_synced, load, marked_line

SRC = "compat/local_addr_idioms.cpp"
VECIN = 9  # TPosition::VECIN as the reference's enum numbers it (GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, ...)


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


@pytest.mark.parametrize("blocks,n", [(1, 8), (3, 64), (4, 100)])
def test_staged_copy_through_raw_ub_addresses_matches_numpy(binary, blocks, n):
    x = np.random.default_rng(n).standard_normal(blocks * n).astype(np.float32)
    y = pyasc.zeros((blocks * n,), dtype="float32", device="sim")
    info = pyasc.zeros((blocks, 4), dtype="int64", device="sim")
    launch_synced(binary.function("raw_stage_copy"), blocks, (pyasc.tensor(x, device="sim"), y, info, n))
    np.testing.assert_array_equal(y.numpy(), x)
    got = info.numpy()
    # raw scalar stores, then address_.dataLen of the 256-byte staging tensor and its logicPos (VECIN)
    np.testing.assert_array_equal(got[:, 0], np.arange(1, blocks + 1))
    np.testing.assert_array_equal(got[:, 1], np.full(blocks, 256))
    np.testing.assert_array_equal(got[:, 2], np.full(blocks, VECIN))
    np.testing.assert_array_equal(got[:, 3], np.zeros(blocks))  # never written


def test_a_raw_address_outside_local_memory_is_reported(binary):
    x = pyasc.zeros((16,), dtype="float32", device="sim")
    y = pyasc.zeros((16,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    stream = pyasc.current_stream("sim")
    pyasc_acl.launch(binary.function("raw_addr_outside_ub"), 1, (x, y), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert "local-out-of-bounds" in msg, msg
    assert marked_line("compat/local_addr_idioms.cpp", "raw-addr-outside") in msg, msg


@pytest.mark.parametrize("n", [64, 200, 1000])
def test_numeric_ub_addresses_in_address_record_match_numpy(binary, n):
    # `(__ubuf__ float *)(96)`: the NPU's own form of a UB pointer, a byte address in the Unified Buffer (round 31)
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    y = pyasc.zeros((n,), dtype="float32", device="sim")
    launch_synced(binary.function("raw_ub_offset_pingpong"), 1, (pyasc.tensor(x, device="sim"), y, n))
    np.testing.assert_array_equal(y.numpy(), x)
