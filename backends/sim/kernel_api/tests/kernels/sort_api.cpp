// Sorting kernels in the style of public Ascend C (a class with Init / Process, TPipe + TQue / TBuf):
// Sort (full and per-32), Sort32 + MrgSort + Extract, Concat, ArithProgression, and the TopK
// high-level API.  Checked against NumPy by tests/test_ascendc_sort_api.py.
#include "kernel_operator.h"
#include "lib/sort/topk.h"
using namespace AscendC;

constexpr uint32_t N = 128;  // scores per kernel: 4 repeats of 32

// x: N scores; s: N (score, index) structs (N * 8 bytes); v: N scores, i: N indices, extracted.
template <typename T, bool isFullSort>
class KernelSort {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR s, GM_ADDR v, GM_ADDR i)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x, N);
        sGm.SetGlobalBuffer((__gm__ T *)s, GetSortLen<T>(N) / sizeof(T));
        vGm.SetGlobalBuffer((__gm__ T *)v, N);
        iGm.SetGlobalBuffer((__gm__ uint32_t *)i, N);
        pipe.InitBuffer(inQ, 1, N * sizeof(T));
        pipe.InitBuffer(sortQ, 1, GetSortLen<T>(N));
        pipe.InitBuffer(valQ, 1, N * sizeof(T));
        pipe.InitBuffer(idxQ, 1, N * sizeof(uint32_t));
        pipe.InitBuffer(idxBuf, N * sizeof(uint32_t));
        pipe.InitBuffer(concatBuf, N * sizeof(T));
        pipe.InitBuffer(tmpBuf, GetSortLen<T>(N));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> x = inQ.AllocTensor<T>();
        DataCopy(x, xGm, N);
        inQ.EnQue(x);
        x = inQ.DeQue<T>();
        LocalTensor<int32_t> idx = idxBuf.Get<int32_t>();
        ArithProgression<int32_t>(idx, 0, 1, N);
        LocalTensor<T> concat = concatBuf.Get<T>();
        LocalTensor<T> tmp = tmpBuf.Get<T>();
        Concat(concat, x, tmp, N / 16);
        LocalTensor<T> sorted = sortQ.AllocTensor<T>();
        Sort<T, isFullSort>(sorted, concat, idx.ReinterpretCast<uint32_t>(), tmp, N / 32);
        LocalTensor<T> val = valQ.AllocTensor<T>();
        LocalTensor<uint32_t> ind = idxQ.AllocTensor<uint32_t>();
        Extract(val, ind, sorted, N / 32);
        sortQ.EnQue(sorted);
        valQ.EnQue(val);
        idxQ.EnQue(ind);
        inQ.FreeTensor(x);
        sorted = sortQ.DeQue<T>();
        val = valQ.DeQue<T>();
        ind = idxQ.DeQue<uint32_t>();
        DataCopy(sGm, sorted, GetSortLen<T>(N) / sizeof(T));
        DataCopy(vGm, val, N);
        DataCopy(iGm, ind, N);
        sortQ.FreeTensor(sorted);
        valQ.FreeTensor(val);
        idxQ.FreeTensor(ind);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> sortQ, valQ, idxQ;
    TBuf<TPosition::VECCALC> idxBuf, concatBuf, tmpBuf;
    GlobalTensor<T> xGm, sGm, vGm;
    GlobalTensor<uint32_t> iGm;
};

extern "C" __global__ __aicore__ void sort_full_f32(GM_ADDR x, GM_ADDR s, GM_ADDR v, GM_ADDR i)
{
    KernelSort<float, true> op;
    op.Init(x, s, v, i);
    op.Process();
}

extern "C" __global__ __aicore__ void sort_groups_f32(GM_ADDR x, GM_ADDR s, GM_ADDR v, GM_ADDR i)
{
    KernelSort<float, false> op;
    op.Init(x, s, v, i);
    op.Process();
}

extern "C" __global__ __aicore__ void sort_full_f16(GM_ADDR x, GM_ADDR s, GM_ADDR v, GM_ADDR i)
{
    KernelSort<half, true> op;
    op.Init(x, s, v, i);
    op.Process();
}

// Sort32 of four groups of 32 half scores (indices from GM), then one MrgSort of the four lists
// (the basic-instruction prototype with MrgSort4Info), then Extract: v / i get all N sorted.
extern "C" __global__ __aicore__ void sort32_merge_f16(GM_ADDR x, GM_ADDR idxIn, GM_ADDR v, GM_ADDR i)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ib, s32, merged, vb, ob;
    pipe.InitBuffer(xb, N * sizeof(half));
    pipe.InitBuffer(ib, N * sizeof(uint32_t));
    pipe.InitBuffer(s32, GetSortLen<half>(N));
    pipe.InitBuffer(merged, GetSortLen<half>(N));
    pipe.InitBuffer(vb, N * sizeof(half));
    pipe.InitBuffer(ob, N * sizeof(uint32_t));
    GlobalTensor<half> xGm, vGm;
    GlobalTensor<uint32_t> inGm, iGm;
    xGm.SetGlobalBuffer((__gm__ half *)x, N);
    inGm.SetGlobalBuffer((__gm__ uint32_t *)idxIn, N);
    vGm.SetGlobalBuffer((__gm__ half *)v, N);
    iGm.SetGlobalBuffer((__gm__ uint32_t *)i, N);
    LocalTensor<half> xl = xb.Get<half>();
    LocalTensor<uint32_t> il = ib.Get<uint32_t>();
    DataCopy(xl, xGm, N);
    DataCopy(il, inGm, N);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    LocalTensor<half> sl = s32.Get<half>();
    Sort32(sl, xl, il, N / 32);
    PipeBarrier<PIPE_V>();
    const uint32_t listElems = GetSortOffset<half>(32) / sizeof(half);  // one sorted list of 32
    MrgSortSrcList<half> lists(sl[0], sl[listElems], sl[2 * listElems], sl[3 * listElems]);
    const uint16_t lengths[4] = {32, 32, 32, 32};
    MrgSort4Info info(lengths, false, 0b1111, 1);
    LocalTensor<half> ml = merged.Get<half>();
    MrgSort(ml, lists, info);
    PipeBarrier<PIPE_V>();
    LocalTensor<half> vl = vb.Get<half>();
    LocalTensor<uint32_t> ol = ob.Get<uint32_t>();
    Extract(vl, ol, ml, N / 32);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(vGm, vl, N);
    DataCopy(iGm, ol, N);
}

// MrgSort of two lists with exhausted suspension (the newer prototype): sortedNum reports how many
// structs of each list went out; counts[0..1] = sortedNum[0..1], counts[2] = structs written.
extern "C" __global__ __aicore__ void merge_two_suspend_f32(GM_ADDR x, GM_ADDR v, GM_ADDR counts)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ib, s32, merged, vb, ob, tb;
    pipe.InitBuffer(xb, 64 * sizeof(float));
    pipe.InitBuffer(ib, 64 * sizeof(uint32_t));
    pipe.InitBuffer(s32, GetSortLen<float>(64));
    pipe.InitBuffer(merged, GetSortLen<float>(64));
    pipe.InitBuffer(vb, 64 * sizeof(float));
    pipe.InitBuffer(ob, 64 * sizeof(uint32_t));
    GlobalTensor<float> xGm, vGm;
    GlobalTensor<uint32_t> cGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 64);
    vGm.SetGlobalBuffer((__gm__ float *)v, 64);
    cGm.SetGlobalBuffer((__gm__ uint32_t *)counts, 8);
    LocalTensor<float> xl = xb.Get<float>();
    DataCopy(xl, xGm, 64);
    LocalTensor<int32_t> il = ib.Get<int32_t>();
    CreateVecIndex(il, 0, 64);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    LocalTensor<float> sl = s32.Get<float>();
    Sort32(sl, xl, il.ReinterpretCast<uint32_t>(), 2);
    PipeBarrier<PIPE_V>();
    LocalTensor<float> ml = merged.Get<float>();
    Duplicate(ml, 0.0f, 128);
    PipeBarrier<PIPE_V>();
    const uint16_t lengths[4] = {32, 32, 0, 0};
    uint32_t sortedNum[4] = {0, 0, 0, 0};
    MrgSort<float, true>(ml, {sl[0], sl[GetSortOffset<float>(32) / sizeof(float)], sl, sl}, lengths, sortedNum, 0b11, 1);
    PipeBarrier<PIPE_V>();
    LocalTensor<float> vl = vb.Get<float>();
    LocalTensor<uint32_t> ol = ob.Get<uint32_t>();
    Extract(vl, ol, ml, 2);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(vGm, vl, 64);
    cGm.SetValue(0, sortedNum[0]);
    cGm.SetValue(1, sortedNum[1]);
    cGm.SetValue(2, sortedNum[0] + sortedNum[1]);
}

// TopK over ROWS rows of INNER floats (the first VALID valid), k = K, normal mode; largest != 0
// picks the largest, else the smallest.  finish[r] != 0 marks row r finished (indices = VALID).
constexpr int32_t ROWS = 4, INNER = 64, VALID = 60, K = 5, KPAD = 8;

extern "C" __global__ __aicore__ void topk_f32(GM_ADDR x, GM_ADDR finish, GM_ADDR v, GM_ADDR i, uint32_t largest)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> xq, fq;
    TQue<TPosition::VECOUT, 1> vq, iq;
    TBuf<TPosition::VECCALC> tmpBuf, srcIdxBuf;
    pipe.InitBuffer(xq, 1, ROWS * INNER * sizeof(float));
    pipe.InitBuffer(fq, 1, 32);
    pipe.InitBuffer(vq, 1, ROWS * KPAD * sizeof(float));
    pipe.InitBuffer(iq, 1, ROWS * KPAD * sizeof(int32_t));
    pipe.InitBuffer(tmpBuf, 8192);
    pipe.InitBuffer(srcIdxBuf, INNER * sizeof(int32_t));
    GlobalTensor<float> xGm, vGm;
    GlobalTensor<int32_t> iGm;
    GlobalTensor<uint8_t> fGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, ROWS * INNER);
    fGm.SetGlobalBuffer((__gm__ uint8_t *)finish, 32);
    vGm.SetGlobalBuffer((__gm__ float *)v, ROWS * KPAD);
    iGm.SetGlobalBuffer((__gm__ int32_t *)i, ROWS * KPAD);
    LocalTensor<float> xl = xq.AllocTensor<float>();
    LocalTensor<uint8_t> fl = fq.AllocTensor<uint8_t>();
    DataCopy(xl, xGm, ROWS * INNER);
    DataCopy(fl, fGm, 32);
    xq.EnQue(xl);
    fq.EnQue(fl);
    xl = xq.DeQue<float>();
    fl = fq.DeQue<uint8_t>();
    LocalTensor<float> vl = vq.AllocTensor<float>();
    LocalTensor<int32_t> il = iq.AllocTensor<int32_t>();
    TopkTiling tiling;
    TopKInfo info;
    info.outter = ROWS;
    info.inner = INNER;
    info.n = VALID;
    LocalTensor<int32_t> srcIdx = srcIdxBuf.Get<int32_t>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    TopK<float, false, true, false, TopKMode::TOPK_NORMAL>(vl, il, xl, srcIdx, fl.ReinterpretCast<bool>(), tmp, K,
                                                          tiling, info, largest != 0);
    vq.EnQue(vl);
    iq.EnQue(il);
    xq.FreeTensor(xl);
    fq.FreeTensor(fl);
    vl = vq.DeQue<float>();
    il = iq.DeQue<int32_t>();
    DataCopy(vGm, vl, ROWS * KPAD);
    DataCopy(iGm, il, ROWS * KPAD);
    vq.FreeTensor(vl);
    iq.FreeTensor(il);
}
