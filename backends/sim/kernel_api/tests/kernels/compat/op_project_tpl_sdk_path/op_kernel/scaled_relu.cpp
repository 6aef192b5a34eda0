// ScaledRelu: y = x * scale, followed by a ReLU in the RELU = 1 instance.  A template kernel over the
// argument its tiling key header declares (tiling template programming), one tile per block.
#include "kernel_operator.h"
#include "scaled_relu_tiling_key.h"

using namespace AscendC;

template <uint32_t RELU>
__global__ __aicore__ void scaled_relu(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(ScaledReluTilingData, tilingData, tiling);
    const uint32_t len = tilingData.totalLength / GetBlockNum();
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + len * GetBlockIdx(), len);
    yGm.SetGlobalBuffer((__gm__ float *)y + len * GetBlockIdx(), len);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, len * sizeof(float));
    pipe.InitBuffer(outQ, 1, len * sizeof(float));
    LocalTensor<float> xl = inQ.AllocTensor<float>();
    DataCopy(xl, xGm, len);
    inQ.EnQue(xl);
    xl = inQ.DeQue<float>();
    LocalTensor<float> yl = outQ.AllocTensor<float>();
    Muls(yl, xl, tilingData.scale, len);
    if constexpr (RELU == 1) {
        Relu(yl, yl, len);
    }
    outQ.EnQue(yl);
    inQ.FreeTensor(xl);
    yl = outQ.DeQue<float>();
    DataCopy(yGm, yl, len);
    outQ.FreeTensor(yl);
}
