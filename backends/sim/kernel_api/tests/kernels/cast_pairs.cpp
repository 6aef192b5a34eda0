// Cast for every source/destination pair of the documented conversion table (Atlas A2), one
// kernel per pair: z[i] = Cast(x[i]) with the RoundMode whose enum value is `mode`, n elements
// (a multiple of 256, so that every DataCopy moves whole 32-byte blocks of any element type).
#include "kernel_operator.h"
using namespace AscendC;

template <typename D, typename S>
class CastPair {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
    {
        n_ = n;
        mode_ = static_cast<RoundMode>(mode);
        xGm_.SetGlobalBuffer((__gm__ S *)x, n);
        zGm_.SetGlobalBuffer((__gm__ D *)z, n);
        pipe_.InitBuffer(inQ_, 1, n * sizeof(S));
        pipe_.InitBuffer(outQ_, 1, n * sizeof(D));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<S> xl = inQ_.AllocTensor<S>();
        DataCopy(xl, xGm_, n_);
        inQ_.EnQue(xl);
        xl = inQ_.DeQue<S>();
        LocalTensor<D> zl = outQ_.AllocTensor<D>();
        if constexpr (std::is_same<D, half>::value && std::is_same<S, int32_t>::value) {
            SetDeqScale(static_cast<half>(1.0f));  // s322f16 multiplies by DEQSCALE's half scale
        }
        Cast(zl, xl, mode_, n_);
        outQ_.EnQue(zl);
        inQ_.FreeTensor(xl);
        zl = outQ_.DeQue<D>();
        DataCopy(zGm_, zl, n_);
        outQ_.FreeTensor(zl);
    }

private:
    TPipe pipe_;
    TQue<TPosition::VECIN, 1> inQ_;
    TQue<TPosition::VECOUT, 1> outQ_;
    GlobalTensor<S> xGm_;
    GlobalTensor<D> zGm_;
    uint32_t n_ = 0;
    RoundMode mode_ = RoundMode::CAST_NONE;
};

template <typename D, typename S>
__aicore__ inline void RunCastPair(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    CastPair<D, S> op;
    op.Init(x, z, n, mode);
    op.Process();
}

extern "C" __global__ __aicore__ void cast_f32_f32(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<float, float>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_f32_f16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<half, float>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_f32_bf16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<bfloat16_t, float>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_f32_s64(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<int64_t, float>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_f32_s32(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<int32_t, float>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_f32_s16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<int16_t, float>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_f16_f32(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<float, half>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_f16_s32(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<int32_t, half>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_f16_s16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<int16_t, half>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_f16_s8(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<int8_t, half>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_f16_u8(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<uint8_t, half>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_f16_f16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<half, half>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_bf16_f32(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<float, bfloat16_t>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_bf16_s32(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<int32_t, bfloat16_t>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_bf16_bf16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<bfloat16_t, bfloat16_t>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_s32_f32(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<float, int32_t>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_s32_s64(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<int64_t, int32_t>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_s32_s16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<int16_t, int32_t>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_s32_f16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<half, int32_t>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_s16_f16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<half, int16_t>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_s16_f32(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<float, int16_t>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_s8_f16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<half, int8_t>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_u8_f16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<half, uint8_t>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_s64_s32(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<int32_t, int64_t>(x, z, n, mode);
}
extern "C" __global__ __aicore__ void cast_s64_f32(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    RunCastPair<float, int64_t>(x, z, n, mode);
}
