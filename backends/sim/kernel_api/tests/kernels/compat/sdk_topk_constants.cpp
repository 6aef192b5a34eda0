// Our own kernel in the style of Ascend/DrivingSDK's subm_sparse_conv3d_v2, which divides a kernel size by the
// SDK's `TWO` unqualified (`halfk0_ = k0_ / TWO`): the SDK's TopK implementation declares TWO ... FORTYEIGHT in an
// unnamed namespace at global scope, and kernel_operator.h reaches them. COMPAT.md "Round 31 (s31a)",
// tests/test_sim_compat_own_names_r31.py:
//   half_windows(k, out, n): for each odd window size k[i] (int32), out[2i] = k[i] / TWO (the half width a
//     submanifold convolution centres on) and out[2i + 1] = k[i] * k[i] * k[i] / EIGHT (a 3-D window's eighth).
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t HALF_WINDOW_MAX = 128;

extern "C" __global__ __aicore__ void half_windows(GM_ADDR k, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf;
    TBuf<TPosition::VECCALC> outBuf;
    pipe.InitBuffer(inBuf, HALF_WINDOW_MAX * sizeof(int32_t));
    pipe.InitBuffer(outBuf, 2 * HALF_WINDOW_MAX * sizeof(int32_t));
    GlobalTensor<int32_t> kGm;
    GlobalTensor<int32_t> outGm;
    kGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(k), n);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out), 2 * n);
    LocalTensor<int32_t> kl = inBuf.Get<int32_t>();
    LocalTensor<int32_t> ol = outBuf.Get<int32_t>();
    DataCopyExtParams inParams{1, static_cast<uint32_t>(n * sizeof(int32_t)), 0, 0, 0};
    DataCopyPad(kl, kGm, inParams, DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
    SetFlag<HardEvent::MTE2_S>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_S>(EVENT_ID0);
    for (uint32_t i = 0; i < n; ++i) {
        const uint32_t k0 = static_cast<uint32_t>(kl.GetValue(i));
        ol.SetValue(TWO * i, static_cast<int32_t>(k0 / TWO));
        ol.SetValue(TWO * i + 1, static_cast<int32_t>(k0 * k0 * k0 / EIGHT));
    }
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    DataCopyExtParams outParams{1, static_cast<uint32_t>(TWO * n * sizeof(int32_t)), 0, 0, 0};
    DataCopyPad(outGm, ol, outParams);
}
