"""Per-call cost of a tiny op: what pyasc's dispatch adds on top of the arithmetic.

Target (issue 2): pyasc.add on two 16-element float32 tensors on the reference backend costs at
most 2x torch.add's per-call time. numpy.add is the floor.
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

N = 16


@pytest.fixture(scope="module")
def operands():
    x = np.arange(N, dtype=np.float32)
    y = np.ones(N, dtype=np.float32)
    return x, y


def test_add16_pyasc(record, operands):
    a = pyasc.tensor(operands[0], device="numpy")
    b = pyasc.tensor(operands[1], device="numpy")
    out = record("add-16-float32", "pyasc", pyasc.add, a, b)
    np.testing.assert_array_equal(out.numpy(), operands[0] + operands[1])


def test_add16_pyasc_operator(record, operands):
    a = pyasc.tensor(operands[0], device="numpy")
    b = pyasc.tensor(operands[1], device="numpy")
    out = record("add-16-float32", "pyasc a+b", a.__add__, b)
    np.testing.assert_array_equal(out.numpy(), operands[0] + operands[1])


def test_add16_numpy(record, operands):
    out = record("add-16-float32", "numpy", np.add, *operands)
    np.testing.assert_array_equal(out, operands[0] + operands[1])


def test_add16_torch(record, operands):
    torch = pytest.importorskip("torch")
    torch.set_num_threads(2)
    a, b = (torch.from_numpy(v) for v in operands)
    out = record("add-16-float32", "torch", torch.add, a, b)
    np.testing.assert_array_equal(out.numpy(), operands[0] + operands[1])
