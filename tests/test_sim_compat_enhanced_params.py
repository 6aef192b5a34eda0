"""DataCopyEnhancedParams in the documented member order with ``AscendC::DeqScale`` and the global
``pad_t`` (backends/sim/kernel_api/COMPAT.md, round 10b: ms_custom_ops' generated kernels build it
from a positional braced list). Our own kernel: kernels/compat/enhanced_params_idioms.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "enhanced_params_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def test_braced_enhanced_params_fill_documented_members_and_copy(kernels):
    n = 64
    x = np.random.default_rng(3).uniform(-4, 4, n).astype(np.float32)
    xd = pyasc.tensor(x, device="sim")
    y = pyasc.zeros((n,), dtype="float32", device="sim")
    fields = pyasc.zeros((8,), dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("enhanced_params_scale"), 1, (xd, y, fields, n))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x * np.float32(3))
    # blockMode NORMAL, deqScale DEQ_NONE, deqValue 7, sidStoreMode 1, isRelu, padMode PAD_NONE, padValue 5,
    # deqTensorAddr defaulted
    assert fields.numpy().tolist() == [0, 0, 7, 1, 1, 0, 5, 0]
