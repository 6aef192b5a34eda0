// Compatibility kernels (ours, in the style of public Ascend C for the Atlas inference series) for
// Scatter: the count form (a permutation given as byte offsets) and the mask form (a continuous mask
// over repeats with a source repeat stride).  Built with soc="Ascend310P3".
// tests/test_sim_compat_scatter_310p.py runs them against NumPy.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kN = 256;
}  // namespace

// y = 0 then y[offsets[i] / 2] = x[i] (half, byte offsets), count form when mask == 0, otherwise the
// continuous-mask form over kN / 128 repeats with srcRepStride 8 (contiguous source).
extern "C" __global__ __aicore__ void scatter_half(GM_ADDR x, GM_ADDR offsets, GM_ADDR y, int32_t mask, int32_t base)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ, offQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, kN * sizeof(half));
    pipe.InitBuffer(offQ, 1, kN * sizeof(uint32_t));
    pipe.InitBuffer(outQ, 1, 2 * kN * sizeof(half));
    GlobalTensor<half> xGm, yGm;
    GlobalTensor<uint32_t> oGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(x), kN);
    oGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(offsets), kN);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(y), 2 * kN);
    LocalTensor<half> xl = inQ.AllocTensor<half>();
    LocalTensor<uint32_t> ol = offQ.AllocTensor<uint32_t>();
    DataCopy(xl, xGm, kN);
    DataCopy(ol, oGm, kN);
    inQ.EnQue(xl);
    offQ.EnQue(ol);
    xl = inQ.DeQue<half>();
    ol = offQ.DeQue<uint32_t>();
    LocalTensor<half> yl = outQ.AllocTensor<half>();
    Duplicate(yl, static_cast<half>(0), 2 * kN);
    PipeBarrier<PIPE_V>();
    if (mask == 0) {
        Scatter(yl, xl, ol, static_cast<uint32_t>(base), kN);
    } else {
        Scatter(yl, xl, ol, static_cast<uint32_t>(base), static_cast<uint64_t>(mask), kN / 128, 8);
    }
    outQ.EnQue(yl);
    inQ.FreeTensor(xl);
    offQ.FreeTensor(ol);
    yl = outQ.DeQue<half>();
    DataCopy(yGm, yl, 2 * kN);
    outQ.FreeTensor(yl);
}
