// Our own kernel in the style of sgl-kernel-npu's zccl collectives: the kernel file defines an `__aicore__` helper
// with the same name and parameter types as a host helper of a shared header and opens that header's namespace with
// `using namespace`. On the NPU compiler only the `__aicore__` one is callable from the kernel, so the call is not
// ambiguous there (pyasc_sim.execution_space).
//
//   execution_space_twins   y = x * KindScale(kind) over n floats (n a multiple of 64, one block), where the
//                           kernel's KindScale is elements per 32-byte block (int8 32, half 16, float 8) -- unlike
//                           the header's host KindScale (bytes per element), so the result shows which one ran.
#include "kernel_operator.h"
#include "execution_space_twins/data_kind.h"

using namespace twin_demo;

__aicore__ inline uint32_t KindScale(DataKind kind)
{
    switch (kind) {
        case DATA_KIND_INT8:
            return 32;
        case DATA_KIND_HALF:
            return 16;
        default:
            return 8;
    }
}

extern "C" __global__ __aicore__ void execution_space_twins(GM_ADDR px, GM_ADDR py, uint32_t n, int32_t kind)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    AscendC::GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(px), n);
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(py), n);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    const float scale = static_cast<float>(KindScale(static_cast<DataKind>(kind)));
    AscendC::DataCopy(t, gx, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(t, t, scale, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gy, t, n);
}
