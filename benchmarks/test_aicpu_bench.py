"""Issue 11: what the AI CPU path costs next to the AI Core kernel, for one op, side by side in one
run (``pytest benchmarks/test_aicpu_bench.py``).

``add`` of two 1M-element tensors on sim: int32 and float32 run the AI Core kernel
(kernels/binary.cpp, split over the vector cores), int64 and float64 the AI CPU kernel
(kernels/aicpu/elementwise.cpp, one AI CPU task). Two figures per case: the host wall time of
the op plus a synchronize (pytest-benchmark), and the simulated device time of the launch (events:
the AI Core cost model vs the SoC profile's AI CPU figures). The summary prints both and the AI
CPU / AI Core ratios.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

N = 1 << 20
CASES = {"AI Core int32": "int32", "AI CPU int64": "int64", "AI Core float32": "float32", "AI CPU float64": "float64"}
#: case -> (wall median seconds, simulated device milliseconds)
_RESULTS: dict[str, tuple[float, float]] = {}


def _sim_available() -> bool:
    from pyasc_core.registry import REGISTRY

    return REGISTRY.availability("sim")[0]


pytestmark = pytest.mark.skipif(not _sim_available(), reason="the sim backend is not available")


def _inputs(dtype: str):
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(N) * 100).astype(dtype)
    b = (rng.standard_normal(N) * 100).astype(dtype)
    return pyasc.tensor(a, device="sim"), pyasc.tensor(b, device="sim"), a + b


def _device_ms(x, y) -> float:
    """The simulated device time of one add (events on the current stream)."""
    start, end = pyasc.Event(enable_timing=True), pyasc.Event(enable_timing=True)
    start.record()
    pyasc.add(x, y)
    end.record()
    end.synchronize()
    return start.elapsed_time(end)


@pytest.mark.parametrize("case", list(CASES))
def test_add_aicore_vs_aicpu(benchmark, case):
    from pyasc_core import placement

    x, y, expected = _inputs(CASES[case])
    before = placement.snapshot()
    out = pyasc.add(x, y)
    np.testing.assert_array_equal(out.numpy(), expected)
    place = placement.AICPU if case.startswith("AI CPU") else placement.AICORE
    assert placement.snapshot()[place] > before[place], f"{case} did not run on the {place}"

    def run():
        pyasc.add(x, y)
        pyasc.synchronize("sim")

    benchmark.group = "add 1M: AI Core kernel vs AI CPU kernel"
    benchmark.extra_info["impl"] = case
    benchmark(run)
    device_ms = min(_device_ms(x, y) for _ in range(3))
    _RESULTS[case] = (benchmark.stats.stats.median, device_ms)


def summary_lines() -> list[str]:
    lines = [f"{case}: wall {wall * 1e3:.3f} ms, simulated device {dev:.3f} ms" for case, (wall, dev) in _RESULTS.items()]
    for cpu, core in (("AI CPU int64", "AI Core int32"), ("AI CPU float64", "AI Core float32")):
        if cpu in _RESULTS and core in _RESULTS:
            lines.append(f"{cpu} / {core}: wall {_RESULTS[cpu][0] / _RESULTS[core][0]:.2f}x, simulated device "
                         f"{_RESULTS[cpu][1] / _RESULTS[core][1]:.2f}x")
    return lines
