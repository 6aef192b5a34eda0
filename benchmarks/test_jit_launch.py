"""The second launch of a @pyasc.jit kernel (specialisation cached) next to the launch of the same
kernel written in C++ (pyasc.Kernel): the JIT's per-launch cost is finding the specialisation.

Target (issue 14): jit ``k[1](x, y, n, alpha)`` costs no more than the C++ Kernel's launch; the
summary prints the ratio. Both kernels return at once and run the sanitizer's default checks."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc.lang as asc

pytest.importorskip("pyasc_sim")

SOURCE = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void noop(GM_ADDR x, GM_ADDR y, int32_t n, float alpha) {}
"""


@pyasc.jit
def noop(x: asc.GlobalAddress, y: asc.GlobalAddress, n: int, alpha: float):
    pass


@pytest.fixture(scope="module")
def setup():
    k = pyasc.Kernel(SOURCE, "noop")
    x = pyasc.tensor(np.arange(16, dtype=np.float32), device="sim")
    y = pyasc.zeros(16, dtype="float32", device="sim")
    k[1](x, y, 16, 1.0)
    noop[1](x, y, 16, 1.0)  # the first launch translates and compiles; the timed ones reuse it
    pyasc.synchronize("sim")
    yield k, x, y
    pyasc.synchronize("sim")


def test_cpp_kernel_launch(record, setup):
    k, x, y = setup
    record("jit-launch", "C++ pyasc.Kernel k[1](x, y, n, alpha)", lambda: k[1](x, y, 16, 1.0))
    pyasc.synchronize("sim")


def test_jit_kernel_second_launch(record, setup):
    _, x, y = setup
    record("jit-launch", "@pyasc.jit noop[1](x, y, n, alpha)", lambda: noop[1](x, y, 16, 1.0))
    pyasc.synchronize("sim")
