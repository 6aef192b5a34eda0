// saxpy kernel for a CPU-debug program: y = a * x + y (tiling key 1) or y = a * x (key 2),
// tiles of tileLength elements split over the blocks.
#include "kernel_operator.h"
#include "saxpy_tiling.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void saxpy(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    GET_TILING_DATA_WITH_STRUCT(SaxpyTiling, t, tiling);
    const uint32_t per = t.totalLength / GetBlockNum();
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x + per * GetBlockIdx(), per);
    yg.SetGlobalBuffer((__gm__ float *)y + per * GetBlockIdx(), per);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> qx, qy;
    pipe.InitBuffer(qx, 1, t.tileLength * sizeof(float));
    pipe.InitBuffer(qy, 1, t.tileLength * sizeof(float));
    for (uint32_t off = 0; off < per; off += t.tileLength) {
        LocalTensor<float> lx = qx.AllocTensor<float>();
        LocalTensor<float> ly = qy.AllocTensor<float>();
        DataCopy(lx, xg[off], t.tileLength);
        DataCopy(ly, yg[off], t.tileLength);
        qx.EnQue(lx);
        qy.EnQue(ly);
        lx = qx.DeQue<float>();
        ly = qy.DeQue<float>();
        Muls(lx, lx, t.a, t.tileLength);
        if (TILING_KEY_IS(1)) {
            Add(ly, lx, ly, t.tileLength);
        } else {
            Adds(ly, lx, 0.0f, t.tileLength);
        }
        SetFlag<HardEvent::V_MTE3>(0);  // the vector result is written before the store reads it
        WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(yg[off], ly, t.tileLength);
        qx.FreeTensor(lx);
        qy.FreeTensor(ly);
    }
}
