"""SDK-level idioms of Huawei's open ops kernels (backends/sim/kernel_api/COMPAT.md, "Round 16 (study16d)",
NPUKernelBench's GeGluGradV2 answer): ``TransDataTo5HDImpl`` on two lists of 16 raw ``__ubuf__`` pointers (the
function behind ``TransDataTo5HD``, with its checks), and a tiling struct whose ``END_TILING_DATA_DEF`` has no
semicolon. The kernels are our own, in the style of the public kernels studied
(kernels/compat/ops_impl_idioms.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import load

SRC = "compat/ops_impl_idioms.cpp"


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.mark.parametrize("scale", [1.0, -2.5])
def test_trans5hd_impl_on_pointer_lists_matches_numpy(kernels, scale):
    x = np.random.default_rng(3).standard_normal((16, 8)).astype(np.float32)
    tiling = np.zeros(2, np.int32)
    tiling[0] = 16
    tiling[1:2] = np.array([scale], np.float32).view(np.int32)
    y = pyasc.zeros((16 * 8,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("trans5hd_impl_f32"), 1,
                     (pyasc.tensor(x.ravel(), device="sim"), y, pyasc.tensor(tiling, device="sim")))
    pyasc.synchronize("sim")
    i = np.arange(16)[:, None]
    k = np.arange(8)[None, :]
    ref = x[(i % 2) * 8 + k, i // 2] * np.float32(scale)
    np.testing.assert_array_equal(y.numpy().reshape(16, 8), ref)
