"""GlobalTensor::SetL2CacheHint in its documented form (SetL2CacheHint page): `SetL2CacheHint(CacheMode)` with
`AscendC::CacheMode::CACHE_MODE_DISABLE` / `CACHE_MODE_NORMAL` and the reserved `CacheRwMode` template argument, as
vllm-ascend's fused_rearrange_mix_qkv_gdn_gating calls it. The simulator has no L2 cache model: the hint changes
nothing, so the copy matches NumPy. Our own kernel in that style."""

from __future__ import annotations

import numpy as np

import pyasc
import pyasc_acl
import pyasc_sim

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void hinted_scale(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    yGm.SetGlobalBuffer((__gm__ float *)y, n);
    xGm.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);      // read once: keep it out of L2
    yGm.SetL2CacheHint<CacheRwMode::WRITE>(AscendC::CacheMode::CACHE_MODE_NORMAL);
    static_assert(static_cast<int>(CacheMode::CACHE_MODE_DISABLE) == 0 &&
                  static_cast<int>(CacheMode::CACHE_MODE_NORMAL) == 1 && READ == 1 && WRITE == 2 && RW == 3,
                  "documented values");
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(t, t, 3.0f, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, t, n);
}
"""


def test_l2_cache_hint_forms_compile_and_change_nothing(tmp_path):
    src = tmp_path / "hinted_scale.cpp"
    src.write_text(SRC)
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O1"), device="sim").function("hinted_scale")
    x = np.random.default_rng(4).standard_normal(64).astype(np.float32)
    y = pyasc.zeros((64,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (pyasc.tensor(x, device="sim"), y, np.uint32(64)))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x * np.float32(3))
