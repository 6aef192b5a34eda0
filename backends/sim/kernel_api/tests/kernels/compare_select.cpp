// Compare + Select: outMin = min(x, y) through a LT bit mask (tensor-tensor mode), outRelu =
// max(x, 0) through Compares + Select (tensor-scalar mode); outMask = the LT bits.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void compare_select(GM_ADDR x, GM_ADDR y, GM_ADDR outMin, GM_ADDR outRelu,
                                                     GM_ADDR outMask)
{
    constexpr uint32_t N = 256;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bmin, brelu, bmask, bmask2;
    pipe.InitBuffer(bx, N * sizeof(float));
    pipe.InitBuffer(by, N * sizeof(float));
    pipe.InitBuffer(bmin, N * sizeof(float));
    pipe.InitBuffer(brelu, N * sizeof(float));
    pipe.InitBuffer(bmask, N / 8);
    pipe.InitBuffer(bmask2, N / 8);
    GlobalTensor<float> xGm, yGm, minGm, reluGm;
    GlobalTensor<uint8_t> maskGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, N);
    yGm.SetGlobalBuffer((__gm__ float *)y, N);
    minGm.SetGlobalBuffer((__gm__ float *)outMin, N);
    reluGm.SetGlobalBuffer((__gm__ float *)outRelu, N);
    maskGm.SetGlobalBuffer((__gm__ uint8_t *)outMask, N / 8);
    LocalTensor<float> xl = bx.Get<float>(), yl = by.Get<float>();
    LocalTensor<float> minl = bmin.Get<float>(), relul = brelu.Get<float>();
    LocalTensor<uint8_t> mask = bmask.Get<uint8_t>(), mask2 = bmask2.Get<uint8_t>();
    DataCopy(xl, xGm, N);
    DataCopy(yl, yGm, N);
    Compare(mask, xl, yl, CMPMODE::LT, N);
    Select(minl, mask, xl, yl, SELMODE::VSEL_TENSOR_TENSOR_MODE, N);
    Compares(mask2, xl, 0.0f, CMPMODE::GT, N);
    Select(relul, mask2, xl, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, N);
    DataCopy(minGm, minl, N);
    DataCopy(reluGm, relul, N);
    DataCopy(maskGm, mask, N / 8);
}
