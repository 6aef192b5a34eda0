"""Benchmark helpers: record each benchmark's median and print ratios to the NumPy/torch baselines.

Run: ``pytest benchmarks/`` (add ``--benchmark-json out.json`` to save, ``--benchmark-compare``
to compare with a saved run).
"""

from __future__ import annotations

import pytest

_RESULTS: dict[str, dict[str, float]] = {}


@pytest.fixture(autouse=True)
def _stream_sanitizer_switch_per_test():
    """Benchmarks set PYASC_SIM_CHECKS per test, but the stream sanitizer reads its switch once and
    caches it: without a reset here the first "checks off" benchmark left it off for every later
    one in the process (launch latencies measured after test_sim_compute_bench were ~2 us lower)."""
    from pyasc_core import stream_sanitizer

    stream_sanitizer.reset()  # read again at the test's first use (after its setenv)
    yield


@pytest.fixture
def record(benchmark, request):
    """Run ``benchmark(fn)`` and remember its median under (group, implementation)."""

    def run(group: str, impl: str, fn, *args, setup=None, rounds: int = 2000):
        """With ``setup`` (called untimed before every call, e.g. a synchronize so the device is idle),
        ``rounds`` single calls are timed through benchmark.pedantic."""
        benchmark.group = group
        benchmark.extra_info["impl"] = impl
        if setup is None:
            result = benchmark(fn, *args)
        else:
            def prepare():
                setup()
                return args, {}

            result = benchmark.pedantic(fn, setup=prepare, rounds=rounds, iterations=1, warmup_rounds=10)
        stats = getattr(benchmark, "stats", None)
        if stats is not None:
            _RESULTS.setdefault(group, {})[impl] = stats.stats.median
        return result

    return run


def pytest_terminal_summary(terminalreporter):
    import sys

    for module, summary, title in (
        ("test_sim_bench", "throughput_lines", "sim benchmark throughput (bytes read + written, or FLOP, per second)"),
        ("test_launch_latency", "rate_lines", "launch rates (100k queued launches, then one synchronize)"),
        ("test_sim_compute_bench", "summary_lines",
         "sim kernel speed vs the 2-thread copy floor and NumPy BLAS (issue 13 targets)"),
        ("test_aicpu_bench", "summary_lines", "the AI CPU path next to the AI Core kernel (issue 11)"),
        ("test_profiler_bench", "summary_lines", "profiler cost on the 16M add (issue 17: <= 2% when off)"),
    ):
        bench = sys.modules.get(module)
        lines = getattr(bench, summary)() if bench is not None else []
        if lines:
            terminalreporter.section(title)
            for line in lines:
                terminalreporter.write_line(line)
    if not _RESULTS:
        return
    tr = terminalreporter
    tr.section("pyasc benchmark ratios (median time / baseline median time)")
    for group, impls in sorted(_RESULTS.items()):
        parts = []
        for impl, median in sorted(impls.items()):
            text = f"{impl} {median * 1e6:.3f} us"
            for base in ("numpy", "torch"):
                if base in impls and impl != base:
                    text += f" ({median / impls[base]:.2f}x {base})"
            parts.append(text)
        tr.write_line(f"{group}: " + "; ".join(parts))
