"""A GM flag poll -- a DataCopy (GM -> UB) of other blocks' 32-byte status blocks in a loop until their
words add up to the target, as MoE dispatch / combine kernels wait for their peers; or a scalar
DataCacheCleanAndInvalid + GetValue loop -- with more blocks than the host has threads: the pollers
(the low block numbers, so they start first) give up their threads until what they read changes
(kapi/gm_poll_yield.h, kernel ABI v7 poll_wait), so the producers run and the launch finishes; a poll
nothing can ever satisfy is reported as 'cross-core-deadlock'. The DMA poll that sees a status block a
producer published after a fence acquires it (gm-cross-core-race, kapi/gm_poll.h): the handshake runs
clean with checks on, while consumers that read without waiting, or producers that publish before their
data, are still reported. Kernels: backends/sim/kernel_api/tests/kernels/compat/gm_dma_poll_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import launch_failing, launch_synced, load, marked_line

SRC = "compat/gm_dma_poll_idioms.cpp"
TILE = 64
STATUS_STRIDE = 16  # floats between two producers' status blocks
DEFAULT_OP_TIMEOUT = 547  # runtime.h kDefaultOpTimeoutSeconds


@pytest.fixture(scope="module")
def binary():
    # a regression (a poll that never yields) must fail the test, not hang it: the device's op timeout
    pyasc_acl.set_op_execute_timeout(120)
    yield load(SRC)
    pyasc_acl.set_op_execute_timeout(DEFAULT_OP_TIMEOUT)


def buffers(consumers: int, producers: int, seed: int, flag_words: int = STATUS_STRIDE, flag_dtype="float32"):
    x = np.random.default_rng(seed).standard_normal(producers * TILE).astype(np.float32)
    work = pyasc.zeros((producers * TILE,), dtype="float32", device="sim")
    flags = pyasc.zeros((producers * flag_words,), dtype=flag_dtype, device="sim")
    y = pyasc.zeros((consumers * TILE,), dtype="float32", device="sim")
    return x, pyasc.tensor(x, device="sim"), work, flags, y


def want(x: np.ndarray, consumers: int, producers: int) -> np.ndarray:
    return np.concatenate([2 * x[(c % producers) * TILE:(c % producers + 1) * TILE] for c in range(consumers)])


# one consumer: the poll is an acquire (checks on); consumers > host threads (a 2-core host runs 2, CI hosts
# more): every consumer polls before any producer runs, and must yield
@pytest.mark.parametrize("checks", ["1", "0"], ids=["checks-on", "checks-off"])
@pytest.mark.parametrize("consumers,producers", [(1, 2), (6, 2), (40, 8)])
def test_a_dma_poll_yields_to_the_producers_and_acquires_their_data(binary, monkeypatch, checks, consumers,
                                                                     producers):
    monkeypatch.setenv("PYASC_SIM_CHECKS", checks)
    x, xd, work, status, y = buffers(consumers, producers, consumers)
    for val in (1.0, 2.0):  # the second launch polls past the first one's status words
        launch_synced(binary.function("dma_poll_handshake"), consumers + producers,
                      (xd, work, status, y, producers, val, 0))
        np.testing.assert_array_equal(y.numpy(), want(x, consumers, producers))
        assert (status.numpy().reshape(producers, STATUS_STRIDE)[:, :8] == val).all()


@pytest.mark.parametrize("checks", ["1", "0"], ids=["checks-on", "checks-off"])
def test_a_scalar_poll_yields_to_the_producers(binary, monkeypatch, checks):
    monkeypatch.setenv("PYASC_SIM_CHECKS", checks)
    consumers, producers = 12, 3
    x, xd, work, flags, y = buffers(consumers, producers, 5, flag_dtype="int32")
    for val in (7, 9):
        launch_synced(binary.function("scalar_poll_handshake"), consumers + producers,
                      (xd, work, flags, y, producers, val))
        np.testing.assert_array_equal(y.numpy(), want(x, consumers, producers))


@pytest.mark.parametrize("mode,writer,reader", [(1, "producer-write", "consumer-read"),
                                                (2, "producer-write", "consumer-read")],
                         ids=["consumer-does-not-wait", "status-before-data"])
def test_a_read_the_poll_does_not_order_is_still_reported(binary, mode, writer, reader):
    consumers, producers = 3, 2
    x, xd, work, status, y = buffers(consumers, producers, 40 + mode)
    msg = launch_failing(binary.function("dma_poll_handshake"), consumers + producers,
                         (xd, work, status, y, producers, 1.0, mode))
    assert "sanitizer check 'gm-cross-core-race' failed at " in msg, msg
    assert f"at {marked_line(SRC, writer)} and block " in msg, msg
    assert f"read it at {marked_line(SRC, reader)}" in msg, msg


@pytest.mark.parametrize("checks", ["1", "0"], ids=["checks-on", "checks-off"])
def test_a_poll_nothing_can_satisfy_is_a_hang(binary, monkeypatch, checks):
    monkeypatch.setenv("PYASC_SIM_CHECKS", checks)
    consumers, producers = 4, 2
    x, xd, work, status, y = buffers(consumers, producers, 3)
    msg = launch_failing(binary.function("dma_poll_handshake"), consumers + producers,
                         (xd, work, status, y, producers, 1.0, 3))
    assert "kernel dma_poll_handshake block 0: " in msg, msg
    assert "'cross-core-deadlock'" in msg and marked_line(SRC, "status-poll") in msg, msg
    assert "polls global memory (2 row(s) of 32 bytes" in msg, msg
