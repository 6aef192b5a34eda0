// Ascend C kernels for tests/test_initcheck_spans_r15_speedln.py: local-memory initcheck around the
// ranges the sanitizer remembers as wholly written (BlockState::wspan, kapi/state.h). Pieces of a
// buffer are written (apart, touching, overlapping), then a read lands exactly on them, one 32-byte
// sector past their end, one before their start, or across a gap between them. The line that breaks
// a rule ends with a `BAD(<tag>)` comment the tests look up.
#include "kernel_operator.h"
using namespace AscendC;

namespace {
constexpr uint32_t kFloats = 512;  // 2 KiB of UB
}  // namespace

// mode 0: [0, 512) and [1024, 1536) bytes written, a vector read of [0, 1536) (its repeat at 512 no
//         instruction wrote: taint, kapi/vector_taint.h), then a DMA read of the vector result (the
//         lanes computed from the gap, inside the range just marked written);
// mode 1: [0, 512) then [512, 1024) written (touching: one range), a DMA read of [0, 1056) (one
//         sector past it);
// mode 2: [64, 1024) then [256, 768) written (overlapping), a DMA read of [32, 1024) (one sector
//         before it);
// mode 3: as 1, the DMA read exactly [0, 1024) (clean), then the same pieces written again and read
//         again (clean); z[0, 256) = 2.
extern "C" __global__ __aicore__ void written_spans(GM_ADDR z, uint32_t mode)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufIn, bufOut;
    pipe.InitBuffer(bufIn, kFloats * sizeof(float));
    pipe.InitBuffer(bufOut, kFloats * sizeof(float));
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), kFloats);
    LocalTensor<float> in = bufIn.Get<float>();
    LocalTensor<float> out = bufOut.Get<float>();
    Duplicate(out, 0.0f, kFloats);
    if (mode == 0) {
        Duplicate(in, 2.0f, 128);
        Duplicate(in[256], 2.0f, 128);
    } else if (mode == 2) {
        Duplicate(in[16], 2.0f, 240);
        Duplicate(in[64], 2.0f, 128);
    } else {
        Duplicate(in, 2.0f, 128);
        Duplicate(in[128], 2.0f, 128);
    }
    PipeBarrier<PIPE_ALL>();
    if (mode == 0) {
        Adds(out, in, 1.0f, 384);
        PipeBarrier<PIPE_ALL>();
        DataCopy(gz, out, 384);  // BAD(span-gap)
    } else if (mode == 1) {
        DataCopy(gz, in, 264);  // BAD(span-past-end)
    } else if (mode == 2) {
        DataCopy(gz, in[8], 248);  // BAD(span-before-start)
    } else {
        DataCopy(gz, in, 256);
        PipeBarrier<PIPE_ALL>();
        Duplicate(in, 2.0f, 128);
        Duplicate(in[128], 2.0f, 128);
        PipeBarrier<PIPE_ALL>();
        DataCopy(gz, in, 256);
    }
}
