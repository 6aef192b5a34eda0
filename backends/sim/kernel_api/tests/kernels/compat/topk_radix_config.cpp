#include "kernel_operator.h"
// The Atlas 350 TopK configuration idiom of public retrieval kernels: TopK<float, isInitIndex, false, false,
// TopKMode::TOPK_NORMAL, config> with a static constexpr TopKConfig{TopKAlgo::RADIX_SELECT, order, sorted} as the
// last template argument, over rows longer than MERGE_SORT's 4096 elements.
//   topk_radix_smallest: order SMALLEST (isLargest true is then ignored), sorted, indices taken from the input index
//     vector (isInitIndex true).
//   topk_radix_largest: order UNSET (isLargest true decides), unsorted (any order of the k best), positions as indices.
using namespace AscendC;

static constexpr TopKConfig kSmallestSorted{TopKAlgo::RADIX_SELECT, TopKOrder::SMALLEST, true};
static constexpr TopKConfig kUnsetUnsorted{TopKAlgo::RADIX_SELECT, TopKOrder::UNSET, false};

template <const TopKConfig &CFG, bool INIT_INDEX>
__aicore__ inline void RadixTopK(GM_ADDR x, GM_ADDR idxIn, GM_ADDR values, GM_ADDR indices, uint32_t rows,
                                 uint32_t inner, uint32_t k)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> xQue, idxQue;
    TQue<TPosition::VECOUT, 1> valQue, outIdxQue;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<float> xGm, valGm;
    GlobalTensor<int32_t> idxGm, outIdxGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    valGm.SetGlobalBuffer((__gm__ float *)values);
    outIdxGm.SetGlobalBuffer((__gm__ int32_t *)indices);
    const uint32_t kPad = (k + 7) / 8 * 8;
    pipe.InitBuffer(xQue, 1, rows * inner * sizeof(float));
    pipe.InitBuffer(idxQue, 1, inner * sizeof(int32_t));
    pipe.InitBuffer(valQue, 1, rows * kPad * sizeof(float));
    pipe.InitBuffer(outIdxQue, 1, rows * kPad * sizeof(int32_t));
    pipe.InitBuffer(tmpBuf, 32);

    LocalTensor<float> xLocal = xQue.AllocTensor<float>();
    DataCopy(xLocal, xGm, rows * inner);
    xQue.EnQue(xLocal);
    LocalTensor<int32_t> idxLocal;
    if constexpr (INIT_INDEX) {
        idxGm.SetGlobalBuffer((__gm__ int32_t *)idxIn);
        idxLocal = idxQue.AllocTensor<int32_t>();
        DataCopy(idxLocal, idxGm, inner);
        idxQue.EnQue(idxLocal);
        idxLocal = idxQue.DeQue<int32_t>();
    }
    xLocal = xQue.DeQue<float>();

    LocalTensor<float> valLocal = valQue.AllocTensor<float>();
    LocalTensor<int32_t> outIdxLocal = outIdxQue.AllocTensor<int32_t>();
    LocalTensor<bool> finish;
    TopkTiling tiling;
    TopKInfo info;
    info.outter = rows;
    info.inner = inner;
    info.n = inner;
    TopK<float, INIT_INDEX, false, false, TopKMode::TOPK_NORMAL, CFG>(valLocal, outIdxLocal, xLocal, idxLocal, finish,
                                                                     tmpBuf.Get<uint8_t>(), k, tiling, info, true);
    valQue.EnQue(valLocal);
    outIdxQue.EnQue(outIdxLocal);
    xQue.FreeTensor(xLocal);
    if constexpr (INIT_INDEX) {
        idxQue.FreeTensor(idxLocal);
    }
    valLocal = valQue.DeQue<float>();
    outIdxLocal = outIdxQue.DeQue<int32_t>();
    DataCopy(valGm, valLocal, rows * kPad);
    DataCopy(outIdxGm, outIdxLocal, rows * kPad);
    valQue.FreeTensor(valLocal);
    outIdxQue.FreeTensor(outIdxLocal);
}

extern "C" __global__ __aicore__ void topk_radix_smallest(GM_ADDR x, GM_ADDR idxIn, GM_ADDR values, GM_ADDR indices,
                                                          uint32_t rows, uint32_t inner, uint32_t k)
{
    RadixTopK<kSmallestSorted, true>(x, idxIn, values, indices, rows, inner, k);
}

extern "C" __global__ __aicore__ void topk_radix_largest(GM_ADDR x, GM_ADDR values, GM_ADDR indices, uint32_t rows,
                                                         uint32_t inner, uint32_t k)
{
    RadixTopK<kUnsetUnsorted, false>(x, nullptr, values, indices, rows, inner, k);
}
