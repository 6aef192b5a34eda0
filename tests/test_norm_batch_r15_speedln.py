"""layer_norm / rms_norm on sim: the batched path (kernels/norm.cpp, KernelNorm::Batch) computes every
row alone, so its batch size (the host tiling's chunk, pyasc_kernels.nn.BATCH_CHUNK) must not change a
single bit of the result; round 15 raised it from 2048 to 4096 elements for speed (fewer checked
instructions per row) on that promise. Each case runs the kernel at batch chunks of 2048, 4096 and a
chunk that batches nothing (every row alone, KernelNorm::Row) and compares the bytes, then checks the
values against a float64 reference."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

nn = pytest.importorskip("pyasc_kernels.nn")

# rows of whole 32-byte blocks that a 2048 chunk batches 2 at a time or more, one that only 4096 batches,
# a row count that leaves a partial last batch, rows that are not whole blocks (never batched), and
# batches of many short rows (the denominators in groups of 8 rows, the weight / bias copies doubling
# to 96 rows: KernelNorm::Denominators, ReplicateAffine)
SHAPES = [(37, 1024), (9, 512), (5, 2048), (13, 96), (3, 1000), (300, 64)]
DTYPES = ["float32", "float16", "bfloat16"]


def _reference(x, w, b, eps, layer):
    x64 = x.astype(np.float64)
    if layer:
        x64 = x64 - x64.mean(axis=-1, keepdims=True)
    y = x64 / np.sqrt((x64 * x64).mean(axis=-1, keepdims=True) + eps)
    if w is not None:
        y = y * w.astype(np.float64)
    if b is not None:
        y = y + b.astype(np.float64)
    return y


def _run(monkeypatch, chunk, layer, x, w, b, eps):
    """The op at batch chunk `chunk` (None: no batching, every row through KernelNorm::Row), and the
    chunk its launch's tiling carried."""
    if chunk is None:
        monkeypatch.setattr(nn, "_batch_chunk", lambda cols, batch_chunk=None: nn._chunk(cols))
    else:
        monkeypatch.setattr(nn, "_batch_chunk", _BATCH_CHUNK)
        monkeypatch.setattr(nn, "BATCH_CHUNK", chunk)
    seen = []
    tiling = nn.tl.NormTiling

    def spy(**fields):
        seen.append(fields["chunk"])
        return tiling(**fields)

    monkeypatch.setattr(nn.tl, "NormTiling", spy)
    out = pyasc.layer_norm(x, w, b, eps=eps) if layer else pyasc.rms_norm(x, w, eps=eps)
    monkeypatch.setattr(nn.tl, "NormTiling", tiling)
    assert len(seen) == 1, "the launch did not go through pyasc_kernels.nn._norm"
    return out.numpy(), seen[0]


_BATCH_CHUNK = nn._batch_chunk


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("layer", [True, False], ids=["layer_norm", "rms_norm"])
def test_batch_size_leaves_bits_unchanged(monkeypatch, dtype, shape, layer):
    rng = np.random.default_rng(sum(shape) * 7 + len(dtype) + layer)
    host = [(rng.standard_normal(shape) * 3 + 0.5).astype(np.float32),
            rng.standard_normal(shape[-1]).astype(np.float32), rng.standard_normal(shape[-1]).astype(np.float32)]
    x, w, b = (pyasc.tensor(a, device="sim").to(getattr(pyasc, dtype)) for a in host)
    bias = b if layer else None
    eps = 1e-5
    runs = {chunk: _run(monkeypatch, chunk, layer, x, w, bias, eps) for chunk in (2048, 4096, None)}
    outs = {chunk: out for chunk, (out, _) in runs.items()}
    chunks = {chunk: used for chunk, (_, used) in runs.items()}
    cols = shape[-1]
    if cols % 16 == 0 and 2 * cols <= 2048:  # both batch, at different sizes
        assert chunks[2048] // cols != chunks[4096] // cols
    if cols % 16 == 0:
        assert chunks[None] // cols == 1  # one row at a time
    assert outs[2048].tobytes() == outs[4096].tobytes()
    assert outs[4096].tobytes() == outs[None].tobytes()
    xs, ws, bs = (a.numpy().astype(np.float64) for a in (x, w, b))
    expected = _reference(xs, ws, bs if layer else None, eps, layer)
    tol = {"float32": 1e-4, "float16": 1e-2, "bfloat16": 5e-2}[dtype]
    np.testing.assert_allclose(outs[4096].astype(np.float64), expected, rtol=tol, atol=tol)
