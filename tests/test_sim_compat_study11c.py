"""Fixes from the study round 11c of public Ascend C kernels (backends/sim/kernel_api/COMPAT.md):
``register/op_impl_registry.h`` (included by op projects' host tiling headers, e.g. vllm-ascend's
adn_rms_norm) and the length form ``AscendCUtils::SetMask<T>(len)``. The op project is ours, in the
style of the public kernels studied (kernels/compat/op_project_registry)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

PROJ = ASCENDC_DIR / "compat" / "op_project_registry"
TH = PROJ / "op_host" / "row_norm_tiling.h"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.mark.parametrize("rows, blocks", [(5, 2), (8, 3)])
def test_op_impl_registry_tiling_header_and_setmask_length_form(rows, blocks):
    so = pyasc_sim.compile(PROJ / "op_kernel" / "row_norm.cpp", opt="-O1", tiling_header=TH)
    fn = pyasc_acl.Binary(so, device="sim").function("row_norm")
    per = -(-rows // blocks)
    x = np.random.default_rng(rows).uniform(-3, 3, (rows, 64)).astype(np.float32)
    t = pyasc_sim.tiling_struct(TH, rows=rows, rowsPerCore=per, eps=1e-5)
    y = pyasc.zeros((rows * 64,), dtype="float32", device="sim")
    xd = pyasc.tensor(x.ravel(), device="sim")
    td = pyasc.tensor(np.frombuffer(bytes(t), np.uint8).copy(), device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, blocks, (xd, y, pyasc.zeros((32,), dtype="uint8", device="sim"), td))
    pyasc.synchronize("sim")
    want = x / np.sqrt((x.astype(np.float64) ** 2).mean(1, keepdims=True) + 1e-5)
    np.testing.assert_allclose(y.numpy().reshape(rows, 64), want, rtol=1e-5, atol=1e-6)


def test_setmask_length_form_limits_the_lanes(tmp_path):
    """SetMask<float>(len) keeps the lanes past len untouched, as the documented SetVectorMask(len)."""
    src = tmp_path / "mask_len.cpp"
    src.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                   'extern "C" __global__ __aicore__ void mask_len(GM_ADDR y, int32_t len)\n{\n'
                   "    TPipe pipe;\n    TBuf<TPosition::VECCALC> b;\n    pipe.InitBuffer(b, 64 * sizeof(float));\n"
                   "    LocalTensor<float> t = b.Get<float>();\n    Duplicate(t, 0.0f, 64);\n    PipeBarrier<PIPE_V>();\n"
                   "    AscendCUtils::SetMask<float>(len);\n    Duplicate<float, false>(t, 1.0f, MASK_PLACEHOLDER, 1, 1, 8);\n"
                   "    ResetMask();\n    event_t e = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_MTE3));\n"
                   "    SetFlag<HardEvent::V_MTE3>(e);\n    WaitFlag<HardEvent::V_MTE3>(e);\n"
                   "    GlobalTensor<float> g;\n    g.SetGlobalBuffer((__gm__ float *)y, 64);\n    DataCopy(g, t, 64);\n}\n")
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O1"), device="sim").function("mask_len")
    for n in (0, 5, 64):
        y = pyasc.zeros((64,), dtype="float32", device="sim")
        pyasc.synchronize("sim")
        pyasc_acl.launch(fn, 1, (y, n))
        pyasc.synchronize("sim")
        np.testing.assert_array_equal(y.numpy(), (np.arange(64) < n).astype(np.float32))
