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

// Initcheck over every 32-byte sector a read touches, not only its first one. Fills only the
// first half of a 64-float buffer, then reads it in the way `mode` says: 0 a count-form vector op
// over all 64, 1 a DataCopy of all 64 to GM, 2 a mask/repeat-form vector op over one 256-byte
// repeat (each reported at the first unwritten sector, UB offset 128); 3 a repeat form with
// srcBlkStride 2 reading only the even blocks, all written (clean: stride gaps are not read).
extern "C" __global__ __aicore__ void local_uninit_tail(GM_ADDR z, uint32_t mode)
{
    constexpr uint32_t n = 64;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufIn, bufOut;
    pipe.InitBuffer(bufIn, n * sizeof(float));
    pipe.InitBuffer(bufOut, n * sizeof(float));
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), n);
    LocalTensor<float> in = bufIn.Get<float>();
    LocalTensor<float> out = bufOut.Get<float>();
    Duplicate(out, 0.0f, n);
    if (mode == 3) {
        for (uint32_t b = 0; b < 8; b += 2) Duplicate(in[b * 8], 3.0f, 8);  // blocks 0, 2, 4, 6
    } else {
        Duplicate(in, 3.0f, n / 2);  // sectors 0..3 (bytes [0, 128))
    }
    PipeBarrier<PIPE_V>();
    if (mode == 0) {
        Adds(out, in, 1.0f, n);  // BAD(uninit-tail-count)
    } else if (mode == 2) {
        Adds(out, in, 1.0f, static_cast<uint64_t>(n), 1, {1, 1, 8, 8});  // BAD(uninit-tail-repeat)
    } else if (mode == 3) {
        Adds(out, in, 1.0f, static_cast<uint64_t>(n / 2), 1, {1, 2, 8, 8});  // 4 blocks, every other one
    }
    PipeBarrier<PIPE_ALL>();
    if (mode == 1) {
        DataCopy(gz, in, n);  // BAD(uninit-tail-copy)
    } else {
        DataCopy(gz, out, n);
    }
}
