"""`InitBuffer` with len 0 is the warning `buffer-empty` (round 29, s29a; kernel API README check table).

The reference's InitBuffer page sets no lower bound on len; the SDK's kernel_tpipe_impl.h asserts len > 0 only in its
CPU-debug build, so the NPU accepts a 0-byte buffer, which reserves nothing. DrivingSDK scatter_max_v3 sizes its
left-over source buffer by a tiling value that is 0 whenever the indices divide evenly over the cores (its host's own
tiling), and never touches it then; before this round the simulator stopped it (`buffer-capacity`, "is empty").
With PYASC_SIM_STRICT the warning is an error, as the CPU-debug build aborts.

Our kernel in that idiom: backends/sim/kernel_api/tests/kernels/compat/empty_buffer_idioms.cpp."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import pyasc
from ascendc_kernels import launch_failing, launch_synced, load, marked_line, on_sim

SRC = "compat/empty_buffer_idioms.cpp"


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def run(binary, n, batch, left):
    x = np.random.default_rng(n + left).uniform(-3, 3, n + left).astype(np.float32)
    y = pyasc.full((n + left,), -7.0, dtype="float32", device="sim")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", pyasc.SanitizerWarning)
        launch_synced(binary.function("scale_rows"), 1, (on_sim(x), y, n, batch, left))
    msgs = [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)]
    np.testing.assert_array_equal(y.numpy(), x * np.float32(2))
    return msgs


def test_a_zero_byte_left_over_buffer_runs_on_with_a_warning(binary):
    msgs = run(binary, 128, 64, 0)
    assert len(msgs) == 1 and "buffer-empty" in msgs[0] and marked_line(SRC, "empty") in msgs[0], msgs
    assert "a TBuf of 1 buffer(s) of 0 bytes reserves nothing" in msgs[0], msgs[0]


def test_a_non_empty_left_over_buffer_is_silent(binary):
    assert run(binary, 128, 64, 16) == []


def test_strict_mode_makes_the_empty_buffer_an_error(binary, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_STRICT", "1")
    x = np.ones(64, np.float32)
    y = pyasc.zeros((64,), dtype="float32", device="sim")
    msg = launch_failing(binary.function("scale_rows"), 1, (on_sim(x), y, 64, 64, 0))
    assert "buffer-empty" in msg and marked_line(SRC, "empty") in msg, msg
