"""The simulated device process runs with the scheduling policy of the host's main thread, not with
the SCHED_BATCH of the stream worker that spawns it (runtime/device_process.cpp). Under SCHED_BATCH
a pool thread woken for a launch's blocks never preempts a running thread, so on a 2-core machine
it waited for the host's queueing thread to end its slice and a launch's blocks ran mostly on one
device thread (a 16M float32 sum: 74-80% of its block time on the server thread, 56-62% after)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and sched_* are Linux's")

CHILD = r"""
import json, os, sys
import numpy as np
# the host's main thread: SCHED_OTHER (a normal process), or SCHED_BATCH (a user running the host
# itself so): the device follows it either way
try:
    os.sched_setscheduler(0, os.SCHED_BATCH if sys.argv[1] == "batch" else os.SCHED_OTHER, os.sched_param(0))
except PermissionError:  # e.g. a runner under SCHED_IDLE may not leave it
    print(json.dumps({"skip": "cannot set the main thread's scheduling policy"}))
    sys.exit(0)
import pyasc

def policy(pid, tid):
    return int(open(f"/proc/{pid}/task/{tid}/stat").read().rsplit(")", 1)[1].split()[38])

a = pyasc.tensor(np.arange(16, dtype=np.float32), device="sim")
out = pyasc.add(a, a)
pyasc.synchronize("sim")
me = os.getpid()
devices = []
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            stat = open(f"/proc/{pid}/stat").read()
            cmdline = open(f"/proc/{pid}/cmdline", "rb").read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == me and b"pyasc-sim-device" in cmdline:
            devices.append(pid)
host = {policy(me, t) for t in os.listdir(f"/proc/{me}/task")}
print(json.dumps({"main": os.sched_getscheduler(0), "host": sorted(host), "devices": len(devices),
                  "device": sorted({policy(p, t) for p in devices for t in os.listdir(f"/proc/{p}/task")}),
                  "ok": bool(np.array_equal(out.numpy(), 2 * np.arange(16, dtype=np.float32)))}))
"""


@pytest.mark.parametrize("mode", ["normal", "batch"])
def test_device_threads_take_the_host_main_threads_policy(mode, tmp_path):
    done = subprocess.run([sys.executable, "-c", CHILD, mode], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path, env=dict(os.environ))
    assert done.returncode == 0, done.stderr[-3000:]
    r = json.loads(done.stdout.strip().splitlines()[-1])
    if "skip" in r:
        pytest.skip(r["skip"])
    assert r["ok"] and r["devices"] == 1, r
    want = os.SCHED_BATCH if mode == "batch" else os.SCHED_OTHER
    assert r["main"] == want, r
    assert os.SCHED_BATCH in r["host"], r  # the stream worker (the spawning thread) is SCHED_BATCH
    assert r["device"] == [want], r  # every device thread: the main thread's policy
