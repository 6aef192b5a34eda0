// TplScale in the tiling-template style: one template parameter per ASCENDC_TPL_ARGS_DECL entry
// (D_T_X picks the dtype, TILE_NUM the tiles per block, RELU a trailing ReLU):
// y = [relu](x * scale + bias).  Block 0 also stores TILING_KEY_VAR and its template arguments in
// `meta` so the test can see which instance ran under which key.
#include "kernel_operator.h"
#include "tpl_scale_tiling.h"
#include "tpl_scale_tiling_key.h"

using namespace AscendC;

template <uint32_t D_T_X>
struct TplScaleType {
    using T = float;
};
template <>
struct TplScaleType<TPL_SCALE_FP16> {
    using T = half;
};

template <typename T, uint32_t TILE_NUM, bool RELU>
class KernelTplScale {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const TplScaleTilingData &t)
    {
        blockLength = t.totalLength / GetBlockNum();
        tileLength = blockLength / TILE_NUM;
        scale = t.scale;
        bias = t.bias;
        xGm.SetGlobalBuffer((__gm__ T *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQ, 2, tileLength * sizeof(T));
        pipe.InitBuffer(outQ, 2, tileLength * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < TILE_NUM; i++) {
            LocalTensor<T> xl = inQ.AllocTensor<T>();
            DataCopy(xl, xGm[i * tileLength], tileLength);
            inQ.EnQue(xl);
            xl = inQ.DeQue<T>();
            LocalTensor<T> yl = outQ.AllocTensor<T>();
            Muls(yl, xl, (T)scale, tileLength);
            Adds(yl, yl, (T)bias, tileLength);
            if constexpr (RELU) {
                Relu(yl, yl, tileLength);
            }
            outQ.EnQue(yl);
            inQ.FreeTensor(xl);
            yl = outQ.DeQue<T>();
            DataCopy(yGm[i * tileLength], yl, tileLength);
            outQ.FreeTensor(yl);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    GlobalTensor<T> xGm, yGm;
    uint32_t blockLength = 0, tileLength = 0;
    float scale = 0, bias = 0;
};

template <uint32_t D_T_X, uint32_t TILE_NUM, bool RELU>
__global__ __aicore__ void tpl_scale(GM_ADDR x, GM_ADDR y, GM_ADDR meta, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TplScaleTilingData);
    GET_TILING_DATA_WITH_STRUCT(TplScaleTilingData, tilingData, tiling);
    if (GetBlockIdx() == 0) {
        GlobalTensor<uint32_t> m;
        m.SetGlobalBuffer((__gm__ uint32_t *)meta, 4);
        m.SetValue(0, static_cast<uint32_t>(TILING_KEY_VAR));
        m.SetValue(1, D_T_X);
        m.SetValue(2, TILE_NUM);
        m.SetValue(3, RELU ? 1u : 0u);
    }
    KernelTplScale<typename TplScaleType<D_T_X>::T, TILE_NUM, RELU> op;
    op.Init(x, y, tilingData);
    op.Process();
}
