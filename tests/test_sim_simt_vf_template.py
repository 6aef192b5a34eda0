"""A SIMT VF function template started with Simt::VF_CALL<Vf<N>> from a member of a class template (IndexSDK's
ivf_rabitq SIMT kernel): before the fix the binary referred to the VF function's specialization without defining
it (g++ 12, GCC PR c++/53164) and did not load. Our own kernel in that style (kernels/compat/simt_vf_template.cpp):
per-code sums of a UB lookup table over the code's bytes, compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat/simt_vf_template.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")


@pytest.mark.parametrize("sub, n", [(16, 700), (4, 300), (16, 5)])
def test_vf_template_from_class_template_member(binary, sub, n):
    rng = np.random.default_rng(sub * n)
    lut = rng.standard_normal((sub, 256)).astype(np.float32)
    codes = rng.integers(0, 256, (n, sub), dtype=np.uint8)
    out = pyasc.zeros((n,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function(f"simt_lut_sum{sub}"), 1,
                     (pyasc.tensor(lut, device="sim"), pyasc.tensor(codes, device="sim"), out, np.uint32(n)))
    pyasc.synchronize("sim")
    want = np.zeros(n, np.float32)
    for m in range(sub):  # the kernel's summation order, in float32
        want = want + lut[m, codes[:, m]]
    np.testing.assert_array_equal(out.numpy(), want)
