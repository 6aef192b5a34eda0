"""LoadDataWithTranspose carries never-written L1 fractals as the 2D LoadData does (COMPAT.md, round 26 s26b).

Round 21 (s21g) made the cube path carry "never written": a 2D LoadData of an L1 fractal no instruction wrote
leaves its L0A / L0B fractal unwritten, an Mmad product of one leaves its L0C fractal unwritten, and the error
`local-uninit-read` is raised where such data leaves the cube (Fixpipe), because cube kernels legally move and
multiply whole tiles whose unused parts were never loaded and then store only the valid products.
LoadDataWithTranspose still reported the never-written source at once, so kda-ascendc's k1_fixpipe_shape_probe
(a partial last block that transposes all four slots and stores two) stopped on a read whose result is never
stored.  Now it carries the taint the same way.

Our kernel in that idiom: backends/sim/kernel_api/tests/kernels/compat/transpose_load_taint_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from ascendc_kernels import launch_failing, launch_synced, load, marked_line

SRC = "compat/transpose_load_taint_idioms.cpp"


@pytest.fixture(scope="module")
def fn():
    return load(SRC).function("partial_slots_transposing_load")


def operands(seed: int):
    rng = np.random.default_rng(seed)
    a = (rng.integers(-8, 9, (16, 16)) / 8).astype(np.float16)
    v = (rng.integers(-8, 9, (4, 16, 16)) / 8).astype(np.float16)
    return a, v


@pytest.mark.parametrize("nload,nstore", [(4, 4), (2, 2), (1, 1), (3, 2)])
def test_unloaded_slots_are_carried_and_the_stored_products_are_right(fn, nload, nstore):
    a, v = operands(nload * 10 + nstore)
    y = pyasc.tensor(np.full(4 * 256, -7, np.float32), device="sim")
    launch_synced(fn, 1, (pyasc.tensor(a.ravel(), device="sim"), pyasc.tensor(v.ravel(), device="sim"), y, nload, nstore))
    got = y.numpy().reshape(4, 16, 16)
    want = np.einsum("ij,sjk->sik", a.astype(np.float32), v.astype(np.float32))  # exact: small dyadic values
    np.testing.assert_array_equal(got[:nstore], want[:nstore])
    assert (got[nstore:] == -7).all()  # the slots not stored stay as they were


def test_storing_a_product_of_an_unloaded_slot_is_reported_at_the_fixpipe(fn):
    a, v = operands(3)
    y = pyasc.zeros((4 * 256,), dtype="float32", device="sim")
    msg = launch_failing(fn, 1, (pyasc.tensor(a.ravel(), device="sim"), pyasc.tensor(v.ravel(), device="sim"), y, 2, 3))
    assert "local-uninit-read" in msg and marked_line(SRC, "store-slot") in msg, msg
    assert "the cube carries never-written data" in msg, msg
