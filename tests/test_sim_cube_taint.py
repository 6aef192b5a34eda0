"""The cube path's initcheck as taint (kapi/cube_taint.h, kernel API README, Sanitizer table,
`local-uninit-read`): a whole L1 tile whose tail rows of A / tail columns of B were never written goes
through LoadData and Mmad without a report, the stored corner of the product matches NumPy with checks
on, and a Fixpipe that stores products of the never-written tail is still a 'local-uninit-read' at the
Fixpipe's line. Kernel: our own compat/cube_tail_tile_idioms.cpp (Catlass-style tail tiles)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, marked_line

SRC = "compat/cube_tail_tile_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(ASCENDC_DIR / SRC, opt="-O1", core="cube"), device="sim")


def _launch(binary, m, k, n, m_tile, n_tile, rows, cols, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    y = pyasc.full((rows * cols,), -1.0, dtype="float32", device="sim")
    shape = pyasc.tensor(np.array([m, k, n, m_tile, n_tile, rows, cols], np.int32), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("tail_tile_mm"), 1,
                     (pyasc.tensor(a, device="sim"), pyasc.tensor(b, device="sim"), y, shape))
    return a, b, y


@pytest.mark.parametrize("m, k, n, m_tile, n_tile", [
    (16, 32, 64, 64, 64),   # three never-written row fractals of A
    (48, 16, 16, 64, 64),   # one of A, three column fractals of B
    (32, 48, 32, 32, 64),   # B only
    (64, 32, 64, 64, 64),   # nothing unwritten: the untainted path
])
def test_unwritten_tail_tiles_whose_products_are_not_stored_pass(binary, m, k, n, m_tile, n_tile):
    a, b, y = _launch(binary, m, k, n, m_tile, n_tile, m, n, seed=m + k + n)
    pyasc.synchronize("sim")
    want = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)  # exact: small integers
    np.testing.assert_array_equal(y.numpy().reshape(m, n), want)


@pytest.mark.parametrize("m, n, m_tile, n_tile, rows, cols", [
    (16, 64, 64, 64, 32, 64),   # stores a row block computed from never-written A rows
    (64, 16, 64, 64, 64, 32),   # stores a column block computed from never-written B columns
])
def test_storing_products_of_unwritten_tails_is_reported(binary, m, n, m_tile, n_tile, rows, cols):
    _launch(binary, m, 32, n, m_tile, n_tile, rows, cols)
    with pytest.raises(pyasc.PyascError) as info:
        pyasc.synchronize("sim")
    msg = str(info.value)
    assert "sanitizer check 'local-uninit-read' failed at " + marked_line(SRC, "stored-tail") in msg, msg
    assert "Fixpipe reads" in msg and "L0C" in msg and "the cube carries never-written data" in msg, msg
