"""`KERNEL_TASK_TYPE_DEFAULT(type)` / `KERNEL_TASK_TYPE(key, type)` end their own statement (issue 8 point 5): the
NPU toolchain accepts them with or without a trailing `;`, and public op kernels write them both ways (RecSDK's
in_linear_silu puts `KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)` straight before `REGIST_MATMUL_OBJ(...)`).
Our own kernels in that style, one per spelling, each compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

template <int kMode>
__aicore__ inline void ScaleShift(GM_ADDR x, GM_ADDR y, float scale, float shift)
{
    constexpr int32_t kTile = 256;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, kTile * sizeof(float));
    pipe.InitBuffer(outQ, 1, kTile * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * kTile, kTile);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * kTile, kTile);
    LocalTensor<float> a = inQ.AllocTensor<float>();
    DataCopy(a, xGm, kTile);
    inQ.EnQue(a);
    LocalTensor<float> b = inQ.DeQue<float>();
    LocalTensor<float> c = outQ.AllocTensor<float>();
    Muls(c, b, scale, kTile);
    PipeBarrier<PIPE_V>();
    Adds(c, c, shift, kTile);
    outQ.EnQue(c);
    inQ.FreeTensor(b);
    LocalTensor<float> d = outQ.DeQue<float>();
    DataCopy(yGm, d, kTile);
    outQ.FreeTensor(d);
}

// The macro with no `;`, a statement straight after it.
extern "C" __global__ __aicore__ void task_type_bare(GM_ADDR x, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)
    ScaleShift<0>(x, y, 2.0f, 1.0f);
}

// The documented spelling with `;`, and the keyed form before it, also bare.
extern "C" __global__ __aicore__ void task_type_terminated(GM_ADDR x, GM_ADDR y)
{
    KERNEL_TASK_TYPE(0, KERNEL_TYPE_AIV_ONLY)
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    ScaleShift<1>(x, y, -0.5f, 3.0f);
}
"""


@pytest.fixture(scope="module")
def binary(tmp_path_factory):
    src = tmp_path_factory.mktemp("task_type") / "task_type_statement.cpp"
    src.write_text(SRC)
    return pyasc_sim.compile(src, opt="-O1")


@pytest.mark.parametrize("name, scale, shift", [("task_type_bare", 2.0, 1.0), ("task_type_terminated", -0.5, 3.0)])
def test_task_type_macro_with_or_without_semicolon_runs(binary, name, scale, shift):
    blocks, tile = 3, 256
    x = np.random.default_rng(7).uniform(-8, 8, blocks * tile).astype(np.float32)
    y = pyasc.zeros((blocks * tile,), dtype="float32", device="sim")
    fn = pyasc_acl.Binary(binary, device="sim").function(name)
    pyasc_acl.launch(fn, blocks, (pyasc.tensor(x, device="sim"), y))
    pyasc.synchronize("sim")
    expect = (x * np.float32(scale)).astype(np.float32) + np.float32(shift)
    np.testing.assert_array_equal(y.numpy(), expect)
