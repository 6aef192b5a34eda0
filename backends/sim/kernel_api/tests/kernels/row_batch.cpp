// Row-batch reductions and broadcasts (round 28's batch-wide row idiom, backends/sim/README.md) on `rows` (<= 8)
// rows of 1024 floats: per-64 WholeReduceMax (ORDER_ONLY_VALUE) / WholeReduceSum partials, each row's
// maximum from its 16 partials, Brcb of the maxima, then one Level-0 Sub (into another buffer) and one
// Level-0 Mul (in place) per 8 rows: each repeat one 8-float column block of the rows (block stride
// 128 blocks), src1 the Brcb blocks (block stride 1, repeat stride 0).
// parts: [0, 128) max partials, [128, 256) sum partials, [256, 264) row maxima; y: [0, 8192) x - max,
// [8192, 16384) x * max (rows past `rows`: -7, and x in the second half).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void row_batch_kernel(GM_ADDR x, GM_ADDR parts, GM_ADDR y, uint32_t rows)
{
    constexpr uint32_t kCols = 1024, kAll = 8 * kCols;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ, partQ;
    TBuf<TPosition::VECCALC> calc;
    pipe.InitBuffer(inQ, 1, kAll * sizeof(float));
    pipe.InitBuffer(outQ, 1, 2 * kAll * sizeof(float));
    pipe.InitBuffer(partQ, 1, 264 * sizeof(float));
    pipe.InitBuffer(calc, 64 * sizeof(float));
    GlobalTensor<float> xGm, pGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, kAll);
    pGm.SetGlobalBuffer((__gm__ float *)parts, 264);
    yGm.SetGlobalBuffer((__gm__ float *)y, 2 * kAll);

    LocalTensor<float> xl = inQ.AllocTensor<float>();
    DataCopy(xl, xGm, kAll);
    inQ.EnQue(xl);
    xl = inQ.DeQue<float>();
    LocalTensor<float> pl = partQ.AllocTensor<float>();
    LocalTensor<float> yl = outQ.AllocTensor<float>();
    LocalTensor<float> bc = calc.Get<float>();
    Duplicate(pl, 0.0f, 264);
    Duplicate(yl, -7.0f, 2 * kAll);
    const int32_t reps = static_cast<int32_t>(rows * kCols / 64);
    WholeReduceMax(pl, xl, 64, reps, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
    WholeReduceSum(pl[128], xl, 64, reps, 1, 1, 8);
    WholeReduceMax(pl[256], pl, 16, static_cast<int32_t>(rows), 1, 1, 2, ReduceOrder::ORDER_ONLY_VALUE);
    Brcb(bc, pl[256], 1, BrcbRepeatParams(1, 8));
    const BinaryRepeatParams rowBroadcast(kCols / 8, kCols / 8, 1, 1, 1, 0);
    Sub(yl, xl, bc, 8 * rows, kCols / 8, rowBroadcast);
    DataCopy(yl[kAll], xl, kAll);
    Mul(yl[kAll], yl[kAll], bc, 8 * rows, kCols / 8, rowBroadcast);
    partQ.EnQue(pl);
    outQ.EnQue(yl);
    inQ.FreeTensor(xl);
    pl = partQ.DeQue<float>();
    yl = outQ.DeQue<float>();
    DataCopy(pGm, pl, 264);
    DataCopy(yGm, yl, 2 * kAll);
    partQ.FreeTensor(pl);
    outQ.FreeTensor(yl);
}
