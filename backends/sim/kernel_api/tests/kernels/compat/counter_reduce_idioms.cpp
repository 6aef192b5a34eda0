// WholeReduceSum / WholeReduceMax in counter mask mode (tests/test_sim_compat_counter_reduce.py), the idiom of RecSDK's
// segment_sum_csr (COMPAT.md round 30): SetMaskCount, then SetVectorMask<T, MaskMode::COUNTER>(0, n) gives the
// number of elements, the call passes isSetMask = false, MASK_PLACEHOLDER and a repeatTime of 1 (which has no
// effect: the Vector Unit infers n / 64 full repeats and a partial last one, SetMaskCount page), and each repeat's
// result lands at r * dstRepStride. SetMaskNorm and ResetMask restore the normal mode afterwards.
//
// counter_reduce(x, sums, maxes, n): sums[r] / maxes[r] = the sum / maximum of x[64 r, min(64 r + 64, n)) for every
// repeat r, the rest of the first `slots` outputs 0 (n > 0, slots = a multiple of 8 >= the repeats, n floats and
// slots floats fit one 32 KiB tile each).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void counter_reduce(GM_ADDR x, GM_ADDR sums, GM_ADDR maxes, uint32_t n,
                                                      uint32_t slots)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, sumBuf, maxBuf;
    GlobalTensor<float> xGm, sumGm, maxGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    sumGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(sums), slots);
    maxGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(maxes), slots);
    pipe.InitBuffer(inBuf, 32 * 1024);
    pipe.InitBuffer(sumBuf, slots * sizeof(float));
    pipe.InitBuffer(maxBuf, slots * sizeof(float));
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> s = sumBuf.Get<float>();
    LocalTensor<float> m = maxBuf.Get<float>();

    DataCopyPad(in, xGm, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0});
    Duplicate(s, 0.0f, static_cast<int32_t>(slots));
    Duplicate(m, 0.0f, static_cast<int32_t>(slots));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);

    SetMaskCount();
    SetVectorMask<float, MaskMode::COUNTER>(0, n);
    WholeReduceSum<float, false>(s, in, MASK_PLACEHOLDER, 1, 1, 1, 8);  // marker: counter-sum
    WholeReduceMax<float, false>(m, in, MASK_PLACEHOLDER, 1, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
    SetMaskNorm();
    ResetMask();

    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(sumGm, s, slots);
    DataCopy(maxGm, m, slots);
}

// reduce_dst_at(x, out, n, dstByte, op): the count-form ReduceSum (op 0), ReduceMax with calIndex (op 1) or the
// mask-form ReduceSum (op 2: mask n, one repeat) of the first n floats of x (n <= 64), its result written dstByte
// bytes into a 32-byte block (SkychenLee's MoE-LoRA idiom: per-row sums packed into one block); the block goes to
// out. Their pages ask dst only for one result's alignment: ReduceSum 4 bytes for float (atlasascendc_api_07_0078),
// ReduceMax the value + index pair, 8 bytes (07_0075).
extern "C" __global__ __aicore__ void reduce_dst_at(GM_ADDR x, GM_ADDR out, uint32_t n, uint32_t dstByte, uint32_t op)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> inBuf, workBuf, outBuf;
    GlobalTensor<float> xGm, outGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), 16);
    pipe.InitBuffer(inBuf, 256);
    pipe.InitBuffer(workBuf, 256);
    pipe.InitBuffer(outBuf, 64);
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> work = workBuf.Get<float>();
    LocalTensor<float> block = outBuf.Get<float>();
    DataCopyPad(in, xGm, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0});
    Duplicate(block, -7.0f, 16);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    LocalTensor<float> dst = outBuf.Get<uint8_t>()[dstByte].ReinterpretCast<float>();
    if (op == 0) {
        ReduceSum<float>(dst, in, work, static_cast<int32_t>(n));
    } else if (op == 2) {
        ReduceSum<float>(dst, in, work, static_cast<int32_t>(n), 1, 8);
    } else {
        ReduceMax<float>(dst, in, work, static_cast<int32_t>(n), true);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, block, 16);
}
