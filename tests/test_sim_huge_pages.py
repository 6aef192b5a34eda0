"""The sim device heap backs large blocks with 2 MiB pages (backends/sim/runtime/device_heap.cpp):
kernels stream through them with one TLB entry per 2 MiB instead of per 4 KiB, in the host and in
the device process, with the same bytes; PYASC_SIM_HUGE_PAGES=0 keeps 4 KiB pages."""

from __future__ import annotations

import ctypes
import mmap
import os
import subprocess
import sys

import numpy as np
import pytest

import pyasc
from pyasc_core.registry import REGISTRY

MADV_COLLAPSE = 25  # linux/mman.h; Python's mmap module does not name it before 3.12


def _kernel_collapses_shmem() -> bool:
    """True when this host kernel gathers a memfd's pages into a huge page on MADV_COLLAPSE."""
    if not hasattr(os, "memfd_create"):
        return False
    fd = os.memfd_create("pyasc-probe")
    size, huge = 8 << 20, 2 << 20
    try:
        os.ftruncate(fd, size)
        with mmap.mmap(fd, size) as m:
            m[:] = b"\1" * size
            view = ctypes.c_char.from_buffer(m)
            start = -ctypes.addressof(view) % huge  # the first 2 MiB-aligned byte of the mapping
            del view
            try:
                m.madvise(MADV_COLLAPSE, start, huge)
            except OSError:
                return False
            return True
    finally:
        os.close(fd)

pytestmark = [
    pytest.mark.skipif(not REGISTRY.availability("sim")[0], reason="needs the simulator"),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="huge pages of shared memory are Linux's"),
    pytest.mark.usefixtures("return_cached_sim_blocks"),
]

_SCRIPT = r"""
import os, numpy as np, pyasc
def pmd_kib(pid):
    for line in open(f"/proc/{pid}/smaps_rollup"):
        if line.startswith("ShmemPmdMapped:"):
            return int(line.split()[1])
    return 0
def device_pids():
    me = os.getpid()
    for p in os.listdir("/proc"):
        if p.isdigit():
            try:
                st = open(f"/proc/{p}/stat").read()
            except OSError:
                continue
            if int(st[st.rindex(")") + 2:].split()[1]) == me:
                yield p
x = np.random.default_rng(0).standard_normal(8 << 20, dtype=np.float32)
a = pyasc.tensor(x, device="sim")
y = pyasc.exp(a).numpy()
s = pyasc.sum(a).numpy()
dev = max((pmd_kib(p) for p in device_pids()), default=0)
print(pmd_kib(os.getpid()), dev, flush=True)
np.save(os.environ["OUT"], np.concatenate([y, np.atleast_1d(s)]))
"""


def _run(tmp_path, huge: str):
    out = tmp_path / f"out{huge}.npy"
    env = dict(os.environ, PYASC_SIM_HUGE_PAGES=huge, OUT=str(out))
    done = subprocess.run([sys.executable, "-c", _SCRIPT], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    host_kib, dev_kib = (int(v) for v in done.stdout.split()[-2:])
    return host_kib, dev_kib, np.load(out)


@pytest.mark.skipif(not _kernel_collapses_shmem(), reason="this host kernel cannot collapse shared memory into "
                    "huge pages (MADV_COLLAPSE, Linux >= 6.1)")
def test_large_blocks_are_huge_pages_in_both_processes_with_the_same_bytes(tmp_path):
    host_kib, dev_kib, huge = _run(tmp_path, "1")
    # the 32 MiB input and the 32 MiB exp output: at least 28 MiB of each in whole 2 MiB extents
    assert host_kib >= 56 << 10 and dev_kib >= 56 << 10, (host_kib, dev_kib)
    host_kib, dev_kib, small = _run(tmp_path, "0")
    assert host_kib == 0 and dev_kib == 0
    np.testing.assert_array_equal(huge.view(np.uint32), small.view(np.uint32))


def test_freed_huge_block_reads_back_zeros_after_reuse():
    """A block that was written, freed (its pages punched) and handed out again holds only what the
    new owner writes: pages of the reused range read back exactly."""
    n = 3 << 20  # 12 MiB: whole 2 MiB extents
    a = pyasc.tensor(np.full(n, 7.0, dtype=np.float32), device="sim")
    pyasc.synchronize("sim")
    del a
    pyasc.memory.empty_cache("sim")
    x = np.arange(n, dtype=np.float32)
    b = pyasc.tensor(x, device="sim")
    np.testing.assert_array_equal(b.numpy(), x)
