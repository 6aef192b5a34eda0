"""bool tensors through DataCopy / DataCopyPad (public kernels move bool masks this way on Atlas A2, e.g.
an IsInf-style output mask and sgl-kernel-npu's tree building; the dtype table accepts bool where it
lists the 1-byte integers, see the kernel API reference). Our own kernel
(kernels/compat/bool_copy_idioms.cpp) inverts a mask: the bytes go GM -> UB -> vector -> GM unchanged
but for the inversion, including an unaligned tail moved with DataCopyPad."""

from __future__ import annotations

import os

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "bool_copy_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def kernel():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim").function("bool_mask_invert")


@pytest.mark.parametrize("n", [64, 77, 5])
def test_bool_mask_inverted(kernel, n):
    x = np.random.default_rng(n).random(n) < 0.5
    xd = pyasc.tensor(x, device="sim")
    y = pyasc.zeros((n,), dtype="bool", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernel, 1, (xd, y, n))
    pyasc.synchronize("sim")
    out = y.numpy()
    assert out.dtype == np.bool_
    np.testing.assert_array_equal(out, ~x)


def test_bool_is_accepted_on_the_inference_series_too():
    """DataCopy lists the 1-byte integers on Ascend310P as well, so the bool DataCopy compiles there."""
    assert os.path.exists(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend310P3"))


UNLISTED = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void copy_unlisted(GM_ADDR x)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64);
    AscendC::GlobalTensor<bfloat16_t> xg;
    xg.SetGlobalBuffer((__gm__ bfloat16_t *)x, 32);
    AscendC::LocalTensor<bfloat16_t> t = buf.Get<bfloat16_t>();
    AscendC::DataCopy(t, xg, 32);
}
"""


def test_only_bool_is_widened(tmp_path):
    """The table still refuses a type it does not list: bfloat16_t DataCopy on Ascend310P."""
    src = tmp_path / "copy_unlisted.cpp"
    src.write_text(UNLISTED)
    with pytest.raises(pyasc_sim.KernelCompileError, match=r"DataCopy is not documented for this element type"):
        pyasc_sim.compile(src, opt="-O1", soc="Ascend310P3")
