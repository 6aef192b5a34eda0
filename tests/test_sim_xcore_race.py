"""Cross-core global-memory races (issue 10 point 3): one block reading bytes another block of the
same launch writes (either order), with no SyncAll, no cross-core flag (IBSet/IBWait,
CrossCoreSetFlag/CrossCoreWaitFlag) ordering them and not both atomic, is the sanitizer error
'gm-cross-core-race' naming both blocks, both source lines and the bytes. The same kernels ordered
by SyncAll, IBSet/IBWait, cross-core flags or atomics run clean. Kernels:
backends/sim/kernel_api/tests/kernels/xrace.cpp (planted lines marked BAD(...))."""

from __future__ import annotations

import re

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load, marked_line

SRC = "xrace.cpp"
TILE = 64


@pytest.fixture
def kernels():
    return load(SRC)


def neighbour_args(blocks: int):
    x_np = np.random.default_rng(blocks).standard_normal(blocks * TILE).astype(np.float32)
    x = pyasc.tensor(x_np, device="sim")
    y = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    work = pyasc.zeros(blocks * TILE, dtype="float32", device="sim")
    return x_np, x, y, work


def expected_neighbour(x_np: np.ndarray, blocks: int) -> np.ndarray:
    work = (2 * x_np).reshape(blocks, TILE)
    return (work + np.roll(work, -1, axis=0)).reshape(-1)


def race_message(stream) -> str:
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    return info.value.message


def test_read_after_write_across_blocks_without_sync_is_a_race(kernels, stream):
    blocks = 4
    _, x, y, work = neighbour_args(blocks)
    pyasc_acl.launch(kernels.function("xrace_no_sync"), blocks, (x, y, work), stream=stream)
    msg = race_message(stream)
    reader, writer = marked_line(SRC, "race-reader"), marked_line(SRC, "race-writer")
    assert f"sanitizer check 'gm-cross-core-race' failed at {reader}: " in msg, msg
    # both blocks (the writer is the reader's next block), both lines, the bytes and the fix
    assert f"wrote global memory [" in msg and f"({TILE * 4} bytes) at {writer} and block " in msg, msg
    assert f"read it at {reader}" in msg, msg
    m = re.search(r"block (\d+) wrote global memory .* and block (\d+) read it", msg)
    assert m is not None, msg
    w, r = int(m.group(1)), int(m.group(2))
    assert w == (r + 1) % blocks, msg
    assert f"kernel xrace_no_sync block {r}: " in msg, msg
    assert "Put SyncAll() between them, signal with IBSet/IBWait or CrossCoreSetFlag/CrossCoreWaitFlag" in msg
    assert "or let each block read only bytes no other block of the launch writes" in msg


@pytest.mark.parametrize("blocks", [1, 2, 8])
def test_syncall_orders_the_read(kernels, stream, blocks):
    x_np, x, y, work = neighbour_args(blocks)
    pyasc_acl.launch(kernels.function("xrace_syncall"), blocks, (x, y, work), stream=stream)
    stream.synchronize()
    np.testing.assert_allclose(y.numpy(), expected_neighbour(x_np, blocks), rtol=1e-6)


@pytest.mark.parametrize("blocks", [2, 5])
def test_ibset_ibwait_orders_the_read(kernels, stream, blocks):
    x_np, x, y, work = neighbour_args(blocks)
    ws = pyasc.zeros(blocks * 8, dtype="int32", device="sim")
    pyasc_acl.launch(kernels.function("xrace_ib"), blocks, (x, y, work, ws, blocks * 8), stream=stream)
    stream.synchronize()
    np.testing.assert_allclose(y.numpy(), expected_neighbour(x_np, blocks), rtol=1e-6)


def test_crosscore_flags_order_the_read(kernels, stream):
    blocks = 6
    x_np, x, y, work = neighbour_args(blocks)
    pyasc_acl.launch(kernels.function("xrace_flag"), blocks, (x, y, work), stream=stream)
    stream.synchronize()
    np.testing.assert_allclose(y.numpy(), expected_neighbour(x_np, blocks), rtol=1e-6)


def test_write_after_read_across_blocks_is_a_race(kernels, stream):
    blocks = 3
    _, x, y, work = neighbour_args(blocks)
    pyasc_acl.launch(kernels.function("xrace_war"), blocks, (x, y, work), stream=stream)
    msg = race_message(stream)
    reader, writer = marked_line(SRC, "war-reader"), marked_line(SRC, "war-writer")
    assert f"sanitizer check 'gm-cross-core-race' failed at {reader}: " in msg, msg
    assert f"at {writer} and block " in msg and f"read it at {reader}" in msg, msg


def run_atomic(kernels, stream, blocks: int, read_back: int, sync: int):
    x_np = np.arange(blocks * TILE, dtype=np.float32) % 7
    x = pyasc.tensor(x_np, device="sim")
    y = pyasc.zeros((blocks + 1) * TILE, dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("xrace_atomic"), blocks, (x, y, read_back, sync), stream=stream)
    return x_np, y


def test_atomic_writes_of_many_blocks_are_clean(kernels, stream):
    x_np, y = run_atomic(kernels, stream, 4, 0, 0)
    stream.synchronize()
    np.testing.assert_array_equal(y.numpy()[:TILE], x_np.reshape(4, TILE).sum(axis=0))


def test_plain_read_of_atomic_writes_without_sync_is_a_race(kernels, stream):
    run_atomic(kernels, stream, 4, 1, 0)
    msg = race_message(stream)
    reader, writer = marked_line(SRC, "atomic-reader"), marked_line(SRC, "atomic-writer")
    assert f"sanitizer check 'gm-cross-core-race' failed at {reader}: " in msg, msg
    assert f"wrote atomically global memory" in msg and f"at {writer} and block 0 read it" in msg, msg
    assert "so that the read comes after every block's atomic update" in msg, msg


def test_read_of_atomic_writes_after_syncall_is_clean(kernels, stream):
    x_np, y = run_atomic(kernels, stream, 4, 1, 1)
    stream.synchronize()
    total = x_np.reshape(4, TILE).sum(axis=0)
    np.testing.assert_array_equal(y.numpy()[:TILE], total)
    np.testing.assert_array_equal(y.numpy()[4 * TILE:], total)


def test_strided_reads_record_only_their_bursts(kernels, stream):
    blocks = 4
    x_np = np.arange(4 * 8 * blocks, dtype=np.float32)
    x = pyasc.tensor(x_np, device="sim")
    pyasc_acl.launch(kernels.function("xrace_strided"), blocks, (x,), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(x.numpy(), x_np + 1)

