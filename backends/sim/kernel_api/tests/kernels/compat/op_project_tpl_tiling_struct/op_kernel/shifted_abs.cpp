// ShiftedAbs: y = x + shift, and |x + shift| in the MODE = 2 instance.  A template kernel whose key
// header's selections each name the tiling struct (ASCENDC_TPL_TILING_STRUCT_SEL); the struct is a
// plain one, read with REGISTER_TILING_DEFAULT + GET_TILING_DATA.  One tile per block.
#include "kernel_operator.h"
#include "shifted_abs_tiling_key.h"

using namespace AscendC;

template <uint32_t MODE>
__global__ __aicore__ void shifted_abs(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(ShiftedAbsTilingData);
    GET_TILING_DATA(tilingData, tiling);
    const uint32_t len = static_cast<uint32_t>(tilingData.totalLength) / GetBlockNum();
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
    Adds(yl, xl, tilingData.shift, len);
    if constexpr (MODE == SHIFTED_ABS_MODE_ABS) {
        PipeBarrier<PIPE_V>();
        Abs(yl, yl, len);
    }
    outQ.EnQue(yl);
    inQ.FreeTensor(xl);
    yl = outQ.DeQue<float>();
    DataCopy(yGm, yl, len);
    outQ.FreeTensor(yl);
}
