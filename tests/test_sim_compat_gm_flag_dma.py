"""GM flags published by DMA (a DataCopy of a 32-byte UB flag block, or a DataCopyPad of one word, to
GM, as SHMEM-style and MC2 kernels do) and polled by other blocks through the data cache
(DataCacheCleanAndInvalid + GetValue until the value appears) order what the writer's copies put in GM
before the flag's copy started -- after PipeBarrier<PIPE_MTE3>, PipeBarrier<PIPE_ALL> or an MTE3_S
SetFlag / WaitFlag -- before what the pollers do next (gm-cross-core-race, kapi/gm_poll.h): our kernels
in that style run clean with checks on and match NumPy; without the fence, or with data copied after
it, the race is reported. Kernels: backends/sim/kernel_api/tests/kernels/compat/gm_flag_dma_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from ascendc_kernels import launch_failing, launch_synced, load, marked_line

SRC = "compat/gm_flag_dma_idioms.cpp"
TILE = 64
FLAG_WORDS = 8  # int32 per flag block (32 bytes)


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def buffers(blocks: int, seed: int, flags_first: bool = False):
    x = np.random.default_rng(seed).standard_normal(blocks * TILE).astype(np.float32)
    if flags_first:  # the flag words below the data (the order the race check sweeps addresses in)
        flags = pyasc.zeros((FLAG_WORDS,), dtype="int32", device="sim")
    work = pyasc.zeros((blocks * TILE,), dtype="float32", device="sim")
    y = pyasc.zeros((blocks * TILE,), dtype="float32", device="sim")
    if not flags_first:
        flags = pyasc.zeros((FLAG_WORDS,), dtype="int32", device="sim")
    return x, pyasc.tensor(x, device="sim"), work, y, flags


@pytest.mark.parametrize("mode", [0, 1, 2], ids=["barrier-mte3", "mte3-s-flag", "barrier-all"])
@pytest.mark.parametrize("pad,word", [(0, 0), (0, 5), (1, 2)], ids=["block", "block-word5", "pad-word"])
@pytest.mark.parametrize("blocks", [2, 5])
def test_a_dma_published_flag_orders_the_fenced_data(binary, mode, pad, word, blocks):
    x, xd, work, y, flags = buffers(blocks, 10 * mode + blocks)
    for val in (7, 9):  # a second launch waits for the next value
        launch_synced(binary.function("dma_flag_broadcast"), blocks, (xd, work, y, flags, val, mode, pad, word))
        np.testing.assert_array_equal(y.numpy(), 2 * x)
        assert flags.numpy()[word] == val


def race(binary, mode: int) -> str:
    x, xd, work, y, flags = buffers(2, 99)
    msg = launch_failing(binary.function("dma_flag_broadcast"), 2, (xd, work, y, flags, 3, mode, 0, 0))
    assert "sanitizer check 'gm-cross-core-race' failed at " in msg, msg
    assert "kernel dma_flag_broadcast block 1: " in msg, msg
    return msg


def test_a_dma_flag_without_the_fence_does_not_publish_the_data(binary):
    msg = race(binary, 3)
    # the flag publishes what the core did before its first DMA copy to GM since the last fence (the
    # block's start): not the data copied right before it
    assert f"at {marked_line(SRC, 'unfenced')} and block 1 read it at {marked_line(SRC, 'poller-read')}" in msg, msg


def test_data_copied_after_the_fence_is_not_published_by_the_flag(binary):
    msg = race(binary, 4)
    assert f"at {marked_line(SRC, 'after-fence')} and block 1 read it at {marked_line(SRC, 'poller-read')}" in msg, msg


@pytest.mark.parametrize("mode", [1, 2], ids=["mte3-s-flag", "barrier-all"])
@pytest.mark.parametrize("blocks,word", [(2, 0), (5, 3)])
def test_a_scalar_flag_after_a_fence_holding_the_scalar_unit_orders_the_dma_data(binary, mode, blocks, word):
    x, xd, work, y, flags = buffers(blocks, 20 * mode + blocks)
    for val in (7, 9):
        launch_synced(binary.function("dma_data_scalar_flag"), blocks, (xd, work, y, flags, val, mode, word))
        np.testing.assert_array_equal(y.numpy(), 2 * x)
        assert flags.numpy()[word] == val


@pytest.mark.parametrize("flags_first", [False, True], ids=["flags-after-data", "flags-before-data"])
@pytest.mark.parametrize("mode", [0, 3], ids=["barrier-mte3", "no-fence"])
def test_a_scalar_flag_does_not_publish_dma_data_still_in_flight(binary, mode, flags_first):
    # a scalar flag store's write-back orders the scalar unit's work: data copied by DMA before it is published
    # only once a fence held the scalar unit until the copy landed (MTE3_S, PIPE_ALL); PipeBarrier<PIPE_MTE3>
    # orders the MTE3 pipe only
    x, xd, work, y, flags = buffers(2, 77 + mode, flags_first)
    if flags_first:
        assert flags._data.ptr < work._data.ptr, (flags._data.ptr, work._data.ptr)
    msg = launch_failing(binary.function("dma_data_scalar_flag"), 2, (xd, work, y, flags, 3, mode, 0))
    assert "sanitizer check 'gm-cross-core-race' failed at " in msg, msg
    assert "kernel dma_data_scalar_flag block 1: " in msg, msg
    # the data copied before the unfenced flag races with the poller's read of it; the flag word does not:
    # the release goes back to before the DMA write and takes the flag's own store with it (the poller's
    # read of the value stored is the synchronisation), wherever the buffers lie
    assert (f"at {marked_line(SRC, 'scalar-flag-unfenced')} and block 1 read it at "
            f"{marked_line(SRC, 'scalar-flag-poller-read')}") in msg, msg
    assert f"{marked_line(SRC, 'scalar-flag-store')}" not in msg, msg
