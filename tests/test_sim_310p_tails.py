"""The built-in kernels built for the Atlas inference series (Ascend310P3), which has no DataCopyPad:
unaligned lengths move as whole 32-byte blocks (kernels/kernel_common.h CopyIn / CopyOut), with
bit-identical results to the Atlas A2 build (DataCopyPad) and to NumPy, and no sanitizer report
(bounds, initcheck, pipe and cross-core races run on every launch here)."""

from __future__ import annotations

import pathlib
import shutil
from typing import Any, Callable

import numpy as np
import pytest

import pyasc

pytest.importorskip("pyasc_kernels")
pyasc_sim = pytest.importorskip("pyasc_sim")

from pyasc_kernels import _runtime as rt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[1] / "kernels"
FAMILIES = ("binary", "unary", "reduce", "softmax", "norm", "matmul", "copy", "cast")
LENGTHS = (1, 7, 8, 33, 1000, 4099)


@pytest.fixture(scope="module")
def p310_dir(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    """The families above compiled for Ascend310P3, laid out as an installed kernel directory."""
    d = tmp_path_factory.mktemp("k310p")
    for fam in FAMILIES:
        shutil.copy(pyasc_sim.compile(ROOT / f"{fam}.cpp", soc="Ascend310P3"), d / rt.binary_name("sim", fam))
    return d


def _run(kdir: pathlib.Path | None, fn: Callable[[], np.ndarray], monkeypatch: pytest.MonkeyPatch) -> np.ndarray:
    """fn() with the built-in kernels loaded from kdir (None: the installed Atlas A2 build)."""
    with monkeypatch.context() as m:
        if kdir is not None:
            m.setattr(rt, "kernel_dir_candidates", lambda: [str(kdir)])
        rt.KERNELS.clear()
        try:
            out = fn()
            pyasc.synchronize("sim")
        finally:
            rt.KERNELS.clear()
    return out


def _same_bits(a: np.ndarray, b: np.ndarray) -> None:
    assert a.dtype == b.dtype and a.shape == b.shape
    np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))


def _sim(a: np.ndarray) -> Any:
    t = pyasc.tensor(a, device="sim")
    pyasc.synchronize("sim")
    return t


def _cases(n: int, dtype: str) -> dict[str, tuple[Callable[[], np.ndarray], np.ndarray, float]]:
    """name -> (sim computation, NumPy result, relative tolerance against NumPy)."""
    rng = np.random.default_rng(n)
    a = rng.standard_normal(n).astype(dtype)
    b = rng.standard_normal(n).astype(dtype)
    rows = rng.standard_normal((3, n)).astype(dtype)
    f = rows.astype(np.float32)
    sm = np.exp(f - f.max(-1, keepdims=True))
    tol = 1e-6 if dtype == "float32" else 2e-3
    return {
        "add": (lambda: (_sim(a) + _sim(b)).numpy(), a + b, 0.0),
        "exp": (lambda: pyasc.exp(_sim(a)).numpy(), np.exp(a), tol),
        "sum": (lambda: _sim(rows).sum(axis=-1).numpy(), f.sum(-1).astype(dtype), max(tol, 1e-5) * 50),
        "softmax": (lambda: _sim(rows).softmax(axis=-1).numpy(), (sm / sm.sum(-1, keepdims=True)).astype(dtype),
                    tol * 10),
        "copy": (lambda: _sim(rows)[:, 1:].contiguous().numpy(), rows[:, 1:], 0.0),
        "cast": (lambda: _sim(a).astype("float16").numpy(), a.astype(np.float16), 0.0),
    }


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("n", LENGTHS)
def test_unaligned_lengths_on_310p_match_a2_and_numpy(p310_dir, monkeypatch, n: int, dtype: str) -> None:
    for name, (fn, want, tol) in _cases(n, dtype).items():
        a2 = _run(None, fn, monkeypatch)
        p310 = _run(p310_dir, fn, monkeypatch)
        _same_bits(p310, a2)
        np.testing.assert_allclose(p310.astype(np.float64), want.astype(np.float64), rtol=tol, atol=tol,
                                   err_msg=f"{name} n={n} {dtype}")


@pytest.mark.parametrize("m, k, n", [(3, 5, 7), (2, 9, 33), (5, 3, 1)])
def test_matmul_with_unaligned_rows_on_310p(p310_dir, monkeypatch, m: int, k: int, n: int) -> None:
    # int32 takes matmul's vector path, the one the Ascend310P build has (its cube entries exist
    # only where __CCE_AICORE__ == 220: Fixpipe and float / bfloat16 Mmad are not on the 310P AI Core)
    rng = np.random.default_rng(m * 100 + n)
    x = rng.integers(-50, 50, (m, k)).astype(np.int32)
    y = rng.integers(-50, 50, (k, n)).astype(np.int32)
    fn = lambda: (_sim(x) @ _sim(y)).numpy()  # noqa: E731
    p310 = _run(p310_dir, fn, monkeypatch)
    _same_bits(p310, _run(None, fn, monkeypatch))
    _same_bits(p310, x @ y)


def test_layer_norm_rows_of_unaligned_width_on_310p(p310_dir, monkeypatch) -> None:
    x = np.random.default_rng(5).standard_normal((4, 37)).astype(np.float32)
    fn = lambda: pyasc.layer_norm(_sim(x)).numpy()  # noqa: E731
    _same_bits(_run(p310_dir, fn, monkeypatch), _run(None, fn, monkeypatch))


@pytest.mark.parametrize("dtype", ["float32", "float16", "int64"])
@pytest.mark.parametrize("shape", [(7, 5), (33, 40), (100, 3), (9, 1000)])
def test_transposes_on_310p(p310_dir, monkeypatch, dtype: str, shape: tuple[int, int]) -> None:
    # copy.cpp's tiled transpose moves its runs one at a time through CopyIn / CopyOut there
    a = np.arange(shape[0] * shape[1]).reshape(shape).astype(dtype)
    fn = lambda: _sim(a).T.contiguous().numpy()  # noqa: E731
    p310 = _run(p310_dir, fn, monkeypatch)
    _same_bits(p310, _run(None, fn, monkeypatch))
    _same_bits(p310, np.ascontiguousarray(a.T))


@pytest.mark.parametrize("dtype", ["int8", "int16", "int32"])
@pytest.mark.parametrize("n", LENGTHS)
def test_integer_tails_on_310p(p310_dir, monkeypatch, dtype: str, n: int) -> None:
    # 1-byte elements: 32 per block; int8 add runs the int16 kernel and casts back
    rng = np.random.default_rng(n)
    a = rng.integers(-100, 100, (2, n)).astype(dtype)
    b = rng.integers(-100, 100, (2, n)).astype(dtype)
    for fn, want in ((lambda: (_sim(a) + _sim(b)).numpy(), a + b),
                     (lambda: _sim(a)[:, 1:].contiguous().numpy(), a[:, 1:])):
        p310 = _run(p310_dir, fn, monkeypatch)
        _same_bits(p310, _run(None, fn, monkeypatch))
        _same_bits(p310, np.ascontiguousarray(want))


def test_multi_core_tails_on_310p(p310_dir, monkeypatch) -> None:
    # several cores: the tail (whole-block overlap or scalar) is the last share's, inside its range,
    # so the cross-core race check stays quiet; narrow rows (< one block) are split over cores too
    blocks: list[int] = []
    launch = rt.launch

    def record(device, family, name, num_blocks, args, tiling):
        blocks.append(num_blocks)
        launch(device, family, name, num_blocks, args, tiling)

    monkeypatch.setattr(rt, "launch", record)
    rng = np.random.default_rng(3)
    n = 3 * rt.MIN_PER_CORE + 5
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    rows = rng.standard_normal((4096, 7)).astype(np.float32)
    for fn in (lambda: (_sim(a) + _sim(b)).numpy(), lambda: _sim(a).astype("float16").numpy(),
               lambda: _sim(rows).softmax(axis=-1).numpy(), lambda: _sim(rows).sum(axis=-1).numpy()):
        blocks.clear()
        p310 = _run(p310_dir, fn, monkeypatch)
        assert max(blocks) > 1, blocks
        _same_bits(p310, _run(None, fn, monkeypatch))
