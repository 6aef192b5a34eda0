"""A launch on an idle sim stream goes to the device process from the calling thread (round 24,
issue 13's "add-16 + synchronize <= 20 us"): the stream worker does not run for a launch + synchronize
pair, and the stream's semantics hold for such a launch: work queued behind it runs after it, its
failure is sticky and reported once, aclrtStreamQuery sees it finish (also a crash, which the worker
notices), a synchronize outlasting its spin waits for it, an event recorded behind it sees it
(aclrtSynchronizeStreamWithTimeout on such a launch: backends/sim/tests/test_runtime.cpp)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pyasc_core.registry import REGISTRY

pytestmark = pytest.mark.skipif(not REGISTRY.availability("sim")[0], reason="the sim backend is not available")

WORKER_CHILD = r"""
import json, os, threading
import numpy as np
import pyasc

def runs():  # scheduler runs of every host thread (schedstat's third field), by thread id
    out = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            out[int(tid)] = int(open(f"/proc/self/task/{tid}/schedstat").read().split()[2])
        except OSError:
            pass
    return out

a = pyasc.tensor(np.arange(16, dtype=np.float32), device="sim")
b = pyasc.tensor(np.ones(16, dtype=np.float32), device="sim")
for _ in range(100):  # warm: kernels loaded, the default stream made, spin budgets grown
    pyasc.add(a, b)
    pyasc.synchronize("sim")
n = 300
before = runs()
for _ in range(n):
    out = pyasc.add(a, b)
    pyasc.synchronize("sim")
after = runs()
me = threading.get_native_id()
others = sum(v - before.get(t, 0) for t, v in after.items() if t != me)
print(json.dumps({"n": n, "others": others, "ok": out.numpy().tolist() == (np.arange(16) + 1.0).tolist()}))
"""


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("PYASC_SIM_SPIN_US", "PYASC_SIM_DIRECT_LAUNCH")}
    env.update(extra)
    return env


def _child(tmp_path, code, *args, **env):
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path, env=_env(**env))  # outside the checkout: the installed build
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_launch_and_synchronize_on_an_idle_stream_do_not_run_the_stream_worker(tmp_path):
    """300 add + synchronize pairs: the host's other threads (the stream worker) are scheduled far
    less than once per pair (queued through the worker, each launch runs it at least once: base
    610a2f1 ~2 runs per pair); the same child with PYASC_SIM_DIRECT_LAUNCH=0 runs them every time."""
    r = _child(tmp_path, WORKER_CHILD)
    assert r["ok"], r
    assert r["others"] < r["n"] // 3, r
    queued = _child(tmp_path, WORKER_CHILD, PYASC_SIM_DIRECT_LAUNCH="0")
    assert queued["ok"], queued
    assert queued["others"] >= queued["n"], queued


SEMANTICS_CHILD = r"""
import json, sys, time
import numpy as np
import pyasc, pyasc_acl

binary = pyasc_acl.Binary(sys.argv[1], device="sim")
fill, add, crash, fail = (binary.function(n) for n in ("slow_fill", "add_scalar_i32", "crash_null", "fail_block1"))
n = 64
src = pyasc.tensor(np.arange(n, dtype=np.int32), device="sim")
out = pyasc.zeros(n, dtype="int32", device="sim")
flag = pyasc.zeros(8, dtype="int32", device="sim")
stream = pyasc.current_stream("sim")
stream.synchronize()
r = {}

def err(fn):
    try:
        fn()
        return None
    except pyasc.PyascError as exc:
        return getattr(exc, "message", str(exc))

def poll(limit=60.0):
    t0 = time.monotonic()
    while not stream.query():
        if time.monotonic() - t0 > limit:
            return False
        time.sleep(0.002)
    return True

# 1. posted on the idle stream, the launches behind it queue and run after it (the last one wins)
pyasc_acl.launch(fill, 1, (flag, 4, 1, 200000), stream=stream)
r["busy"] = not stream.query()
for k in range(1, 6):
    pyasc_acl.launch(add, 1, (src, out, n, k), stream=stream)
stream.synchronize()
r["out"] = out.numpy().tolist()
r["flag"] = flag.numpy().tolist()[0]

# 2. a failing launch on the idle stream: seen finished by query alone, reported once by synchronize
pyasc_acl.launch(fail, 2, (), stream=stream)
r["fail_done"] = poll()
r["fail_first"] = err(stream.synchronize)
r["fail_second"] = err(stream.synchronize)

# 3. a crash on the idle stream, nobody synchronizing: query hands it to the worker, which notices it
pyasc_acl.launch(crash, 2, (), stream=stream)
r["crash_done"] = poll()
r["crash_first"] = err(stream.synchronize)
pyasc_acl.launch(add, 1, (src, out, n, 7), stream=stream)  # the device process restarted
stream.synchronize()
r["after_crash"] = out.numpy().tolist()

# 4. a synchronize waits for a posted launch that outlasts its spin (the worker finishes it)
pyasc_acl.launch(fill, 1, (flag, 4, 2, 400000), stream=stream)
t0 = time.monotonic()
stream.synchronize()
r["waited"] = time.monotonic() - t0
r["flag2"] = flag.numpy().tolist()[0]

# 5. an event recorded behind a posted launch completes after it
pyasc_acl.launch(fill, 1, (flag, 4, 3, 100000), stream=stream)
ev = stream.record_event()
ev.synchronize()
r["event_flag"] = flag.numpy().tolist()[0]
stream.synchronize()
print(json.dumps(r))
"""


def test_a_posted_launch_keeps_the_streams_semantics(tmp_path):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from acl_fixtures import kernel_binary

    r = _child(tmp_path, SEMANTICS_CHILD, kernel_binary())
    assert r["busy"], r                                      # the slow launch was still running
    assert r["out"] == [i + 5 for i in range(64)], r         # queued behind it, in order
    assert r["flag"] == 0x01010101, r
    assert r["fail_done"] and r["fail_second"] is None, r
    assert r["fail_first"] is not None and "fail_block1 block 1: injected failure" in r["fail_first"], r
    assert r["crash_done"], r
    assert r["crash_first"] is not None and "crash_null block 1: SIGSEGV" in r["crash_first"], r
    assert r["after_crash"] == [i + 7 for i in range(64)], r
    assert r["flag2"] == 0x02020202 and r["waited"] >= 0.3, r
    assert r["event_flag"] == 0x03030303, r


FIRST_LAUNCH_CHILD = r"""
import json
import numpy as np
import pyasc

# The first launch of the process: the device process is not running yet, so the caller's post is
# refused after the launch was prepared and the launch is queued (the worker spawns the process).
a = pyasc.tensor(np.arange(16, dtype=np.float32), device="sim")
b = pyasc.tensor(np.full(16, 2.0, dtype=np.float32), device="sim")
first = pyasc.add(a, b)
pyasc.synchronize("sim")
second = pyasc.add(first, b)  # posted directly now
pyasc.synchronize("sim")
print(json.dumps({"first": first.numpy().tolist(), "second": second.numpy().tolist()}))
"""


def test_a_launch_queued_after_its_post_was_refused_keeps_its_arguments(tmp_path):
    # round 25: the post moves the captured host arguments into its request and gives them back to
    # the launch when the post is refused; the queued launch must run with them
    out = _child(tmp_path, FIRST_LAUNCH_CHILD)
    assert out["first"] == [i + 2.0 for i in range(16)]
    assert out["second"] == [i + 4.0 for i in range(16)]
