// Reductions over x (1024 floats): ReduceSum / ReduceMax / ReduceMin (count form, with index),
// WholeReduceSum and WholeReduceMax (8 repeats of 64), and a mask-form ReduceSum.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void reduce_kernel(GM_ADDR x, GM_ADDR out, uint32_t count)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> work;
    pipe.InitBuffer(inQ, 1, 1024 * sizeof(float));
    pipe.InitBuffer(outQ, 1, 64 * sizeof(float));
    pipe.InitBuffer(work, 1024 * sizeof(float));
    GlobalTensor<float> xGm, oGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
    oGm.SetGlobalBuffer((__gm__ float *)out, 64);

    LocalTensor<float> xl = inQ.AllocTensor<float>();
    DataCopy(xl, xGm, 1024);
    inQ.EnQue(xl);
    xl = inQ.DeQue<float>();
    LocalTensor<float> ol = outQ.AllocTensor<float>();
    LocalTensor<float> wl = work.Get<float>();
    Duplicate(ol, 0.0f, 64);
    ReduceSum(ol, xl, wl, count);                 // [0]
    ReduceMax(ol[8], xl, wl, count, true);        // [8] value, [9] index bits
    ReduceMin(ol[16], xl, wl, count, true);       // [16] value, [17] index bits
    WholeReduceSum(ol[24], xl, 64, 8, 1, 1, 8);   // [24, 32): per-repeat sums
    WholeReduceMax(ol[32], xl, 64, 8, 1, 1, 8);   // [32, 48): (value, index) pairs
    ReduceSum(ol[48], xl, wl, 32, 4, 8);          // [48]: first 32 of each of 4 repeats
    outQ.EnQue(ol);
    inQ.FreeTensor(xl);
    ol = outQ.DeQue<float>();
    DataCopy(oGm, ol, 64);
    outQ.FreeTensor(ol);
}
