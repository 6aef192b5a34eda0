// A host launcher that leaves a kernel's default arguments out of its <<<>>> launch, as MindSpore Lite's
// ascend_native encoder kernels do (`Transpose0213<<<core_num, nullptr, stream>>>(...)` without the trailing
// `bool incremental_mode = false`; kernel_api/COMPAT.md, round 16 study16c).  Written for pyasc in that style.
//
// scale_rows:     y[i] = x[i] * factor (negated when negate), per block of n floats.
// scale_default:  launches scale_rows with neither factor nor negate (factor 2, negate false).
// scale_factor:   launches it with factor only (negate keeps its default, false).
// scale_all:      launches it with every argument.
#include "kernel_operator.h"

using namespace AscendC;

__global__ __aicore__ void scale_rows(GM_ADDR x, GM_ADDR y, uint32_t n, float factor = 2.0f, bool negate = false) {
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * n, n);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * n, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(t, t, negate ? -factor : factor, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, t, n);
}

void scale_default(uint32_t blocks, void *stream, uint8_t *x, uint8_t *y, uint32_t n) {
    scale_rows<<<blocks, nullptr, stream>>>(x, y, n);
}

void scale_factor(uint32_t blocks, void *stream, uint8_t *x, uint8_t *y, uint32_t n, float factor) {
    scale_rows<<<blocks, nullptr, stream>>>(x, y, n, factor);
}

void scale_all(uint32_t blocks, void *stream, uint8_t *x, uint8_t *y, uint32_t n, float factor, bool negate) {
    scale_rows<<<blocks, nullptr, stream>>>(x, y, n, factor, negate);
}
