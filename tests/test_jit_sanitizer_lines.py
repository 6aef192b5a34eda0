"""Sanitizer messages and C++ compile errors of a Python kernel name the Python file:line of the
faulty statement (the generated source's #line directives)."""

from __future__ import annotations

import os

import numpy as np
import pytest

import pyasc
from jit_kernels import buggy

FILE = os.path.abspath(buggy.__file__)


def bug_line(tag: str) -> int:
    with open(FILE) as f:
        for i, line in enumerate(f, 1):
            if f"# BUG: {tag}" in line:
                return i
    raise AssertionError(tag)


def test_out_of_bounds_data_copy_reports_the_python_line():
    x = pyasc.tensor(np.ones(64, np.float32), device="sim")
    z = pyasc.empty(64, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    with pytest.raises(pyasc.PyascError) as err:
        buggy.copy_past_end[1](x, z, 64)
        pyasc.synchronize("sim")
    msg = str(err.value)
    assert f"buggy.py:{bug_line('oob')}" in msg, msg
    assert "DataCopy" in msg


def test_deque_of_an_empty_queue_reports_the_python_line():
    x = pyasc.tensor(np.ones(64, np.float32), device="sim")
    z = pyasc.empty(64, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    with pytest.raises(pyasc.PyascError) as err:
        buggy.deque_empty[1](x, z, 64)
        pyasc.synchronize("sim")
    msg = str(err.value)
    assert f"buggy.py:{bug_line('deque')}" in msg, msg
    assert "DeQue on an empty" in msg


def test_a_cpp_compile_error_names_the_python_line():
    x = pyasc.tensor(np.ones(64, np.float32), device="sim")
    with pytest.raises(pyasc.PyascError) as err:
        buggy.cpp_error[1](x, 64)
        pyasc.synchronize("sim")
    assert f"buggy.py:{bug_line('compile')}" in str(err.value), str(err.value)[:2000]
