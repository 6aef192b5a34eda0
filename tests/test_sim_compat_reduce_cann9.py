"""The CANN 9 ReduceType reductions (ReduceDataBlock, ReduceRepeat, ReducePairElem), documented for
Atlas A2 and the Atlas inference series, on the simulator against NumPy (issue 8 point 6).
Kernels: backends/sim/kernel_api/tests/kernels/compat/reduce_cann9_idioms.cpp (ours, in the public style)."""
from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim

from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "reduce_cann9_idioms.cpp"
N, REP = 256, 64
FILL = -9.0


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def _run(kernels, x, which, mask):
    y = pyasc.full((N,), FILL, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("reduce9"), 1, (pyasc.tensor(x, device="sim"), y, which, mask))
    pyasc.synchronize("sim")
    return y.numpy()


@pytest.fixture(scope="module")
def x():
    return np.random.default_rng(12).permutation(N).astype(np.float32) - 100.0


@pytest.mark.parametrize("which,op", [(0, np.sum), (1, np.max), (2, np.min)])
@pytest.mark.parametrize("mask", [64, 40])
def test_reduce_data_block_reduces_each_masked_block(kernels, x, which, op, mask):
    got = _run(kernels, x, which, mask)
    rows = x.reshape(4, 8, 8)  # repeat, block, lane
    want = np.full(N, FILL, dtype=np.float32)
    for r in range(4):
        for b in range(8):
            lanes = [i for i in range(8) if b * 8 + i < mask]
            if lanes:  # a block with no active lane keeps its dst value (A2)
                want[r * 8 + b] = op(rows[r, b, lanes])
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_reduce_repeat_sum_and_max_value_index(kernels, x):
    rows = x.reshape(4, REP)
    got = _run(kernels, x, 3, 48)
    np.testing.assert_allclose(got[:4], rows[:, :48].sum(axis=1), rtol=1e-5)
    got = _run(kernels, x, 4, 48)
    vals, idx = got[0:8:2], got[1:8:2].view(np.uint32)
    np.testing.assert_array_equal(vals, rows[:, :48].max(axis=1))
    np.testing.assert_array_equal(idx, rows[:, :48].argmax(axis=1))


def test_reduce_repeat_min_index_value_order_with_a_bit_mask(kernels, x):
    rows = x.reshape(4, REP)
    got = _run(kernels, x, 5, 33)
    idx, vals = got[0:8:2].view(np.uint32), got[1:8:2]
    np.testing.assert_array_equal(vals, rows[:, :33].min(axis=1))
    np.testing.assert_array_equal(idx, rows[:, :33].argmin(axis=1))


def test_reduce_pair_elem_sums_adjacent_pairs(kernels, x):
    got = _run(kernels, x, 6, 64)
    want = x.reshape(-1, 2).sum(axis=1)
    np.testing.assert_allclose(got[:128], want, rtol=1e-6)
    np.testing.assert_array_equal(got[128:], FILL)


def test_mask_zero_is_a_nop_on_atlas_a2(kernels, x):
    np.testing.assert_array_equal(_run(kernels, x, 3, 0), FILL)
