"""Tensor-exact bounds and initcheck on the simulator (issue 10 points 1 and 5).

pyasc's caching allocator tells the simulated runtime every block it hands out (padded as
aclrtMalloc documents: ALIGN_UP(n, 32) + 32 bytes) and takes back (pyascRtTrackBlock), so a
kernel's global-memory access is bounded by the tensor it points into, not by the 2 MiB segment
around it: a write into the neighbouring tensor is stopped before it lands ('gm-out-of-tensor'), a
freed tensor is 'gm-use-after-free', and bytes never written since allocation ('empty()') or
local memory no instruction of the kernel wrote are 'gm-uninit-read' / 'local-uninit-read'.
Kernels: backends/sim/kernel_api/tests/kernels/san_tensor.cpp.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load, marked_line

SRC = "san_tensor.cpp"
N = 64  # floats per tensor: 256 bytes, a 288-byte extent (256 + 32), a 512-byte block


@pytest.fixture
def kernels():
    return load(SRC)


def expect_error(stream, kernel: str, check: str, where: str, *details: str) -> str:
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    err = info.value
    assert isinstance(err, pyasc.PyascError) and err.code == 507015
    head = f"kernel {kernel} block 0: sanitizer check '{check}' failed at {where}: "
    assert head in err.message, f"expected {head!r} in {err.message!r}"
    for d in details:
        assert d in err.message, f"expected {d!r} in {err.message!r}"
    return err.message


def neighbours():
    """Two float tensors of N elements, the second right after the first in one segment."""
    # enough tensors that two land side by side even when earlier tests left the cache fragmented
    pool = [pyasc.full((N,), 9.0, dtype="float32", device="sim") for _ in range(64)]
    pyasc.synchronize("sim")  # the fills are on the current stream; the tests launch on their own
    by_ptr = {t._data.ptr: t for t in pool}
    for t in pool:
        nb = by_ptr.get(t._data.ptr + 512)
        if nb is not None:
            return t, nb, pool
    pytest.fail("the caching allocator placed no two 256-byte tensors next to each other")


def test_unsized_write_past_the_tensor_stops_before_the_neighbour(kernels, stream):
    z, nb, keep = neighbours()
    base = z._data.ptr
    pyasc_acl.launch(kernels.function("unsized_store"), 1, (z, 2 * 2 * N), stream=stream)  # 1024 bytes
    expect_error(
        stream, "unsized_store", "gm-out-of-tensor", marked_line(SRC, "gm-out-of-tensor"),
        f"DataCopy writes 1024 bytes at global address {base:#x}",
        f"past the end of the tensor [{base:#x}, {base + 288:#x}) (288 bytes",
        "by 736 bytes", "neighbouring tensor",
    )
    np.testing.assert_array_equal(nb.numpy(), np.full(N, 9.0, np.float32))  # the neighbour is intact
    np.testing.assert_array_equal(z.numpy(), np.full(N, 9.0, np.float32))   # checked before the write
    del keep


def test_the_documented_padding_is_legal_and_no_byte_more(kernels, stream):
    z, nb, keep = neighbours()
    pyasc_acl.launch(kernels.function("unsized_store"), 1, (z, N + 8), stream=stream)  # 288 bytes: the extent
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(N, 3.0, np.float32))
    pyasc_acl.launch(kernels.function("unsized_store"), 1, (z, N + 16), stream=stream)  # 32 bytes more
    expect_error(stream, "unsized_store", "gm-out-of-tensor", marked_line(SRC, "gm-out-of-tensor"),
                 "by 32 bytes")
    np.testing.assert_array_equal(nb.numpy(), np.full(N, 9.0, np.float32))
    del keep


def test_use_after_free_names_the_freed_tensor(kernels, stream):
    x = pyasc.full((N,), 1.0, dtype="float32", device="sim")
    z = pyasc.zeros(N, dtype="float32", device="sim")
    ptr = x._data.ptr
    stream.synchronize()
    del x  # back to the cache: the pointer is stale
    pyasc_acl.launch(kernels.function("add_one"), 1, (ptr, z, N), stream=stream)
    expect_error(
        stream, "add_one", "gm-use-after-free", marked_line(SRC, "gm-read"),
        f"DataCopy reads 256 bytes at global address {ptr:#x} through a GlobalTensor set to {ptr:#x}",
        f"the tensor block [{ptr:#x}, {ptr + 288:#x}) (288 bytes), which was freed before this launch was enqueued",
    )
    np.testing.assert_array_equal(z.numpy(), np.zeros(N, np.float32))


def test_a_tensor_freed_after_a_queued_launch_is_valid_for_it(kernels, stream):
    x = pyasc.full((N,), 5.0, dtype="float32", device="sim")
    z = pyasc.zeros(N, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("add_one"), 1, (x, z, N), stream=stream)
    del x  # the launch was enqueued while x was live
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(N, 6.0, np.float32))


def test_reading_an_empty_tensor_is_an_uninitialised_read(kernels, stream):
    x = pyasc.empty(N, dtype="float32", device="sim")
    z = pyasc.zeros(N, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("add_one"), 1, (x, z, N), stream=stream)
    expect_error(stream, "add_one", "gm-uninit-read", marked_line(SRC, "gm-read"),
                 f"DataCopy reads 256 bytes at global address {x._data.ptr:#x}", "never written since its tensor "
                 "was allocated")
    # once written (here by a copy from the host) the same launch is clean
    x[:] = np.full(N, 2.0, np.float32)
    pyasc_acl.launch(kernels.function("add_one"), 1, (x, z, N), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(N, 3.0, np.float32))


def test_a_kernel_may_read_back_what_it_wrote_into_an_empty_tensor(kernels, stream):
    z = pyasc.empty(N, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("write_then_read"), 1, (z, N), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(N, 4.0, np.float32))


def test_reading_local_memory_no_instruction_wrote(kernels, stream):
    z = pyasc.full((N,), 7.0, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("local_uninit"), 1, (z, N), stream=stream)
    # the Adds carries the never-written lanes (kapi/vector_taint.h): the error is the store of its result
    expect_error(stream, "local_uninit", "local-uninit-read", marked_line(SRC, "local-uninit-read"),
                 "DataCopy reads 256 bytes at UB offset 0", "no instruction of this kernel wrote UB offset 0")
    np.testing.assert_array_equal(z.numpy(), np.full(N, 7.0, np.float32))


def test_checks_off_turns_the_new_checks_off(kernels, stream, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_CHECKS", "0")
    x = pyasc.empty(N, dtype="float32", device="sim")
    z = pyasc.zeros(N, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("add_one"), 1, (x, z, N), stream=stream)
    pyasc_acl.launch(kernels.function("local_uninit"), 1, (z, N), stream=stream)
    stream.synchronize()


@pytest.mark.parametrize("reuse", [False, True])
def test_a_block_freed_or_reused_behind_a_queued_launch_stays_valid_for_it(reuse):
    """The launch is held back by a gate kernel; meanwhile its input is freed (and, with `reuse`,
    handed out again on the same stream: stream-ordered reuse). The queued launch still sees its input as a live,
    initialised tensor: the block table reaches the device ordered with the stream."""
    import struct

    from pyasc_acl import _acl

    from acl_fixtures import kernel_binary, sim_library
    from ascendc_kernels import kernel_path

    dev = _acl.Device(sim_library(), 0, "tensorchecks:0")
    s = dev.create_stream()
    gate_fn = dev.load_binary(kernel_binary()).function("wait_flag")
    add_one = dev.load_binary(kernel_path(SRC)).function("add_one")
    flag = dev.malloc(4)
    dev.memset(flag.ptr, 4, 0, 4)
    x = dev.allocate(N * 4, s)
    z = dev.allocate(N * 4, s)
    dev.copy(x, np.full(N, 5.0, np.float32), N * 4, s, True)
    dev.launch(gate_fn, 1, struct.pack("<Q", flag.ptr), s, [])  # s is busy until the flag is set
    dev.launch(add_one, 1, struct.pack("<QQQ", x.ptr, z.ptr, N), s, [x, z])
    x_ptr = x.ptr
    x.free()  # after the launch was queued
    if reuse:
        y = dev.allocate(N * 4, s)  # stream-ordered reuse: x's memory, while s still has queued work
        assert y.ptr == x_ptr
    one = np.ones(1, np.uint32)
    dev.memcpy(flag.ptr, 4, one.ctypes.data, 4, _acl.ACL_MEMCPY_HOST_TO_DEVICE)  # open the gate
    s.synchronize()  # no gm-use-after-free, no gm-uninit-read
    out = np.zeros(N, np.float32)
    dev.copy(out, z, N * 4, s, True)
    np.testing.assert_array_equal(out, np.full(N, 6.0, np.float32))
    dev.synchronize()


# modes 0 / 2: the Adds reading a never-written repeat carries its lanes as taint (kapi/vector_taint.h); the
# error is the DataCopy storing the lanes computed from it (the out buffer's second repeat)
@pytest.mark.parametrize("mode,tag,what,first", [
    (0, "uninit-tail-count", "DataCopy reads 512 bytes at UB offset", 256),  # a whole repeat never written
    (1, "uninit-tail-copy", "DataCopy reads 256 bytes at UB offset", 128),   # a DMA reads every sector
    (2, "uninit-tail-repeat", "DataCopy reads 512 bytes at UB offset", 256)])  # mask/repeat form, repeat 2
def test_a_read_beyond_its_first_sector_that_no_instruction_wrote(kernels, stream, mode, tag, what, first):
    z = pyasc.full((128,), 7.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("local_uninit_tail"), 1, (z, mode), stream=stream)
    msg = expect_error(stream, "local_uninit_tail", "local-uninit-read", marked_line(SRC, tag), what)
    base = int(msg.split(" bytes at UB offset ")[1].split(",")[0])
    unwritten = int(msg.split("no instruction of this kernel wrote UB offset ")[1].split(" ")[0])
    assert unwritten == base + first, msg  # the first sector of the read was written: the old check passed it


@pytest.mark.parametrize("mode,expect", [(3, np.r_[np.full(32, 4.0), np.zeros(32)]),  # stride gaps are not read
                                         (4, np.r_[np.full(32, 4.0), np.full(32, np.nan)])])
def test_reads_hardware_tolerates_stay_clean(kernels, stream, mode, expect):
    # mode 4: lanes 32..63 of a partly filled repeat are read and ignored (garbage out, as on hardware)
    z = pyasc.full((128,), 7.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("local_uninit_tail"), 1, (z, mode), stream=stream)
    stream.synchronize()
    got = z.numpy()
    np.testing.assert_array_equal(got[64:], np.full(64, 7.0, np.float32))  # only the first 64 are stored
    got = got[:64]
    np.testing.assert_array_equal(got[:32], expect[:32].astype(np.float32))
    if mode == 3:
        np.testing.assert_array_equal(got[32:], expect[32:].astype(np.float32))
