"""memory.empty_cache() never frees memory that queued work still uses (issue 16, point 2): a
segment goes back to the device only when wholly free, no other stream still uses its blocks and
its own stream has finished the work queued before the free; empty_cache never waits for that
(it keeps such segments cached and counts them), and it is safe against every other allocator path
in other threads. Also the allocator's bad-input errors: set_memory_limit's range and type, and
NumPy's MemoryError on the numpy backend as pyasc's OutOfMemoryError."""

from __future__ import annotations

import gc
import os
import struct
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import numpy as np
import pytest

import pyasc
from pyasc_acl import _acl

from acl_fixtures import kernel_binary, sim_library

MiB = 1 << 20
SEG12 = 12 * MiB - 64  # padded as aclrtMalloc documents (ALIGN_UP(n, 32) + 32): exactly 12 MiB
TESTS = Path(__file__).parent


@pytest.fixture
def dev():
    """A device view with its own allocators, so statistics start at zero."""
    d = _acl.Device(sim_library(), 0, "emptycache:0")
    yield d
    gc.collect()
    d.synchronize()
    d.empty_cache()


class Gate:
    """A kernel that keeps a stream busy until opened. A safety timer opens it after `limit`
    seconds so that a regression (a call that waits for the gated stream) fails instead of
    hanging; `timer_opened` says whether that happened."""

    def __init__(self, dev, limit: float = 60.0) -> None:
        self.dev = dev
        self.fn = dev.load_binary(kernel_binary()).function("wait_flag")
        self.flag = dev.malloc(4)
        dev.memset(self.flag.ptr, 4, 0, 4)
        self.timer_opened = False
        self._lock = threading.Lock()
        self._timer = threading.Timer(limit, self._by_timer)
        self._timer.daemon = True
        self._timer.start()

    def hold(self, stream, *uses) -> None:
        self.dev.launch(self.fn, 1, struct.pack("<Q", self.flag.ptr), stream, list(uses))

    def open(self) -> None:
        with self._lock:
            self._timer.cancel()
            one = np.ones(1, np.uint32)  # a synchronous copy: not ordered behind the gated stream
            self.dev.memcpy(self.flag.ptr, 4, one.ctypes.data, 4, _acl.ACL_MEMCPY_HOST_TO_DEVICE)

    def _by_timer(self) -> None:
        self.timer_opened = True
        self.open()


@pytest.fixture
def gate(dev):
    g = Gate(dev)
    yield g
    g.open()
    dev.synchronize()


def _reserved(dev) -> int:
    return dev.memory_stats()["reserved_bytes.all.current"]


def test_a_segment_its_own_stream_still_uses_stays_until_the_work_ran(dev, gate):
    s = dev.create_stream()
    gate.hold(s)
    x = dev.allocate(SEG12, s)  # a segment of its own
    y = dev.allocate(4096, s)
    dev.fill(x, 7, x.nbytes, s)  # queued behind the gate: writes x later
    dev.copy(y, x, 4096, s)  # reads x later
    x.free()  # back in s's pool at once (reuse on s is stream-ordered) ...
    dev.empty_cache()  # ... but aclrtFree is not: the segment must stay
    st = dev.memory_stats()
    assert st["reserved_bytes.all.current"] == 12 * MiB + 2 * MiB
    assert st["num_deferred_releases"] >= 1
    assert not gate.timer_opened
    gate.open()
    s.synchronize()  # the queued memset and copy ran on live memory: no use-after-free error
    out = np.zeros(4096, np.uint8)
    dev.copy(out, y, 4096, s, True)
    assert (out == 7).all()
    dev.empty_cache()  # the work is done: now the segment goes
    assert _reserved(dev) == 2 * MiB
    y.free()
    s.synchronize()
    dev.empty_cache()
    assert _reserved(dev) == 0


def test_empty_cache_does_not_wait_for_a_busy_stream(dev, gate):
    a, b = dev.create_stream(), dev.create_stream()
    x = dev.allocate(SEG12, a)
    gate.hold(b, x)  # x (allocated on a) used on b: held back after its free
    x.free()
    dev.empty_cache()  # returns with b still gated (it used to wait for b)
    assert not gate.timer_opened
    st = dev.memory_stats()
    assert st["active_bytes.all.current"] == 12 * MiB and st["reserved_bytes.all.current"] == 12 * MiB
    gate.open()
    b.synchronize()
    dev.empty_cache()
    assert _reserved(dev) == 0


def test_a_freed_launch_argument_buffer_outlives_empty_cache(dev, gate):
    """launch() without host-args stages the arguments in a device block it frees right after
    enqueueing the kernel: empty_cache must not hand that segment back before the kernel ran."""
    s = dev.create_stream()
    other = dev.default_stream  # in/out live in another stream's segments (recorded on s)
    n = 1000
    src = dev.allocate(n * 4, other)
    dst = dev.allocate(n * 4, other)
    dev.copy(src, np.arange(n, dtype=np.int32), n * 4, other, True)
    fn = dev.load_binary(kernel_binary()).function("add_scalar_i32")
    gate.hold(s)
    dev.launch(fn, 4, struct.pack("<QQQQ", src.ptr, dst.ptr, n, 5), s, [src, dst], False)
    dev.empty_cache()  # the staging block's segment is free but s has not run the kernel
    assert _reserved(dev) >= 2 * MiB * 2  # other's segment and s's staging segment
    gate.open()
    s.synchronize()
    out = np.zeros(n, np.int32)
    dev.copy(out, dst, n * 4, other, True)
    np.testing.assert_array_equal(out, np.arange(n, dtype=np.int32) + 5)


def test_the_pinned_pool_does_not_wait_either(dev, gate):
    s = dev.create_stream()
    gate.hold(s)
    p = dev.allocate_host(1000)
    p.record_stream(s)
    p.free()
    dev.empty_cache()  # held back for s: kept, without waiting for s
    assert not gate.timer_opened
    assert dev.host_memory_stats()["reserved_bytes.all.current"] == 1024
    gate.open()
    s.synchronize()
    dev.empty_cache()
    assert dev.host_memory_stats()["reserved_bytes.all.current"] == 0


def test_the_out_of_memory_retry_waits_for_held_back_memory_without_the_lock(dev, gate):
    """An allocation that only fits once queued work released memory waits for it (PyTorch's
    retry), with the allocator's mutex released: other threads keep allocating and freeing."""
    s = dev.create_stream()
    dev.set_memory_limit(14 * MiB)  # x's 12 MiB segment and one small 2 MiB segment
    x = dev.allocate(SEG12, s)
    gate.hold(s)
    dev.fill(x, 1, x.nbytes, s)
    x.free()
    result: list = []

    def big() -> None:
        try:
            result.append(dev.allocate(SEG12, dev.default_stream))  # needs x's segment freed
        except Exception as exc:  # noqa: BLE001  (reported below)
            result.append(exc)

    t = threading.Thread(target=big)
    t.start()
    t.join(0.5)
    assert t.is_alive()  # waiting for s ...
    small = dev.allocate(4096, dev.default_stream)  # ... without holding the allocator's lock
    small.free()
    gate.open()
    t.join(60)
    assert not t.is_alive()
    assert not gate.timer_opened
    assert len(result) == 1 and not isinstance(result[0], Exception), result
    assert dev.memory_stats()["num_ooms"] == 0
    del result
    dev.set_memory_limit(None)


_DROP_SCRIPT = textwrap.dedent("""
    import struct, sys, threading
    sys.path.insert(0, {tests!r})
    import numpy as np
    from acl_fixtures import kernel_binary, sim_library
    from pyasc_acl import _acl

    d = _acl.Device(sim_library(), 0, "dropped:0")
    other = _acl.Device(sim_library(), 0, "other:0")  # the same device, its own allocators
    fn = d.load_binary(kernel_binary()).function("wait_flag")
    flag = d.malloc(4)
    d.memset(flag.ptr, 4, 0, 4)
    a, b = d.create_stream(), d.create_stream()
    x = d.allocate((12 << 20) - 64, a)
    d.launch(fn, 1, struct.pack("<Q", flag.ptr), b, [x])  # b holds x until the flag is set
    del x
    one = np.ones(1, np.uint32)
    opener = threading.Timer(0.2, lambda: other.memcpy(flag.ptr, 4, one.ctypes.data, 4, 1))
    opener.start()
    del d  # the allocator's last owner: it waits for b, which only the (Python) timer can free
    opener.join()
    b.synchronize()
    print("ok")
""")


def test_dropping_a_device_waits_for_its_memory_without_the_gil(tmp_path):
    kernel_binary()
    out = _run_child(_DROP_SCRIPT.format(tests=str(TESTS)), tmp_path, 60)
    assert out.returncode == 0, (out.returncode, out.stdout, out.stderr[-3000:])
    assert out.stdout.strip().endswith("ok"), out.stdout


# -- through pyasc: a big op on a non-default stream ------------------------------------------

_PYASC_SCRIPT = textwrap.dedent("""
    import gc, struct, sys
    sys.path.insert(0, {tests!r})
    import numpy as np
    import pyasc
    from acl_fixtures import kernel_binary
    from pyasc_acl.backend import acl_backend_of

    backend, dev = acl_backend_of("sim")
    raw = backend.raw_device(dev)
    fn = raw.load_binary(kernel_binary()).function("wait_flag")
    flag = raw.malloc(4)
    raw.memset(flag.ptr, 4, 0, 4)
    n = 4 << 20  # 16 MiB of float32: segments of their own
    x = pyasc.arange(n, dtype="float32", device="sim")
    s = pyasc.Stream("sim")
    with pyasc.stream(s):
        w = (x + x) * (x + x)  # warms the tiling cache (its uploads wait for the stream)
    del w
    pyasc.synchronize("sim")
    gc.collect()
    pyasc.memory.empty_cache("sim")
    base = pyasc.memory.memory_reserved("sim")
    deferred = pyasc.memory.memory_stats("sim").get("num_deferred_releases", 0)
    raw.launch(fn, 1, struct.pack("<Q", flag.ptr), s.impl.raw, [])  # s waits for the flag
    with pyasc.stream(s):
        y = x + x
        z = y * y
    del y  # its block is free, but the queued multiply still reads it
    pyasc.memory.empty_cache("sim")
    kept = pyasc.memory.memory_stats("sim").get("num_deferred_releases", 0) - deferred
    raw.memcpy(flag.ptr, 4, np.ones(1, np.uint32).ctypes.data, 4, 1)
    s.synchronize()
    expect = (np.arange(n, dtype=np.float32) * 2) ** 2
    assert np.array_equal(z.numpy(), expect)
    del z
    pyasc.synchronize("sim")
    pyasc.memory.empty_cache("sim")
    assert pyasc.memory.memory_reserved("sim") == base, (pyasc.memory.memory_reserved("sim"), base)
    assert kept >= 1, kept  # y's segment was kept while the multiply was queued
    print("ok")
""")


def _run_child(code: str, tmp_path: Path, timeout: float, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True,
                          text=True, timeout=timeout, cwd=tmp_path)  # outside the checkout


@pytest.mark.parametrize("checks", ["1", "0"])
def test_a_big_op_on_a_stream_survives_empty_cache(tmp_path, checks):
    kernel_binary()  # compiled here, once, not in the child
    out = _run_child(_PYASC_SCRIPT.format(tests=str(TESTS)), tmp_path, 180, PYASC_SIM_CHECKS=checks)
    assert out.returncode == 0, (out.returncode, out.stdout, out.stderr[-3000:])
    assert out.stdout.strip().endswith("ok"), out.stdout


_THREADS_SCRIPT = textwrap.dedent("""
    import sys, threading
    import numpy as np
    import pyasc

    pyasc.ones(1, device="sim").numpy()
    pyasc.memory.set_memory_limit({limit}, "sim")  # a limit: allocations retry, freeing the cache
    stop = threading.Event()
    errors = []

    def worker(k):
        try:
            rng = np.random.default_rng(k)
            s = pyasc.Stream("sim") if k % 2 else None
            for i in range(12):
                n = int(rng.choice([1000, 70_000, 3 << 20]))
                a = rng.standard_normal(n).astype(np.float32)
                with pyasc.stream(s):
                    x = pyasc.tensor(a, device="sim")
                    y = x + x
                    del x  # freed while the add may still be queued
                    z = y * y
                    del y
                    got = z.numpy()
                np.testing.assert_allclose(got, (a + a) * (a + a), rtol=1e-6)
                del z
        except BaseException as exc:
            errors.append(f"worker {{k}}: {{exc!r}}")

    def emptier():
        try:
            while {empty_loop} and not stop.is_set():
                pyasc.memory.empty_cache("sim")
                pyasc.memory.memory_stats("sim")
        except BaseException as exc:
            errors.append(f"emptier: {{exc!r}}")

    e = threading.Thread(target=emptier)
    e.start()
    ws = [threading.Thread(target=worker, args=(k,)) for k in range({workers})]
    for w in ws:
        w.start()
    for w in ws:
        w.join()
    stop.set()
    e.join()
    assert not errors, errors
    pyasc.synchronize("sim")
    pyasc.memory.empty_cache("sim")
    print("retries", pyasc.memory.memory_stats("sim")["num_alloc_retries"])
    print("ok")
""")


@pytest.mark.parametrize("checks, limit, empty_loop", [
    ("1", None, True),
    ("0", None, True),
    ("1", 128 * MiB, False),  # the cache fills up: allocations retry, freeing other threads' segments
    # (128 MiB: three threads can each hold x, y and z of 12 MiB while their frees wait on queued work)
])
def test_empty_cache_in_a_loop_while_threads_compute(tmp_path, checks, limit, empty_loop):
    code = _THREADS_SCRIPT.format(workers=3, limit=limit, empty_loop=empty_loop)
    out = _run_child(code, tmp_path, 300, PYASC_SIM_CHECKS=checks)
    assert out.returncode == 0, (out.returncode, out.stdout, out.stderr[-3000:])
    assert out.stdout.strip().endswith("ok"), out.stdout


# -- bad inputs -------------------------------------------------------------------------------

@pytest.mark.parametrize("device", ["numpy", "sim"])
@pytest.mark.parametrize("value, words", [
    (2**70, ["1180591620717411303424", "2**64 - 1", "None"]),
    (2**64, ["18446744073709551616", "2**64 - 1"]),
    (-1, ["-1", "negative"]),
    (1.5, ["1.5 (float)", "byte count"]),
    ("1G", ["'1G' (str)", "byte count"]),
    (True, ["True (bool)", "byte count"]),
])
def test_set_memory_limit_refuses_bad_values(device, value, words):
    with pytest.raises(pyasc.PyascError) as info:
        pyasc.memory.set_memory_limit(value, device)
    for w in words:
        assert w in str(info.value), (w, str(info.value))
    pyasc.memory.set_memory_limit(np.int64(1 << 40), device)  # NumPy integers are byte counts too
    pyasc.memory.set_memory_limit(None, device)


def test_numpy_backend_out_of_host_memory_is_out_of_memory_error():
    gc.collect()
    before = pyasc.memory.memory_stats("numpy")
    with pytest.raises(pyasc.OutOfMemoryError) as info:  # 256 TiB: beyond any address space
        pyasc.empty((2**46,), device="numpy")
    text = str(info.value)
    assert "281474976710656 bytes" in text and "256.00 TiB" in text and "shape (70368744177664,)" in text
    assert "smaller tensors" in text
    # past what any device can address (2**63 - 1 bytes) the shape itself is refused, on every backend
    with pytest.raises(pyasc.ShapeError, match="18446744073709551616 bytes"):
        pyasc.zeros((2**62,), device="numpy")
    a = pyasc.zeros((2**23, 1), device="numpy")
    b = pyasc.zeros((1, 2**23), device="numpy")
    with pytest.raises(pyasc.OutOfMemoryError, match=r"pyasc::add needs 256\.00 TiB"):  # broadcast result
        a + b
    after = pyasc.memory.memory_stats("numpy")
    assert after["num_ooms"] == before["num_ooms"] + 2  # the refused shape is no OOM
    del a, b
    gc.collect()
    assert pyasc.memory.memory_allocated("numpy") == before["allocated_bytes.all.current"]
    assert pyasc.ones(3, device="numpy").numpy().tolist() == [1.0, 1.0, 1.0]
