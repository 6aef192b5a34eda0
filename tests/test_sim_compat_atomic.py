"""Atomic accumulation into GM as public kernels write it (issue 8 point 7 and the 'atomic
SetValue' gap of COMPAT.md): SetAtomicAdd<float>() around a DataCopy from local memory to GM sums
every block's row; GlobalTensor::SetValue under SetAtomicAdd is, as the reference documents, a
scalar store through the data cache and not an atomic move: it overwrites, and the simulator warns
'setvalue-not-atomic' (a kernel doing it usually expects accumulation). Two blocks storing the same
element that way race ('gm-write-overlap'): the store is a plain write, not an atomic one. Kernels:
backends/sim/kernel_api/tests/kernels/compat/atomic_idioms.cpp (ours, in the public style)."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim

from ascendc_kernels import ASCENDC_DIR, f32_arg

SRC = ASCENDC_DIR / "compat" / "atomic_idioms.cpp"
COLS = 64


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def test_atomic_datacopy_sums_every_blocks_row(kernels):
    blocks = 4
    x = np.random.default_rng(7).uniform(-2, 2, (blocks, COLS)).astype(np.float32)
    y = pyasc.zeros((COLS,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("atomic_row_sum"), blocks, (pyasc.tensor(x.ravel(), device="sim"), y))
    pyasc.synchronize("sim")
    np.testing.assert_allclose(y.numpy(), x.sum(axis=0, dtype=np.float64), rtol=1e-5, atol=1e-5)


def test_setvalue_under_set_atomic_add_overwrites_and_warns(kernels):
    y = pyasc.full((COLS,), 10.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("atomic_then_setvalue"), 1, (y, 3, f32_arg(5.0)))
    with pytest.warns(pyasc.SanitizerWarning, match="setvalue-not-atomic.*SetAtomicAdd.*overwrites"):
        pyasc.synchronize("sim")
    want = np.full(COLS, 10.0, np.float32)
    want[3] = 5.0  # not 15: SetValue is not atomic
    np.testing.assert_array_equal(y.numpy(), want)


def test_two_blocks_setvalue_the_same_element_under_atomic_add_race(kernels):
    y = pyasc.zeros((COLS,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("atomic_then_setvalue"), 2, (y, 0, f32_arg(1.0)))
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with pytest.raises(pyasc_acl.AclKernelError, match="gm-write-overlap.*blocks 0 and 1 both wrote"):
            pyasc.synchronize("sim")
        pyasc.synchronize("sim")  # the block that did not fail still reports its warning
    assert any("setvalue-not-atomic" in str(w.message) for w in seen), [str(w.message) for w in seen]
