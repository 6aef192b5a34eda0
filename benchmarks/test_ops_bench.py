"""Every built-in op on each available backend, next to NumPy and (when installed) torch.

Grouped by op; the backend is a parameter. The device is synchronised inside the timed call.
Run ``pytest benchmarks/test_ops_bench.py`` (``--benchmark-json out.json`` saves a run,
``--benchmark-compare`` compares with the last saved one); ``pyasc bench`` prints the same as a table.
"""

from __future__ import annotations

import platform

import numpy as np
import pytest

import pyasc
from pyasc_core.registry import REGISTRY
from pyasc_core.testing.bench import bench_case, numpy_callable, pyasc_callable, torch_callable

SIZE = 1 << 18


def _ops() -> list[str]:
    REGISTRY.ensure()
    return sorted(n for n in REGISTRY.ops if n.startswith("pyasc::"))


def _backends() -> list[str]:
    REGISTRY.ensure()
    return [b for b in sorted(REGISTRY.backends) if b != "meta" and REGISTRY.availability(b)[0]]


def _extra(benchmark, backend: str, case) -> None:
    info = REGISTRY.backends[backend].info() if backend in REGISTRY.backends else {}
    benchmark.extra_info.update({
        "device": backend, "soc": info.get("soc", "host"), "pyasc": pyasc.__version__,
        "numpy": np.__version__, "python": platform.python_version(), "shape": case.desc,
        "dtype": case.dtype, "bytes": case.bytes_moved, "flops": case.flops,
    })


@pytest.mark.parametrize("op", _ops())
@pytest.mark.parametrize("impl", ["numpy", "torch", *[f"pyasc-{b}" for b in _backends()]])
def test_op(record, benchmark, op, impl):
    case = bench_case(op, "float32", SIZE)
    if case is None:
        pytest.skip(f"{op} has no float32 benchmark case")
    if impl == "numpy":
        fn = numpy_callable(case)
    elif impl == "torch":
        fn = torch_callable(case)
        if fn is None:
            pytest.skip("torch is not installed or has no equivalent of this op")
    else:
        fn = pyasc_callable(case, impl.removeprefix("pyasc-"))
    _extra(benchmark, impl.removeprefix("pyasc-"), case)
    record(op, impl, fn)
