"""The vector initcheck of elementwise instructions as taint (kapi/vector_taint.h, kernel API README, Sanitizer
table, `local-uninit-read`): an epilogue that reads a whole UB tile whose tail rows were never written, computes
on it (count-form Cast / Adds, mask / repeat-form Mul with broadcast operands, Brcb) and stores only the rows that
were written matches NumPy with checks on; storing a row computed from the never-written tail is still a
'local-uninit-read', at the store's line (also when nothing at all was copied in). Kernel: our own compat/vector_tail_tile_idioms.cpp (Catlass-style
per-token dequant epilogue)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, marked_line

SRC = "compat/vector_tail_tile_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(ASCENDC_DIR / SRC, opt="-O1"), device="sim")


def _launch(binary, m, n, store_rows, seed=0):
    rng = np.random.default_rng(seed)
    c = rng.integers(-50, 50, (m, n)).astype(np.int32)
    scale = rng.integers(1, 5, n).astype(np.float32) / 4
    token = rng.integers(1, 5, m).astype(np.float32) / 2
    d = pyasc.full((store_rows * n,), -1.0, dtype="float16", device="sim")
    shape = pyasc.tensor(np.array([m, n, store_rows], np.int32), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("tail_tile_epilogue"), 1,
                     (pyasc.tensor(c, device="sim"), pyasc.tensor(scale, device="sim"),
                      pyasc.tensor(token, device="sim"), d, shape))
    want = (c.astype(np.float32) * scale[None, :] * token[:, None] + np.float32(0.5)).astype(np.float16)
    return want, d


@pytest.mark.parametrize("m, n", [
    (5, 32),    # rows 5..15 never written (and the scale's columns 32..63)
    (9, 48),    # rows 9..15, and the second half of Brcb's per-row scales
    (16, 64),   # nothing unwritten: the untainted path
])
def test_an_epilogue_storing_only_written_rows_passes(binary, m, n):
    want, d = _launch(binary, m, n, m, seed=m + n)
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(d.numpy().reshape(m, n), want)


@pytest.mark.parametrize("m, n", [(5, 32), (9, 48)])
def test_storing_a_row_computed_from_the_unwritten_tail_is_reported(binary, m, n):
    _launch(binary, m, n, m + 1)
    with pytest.raises(pyasc.PyascError) as info:
        pyasc.synchronize("sim")
    msg = str(info.value)
    assert "sanitizer check 'local-uninit-read' failed at " + marked_line(SRC, "stored-tail") in msg, msg
    assert "DataCopyPad reads" in msg and "UB" in msg, msg


def test_a_tile_nothing_was_copied_into_is_reported_at_the_store(binary):
    # m = 0: every instruction reads only never-written UB (as a Catlass column slice past the real columns
    # does); the store of row 0 is the error
    _launch(binary, 0, 32, 1)
    with pytest.raises(pyasc.PyascError) as info:
        pyasc.synchronize("sim")
    msg = str(info.value)
    assert "sanitizer check 'local-uninit-read' failed at " + marked_line(SRC, "stored-tail") in msg, msg
    assert "DataCopyPad reads 64 bytes at UB offset" in msg, msg
