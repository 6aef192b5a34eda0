// Our own kernel in the style of Ascend/DrivingSDK's grid_sampler3d_grad_v1: right after kernel_operator.h the
// kernel declares `INT_MAX` / `INT_MIN` itself, in an unnamed namespace, as CANN's kernel_operator.h leaves those
// names free (no <climits> macros behind it). COMPAT.md "Round 31 (s31a)", tests/test_sim_compat_own_names_r31.py:
//   clamp_to_int(x, out, n): out[i] = x[i] (a float) clamped to [INT_MIN, INT_MAX] and truncated to int32 -- the
//     kernel's own constants, compared in float as the public kernel's bounds checks do; scalar over a UB tile.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr int32_t INT_MAX = 2147483647;
constexpr int32_t INT_MIN = -2147483647 - 1;
constexpr uint32_t CLAMP_MAX = 256;
}  // namespace

extern "C" __global__ __aicore__ void clamp_to_int(GM_ADDR x, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf;
    TBuf<TPosition::VECCALC> outBuf;
    pipe.InitBuffer(inBuf, CLAMP_MAX * sizeof(float));
    pipe.InitBuffer(outBuf, CLAMP_MAX * sizeof(int32_t));
    GlobalTensor<float> xGm;
    GlobalTensor<int32_t> outGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out), n);
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<int32_t> res = outBuf.Get<int32_t>();
    DataCopyExtParams params{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
    DataCopyPad(in, xGm, params, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
    for (uint32_t i = 0; i < n; ++i) {
        const float v = in.GetValue(i);
        int32_t r;
        if (v >= static_cast<float>(INT_MAX)) {
            r = INT_MAX;
        } else if (v <= static_cast<float>(INT_MIN)) {
            r = INT_MIN;
        } else {
            r = static_cast<int32_t>(v);
        }
        res.SetValue(i, r);
    }
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    DataCopyPad(outGm, res, params);
}
