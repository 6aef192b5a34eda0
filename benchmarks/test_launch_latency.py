"""The launch/synchronize path on sim next to NumPy and torch, side by side in one run (issue 13
point 1, issue 16's latency requirement for the device-process execution model):

* ``queue add-16``: Python cost to queue ``pyasc.add`` of two 16-element float32 tensors on sim
  (no synchronize; the device runs behind); target <= 5 us;
* ``add-16 + sync``: the same add followed by ``pyasc.synchronize("sim")``; target <= 20 us;
* ``empty(256)``: ``pyasc.empty((256,), device="sim")``; target <= 2 us;
* ``100k launches + sync``: 100,000 queued one-block launches of an empty kernel
  (``k[1](x, y, n, alpha)``) then one synchronize; target >= 150k launches/s.

NumPy and torch (2 threads) do the same work in the same run. The launch rates are printed with the
throughput lines at the end: ``pytest benchmarks/test_launch_latency.py``.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

N = 16
QUEUED = 100_000

_RATES: dict[str, str] = {}


def _sim_available() -> bool:
    from pyasc_core.registry import REGISTRY

    return REGISTRY.availability("sim")[0]


needs_sim = pytest.mark.skipif(not _sim_available(), reason="the sim backend is not available")


def _torch():
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(2)
    return torch


def rate_lines() -> list[str]:
    """One line per launch-rate benchmark that ran (printed by conftest)."""
    return [f"{impl:<40} {text}" for impl, text in sorted(_RATES.items())]


@pytest.fixture(scope="module")
def operands():
    return np.arange(N, dtype=np.float32), np.ones(N, dtype=np.float32)


@pytest.fixture(scope="module")
def sim_operands(operands):
    if not _sim_available():
        pytest.skip("the sim backend is not available")
    a, b = (pyasc.tensor(v, device="sim") for v in operands)
    pyasc.add(a, b)
    pyasc.synchronize("sim")
    from pyasc_core import stream_sanitizer

    stream_sanitizer.reset()  # this module-scoped fixture runs before conftest's per-test reset
    _RATES["(stream sanitizer on sim)"] = "on" if stream_sanitizer.active("sim") else "off (PYASC_STREAM_SANITIZER=0 or PYASC_SIM_CHECKS=0)"
    yield a, b
    pyasc.synchronize("sim")


# -- queue cost of one elementwise op -------------------------------------------------------------
@needs_sim
def test_queue_add_sim(record, sim_operands):
    """The Python (and enqueue) cost with an idle device: synchronised, untimed, before each call."""
    a, b = sim_operands
    out = record("queue add-16 float32", "sim (device idle)", pyasc.add, a, b,
                 setup=lambda: pyasc.synchronize("sim"))
    pyasc.synchronize("sim")
    assert out.shape == (N,)


@needs_sim
def test_queue_add_sim_back_to_back(record, sim_operands):
    """Back to back without synchronize: the device runs behind and shares the cores."""
    a, b = sim_operands
    record("queue add-16 float32", "sim (back to back)", pyasc.add, a, b)
    pyasc.synchronize("sim")


def test_queue_add_numpy(record, operands):
    record("queue add-16 float32", "numpy", np.add, *operands)


def test_queue_add_torch(record, operands):
    torch = _torch()
    if torch is None:
        pytest.skip("torch is not installed")
    a, b = (torch.from_numpy(v) for v in operands)
    record("queue add-16 float32", "torch", torch.add, a, b)


# -- add + synchronize ---------------------------------------------------------------------------
@needs_sim
def test_add_sync_sim(record, sim_operands, operands):
    a, b = sim_operands

    def run():
        out = pyasc.add(a, b)
        pyasc.synchronize("sim")
        return out

    out = record("add-16 float32 + synchronize", "sim", run)
    np.testing.assert_array_equal(out.numpy(), operands[0] + operands[1])


def test_add_sync_numpy(record, operands):
    record("add-16 float32 + synchronize", "numpy", np.add, *operands)


def test_add_sync_torch(record, operands):
    torch = _torch()
    if torch is None:
        pytest.skip("torch is not installed")
    a, b = (torch.from_numpy(v) for v in operands)
    record("add-16 float32 + synchronize", "torch", torch.add, a, b)


# -- empty ---------------------------------------------------------------------------------------
@needs_sim
def test_empty_sim(record):
    pyasc.empty((256,), device="sim")
    record("empty (256,) float32", "sim", lambda: pyasc.empty((256,), device="sim"))


def test_empty_numpy(record):
    record("empty (256,) float32", "numpy", lambda: np.empty((256,), np.float32))


def test_empty_torch(record):
    torch = _torch()
    if torch is None:
        pytest.skip("torch is not installed")
    record("empty (256,) float32", "torch", lambda: torch.empty((256,)))


# -- 100k queued launches then one synchronize ---------------------------------------------------
NOOP = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void noop(GM_ADDR x, GM_ADDR y, uint32_t n, float alpha) {}
"""


def _rate(benchmark, impl: str) -> None:
    median = benchmark.stats.stats.median
    rate = QUEUED / median
    benchmark.extra_info["launches/s"] = rate
    _RATES[impl] = f"{rate / 1e3:8.1f} k launches/s  ({median * 1e6 / QUEUED:.2f} us each, {median:.2f} s per 100k)"


@needs_sim
def test_queued_launches_sim(benchmark):
    k = pyasc.Kernel(NOOP, "noop", checks=False)
    x = pyasc.tensor(np.arange(N, dtype=np.float32), device="sim")
    y = pyasc.empty(N, dtype="float32", device="sim")
    launch = k[1]
    launch(x, y, N, 1.0)
    pyasc.synchronize("sim")

    def run():
        for _ in range(QUEUED):
            launch(x, y, N, 1.0)
        pyasc.synchronize("sim")

    benchmark.group = "100k launches + synchronize"
    benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=0)
    _rate(benchmark, "sim k[1](x, y, n, alpha)")


def test_queued_launches_numpy(benchmark, operands):
    a, b = operands
    add = np.add

    def run():
        for _ in range(QUEUED):
            add(a, b)

    benchmark.group = "100k launches + synchronize"
    benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=0)
    _rate(benchmark, "numpy.add (16 elements)")


def test_queued_launches_torch(benchmark, operands):
    torch = _torch()
    if torch is None:
        pytest.skip("torch is not installed")
    a, b = (torch.from_numpy(v) for v in operands)
    add = torch.add

    def run():
        for _ in range(QUEUED):
            add(a, b)

    benchmark.group = "100k launches + synchronize"
    benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=0)
    _rate(benchmark, "torch.add (16 elements)")
