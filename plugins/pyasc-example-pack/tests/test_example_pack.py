"""The pack's own tests: every example:: op against its NumPy reference on the chosen backends
(``pytest --pyasc-backend sim``), through pyasc's pytest plugin."""

from pathlib import Path

import numpy as np
import pytest

import pyasc

MISSING = Path(__file__).parent / "expected_missing_kernels.toml"  # what has no kernel, per backend


@pytest.mark.pyasc_ops("example::*")
def test_op_matches_reference(op, backend):
    pyasc.testing.check_op(op, backend, expected_missing=MISSING).raise_for_failures()


def test_leaky_relu_kernel_runs_on_sim():
    pytest.importorskip("pyasc_sim")
    x = np.linspace(-5, 5, 10000, dtype=np.float32)
    y = pyasc.ops.example.leaky_relu(pyasc.tensor(x, device="sim"), negative_slope=0.1)
    np.testing.assert_array_equal(y.numpy(), np.where(x >= 0, x, x * np.float32(0.1)))
