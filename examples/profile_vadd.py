"""Profile the vector-add tutorial (01_vadd.py) single- and double-buffered, side by side.

Runs the tutorial's ``vadd`` with ``BUFFER_NUM = 1`` and ``= 2`` under ``pyasc.profiler``, prints
each one's summary and how long its MTE2 (copy in) and V (vector) spans overlap, and writes one
Chrome trace holding both launches (open it in https://ui.perfetto.dev):

    python examples/profile_vadd.py [trace.json]
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np

import pyasc

HERE = Path(__file__).resolve().parent
N, BLOCKS, TILE = 2 * 2048, 2, 256  # 8 tiles per block, 2 blocks: a small trace


def load_tutorial():
    """The tutorial module (it launches its own example once when loaded)."""
    spec = importlib.util.spec_from_file_location("pyasc_tutorial_01_vadd", HERE / "01_vadd.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(module, buffer_num: int):
    """One launch of the tutorial's vadd with ``buffer_num`` buffers per queue; checks the result."""
    module.BUFFER_NUM = buffer_num  # a module constant: the jit specialises on it
    rng = np.random.default_rng(0)
    a, b = rng.random(N, dtype=np.float32), rng.random(N, dtype=np.float32)
    x, y, z = pyasc.tensor(a), pyasc.tensor(b), pyasc.empty(N, dtype="float32")
    module.vadd[BLOCKS](x, y, z, N // BLOCKS, TILE)
    np.testing.assert_allclose(z.numpy(), a + b, rtol=1e-6)


def profile_each(module, buffer_nums=(1, 2)):
    """{buffer_num: Profile} of one launch each."""
    out = {}
    for k in buffer_nums:
        run(module, k)  # compiled outside the profile
        with pyasc.profiler.profile() as p:
            run(module, k)
        out[k] = p
    return out


def main(trace: str = "vadd_single_vs_double.trace.json") -> None:
    module = load_tutorial()
    for k, p in profile_each(module).items():
        print(f"BUFFER_NUM = {k}: MTE2/V overlap {p.overlap_cycles('MTE2', 'V'):.0f} cycles")
        print(p.key_averages())
    with pyasc.profiler.profile() as both:
        run(module, 1)
        run(module, 2)
    print("trace:", both.export_chrome_trace(trace))


if __name__ == "__main__":
    main(*sys.argv[1:])
