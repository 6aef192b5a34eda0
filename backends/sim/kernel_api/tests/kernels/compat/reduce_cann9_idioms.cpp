// Compatibility kernels (ours, in the style of public Ascend C written for CANN 9) for the ReduceType
// reductions: ReduceDataBlock (per DataBlock), ReduceRepeat (per repeat, with the value / index order)
// and ReducePairElem (adjacent pairs), on 4 repeats of 64 floats.
// tests/test_sim_compat_reduce_cann9.py runs them against NumPy.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kN = 256;  // 4 repeats of 64 floats
}  // namespace

// y (256 floats, prefilled by the caller) <- reduction `which` of x:
// 0 ReduceDataBlock SUM, 1 ReduceDataBlock MAX, 2 ReduceDataBlock MIN (bit mask {mask lanes}),
// 3 ReduceRepeat SUM, 4 ReduceRepeat MAX (value, index), 5 ReduceRepeat MIN (index, value),
// 6 ReducePairElem SUM; `mask` is the continuous mask (lanes per repeat).
extern "C" __global__ __aicore__ void reduce9(GM_ADDR x, GM_ADDR y, int32_t which, int32_t mask)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    pipe.InitBuffer(xb, kN * sizeof(float));
    pipe.InitBuffer(yb, kN * sizeof(float));
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<float> yl = yb.Get<float>();
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), kN);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), kN);
    DataCopy(xl, xGm, kN);
    DataCopy(yl, yGm, kN);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    uint64_t bits[2] = {mask >= 64 ? UINT64_MAX : ((uint64_t{1} << mask) - 1), 0};
    switch (which) {
        case 0: ReduceDataBlock<ReduceType::SUM, float>(yl, xl, mask, 4, 1, 1, 8); break;
        case 1: ReduceDataBlock<ReduceType::MAX, float>(yl, xl, mask, 4, 1, 1, 8); break;
        case 2: ReduceDataBlock<ReduceType::MIN, float>(yl, xl, bits, 4, 1, 1, 8); break;
        case 3: ReduceRepeat<ReduceType::SUM, float>(yl, xl, mask, 4, 1, 1, 8); break;
        case 4: ReduceRepeat<ReduceType::MAX, float>(yl, xl, mask, 4, 1, 1, 8); break;
        case 5: ReduceRepeat<ReduceType::MIN, float>(yl, xl, bits, 4, 1, 1, 8, ReduceOrder::ORDER_INDEX_VALUE); break;
        default: ReducePairElem<ReduceType::SUM, float>(yl, xl, mask, 4, 1, 1, 8); break;
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, yl, kN);
}
