"""Fixpipe under SetAtomicAdd (issue 8 point 7, as the reference documents for L0C -> GM moves): a
split-K matmul whose blocks add their partial products into one C concurrently (our own kernel:
backends/sim/kernel_api/tests/kernels/atomic_fixpipe.cpp), compared with NumPy; C keeps what it held."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load


@pytest.mark.parametrize("blocks", [1, 4])
def test_split_k_blocks_accumulate_into_c_atomically(blocks):
    m, n, kk = 32, 48, 32
    rng = np.random.default_rng(blocks)
    a = rng.integers(-4, 5, (m, kk * blocks)).astype(np.float16)  # small integers: exact sums
    b = rng.integers(-4, 5, (kk * blocks, n)).astype(np.float16)
    c0 = rng.integers(-100, 100, (m, n)).astype(np.float32)
    c = pyasc.tensor(c0, device="sim")
    pyasc.synchronize("sim")
    fn = load("atomic_fixpipe.cpp").function("splitk_atomic")
    pyasc_acl.launch(fn, blocks, (pyasc.tensor(a, device="sim"), pyasc.tensor(b, device="sim"), c, m, n, kk))
    want = c0 + a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_array_equal(c.numpy(), want)
