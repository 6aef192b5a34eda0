"""A read through a GlobalTensor past its declared size that stays inside the memory the tensor points
into is the warning gm-read-past-size, not an error: the reference's SetGlobalBuffer page defines
bufferSize as the number of elements the tensor contains, but nothing bounds an access by it on the NPU
(Huawei's msSanitizer memcheck reports accesses to unallocated memory, the kernel library's ASCENDC_OOM
check the launch's argument ranges), and a read corrupts nothing. NPUKernelBench's scalar-list Foreach
kernels declare their scalar list with one element and read GetValue(index) for every tensor; our
kernel in that idiom (backends/sim/kernel_api/tests/kernels/compat/scalar_list_idioms.cpp) runs with
checks on and matches NumPy, warning at the read. What can go wrong stays an error: a write past the
size (it lands in whatever owns those bytes), a read leaving the memory block, and the bytes read --
another block's writes (gm-cross-core-race) or never-written bytes (gm-uninit-read)."""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest

import pyasc
from ascendc_kernels import launch_failing, launch_synced, load, marked_line

SRC = "compat/scalar_list_idioms.cpp"
TILE = 64


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def failing(function, blocks: int, args) -> str:
    """The error of a launch whose other blocks may also warn gm-read-past-size (taken here, not left for
    the next synchronize)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", pyasc.SanitizerWarning)
        msg = launch_failing(function, blocks, args)
        pyasc.synchronize("sim")
    return msg


def inputs(blocks: int, seed: int):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(blocks * TILE).astype(np.float32)
    s = rng.standard_normal(blocks + 3).astype(np.float32)
    return x, s


@pytest.mark.parametrize("blocks,shift", [(1, 0), (4, 0), (6, 3)])
def test_a_one_element_scalar_list_read_at_every_index_matches_with_a_warning(binary, blocks, shift):
    x, s = inputs(blocks, blocks + shift)
    y = pyasc.zeros((blocks * TILE,), dtype="float32", device="sim")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", pyasc.SanitizerWarning)
        launch_synced(binary.function("scalar_list_adds"), blocks,
                      (pyasc.tensor(x, device="sim"), pyasc.tensor(s, device="sim"), y, shift))
    idx = np.arange(blocks) + shift
    np.testing.assert_array_equal(y.numpy(), x + np.repeat(s[idx], TILE))
    msgs = [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)]
    past = [m for m in msgs if "gm-read-past-size" in m]
    assert len(past) == int(np.count_nonzero(idx > 0)), msgs  # index 0 is inside the declared size
    assert all(marked_line(SRC, "read-past-size") in m for m in past), past
    if past:
        assert "GetValue reads elements [" in past[0] and "of a GlobalTensor of 1 elements" in past[0], past[0]
        assert "inside the memory block" in past[0] and "declare them in SetGlobalBuffer" in past[0], past[0]
    assert len(msgs) == len(past), msgs  # nothing else


def test_strict_mode_turns_the_warning_into_an_error(binary, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_STRICT", "1")
    x, s = inputs(2, 1)
    y = pyasc.zeros((2 * TILE,), dtype="float32", device="sim")
    msg = launch_failing(binary.function("scalar_list_adds"), 2,
                         (pyasc.tensor(x, device="sim"), pyasc.tensor(s, device="sim"), y, 0))
    assert "gm-read-past-size" in msg and "block 1" in msg, msg


def test_a_read_leaving_the_memory_block_stays_an_error(binary):
    x, s = inputs(2, 2)
    y = pyasc.zeros((2 * TILE,), dtype="float32", device="sim")
    # scalars holds 5 floats (a 64-byte block with its padding): index 100 lies past it
    msg = failing(binary.function("scalar_list_adds"), 2,
                  (pyasc.tensor(x, device="sim"), pyasc.tensor(s, device="sim"), y, 100))
    assert f"sanitizer check 'gm-out-of-bounds' failed at {marked_line(SRC, 'read-past-size')}" in msg, msg
    assert "GetValue reads elements [100, 101)" in msg and "stays inside" not in msg, msg


def test_never_written_bytes_read_past_the_size_are_still_an_error(binary):
    x, _ = inputs(3, 3)
    y = pyasc.zeros((3 * TILE,), dtype="float32", device="sim")
    pyasc.synchronize("sim")  # no queued work left: the block empty() hands out is tracked as never written
    scalars = pyasc.empty((8,), dtype="float32", device="sim")  # nothing wrote it
    msg = failing(binary.function("scalar_list_adds"), 3, (pyasc.tensor(x, device="sim"), scalars, y, 0))
    assert "sanitizer check 'gm-uninit-read' failed at" in msg, msg


def test_a_write_past_the_size_inside_the_memory_stays_an_error(binary):
    x, s = inputs(3, 4)
    scalars = pyasc.tensor(s, device="sim")
    msg = launch_failing(binary.function("scalar_list_store"), 3, (pyasc.tensor(x, device="sim"), scalars, 1))
    assert "kernel scalar_list_store block 1: " in msg, msg
    assert f"sanitizer check 'gm-out-of-bounds' failed at {marked_line(SRC, 'write-past-size')}" in msg, msg
    assert "SetValue writes elements [1, 2)" in msg and "not another core's slice" in msg, msg
    # nothing past the size was written: block 2's own store is in place, scalars[2] was not block 1's
    got = scalars.numpy()
    assert got[2] == x[2 * TILE] and got[0] == x[0], (got, x[::TILE])


def test_a_read_past_the_size_of_what_another_block_writes_is_a_race(binary):
    x, _ = inputs(2, 5)
    out = pyasc.zeros((2 * 16,), dtype="float32", device="sim")
    msg = failing(binary.function("scalar_list_neighbour"), 2, (pyasc.tensor(x, device="sim"), out))
    assert "sanitizer check 'gm-cross-core-race' failed at " in msg, msg
    assert marked_line(SRC, "neighbour-read") in msg, msg


def test_the_warning_of_a_launch_that_fails_comes_with_the_failure(binary):
    # block 0 reads past the declared size (the warning) and races with block 1 (the error): the warning is
    # raised by the synchronize that raises the failure, before it, not left for the next synchronize
    x, _ = inputs(2, 6)
    out = pyasc.zeros((2 * 16,), dtype="float32", device="sim")
    xd = pyasc.tensor(x, device="sim")
    pyasc.synchronize("sim")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", pyasc.SanitizerWarning)
        msg = launch_failing(binary.function("scalar_list_neighbour"), 2, (xd, out))
        msgs = [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)]
        assert "sanitizer check 'gm-cross-core-race' failed at " in msg, msg
        assert any("gm-read-past-size" in m and marked_line(SRC, "neighbour-read") in m for m in msgs), msgs
        del seen[:]
        pyasc.synchronize("sim")  # nothing held back
        assert not [w for w in seen if issubclass(w.category, pyasc.SanitizerWarning)], [str(w.message) for w in seen]


def test_a_warning_made_an_error_by_the_filter_does_not_hide_the_failure(binary, monkeypatch):
    # the filter turns the warning into an exception: it goes to sys.unraisablehook, the failure is raised
    x, _ = inputs(2, 7)
    out = pyasc.zeros((2 * 16,), dtype="float32", device="sim")
    xd = pyasc.tensor(x, device="sim")
    pyasc.synchronize("sim")
    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: unraisable.append(str(u.exc_value)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", pyasc.SanitizerWarning)
        msg = launch_failing(binary.function("scalar_list_neighbour"), 2, (xd, out))
    assert "sanitizer check 'gm-cross-core-race' failed at " in msg, msg
    assert any("gm-read-past-size" in u for u in unraisable), unraisable
