"""DataCopy L1 -> bias table (C2) (kapi/bias_table_copy.h; basic data-move page atlasascendc_api_07_0103, the
prototype with different source and destination types; copy_cbuf_to_bt, cceapi_0097 / 0098): a half bias
widened to float on the way, or a float bias copied as it is, 64-byte source blocks, 32-byte source gaps,
64-byte destination gaps; Mmad then adds it: y = A @ B + bias, bit for bit against NumPy (small integers,
exact sums). A converting copy into an L1 tensor instead of the table is 'cube-position' at its line. Kernel: our own
compat/bias_table_idioms.cpp (Catlass-style CopyL1ToBT, as NPUKernelBench MatmulBias uses it)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, marked_line

SRC = "compat/bias_table_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(ASCENDC_DIR / SRC, opt="-O1", core="cube"), device="sim")


def _launch(binary, kernel, bias_dtype, m, k, n, mode, seed=0):
    rng = np.random.default_rng(seed)
    products = 2 if mode == 2 else 1
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    bias = (rng.integers(-64, 64, (products, n)) / 4).astype(bias_dtype)  # exact in half
    y = pyasc.full((products * m * n,), -1.0, dtype="float32", device="sim")
    shape = pyasc.tensor(np.array([m, k, n, mode], np.int32), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function(kernel), 1,
                     (pyasc.tensor(a, device="sim"), pyasc.tensor(b, device="sim"),
                      pyasc.tensor(bias.reshape(-1), device="sim"), y, shape))
    prod = a.astype(np.float64) @ b.astype(np.float64)
    want = np.stack([(prod + bias[i].astype(np.float64)).astype(np.float32) for i in range(products)])
    return y, want


@pytest.mark.parametrize("kernel, bias_dtype", [("bias_mm_half", np.float16), ("bias_mm_float", np.float32)])
@pytest.mark.parametrize("m, k, n, mode", [
    (16, 32, 32, 0),    # one burst
    (32, 16, 64, 0),
    (32, 32, 64, 1),    # two bursts, a 32-byte source gap
    (16, 16, 64, 2),    # two bursts, a 128-byte destination gap, two Mmads
])
def test_bias_reaches_mmad_through_the_bias_table(binary, kernel, bias_dtype, m, k, n, mode):
    y, want = _launch(binary, kernel, bias_dtype, m, k, n, mode, seed=m + k + n + mode)
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy().reshape(want.shape[0], m, n), want.reshape(-1, m, n))


def test_a_converting_copy_elsewhere_is_refused(binary):
    _launch(binary, "bias_mm_half", np.float16, 16, 16, 32, 3)
    with pytest.raises(pyasc.PyascError) as info:
        pyasc.synchronize("sim")
    msg = str(info.value)
    assert "sanitizer check 'cube-position' failed at " + marked_line(SRC, "not-the-table") in msg, msg
    assert "from L1 (A1 / B1 / C1) to C2 (BT)" in msg and "different element types" in msg, msg
