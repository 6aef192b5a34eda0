// Our own kernels in the style of the open ops kernels NPUKernelBench's GeGluGradV2 answer comes from:
// the SDK function behind TransDataTo5HD called directly on two lists of 16 raw `__ubuf__` pointers,
// `TransDataTo5HDImpl(dstList, srcList, params)`, and a tiling struct declared with the
// register/tilingdata_base.h macros whose END_TILING_DATA_DEF carries no semicolon (as GeGluGradV2's host
// tiling header writes it; the toolchain's macro ends with `};`).
#include "kernel_operator.h"
#include "register/tilingdata_base.h"

using namespace AscendC;

namespace ops_impl_idioms {
BEGIN_TILING_DATA_DEF(BlockTiling)
    TILING_DATA_FIELD_DEF(int32_t, rows);
    TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF
}  // namespace ops_impl_idioms

// x: 16 rows of 8 floats (one 32-byte block each). Every row block goes through one TransDataTo5HDImpl
// repeat: y[i] (8 floats) = x[(i % 2) * 8 + k][i / 2] for k = 0..7, i = 0..15, then y *= tiling.scale.
extern "C" __global__ __aicore__ void trans5hd_impl_f32(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    ops_impl_idioms::BlockTiling t = *reinterpret_cast<__gm__ ops_impl_idioms::BlockTiling *>(tiling);
    TPipe pipe;
    TBuf<> inBuf, outBuf;
    pipe.InitBuffer(inBuf, 16 * 8 * sizeof(float));
    pipe.InitBuffer(outBuf, 16 * 8 * sizeof(float));
    LocalTensor<float> in = inBuf.Get<float>();
    LocalTensor<float> out = outBuf.Get<float>();
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x);
    yGm.SetGlobalBuffer((__gm__ float *)y);
    DataCopy(in, xGm, t.rows * 8);
    PipeBarrier<PIPE_ALL>();

    __ubuf__ float *srcAddr = (__ubuf__ float *)in.GetPhyAddr();
    __ubuf__ float *dstAddr = (__ubuf__ float *)out.GetPhyAddr();
    __ubuf__ float *srcList[16];
    __ubuf__ float *dstList[16];
    for (int32_t i = 0; i < 16; i++) {
        srcList[i] = srcAddr + 8 * i;
        dstList[i] = dstAddr + 8 * i;
    }
    struct TransDataTo5HDParams params;
    params.repeatTimes = 1;
    params.srcRepStride = 0;
    params.dstRepStride = 0;
    TransDataTo5HDImpl(dstList, srcList, params);
    PipeBarrier<PIPE_V>();
    Muls(out, out, t.scale, 16 * 8);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, out, 16 * 8);
}
