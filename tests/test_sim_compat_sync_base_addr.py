"""The FFTS base address of hardware cross-core synchronisation as collective kernels set it
(Ascend/memfabric_hybrid's zbal send / recv / reduce-scatter / allreduce begin with
`AscendC::SetSyncBaseAddr(comm->fftsConfig)` or take the address as a kernel argument), and the CCE
intrinsic `set_ffts_base_addr` it stands for: our kernels set it, then meet in SyncAll and read each
other's results, checked against NumPy; a value the register cannot hold is reported at its line."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import launch_synced, load, marked_line

SRC = "compat/sync_base_addr_idioms.cpp"
TILE = 64
FFTS = 0x12_4000_0000  # a 4-byte aligned address below 2**48, as the runtime would hand one out


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


@pytest.mark.parametrize("blocks", [1, 3, 8])
@pytest.mark.parametrize("intrinsic", [0, 1])
def test_set_then_syncall_rotates_the_doubled_tiles(binary, blocks, intrinsic):
    x = np.random.default_rng(blocks).standard_normal(blocks * TILE).astype(np.float32)
    y = pyasc.zeros((blocks * TILE,), dtype="float32", device="sim")
    z = pyasc.zeros((blocks * TILE,), dtype="float32", device="sim")
    launch_synced(binary.function("ffts_arg_then_rotate"), blocks,
                  (pyasc.tensor(x, device="sim"), y, z, FFTS, intrinsic))
    doubled = 2 * x
    np.testing.assert_array_equal(y.numpy(), doubled)
    np.testing.assert_array_equal(z.numpy(), np.roll(doubled.reshape(blocks, TILE), -1, axis=0).ravel())


@pytest.mark.parametrize("blocks", [2, 5])
def test_address_read_from_a_communicator_struct(binary, blocks):
    x = np.arange(blocks * TILE, dtype=np.float32) * 0.5 - 7
    comm = np.frombuffer(struct.pack("<QII", FFTS, blocks, 0), dtype=np.uint8).copy()
    y = pyasc.zeros((blocks * TILE,), dtype="float32", device="sim")
    z = pyasc.zeros((blocks * 16,), dtype="float32", device="sim")  # one 64-byte line per block
    launch_synced(binary.function("ffts_from_comm_struct"), blocks,
                  (pyasc.tensor(x, device="sim"), y, z, pyasc.tensor(comm, device="sim")))
    np.testing.assert_array_equal(y.numpy(), np.roll(x.reshape(blocks, TILE), -1, axis=0).ravel())
    want = np.zeros((blocks, 16), dtype=np.float32)
    want[:, 0] = blocks
    np.testing.assert_array_equal(z.numpy(), want.ravel())


def test_an_unaligned_address_is_reported(binary):
    x = pyasc.zeros((8,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    stream = pyasc.current_stream("sim")
    pyasc_acl.launch(binary.function("ffts_unaligned"), 1, (x, FFTS), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert "ffts-config" in msg and "0x1240000002" in msg and "4-byte aligned" in msg, msg
    assert marked_line(SRC, "ffts-unaligned") in msg, msg
