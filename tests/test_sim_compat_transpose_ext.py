"""The enhanced Transpose (``Transpose(dst, src, sharedTmpBuffer, TransposeParamsExt)``): [N,C,H,W] <-> [N,H,W,C]
layout conversion in the Unified Buffer, as MindSpore ms_custom_ops' generated grid_sample_ms kernel uses it
(backends/sim/kernel_api/COMPAT.md, "Round 16 (study16c)").  Compared with NumPy's transpose bit for bit; the
in-place form the reference forbids is reported.  Kernels: kernels/compat/transpose_ext_idioms.cpp (our own)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import load

SRC = "compat/transpose_ext_idioms.cpp"


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def _run(kernels, name, x, y, shape):
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, (pyasc.tensor(x.ravel(), device="sim"), y, *shape))
    pyasc.synchronize("sim")


@pytest.mark.parametrize("shape", [(1, 2, 1, 16), (1, 16, 1, 16), (2, 3, 4, 5)])
def test_nchw_to_nhwc_float(kernels, shape):
    x = np.random.default_rng(sum(shape)).standard_normal(shape).astype(np.float32)
    y = pyasc.zeros((x.size,), dtype="float32", device="sim")
    _run(kernels, "nchw_to_nhwc_f32", x, y, shape)
    np.testing.assert_array_equal(y.numpy(), x.transpose(0, 2, 3, 1).ravel())


@pytest.mark.parametrize("nchw", [(1, 2, 1, 16), (2, 5, 3, 8)])
def test_nhwc_to_nchw_half(kernels, nchw):
    n, c, h, w = nchw
    x = np.random.default_rng(c * w).standard_normal((n, h, w, c)).astype(np.float16)
    y = pyasc.zeros((x.size,), dtype="float16", device="sim")
    _run(kernels, "nhwc_to_nchw_f16", x, y, nchw)
    np.testing.assert_array_equal(y.numpy(), x.transpose(0, 3, 1, 2).ravel())


def test_in_place_conversion_is_reported(kernels):
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("transpose_in_place"), 1, ())
    with pytest.raises(pyasc_acl.AclKernelError, match=r"'vector-overlap' failed at .*transpose_ext_idioms\.cpp:\d+"):
        pyasc.synchronize("sim")
