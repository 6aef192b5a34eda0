// HostTiledAxpy op kernel (op_kernel/<op>.cpp) of an op project whose host tiling header also declares the
// host tiling class over CANN's host types (op_host/host_tiled_axpy_tiling.h). z = alpha * x + beta * y,
// computed in float for DTYPE_X; the host splits the tiles unevenly over the cores (coreTileStart / coreTileNum
// arrays) and puts alpha / beta / tileLength in a nested struct (TILING_DATA_FIELD_DEF_STRUCT).
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelHostTiledAxpy {
public:
    __aicore__ inline KernelHostTiledAxpy() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const HostTiledAxpyTilingData *tiling)
    {
        uint32_t core = GetBlockIdx();
        tileLength = tiling->params.tileLength;
        alpha = tiling->params.alpha;
        beta = tiling->params.beta;
        tileNum = core < tiling->usedCoreNum ? tiling->coreTileNum[core] : 0;
        uint64_t start = static_cast<uint64_t>(tiling->coreTileStart[core < 8 ? core : 0]) * tileLength;
        xGm.SetGlobalBuffer((__gm__ T *)x + start, tileNum * tileLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, tileNum * tileLength);
        zGm.SetGlobalBuffer((__gm__ T *)z + start, tileNum * tileLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(fx, tileLength * sizeof(float));
        pipe.InitBuffer(fy, tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
            LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
            DataCopy(xLocal, xGm[i * tileLength], tileLength);
            DataCopy(yLocal, yGm[i * tileLength], tileLength);
            inQueueX.EnQue(xLocal);
            inQueueY.EnQue(yLocal);
            xLocal = inQueueX.DeQue<T>();
            yLocal = inQueueY.DeQue<T>();
            LocalTensor<float> a = fx.Get<float>();
            LocalTensor<float> b = fy.Get<float>();
            Cast(a, xLocal, RoundMode::CAST_NONE, tileLength);
            Cast(b, yLocal, RoundMode::CAST_NONE, tileLength);
            inQueueX.FreeTensor(xLocal);
            inQueueY.FreeTensor(yLocal);
            Muls(a, a, alpha, tileLength);
            Muls(b, b, beta, tileLength);
            Add(a, a, b, tileLength);
            LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
            Cast(zLocal, a, RoundMode::CAST_NONE, tileLength);
            outQueueZ.EnQue<T>(zLocal);
            zLocal = outQueueZ.DeQue<T>();
            DataCopy(zGm[i * tileLength], zLocal, tileLength);
            outQueueZ.FreeTensor(zLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    TBuf<TPosition::VECCALC> fx;
    TBuf<TPosition::VECCALC> fy;
    GlobalTensor<T> xGm;
    GlobalTensor<T> yGm;
    GlobalTensor<T> zGm;
    uint32_t tileNum = 0;
    uint32_t tileLength = 0;
    float alpha = 0;
    float beta = 0;
};

extern "C" __global__ __aicore__ void host_tiled_axpy(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace,
                                                      GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    (void)workspace;
    KernelHostTiledAxpy<DTYPE_X> op;
    op.Init(x, y, z, &tilingData);
    op.Process();
}
