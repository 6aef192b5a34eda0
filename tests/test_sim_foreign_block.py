"""gm-foreign-block: a kernel may touch only the device blocks reachable from what it was given (its
arguments, and addresses stored in the blocks they point to, found by a conservative scan); an
access that lands inside a live tensor it was not given is an error naming the access, the block and
the arguments. A failing raw ``__gm__`` store's target bytes are put back when the block ends, so
the neighbour's bytes stay intact and the device stays usable. Kernels:
backends/sim/kernel_api/tests/kernels/san_foreign.cpp (compiled once)."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load, marked_line

pytest.importorskip("pyasc_sim")

SRC = "san_foreign.cpp"
N = 64  # floats per tensor: 256 bytes, a 288-byte block extent


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


def launch(stream, fn, blocks: int, args: tuple) -> None:
    pyasc.synchronize("sim")  # fills on the current stream before the launch
    pyasc_acl.launch(fn, blocks, args, stream=stream)


def expect_error(stream, fn, blocks: int, args: tuple, check: str, where: str, *details: str) -> str:
    launch(stream, fn, blocks, args)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert f"sanitizer check '{check}' failed at {where}: " in msg, msg
    for d in details:
        assert d in msg, (d, msg)
    return msg


def pair():
    """x (given to the kernel) and a live neighbour (not given), both filled."""
    x = pyasc.full((N,), 1.0, dtype="float32", device="sim")
    nb = pyasc.full((N,), 5.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    return x, nb


def test_a_globaltensor_set_into_a_live_neighbour_is_a_foreign_block(kernels, stream):
    x, nb = pair()
    off = nb._data.ptr - x._data.ptr
    msg = expect_error(stream, kernels.function("gt_copy_at"), 1, (x, off, N), "gm-foreign-block",
                       marked_line(SRC, "gt-foreign"), f"through a GlobalTensor set to {nb._data.ptr:#x}",
                       f"inside the live tensor block [{nb._data.ptr:#x}, {nb._data.ptr + 288:#x}) (288 bytes)",
                       f"they point into [{x._data.ptr:#x}, {x._data.ptr + 288:#x})")
    assert "which this kernel was not given" in msg
    np.testing.assert_array_equal(nb.numpy(), np.full(N, 5.0, np.float32))  # checked before the copy
    # inside its own tensor the same kernel is clean
    launch(stream, kernels.function("gt_copy_at"), 1, (x, 0, N))
    stream.synchronize()


def test_a_raw_store_into_a_live_neighbour_is_caught_and_undone(kernels, stream):
    x, nb = pair()
    off = nb._data.ptr - x._data.ptr
    before = nb.numpy().tobytes()
    expect_error(stream, kernels.function("raw_fill_at"), 4, (x, off, N), "gm-foreign-block",
                 marked_line(SRC, "raw-foreign"), "a raw __gm__ store writes 4 bytes",
                 f"at global address {nb._data.ptr:#x}", "which this kernel was not given")
    # every block stored all N floats (the hooks cannot stop a store): all were put back
    assert nb.numpy().tobytes() == before
    # the device stays usable: the same kernel on its own tensor, then a clean op
    launch(stream, kernels.function("raw_fill_at"), 1, (x, 0, N))
    stream.synchronize()
    np.testing.assert_array_equal(x.numpy(), np.full(N, 9.0, np.float32))
    np.testing.assert_array_equal((nb + nb).numpy(), np.full(N, 10.0, np.float32))


def test_a_raw_store_into_a_freed_block_is_undone_too(kernels, stream):
    x, nb = pair()
    ptr, off = nb._data.ptr, nb._data.ptr - x._data.ptr
    del nb
    pyasc.synchronize("sim")
    expect_error(stream, kernels.function("raw_fill_at"), 1, (x, off, N), "gm-use-after-free",
                 marked_line(SRC, "raw-foreign"), f"at global address {ptr:#x}", "which was freed")
    again = pyasc.empty(N, dtype="float32", device="sim")  # the caching allocator hands the block out again
    assert again._data.ptr == ptr
    np.testing.assert_array_equal(again.numpy(), np.full(N, 5.0, np.float32))  # what the freed tensor held
    launch(stream, kernels.function("raw_fill_at"), 1, (again, 0, N))  # a kernel writing it is clean
    stream.synchronize()


def test_pointers_stored_in_gm_the_kernel_was_given_are_reachable(kernels, stream):
    src = pyasc.asarray(np.arange(N, dtype=np.float32), device="sim")
    other = pyasc.full((N,), 2.0, dtype="float32", device="sim")
    table = pyasc.asarray(np.array([other._data.ptr, src._data.ptr, 0, 0], dtype=np.int64), device="sim")
    out = pyasc.zeros(N, dtype="float32", device="sim")
    launch(stream, kernels.function("table_add_one"), 1, (table, out, 1, N))
    stream.synchronize()
    np.testing.assert_array_equal(out.numpy(), np.arange(N, dtype=np.float32) + 1)


def test_an_address_in_a_struct_passed_by_value_is_reachable(kernels, stream):
    src = pyasc.asarray(np.arange(N, dtype=np.float32), device="sim")
    out = pyasc.zeros(N, dtype="float32", device="sim")
    launch(stream, kernels.function("struct_add_one"), 1, (struct.pack("<IIQ", N, 0, src._data.ptr), out))
    stream.synchronize()
    np.testing.assert_array_equal(out.numpy(), np.arange(N, dtype=np.float32) + 1)
