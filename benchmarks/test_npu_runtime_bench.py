"""Runtime overheads of the ACL binding on the simulator (issue 3 targets):

* allocate + free of a cached block from Python: under 1 us;
* launch + synchronize round trip of an empty kernel;
* throughput of queued empty launches: at most 10 us per asynchronous launch.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import pyasc
import pyasc_acl

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from acl_fixtures import kernel_binary  # noqa: E402

QUEUED = 1000


@pytest.fixture(scope="module")
def sim():
    backend = pyasc.Stream("sim").device  # checks availability
    from pyasc_core.registry import backend_for_device

    return backend_for_device(backend).raw_device(backend)


@pytest.fixture(scope="module")
def empty_kernel():
    return pyasc_acl.Binary(kernel_binary(), device="sim").function("empty")


def test_allocate_free_cached_block(record, sim):
    stream = sim.default_stream
    allocate = sim.allocate
    allocate(4096, stream)  # warm the cache

    def cycle():
        allocate(4096, stream)  # dropped at once: back to the cache

    record("allocator", "allocate+free 4 KiB (binding)", cycle)


def test_allocate_free_tensor(record):
    pyasc.empty(1024, device="sim")
    record("allocator", "pyasc.empty(1024) + free", lambda: pyasc.empty(1024, device="sim"))


def test_launch_synchronize_round_trip(record, sim, empty_kernel):
    stream = sim.default_stream
    launch = sim.launch
    raw = empty_kernel.raw

    def round_trip():
        launch(raw, 1, b"", stream)
        stream.synchronize()

    record("launch", "launch+synchronize (empty kernel)", round_trip)


def test_queued_launch_throughput(record, sim, empty_kernel):
    stream = sim.create_stream()
    launch = sim.launch
    raw = empty_kernel.raw

    def queued():
        for _ in range(QUEUED):
            launch(raw, 1, b"", stream)
        stream.synchronize()

    record("launch", f"{QUEUED} queued launches + one synchronize", queued)


def test_queued_launch_throughput_public_api(record, empty_kernel):
    s = pyasc.Stream("sim")

    def queued():
        for _ in range(QUEUED):
            pyasc_acl.launch(empty_kernel, 1, (), s)
        s.synchronize()

    record("launch", f"{QUEUED} queued pyasc_acl.launch + one synchronize", queued)
