"""fork() and the simulated device, as PyTorch has it for CUDA: a child forked after the parent
opened the device gets a clear ForkedDeviceError (naming the parent's pid and the fix) at the
first use, never a hang; tensors it inherited say they are unusable; a child that never touches
the device exits cleanly; a child forked before any device was opened may open its own. Every
case runs in a child process (outside the checkout, so it imports the installed build) with a
timeout, since the failure being guarded against is a hang."""

from __future__ import annotations

import json
import subprocess
import sys

CHILD = r"""
import json, multiprocessing as mp, os, sys
import numpy as np
import pyasc

def forked(body):
    # runs body() in an os.fork() child that then exits through the normal interpreter exit
    # (atexit handlers, finalizers): returns (what body returned, the child's exit status)
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            out = body()
        except Exception as exc:  # a grandchild's SystemExit passes through to its module level
            out = {"crashed": f"{type(exc).__name__}: {exc}"}
        os.write(w, json.dumps(out).encode())
        os.close(w)
        sys.exit(0)
    os.close(w)
    data = b""
    while chunk := os.read(r, 65536):
        data += chunk
    _, status = os.waitpid(pid, 0)
    return json.loads(data), os.waitstatus_to_exitcode(status)

def attempt(fn):
    try:
        fn()
        return "no error"
    except pyasc.PyascError as exc:
        return f"{type(exc).__name__}: {exc}"
    except BaseException as exc:
        return f"not a PyascError: {type(exc).__name__}: {exc}"

result = {"parent": os.getpid()}

# 1. forked before the device was opened: the child may open its own
def fresh():
    t = pyasc.tensor(np.arange(4, dtype=np.float32), device="sim")
    return (t + t).numpy().tolist()
result["before"] = forked(fresh)

# 2. the parent opens the device; children forked from now on cannot use it
t = pyasc.tensor(np.arange(4, dtype=np.float32), device="sim")
s = pyasc.Stream("sim")
ev = s.record_event()
pyasc.synchronize("sim")

def inherited():
    return {
        "numpy": attempt(t.numpy),
        "repr": attempt(lambda: repr(t)),
        "op": attempt(lambda: t + t),
        "new tensor": attempt(lambda: pyasc.zeros(4, device="sim")),
        "stream.synchronize": attempt(s.synchronize),
        "event.synchronize": attempt(ev.synchronize),
        "new stream": attempt(lambda: pyasc.Stream("sim")),
        "device synchronize": attempt(lambda: pyasc.synchronize("sim")),
        "numpy backend": attempt(lambda: pyasc.ones(2, device="numpy").numpy()),
        "grandchild": forked(lambda: attempt(t.numpy)),
    }
result["after"] = forked(inherited)
result["untouched"] = forked(lambda: "nothing")  # exits through atexit without touching the device

# 3. multiprocessing with the 'fork' start method
def use_device():
    return pyasc.ones(2, device="sim").numpy().tolist()

def no_device():
    return 42

ctx = mp.get_context("fork")
with ctx.Pool(1) as pool:
    result["pool"] = attempt(lambda: pool.apply(use_device))
    result["pool no device"] = pool.apply(no_device)
p = ctx.Process(target=no_device)
p.start()
p.join(60)
result["process exitcode"] = p.exitcode
result["parent still works"] = (t + t).numpy().tolist()
print(json.dumps(result))
"""


def test_fork_after_the_device_was_opened_is_a_clear_error(tmp_path):
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=180,
                          cwd=tmp_path)  # not the checkout
    assert done.returncode == 0, done.stderr
    r = json.loads(done.stdout.strip().splitlines()[-1])
    parent = r["parent"]
    fix = (f"ForkedDeviceError: cannot use the sim device in a forked child: it was initialised in process "
           f"{parent} before fork(); use multiprocessing's 'spawn' or 'forkserver' start method, or "
           "initialise the device in the child only")
    assert r["before"] == [[0.0, 2.0, 4.0, 6.0], 0]
    after, status = r["after"]
    assert status == 0
    grandchild, grandchild_status = after.pop("grandchild")
    assert grandchild_status == 0 and grandchild.startswith(fix)
    assert after.pop("numpy backend") == "no error"  # other backends are unaffected
    for what, got in after.items():
        assert got.startswith(fix), (what, got)
    assert r["untouched"] == ["nothing", 0]
    assert r["pool"].startswith(fix)
    assert r["pool no device"] == 42
    assert r["process exitcode"] == 0
    assert r["parent still works"] == [0.0, 2.0, 4.0, 6.0]
