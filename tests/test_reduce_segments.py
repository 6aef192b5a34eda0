"""The reduction kernel's split of a few long rows (kernels/pyasc_kernels/reduce.py): each row cut
into equal segments that every core reduces side by side, then a second launch over the segments'
results. The result is pinned bit for bit against a NumPy model of the kernel's order: per segment,
the pairwise float32 tree of each 4096-element chunk (ReduceSum), the chunk sums added in order from
0 in float32; the segment sums then reduced the same way."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

reduce_mod = pytest.importorskip("pyasc_kernels.reduce")
rt = pytest.importorskip("pyasc_kernels._runtime")

CHUNK = 4096


def pairwise(x: np.ndarray) -> np.float32:
    """ReduceSum's documented order: halve level by level, x[i] + x[i + h] in float32."""
    t = np.asarray(x, dtype=np.float32)
    while t.size > 1:
        h = t.size // 2
        nxt = t[:h] + t[h:2 * h]
        t = np.concatenate([nxt, t[2 * h:]]) if t.size & 1 else nxt
    return t[0]


def row_sum(row: np.ndarray) -> np.float32:
    """reduce.cpp's sum of one row: 0 + the chunks' pairwise sums, in order, in float32."""
    acc = np.float32(0)
    for c in range(0, row.size, CHUNK):
        acc = np.float32(acc + pairwise(row[c:c + CHUNK]))
    return acc


def cores() -> int:
    return rt.vector_cores(pyasc.empty((1,), device="sim")._device)


def test_long_rows_are_cut_into_segments_for_every_core():
    assert reduce_mod.segments_of(1, 1 << 24, "sum", np.dtype(np.float32), 40) == 64  # 2^24 / 40 -> 64 x 256 Ki
    assert reduce_mod.segments_of(1, 3 * (1 << 17), "max", np.dtype(np.float16), 8) == 6  # the most that keep 64 Ki
    assert reduce_mod.segments_of(1, 1000003, "sum", np.dtype(np.float32), 40) == 1  # prime: no equal cut
    assert reduce_mod.segments_of(1, 1 << 20, "sum", np.dtype(np.float16), 40) == 1  # 16-bit sums stay whole
    assert reduce_mod.segments_of(64, 1 << 20, "sum", np.dtype(np.float32), 40) == 1  # rows spread already
    assert reduce_mod.segments_of(1, 1 << 16, "sum", np.dtype(np.float32), 40) == 1  # too short to cut


@pytest.mark.parametrize("n", [1 << 18, 3 * (1 << 17), 1 << 20])
def test_segmented_sum_matches_the_kernel_order_bit_for_bit(n):
    x = (np.random.default_rng(n).standard_normal(n) * 100).astype(np.float32)
    parts = reduce_mod.segments_of(1, n, "sum", np.dtype(np.float32), cores())
    assert parts > 1
    seg = x.reshape(parts, n // parts)
    want = row_sum(np.array([row_sum(s) for s in seg], dtype=np.float32))
    got = pyasc.sum(pyasc.tensor(x, device="sim")).numpy()
    assert got.view(np.uint32) == want.view(np.uint32)
    assert abs(float(got) - float(x.astype(np.float64).sum())) <= 1e-3 * np.abs(x).sum() / np.sqrt(n)


def test_segmented_max_min_mean_and_nan():
    n = 1 << 18
    x = np.random.default_rng(1).standard_normal(n).astype(np.float32)
    t = pyasc.tensor(x, device="sim")
    assert pyasc.max(t).numpy() == x.max() and pyasc.min(t).numpy() == x.min()
    np.testing.assert_allclose(pyasc.mean(t).numpy(), x.astype(np.float64).mean(), rtol=1e-5, atol=1e-7)
    x[n - 5] = np.nan  # in the last segment
    t = pyasc.tensor(x, device="sim")
    assert np.isnan(pyasc.max(t).numpy()) and np.isnan(pyasc.min(t).numpy()) and np.isnan(pyasc.sum(t).numpy())
    h = np.random.default_rng(2).standard_normal((2, 3 * (1 << 17))).astype(np.float16)  # 2 rows, 16-bit max
    np.testing.assert_array_equal(pyasc.max(pyasc.tensor(h, device="sim"), axis=1).numpy(), h.max(axis=1))
