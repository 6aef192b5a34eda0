// Our own kernels in the style of the public softmax-backward kernels (NPUKernelBench's
// InplaceFusedMatmulSoftmaxGrad answer): SoftmaxGrad<T, false>(dst, grad, src, tiling, isFront, shape) over rows
// of a padded last axis, its isFront form (the row sums, one 32-byte block per row), and SoftmaxGradFront with a
// caller-provided sharedTmpBuffer.  The SoftMaxTiling comes from the launch's tiling argument.
#include "kernel_operator.h"

using namespace AscendC;

namespace softmax_grad_idioms {
constexpr int32_t M = 6;    // rows
constexpr int32_t K = 32;   // row stride (elements, 32-byte multiple for half and float)
constexpr int32_t KV = 27;  // valid columns of a row

template <typename T>
class SoftmaxGradRows {
public:
    __aicore__ inline void Init(GM_ADDR grad, GM_ADDR src, GM_ADDR dx, GM_ADDR sums, GM_ADDR tiling)
    {
        gradGm.SetGlobalBuffer((__gm__ T *)grad, M * K);
        srcGm.SetGlobalBuffer((__gm__ T *)src, M * K);
        dxGm.SetGlobalBuffer((__gm__ T *)dx, M * K);
        sumGm.SetGlobalBuffer((__gm__ T *)sums, M * 32 / sizeof(T) * 2);
        tilingData = *reinterpret_cast<__gm__ SoftMaxTiling *>(tiling);
        pipe.InitBuffer(inQueue, 2, M * K * sizeof(T));
        pipe.InitBuffer(outQueue, 1, M * K * sizeof(T));
        pipe.InitBuffer(sumQueue, 1, M * 32 * 2);
        pipe.InitBuffer(tmpBuf, M * K * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<T> g = inQueue.AllocTensor<T>();
        LocalTensor<T> y = inQueue.AllocTensor<T>();
        DataCopy(g, gradGm, M * K);
        DataCopy(y, srcGm, M * K);
        inQueue.EnQue(g);
        inQueue.EnQue(y);
        g = inQueue.DeQue<T>();
        y = inQueue.DeQue<T>();
        LocalTensor<T> dx = outQueue.AllocTensor<T>();
        LocalTensor<T> s = sumQueue.AllocTensor<T>();
        SoftMaxShapeInfo shape = {M, K, M, KV};
        Duplicate(dx, static_cast<T>(-7), M * K);  // the padding columns keep this
        PipeBarrier<PIPE_V>();
        SoftmaxGrad<T, false>(dx, g, y, tilingData, false, shape);
        SoftmaxGrad<T, false>(s, g, y, tilingData, true, shape);  // isFront: the row sums
        LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
        SoftmaxGradFront<T>(s[M * 32 / sizeof(T)], g, y, tmp, tilingData, shape);
        outQueue.EnQue(dx);
        sumQueue.EnQue(s);
        inQueue.FreeTensor(g);
        inQueue.FreeTensor(y);
        dx = outQueue.DeQue<T>();
        s = sumQueue.DeQue<T>();
        DataCopy(dxGm, dx, M * K);
        DataCopy(sumGm, s, M * 32 / sizeof(T) * 2);
        outQueue.FreeTensor(dx);
        sumQueue.FreeTensor(s);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue, sumQueue;
    TBuf<TPosition::VECCALC> tmpBuf;
    GlobalTensor<T> gradGm, srcGm, dxGm, sumGm;
    SoftMaxTiling tilingData;
};
}  // namespace softmax_grad_idioms

// dx = (grad - rowsum(grad * y)) * y over the first KV columns of each row; sums: the isFront row sums
// (M blocks) then SoftmaxGradFront's (M more blocks).
extern "C" __global__ __aicore__ void softmax_grad_f32(GM_ADDR grad, GM_ADDR y, GM_ADDR dx, GM_ADDR sums,
                                                       GM_ADDR tiling)
{
    softmax_grad_idioms::SoftmaxGradRows<float> op;
    op.Init(grad, y, dx, sums, tiling);
    op.Process();
}
extern "C" __global__ __aicore__ void softmax_grad_f16(GM_ADDR grad, GM_ADDR y, GM_ADDR dx, GM_ADDR sums,
                                                       GM_ADDR tiling)
{
    softmax_grad_idioms::SoftmaxGradRows<half> op;
    op.Init(grad, y, dx, sums, tiling);
    op.Process();
}

// sharedTmpBuffer smaller than one row of float products: an error naming GetSoftMaxGradMinTmpSize.
extern "C" __global__ __aicore__ void softmax_grad_small_tmp(GM_ADDR grad, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, tmpBuf;
    pipe.InitBuffer(buf, 3 * 4 * 64 * sizeof(float));
    pipe.InitBuffer(tmpBuf, 64);
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> gm;
    gm.SetGlobalBuffer((__gm__ float *)grad, 4 * 64);
    DataCopy(t, gm, 4 * 64);
    DataCopy(t[4 * 64], gm, 4 * 64);
    SoftMaxTiling tl = *reinterpret_cast<__gm__ SoftMaxTiling *>(tiling);
    SoftMaxShapeInfo shape = {4, 64, 4, 64};
    SoftmaxGradFront<float>(t[8 * 64], t, t[4 * 64], tmpBuf.Get<uint8_t>(), tl, shape);  // small-tmp line
}
