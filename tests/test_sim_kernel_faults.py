"""Kernel faults on the simulator leave Python alive (issue 16, points 3, 4 and 6).

Kernel blocks run in the simulated device's own process (pyasc-sim-device) with device memory
in shared memory, so a null dereference, a wild write, an integer division by zero, abort(), a
stack overflow or exit() in kernel code ends that process only: the launch fails with
ACL_ERROR_RT_AICORE_EXCEPTION (507015) naming the kernel, the block and the signal, and the device
works afterwards (the next launch respawns the process; device memory is kept). A kernel that
never returns fails with ACL_ERROR_RT_AICORE_TIMEOUT (507014) after the operator execution
timeout, and interpreter exit never waits for it. Each case runs in a child process with a
timeout (a regression cannot take pytest down), started outside the checkout so that it imports
the installed build.
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys

import pytest

KERNEL = r"""
#include "kernel_operator.h"
#include <cstdint>
#include <cstdlib>
using namespace AscendC;

namespace {
__attribute__((noinline)) int Recurse(volatile int *sink, int depth)
{
    volatile char frame[512];
    frame[0] = static_cast<char>(depth);
    *sink = depth;
    return Recurse(sink, depth + 1) + frame[0];  // not a tail call: the stack grows forever
}
// Clears a slot past its buffer in its destructor: a second check fails there (local-out-of-bounds).
struct ClearsOnExit {
    LocalTensor<float> t;
    ~ClearsOnExit() { t.SetValue(2000, 0.0f); }
};

// A sanitizer check fails, and while its abort unwinds the destructor above fails a second one.
__attribute__((noinline)) void FailTwice()
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    ClearsOnExit clears{buf.Get<float>()};
    clears.t.SetValue(1000, 1.0f);  // first failure
}
}  // namespace

// Block `bad` commits fault `kind`; the other blocks return at once.
extern "C" __global__ __aicore__ void fault(GM_ADDR z, uint32_t kind, uint32_t bad)
{
    if (static_cast<uint32_t>(GetBlockIdx()) != bad) return;
    volatile int *out = reinterpret_cast<volatile int *>(z);
    volatile int zero = 0;
    switch (kind) {
        case 0: *out = 7 / zero; break;                                             // SIGFPE
        case 1: *reinterpret_cast<volatile int *>(static_cast<uintptr_t>(zero)) = 1; break;  // null
        case 2: *reinterpret_cast<volatile int *>(uintptr_t{0xdead0000}) = 1; break;         // wild write
        case 3: abort();
        case 4: *out = Recurse(out, 0); break;                                      // stack overflow
        case 5: exit(3);
        case 6: for (;;) { *out = *out + 1; }                                       // never returns
        case 7: FailTwice(); break;
        default: break;
    }
}
"""

CHILD = r"""
import json, sys
import numpy as np
import pyasc, pyasc_acl

path, kind, timeout = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if timeout >= 0:
    pyasc_acl.set_op_execute_timeout(timeout)
fn = pyasc_acl.Binary(path, device="sim").function("fault")
keep = pyasc.tensor(np.arange(16, dtype=np.float32), device="sim")  # device memory survives
z = pyasc.zeros(16, dtype="int32", device="sim")
stream = pyasc.current_stream("sim")
result = {}
pyasc_acl.launch(fn, 4, (z, kind, 2), stream=stream)
try:
    stream.synchronize()
    result["error"] = None
except pyasc.PyascError as exc:
    result["error"] = {"type": type(exc).__name__, "code": getattr(exc, "code", None),
                       "message": getattr(exc, "message", str(exc))}
# the device works afterwards: a correct op, and memory allocated before the fault
x = pyasc.tensor(np.arange(8, dtype=np.float32), device="sim")
result["sum"] = (x + x).numpy().tolist()
result["keep"] = keep.numpy().tolist()
print(json.dumps(result))
"""

X86 = platform.machine() in ("x86_64", "AMD64")


@pytest.fixture(scope="module")
def fault_kernel(tmp_path_factory):
    import pyasc_sim

    src = tmp_path_factory.mktemp("faults") / "faults.cpp"
    src.write_text(KERNEL)
    return pyasc_sim.compile(src, opt="-O1")


def run_child(cwd, path: str, kind: int, *, timeout: int = -1, env_extra: dict | None = None) -> dict:
    env = dict(os.environ)
    env.pop("PYASC_SIM_OP_TIMEOUT", None)
    env.update(env_extra or {})
    done = subprocess.run([sys.executable, "-c", CHILD, path, str(kind), str(timeout)], env=env,
                          capture_output=True, text=True, timeout=180, cwd=cwd)  # not the checkout
    assert done.returncode == 0, f"the Python process died (rc {done.returncode}): {done.stderr[-3000:]}"
    return json.loads(done.stdout.strip().splitlines()[-1])


def line_of(marker: str, source: str = KERNEL) -> int:
    """The line of faults.cpp (KERNEL as written; or of `source`) holding `marker`: the faulting statement."""
    hits = [i + 1 for i, text in enumerate(source.split("\n")) if marker in text]
    assert len(hits) == 1, marker
    return hits[0]


# (kind, what, function, the faulting statement's marker, or None where no statement faults)
CASES = [
    pytest.param(0, "SIGFPE (integer division by zero)", "fault", "7 / zero",
                 marks=pytest.mark.skipif(not X86, reason="integer division by zero traps on x86 only"),
                 id="division-by-zero"),
    pytest.param(1, "SIGSEGV (invalid memory access) at address 0x0", "fault", "// null", id="null-dereference"),
    pytest.param(2, "SIGSEGV (invalid memory access) at address 0xdead0000", "fault", "// wild write",
                 id="wild-write"),
    pytest.param(3, "SIGABRT (abort() called)", "fault", "abort();", id="abort"),
    pytest.param(4, "SIGSEGV (stack overflow", "(anonymous namespace)::Recurse(int volatile*, int)", None,
                 id="infinite-recursion"),
    pytest.param(5, "exit(3) called", "fault", "exit(3);", id="exit"),
]


@pytest.mark.parametrize("kind, what, function, statement", CASES)
def test_kernel_fault_is_a_kernel_error_and_the_device_works_after(tmp_path, fault_kernel, kind, what, function,
                                                                    statement):
    r = run_child(tmp_path, fault_kernel, kind)
    err = r["error"]
    assert err is not None, "the fault was not reported"
    assert err["type"] == "AclKernelError" and err["code"] == 507015, err
    assert f"kernel fault block 2: {what}" in err["message"], err["message"]
    assert "the simulated device process was restarted" in err["message"]
    assert f"in {function} (" in err["message"], err["message"]  # the kernel function that faulted
    # the kernel's source file and the line of the faulting statement (from the binary's line table)
    if statement is not None:
        assert f"faults.cpp:{line_of(statement)}" in err["message"], err["message"]
    else:  # a stack overflow faults in a function's prologue: no statement to name, never the stub
        assert "stubs.cpp" not in err["message"], err["message"]
    assert r["sum"] == [2.0 * i for i in range(8)]
    assert r["keep"] == [float(i) for i in range(16)]


def test_kernel_that_never_returns_times_out(tmp_path, fault_kernel):
    r = run_child(tmp_path, fault_kernel, 6, timeout=1)
    err = r["error"]
    assert err is not None and err["code"] == 507014 and err["type"] == "AclKernelError", err
    assert "kernel fault: did not finish within the operator execution timeout of 1 s" in err["message"]
    assert r["sum"] == [2.0 * i for i in range(8)]
    assert r["keep"] == [float(i) for i in range(16)]


def test_op_timeout_env_override(tmp_path, fault_kernel):
    r = run_child(tmp_path, fault_kernel, 6, env_extra={"PYASC_SIM_OP_TIMEOUT": "1"})
    assert r["error"] is not None and r["error"]["code"] == 507014, r
    assert "timeout of 1 s" in r["error"]["message"]


EXIT_CHILD = r"""
import sys
import pyasc, pyasc_acl
fn = pyasc_acl.Binary(sys.argv[1], device="sim").function("fault")
z = pyasc.zeros(16, dtype="int32", device="sim")
pyasc_acl.launch(fn, 1, (z, 6, 0), stream=pyasc.current_stream("sim"))
print("launched", flush=True)
"""


def test_interpreter_exit_does_not_wait_for_a_stuck_kernel(tmp_path, fault_kernel):
    env = dict(os.environ, PYASC_SIM_OP_TIMEOUT="0")  # no timeout: only teardown can end it
    done = subprocess.run([sys.executable, "-c", EXIT_CHILD, fault_kernel], env=env, capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "launched" in done.stdout


def test_set_op_execute_timeout_rejects_bad_values():
    import pyasc
    import pyasc_acl

    for bad in (-1, 2**32, 1.5, "10", True):
        with pytest.raises(pyasc.PyascError) as info:
            pyasc_acl.set_op_execute_timeout(bad)
        assert "seconds must be an int in [0, 4294967295]" in str(info.value)


BAD_ENV_CHILD = r"""
import json
import pyasc
try:
    pyasc.zeros(4, device="sim")
    print(json.dumps({"error": None}))
except pyasc.PyascError as exc:
    print(json.dumps({"error": f"{type(exc).__name__}: {exc}"}))
"""


@pytest.mark.parametrize("var, value, expect", [
    ("PYASC_SIM_DEVICE_MEMORY", "-1", "must be a positive byte count"),
    ("PYASC_SIM_DEVICE_MEMORY", "12Q", "must be a positive byte count"),
    ("PYASC_SIM_OP_TIMEOUT", "-5", "must be a whole number of seconds"),
    ("PYASC_SIM_OP_TIMEOUT", "1.5", "must be a whole number of seconds"),
    ("PYASC_SIM_CHECKS", "maybe", "is not understood"),
    ("PYASC_SIM_STRICT", "maybe", "is not understood"),
    ("PYASC_SIM_SPIN_US", "1.5", "must be a whole number of microseconds"),
    ("PYASC_SIM_SPIN_US", "-1", "must be a whole number of microseconds"),
])
def test_bad_simulator_env_values_raise_naming_the_variable(tmp_path, var, value, expect):
    env = dict(os.environ)
    env[var] = value
    done = subprocess.run([sys.executable, "-c", BAD_ENV_CHILD], env=env, capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    err = json.loads(done.stdout.strip().splitlines()[-1])["error"]
    assert err is not None, f"{var}={value!r} was accepted"
    assert f"{var}='{value}'" in err and expect in err, err


def _host_backable_bytes() -> int:
    """Physical memory, or the cgroup memory limit when smaller (as the simulator computes it)."""
    total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    limits = []
    try:
        lines = open("/proc/self/cgroup").read().splitlines()
    except OSError:
        lines = []
    for line in lines:
        hid, ctrls, path = line.split(":", 2)
        if hid == "0" and ctrls == "":
            root, name = "/sys/fs/cgroup", "memory.max"
        elif "memory" in ctrls.split(","):
            root, name = "/sys/fs/cgroup/memory", "memory.limit_in_bytes"
        else:
            continue
        while True:
            f = os.path.join(root + ("" if path == "/" else path), name)
            try:
                v = open(f).read().strip()
                if v.isdigit() and 0 < int(v) < 2**62:
                    limits.append(int(v))
            except OSError:
                pass
            if path in ("", "/"):
                break
            path = path.rsplit("/", 1)[0] or "/"
    return min([total, *limits])


DEFAULT_CHILD = r"""
import json
import pyasc
t = pyasc.zeros(4, device="sim")
print(json.dumps({"total": pyasc.memory.mem_get_info("sim")[1]}))
"""


def test_default_device_memory_fits_the_host(tmp_path):
    env = dict(os.environ)
    env.pop("PYASC_SIM_DEVICE_MEMORY", None)
    env.pop("PYASC_SIM_DEVICE_COUNT", None)
    done = subprocess.run([sys.executable, "-c", DEFAULT_CHILD], env=env, capture_output=True, text=True,
                          timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    total = json.loads(done.stdout.strip().splitlines()[-1])["total"]
    host = _host_backable_bytes()
    assert 0 < total <= min(host // 2, 32 << 30), (total, host)


KILLED_CHILD = r"""
import json, os, signal, time
import numpy as np, pyasc

def device_processes():
    pids = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = open(f"/proc/{name}/stat").read()
            except OSError:
                continue
            comm, rest = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()
            if comm.startswith("pyasc-sim-devic") and int(rest[1]) == os.getpid() and rest[0] != "Z":
                pids.append(int(name))
    return pids

x = pyasc.tensor(np.arange(8, dtype=np.float32), device="sim")
first = (x + x).numpy().tolist()
before = device_processes()
for pid in before:
    os.kill(pid, signal.SIGKILL)  # the device process dies while idle (as under the OOM killer)
time.sleep(0.2)
second = (x + x).numpy().tolist()
print(json.dumps({"before": len(before), "first": first, "second": second, "after": len(device_processes())}))
"""


def test_device_process_killed_while_idle_is_restarted_at_the_next_launch(tmp_path):
    done = subprocess.run([sys.executable, "-c", KILLED_CHILD], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    r = json.loads(done.stdout.strip().splitlines()[-1])
    assert r["before"] == 1 and r["after"] == 1, r  # one device process per device, respawned
    assert r["first"] == r["second"] == [2.0 * i for i in range(8)]


def test_a_check_failing_while_another_unwinds_reports_the_first(tmp_path, fault_kernel):
    """A destructor that fails a second check while the first failure's abort unwinds ends the
    block in std::terminate (a throw out of a destructor): the launch names both checks and their
    lines, the first as the cause, not only SIGABRT, and the device works afterwards."""
    r = run_child(tmp_path, fault_kernel, 7)
    err = r["error"]
    assert err is not None and err["type"] == "AclKernelError" and err["code"] == 507015, err
    msg = err["message"]
    assert "kernel fault block 2: sanitizer check 'local-out-of-bounds' failed at " in msg, msg
    assert f"faults.cpp:{line_of('// first failure')}: SetValue writes 4 bytes at UB offset 4000" in msg, msg
    assert ("then, while the block unwound, a destructor failed a second check (sanitizer check "
            "'local-out-of-bounds' failed at ") in msg, msg
    assert f"faults.cpp:{line_of('~ClearsOnExit()')}: SetValue writes 4 bytes at UB offset 8000" in msg, msg
    assert "which ends in std::terminate: SIGABRT (abort() called)" in msg, msg
    assert "the simulated device process was restarted" in msg
    assert r["sum"] == [2.0 * i for i in range(8)]
    assert r["keep"] == [float(i) for i in range(16)]


# A kernel binary whose static initialisation faults: the host only reads the binary's exported symbols (it never
# dlopens it), so the fault happens in the device process at the first launch. Before, the host's dlopen ran the
# constructor and the Python process died with it (round 33: a -O0 SIMT build whose coverage hook recursed).
CTOR_KERNEL = r"""
#include "kernel_operator.h"
#include <cstdint>

namespace {
volatile int *volatile g_null = nullptr;
__attribute__((constructor)) void InitFaults() { *g_null = 1; }  // static initialisation fault
}  // namespace

extern "C" __global__ __aicore__ void fault(GM_ADDR z, uint32_t kind, uint32_t bad)
{
    if (static_cast<uint32_t>(AscendC::GetBlockIdx()) == bad) *reinterpret_cast<volatile uint32_t *>(z) = kind;
}
"""


def test_static_initialisation_fault_is_a_kernel_error_not_a_host_crash(tmp_path):
    import pyasc_sim

    src = tmp_path / "ctor_fault.cpp"
    src.write_text(CTOR_KERNEL)
    r = run_child(tmp_path, pyasc_sim.compile(src), 1)  # the child dies here without the fix: rc -11
    err = r["error"]
    assert err is not None and err["type"] == "AclKernelError" and err["code"] == 507015, err
    msg = err["message"]
    assert ("kernel fault (no block): SIGSEGV (invalid memory access) while the device process loaded the kernel "
            "binary (in its static initialisation, before any block ran) at address 0x0") in msg, msg
    assert "InitFaults() (" in msg, msg  # the constructor, and its line
    assert f"ctor_fault.cpp:{line_of('// static initialisation fault', CTOR_KERNEL)}" in msg, msg
    assert "the simulated device process was restarted" in msg
    assert r["sum"] == [2.0 * i for i in range(8)]
    assert r["keep"] == [float(i) for i in range(16)]
