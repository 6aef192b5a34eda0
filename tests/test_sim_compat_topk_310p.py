"""TopK on the Atlas inference series (COMPAT.md, round 6): the reference documents one difference
for that family (TopK page, atlasascendc_api_07_0836.html, constraints): with half scores the
indices travel in half region proposals, so topKInfo.inner may not exceed 2048 (isInitIndex false)
and srcIndexLocal values may not exceed 2048 (isInitIndex true). The output layout (k_pad /
kpad_index rows) is the same as on the A2. Built with soc="Ascend310P3" the simulator's TopK matches
NumPy within the bound and reports the bound past it; built for Ascend910B1 the same call runs.
Kernels: backends/sim/kernel_api/tests/kernels/compat/topk_310p.cpp (ours, in the public style)."""
from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim

from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "topk_310p.cpp"
ROWS = 2


@pytest.fixture(scope="module")
def k310p():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend310P3"), device="sim")


@pytest.fixture(scope="module")
def k910b():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend910B1"), device="sim")


def _run(binary, name, x, src_idx, inner, n, k, largest):
    kpad, kpad_idx = (k + 15) // 16 * 16, (k + 7) // 8 * 8
    values = pyasc.zeros((ROWS * kpad,), dtype="float16", device="sim")
    indices = pyasc.zeros((ROWS * kpad_idx,), dtype="int32", device="sim")
    xs = pyasc.tensor(x.ravel(), device="sim")
    idx = pyasc.tensor(src_idx, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function(name), 1, (xs, idx, values, indices, inner, n, k, largest))
    pyasc.synchronize("sim")
    return values.numpy().reshape(ROWS, kpad)[:, :k], indices.numpy().reshape(ROWS, kpad_idx)[:, :k]


def _rows(inner, n, largest, seed):
    rng = np.random.default_rng(seed)
    # distinct values (a permutation) so the order does not depend on ties
    x = np.stack([rng.permutation(inner).astype(np.float16) * np.float16(0.25) - np.float16(200)
                  for _ in range(ROWS)])
    x[:, n:] = -np.inf if largest else np.inf  # the reference's padding: never picked
    return x


@pytest.mark.parametrize("inner,n,k,largest", [(64, 60, 5, 1), (96, 96, 17, 0), (2048, 2000, 32, 1)])
def test_topk_half_on_310p_matches_numpy(k310p, inner, n, k, largest):
    x = _rows(inner, n, largest, seed=inner + k)
    vals, idx = _run(k310p, "topk_half_rows", x, np.zeros(inner, np.int32), inner, n, k, largest)
    for r in range(ROWS):
        row = x[r, :n].astype(np.float64)
        order = np.argsort(-row if largest else row, kind="stable")[:k]
        np.testing.assert_array_equal(vals[r], x[r, order])
        np.testing.assert_array_equal(idx[r], order)


def test_topk_half_with_src_index_on_310p_matches_numpy(k310p):
    inner, n, k = 128, 128, 9
    x = _rows(inner, n, 1, seed=11)
    src_idx = (np.arange(inner, dtype=np.int32) * 3 + 1000)  # user indices up to 1381 <= 2048
    vals, idx = _run(k310p, "topk_half_rows_idx", x, src_idx, inner, n, k, 1)
    for r in range(ROWS):
        order = np.argsort(-x[r].astype(np.float64), kind="stable")[:k]
        np.testing.assert_array_equal(vals[r], x[r, order])
        np.testing.assert_array_equal(idx[r], src_idx[order])


def test_topk_half_inner_past_2048_is_reported_on_310p_and_runs_on_910b(k310p, k910b):
    inner, n, k = 2080, 2080, 4
    x = _rows(inner, n, 1, seed=2)
    with pytest.raises(pyasc_acl.AclKernelError, match=r"TopK<half> on the Atlas inference series.*inner 2080 > 2048"):
        _run(k310p, "topk_half_rows", x, np.zeros(inner, np.int32), inner, n, k, 1)
    vals, idx = _run(k910b, "topk_half_rows", x, np.zeros(inner, np.int32), inner, n, k, 1)
    order = np.argsort(-x[0].astype(np.float64), kind="stable")[:k]
    np.testing.assert_array_equal(idx[0], order)
    np.testing.assert_array_equal(vals[0], x[0, order])


def test_topk_half_src_index_past_2048_is_reported_on_310p(k310p):
    inner, n, k = 64, 64, 3
    x = _rows(inner, n, 1, seed=5)
    src_idx = np.arange(inner, dtype=np.int32) + 2000  # 2049.. past the bound
    with pytest.raises(pyasc_acl.AclKernelError, match=r"srcIndexLocal\[49\] = 2049 > 2048"):
        _run(k310p, "topk_half_rows_idx", x, src_idx, inner, n, k, 1)
