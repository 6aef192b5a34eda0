"""The Atlas inference series AI Core lists Compare / Compares for half and float only (no int32_t, not even
EQ / NE: the asc-devkit Compare / Compares pages, 数据类型): the built-in compare kernel takes its int32 eq / ne
through the exact float sign path there, and pow's int32 kernel compares through float.  Built for Ascend310P3,
both give NumPy's results, bit-identical to the Atlas A2 build."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import pyasc

pytest.importorskip("pyasc_kernels")
pyasc_sim = pytest.importorskip("pyasc_sim")

from kernel_sets import build_kernel_dir, run_with_kernels  # noqa: E402


@pytest.fixture(scope="module")
def p310_dir(tmp_path_factory: pytest.TempPathFactory) -> pathlib.Path:
    return build_kernel_dir(tmp_path_factory.mktemp("k310p_cmp"), ("compare", "pow"), "Ascend310P3")


_run = run_with_kernels


def _sim(a):
    t = pyasc.tensor(a, device="sim")
    pyasc.synchronize("sim")
    return t


def _ints(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    a = rng.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    a[:8] = [0, 1, -1, 2**31 - 1, -2**31, 2**24 + 1, -(2**24) - 1, 7]
    return a


@pytest.mark.parametrize("op", ["eq", "ne", "lt", "ge"])
def test_int32_compare_on_the_inference_series(p310_dir, monkeypatch, op):
    a = _ints(1000, 1)
    b = a.copy()
    b[1::3] = _ints(1000, 2)[1::3]
    b[2::5] += 1  # neighbours (a + 1 wraps at INT32_MAX, as NumPy's int32 does)
    fn = {"eq": lambda x, y: x == y, "ne": lambda x, y: x != y, "lt": lambda x, y: x < y, "ge": lambda x, y: x >= y}[op]
    run = lambda: fn(_sim(a), _sim(b)).numpy()  # noqa: E731
    p310 = _run(p310_dir, run, monkeypatch)
    a2 = _run(None, run, monkeypatch)
    np.testing.assert_array_equal(p310, fn(a, b))
    np.testing.assert_array_equal(p310, a2)


def test_int32_pow_on_the_inference_series(p310_dir, monkeypatch):
    rng = np.random.default_rng(5)
    x = rng.integers(-6, 7, 777).astype(np.int32)
    y = rng.integers(-3, 12, 777).astype(np.int32)
    x[:4], y[:4] = [1, -1, -1, 2], [-5, -3, -4, 30]
    run = lambda: pyasc.pow(_sim(x), _sim(y)).numpy()  # noqa: E731
    p310 = _run(p310_dir, run, monkeypatch)
    a2 = _run(None, run, monkeypatch)
    np.testing.assert_array_equal(p310, a2)
    pos = y >= 0
    np.testing.assert_array_equal(p310[pos], np.power(x[pos].astype(np.int64), y[pos]).astype(np.int32))
