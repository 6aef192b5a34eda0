"""The launch/synchronize path on sim (issue 13 point 1, issue 16's latency requirement): no import
statement runs on the hot path, the typed packing fast path lays out exactly what the general path
does (and leaves bad values to it), repeated elementwise launch shapes reuse one uploaded tiling,
an idle device (host threads and device process) does not burn a core, and the spin setting
(PYASC_SIM_SPIN_US) works at 0 (never spin). Speed itself is measured in
benchmarks/test_launch_latency.py."""

from __future__ import annotations

import builtins
import json
import os
import struct
import subprocess
import sys

import numpy as np
import pytest

import pyasc
from pyasc_core.registry import REGISTRY

pytestmark = pytest.mark.skipif(not REGISTRY.availability("sim")[0], reason="the sim backend is not available")

NOOP = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void noop(GM_ADDR x, GM_ADDR y, uint32_t n, float alpha) {}
"""


def test_no_import_statement_runs_on_the_launch_hot_path():
    a = pyasc.tensor(np.arange(16, dtype=np.float32), device="sim")
    b = pyasc.tensor(np.ones(16, dtype=np.float32), device="sim")
    k = pyasc.Kernel(NOOP, "noop", checks=False)
    launch = k[1]

    def work():
        out = pyasc.add(a, b)
        launch(a, b, 16, 1.0)
        pyasc.empty((256,), device="sim")
        pyasc.synchronize("sim")
        return out

    work()  # warm: kernels loaded, tilings uploaded, default streams made
    seen: list[str] = []
    real = builtins.__import__

    def spy(name, *args, **kwargs):
        seen.append(name)
        return real(name, *args, **kwargs)

    builtins.__import__ = spy
    try:
        out = work()
    finally:
        builtins.__import__ = real
    assert seen == []
    np.testing.assert_array_equal(out.numpy(), np.arange(16, dtype=np.float32) + 1)


def _signature():
    from pyasc_acl.signature import Param, Signature

    params, at = [], 0
    for name, typ, size, kind in [("x", "GM_ADDR", 8, "pointer"), ("n", "uint32_t", 4, "uint"),
                                  ("k", "int16_t", 2, "int"), ("alpha", "float", 4, "float"),
                                  ("beta", "double", 8, "float"), ("y", "GM_ADDR", 8, "pointer"),
                                  ("m", "int64_t", 8, "int"), ("c", "int8_t", 1, "int")]:
        at = -(-at // size) * size
        params.append(Param(name, typ, size, size, at, kind))
        at += size
    return Signature("mixed", tuple(params), -(-at // 8) * 8)


def _general(sig, args, device):
    """The general (per-parameter) path of pack_typed, with the fast plan switched off."""
    from pyasc_acl import kernels

    object.__setattr__(sig, "_fast_plan", None)
    try:
        return kernels.pack_typed(sig, args, device)
    finally:
        del sig.__dict__["_fast_plan"]


@pytest.mark.parametrize("values", [
    (7, -3, 1.5, 2.25, -(2**40), -128),
    (2**32 - 1, 2**15 - 1, 3.4028234663852886e38, -0.0, 2**63 - 1, 127),
    (0, -(2**15), float("nan"), float("inf"), 0, 0),
    (1, 2, 0.1, 1e-320, 5, 6),  # float32 rounding of 0.1; a double denormal
])
def test_typed_fast_path_packs_what_the_general_path_packs(values):
    from pyasc_acl import kernels

    sig = _signature()
    x = pyasc.tensor(np.arange(8, dtype=np.float32), device="sim")
    y = pyasc.empty(8, dtype="float32", device="sim")
    n, k, alpha, beta, m, c = values
    args = (x, n, k, alpha, beta, y[2:], m, c)
    assert kernels._fast_plan(sig) is not None
    fast_blob, fast_blocks = kernels.pack_typed(sig, args, x.device)
    blob, blocks = _general(sig, args, x.device)
    assert fast_blob == blob and len(blob) == sig.size
    assert [b.ptr for b in fast_blocks] == [b.ptr for b in blocks]
    assert struct.unpack_from("<Q", fast_blob, sig.params[5].offset)[0] == y._data.block.ptr + 8


@pytest.mark.parametrize("i, value, expect", [
    (1, -1, "does not fit"),          # uint32 < 0
    (2, 2**15, "does not fit"),       # int16 overflow
    (6, 2**63, "does not fit"),       # int64 overflow
    (3, "1.0", "takes a number"),     # a str for a float
    (1, 1.0, "takes an integer"),     # a float for an integer
])
def test_typed_fast_path_leaves_bad_values_to_the_general_path(i, value, expect):
    from pyasc_acl import kernels

    sig = _signature()
    x = pyasc.tensor(np.arange(8, dtype=np.float32), device="sim")
    args = [x, 1, 2, 1.0, 2.0, x, 3, 4]
    args[i] = value
    with pytest.raises(pyasc.PyascError, match=expect):
        kernels.pack_typed(sig, tuple(args), x.device)


def test_typed_fast_path_converts_overflowing_floats_like_the_general_path():
    from pyasc_acl import kernels

    sig = _signature()
    x = pyasc.tensor(np.arange(8, dtype=np.float32), device="sim")
    args = (x, 1, 2, 1e300, 2.0, x, 3, 4)  # float32 overflow: inf, as numpy.float32(1e300)
    blob, _ = kernels.pack_typed(sig, args, x.device)
    assert struct.unpack_from("<f", blob, sig.params[3].offset)[0] == float("inf")
    assert blob == _general(sig, args, x.device)[0]


def test_repeated_elementwise_shapes_reuse_one_uploaded_tiling(monkeypatch):
    uploads = []
    real = pyasc.tiling.upload  # the built-in glue uploads through the public API

    def upload(data, device=None):
        uploads.append(data)
        return real(data, device)

    monkeypatch.setattr(pyasc.tiling, "upload", upload)
    a = pyasc.tensor(np.arange(40, dtype=np.float32), device="sim")
    first = pyasc.add(a, a)
    after_first = len(uploads)
    for _ in range(5):
        out = pyasc.add(a, a)
    assert len(uploads) == after_first  # the same shape: packed and uploaded once
    b = pyasc.tensor(np.arange(41, dtype=np.float32), device="sim")
    pyasc.add(b, b)
    assert len(uploads) == after_first + 1  # a new shape: its own tiling
    np.testing.assert_array_equal(out.numpy(), first.numpy())
    np.testing.assert_array_equal(first.numpy(), 2 * np.arange(40, dtype=np.float32))


IDLE_CHILD = r"""
import json, os, time
import numpy as np
import pyasc

def device_processes():
    me, out = os.getpid(), []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                stat = open(f"/proc/{pid}/stat").read()
                cmdline = open(f"/proc/{pid}/cmdline", "rb").read()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            if int(fields[1]) == me and b"pyasc-sim-device" in cmdline:
                out.append(int(pid))
    return out

def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

a = pyasc.tensor(np.arange(16, dtype=np.float32), device="sim")
for _ in range(200):  # back-to-back launches: every waiter's spin budget grows to its cap
    pyasc.add(a, a)
pyasc.synchronize("sim")
time.sleep(0.3)  # spins end within their budget (<= 0.2 ms), then everything parks
pids = device_processes()
t0 = time.monotonic()
host0 = time.process_time()
dev0 = sum(cpu_seconds(p) for p in pids)
time.sleep(1.5)
wall = time.monotonic() - t0
print(json.dumps({"devices": len(pids), "wall": wall, "host": time.process_time() - host0,
                  "device": sum(cpu_seconds(p) for p in pids) - dev0}))
"""


def test_an_idle_device_does_not_burn_a_core(tmp_path):
    """After a burst of launches, the host's stream workers and the device process park: over 1.5 s
    of idle time they use a small fraction of one core (a spinning thread would use all of it)."""
    done = subprocess.run([sys.executable, "-c", IDLE_CHILD], capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)  # outside the checkout: the installed build
    assert done.returncode == 0, done.stderr[-3000:]
    r = json.loads(done.stdout.strip().splitlines()[-1])
    assert r["devices"] == 1, r
    assert r["host"] < 0.25 * r["wall"], r
    assert r["device"] < 0.25 * r["wall"], r


SPIN_CHILD = r"""
import json
import numpy as np
import pyasc
a = pyasc.tensor(np.arange(16, dtype=np.float32), device="sim")
outs = [pyasc.add(a, a) for _ in range(50)]
pyasc.synchronize("sim")
print(json.dumps({"ok": all(np.array_equal(o.numpy(), 2 * np.arange(16, dtype=np.float32)) for o in outs)}))
"""


def test_spin_setting_zero_never_spins_and_still_works(tmp_path):
    env = dict(os.environ, PYASC_SIM_SPIN_US="0")
    done = subprocess.run([sys.executable, "-c", SPIN_CHILD], env=env, capture_output=True, text=True, timeout=300,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"ok": True}


BATCH_CHILD = r"""
import json, sys
import numpy as np
import pyasc, pyasc_acl

binary = pyasc_acl.Binary(sys.argv[1], device="sim")
fill, add, crash, fail = (binary.function(n) for n in ("slow_fill", "add_scalar_i32", "crash_null", "fail_block1"))
n = 64
src = pyasc.tensor(np.arange(n, dtype=np.int32), device="sim")
outs = [pyasc.zeros(n, dtype="int32", device="sim") for _ in range(4)]
flag = pyasc.zeros(8, dtype="int32", device="sim")
stream = pyasc.current_stream("sim")
pyasc.synchronize("sim")
# the first launch holds the stream for 0.3 s: the ones behind it queue up and reach the device
# process as one batch, with a crash and a failing launch in the middle
pyasc_acl.launch(fill, 1, (flag, 4, 1, 300000), stream=stream)
pyasc_acl.launch(add, 2, (src, outs[0], n, 1), stream=stream)
pyasc_acl.launch(crash, 2, (), stream=stream)
pyasc_acl.launch(add, 2, (src, outs[1], n, 2), stream=stream)
pyasc_acl.launch(fail, 2, (), stream=stream)
pyasc_acl.launch(add, 2, (src, outs[2], n, 3), stream=stream)
for k in range(4, 40):  # a longer tail of small launches
    pyasc_acl.launch(add, 1, (src, outs[3], n, k), stream=stream)
result = {}
try:
    stream.synchronize()
    result["error"] = None
except pyasc.PyascError as exc:
    result["error"] = getattr(exc, "message", str(exc))
try:
    stream.synchronize()
    result["second"] = None
except pyasc.PyascError as exc:
    result["second"] = str(exc)
result["outs"] = [o.numpy().tolist() for o in outs]
result["flag"] = flag.numpy().tolist()
print(json.dumps(result))
"""


def test_a_batch_of_queued_launches_keeps_stream_semantics(tmp_path):
    """Launches queued behind a slow one travel to the device process together; a crash and a
    failing launch inside the batch settle only themselves: the launches before and after them run
    (after the crash, in the restarted device process), in order, and the first error is reported
    once."""
    import sys as _sys
    from pathlib import Path

    _sys.path.insert(0, str(Path(__file__).resolve().parent))
    from acl_fixtures import kernel_binary

    done = subprocess.run([sys.executable, "-c", BATCH_CHILD, kernel_binary()], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path)  # outside the checkout: the installed build
    assert done.returncode == 0, done.stderr[-3000:]
    r = json.loads(done.stdout.strip().splitlines()[-1])
    assert r["error"] is not None and "crash_null block 1: SIGSEGV" in r["error"], r["error"]
    assert r["second"] is None  # reported once; the failing launch after it did not replace it
    base = np.arange(64)
    assert r["outs"][0] == (base + 1).tolist()   # before the crash
    assert r["outs"][1] == (base + 2).tolist()   # after the crash: the device process restarted
    assert r["outs"][2] == (base + 3).tolist()   # after the failing launch
    assert r["outs"][3] == (base + 39).tolist()  # the tail ran in order: the last one wins
    assert r["flag"][0] == 0x01010101
