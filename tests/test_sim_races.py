"""Intra-core pipe race detection on the simulator (issue 10 point 2, check 'pipe-race').

Each local-memory access is attributed to the pipe of its instruction (MTE2 loads, V vector ops,
MTE3 stores, S scalar GetValue/SetValue, ...); SetFlag/WaitFlag, PipeBarrier<PIPE_ALL> and the
queue protocol order pipes. A TBuf kernel that leaves a flag pair out is reported at the second
instruction, naming the first one's line and the bytes; with the flags, or through queues, it runs
clean. The Scalar Unit's pairs with MTE2 / MTE3 / V are the BiSheng compiler's automatic
synchronisation (on by default): the tests of those pairs build the kernels with
``--cce-auto-sync=off``, as some vllm-ascend op builds do (tests/test_sim_auto_sync.py: the default build).
Kernels: backends/sim/kernel_api/tests/kernels/races.cpp.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import expect_pipe_race, load, marked_line, source_line

SRC = "races.cpp"
TILE = 256
ALL_FLAGS = 7
AUTO_SYNC_OFF = ("--cce-auto-sync=off",)
#: what a report says with the compiler's automatic synchronisation off (a Scalar Unit pair) / on (any other pair)
OFF_NOTE = "This pair is needed because the kernel is built with the compiler's automatic synchronisation off"
ON_NOTE = "inserts only the Scalar Unit's pairs with MTE2 / MTE3 / V, not this one"


@pytest.fixture
def kernels():
    return load(SRC)


@pytest.fixture
def kernels_off():
    # the compiler's automatic synchronisation off: the Scalar Unit's pairs are the kernel's to write
    return load(SRC, AUTO_SYNC_OFF)


def run_add_one(kernels, stream, name, tiles, *extra):
    x = pyasc.full((tiles * TILE,), 1.5, dtype="float32", device="sim")
    z = pyasc.zeros(tiles * TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function(name), 1, (x, z, tiles, *extra), stream=stream)
    return x, z


def expect_race(stream, kernel, tag, kind, this_pipe, other_pipe, *details, off=False):
    # a Scalar Unit pair is reported only with automatic synchronisation off (`off`), and says so; every other
    # pair in both builds, the default's report saying the compiler does not insert it
    notes = [OFF_NOTE] if "S" in (this_pipe, other_pipe) else [] if off else [ON_NOTE]
    msg = expect_pipe_race(stream, SRC, kernel, tag, kind, this_pipe, other_pipe, *notes, *details)
    assert not off or ON_NOTE not in msg, msg
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
    expect_race(stream, "tbuf_add_one", "raw-v-mte3", "read-after-write", "MTE3", "V", "reads UB bytes [0, 1024)",
                "(or move the buffer through a TQue)")


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


def test_scalar_read_after_vector_op_needs_v_s(kernels_off, stream):
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels_off.function("scalar_after_vector"), 1, (z, 1), stream=stream)
    stream.synchronize()
    assert z.numpy()[1] == 3.0
    pyasc_acl.launch(kernels_off.function("scalar_after_vector"), 1, (z, 0), stream=stream)
    # the Adds after the Duplicate (same pipe) is the last write
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert f"sanitizer check 'pipe-race' failed at {marked_line(SRC, 'raw-v-s')}: " in msg
    assert "read-after-write between pipes: this S instruction reads UB bytes [0, 4)" in msg
    assert f"the V instruction at {source_line(SRC, 'FIRST(raw-v-s)')} wrote" in msg
    assert "SetFlag<HardEvent::V_S>" in msg and OFF_NOTE in msg


def test_a_scalar_pipe_wait_orders_every_later_instruction(kernels, stream):
    # the Scalar Unit issues every instruction: while it waits (X_S) nothing later starts, so an MTE2 -> S
    # wait orders a load before the next vector op, and a V -> S wait the vector op before the store
    x = pyasc.full((TILE,), 1.5, dtype="float32", device="sim")
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("scalar_wait_orders_all"), 1, (x, z, 3), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(TILE, 2.5, np.float32))
    pyasc_acl.launch(kernels.function("scalar_wait_orders_all"), 1, (x, z, 2), stream=stream)
    expect_race(stream, "scalar_wait_orders_all", "raw-mte2-s-v", "read-after-write", "V", "MTE2")
    pyasc_acl.launch(kernels.function("scalar_wait_orders_all"), 1, (x, z, 1), stream=stream)
    expect_race(stream, "scalar_wait_orders_all", "raw-v-s-mte3", "read-after-write", "MTE3", "V")


def test_scalar_write_then_vector_op_needs_s_v(kernels_off, stream):
    z = pyasc.zeros(2 * TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels_off.function("scalar_then_vector"), 1, (z, 3), stream=stream)
    stream.synchronize()
    # every flag pair: the two vector ops on the same bytes (one pipe) need none between them
    want = np.concatenate([np.full(TILE, 6.0), np.full(TILE, 2.0)]).astype(np.float32)
    want[0], want[TILE] = 12.0, 7.0
    np.testing.assert_array_equal(z.numpy(), want)
    pyasc_acl.launch(kernels_off.function("scalar_then_vector"), 1, (z, 2), stream=stream)
    expect_race(stream, "scalar_then_vector", "raw-s-v", "read-after-write", "V", "S", "reads UB bytes [0, 1024)",
                "(32-byte sector at offset 0)")


def test_row_by_row_vector_ops_then_unordered_reads(kernels_off, stream):
    # the two Adds (one per half) are recorded merged: a race on either half is still found
    z = pyasc.zeros(2 * TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels_off.function("rows_then_read"), 1, (z, 3), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(2 * TILE, 3.0, dtype=np.float32))
    pyasc_acl.launch(kernels_off.function("rows_then_read"), 1, (z, 2), stream=stream)
    expect_race(stream, "rows_then_read", "raw-rows-v-s", "read-after-write", "S", "V", "reads UB bytes [1024, 1028)")
    # bit 2 leaves the scalar read out: then nothing orders the store after the Adds
    pyasc_acl.launch(kernels_off.function("rows_then_read"), 1, (z, 4), stream=stream)
    expect_race(stream, "rows_then_read", "raw-rows-v-mte3", "read-after-write", "MTE3", "V",
                "reads UB bytes [0, 2048)", "(32-byte sector at offset 0)", off=True)
    # the scalar unit's V_S wait orders every instruction it issues later, the store included
    pyasc_acl.launch(kernels_off.function("rows_then_read"), 1, (z, 1), stream=stream)
    stream.synchronize()


ROWS = 8 * 64  # row_loop_edges: 8 rows of 64 floats; row 4 (after kMid = 3) is the one that must race


def run_row_loop(kernels, stream, mode):
    x = pyasc.full((ROWS,), 1.5, dtype="float32", device="sim")
    z = pyasc.zeros(ROWS, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("row_loop_edges"), 1, (x, z, mode), stream=stream)
    return z


def test_row_loop_load_between_rows_needs_mte2_v(kernels, stream):
    # the checks' one-pass row path (kapi/vector.h row_unary) must not carry rows 1-3's state over an MTE2 write
    z = run_row_loop(kernels, stream, 2)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(ROWS, 2.5, np.float32))
    run_row_loop(kernels, stream, 0)
    expect_race(stream, "row_loop_edges", "raw-row-mte2-v", "read-after-write", "V", "MTE2", "reads UB bytes [1024, 1280)")


def test_row_loop_flag_between_rows_orders_only_the_rows_before_it(kernels, stream):
    # SetFlag<V_MTE3> after row 3 publishes V's work so far: rows 4-7 are later work (a new epoch), not row 3's run
    z = run_row_loop(kernels, stream, 3)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(ROWS, 2.5, np.float32))
    run_row_loop(kernels, stream, 1)
    expect_race(stream, "row_loop_edges", "raw-row-v-mte3", "read-after-write", "MTE3", "V",
                "(32-byte sector at offset 3072)")


def test_row_loop_scalar_read_of_a_row_after_the_flag(kernels_off, stream):
    # ReduceSum rows (kapi/reduce.h row_reduce) and GetValue (tensor.h scalar_read_checked): the V_S flag after
    # row 3 orders rows 0-3's sums before the read, not row 4's
    run_row_loop(kernels_off, stream, 5)
    stream.synchronize()
    run_row_loop(kernels_off, stream, 4)
    expect_race(stream, "row_loop_edges", "raw-row-v-s", "read-after-write", "S", "V", "reads UB bytes [4224, 4228)",
                off=True)


def test_scalar_write_then_store_needs_s_mte3(kernels_off, stream):
    z = pyasc.zeros(2 * TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels_off.function("scalar_then_vector"), 1, (z, 1), stream=stream)
    # the store reads both halves; the scalar unit wrote the sector at byte 1024 last
    expect_race(stream, "scalar_then_vector", "raw-s-mte3", "read-after-write", "MTE3", "S",
                "reads UB bytes [0, 2048)", "(32-byte sector at offset 1024)")



@pytest.mark.parametrize("vecin", [False, True])
def test_scalar_write_then_queue_needs_its_own_flag(kernels_off, stream, vecin):
    # EnQue / DeQue is the producer pipe's flag (VECOUT: V -> MTE3, VECIN: MTE2 -> V): a SetValue into the tile
    # before EnQue is not ordered before the consumer by it (SetFlag/WaitFlag page: SetValue then DataCopy
    # needs PIPE_S -> PIPE_MTE3)
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    mode = 2 if vecin else 0
    pyasc_acl.launch(kernels_off.function("scalar_then_queue"), 1, (z, mode | 1), stream=stream)
    stream.synchronize()
    want = np.full(TILE, 3.0 if vecin else 2.0, dtype=np.float32)
    want[3] = 10.0 if vecin else 9.0
    np.testing.assert_array_equal(z.numpy(), want)
    pyasc_acl.launch(kernels_off.function("scalar_then_queue"), 1, (z, mode), stream=stream)
    if vecin:
        msg = expect_race(stream, "scalar_then_queue", "raw-s-enque-v", "read-after-write", "V", "S",
                          "reads UB bytes [0, 1024)", "(32-byte sector at offset 0)")
    else:
        # (the VECOUT queue's buffer follows the VECIN one's in UB)
        msg = expect_race(stream, "scalar_then_queue", "raw-s-enque-mte3", "read-after-write", "MTE3", "S",
                          "reads UB bytes [1024, 2048)", "(32-byte sector at offset 1024)")
    # the hint does not send the user to a TQue, which is what failed here
    assert "a TQue would not order it either" in msg and "through a TQue" not in msg, msg

@pytest.mark.parametrize("flags, tag, other_pipe, at", [
    (0, "raw-deque-mte2-s", "MTE2", 0),  # GetValue of a VECIN tile after DeQue: the queue is MTE2 -> V only
    (4, "raw-deque-mte2-s", "MTE2", 0),  # the same with an explicit SetFlag / WaitFlag<MTE2_V>: the same report
    (2, "raw-deque-v-s", "V", 1024),     # GetValue of a VECOUT tile after DeQue: the queue is V -> MTE3 only
])
def test_scalar_read_after_deque_needs_its_own_flag(kernels, kernels_off, stream, flags, tag, other_pipe, at):
    # DeQue is a WaitFlag of the queue's event on the consumer pipe, which does not stall the Scalar Unit
    # (SetFlag/WaitFlag page; the S <-> MTE2 / V pairs are the compiler's auto-sync, not the framework's):
    # with the MTE2_S / V_S pair clean and bit-exact, without it reported at the GetValue
    xa = np.arange(TILE, dtype=np.float32) * 0.25 - 7.0
    x = pyasc.tensor(xa, device="sim")
    pyasc.synchronize("sim")
    if flags & 2:
        want = np.concatenate([2.0 * xa, np.full(TILE, 2.0 * xa[3], np.float32)])
    else:
        want = np.concatenate([xa + xa[3], np.full(TILE, xa[3], np.float32)])
    # clean and bit-exact: with the pair (auto-sync off), and without it in the default build (the compiler's pair)
    for built, pair in ((kernels_off, 1), (kernels, 0)):
        z = pyasc.zeros(2 * TILE, dtype="float32", device="sim")
        pyasc_acl.launch(built.function("queue_then_scalar"), 1, (x, z, flags | pair), stream=stream)
        stream.synchronize()
        np.testing.assert_array_equal(z.numpy(), want)
    pyasc_acl.launch(kernels_off.function("queue_then_scalar"), 1, (x, z, flags), stream=stream)
    # (the VECOUT queue's buffer follows the VECIN one's in UB)
    msg = expect_race(stream, "queue_then_scalar", tag, "read-after-write", "S", other_pipe,
                      f"reads UB bytes [{at + 12}, {at + 16})")
    # the hint does not send the user to a TQue: a queue does not order the Scalar Unit
    assert "a TQue would not order it either" in msg and "through a TQue" not in msg, msg


CUBE_FLAGS = 7


def run_cube(kernels, stream, flags):
    rng = np.random.default_rng(flags)
    a = rng.integers(-4, 5, (16, 16)).astype(np.float16)
    b = rng.integers(-4, 5, (16, 16)).astype(np.float16)
    c = pyasc.full((16, 16), np.nan, dtype="float32", device="sim")
    ta, tb = pyasc.tensor(a, device="sim"), pyasc.tensor(b, device="sim")
    pyasc.synchronize("sim")  # the uploads before the launch on this stream
    pyasc_acl.launch(kernels.function("tbuf_cube"), 1, (ta, tb, c, flags), stream=stream)
    return a, b, c


def test_cube_tbufs_with_every_flag_pair_are_clean(kernels, stream):
    a, b, c = run_cube(kernels, stream, CUBE_FLAGS)
    stream.synchronize()
    np.testing.assert_array_equal(c.numpy(), a.astype(np.float32) @ b.astype(np.float32))


@pytest.mark.parametrize("dropped, tag, this_pipe, other_pipe, mem", [
    (1, "raw-mte2-mte1", "MTE1", "MTE2", "L1"),   # LoadData reads what the GM -> L1 copy wrote
    (2, "raw-mte1-m", "M", "MTE1", "L0A"),        # Mmad reads what LoadData wrote
    (4, "raw-m-fix", "FIX", "M", "L0C"),          # Fixpipe reads what Mmad wrote
])
def test_cube_pipe_pairs_without_their_flag(kernels, stream, dropped, tag, this_pipe, other_pipe, mem):
    run_cube(kernels, stream, CUBE_FLAGS & ~dropped)
    expect_race(stream, "tbuf_cube", tag, "read-after-write", this_pipe, other_pipe, f"reads {mem} bytes [")


def test_checks_off_reports_no_race(kernels, stream, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_CHECKS", "0")
    _, z = run_add_one(kernels, stream, "tbuf_add_one", 2, 0)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(2 * TILE, 2.5, np.float32))


def test_pipe_race_is_on_by_default_and_opts_out_per_kernel(tmp_path, stream):
    # a kernel compiled without any switch is checked; -DPYASC_SIM_RACECHECK=0 opts it out of
    # pipe-race alone (the other checks stay on)
    import pyasc_sim
    from ascendc_kernels import ASCENDC_DIR

    x = pyasc.full((TILE,), 1.5, dtype="float32", device="sim")
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    for flags, raced in (([], True), (["-DPYASC_SIM_RACECHECK=0"], False)):
        path = pyasc_sim.compile(ASCENDC_DIR / SRC, opt="-O1", kernels=["tbuf_add_one"], extra_flags=flags)
        fn = pyasc_acl.Binary(path, device="sim").function("tbuf_add_one")
        pyasc_acl.launch(fn, 1, (x, z, 1, 0), stream=stream)
        if raced:
            with pytest.raises(pyasc_acl.AclKernelError, match="pipe-race"):
                stream.synchronize()
        else:
            stream.synchronize()
            np.testing.assert_array_equal(z.numpy(), np.full(TILE, 2.5, np.float32))


def test_operator_form_race_names_the_kernels_line(kernels, stream):
    # `out = in * in` is implemented in the kernel API header; the report must name the kernel line
    x = pyasc.full((TILE,), 1.5, dtype="float32", device="sim")
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("tbuf_operator_mul"), 1, (x, z, 1), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(TILE, 2.25, np.float32))
    pyasc_acl.launch(kernels.function("tbuf_operator_mul"), 1, (x, z, 0), stream=stream)
    msg = expect_race(stream, "tbuf_operator_mul", "raw-mte2-v-operator", "read-after-write", "V", "MTE2",
                      "reads UB bytes [0, 1024)")
    assert "intrinsics.h" not in msg, msg
