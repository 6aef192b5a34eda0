// Ascend C kernels for tests/test_sim_races_r15.py: the two flag pairs our kernels use that
// races.cpp has no planted bug for (issue 10 acceptance, round 15 audit): MTE2 -> MTE3 (a tile
// copied GM -> UB -> GM with no vector op in between) and MTE2 -> S (a scalar read of loaded data).
// `flags` bit 0 keeps the pair; without it the second instruction (marked `BAD(<tag>)`) races the
// first (marked `FIRST(<tag>)`).
#include "kernel_operator.h"
using namespace AscendC;

namespace {
constexpr uint32_t kTile = 256;  // floats per tile
}  // namespace

// z = x over one tile through one TBuf.
extern "C" __global__ __aicore__ void copy_through_ub(GM_ADDR x, GM_ADDR z, uint32_t flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), kTile);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), kTile);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, kTile);  // FIRST(raw-mte2-mte3)
    if (flags & 1u) {
        SetFlag<HardEvent::MTE2_MTE3>(0);
        WaitFlag<HardEvent::MTE2_MTE3>(0);
    }
    DataCopy(gz, t, kTile);  // BAD(raw-mte2-mte3)
}

// z[0] = x[3] read by the scalar unit from the loaded tile.
extern "C" __global__ __aicore__ void scalar_after_load(GM_ADDR x, GM_ADDR z, uint32_t flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), kTile);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), 8);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, kTile);  // FIRST(raw-mte2-s)
    if (flags & 1u) {
        SetFlag<HardEvent::MTE2_S>(0);
        WaitFlag<HardEvent::MTE2_S>(0);
    }
    const float v = t.GetValue(3);  // BAD(raw-mte2-s)
    gz.SetValue(0, v);
}
