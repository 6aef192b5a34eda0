"""The untemplated GetAccVal() / GetReduceRepeatSumSpr() (issue 8 point 6): the raw SPR.ACC_VAL as
int64_t -- the ReduceSum count form's result bits in the low bytes, zeros above -- which public
normalisation kernels read as `uint64_t v = GetAccVal(); float s = *reinterpret_cast<float *>(&v);`.
Run on the simulator against NumPy, and the read before any ReduceSum the sanitizer reports.
Kernels: backends/sim/kernel_api/tests/kernels/compat/raw_acc_val.cpp (ours, in the public style)."""
from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim

from ascendc_kernels import ASCENDC_DIR, f32_arg, launch_synced, on_sim

SRC = ASCENDC_DIR / "compat" / "raw_acc_val.cpp"


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


@pytest.mark.parametrize("rows, cols, blocks", [(5, 64, 2), (7, 40, 3), (3, 256, 1)])
def test_untemplated_get_acc_val_gives_the_float_sum_bits(kernels, rows, cols, blocks):
    rng = np.random.default_rng(rows * cols)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    y = pyasc.zeros((rows * cols,), dtype="float32", device="sim")
    rstd = pyasc.zeros((max(rows, 8),), dtype="float32", device="sim")
    eps = 1e-5
    launch_synced(kernels.function("raw_acc_rms_norm"), blocks, (on_sim(x), y, rstd, rows, cols, f32_arg(eps)))
    want_r = 1 / np.sqrt((x.astype(np.float64) ** 2).mean(-1) + eps)
    np.testing.assert_allclose(rstd.numpy()[:rows], want_r, rtol=2e-6)
    np.testing.assert_allclose(y.numpy().reshape(rows, cols), x * want_r[:, None], rtol=2e-6, atol=1e-6)


def test_untemplated_get_reduce_repeat_sum_spr_holds_the_half_bits_and_zeros_above(kernels):
    n = 100
    x = np.zeros(256, np.float16)
    x[:n] = (np.arange(n) % 7 - 3) / 4  # quarters: the half sum is exact
    out = pyasc.zeros((4,), dtype="int64", device="sim")
    launch_synced(kernels.function("raw_acc_half"), 1, (on_sim(x), out, n))
    want_bits = int(np.array([x[:n].astype(np.float64).sum()], np.float16).view(np.uint16)[0])
    raw, via_template = out.numpy()[:2].tolist()
    assert raw == want_bits  # the half in the low 16 bits, nothing above
    assert via_template == want_bits


def test_untemplated_read_before_any_reduce_sum_is_reported(kernels):
    out = pyasc.zeros((4,), dtype="int64", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("raw_acc_before_reduce"), 1, (out,))
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        pyasc.synchronize("sim")
    msg = str(info.value)
    assert "sanitizer check 'vector-register' failed" in msg and "raw_acc_val.cpp" in msg, msg
    assert "GetAccVal reads the ReduceSum result register" in msg, msg
