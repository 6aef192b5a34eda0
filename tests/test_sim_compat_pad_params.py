"""The older DataCopyPad prototype with a braced pad list (backends/sim/kernel_api/COMPAT.md, "Round 16
(study16d)"): ``DataCopyPad(dst, src, copyParams, {false, 0, 0, 0})`` with a ``DataCopyParams`` variable
resolves to the DataCopyParams / DataCopyPadParams overload, as the NPU compiler resolves it (Huawei's
Apache-2.0 IsFinite op kernel copies its rows this way). The kernels are our own, in the style of the
public kernels studied (kernels/compat/pad_params_idioms.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import load

SRC = "compat/pad_params_idioms.cpp"


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.mark.parametrize("n", [16, 21, 7])
def test_braced_no_pad_list_copies_the_row(kernels, n):
    x = np.random.default_rng(n).uniform(-4, 4, n).astype(np.float16)
    xd = pyasc.tensor(x.view(np.int16), device="sim")
    y = pyasc.tensor(np.full(n, -1, np.int16), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("half_abs_bits_braced_pad"), 1, (xd, y, n))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy().view(np.float16), np.abs(x))


@pytest.mark.parametrize(("n", "right"), [(5, 3), (10, 6), (1, 15)])
def test_braced_pad_list_pads_on_the_right(kernels, n, right):
    x = np.random.default_rng(n).integers(1, 1000, n).astype(np.int16)
    xd = pyasc.tensor(x, device="sim")
    y = pyasc.tensor(np.full(n + right, -1, np.int16), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("int16_braced_right_pad"), 1, (xd, y, n, right))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), np.concatenate([x, np.zeros(right, np.int16)]))
