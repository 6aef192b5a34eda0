"""float32 layer_norm / rms_norm batches (round 16): the float layout of KernelNorm::Batch (three UB
chunks for x - mean, weight and bias; x stays in its VECIN buffer, the squares in the output buffer;
ReduceSum's documented minimum work space) lets the host give float rows a chunk 3/2 of
BATCH_CHUNK (six (., 1024) rows per batch instead of four). The launch must carry that chunk, run
clean with the sanitizer on (UB bounds, initcheck), and give the bytes the one-row path gives."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from row_batches import launch_rows

nn = pytest.importorskip("pyasc_kernels.nn")


def _launch(monkeypatch, layer, x, w, b, batched):
    def call():
        return pyasc.layer_norm(x, w, b, eps=1e-5) if layer else pyasc.rms_norm(x, w, eps=1e-5)

    return launch_rows(monkeypatch, nn, "NormTiling", call, batched)


# rows per core that leave a partial last batch of six; narrow rows (many per batch: the most
# reduction slots); rows of 2048 (three per batch)
@pytest.mark.parametrize("shape", [(61, 1024), (200, 64), (11, 2048), (50, 128)])
@pytest.mark.parametrize("layer", [True, False], ids=["layer_norm", "rms_norm"])
@pytest.mark.parametrize("affine", [True, False], ids=["affine", "plain"])
def test_float_batches_use_the_larger_chunk_and_keep_the_bits(monkeypatch, shape, layer, affine):
    monkeypatch.setenv("PYASC_SIM_CHECKS", "1")
    rng = np.random.default_rng(shape[0] * 31 + shape[1] + 2 * layer + affine)
    host = (rng.standard_normal(shape) * 2 - 0.25).astype(np.float32)
    x = pyasc.tensor(host, device="sim")
    w = pyasc.tensor(rng.standard_normal(shape[1]).astype(np.float32), device="sim") if affine else None
    b = pyasc.tensor(rng.standard_normal(shape[1]).astype(np.float32), device="sim") if affine and layer else None
    batched, chunk = _launch(monkeypatch, layer, x, w, b, batched=True)
    assert chunk == nn.BATCH_CHUNK * 3 // 2
    assert chunk // shape[1] > nn.BATCH_CHUNK // shape[1]  # more rows per batch than the 16-bit types get
    alone, chunk_alone = _launch(monkeypatch, layer, x, w, b, batched=False)
    assert chunk_alone // shape[1] <= 1
    assert batched.tobytes() == alone.tobytes()


def test_half_batches_keep_the_default_chunk(monkeypatch):
    x = pyasc.tensor(np.ones((8, 1024), dtype=np.float16), device="sim")
    _, chunk = _launch(monkeypatch, True, x, None, None, batched=True)
    assert chunk == nn.BATCH_CHUNK
