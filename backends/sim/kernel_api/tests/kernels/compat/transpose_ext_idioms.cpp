// The enhanced Transpose (TransposeParamsExt) as public vector kernels use it (kernel_api/COMPAT.md, round 16
// study16c: MindSpore ms_custom_ops' generated grid_sample_ms reorders grid coordinates with it), written for
// pyasc in that style: the shape braced into the call, the scratch buffer a reinterpreted view.
//
// nchw_to_nhwc_f32:  y[N,H,W,C] = x[N,C,H,W] (float), through TRANSPOSE_NCHW2NHWC.
// nhwc_to_nchw_f16:  y[N,C,H,W] = x[N,H,W,C] (half), through TRANSPOSE_NHWC2NCHW.
// transpose_in_place: dst == src, which the reference does not allow for these conversions.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
template <typename T, TransposeType kType>
__aicore__ inline void Reorder(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t c, uint32_t h, uint32_t w) {
    const uint32_t count = n * c * h * w;
    const uint32_t bytes = (count * sizeof(T) + 31) / 32 * 32;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * bytes);
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x, count);
    yGm.SetGlobalBuffer((__gm__ T *)y, count);
    LocalTensor<T> in = buf.Get<T>();
    LocalTensor<T> out = buf.GetWithOffset<T>(bytes / sizeof(T), bytes);
    LocalTensor<uint8_t> tmp = buf.GetWithOffset<uint8_t>(bytes, 2 * bytes);
    DataCopy(in, xGm, bytes / sizeof(T));
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Transpose<T>(out, in, tmp, {static_cast<uint16_t>(n), static_cast<uint16_t>(c), static_cast<uint16_t>(h),
                                static_cast<uint16_t>(w), kType});
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopyPad(yGm, out, DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0});
}
}  // namespace

extern "C" __global__ __aicore__ void nchw_to_nhwc_f32(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t c, uint32_t h,
                                                       uint32_t w) {
    Reorder<float, TransposeType::TRANSPOSE_NCHW2NHWC>(x, y, n, c, h, w);
}

extern "C" __global__ __aicore__ void nhwc_to_nchw_f16(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t c, uint32_t h,
                                                       uint32_t w) {
    Reorder<half, TransposeType::TRANSPOSE_NHWC2NCHW>(x, y, n, c, h, w);
}

extern "C" __global__ __aicore__ void transpose_in_place() {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 1.0f, 64);
    PipeBarrier<PIPE_V>();
    Transpose<float>(t, t, t.ReinterpretCast<uint8_t>(), {1, 2, 1, 16, TransposeType::TRANSPOSE_NCHW2NHWC});
}
