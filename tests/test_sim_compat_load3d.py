"""Load3Dv2 (LoadData with LoadData3DParamsV2, A1 -> A2) and InitConstValue on the simulator (reference
pages Load3D and InitConstValue), the cube idioms of chunk_scaled_dot_kkt. Our own kernel:
kernels/compat/load3d_idioms.cpp (K cut into two parts by kStartPt, accumulated by Mmad)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "load3d_idioms.cpp"
MM, KK, NN = 32, 64, 16


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


@pytest.mark.parametrize("rows", [MM, 20])
def test_load3d_parts_feed_mmad_and_init_const_value_fills_the_rest(kernels, rows):
    rng = np.random.default_rng(rows)
    a = rng.standard_normal((MM, KK)).astype(np.float16)
    b = rng.standard_normal((NN, KK)).astype(np.float16)
    fill = 0.5
    c = pyasc.zeros((MM * NN,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("load3d_gram"), 1,
                     (pyasc.tensor(a.reshape(-1), device="sim"), pyasc.tensor(b.reshape(-1), device="sim"), c,
                      np.uint32(rows), np.float32(fill)))
    pyasc.synchronize("sim")
    a_used = a.astype(np.float32).copy()
    a_used[rows:] = fill
    np.testing.assert_allclose(c.numpy().reshape(MM, NN), a_used @ b.astype(np.float32).T, rtol=1e-5, atol=1e-4)


def test_load3d_outside_the_1x1_case_is_reported(kernels):
    with pytest.raises(pyasc_acl.AclKernelError, match="'unsupported' failed at .*load3d_idioms.cpp:\\d+: .*1 x 1 filter"):
        pyasc_acl.launch(kernels.function("load3d_bad"), 1, ())
        pyasc.synchronize("sim")
