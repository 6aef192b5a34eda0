"""Hand-written GM flag polling between blocks (the idiom of memfabric_hybrid's zbal collectives:
ZBALSetFlag = scalar store + DataCacheCleanAndInvalid, ZBALWaitFlag = DataCacheCleanAndInvalid +
load until the value appears) is a release / acquire for gm-cross-core-race (kapi/gm_poll.h): our
kernels in that style run clean with checks on and match NumPy; a store never written back, a poll
that does not invalidate its line, a read before the wait and a write after the publication are
still reported. Kernels: backends/sim/kernel_api/tests/kernels/compat/gm_flag_poll_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_failing, launch_synced, load, marked_line, source_line

SRC = "compat/gm_flag_poll_idioms.cpp"
TILE = 64
FLAG_STRIDE = 8  # uint64 per flag: one 64-byte line


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def buffers(blocks: int, seed: int):
    x = np.random.default_rng(seed).standard_normal(blocks * TILE).astype(np.float32)
    work = pyasc.zeros((blocks * TILE,), dtype="float32", device="sim")
    y = pyasc.zeros((blocks * TILE,), dtype="float32", device="sim")
    flags = pyasc.zeros((blocks * FLAG_STRIDE,), dtype="int64", device="sim")
    return x, pyasc.tensor(x, device="sim"), work, y, flags


def test_the_source_is_built_with_raw_pointer_checks():
    path = pyasc_sim.compile(ASCENDC_DIR / SRC, opt="-O1")
    with open(path, "rb") as f:
        assert b"__tsan_read8" in f.read()  # the raw flag loads are seen


@pytest.mark.parametrize("kernel", ["flag_broadcast_raw", "flag_broadcast_setvalue"])
@pytest.mark.parametrize("blocks", [2, 5])
def test_broadcast_through_a_polled_flag_matches_numpy(binary, kernel, blocks):
    x, xd, work, y, flags = buffers(blocks, blocks)
    for val in (7, 8):  # a second call waits for the next value, as zbal's waitSymbol
        launch_synced(binary.function(kernel), blocks, (xd, work, y, flags, val))
        np.testing.assert_array_equal(y.numpy(), 2 * x)
        assert flags.numpy()[0] == val


@pytest.mark.parametrize("blocks", [2, 4])
def test_a_ring_of_published_flags_matches_numpy(binary, blocks):
    x, xd, work, y, flags = buffers(blocks, 10 + blocks)
    launch_synced(binary.function("flag_ring_raw"), blocks, (xd, work, y, flags, 5))
    tiles = (3 * x).reshape(blocks, TILE)
    np.testing.assert_allclose(y.numpy(), (tiles + np.roll(tiles, -1, axis=0)).ravel(), rtol=1e-6)
    np.testing.assert_array_equal(flags.numpy().reshape(blocks, FLAG_STRIDE)[:, 0], 5)


def race(binary, mode: int) -> str:
    x, xd, work, y, flags = buffers(2, 99)
    msg = launch_failing(binary.function("flag_broadcast_bad"), 2, (xd, work, y, flags, 3, mode))
    assert "sanitizer check 'gm-cross-core-race' failed at " in msg, msg
    assert "kernel flag_broadcast_bad block 1: " in msg, msg
    return msg


def test_a_flag_never_written_back_orders_nothing(binary):
    msg = race(binary, 0)
    # the data, or the flag word itself (a store no write-back published), read by block 1
    data = f"at {marked_line(SRC, 'bad-write')} and block 1 read it at {marked_line(SRC, 'bad-read')}"
    flag = f"and block 1 read it at {source_line(SRC, 'if (*flag == v) {')}"
    assert data in msg or flag in msg, msg
    assert "writes its line back with DataCacheCleanAndInvalid" in msg, msg


def test_a_poll_that_does_not_invalidate_the_line_orders_nothing(binary):
    msg = race(binary, 1)
    data = f"at {marked_line(SRC, 'bad-write')} and block 1 read it at {marked_line(SRC, 'bad-read')}"
    flag = f"and block 1 read it at {marked_line(SRC, 'cached-poll')}"
    assert data in msg or flag in msg, msg


def test_a_read_before_the_wait_is_a_race(binary):
    msg = race(binary, 2)
    assert f"at {marked_line(SRC, 'bad-write')} and block 1 read it at {marked_line(SRC, 'early-read')}" in msg, msg


def test_a_write_after_the_publication_is_a_race(binary):
    msg = race(binary, 3)
    assert f"at {marked_line(SRC, 'late-write')} and block 1 read it at {marked_line(SRC, 'bad-read')}" in msg, msg


@pytest.mark.parametrize("mode", [0, 1, 2], ids=["writer-stores", "reader-invalidates", "reader-polls"])
def test_past_the_flag_tables_limit_nothing_is_reported(binary, mode):
    """Eight more lines than the flag tables keep (kGmPollSlots) on the writer or the readers: the flag
    is still published and acquired (the oldest entry is released at once / every line counts as
    invalidated / the oldest last poll is dropped unrecorded), so the correct kernel runs clean."""
    blocks = 3
    x, xd, work, y, flags = buffers(blocks, 40 + mode)
    scratch = pyasc.zeros((blocks * 8 * FLAG_STRIDE,), dtype="int64", device="sim")
    launch_synced(binary.function("flag_past_the_slots"), blocks, (xd, work, y, flags, scratch, 11, mode))
    np.testing.assert_array_equal(y.numpy(), 2 * x)
    assert flags.numpy()[0] == 11
    if mode == 0:
        np.testing.assert_array_equal(scratch.numpy()[: 8 * FLAG_STRIDE: FLAG_STRIDE], 11 + np.arange(8))
