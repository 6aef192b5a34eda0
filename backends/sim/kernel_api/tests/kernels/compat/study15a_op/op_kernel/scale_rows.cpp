// GET_TILING_DATA / GET_TILING_DATA_WITH_STRUCT written without a trailing semicolon, as public op
// kernels do (RecSDK's recops split_embedding c310 kernel): the NPU build takes each as a complete
// statement.  y = alpha * x, `rowsPerCore` rows of `cols` floats per core.
#include "kernel_operator.h"

using namespace AscendC;

class ScaleRows {
public:
    __aicore__ inline ScaleRows(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
    {
        GET_TILING_DATA(tilingData, tiling)
        cols_ = tilingData.cols;
        rows_ = tilingData.rowsPerCore;
        alpha_ = tilingData.alpha;
        uint64_t offset = static_cast<uint64_t>(GetBlockIdx()) * rows_ * cols_;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + offset, rows_ * cols_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + offset, rows_ * cols_);
        pipe_.InitBuffer(que_, 2, cols_ * sizeof(float));
    }

    __aicore__ inline void Process(GM_ADDR tiling)
    {
        GET_TILING_DATA_WITH_STRUCT(ScaleRowsTilingData, again, tiling)
        for (uint32_t r = 0; r < again.rowsPerCore; ++r) {
            LocalTensor<float> t = que_.AllocTensor<float>();
            DataCopy(t, xGm_[r * cols_], cols_);
            que_.EnQue(t);
            t = que_.DeQue<float>();
            Muls(t, t, alpha_, cols_);
            que_.EnQue(t);
            t = que_.DeQue<float>();
            DataCopy(yGm_[r * cols_], t, cols_);
            que_.FreeTensor(t);
        }
    }

private:
    TPipe pipe_;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> que_;
    GlobalTensor<float> xGm_;
    GlobalTensor<float> yGm_;
    uint32_t cols_;
    uint32_t rows_;
    float alpha_;
};

extern "C" __global__ __aicore__ void scale_rows(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    ScaleRows op(x, y, tiling);
    op.Process(tiling);
}
