"""A row-batch idiom (round 28's batch-wide row kernels; measured and not kept, backends/sim/README.md "Round 28")
on the simulator's kernel API: per-64
WholeReduceMax (ORDER_ONLY_VALUE) / WholeReduceSum partials and a second level over each row's partials, Brcb,
and a Level-0 Sub / Mul whose repeats are column blocks of 8 rows against the Brcb blocks (repeat stride 0). The
engines take these forms on fast paths (one contiguous run per repeat; a row broadcast run per column block):
the values must be the documented ones (atlasascendc_api_07_0079 WholeReduceMax: the first extreme of each
repeat, so a NaN only when first; WholeReduceSum: the simulator's pairwise sum per repeat; Brcb 0089; the
Level-0 address model, BinaryRepeatParams 0013), NaN / infinity / signed-zero rows included, with every check
on and nothing reported."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load
from test_sim_kernel_api import _pairwise_f32  # the simulator's pairwise order (ReduceSum, a WholeReduceSum repeat)

COLS = 1024


@pytest.fixture(scope="module")
def row_batch():
    return load("row_batch.cpp")


def _first_extreme(v: np.ndarray) -> np.float32:
    """A repeat's maximum as the documented scan finds it: the first element, replaced only by a greater one."""
    best = v[0]
    for e in v[1:]:
        if e > best:
            best = e
    return best


@pytest.mark.parametrize("rows", [8, 5, 1])
def test_row_batch_reductions_and_broadcasts(monkeypatch, row_batch, rows):
    monkeypatch.setenv("PYASC_SIM_CHECKS", "1")
    rng = np.random.default_rng(rows)
    x = (rng.standard_normal((8, COLS)) * 3).astype(np.float32)
    x[0, 0] = np.nan                    # first element NaN: that repeat and the row's maximum are NaN
    if rows > 1:
        x[1, 70] = np.nan                # inside a repeat: ignored
        x[2, 64] = np.nan                # first of repeat 1: that partial is NaN, the row's maximum ignores it
        x[3, :] = -0.0                   # zeros: the first one's sign
        x[3, 500] = 0.0
        x[4, 9] = np.inf
    if rows > 5:
        x[5, :] = -1.0                   # a repeat whose maximum is a zero of each sign: the first one's
        x[5, 12] = -0.0
        x[5, 20] = 0.0
        x[5, 64 + 12] = 0.0
        x[5, 64 + 20] = -0.0
    out_parts = pyasc.full((264,), -1, dtype="float32", device="sim")
    out_y = pyasc.full((2 * 8 * COLS,), -1, dtype="float32", device="sim")
    pyasc_acl.launch(row_batch.function("row_batch_kernel"), 1,
                     (pyasc.tensor(x, device="sim"), out_parts, out_y, rows))
    parts, y = out_parts.numpy(), out_y.numpy()
    reps = x[:rows].reshape(rows * COLS // 64, 64)
    want_max = np.array([_first_extreme(r) for r in reps], dtype=np.float32)
    assert parts[: len(reps)].tobytes() == want_max.tobytes()
    want_sum = np.array([_pairwise_f32(r) for r in reps], dtype=np.float32)
    assert parts[128: 128 + len(reps)].tobytes() == want_sum.tobytes()
    row_max = np.array([_first_extreme(p) for p in want_max.reshape(rows, 16)], dtype=np.float32)
    assert parts[256: 256 + rows].tobytes() == row_max.tobytes()
    if rows > 1:
        assert np.isnan(row_max[0]) and row_max[1] == np.nanmax(x[1]) and row_max[2] == np.nanmax(x[2])
        assert np.signbit(row_max[3]) and row_max[4] == np.inf
    if rows > 5:
        assert np.signbit(want_max[5 * 16]) and not np.signbit(want_max[5 * 16 + 1])
    sub, mul = y[: 8 * COLS].reshape(8, COLS), y[8 * COLS:].reshape(8, COLS)
    assert sub[:rows].tobytes() == (x[:rows] - row_max[:, None]).tobytes()
    assert mul[:rows].tobytes() == (x[:rows] * row_max[:, None]).tobytes()
    # rows past the mask untouched: -7 from the Duplicate, x from the copy the in-place Mul starts from
    assert (sub[rows:] == -7).all() and mul[rows:].tobytes() == x[rows:].tobytes()


# ---- the row kernels at the widths the idiom takes (kernels/softmax.cpp, kernels/norm.cpp) ------------

nn = pytest.importorskip("pyasc_kernels.nn")


def _ops(x, w):
    return {
        "softmax": ("SoftmaxTiling", lambda: pyasc.softmax(x, -1)),
        "log_softmax": ("SoftmaxTiling", lambda: pyasc.log_softmax(x, -1)),
        "layer_norm": ("NormTiling", lambda: pyasc.layer_norm(x, w, w, eps=1e-5)),
        "layer_norm_plain": ("NormTiling", lambda: pyasc.layer_norm(x, None, None, eps=1e-5)),
        "rms_norm": ("NormTiling", lambda: pyasc.rms_norm(x, w, eps=1e-5)),
    }


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("cols", [512, 1024, 1536])
def test_row_kernels_batches_match_one_row_path(monkeypatch, dtype, cols):
    """Widths a batch-wide row path would take (round 28 measured one and did not keep it: backends/sim/README.md
    "Round 28"): a batch and the one-row path give the same bytes (NaN signs included), NaN where the reference
    has NaN (NaN / infinity rows), the other values within the reference's tolerance."""
    from row_batches import launch_rows

    monkeypatch.setenv("PYASC_SIM_CHECKS", "1")
    rng = np.random.default_rng(cols)
    host = (rng.standard_normal((19, cols)) * 4 - 0.5).astype(np.float32)
    host[0, 3] = np.nan
    host[1, :] = -0.0
    host[2, 5] = np.inf
    host[3, :] = -np.inf
    host[5, 0] = np.nan
    host[6, 64] = np.nan
    host[8, 0] = np.inf
    x = pyasc.tensor(host, device="sim").to(getattr(pyasc, dtype))
    w = pyasc.tensor(rng.standard_normal(cols).astype(np.float32), device="sim").to(getattr(pyasc, dtype))
    xs = x.to(pyasc.float32).numpy().astype(np.float64)
    for name, (tiling, call) in _ops(x, w).items():
        batched, chunk = launch_rows(monkeypatch, nn, tiling, call, batched=True)
        alone, chunk_alone = launch_rows(monkeypatch, nn, tiling, call, batched=False)
        assert chunk // cols > 1 and chunk_alone // cols == 1
        assert batched.tobytes() == alone.tobytes(), name
        got = batched.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            if name.endswith("softmax"):
                m = xs.max(axis=1, keepdims=True)
                ref = np.log(np.exp(xs - m).sum(axis=1, keepdims=True))
                ref = (xs - m) - ref if name == "log_softmax" else np.exp(xs - m) / np.exp(xs - m).sum(1, keepdims=True)
            else:
                c = xs - xs.mean(axis=1, keepdims=True) if name.startswith("layer") else xs
                ref = c / np.sqrt((c * c).mean(axis=1, keepdims=True) + 1e-5)
                wf = w.to(pyasc.float32).numpy().astype(np.float64)
                ref = ref if name == "layer_norm_plain" else ref * wf + (wf if name == "layer_norm" else 0)
        tol = 1e-4 if dtype == "float32" else 1e-2
        # NaN exactly where the reference has NaN (NaN / infinity rows), the rest within tolerance
        np.testing.assert_allclose(got, ref, rtol=tol, atol=tol, equal_nan=True, err_msg=name)
