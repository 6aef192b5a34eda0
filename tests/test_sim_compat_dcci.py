"""DataCacheCleanAndInvalid as public kernels use it (COMPAT.md, round 6): scalar GM stores with
GlobalTensor::SetValue followed by the data-cache flush, in every documented form (three-parameter
GlobalTensor / LocalTensor, two-parameter GlobalTensor of the Atlas inference series), on the A2
and the Atlas inference SoC. On the simulator the flush changes no data: the results match NumPy.
Kernels: backends/sim/kernel_api/tests/kernels/compat/dcci_idioms.cpp (ours, in the public style)."""
from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim

from ascendc_kernels import ASCENDC_DIR, f32_arg

SRC = ASCENDC_DIR / "compat" / "dcci_idioms.cpp"
COLS, BINS = 64, 16


@pytest.fixture(scope="module", params=["Ascend910B1", "Ascend310P3"])
def kernels(request):
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc=request.param), device="sim")


def test_setvalue_then_flush_row_cumsum_matches_numpy(kernels):
    blocks = 3
    x = np.random.default_rng(3).uniform(-1, 1, (blocks, COLS)).astype(np.float32)
    y = pyasc.zeros((blocks * COLS,), dtype="float32", device="sim")
    xs = pyasc.tensor(x.ravel(), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("scalar_row_cumsum"), blocks, (xs, y, f32_arg(0.5)))
    pyasc.synchronize("sim")
    want = np.cumsum(x, axis=1, dtype=np.float32) * np.float32(0.5)
    np.testing.assert_allclose(y.numpy().reshape(blocks, COLS), want, rtol=1e-5, atol=1e-5)


def test_scalar_histogram_with_two_parameter_and_local_flush_matches_numpy(kernels):
    codes = np.random.default_rng(4).integers(0, BINS, 200).astype(np.int32)
    hist = pyasc.full((BINS,), -7, dtype="int32", device="sim")
    copy = pyasc.zeros((BINS,), dtype="int32", device="sim")
    cs = pyasc.tensor(codes, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("scalar_histogram"), 1, (cs, hist, copy, codes.size))
    pyasc.synchronize("sim")
    want = np.bincount(codes, minlength=BINS).astype(np.int32)
    np.testing.assert_array_equal(hist.numpy(), want)
    np.testing.assert_array_equal(copy.numpy(), want)


def test_single_line_flush_of_an_unset_global_tensor_is_reported(tmp_path):
    src = tmp_path / "dcci_bad.cpp"
    src.write_text(
        '#include "kernel_operator.h"\nusing namespace AscendC;\n'
        'extern "C" __global__ __aicore__ void dcci_bad(GM_ADDR y) {\n'
        "    GlobalTensor<float> g;\n"
        "    DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(g);\n"
        "}\n")
    binary = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0"), device="sim")
    y = pyasc.zeros((4,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("dcci_bad"), 1, (y,))
    with pytest.raises(pyasc_acl.AclKernelError, match="DataCacheCleanAndInvalid.*SINGLE_CACHE_LINE.*no buffer"):
        pyasc.synchronize("sim")
