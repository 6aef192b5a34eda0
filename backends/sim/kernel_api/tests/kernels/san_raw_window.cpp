// Ascend C kernel for tests/test_sim_raw_window.py: how long a failing raw __gm__ store's bytes stay
// visible. The hooks cannot stop the store (raw_gm.h), so it lands; the kernel API puts the bytes back
// at the block's next device-memory access, so what the kernel itself then reads from the neighbour
// is the neighbour's own value (it used to stay wrong until the block ended).
#include "kernel_operator.h"
using namespace AscendC;

// nb = x + off, a live tensor the kernel was not given: stores 9.0 into nb[0] (the planted bug), reads
// its own x[0], then copies x[0] and what nb[0] holds now into y[0], y[1].
extern "C" __global__ __aicore__ void raw_store_then_look(GM_ADDR x, GM_ADDR y, int64_t off)
{
    volatile __gm__ float *px = reinterpret_cast<volatile __gm__ float *>(x);
    volatile __gm__ float *nb = reinterpret_cast<volatile __gm__ float *>(x + off);
    volatile __gm__ float *py = reinterpret_cast<volatile __gm__ float *>(y);
    nb[0] = 9.0f;  // BAD(raw-window)
    const float own = px[0];  // the next device-memory access: the store has landed and is put back here
    py[0] = own;
    py[1] = nb[0];
}
