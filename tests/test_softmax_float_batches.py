"""float32 softmax batches in two UB buffers (kernels/softmax.cpp BatchInOutput): x stays in its VECIN
buffer, x - max, its exp and e * (1 / sum) are computed in the output buffer, so the host gives them
FLOAT_SOFTMAX_BATCH_CHUNK (eight (., 1024) rows per batch instead of four). The launch must carry
that chunk, run clean with the sanitizer on (UB capacity and bounds, initcheck, pipe races), and give
the bytes the one-row path gives; log_softmax and 16-bit softmax keep their chunk."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from row_batches import launch_rows

nn = pytest.importorskip("pyasc_kernels.nn")


def _launch(monkeypatch, name, x, batched):
    return launch_rows(monkeypatch, nn, "SoftmaxTiling", lambda: getattr(pyasc, name)(x, -1), batched)


# a partial last batch of eight; narrow rows (many per batch: the most reduction slots); rows of
# 4096 (two per batch: the widest rows the batch takes); NaN, infinities and -0 rows
@pytest.mark.parametrize("shape", [(61, 1024), (300, 80), (5, 4096), (40, 48)])
def test_float_batches_use_the_larger_chunk_and_keep_the_bits(monkeypatch, shape):
    monkeypatch.setenv("PYASC_SIM_CHECKS", "1")
    rng = np.random.default_rng(shape[0] * 31 + shape[1])
    host = (rng.standard_normal(shape) * 4 - 0.5).astype(np.float32)
    if shape == (40, 48):
        host[0, 3] = np.nan
        host[1, :] = -0.0
        host[2, 5] = np.inf
        host[3, :] = -np.inf
        host[4, 7] = -np.inf
    x = pyasc.tensor(host, device="sim")
    batched, chunk = _launch(monkeypatch, "softmax", x, batched=True)
    assert chunk == nn.FLOAT_SOFTMAX_BATCH_CHUNK
    assert chunk // shape[1] > nn.SOFTMAX_BATCH_CHUNK // shape[1]  # more rows per batch than before
    alone, chunk_alone = _launch(monkeypatch, "softmax", x, batched=False)
    assert chunk_alone // shape[1] <= 1
    assert batched.tobytes() == alone.tobytes()
    finite = np.isfinite(host).all(axis=1)
    ref = np.exp(host[finite] - host[finite].max(axis=1, keepdims=True))
    np.testing.assert_allclose(batched[finite], ref / ref.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("name,dtype", [("log_softmax", np.float32), ("softmax", np.float16)])
def test_other_softmax_batches_keep_the_default_chunk(monkeypatch, name, dtype):
    x = pyasc.tensor(np.ones((8, 1024), dtype=dtype), device="sim")
    out, chunk = _launch(monkeypatch, name, x, batched=True)
    assert chunk == nn.SOFTMAX_BATCH_CHUNK
    expect = np.full((8, 1024), -np.log(1024.0) if name == "log_softmax" else 1.0 / 1024)
    np.testing.assert_allclose(out.astype(np.float64), expect, rtol=2e-3)
