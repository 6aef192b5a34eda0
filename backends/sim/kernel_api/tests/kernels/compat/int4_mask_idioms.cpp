// Compatibility kernel (ours, in the style of public quantisation kernels): the mask forms of Cast
// with packed int4b_t. One block quantises 256 half values to int4b_t with the bit-mask form
// (two repeats of 128 elements, CAST_RINT, saturating to [-8, 7]) and dequantises them back to
// half with the continuous-mask form; tests/test_sim_compat_int4_mask.py compares with NumPy.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void int4_mask_round_trip(GM_ADDR x, GM_ADDR packed, GM_ADDR y)
{
    constexpr uint32_t n = 256;  // two repeats of 128 elements
    TPipe pipe;
    TBuf<TPosition::VECCALC> halfBuf, int4Buf, outBuf;
    pipe.InitBuffer(halfBuf, n * sizeof(half));
    pipe.InitBuffer(int4Buf, n / 2);
    pipe.InitBuffer(outBuf, n * sizeof(half));
    GlobalTensor<half> xGm, yGm;
    GlobalTensor<int4b_t> pGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(x), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(y), n);
    pGm.SetGlobalBuffer(reinterpret_cast<__gm__ int4b_t *>(packed), n);
    LocalTensor<half> xLocal = halfBuf.Get<half>();
    LocalTensor<int4b_t> q = int4Buf.Get<int4b_t>();
    LocalTensor<half> yLocal = outBuf.Get<half>();

    DataCopy(xLocal, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    // half -> int4b_t: 128 lanes per repeat; the int4b_t side moves 2 blocks (64 bytes) per repeat
    uint64_t mask[2] = {UINT64_MAX, UINT64_MAX};
    Cast(q, xLocal, RoundMode::CAST_RINT, mask, 2, {1, 1, 2, 8});
    PipeBarrier<PIPE_V>();
    // int4b_t -> half, continuous mask
    Cast(yLocal, q, RoundMode::CAST_NONE, static_cast<uint64_t>(128), 2, {1, 1, 8, 2});
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(pGm, q, n);
    DataCopy(yGm, yLocal, n);
}
