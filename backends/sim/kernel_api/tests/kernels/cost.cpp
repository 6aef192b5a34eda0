// Kernels for tests/test_sim_cost_model.py.
//
// spin: every block does the same work whatever the block count: `rounds` times, it streams its
//   `tile` floats of x through a double-buffered UB queue and accumulates them, then writes the
//   sum (tile floats) to its own slice of z. x and z hold tile floats per block.
// idle: does nothing (the fixed cost of a launch and of starting a block).
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void spin(GM_ADDR x, GM_ADDR z, uint32_t tile, uint32_t rounds)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qin;
    TBuf<TPosition::VECCALC> acc;
    pipe.InitBuffer(qin, 2, tile * sizeof(float));
    pipe.InitBuffer(acc, tile * sizeof(float));
    const uint32_t base = tile * static_cast<uint32_t>(GetBlockIdx());
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + base, tile);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + base, tile);
    LocalTensor<float> sum = acc.Get<float>();
    Duplicate(sum, 0.0f, static_cast<int32_t>(tile));
    for (uint32_t r = 0; r < rounds; ++r) {
        LocalTensor<float> t = qin.AllocTensor<float>();
        DataCopy(t, gx, tile);
        qin.EnQue(t);
        t = qin.DeQue<float>();
        Add(sum, sum, t, static_cast<int32_t>(tile));
        qin.FreeTensor(t);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(gz, sum, tile);
}

extern "C" __global__ __aicore__ void idle(GM_ADDR x)
{
    (void)x;
}
