"""TopK with the Atlas 350 configuration template argument (TopKConfig{TopKAlgo::RADIX_SELECT, order, sorted}), as
public retrieval kernels (IndexSDK's ivfpq search) call it: order SMALLEST overrides isLargest, UNSET follows it;
RADIX_SELECT rows may be longer than MERGE_SORT's 4096 elements. Our own kernel in that style
(kernels/compat/topk_radix_config.cpp), compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat/topk_radix_config.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")


def _launch(fn, args):
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, args)
    pyasc.synchronize("sim")


@pytest.mark.parametrize("rows, inner, k", [(2, 8192, 16), (3, 96, 5)])
def test_smallest_sorted_with_input_indices(binary, rows, inner, k):
    rng = np.random.default_rng(inner)
    x = rng.permutation(rows * inner).astype(np.float32).reshape(rows, inner)  # distinct values: one answer
    labels = (rng.permutation(inner) + 1000).astype(np.int32)
    kpad = (k + 7) // 8 * 8
    vals = pyasc.zeros((rows * kpad,), dtype="float32", device="sim")
    idxs = pyasc.zeros((rows * kpad,), dtype="int32", device="sim")
    _launch(binary.function("topk_radix_smallest"),
            (pyasc.tensor(x, device="sim"), pyasc.tensor(labels, device="sim"), vals, idxs, np.uint32(rows),
             np.uint32(inner), np.uint32(k)))
    order = np.argsort(x, axis=1)[:, :k]
    np.testing.assert_array_equal(vals.numpy().reshape(rows, kpad)[:, :k], np.take_along_axis(x, order, 1))
    np.testing.assert_array_equal(idxs.numpy().reshape(rows, kpad)[:, :k], labels[order])


@pytest.mark.parametrize("rows, inner, k", [(1, 5120, 32), (4, 64, 3)])
def test_unset_order_follows_is_largest(binary, rows, inner, k):
    rng = np.random.default_rng(k)
    x = rng.standard_normal((rows, inner)).astype(np.float32)
    kpad = (k + 7) // 8 * 8
    vals = pyasc.zeros((rows * kpad,), dtype="float32", device="sim")
    idxs = pyasc.zeros((rows * kpad,), dtype="int32", device="sim")
    _launch(binary.function("topk_radix_largest"),
            (pyasc.tensor(x, device="sim"), vals, idxs, np.uint32(rows), np.uint32(inner), np.uint32(k)))
    got_v = vals.numpy().reshape(rows, kpad)[:, :k]
    got_i = idxs.numpy().reshape(rows, kpad)[:, :k]
    for r in range(rows):  # unsorted: the k largest in any order, each index pointing at its value
        assert set(got_i[r].tolist()) == set(np.argsort(-x[r])[:k].tolist())
        np.testing.assert_array_equal(got_v[r], x[r, got_i[r]])
