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
    Adds(t, t, 1.0f, n);  // computes on never-written UB: taint (kapi/vector_taint.h)
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, n);  // BAD(local-uninit-read)
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

// Initcheck beyond a read's first sector. `in` holds 128 floats (two 256-byte repeats); `mode`
// fills part of it and reads it: 0 a count-form vector op over both repeats, only the first
// written (reported at UB offset 256 of the buffer); 1 a DataCopy of 64 floats to GM, only 32
// written (a DMA reads every byte: reported at offset 128); 2 a mask/repeat-form vector op over
// two repeats, only the first written (offset 256); 3 a repeat form with srcBlkStride 2 reading
// only the even blocks, all written (clean: stride gaps are not read); 4 a count-form op over one
// repeat, half written (clean: the ignored lanes of a partly filled repeat, as hardware allows).
extern "C" __global__ __aicore__ void local_uninit_tail(GM_ADDR z, uint32_t mode)
{
    constexpr uint32_t n = 128;
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
    } else if (mode == 1 || mode == 4) {
        Duplicate(in, 3.0f, 32);  // bytes [0, 128)
    } else {
        Duplicate(in, 3.0f, 64);  // the first repeat, bytes [0, 256)
    }
    PipeBarrier<PIPE_V>();
    if (mode == 0) {
        Adds(out, in, 1.0f, n);  // lanes 64.. computed from never-written UB: taint
    } else if (mode == 2) {
        Adds(out, in, 1.0f, static_cast<uint64_t>(64), 2, {1, 1, 8, 8});  // repeat 2: taint
    } else if (mode == 3) {
        Adds(out, in, 1.0f, static_cast<uint64_t>(32), 1, {1, 2, 8, 8});  // 4 blocks, every other one
    } else if (mode == 4) {
        Adds(out, in, 1.0f, 64);
    }
    PipeBarrier<PIPE_ALL>();
    if (mode == 1) {
        DataCopy(gz, in, n / 2);  // BAD(uninit-tail-copy)
    } else if (mode == 0) {
        DataCopy(gz, out, n);  // BAD(uninit-tail-count)
    } else if (mode == 2) {
        DataCopy(gz, out, n);  // BAD(uninit-tail-repeat)
    } else {
        DataCopy(gz, out, n / 2);
    }
}
