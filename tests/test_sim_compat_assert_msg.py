"""``ASSERT_MSG(cond, fmt, args...)``, the SDK's kernel-side assert with a message (COMPAT.md, round 25 s25a).

No reference page documents it, but every asc-devkit edition defines it in ``impl/basic_api/kernel_log.h``
(reached from ``kernel_operator.h``) as one ``do { if (!(cond)) { ... } } while (0)`` statement: the NPU build
prints ``[ASSERT] <file>:<line>: Assertion `<cond>' `` followed by the formatted message and traps, the CPU-debug
build prints it and aborts; no build switch compiles the check out. Public kernels (vllm-ascend's kvcache scatter
copy) check their inputs with it. The simulator: a false condition ends the block as an ``assert`` error naming
the condition and the formatted message at the call's line. Until round 25 ``ASSERT_MSG`` was not declared.

Our kernel in that idiom: backends/sim/kernel_api/tests/kernels/compat/assert_msg_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from ascendc_kernels import launch_failing, launch_synced, load, marked_line, on_sim

SRC = "compat/assert_msg_idioms.cpp"
ROW = 64


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def gather_args(src_rows: int, cap: int, idx):
    rng = np.random.default_rng(src_rows * 31 + cap)
    src = rng.standard_normal((src_rows, ROW)).astype(np.float32)
    index = np.full(cap, -1, np.int32)
    index[:len(idx)] = idx
    dst = pyasc.full((cap * ROW,), -7.0, dtype="float32", device="sim")
    return src, on_sim(src), on_sim(index), dst


@pytest.mark.parametrize("blocks", [1, 3])
def test_checked_indices_gather_their_rows(binary, blocks):
    idx = [4, 0, 9, 9, 2, 7, 1]
    src, s, i, dst = gather_args(10, 12, idx)
    launch_synced(binary.function("assert_msg_row_gather"), blocks, (s, i, dst, 10, 12, len(idx)))
    got = dst.numpy().reshape(12, ROW)
    np.testing.assert_array_equal(got[:len(idx)], src[idx])
    assert (got[len(idx):] == -7.0).all()


def test_a_failed_check_names_its_condition_and_formatted_message(binary):
    _, s, i, dst = gather_args(10, 12, [4, 0, 11])
    msg = launch_failing(binary.function("assert_msg_row_gather"), 1, (s, i, dst, 10, 12, 3))
    assert "sanitizer check 'assert'" in msg, msg
    assert marked_line(SRC, "index") in msg, msg
    assert "ASSERT_MSG(row >= 0 && static_cast<uint32_t>(row) < srcRows) failed: " \
           "entry 2: source row 11 is outside [0, 10)" in msg, msg


def test_a_message_without_arguments(binary):
    _, s, i, dst = gather_args(10, 4, [1])
    msg = launch_failing(binary.function("assert_msg_row_gather"), 2, (s, i, dst, 10, 4, 5))
    assert "sanitizer check 'assert'" in msg and marked_line(SRC, "count") in msg, msg
    assert "failed: copy count must be within [0, copy capacity]." in msg, msg


@pytest.mark.parametrize("x,want", [(5, 1), (-3, 2)])
def test_the_statement_form_in_an_unbraced_if_else(binary, x, want):
    out = pyasc.zeros((8,), dtype="int32", device="sim")
    launch_synced(binary.function("assert_msg_statement"), 1, (out, x))
    assert out.numpy()[0] == want
