"""Fixes from the public-kernel study (backends/sim/kernel_api/COMPAT.md, issue 8's measure of done):
a tiling header naming uint32_t / size_t before any include, SDK-internal header paths
(interface/*.h), the global lowercase pipe_barrier, and the math library's Floor / Ceil / Trunc.
The kernel is our own, in the style of the public kernels studied (kernels/compat/study_idioms.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "study_idioms.cpp"


@pytest.mark.parametrize("kernel, dtype", [("study_round", np.float32), ("study_round_half", np.float16)])
def test_rounding_math_and_study_idioms_match_numpy(kernel, dtype):
    n, blocks = 64, 2
    rng = np.random.default_rng(8)
    x = rng.uniform(-5, 5, blocks * n).astype(dtype)
    x[:8] = np.array([-2.5, -2.4, -0.5, -0.0, 0.5, 2.4, 2.5, 3.0], dtype=dtype)
    y = pyasc.zeros((blocks * 3 * n,), dtype=np.dtype(dtype).name, device="sim")
    tiling = pyasc.tensor(np.array([n, 0, 0, 0], dtype=np.int32), device="sim")
    binary = pyasc_sim.compile(SRC, opt="-O1")
    pyasc_acl.launch(pyasc_acl.Binary(binary, device="sim").function(kernel), blocks,
                     (pyasc.tensor(x, device="sim"), y, tiling))
    out = y.numpy().reshape(blocks, 3, n)
    xb = x.reshape(blocks, n)
    np.testing.assert_array_equal(out[:, 0], np.floor(xb))
    np.testing.assert_array_equal(out[:, 1], np.ceil(xb))
    np.testing.assert_array_equal(out[:, 2], np.trunc(xb))


def test_compile_step_pre_includes_the_fixed_width_types():
    assert pyasc_sim.build.PRELUDE_FLAGS == ("-include", "stdint.h", "-include", "stddef.h")


def test_sdk_interface_headers_are_installed():
    import os
    inc = pyasc_sim.get_include()
    for name in ("kernel_operator_vec_vconv_intf.h", "kernel_common.h", "kernel_type.h", "kernel_operator_intf.h"):
        assert os.path.isfile(os.path.join(inc, "interface", name)), name
