// Ascend C kernels for tests/test_sim_auto_sync.py: the BiSheng compiler's automatic synchronisation
// (--cce-auto-sync, on by default) orders the Scalar Unit against MTE2 / MTE3 / V, and the ordering it inserts
// is a real happens-before edge later accesses build on.  The line a race is reported at ends with a
// `BAD(<tag>)` comment; the earlier instruction of the pair with a `FIRST(<tag>)` comment.
#include "kernel_operator.h"
using namespace AscendC;

namespace {
constexpr uint32_t kTile = 256;  // floats per tile
}  // namespace

// z = x + x[3] through one TBuf with no flag of the kernel's own between the GM -> UB copy and the vector op:
// `flags` bit 0 reads x[3] back with GetValue between them (else the vector op adds 0).  The compiler's
// MTE2 -> S wait before that GetValue stalls the Scalar Unit, which issues the vector op only after it: with
// auto-sync on the read orders the load before the Adds too; without the read (or with auto-sync off, at the
// read) the kernel is missing a pair.
extern "C" __global__ __aicore__ void read_bridges_load(GM_ADDR x, GM_ADDR z, uint32_t flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), kTile);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), kTile);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, kTile);  // FIRST(raw-bridge-mte2-s) FIRST(raw-bridge-mte2-v)
    float v = 0.0f;
    if (flags & 1u) v = t.GetValue(3);  // BAD(raw-bridge-mte2-s)
    Adds(t, t, v, kTile);  // BAD(raw-bridge-mte2-v)
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gz, t, kTile);
}

// z[0, kTile) = 2 x + 1 with z[0] = 2 * 5 + 1, z[kTile, 2 kTile) = 2 x with z[kTile + 1] = 7: a SetValue into a
// tile a vector op wrote (V -> S), a vector op reading the scalar's store (S -> V), a store of a tile the Scalar
// Unit wrote last (S -> MTE3), none with a flag of the kernel's own; the vector result goes out behind its own
// V_MTE3 pair.  `flags` bit 0 writes them all with the kernel's own pairs (as a --cce-auto-sync=off build needs).
extern "C" __global__ __aicore__ void scalar_stores_around_vector(GM_ADDR x, GM_ADDR z, uint32_t flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * kTile * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), kTile);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), 2 * kTile);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, kTile);
    DataCopy(t[kTile], gx, kTile);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    Muls(t, t, 2.0f, 2 * kTile);  // FIRST(war-v-s)
    if (flags & 1u) {
        SetFlag<HardEvent::V_S>(0);
        WaitFlag<HardEvent::V_S>(0);
    }
    t.SetValue(0, 5.0f);  // BAD(war-v-s)
    t.SetValue(kTile + 1, 7.0f);
    if (flags & 1u) {
        SetFlag<HardEvent::S_V>(0);
        WaitFlag<HardEvent::S_V>(0);
    }
    Muls(t, t, 2.0f, 1);  // element 0 only: the scalar's 5 doubled
    Adds(t, t, 1.0f, kTile);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    if (flags & 1u) {
        SetFlag<HardEvent::S_MTE3>(0);
        WaitFlag<HardEvent::S_MTE3>(0);
    }
    DataCopy(gz, t, 2 * kTile);
}

// z[0, kTile) = 2, z[kTile, 2 kTile) = 2 + 2: a GetValue of what a vector op wrote (the compiler's V -> S wait,
// which every later instruction follows), then a new vector op and a store of its result.  The wait covers the
// vector work before it only: `flags` bit 0 keeps the V_MTE3 pair the later vector op still needs.
extern "C" __global__ __aicore__ void vector_after_read(GM_ADDR z, uint32_t flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * kTile * sizeof(float));
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), 2 * kTile);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 2.0f, 2 * kTile);
    const float v = t.GetValue(0);
    Adds(t[kTile], t[kTile], v, kTile);  // FIRST(raw-after-read-v-mte3)
    if (flags & 1u) {
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
    }
    DataCopy(gz, t, 2 * kTile);  // BAD(raw-after-read-v-mte3)
}
