"""The Mmad HF32 switch (``SetHF32Mode`` in its ``bool`` and ``HF32Mode`` spellings, ``SetHF32TransMode``) as
public cube kernels use it: vllm-ascend's chunk_kda_fwd_prepare (backends/sim/kernel_api/COMPAT.md, "Round 16
(study16c)") turns HF32 off before every FP32 Mmad.  With HF32 off the product is the ordinary FP32 one; the
HF32 format is not documented, so turning it on is reported rather than silently computed in FP32.  The
kernels are our own (kernels/compat/hf32_mode_idioms.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import load

SRC = "compat/hf32_mode_idioms.cpp"


@pytest.fixture(scope="module")
def kernels():
    return load(SRC)


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.mark.parametrize("name", ["hf32_off_mmad", "hf32_enum_off"])
def test_hf32_off_gives_the_fp32_product(kernels, name):
    rng = np.random.default_rng(16)
    a = rng.standard_normal((16, 8)).astype(np.float32)
    b = rng.standard_normal((16, 8)).astype(np.float32)
    c = pyasc.zeros((16 * 16,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1,
                     (pyasc.tensor(a.ravel(), device="sim"), pyasc.tensor(b.ravel(), device="sim"), c))
    pyasc.synchronize("sim")
    want = (a.astype(np.float64) @ b.astype(np.float64).T).astype(np.float32)
    np.testing.assert_allclose(c.numpy().reshape(16, 16), want, rtol=1e-6, atol=1e-6)


def test_hf32_on_is_reported(kernels):
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("hf32_on"), 1, ())
    with pytest.raises(pyasc_acl.AclKernelError, match=r"'unsupported' failed at .*hf32_mode_idioms\.cpp:\d+.*SetHF32Mode"):
        pyasc.synchronize("sim")
