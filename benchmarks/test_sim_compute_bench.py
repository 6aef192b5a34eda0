"""Issue 13's kernel-speed targets, measured side by side in one run (``pytest
benchmarks/test_sim_compute_bench.py``).

* The copy-bandwidth floor: a 2-thread ``numpy.copyto`` of half the bytes an op reads + writes
  (so the copy also moves the op's total bytes), measured next to the op in the same run.
* Elementwise add, cast float32 -> float16, exp, sum, softmax and layer_norm on sim at 16M
  elements / (4096, 1024) float32, with the sanitizer checks on and off (``PYASC_SIM_CHECKS``,
  read at every launch). Targets: op time <= 1.5x the floor with checks off, <= 2x with checks
  on, and the checks' share of the time (on - off) / on < 30%.
* matmul 512^3 float16 and float32 on sim next to NumPy's BLAS (float32): >= 15% of its GFLOP/s.

The device is synchronised inside each timed call. The summary table (ratios, targets, met or
not) is printed at the end of the run by ``benchmarks/conftest.py``.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

import pyasc

N = 1 << 24
ROWS = (4096, 1024)
MM = 512

#: (op, checks) -> median seconds; "floor:<bytes>" -> median seconds; matmul impl -> GFLOP/s
_TIMES: dict[tuple[str, str], float] = {}
_FLOORS: dict[int, float] = {}
_GFLOPS: dict[str, float] = {}


def _sim_available() -> bool:
    from pyasc_core.registry import REGISTRY

    return REGISTRY.availability("sim")[0]


needs_sim = pytest.mark.skipif(not _sim_available(), reason="the sim backend is not available")


# -- the ops: (inputs, run on sim, numpy reference, bytes read + written) ---------------------------
def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _layer_norm(x, w, b, eps=1e-5):
    x64 = x.astype(np.float64)
    mu = x64.mean(axis=-1, keepdims=True)
    var = ((x64 - mu) ** 2).mean(axis=-1, keepdims=True)
    return ((x64 - mu) / np.sqrt(var + eps) * w + b).astype(np.float32)


def _ops():
    """name -> (make inputs, sim call, numpy reference, bytes moved, assert tolerance)."""
    vec = lambda s: _rng(s).standard_normal(N, dtype=np.float32)  # noqa: E731
    rows = lambda s: _rng(s).standard_normal(ROWS, dtype=np.float32)  # noqa: E731
    return {
        "add 16M f32": (lambda: (vec(0), vec(1)), lambda a, b: pyasc.add(a, b), lambda a, b: a + b, 3 * 4 * N,
                        0.0),
        "cast 16M f32->f16": (lambda: (vec(2),), lambda a: a.astype(pyasc.float16),
                              lambda a: a.astype(np.float16), 6 * N, 0.0),
        "exp 16M f32": (lambda: (vec(3),), lambda a: pyasc.exp(a), np.exp, 8 * N, 1e-6),
        "sum 16M f32": (lambda: (vec(4),), lambda a: pyasc.sum(a),
                        lambda a: np.float32(a.astype(np.float64).sum()), 4 * N, 1e-4),
        "softmax (4096,1024) f32": (lambda: (rows(5),), lambda a: pyasc.softmax(a, axis=-1), _softmax,
                                    8 * ROWS[0] * ROWS[1], 1e-5),
        "layer_norm (4096,1024) f32": (
            lambda: (rows(6), _rng(7).standard_normal(ROWS[1], dtype=np.float32),
                     _rng(8).standard_normal(ROWS[1], dtype=np.float32)),
            lambda a, w, b: pyasc.layer_norm(a, w, b, eps=1e-5), _layer_norm, 8 * ROWS[0] * ROWS[1], 1e-4),
    }


OPS = _ops()


# -- the copy floor --------------------------------------------------------------------------------
def _two_thread_copy(src: np.ndarray, dst: np.ndarray) -> None:
    half = src.size // 2
    t = threading.Thread(target=np.copyto, args=(dst[:half], src[:half]))
    t.start()
    np.copyto(dst[half:], src[half:])
    t.join()


@pytest.mark.parametrize("nbytes", sorted({v[3] for v in OPS.values()}))
def test_copy_floor(benchmark, nbytes):
    """A 2-thread copy of nbytes / 2 bytes (it reads and writes nbytes in all): the floor."""
    src = np.ones(nbytes // 2, dtype=np.uint8)
    dst = np.empty_like(src)
    benchmark.group = f"copy floor {nbytes >> 20} MiB"
    benchmark.pedantic(_two_thread_copy, (src, dst), rounds=15, iterations=1, warmup_rounds=3)
    _FLOORS[nbytes] = benchmark.stats.stats.median


@needs_sim
@pytest.mark.parametrize("checks", ["off", "on"])
@pytest.mark.parametrize("op", list(OPS))
def test_op_sim(benchmark, op, checks, monkeypatch):
    make, call, ref, nbytes, tol = OPS[op]
    monkeypatch.setenv("PYASC_SIM_CHECKS", "1" if checks == "on" else "0")
    host = make()
    args = [pyasc.tensor(x, device="sim") for x in host]
    pyasc.synchronize("sim")

    def run():
        out = call(*args)
        pyasc.synchronize("sim")
        return out

    benchmark.group = op
    out = benchmark.pedantic(run, rounds=7, iterations=1, warmup_rounds=2)
    _TIMES[(op, checks)] = benchmark.stats.stats.median
    expected = ref(*host)
    got = out.numpy()
    if tol == 0.0:
        np.testing.assert_array_equal(got, expected)
    else:
        np.testing.assert_allclose(got.astype(np.float64), np.asarray(expected, dtype=np.float64), rtol=tol,
                                   atol=tol)


# -- matmul ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def mm_inputs():
    return _rng(9).standard_normal((MM, MM), dtype=np.float32), _rng(10).standard_normal((MM, MM), dtype=np.float32)


def test_matmul_numpy_blas(benchmark, mm_inputs):
    benchmark.group = f"matmul {MM}^3"
    benchmark.pedantic(np.matmul, mm_inputs, rounds=7, iterations=1, warmup_rounds=2)
    _GFLOPS["numpy float32"] = 2 * MM**3 / benchmark.stats.stats.median / 1e9


@needs_sim
@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_matmul_sim(benchmark, mm_inputs, dtype, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_CHECKS", "0")
    a, b = (pyasc.tensor(x.astype(dtype), device="sim") for x in mm_inputs)

    def run():
        out = a @ b
        pyasc.synchronize("sim")
        return out

    benchmark.group = f"matmul {MM}^3"
    out = benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)
    _GFLOPS[f"sim {dtype}"] = 2 * MM**3 / benchmark.stats.stats.median / 1e9
    exact = mm_inputs[0].astype(dtype).astype(np.float64) @ mm_inputs[1].astype(dtype).astype(np.float64)
    np.testing.assert_allclose(out.numpy().astype(np.float64), exact, rtol=2e-2 if dtype == "float16" else 1e-5,
                               atol=1e-1 if dtype == "float16" else 1e-4)


# -- the summary (printed by conftest.py) ------------------------------------------------------------
def summary_lines() -> list[str]:
    """The targets of issue 13 points 2 and 3 with this run's figures and whether each is met."""
    lines = []
    for op, (_, _, _, nbytes, _) in OPS.items():
        floor = _FLOORS.get(nbytes)
        on, off = _TIMES.get((op, "on")), _TIMES.get((op, "off"))
        if floor is None or (on is None and off is None):
            continue
        parts = [f"{op:<28} floor {floor * 1e3:7.2f} ms"]
        if off is not None:
            r = off / floor
            parts.append(f"off {off * 1e3:7.2f} ms = {r:5.2f}x ({'met' if r <= 1.5 else 'NOT met'} <= 1.5x)")
        if on is not None:
            r = on / floor
            parts.append(f"on {on * 1e3:7.2f} ms = {r:5.2f}x ({'met' if r <= 2.0 else 'NOT met'} <= 2x)")
        if on is not None and off is not None:
            share = max(on - off, 0.0) / on
            parts.append(f"checks {share * 100:4.1f}% ({'met' if share < 0.30 else 'NOT met'} < 30%)")
        lines.append("; ".join(parts))
    blas = _GFLOPS.get("numpy float32")
    for impl in ("sim float16", "sim float32"):
        if impl in _GFLOPS and blas:
            r = _GFLOPS[impl] / blas
            lines.append(f"matmul {MM}^3 {impl:<16} {_GFLOPS[impl]:7.2f} GFLOP/s = {r * 100:5.1f}% of NumPy BLAS "
                         f"{blas:.1f} GFLOP/s ({'met' if r >= 0.15 else 'NOT met'} >= 15%)")
    return lines
