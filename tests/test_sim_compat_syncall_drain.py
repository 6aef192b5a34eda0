"""A hard SyncAll drains the calling core's pipes before the meeting (the A2 implementation of SyncAll starts with
PipeBarrier<PIPE_ALL>): a UB buffer an MTE3 copy read before the SyncAll may be rewritten by a vector instruction
right after it, as memfabric_hybrid's zbal dispatch_layout does (backends/sim/kernel_api/COMPAT.md, "Round 20
(s20g)"). Without the SyncAll the same code is a real write-after-read race and `pipe-race` still reports it. Our
own kernel (kernels/compat/syncall_drain_idioms.cpp), compared with NumPy bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "syncall_drain_idioms.cpp"
TILE = 64

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def _run(binary, blocks, meet, x):
    work = pyasc.full((blocks * TILE,), -7.0, dtype="float32", device="sim")
    y = pyasc.full((blocks * TILE,), -1.0, dtype="float32", device="sim")
    xd = pyasc.tensor(np.ascontiguousarray(x), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("drain_then_reuse"), blocks, (xd, work, y, np.uint32(meet)))
    pyasc.synchronize("sim")
    return y.numpy().reshape(blocks, TILE)


@pytest.mark.parametrize("blocks", [1, 3, 8])
def test_a_buffer_is_reused_right_after_syncall(binary, blocks):
    rng = np.random.default_rng(blocks)
    x = rng.integers(-100, 101, (blocks, TILE)).astype(np.float32)
    got = _run(binary, blocks, 1, x)
    np.testing.assert_array_equal(got, 1 + 2 * np.roll(x, -1, axis=0))


def test_without_syncall_the_reuse_is_a_pipe_race(binary):
    x = np.ones((1, TILE), np.float32)
    with pytest.raises(pyasc.PyascError, match=r"pipe-race.*write-after-read.*MTE3_V"):
        _run(binary, 1, 0, x)
