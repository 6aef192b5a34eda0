"""The kernel cache's per-entry build lock (pyasc_sim.cache.build_lock): two builders of one kernel at once (two
processes, two threads, two pytest-xdist workers on one test file) compile it once; the second waits and takes the
first's binary. A builder that holds the lock too long is not waited for forever."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
import time

import pytest

pyasc_sim = pytest.importorskip("pyasc_sim")
from pyasc_sim import cache  # noqa: E402

KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y) {
    AscendC::GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)x, 64);
    gy.SetGlobalBuffer((__gm__ float *)y, 64);
    for (uint32_t i = 0; i < 64; ++i) gy.SetValue(i, gx.GetValue(i) * 2.0f);
}
// %s
"""

CHILD = """\
import sys, pyasc_sim
print(pyasc_sim.compile(sys.argv[1], opt="-O0"))
"""


def _logging_compiler(tmp_path):
    """A CXX that records each run's arguments (one line per run) and runs g++."""
    log = tmp_path / "cxx.log"
    wrapper = tmp_path / "cxx"
    wrapper.write_text(f'#!/bin/sh\necho "$*" >> {log}\nexec g++ "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return str(wrapper), log


def _kernel_builds(log) -> list[str]:
    """The runs that compiled a kernel binary (not the preprocessing or a precompiled header)."""
    return [line for line in log.read_text().splitlines() if "stubs.cpp" in line and " -E " not in f" {line} "]


def test_two_processes_building_one_kernel_compile_it_once(tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL % f"two processes {tmp_path}")
    (tmp_path / "child.py").write_text(CHILD)
    cxx, log = _logging_compiler(tmp_path)
    env = {**os.environ, "PYASC_CACHE_DIR": str(tmp_path / "cache"), "CXX": cxx}
    procs = [subprocess.Popen([sys.executable, "child.py", str(src)], cwd=tmp_path, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, out + err
        outs.append(out.strip())
    assert outs[0] == outs[1]
    assert len(_kernel_builds(log)) == 1, log.read_text()


def test_two_threads_building_one_kernel_compile_it_once(tmp_path, monkeypatch):
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    cxx, log = _logging_compiler(tmp_path)
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL % f"two threads {tmp_path}")
    results, errors = [], []

    def build():
        try:
            results.append(pyasc_sim.compile(src, opt="-O0", compiler=cxx))
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=build) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and len(results) == 2 and results[0] == results[1]
    assert len(_kernel_builds(log)) == 1, log.read_text()


def test_a_waiter_goes_on_after_the_timeout_and_as_soon_as_the_holder_releases(tmp_path, monkeypatch):
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    root = cache.directory()
    held, release = threading.Event(), threading.Event()

    def holder():
        with cache.build_lock(root, "ascendc_x"):
            held.set()
            release.wait(30)

    t = threading.Thread(target=holder)
    t.start()
    assert held.wait(30)
    start = time.monotonic()
    with cache.build_lock(root, "ascendc_x", timeout=0.3):  # the holder never lets go in time: build anyway
        waited = time.monotonic() - start
    assert 0.3 <= waited < 10
    threading.Timer(0.2, release.set).start()
    start = time.monotonic()
    with cache.build_lock(root, "ascendc_x", timeout=60):  # waits for the release, not for the timeout
        waited = time.monotonic() - start
    t.join()
    assert 0.1 <= waited < 10
    with cache.build_lock(root, "ascendc_y", timeout=60):  # another name: its own stripe, or a free one
        pass
    assert all(f.endswith(".lock") for f in os.listdir(os.path.join(root, cache.LOCKS)))
    assert stat.S_IMODE(os.stat(os.path.join(root, cache.LOCKS)).st_mode) == 0o700


def test_clear_removes_the_lock_files(tmp_path, monkeypatch):
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    root = cache.directory()
    with cache.build_lock(root, "ascendc_z"):
        pass
    assert os.listdir(os.path.join(root, cache.LOCKS))
    cache.clear()
    assert not os.path.exists(os.path.join(root, cache.LOCKS))
