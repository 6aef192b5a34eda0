"""The CCE vector intrinsics ops-nn normalisation kernels call directly (backends/sim/kernel_api/COMPAT.md,
"Round 19 (study19b)"): ``vcadd`` in both modes with ``get_acc_val()`` reading SPR.ACC_VAL, and the 2-byte
helpers ``vector_dup`` / ``vor`` / ``vtranspose`` / ``copy_ubuf_to_ubuf``, under the vector mask register.
NPUKernelBench's AddLayerNorm answer sums its rows this way. The kernels are our own, in the style of the
public kernel (kernels/compat/cce_vector_intrinsics_idioms.cpp); results are compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import load

SRC = "compat/cce_vector_intrinsics_idioms.cpp"


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.mark.parametrize(("rows", "cols"), [(3, 64), (4, 200), (2, 40), (5, 1024)])
def test_vcadd_row_sums_match_numpy(kernels, rows, cols):
    x = np.random.default_rng(rows * cols).uniform(-2, 2, (rows, cols)).astype(np.float32)
    reps = cols // 64
    sums = pyasc.zeros((rows,), dtype="float32", device="sim")
    rep = pyasc.zeros((max(rows * reps, 1),), dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("vcadd_row_sums"), 1, (pyasc.tensor(x, device="sim"), sums, rep, rows, cols))
    pyasc.synchronize("sim")
    np.testing.assert_allclose(sums.numpy(), x.astype(np.float64).sum(axis=1), rtol=1e-5, atol=1e-5)
    if reps:
        want = x[:, : reps * 64].reshape(rows, reps, 64).astype(np.float64).sum(axis=2).ravel()
        np.testing.assert_allclose(rep.numpy()[: rows * reps], want, rtol=1e-5, atol=1e-5)


def test_vtranspose_vor_vector_dup_copy(kernels):
    x = np.random.default_rng(7).integers(-30000, 30000, (16, 16)).astype(np.int16)
    y = pyasc.tensor(np.full(256, -1, np.int16), device="sim")
    pyasc_acl.launch(kernels.function("int16_transpose_or"), 1, (pyasc.tensor(x.ravel(), device="sim"), y))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy().reshape(16, 16), x.T)


def test_scatter_vnchwconv_names_itself_as_unsupported(kernels):
    w = pyasc.zeros((8,), dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("scatter_vnchwconv_call"), 1, (w,))
    with pytest.raises(pyasc_acl.AclKernelError, match=r"scatter_vnchwconv_b16 is not supported"):
        pyasc.synchronize("sim")


def test_get_acc_val_before_any_vcadd_is_reported(kernels):
    y = pyasc.zeros((1,), dtype="int64", device="sim")
    pyasc_acl.launch(kernels.function("acc_val_unset"), 1, (y,))
    with pytest.raises(pyasc_acl.AclKernelError, match=r"vector-register.*get_acc_val"):
        pyasc.synchronize("sim")
