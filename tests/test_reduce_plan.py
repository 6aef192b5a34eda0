"""The reduction glue's launch plans (kernels/pyasc_kernels/reduce.py ``_plan``): a shape's launches
(segments, block split, tilings) are decided, packed and uploaded once; every level's output is
made before the first launch and the launches follow back to back. Results stay those of the
kernel order (pinned bit for bit in test_reduce_segments.py) on every call, on cache hits, with a
replaced block split (no plan is used then), and for empty reductions."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

reduce_mod = pytest.importorskip("pyasc_kernels.reduce")
rt = pytest.importorskip("pyasc_kernels._runtime")


@pytest.fixture
def uploads(monkeypatch):
    seen = []
    real = pyasc.tiling.upload

    def upload(data, device=None):
        seen.append(bytes(data))
        return real(data, device)

    monkeypatch.setattr(pyasc.tiling, "upload", upload)
    return seen


def _launches(monkeypatch):
    seen = []
    real = rt.launch

    def launch(device, family, name, blocks, args, tiling):
        seen.append((name, blocks, tiling.rows, tiling.cols))
        return real(device, family, name, blocks, args, tiling)

    monkeypatch.setattr(rt, "launch", launch)
    return seen


@pytest.mark.parametrize("n", [1 << 18, 3 * (1 << 17) + 8 * 7])
def test_a_repeated_shape_packs_and_uploads_its_tilings_once(n, uploads, monkeypatch):
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    t = pyasc.tensor(x, device="sim")
    first = pyasc.sum(t).numpy()
    after_first = len(uploads)
    launches = _launches(monkeypatch)
    for _ in range(4):
        assert pyasc.sum(t).numpy().view(np.uint32) == first.view(np.uint32)
    assert len(uploads) == after_first  # cache hits: no tiling packed or uploaded again
    parts = reduce_mod.segments_of(1, n, "sum", np.dtype(np.float32), rt.vector_cores(t._device))
    if parts > 1:  # the segments side by side, then their sum in one block
        per_call = [("reduce_sum_float32", launches[0][1], parts, n // parts), ("reduce_sum_float32", 1, 1, parts)]
    else:
        per_call = [("reduce_sum_float32", 1, 1, n)]
    assert launches == per_call * 4
    np.testing.assert_allclose(float(first), x.astype(np.float64).sum(), rtol=1e-4, atol=1e-2)


def test_each_shape_dtype_and_op_has_its_own_plan():
    x = np.random.default_rng(3).standard_normal((3, 1 << 17)).astype(np.float32)
    t = pyasc.tensor(x, device="sim")
    for _ in range(2):
        np.testing.assert_allclose(pyasc.sum(t, axis=1).numpy(), x.astype(np.float64).sum(axis=1), rtol=1e-4, atol=1e-2)
        np.testing.assert_allclose(pyasc.mean(t, axis=1).numpy(), x.astype(np.float64).mean(axis=1), rtol=1e-4,
                                   atol=1e-6)
        np.testing.assert_array_equal(pyasc.max(t, axis=1).numpy(), x.max(axis=1))
        np.testing.assert_array_equal(pyasc.min(t).numpy(), x.min())
        h = pyasc.tensor(x[:, :4096].astype(np.float16), device="sim")
        np.testing.assert_array_equal(pyasc.max(h, axis=0).numpy(), x[:, :4096].astype(np.float16).max(axis=0))


def test_a_replaced_block_split_is_used_on_every_call(monkeypatch):
    n = 1 << 18
    x = np.random.default_rng(5).standard_normal(n).astype(np.float32)
    t = pyasc.tensor(x, device="sim")
    want = pyasc.sum(t).numpy()  # the plan is cached now
    calls = []
    real = rt.split

    def split(total, align=rt.CORE_ALIGN, min_per_core=rt.MIN_PER_CORE, *, cores):
        calls.append(total)
        return real(total, align, min_per_core, cores=cores)

    monkeypatch.setattr(rt, "split", split)
    for _ in range(2):
        assert pyasc.sum(t).numpy().view(np.uint32) == want.view(np.uint32)
    assert len(calls) >= 4  # two levels per call: the cached plan did not skip the replacement


def test_empty_rows_and_columns():
    t = pyasc.tensor(np.zeros((0, 5), dtype=np.float32), device="sim")
    for _ in range(2):
        assert pyasc.sum(t, axis=1).numpy().shape == (0,)
        np.testing.assert_array_equal(pyasc.sum(t, axis=0).numpy(), np.zeros(5, np.float32))
