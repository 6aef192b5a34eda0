"""Vector instructions that also read their destination -- MulAddDst (dst = src0 * src1 + dst), FusedMulAdd
(dst = src0 * dst + src1), FusedMulAddRelu and Axpy (dst = src * scalar + dst), count and mask forms, MulAddDst with
half sources into a float dst -- check the destination as a source (kapi/vector_more.h, kernel API README
"local-uninit-read"): an accumulator that was cleared or copied in first matches NumPy with checks on; one never
written is carried as taint like any never-written source and reported where the result is stored. Kernel: our own
compat/dst_read_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from ascendc_kernels import launch_failing, launch_synced, load, marked_line

SRC = "compat/dst_read_idioms.cpp"
N = 256
OPS = {"MulAddDst": 0, "FusedMulAdd": 1, "FusedMulAddRelu": 2, "Axpy": 3, "MulAddDst-mask": 4, "Axpy-mask": 5,
       "MulAddDst-half-sources": 6}


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def inputs(seed: int):
    rng = np.random.default_rng(seed)  # quarters in [-8, 8): every product and sum exact in float
    return [(rng.integers(-32, 32, N) / 4).astype(np.float32) for _ in range(3)]


def expected(op: str, a, b, acc):
    if op.startswith("MulAddDst"):
        return a * b + acc
    if op == "FusedMulAdd":
        return a * acc + b
    if op == "FusedMulAddRelu":
        return np.maximum(a * acc + b, 0)
    return a * np.float32(0.5) + acc


@pytest.mark.parametrize("op", list(OPS))
@pytest.mark.parametrize("init", [1, 2], ids=["copied-in", "cleared"])
def test_an_accumulator_written_first_matches(binary, op, init):
    a, b, c = inputs(OPS[op] + 10 * init)
    out = pyasc.zeros((N,), dtype="float32", device="sim")
    launch_synced(binary.function("dst_read_accumulate"), 1,
                  (pyasc.tensor(a, device="sim"), pyasc.tensor(b, device="sim"), pyasc.tensor(c, device="sim"),
                   out, OPS[op], init))
    acc = c if init == 1 else np.zeros(N, np.float32)
    np.testing.assert_array_equal(out.numpy(), expected(op, a, b, acc).astype(np.float32))


@pytest.mark.parametrize("op", list(OPS))
def test_an_accumulator_never_written_is_reported_where_it_is_stored(binary, op):
    a, b, c = inputs(OPS[op])
    out = pyasc.zeros((N,), dtype="float32", device="sim")
    msg = launch_failing(binary.function("dst_read_accumulate"), 1,
                         (pyasc.tensor(a, device="sim"), pyasc.tensor(b, device="sim"),
                          pyasc.tensor(c, device="sim"), out, OPS[op], 0))
    assert f"sanitizer check 'local-uninit-read' failed at {marked_line(SRC, 'stored-acc')}" in msg, msg
    assert "DataCopy reads" in msg and "UB" in msg, msg
