"""float32 sums and means bring several chunks of a row into UB per DMA (kernels/reduce.cpp SumRow,
pyasc_kernels/reduce.py GROUP). Each 4096-element chunk is still reduced alone (ReduceSum's pairwise
tree) and the chunk sums are added in order from 0 in float32, so the result is pinned bit for bit
against the NumPy model of that order on awkward row lengths (partial last groups, partial last
chunks, rows shorter than a chunk), with the sanitizer on, and must equal the one-chunk-per-DMA
launch (GROUP = 1) bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

reduce_mod = pytest.importorskip("pyasc_kernels.reduce")
rt = pytest.importorskip("pyasc_kernels._runtime")

CHUNK = reduce_mod.CHUNK

#: row lengths around the chunk and group edges (GROUP = 4 chunks of 4096)
COLS = [1, 7, 63, 4095, 4096, 4097, 8200, 12287, 16384, 16385, 16391, 20480, 5 * 4096 + 17, 9 * 4096 - 3]


def pairwise(x: np.ndarray) -> np.float32:
    """ReduceSum's documented order: halve level by level, x[i] + x[i + h] in float32 (an odd last
    element carried up a level)."""
    t = np.asarray(x, dtype=np.float32)
    while t.size > 1:
        h = t.size // 2
        nxt = t[:h] + t[h:2 * h]
        t = np.concatenate([nxt, t[2 * h:]]) if t.size & 1 else nxt
    return t[0]


def row_sum(row: np.ndarray) -> np.float32:
    """reduce.cpp's sum of one row: 0 + the chunks' pairwise sums, in chunk order, in float32."""
    acc = np.float32(0)
    for c in range(0, row.size, CHUNK):
        acc = np.float32(acc + pairwise(row[c:c + CHUNK]))
    return acc


@pytest.fixture(autouse=True)
def _checks_on(monkeypatch):
    monkeypatch.setenv("PYASC_SIM_CHECKS", "1")


def _rows(cols: int, rows: int = 3, seed: int = 0) -> np.ndarray:
    x = np.random.default_rng(seed + cols).standard_normal((rows, cols)) * 50
    return x.astype(np.float32)


@pytest.mark.parametrize("cols", COLS)
def test_grouped_sum_and_mean_match_the_chunk_order_bit_for_bit(cols):
    x = _rows(cols)
    t = pyasc.tensor(x, device="sim")
    want = np.array([row_sum(r) for r in x], dtype=np.float32)
    got = pyasc.sum(t, axis=1).numpy()
    np.testing.assert_array_equal(got.view(np.uint32), want.view(np.uint32))
    mean = pyasc.mean(t, axis=1).numpy()
    np.testing.assert_array_equal(mean.view(np.uint32), (want / np.float32(cols)).astype(np.float32).view(np.uint32))
    np.testing.assert_allclose(got.astype(np.float64), x.astype(np.float64).sum(axis=1), rtol=1e-4,
                               atol=1e-3 * np.sqrt(cols))


@pytest.mark.parametrize("shape", [(5, 4 * 4096 + 1), (17, 3 * 4096 + 100), (1, 1 << 18), (2, 40000)])
def test_group_of_one_gives_the_same_bits(shape, monkeypatch):
    x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32) * 1e3
    x.flat[::997] = np.float32(3e30)  # large terms: any change in the order of the additions shows
    t = pyasc.tensor(x, device="sim")
    grouped = (pyasc.sum(t, axis=-1).numpy(), pyasc.sum(t).numpy(), pyasc.mean(t, axis=-1).numpy())
    monkeypatch.setattr(reduce_mod, "GROUP", 1)
    single = (pyasc.sum(t, axis=-1).numpy(), pyasc.sum(t).numpy(), pyasc.mean(t, axis=-1).numpy())
    for a, b in zip(grouped, single):
        np.testing.assert_array_equal(np.asarray(a).view(np.uint32), np.asarray(b).view(np.uint32))


def test_grouped_sum_propagates_nan_and_infinities():
    x = _rows(6 * 4096 + 5, rows=4, seed=3)
    x[0, 5 * 4096 + 2] = np.nan       # in the last, partial group
    x[1, 4096] = np.inf               # second chunk of the first group
    x[2, 1], x[2, 4 * 4096] = np.inf, -np.inf
    got = pyasc.sum(pyasc.tensor(x, device="sim"), axis=1).numpy()
    assert np.isnan(got[0]) and got[1] == np.inf and np.isnan(got[2])
    assert got[3].view(np.uint32) == row_sum(x[3]).view(np.uint32)


def test_the_tiling_asks_for_groups_only_for_float32_sums_and_means(monkeypatch):
    seen = []
    launch = rt.launch

    def spy(device, family, name, blocks, args, tiling):
        seen.append((name, tiling.group))
        return launch(device, family, name, blocks, args, tiling)

    monkeypatch.setattr(rt, "launch", spy)
    x = np.ones((2, 3 * 4096 + 1), dtype=np.float32)
    for dtype in ("float32", "float16"):
        t = pyasc.tensor(x.astype(dtype), device="sim")
        for op in (pyasc.sum, pyasc.mean, pyasc.max):
            op(t, axis=1).numpy()
    pyasc.sum(pyasc.tensor(np.ones((2, 100), dtype=np.float32), device="sim"), axis=1).numpy()
    assert seen == [("reduce_sum_float32", 4), ("reduce_mean_float32", 4), ("reduce_max_float32", 1),
                    ("reduce_sum_float16", 1), ("reduce_mean_float16", 1), ("reduce_max_float16", 1),
                    ("reduce_sum_float32", 1)]
