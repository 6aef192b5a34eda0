// ClampRange op kernel (ours, in the op-project style of public single-core metadata kernels): y = min(max(x, low),
// high) on int32, one block, tiling read with GET_TILING_DATA from the host header that includes
// tiling_base/error_log.h.
#include "kernel_operator.h"

using namespace AscendC;

class ClampRangeKernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ClampRangeTilingData *tiling)
    {
        n_ = tiling->totalLength;
        low_ = tiling->low;
        high_ = tiling->high;
        xGm_.SetGlobalBuffer((__gm__ int32_t *)x, n_);
        yGm_.SetGlobalBuffer((__gm__ int32_t *)y, n_);
        pipe_.InitBuffer(inQue_, 1, n_ * sizeof(int32_t));
        pipe_.InitBuffer(outQue_, 1, n_ * sizeof(int32_t));
    }

    __aicore__ inline void Process()
    {
        LocalTensor<int32_t> xin = inQue_.AllocTensor<int32_t>();
        DataCopy(xin, xGm_, n_);
        inQue_.EnQue(xin);
        xin = inQue_.DeQue<int32_t>();
        LocalTensor<int32_t> yout = outQue_.AllocTensor<int32_t>();
        Maxs(yout, xin, low_, n_);
        PipeBarrier<PIPE_V>();
        Mins(yout, yout, high_, n_);
        inQue_.FreeTensor(xin);
        outQue_.EnQue(yout);
        yout = outQue_.DeQue<int32_t>();
        DataCopy(yGm_, yout, n_);
        outQue_.FreeTensor(yout);
    }

private:
    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> inQue_;
    TQue<QuePosition::VECOUT, 1> outQue_;
    GlobalTensor<int32_t> xGm_, yGm_;
    uint32_t n_ = 0;
    int32_t low_ = 0;
    int32_t high_ = 0;
};

extern "C" __global__ __aicore__ void clamp_range(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(tilingData, tiling);
    if (TILING_KEY_IS(1)) {
        ClampRangeKernel op;
        op.Init(x, y, &tilingData);
        op.Process();
    }
}
