// ScaleAdd op kernel in the op-project style: GM_ADDR x, y, z, workspace, tiling; GET_TILING_DATA;
// DTYPE_X from the build; TILING_KEY_IS selects the variant (key 1: z = x * scale + y (+ bias[0]),
// key 2: z = x * scale - y); the user workspace is cleared with InitGlobalMemory.
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

class KernelScaleAdd {
public:
    __aicore__ inline KernelScaleAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t blockLength, uint32_t tileNum,
                                uint32_t tileLength, float scale, float bias)
    {
        this->tileNum = tileNum;
        this->tileLength = tileLength;
        this->scale = scale;
        this->bias = bias;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y *)y + blockLength * GetBlockIdx(), blockLength);
        zGm.SetGlobalBuffer((__gm__ DTYPE_Z *)z + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(DTYPE_Y));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));
    }
    template <bool SUB>
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            LocalTensor<DTYPE_X> xLocal = inQueueX.AllocTensor<DTYPE_X>();
            LocalTensor<DTYPE_Y> yLocal = inQueueY.AllocTensor<DTYPE_Y>();
            DataCopy(xLocal, xGm[i * tileLength], tileLength);
            DataCopy(yLocal, yGm[i * tileLength], tileLength);
            inQueueX.EnQue(xLocal);
            inQueueY.EnQue(yLocal);
            xLocal = inQueueX.DeQue<DTYPE_X>();
            yLocal = inQueueY.DeQue<DTYPE_Y>();
            LocalTensor<DTYPE_Z> zLocal = outQueueZ.AllocTensor<DTYPE_Z>();
            Muls(zLocal, xLocal, (DTYPE_X)scale, tileLength);
            if constexpr (SUB) {
                Sub(zLocal, zLocal, yLocal, tileLength);
            } else {
                Add(zLocal, zLocal, yLocal, tileLength);
                Adds(zLocal, zLocal, (DTYPE_Z)bias, tileLength);
            }
            outQueueZ.EnQue<DTYPE_Z>(zLocal);
            inQueueX.FreeTensor(xLocal);
            inQueueY.FreeTensor(yLocal);
            zLocal = outQueueZ.DeQue<DTYPE_Z>();
            DataCopy(zGm[i * tileLength], zLocal, tileLength);
            outQueueZ.FreeTensor(zLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<DTYPE_X> xGm;
    GlobalTensor<DTYPE_Y> yGm;
    GlobalTensor<DTYPE_Z> zGm;
    uint32_t tileNum = 0;
    uint32_t tileLength = 0;
    float scale = 0;
    float bias = 0;
};

extern "C" __global__ __aicore__ void scale_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    GM_ADDR usrWorkspace = GetUserWorkspace(workspace);
    if (GetBlockIdx() == 0 && tilingData.workspaceElems > 0) {
        GlobalTensor<int32_t> ws;
        ws.SetGlobalBuffer((__gm__ int32_t *)usrWorkspace, tilingData.workspaceElems);
        InitGlobalMemory(ws, tilingData.workspaceElems, (int32_t)7);
    }
    KernelScaleAdd op;
    op.Init(x, y, z, tilingData.totalLength / GetBlockNum(), tilingData.block.tileNum, tilingData.block.tileLength,
            tilingData.scale, tilingData.useBias ? tilingData.bias[0] : 0.0f);
    if (TILING_KEY_IS(1)) {
        op.Process<false>();
    } else if (TILING_KEY_IS(2)) {
        op.Process<true>();
    }
}
