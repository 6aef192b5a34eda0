// Compatibility kernels (ours, in the style of public Ascend C): the TopK high-level API on half
// scores, as kernels written for the Atlas inference series (Ascend310P) call it -- rows of `inner`
// halves (the first n valid), the k largest or smallest of each, with the API's own indices or with
// indices passed in srcIndexLocal.  tests/test_sim_compat_topk_310p.py compiles them for Ascend310P3
// (and Ascend910B1) and compares with NumPy.
#include "kernel_operator.h"
#include "lib/sort/topk.h"

using namespace AscendC;

namespace {
constexpr int32_t kRows = 2;
constexpr int32_t kMaxInner = 2080;
constexpr int32_t kMaxKPad = 32;  // k <= 32 in the tests: k_pad (16 halves) / kpad_index (8 int32) rows

template <bool isInitIndex>
__aicore__ inline void TopKRows(GM_ADDR x, GM_ADDR srcIndex, GM_ADDR values, GM_ADDR indices, int32_t inner,
                                int32_t n, int32_t k, uint32_t largest)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> xQue, idxQue;
    TQue<QuePosition::VECOUT, 1> valQue, outIdxQue;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(xQue, 1, kRows * kMaxInner * sizeof(half));
    pipe.InitBuffer(idxQue, 1, kMaxInner * sizeof(int32_t));
    pipe.InitBuffer(valQue, 1, kRows * kMaxKPad * sizeof(half));
    pipe.InitBuffer(outIdxQue, 1, kRows * kMaxKPad * sizeof(int32_t));
    pipe.InitBuffer(tmpBuf, 16 * 1024);
    const int32_t kPad = (k + 15) / 16 * 16;
    const int32_t kPadIdx = (k + 7) / 8 * 8;
    GlobalTensor<half> xGm, valGm;
    GlobalTensor<int32_t> srcIdxGm, idxGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(x), kRows * inner);
    srcIdxGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(srcIndex), inner);
    valGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(values), kRows * kPad);
    idxGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(indices), kRows * kPadIdx);

    LocalTensor<half> xLocal = xQue.AllocTensor<half>();
    LocalTensor<int32_t> srcIdxLocal = idxQue.AllocTensor<int32_t>();
    DataCopy(xLocal, xGm, kRows * inner);
    if (isInitIndex) {
        DataCopy(srcIdxLocal, srcIdxGm, inner);
    }
    xQue.EnQue(xLocal);
    idxQue.EnQue(srcIdxLocal);
    xLocal = xQue.DeQue<half>();
    srcIdxLocal = idxQue.DeQue<int32_t>();

    LocalTensor<half> valLocal = valQue.AllocTensor<half>();
    LocalTensor<int32_t> outIdxLocal = outIdxQue.AllocTensor<int32_t>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    LocalTensor<bool> finishLocal;
    TopkTiling tiling;
    TopKInfo info;
    info.outter = kRows;
    info.inner = inner;
    info.n = n;
    TopK<half, isInitIndex, false, false, TopKMode::TOPK_NORMAL>(valLocal, outIdxLocal, xLocal, srcIdxLocal,
                                                                 finishLocal, tmp, k, tiling, info, largest != 0);
    valQue.EnQue(valLocal);
    outIdxQue.EnQue(outIdxLocal);
    xQue.FreeTensor(xLocal);
    idxQue.FreeTensor(srcIdxLocal);
    valLocal = valQue.DeQue<half>();
    outIdxLocal = outIdxQue.DeQue<int32_t>();
    DataCopy(valGm, valLocal, kRows * kPad);
    DataCopy(idxGm, outIdxLocal, kRows * kPadIdx);
    valQue.FreeTensor(valLocal);
    outIdxQue.FreeTensor(outIdxLocal);
}
}  // namespace

extern "C" __global__ __aicore__ void topk_half_rows(GM_ADDR x, GM_ADDR srcIndex, GM_ADDR values, GM_ADDR indices,
                                                     int32_t inner, int32_t n, int32_t k, uint32_t largest)
{
    TopKRows<false>(x, srcIndex, values, indices, inner, n, k, largest);
}

extern "C" __global__ __aicore__ void topk_half_rows_idx(GM_ADDR x, GM_ADDR srcIndex, GM_ADDR values,
                                                         GM_ADDR indices, int32_t inner, int32_t n, int32_t k,
                                                         uint32_t largest)
{
    TopKRows<true>(x, srcIndex, values, indices, inner, n, k, largest);
}
