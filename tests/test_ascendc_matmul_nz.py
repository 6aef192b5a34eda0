"""Matmul high-level API with NZ (fractal) A / B / C and with A / B in L1 (TPosition::A1 / B1), CFG_NORM
(issue 8 point 9): our own kernels (backends/sim/kernel_api/tests/kernels/matmul_nz.cpp), compared with
NumPy. NZ: 16-row fractals of 32 bytes (16 half columns), column block j of an r-row matrix starting at
j * ceil16(r) * 16 (what DataCopy's Nd2Nz writes); C in NZ: 16 x 16 float fractals."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from pyasc_sim import hl_tiling

from ascendc_kernels import load


def c16(v: int) -> int:
    return (v + 15) // 16 * 16


def to_nz(x: np.ndarray, c0: int = 16) -> np.ndarray:
    """ND (r x c) -> NZ: pad to (ceil16(r), ceil_c0(c)), then column blocks of c0, each row-major."""
    r, c = x.shape
    p = np.zeros((c16(r), (c + c0 - 1) // c0 * c0), x.dtype)
    p[:r, :c] = x
    return np.concatenate([p[:, j:j + c0].ravel() for j in range(0, p.shape[1], c0)])


def from_nz(flat: np.ndarray, r: int, c: int, c0: int = 16) -> np.ndarray:
    rows = c16(r)
    blocks = [flat[j * rows * c0:(j + 1) * rows * c0].reshape(rows, c0) for j in range(len(flat) // (rows * c0))]
    return np.concatenate(blocks, axis=1)[:r, :c]


@pytest.fixture(scope="module")
def kernels():
    return load("matmul_nz.cpp")


def operands(m, n, k, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(-4, 5, (m, k)).astype(np.float16), rng.integers(-4, 5, (k, n)).astype(np.float16)


def run(kernels, name, a, b, out_len, m, n, k):
    t = hl_tiling.matmul_tiling(m, n, k)
    c = pyasc.full((out_len,), -7.0, dtype="float32", device="sim")
    tiling = pyasc.tensor(np.frombuffer(t.to_bytes(), dtype=np.uint8).copy(), device="sim")
    pyasc_acl.launch(kernels.function(name), 1, (pyasc.tensor(a, device="sim"), pyasc.tensor(b, device="sim"), c,
                                                 tiling))
    return c.numpy()


def test_pack_helpers_round_trip():
    x = np.arange(20 * 40, dtype=np.float32).reshape(20, 40)
    np.testing.assert_array_equal(from_nz(to_nz(x), 20, 40), x)


@pytest.mark.parametrize("m, n, k", [(32, 48, 64), (20, 40, 24)])
def test_nz_a_and_b_nd_c(kernels, m, n, k):
    a, b = operands(m, n, k, m + n)
    c = run(kernels, "mm_nz_nz_nd", to_nz(a), to_nz(b), c16(m) * c16(n), m, n, k)
    np.testing.assert_array_equal(c[:m * n].reshape(m, n), a.astype(np.float32) @ b.astype(np.float32))


@pytest.mark.parametrize("m, n, k", [(32, 48, 64), (20, 40, 24)])
def test_nz_c(kernels, m, n, k):
    a, b = operands(m, n, k, k)
    want = a.astype(np.float32) @ b.astype(np.float32)
    c = run(kernels, "mm_nd_nd_nz", a.ravel(), b.ravel(), c16(m) * c16(n), m, n, k)
    np.testing.assert_array_equal(from_nz(c, m, n), want)
    c = run(kernels, "mm_nd_nz_nz", a.ravel(), to_nz(b), c16(m) * c16(n), m, n, k)
    np.testing.assert_array_equal(from_nz(c, m, n), want)


def test_operands_in_l1(kernels):
    m, n, k = 48, 32, 80
    a, b = operands(m, n, k, 7)
    c = run(kernels, "mm_l1_nd", a.ravel(), b.ravel(), m * n, m, n, k)
    np.testing.assert_array_equal(c.reshape(m, n), a.astype(np.float32) @ b.astype(np.float32))
