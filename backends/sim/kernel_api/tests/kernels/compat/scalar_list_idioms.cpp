// A scalar per tensor, as foreach-style kernels read it: the scalar list's GlobalTensor is declared
// with one element (SetGlobalBuffer(scalars, 1)) and read with GetValue(index) for every index; the
// NPU does not bound a GlobalTensor by its declared size, so on hardware each block gets its own
// scalar from the list. For tests/test_sim_compat_scalar_list.py (gm-read-past-size is a warning,
// the accesses that can corrupt or read what is not there stay errors).
//
// Layout: x and y hold kTile floats per block; scalars holds one float per block (or more).
#include "kernel_operator.h"
using namespace AscendC;

namespace {

constexpr uint32_t kTile = 64;

class ScalarListAdds {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR scalars, GM_ADDR y)
    {
        const uint32_t base = kTile * static_cast<uint32_t>(GetBlockIdx());
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + base, kTile);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + base, kTile);
        scalarGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(scalars), 1);
        pipe.InitBuffer(inQueue, 1, kTile * sizeof(float));
        pipe.InitBuffer(outQueue, 1, kTile * sizeof(float));
    }
    __aicore__ inline void Process(uint32_t index)
    {
        const float scalar = scalarGm.GetValue(index);  // BAD(read-past-size)
        LocalTensor<float> in = inQueue.AllocTensor<float>();
        DataCopy(in, xGm, kTile);
        inQueue.EnQue(in);
        in = inQueue.DeQue<float>();
        LocalTensor<float> out = outQueue.AllocTensor<float>();
        Adds(out, in, scalar, kTile);
        inQueue.FreeTensor(in);
        outQueue.EnQue(out);
        out = outQueue.DeQue<float>();
        DataCopy(yGm, out, kTile);
        outQueue.FreeTensor(out);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQueue;
    TQue<TPosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm, scalarGm;
};

}  // namespace

// y = x + scalars[blockIdx + shift] per block; the scalar list declared with one element.
extern "C" __global__ __aicore__ void scalar_list_adds(GM_ADDR x, GM_ADDR scalars, GM_ADDR y, uint32_t shift)
{
    ScalarListAdds op;
    op.Init(x, scalars, y);
    op.Process(static_cast<uint32_t>(GetBlockIdx()) + shift);
}

// The other side: a store through the one-element list past its size, inside the same memory
// (block `bad` writes its sum into scalars[blockIdx]): on hardware it overwrites those bytes.
extern "C" __global__ __aicore__ void scalar_list_store(GM_ADDR x, GM_ADDR scalars, uint32_t bad)
{
    GlobalTensor<float> xGm, scalarGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + kTile * GetBlockIdx(), kTile);
    scalarGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(scalars) + GetBlockIdx(), 1);
    const uint32_t slot = static_cast<uint32_t>(GetBlockIdx()) == bad ? 1 : 0;
    scalarGm.SetValue(slot, xGm.GetValue(0));  // BAD(write-past-size)
}

// And a read past the declared size of bytes another block of the launch writes: block b reads
// out[b + 1] through a one-element view while block b + 1 stores it, with nothing ordering the two.
extern "C" __global__ __aicore__ void scalar_list_neighbour(GM_ADDR x, GM_ADDR out)
{
    GlobalTensor<float> xGm, outGm;
    const uint32_t b = static_cast<uint32_t>(GetBlockIdx());
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + kTile * b, kTile);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out) + 16 * b, 1);
    outGm.SetValue(0, xGm.GetValue(0));
    if (b + 1 < static_cast<uint32_t>(GetBlockNum())) {
        xGm.SetValue(1, outGm.GetValue(16));  // BAD(neighbour-read)
    }
}
