"""Enqueue cost of the stream sanitizer (PYASC_STREAM_SANITIZER): a 16-element pyasc.add on sim
with the sanitizer on and off, the device synchronised inside each timed call. The difference is
the per-launch bookkeeping (a dict lookup per GM argument plus the op's read set):
``pytest benchmarks/test_stream_sanitizer_bench.py``."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc_core import stream_sanitizer


def _sim_available() -> bool:
    from pyasc_core.registry import REGISTRY

    return REGISTRY.availability("sim")[0]


@pytest.mark.skipif(not _sim_available(), reason="the sim backend is not available")
@pytest.mark.parametrize("on", ["1", "0"])
def test_add16_sim_stream_sanitizer(record, monkeypatch, on):
    monkeypatch.setenv("PYASC_STREAM_SANITIZER", on)
    stream_sanitizer.reset()
    x = pyasc.tensor(np.arange(16, dtype=np.float32), device="sim")

    def step():
        out = pyasc.add(x, x)
        pyasc.synchronize("sim")
        return out

    out = record("add-16-float32-sim", f"stream sanitizer {'on' if on == '1' else 'off'}", step)
    np.testing.assert_array_equal(out.numpy(), np.arange(16, dtype=np.float32) * 2)
    monkeypatch.delenv("PYASC_STREAM_SANITIZER")
    stream_sanitizer.reset()
