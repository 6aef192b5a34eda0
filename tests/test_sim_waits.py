"""Blocking waits of the ACL backends, on the simulator.

Ctrl-C: every blocking wait of the binding (Stream/Event/device synchronize, a blocking copy to
the host, a stream waiting on an event) waits in slices with the GIL released and checks for
signals between them, so SIGINT raises KeyboardInterrupt and leaves the queued work alone. Each
case runs in a child process (started outside the checkout, so it imports the installed build)
whose wait is stuck behind a kernel that spins until a device flag is set; the subprocess
timeout turns a wait that cannot be interrupted into a failure instead of a hang.

Sticky errors: a kernel failure is seen by Event.synchronize(), Event.query() and by the streams
that wait on an event recorded after it, not only by the failing stream's synchronize.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import pyasc
import pyasc_acl

from acl_fixtures import kernel_binary
from ascendc_kernels import load

# One child, several waits: each is stuck behind wait_flag until the parent's SIGINT; the child
# checks that the work is still queued, opens the flag and finishes the stream.
CTRL_C_CHILD = r"""
import faulthandler, signal, sys
faulthandler.register(signal.SIGUSR1, all_threads=True)  # the watchdog asks where a stuck child waits
# Ctrl-C as an interactive Python has it: a shell that started the test run in the background (a CI job
# under nohup / `&` without job control) hands its children SIGINT ignored, and Python then installs no
# KeyboardInterrupt handler -- that would test the shell, not pyasc's waits
signal.signal(signal.SIGINT, signal.default_int_handler)
import numpy as np
import pyasc, pyasc_acl
from pyasc_acl import _acl

binary = pyasc_acl.Binary(sys.argv[1], device="sim")
wait_flag = binary.function("wait_flag")
raw = binary.backend.raw_device(binary.device)
assert raw.library.has_timed_waits
flag = raw.malloc(4)
s = pyasc.Stream("sim")
t = pyasc.full((1024,), 3.0, dtype="float32", device="sim")
pyasc.synchronize("sim")

def waiting_stream():
    other = pyasc.Stream("sim")
    other.wait_event(s.record_event())
    other.synchronize()

def copy_to_host():
    with pyasc.stream(s):
        return t.numpy()  # a blocking copy into pageable memory, queued behind the kernel

WAITS = {
    "stream": lambda: s.synchronize(),
    "stream after a failure": lambda: s.synchronize(),
    "event": lambda: s.record_event().synchronize(),
    "device": lambda: pyasc.synchronize("sim"),
    "copy to host": copy_to_host,
    "waiting stream": waiting_stream,
}

for name in sys.argv[2:]:
    raw.memset(flag.ptr, 4, 0, 4)
    if name == "stream after a failure":
        pyasc_acl.launch(binary.function("fail_block1"), 2, stream=s)
    pyasc_acl.launch(wait_flag, 1, (flag.ptr,), stream=s)
    try:
        print("waiting", name, flush=True)
        WAITS[name]()
        print("returned", name, flush=True)
    except KeyboardInterrupt:
        still_queued = not s.query()
        raw.memcpy(flag.ptr, 4, np.ones(1, np.uint32).ctypes.data, 4, _acl.ACL_MEMCPY_HOST_TO_DEVICE)
        error = ""
        try:
            s.synchronize()  # the interrupted waits left a sticky error for this one
        except pyasc_acl.AclKernelError as exc:
            error = ", error kept" if "block 1: injected failure" in str(exc) else f", other error {exc}"
        print("caught KeyboardInterrupt", name, ("still queued" if still_queued else "NOT queued") + error, flush=True)
np.testing.assert_array_equal(t.numpy(), 3.0)  # the device works after the interrupts
print("done", flush=True)
"""

WAIT_KINDS = ["stream", "event", "device", "copy to host", "waiting stream", "stream after a failure"]


def test_ctrl_c_interrupts_every_blocking_wait(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", CTRL_C_CHILD, kernel_binary(), *WAIT_KINDS],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path)  # not the checkout
    # a wait that ignores SIGINT hangs: the watchdog kills the child, and the lines read say which
    # (its threads' Python stacks, dumped on SIGUSR1 first, say where it waited)
    def stop_child() -> None:
        proc.send_signal(signal.SIGUSR1)
        time.sleep(2)
        proc.kill()

    watchdog = threading.Timer(120, stop_child)
    watchdog.start()
    lines = []
    try:
        for name in WAIT_KINDS:
            line = proc.stdout.readline().strip()
            assert line == f"waiting {name}", (line, proc.stderr.read() if not line else "")
            time.sleep(0.3)  # let the child enter the wait (not a timing assertion)
            proc.send_signal(signal.SIGINT)
            lines.append(proc.stdout.readline().strip())
        out, err = proc.communicate(timeout=60)
    finally:
        watchdog.cancel()
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    expected = [f"caught KeyboardInterrupt {name} still queued" for name in WAIT_KINDS]
    expected[-1] += ", error kept"  # an interrupted wait does not consume the kernel failure
    assert lines == expected, err
    assert out.strip().splitlines()[-1] == "done"


# ---- sticky errors seen through events ----------------------------------------------------------

BLOCKS, CHUNK = 3, 64


def _failing_launch(stream: pyasc.Stream) -> None:
    """A launch whose block 1 fails the sanitizer's gm-out-of-bounds check (sanitizer.cpp)."""
    kernels = load("sanitizer.cpp")
    x = pyasc.tensor(np.arange(BLOCKS * CHUNK, dtype=np.float32), device="sim")
    z = pyasc.zeros(BLOCKS * CHUNK, dtype="float32", device="sim")
    stream.wait_stream(pyasc.current_stream("sim"))  # x and z were filled there
    pyasc_acl.launch(kernels.function("read_past_size"), BLOCKS, (x, z, 1), stream=stream)


def _is_the_failure(err: pyasc_acl.AclKernelError) -> bool:
    return (isinstance(err, pyasc.PyascError) and err.code == 507015
            and "kernel read_past_size block 1: sanitizer check 'gm-out-of-bounds' failed" in err.message)


def test_kernel_failure_reaches_event_synchronize_query_and_waiting_streams():
    s, consumer = pyasc.Stream("sim"), pyasc.Stream("sim")
    _failing_launch(s)
    ev = s.record_event()
    consumer.wait_event(ev)
    for _ in range(2):  # the event tells it every time: it is a fact about that record
        with pytest.raises(pyasc_acl.AclKernelError) as info:
            ev.synchronize()
        assert _is_the_failure(info.value), info.value
        assert "a task before the event's record failed" in info.value.message
        with pytest.raises(pyasc_acl.AclKernelError) as info:
            ev.query()
        assert _is_the_failure(info.value), info.value
    # each stream reports it once: the one that failed, and the one that waited on the event
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        consumer.synchronize()
    assert _is_the_failure(info.value) and "waited on an event recorded after a failed task" in info.value.message
    consumer.synchronize()
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        s.synchronize()
    assert _is_the_failure(info.value) and "waited on an event" not in info.value.message
    s.synchronize()
    # recorded again after the stream reported it: a clean record, and work on both streams runs
    ev.record(s)
    ev.synchronize()
    assert ev.query() is True
    consumer.wait_event(ev)
    with pyasc.stream(consumer):
        np.testing.assert_array_equal((pyasc.ones(4, device="sim") * 2).numpy(), 2.0)
    consumer.synchronize()


def test_event_recorded_before_the_failure_stays_clean():
    s = pyasc.Stream("sim")
    before = s.record_event()
    before.synchronize()
    _failing_launch(s)
    after = s.record_event()
    with pytest.raises(pyasc_acl.AclKernelError):
        after.synchronize()
    before.synchronize()  # its record ran before the failure
    assert before.query() is True
    with pytest.raises(pyasc_acl.AclKernelError):
        pyasc.synchronize("sim")  # the device-wide synchronize reports it (once)
    pyasc.synchronize("sim")
    s.synchronize()
