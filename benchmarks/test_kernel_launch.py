"""Launch overhead of a kernel object, ``k[blocks](...)`` on sim, next to the same kernel through
``pyasc_acl.launch`` and a built-in op's launch (pyasc.add on 16 float32 elements).

Target (the simulator-speed issue's queueing target): k[1](x, y, n) queues in at most 5 us once
that issue has landed. The kernel returns at once, so the figure is the host-side cost."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

pytest.importorskip("pyasc_sim")

SOURCE = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void noop(GM_ADDR x, GM_ADDR y, uint32_t n, float alpha) {}
"""


@pytest.fixture(scope="module")
def setup():
    k = pyasc.Kernel(SOURCE, "noop", checks=False)
    x = pyasc.tensor(np.arange(16, dtype=np.float32), device="sim")
    y = pyasc.zeros(16, dtype="float32", device="sim")  # initialised: pyasc.add reads it
    k[1](x, y, 16, 1.0)
    pyasc.synchronize("sim")
    yield k, x, y
    pyasc.synchronize("sim")


def test_kernel_object_launch(record, setup):
    k, x, y = setup
    record("launch-16", "k[1](x, y, n, alpha)", lambda: k[1](x, y, 16, 1.0))
    pyasc.synchronize("sim")


def test_acl_launch(record, setup):
    import pyasc_acl

    k, x, y = setup
    fn = k.function(x.device).function
    record("launch-16", "pyasc_acl.launch", lambda: pyasc_acl.launch(fn, 1, (x, y, 16, 1.0)))
    pyasc.synchronize("sim")


def test_builtin_op_launch(record, setup):
    _, x, y = setup
    record("launch-16", "pyasc.add (built-in op)", pyasc.add, x, y)
    pyasc.synchronize("sim")
