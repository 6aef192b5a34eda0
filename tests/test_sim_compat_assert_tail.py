"""ASSERT where public kernels write it (backends/sim/kernel_api/COMPAT.md, "Round 19 (study19a)"): as the tail of
an expression whose `;` was forgotten (`x = a ASSERT(c);`, `T v = a` + `ASSERT(c);` on the next line: NPUKernelBench's
MseLoss and Lerp answers), as a statement with and without its semicolon, and as the body of an `if`. The check of
a tail ASSERT runs once the expression is done, so it sees the value just stored. The kernels are our own
(kernels/compat/assert_tail_idioms.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_synced

SRC = ASCENDC_DIR / "compat/assert_tail_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def test_tail_asserts_pass_and_the_kernel_computes(binary):
    x = np.random.default_rng(0).standard_normal(256).astype(np.float32)
    y = pyasc.zeros((256,), dtype="float32", device="sim")
    launch_synced(binary.function("assert_tail_triple"), 1,
                  (pyasc.tensor(x, device="sim"), y, np.uint32(256), np.uint32(64)))
    np.testing.assert_array_equal(y.numpy(), x * np.float32(3))


def test_a_false_tail_assert_stops_the_kernel_naming_its_condition(binary):
    x = pyasc.zeros((256,), dtype="float32", device="sim")
    y = pyasc.zeros((256,), dtype="float32", device="sim")
    aligned = r'ASSERT\(align % 8 == 0 && "tile must hold whole 32-byte blocks"\) failed'
    with pytest.raises(pyasc.PyascError, match=aligned):
        launch_synced(binary.function("assert_tail_triple"), 1, (x, y, np.uint32(256), np.uint32(12)))
    with pytest.raises(pyasc.PyascError, match=r'ASSERT\(tile != 0 && "tile can not be zero"\) failed'):
        launch_synced(binary.function("assert_tail_triple"), 1, (x, y, np.uint32(256), np.uint32(0)))


def test_statement_asserts_check_in_place(binary):
    x = pyasc.zeros((8,), dtype="int32", device="sim")
    launch_synced(binary.function("assert_tail_statements"), 1, (x, np.uint32(50)))
    assert x.numpy()[0] == 51
    launch_synced(binary.function("assert_tail_statements"), 1, (x, np.uint32(3)))
    assert x.numpy()[0] == 4
    with pytest.raises(pyasc.PyascError, match=r'ASSERT\(n != 7 && "n must not be 7"\) failed'):
        launch_synced(binary.function("assert_tail_statements"), 1, (x, np.uint32(7)))
    with pytest.raises(pyasc.PyascError, match=r'ASSERT\(n % 2 == 0 && "a large n must be even"\) failed'):
        launch_synced(binary.function("assert_tail_statements"), 1, (x, np.uint32(61)))
    launch_synced(binary.function("assert_tail_statements"), 1, (x, np.uint32(62)))
    assert x.numpy()[0] == 63
