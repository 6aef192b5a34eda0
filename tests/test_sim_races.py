"""Intra-core pipe race detection on the simulator (issue 10 point 2, check 'pipe-race').

Each local-memory access is attributed to the pipe of its instruction (MTE2 loads, V vector ops,
MTE3 stores, S scalar GetValue/SetValue, ...); SetFlag/WaitFlag, PipeBarrier<PIPE_ALL> and the
queue protocol order pipes. A TBuf kernel that leaves a flag pair out is reported at the second
instruction, naming the first one's line and the bytes; with the flags, or through queues, it runs
clean. Kernels: backends/sim/kernel_api/tests/kernels/races.cpp.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load, marked_line, source_line

SRC = "races.cpp"
TILE = 256
ALL_FLAGS = 7


@pytest.fixture
def kernels():
    return load(SRC)


@pytest.fixture
def stream():
    return pyasc.current_stream("sim")


def run_add_one(kernels, stream, name, tiles, *extra):
    x = pyasc.full((tiles * TILE,), 1.5, dtype="float32", device="sim")
    z = pyasc.zeros(tiles * TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function(name), 1, (x, z, tiles, *extra), stream=stream)
    return x, z


def expect_race(stream, kernel, tag, kind, this_pipe, other_pipe, *details):
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert isinstance(info.value, pyasc.PyascError) and info.value.code == 507015
    head = f"kernel {kernel} block 0: sanitizer check 'pipe-race' failed at {marked_line(SRC, tag)}: "
    assert head in msg, f"expected {head!r} in {msg!r}"
    first = source_line(SRC, f"FIRST({tag})")
    for d in (f"{kind} between pipes: this {this_pipe} instruction", f"the {other_pipe} instruction at {first} ",
              f"SetFlag<HardEvent::{other_pipe}_{this_pipe}>", *details):
        assert d in msg, f"expected {d!r} in {msg!r}"
    return msg


def test_tbuf_with_every_flag_pair_is_clean(kernels, stream):
    _, z = run_add_one(kernels, stream, "tbuf_add_one", 3, ALL_FLAGS)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(3 * TILE, 2.5, np.float32))


def test_load_then_vector_op_without_mte2_v_flag(kernels, stream):
    run_add_one(kernels, stream, "tbuf_add_one", 1, ALL_FLAGS & ~1)
    expect_race(stream, "tbuf_add_one", "raw-mte2-v", "read-after-write", "V", "MTE2", "reads UB bytes [0, 1024)")


def test_vector_op_then_store_without_v_mte3_flag(kernels, stream):
    run_add_one(kernels, stream, "tbuf_add_one", 1, ALL_FLAGS & ~2)
    expect_race(stream, "tbuf_add_one", "raw-v-mte3", "read-after-write", "MTE3", "V", "reads UB bytes [0, 1024)")


def test_next_load_over_a_stored_buffer_without_mte3_mte2_flag(kernels, stream):
    # one tile has no next load: clean; the second tile's load overwrites what MTE3 still reads
    _, z = run_add_one(kernels, stream, "tbuf_add_one", 1, ALL_FLAGS & ~4)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(TILE, 2.5, np.float32))
    run_add_one(kernels, stream, "tbuf_add_one", 2, ALL_FLAGS & ~4)
    expect_race(stream, "tbuf_add_one", "war-mte3-mte2", "write-after-read", "MTE2", "MTE3",
                "writes UB bytes [0, 1024)")


def test_pipe_barrier_all_orders_every_pipe(kernels, stream):
    _, z = run_add_one(kernels, stream, "tbuf_barrier", 3)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(3 * TILE, 2.5, np.float32))


def test_queues_synchronise_by_construction(kernels, stream):
    _, z = run_add_one(kernels, stream, "queued_add_one", 4)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(4 * TILE, 2.5, np.float32))


def test_scalar_read_after_vector_op_needs_v_s(kernels, stream):
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("scalar_after_vector"), 1, (z, 1), stream=stream)
    stream.synchronize()
    assert z.numpy()[1] == 3.0
    pyasc_acl.launch(kernels.function("scalar_after_vector"), 1, (z, 0), stream=stream)
    # the Adds after the Duplicate (same pipe) is the last write
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert f"sanitizer check 'pipe-race' failed at {marked_line(SRC, 'raw-v-s')}: " in msg
    assert "read-after-write between pipes: this S instruction reads UB bytes [0, 4)" in msg
    assert f"the V instruction at {source_line(SRC, 'FIRST(raw-v-s)')} wrote" in msg
    assert "SetFlag<HardEvent::V_S>" in msg


def test_checks_off_reports_no_race(kernels, stream, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_CHECKS", "0")
    _, z = run_add_one(kernels, stream, "tbuf_add_one", 2, 0)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(2 * TILE, 2.5, np.float32))
