"""The end of a multi-block launch without sleeping hand-offs (round 23, issue 13): once the device's
last blocks run (a pool thread found no block left to start), the device tells the host's waiting
stream worker, which wakes the stream's synchronize waiters; both then poll for the reply for a
short adaptive budget instead of sleeping until it (each sleeping hand-off costs a futex wake-up
after the last block). What is observable: a synchronize waiting through a launch with a long tail is
woken when the tail begins (it runs again inside the tail, then, its short poll run out, sleeps until
the end), and every launch still finishes, in order,
with its result."""

from __future__ import annotations

import os
import struct
import threading

import numpy as np
import pytest

from pyasc_acl import _acl

from acl_fixtures import kernel_binary, sim_library

pytestmark = pytest.mark.skipif((os.cpu_count() or 1) < 2,
                                reason="the device pool needs two threads for a block to outlast another")


def _runs(tid: int) -> int:
    """How many times thread ``tid`` of this process was put on a CPU so far (schedstat)."""
    with open(f"/proc/self/task/{tid}/schedstat") as f:
        return int(f.read().split()[2])


@pytest.fixture
def dev():
    d = _acl.Device(sim_library(), 0, "launchtail:0")
    yield d
    d.synchronize()


def test_synchronize_is_woken_when_the_launchs_tail_begins(dev):
    fn = dev.load_binary(kernel_binary()).function("tail_sleep")
    s = dev.create_stream()
    for _ in range(2):  # warm: the device process, the binary loaded
        dev.launch(fn, 2, struct.pack("<QQ", 1000, 2000), s, [])
        s.synchronize()
    me = threading.get_native_id()
    woken = []
    for _ in range(5):
        # block 0 ends after 8 ms, block 1 after 70 ms: a tail of 62 ms, far past every poll budget (0.2 ms)
        runs = {}
        early = threading.Timer(0.003, lambda: runs.setdefault("before", _runs(me)))
        late = threading.Timer(0.035, lambda: runs.setdefault("mid", _runs(me)))
        dev.launch(fn, 2, struct.pack("<QQ", 8000, 70000), s, [])
        early.start()
        late.start()
        # synchronize polls briefly, then sleeps: from 3 ms (after its first poll) to 35 ms (inside the
        # tail, before the binding's 50 ms wait slice) it runs again only if woken when the tail began
        s.synchronize()
        early.join()
        late.join()
        woken.append(runs["mid"] - runs["before"])
    assert sum(w >= 1 for w in woken) >= 3, f"a synchronize through a launch's long tail was not woken when the " \
                                            f"tail began (its thread's runs from 3 to 35 ms into the launch: {woken})"


def test_back_to_back_tail_launches_finish_in_order(dev):
    """Many launches with tails, queued back to back and synchronized now and then: each one's
    blocks write, the replies and the synchronize waits never lose one."""
    fn = dev.load_binary(kernel_binary()).function("sleep_write")
    tail = dev.load_binary(kernel_binary()).function("tail_sleep")
    s = dev.create_stream()
    out = dev.malloc(4 * 4)
    host = np.zeros(4, np.uint32)
    for i in range(1, 41):
        dev.launch(tail, 3, struct.pack("<QQ", 0, 300 if i % 3 else 0), s, [])
        dev.launch(fn, 4, struct.pack("<QQQ", out.ptr, i, 0), s, [])
        if i % 4 == 0:
            s.synchronize()
            dev.memcpy(host.ctypes.data, 16, out.ptr, 16, _acl.ACL_MEMCPY_DEVICE_TO_HOST)
            assert (host == i).all()
    s.synchronize()
    dev.memcpy(host.ctypes.data, 16, out.ptr, 16, _acl.ACL_MEMCPY_DEVICE_TO_HOST)
    assert (host == 40).all()
