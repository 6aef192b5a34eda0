// Ascend C kernels for tests/test_sim_tensor_checks.py: tensor-exact bounds (the caching
// allocator's blocks), use after free and uninitialised reads. The line that breaks a rule ends
// with a `BAD(<check>)` comment the tests look up.
#include "kernel_operator.h"
using namespace AscendC;

namespace {
constexpr uint32_t kTile = 256;  // floats of local buffer
}  // namespace

// Writes n floats of 3.0 through a GlobalTensor without a size (SetGlobalBuffer(ptr)).
extern "C" __global__ __aicore__ void unsized_store(GM_ADDR z, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z));
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 3.0f, kTile);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, n);  // BAD(gm-out-of-tensor)
}

// z = x + 1 over n floats (x read through a GlobalTensor without a size).
extern "C" __global__ __aicore__ void add_one(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x));
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), n);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, n);  // BAD(gm-read)
    PipeBarrier<PIPE_ALL>();
    Adds(t, t, 1.0f, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, n);
}

// Adds 1 to a local buffer no instruction wrote, then stores it.
extern "C" __global__ __aicore__ void local_uninit(GM_ADDR z, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), n);
    LocalTensor<float> t = buf.Get<float>();
    Adds(t, t, 1.0f, n);  // BAD(local-uninit-read)
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, n);
}

// Writes z through its workspace-style round trip: GM written by the kernel, then read back.
extern "C" __global__ __aicore__ void write_then_read(GM_ADDR z, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, kTile * sizeof(float));
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), n);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 2.0f, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(t, gz, n);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, 2.0f, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, n);
}
