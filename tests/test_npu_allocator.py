"""The caching device allocator and the pinned host pool of the ACL binding (on the simulator):
rounding and pools, per-stream reuse, record_stream semantics, statistics, limits and OOM."""

from __future__ import annotations

import gc
import os
import struct
import subprocess
import sys
import tempfile
import textwrap

import numpy as np
import pytest

import pyasc
from pyasc_acl import _acl
from pyasc_acl.errors import DeviceOutOfMemoryError

from acl_fixtures import kernel_binary, sim_library

MiB = 1 << 20


@pytest.fixture
def dev():
    """A device view with its own allocators, so statistics start at zero."""
    d = _acl.Device(sim_library(), 0, "alloctest:0")
    yield d
    gc.collect()
    d.empty_cache()


@pytest.fixture
def gate(dev):
    """(launch_waiting(stream, block), open()): a kernel that holds `block` on `stream` until opened."""
    binary = dev.load_binary(kernel_binary())
    fn = binary.function("wait_flag")
    flag = dev.malloc(4)
    dev.memset(flag.ptr, 4, 0, 4)

    def launch_waiting(stream, *uses):
        dev.launch(fn, 1, struct.pack("<Q", flag.ptr), stream, list(uses))

    def release():
        one = np.ones(1, np.uint32)
        dev.memcpy(flag.ptr, 4, one.ctypes.data, 4, _acl.ACL_MEMCPY_HOST_TO_DEVICE)  # not stream-ordered

    yield launch_waiting, release
    release()
    dev.synchronize()


def test_sizes_round_up_and_pools(dev):
    s = dev.default_stream
    a = dev.allocate(1, s)
    assert (a.nbytes, a.capacity) == (1, 512)
    b = dev.allocate(1000, s)  # padded as aclrtMalloc documents: ALIGN_UP(1000, 32) + 32 = 1056
    assert b.capacity == 1536 and b.ptr == a.ptr + 512  # carved from the same 2 MiB segment
    stats = dev.memory_stats()
    assert stats["reserved_bytes.all.current"] == 2 * MiB
    assert stats["allocated_bytes.all.current"] == 2048
    assert stats["allocation.all.current"] == 2
    big = dev.allocate(MiB + 1, s)  # large pool: a 20 MiB segment, split
    assert big.capacity == MiB + 512
    huge = dev.allocate(11 * MiB, s)  # fits in what is left of the 20 MiB segment
    assert dev.memory_stats()["reserved_bytes.all.current"] == 2 * MiB + 20 * MiB
    huge2 = dev.allocate(11 * MiB, s)  # >= 10 MiB and no room: its own segment, rounded to 2 MiB
    assert dev.memory_stats()["reserved_bytes.all.current"] == 2 * MiB + 20 * MiB + 12 * MiB
    del a, b, big, huge, huge2
    st = dev.memory_stats()
    assert st["allocated_bytes.all.current"] == 0 and st["allocation.all.current"] == 0
    assert st["reserved_bytes.all.current"] == 34 * MiB  # cached
    dev.empty_cache()
    assert dev.memory_stats()["reserved_bytes.all.current"] == 0


def test_blocks_are_reused_per_stream(dev):
    s1, s2 = dev.create_stream(), dev.create_stream()
    a = dev.allocate(4096, s1)
    ptr = a.ptr
    a.free()
    assert not a.alive
    with pytest.raises(ValueError, match="already freed"):
        a.ptr
    b = dev.allocate(4096, s1)
    assert b.ptr == ptr and b.stream == s1.handle
    b.free()
    c = dev.allocate(4096, s2)
    assert c.ptr != ptr  # another stream's cached block is not handed out


def test_no_reuse_by_another_stream_while_queued_work_uses_the_block(dev, gate):
    launch_waiting, release = gate
    a, b = dev.create_stream(), dev.create_stream()
    x = dev.allocate(8192, a)
    x_ptr = x.ptr
    launch_waiting(a, x)  # queued work on A uses X
    x.free()
    y = dev.allocate(8192, b)
    assert y.ptr != x_ptr  # B must not get X while A's work is queued
    release()
    a.synchronize()


def test_record_stream_holds_the_block_until_that_stream_passed(dev, gate):
    launch_waiting, release = gate
    a, b = dev.create_stream(), dev.create_stream()
    x = dev.allocate(8192, a)
    x_ptr = x.ptr
    launch_waiting(b, x)  # X (allocated on A) used on B: recorded automatically
    x.free()
    st = dev.memory_stats()
    assert st["allocated_bytes.all.current"] == 0
    assert st["active_bytes.all.current"] == 8704  # freed, but held back for B (8192 + 32 padded, rounded)
    y = dev.allocate(8192, a)
    assert y.ptr != x_ptr  # even its own stream must wait for B
    release()
    b.synchronize()
    z = dev.allocate(8192, a)
    assert z.ptr == x_ptr  # B passed the free point: X is back in A's pool
    del y, z
    assert dev.memory_stats()["active_bytes.all.current"] == 0


def test_explicit_record_stream_on_copies(dev, gate):
    launch_waiting, release = gate
    a, b = dev.create_stream(), dev.create_stream()
    x = dev.allocate(4096, a)
    launch_waiting(b)
    dev.copy(x, dev.allocate(4096, b), 4096, b)  # queued behind the gate on B: uses X on B
    x_ptr = x.ptr
    x.free()
    assert dev.allocate(4096, a).ptr != x_ptr
    release()
    b.synchronize()


def test_100000_allocate_free_cycles(dev):
    s = dev.default_stream
    sizes = [8, 512, 3000, 65536, 2 * MiB]
    for i in range(100_000):
        dev.allocate(sizes[i % len(sizes)], s)  # dropped at once
    st = dev.memory_stats()
    assert st["allocated_bytes.all.current"] == 0
    assert st["allocation.all.allocated"] == 100_000 and st["allocation.all.freed"] == 100_000
    assert st["reserved_bytes.all.current"] <= 2 * MiB + 20 * MiB  # one small + one large segment
    assert st["num_alloc_retries"] == 0


def test_100000_tensor_cycles_through_pyasc():
    gc.collect()
    base = pyasc.memory.memory_allocated("sim")
    # the cache may already hold segments earlier tests freed (reserved, not allocated): the bound is
    # on what these cycles add to it
    reserved = pyasc.memory.memory_reserved("sim")
    for _ in range(20_000):
        for n in (1, 100, 1000, 5000, 70_000):
            pyasc.empty(n, device="sim")
    assert pyasc.memory.memory_allocated("sim") == base
    assert pyasc.memory.memory_reserved("sim") <= reserved + 2 * MiB + 20 * MiB + 2 * MiB


def test_out_of_memory_states_the_figures_and_the_device_stays_usable(dev):
    s = dev.default_stream
    dev.set_memory_limit(3 * MiB)
    assert dev.memory_limit == 3 * MiB
    part = MiB - 64  # padded (ALIGN_UP(n, 32) + 32) to exactly 1 MiB
    keep = [dev.allocate(part, s), dev.allocate(part, s)]  # both fit in one 2 MiB segment
    with pytest.raises(DeviceOutOfMemoryError) as info:
        dev.allocate(MiB, s)
    e = info.value
    assert isinstance(e, pyasc.OutOfMemoryError)
    assert (e.requested, e.allocated, e.reserved, e.limit) == (MiB, 2 * MiB, 2 * MiB, 3 * MiB)
    assert e.total > 0 and e.free <= e.total
    text = str(e)
    for piece in ("alloctest:0 out of memory", "1.00 MiB (1048576 bytes)", "allocated", "reserved",
                  "device free", "total", "memory limit", "empty_cache", "set_memory_limit"):
        assert piece in text, piece
    st = dev.memory_stats()
    assert st["num_ooms"] == 1 and st["num_alloc_retries"] == 1
    del keep
    assert dev.allocate(part, s).capacity == MiB  # usable again
    dev.set_memory_limit(None)
    assert dev.memory_limit is None


def test_a_failed_allocation_frees_cached_blocks_and_retries(dev):
    s1, s2, s3 = dev.create_stream(), dev.create_stream(), dev.create_stream()
    dev.set_memory_limit(4 * MiB)
    dev.allocate(1000, s1)  # s1's 2 MiB segment, now cached and unused
    keep = dev.allocate(1000, s2)
    got = dev.allocate(1000, s3)  # needs a third segment: the limit forces s1's to be released
    st = dev.memory_stats()
    assert st["num_alloc_retries"] == 1 and st["num_ooms"] == 0
    assert st["reserved_bytes.all.current"] == 4 * MiB
    del keep, got


def test_device_capacity_out_of_memory_in_a_fresh_process(tmp_path):
    code = textwrap.dedent("""
        import pyasc
        try:
            pyasc.empty(100 << 20, dtype="uint8", device="sim")
        except pyasc.OutOfMemoryError as e:
            print("OOM:", e)
        print("after:", pyasc.ones(3, device="sim").numpy().tolist())
    """)
    env = dict(os.environ, PYASC_SIM_DEVICE_MEMORY="64M")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                         cwd=tempfile.gettempdir())  # not the checkout: its packages are uncompiled
    assert out.returncode == 0, out.stderr
    assert "OOM: sim:0 out of memory: tried to allocate 100.00 MiB" in out.stdout
    assert "of 64.00 MiB (67108864 bytes) total" in out.stdout
    assert "ACL_ERROR" in out.stdout or "out of device memory" in out.stdout
    assert "after: [1.0, 1.0, 1.0]" in out.stdout


def test_statistics_peaks_and_reset(dev):
    s = dev.default_stream
    a = dev.allocate(10_000, s)
    b = dev.allocate(10_000, s)
    del a, b
    st = dev.memory_stats()
    assert st["allocated_bytes.all.peak"] == 2 * 10_240
    assert st["allocated_bytes.all.allocated"] == st["allocated_bytes.all.freed"] == 2 * 10_240
    assert st["allocation.all.peak"] == 2
    dev.reset_peak_memory_stats()
    assert dev.memory_stats()["allocated_bytes.all.peak"] == 0


def test_pinned_pool_reuse_waits_for_streams(dev, gate):
    launch_waiting, release = gate
    p = dev.allocate_host(1000)
    assert p.nbytes == 1000 and len(memoryview(p)) == 1000
    np.frombuffer(p, np.uint8)[:] = 3
    ptr = p.ptr
    del p
    q = dev.allocate_host(1000)
    assert q.ptr == ptr  # cached (rounded to 1024) and reused
    s = dev.create_stream()
    launch_waiting(s)
    q.record_stream(s)
    q.free()
    r = dev.allocate_host(1000)
    assert r.ptr != ptr  # s has not passed the free point yet
    release()
    s.synchronize()
    assert dev.allocate_host(1000).ptr == ptr
    st = dev.host_memory_stats()
    assert st["reserved_bytes.all.current"] == 2 * 1024
    del r
    dev.empty_cache()
    assert dev.host_memory_stats()["reserved_bytes.all.current"] == 0


def test_copy_argument_checks(dev):
    s = dev.default_stream
    blk = dev.allocate(16, s)
    with pytest.raises(ValueError, match="does not fit"):
        dev.copy(blk, np.zeros(32, np.uint8), 32, s)
    with pytest.raises(ValueError, match="overflows the block"):
        dev.fill(blk, 0, 17, s)
    with pytest.raises(ValueError, match="not C-contiguous"):
        dev.copy(np.zeros(16, np.uint8)[::2], blk, 8, s)  # not contiguous
