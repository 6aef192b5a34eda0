#include "kernel_operator.h"
// Register-based SIMD VFs of the Ascend 950 converting between register layouts, as public 950 kernels write them
// (vllm-ascend's kda_rms_norm_gated / flash_attn_c8_quant_stats style): a `__VEC_SCOPE__ { ... }` body inside an
// ordinary __aicore__ function, bf16 rows loaded with DIST_UNPACK_B16 into the low halves of the 32-bit lanes,
// widened with Cast<float, bfloat16_t, trait>, a row sum of squares (ReduceSum), its broadcast
// (Duplicate from a register), 1 / sqrt with Div<float, &divMode>, a per-row scale broadcast from UB (DIST_BRC_B32),
// narrowed back with Cast<bfloat16_t, float, trait> (CAST_RINT) and stored with DIST_PACK_B32; the row's absolute
// maximum (Abs, Max, ReduceMax) stored with DIST_FIRST_ELEMENT_B32. A second kernel halves int8 values through
// DIST_UNPACK4_B8 / Cast<float, int8_t> / Cast<int8_t, float> (CAST_ROUND) / DIST_PACK4_B32, a third round-trips
// fp8_e4m3fn_t (E4M3FN) codes through the same widening / narrowing casts.

using namespace AscendC;

#if __CCE_AICORE__ == 310
namespace {
constexpr MicroAPI::CastTrait kWiden = {MicroAPI::RegLayout::ZERO, MicroAPI::SatMode::UNKNOWN,
                                        MicroAPI::MaskMergeMode::ZEROING, RoundMode::UNKNOWN};
constexpr MicroAPI::CastTrait kNarrowRint = {MicroAPI::RegLayout::ZERO, MicroAPI::SatMode::NO_SAT,
                                             MicroAPI::MaskMergeMode::ZEROING, RoundMode::CAST_RINT};
constexpr MicroAPI::CastTrait kNarrowRound = {MicroAPI::RegLayout::ZERO, MicroAPI::SatMode::SAT,
                                              MicroAPI::MaskMergeMode::ZEROING, RoundMode::CAST_ROUND};
constexpr MicroAPI::DivSpecificMode kDiv = {MicroAPI::MaskMergeMode::ZEROING, false};
constexpr uint32_t kRow = 128;  // bf16 elements per row: two 64-lane halves

// y[r] = x[r] / sqrt(mean(x[r]^2) + eps) * scale[r]; amax[r] = max |x[r]|
__aicore__ inline void RowNormVf(__local_mem__ bfloat16_t *x, __local_mem__ float *scale, __local_mem__ bfloat16_t *y,
                                 __local_mem__ float *amax, uint16_t rows, float eps)
{
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<bfloat16_t> raw0, raw1, out;
        MicroAPI::RegTensor<float> x0, x1, sq, sum, inv, one, s, m0, m1;
        auto mask = MicroAPI::CreateMask<float, MicroAPI::MaskPattern::ALL>();
        MicroAPI::Duplicate(one, 1.0f, mask);
        for (uint16_t r = 0; r < rows; ++r) {
            MicroAPI::DataCopy<bfloat16_t, MicroAPI::LoadDist::DIST_UNPACK_B16>(raw0, x + r * kRow);
            MicroAPI::DataCopy<bfloat16_t, MicroAPI::LoadDist::DIST_UNPACK_B16>(raw1, x + r * kRow + 64);
            MicroAPI::Cast<float, bfloat16_t, kWiden>(x0, raw0, mask);
            MicroAPI::Cast<float, bfloat16_t, kWiden>(x1, raw1, mask);
            MicroAPI::Abs(m0, x0, mask);
            MicroAPI::Abs(m1, x1, mask);
            MicroAPI::Max(m0, m0, m1, mask);
            MicroAPI::ReduceMax(m0, m0, mask);
            MicroAPI::DataCopy<float, MicroAPI::StoreDist::DIST_FIRST_ELEMENT_B32>(amax + r * 8, m0, mask);
            MicroAPI::Mul(sq, x0, x0, mask);
            MicroAPI::Mul(sum, x1, x1, mask);
            MicroAPI::Add(sum, sum, sq, mask);
            MicroAPI::ReduceSum(sum, sum, mask);
            MicroAPI::Duplicate(inv, sum, mask);
            MicroAPI::Muls(inv, inv, 1.0f / kRow, mask);
            MicroAPI::Adds(inv, inv, eps, mask);
            MicroAPI::Sqrt(inv, inv, mask);
            MicroAPI::Div<float, &kDiv>(inv, one, inv, mask);
            MicroAPI::DataCopy<float, MicroAPI::LoadDist::DIST_BRC_B32>(s, scale + r);
            MicroAPI::Mul(inv, inv, s, mask);
            MicroAPI::Mul(x0, x0, inv, mask);
            MicroAPI::Mul(x1, x1, inv, mask);
            MicroAPI::Cast<bfloat16_t, float, kNarrowRint>(out, x0, mask);
            MicroAPI::DataCopy<bfloat16_t, MicroAPI::StoreDist::DIST_PACK_B32>(y + r * kRow, out, mask);
            MicroAPI::Cast<bfloat16_t, float, kNarrowRint>(out, x1, mask);
            MicroAPI::DataCopy<bfloat16_t, MicroAPI::StoreDist::DIST_PACK_B32>(y + r * kRow + 64, out, mask);
        }
    }
}

// y = round(x * 0.5) on int8, 64 elements per register
__aicore__ inline void HalveInt8Vf(__local_mem__ int8_t *x, __local_mem__ int8_t *y, uint16_t chunks)
{
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<int8_t> raw, out;
        MicroAPI::RegTensor<float> v;
        auto mask = MicroAPI::CreateMask<float, MicroAPI::MaskPattern::ALL>();
        for (uint16_t c = 0; c < chunks; ++c) {
            MicroAPI::LoadAlign<int8_t, MicroAPI::LoadDist::DIST_UNPACK4_B8>(raw, x + c * 64);
            MicroAPI::Cast<float, int8_t, kWiden>(v, raw, mask);
            MicroAPI::Muls(v, v, 0.5f, mask);
            MicroAPI::Cast<int8_t, float, kNarrowRound>(out, v, mask);
            MicroAPI::StoreAlign<int8_t, MicroAPI::StoreDist::DIST_PACK4_B32>(y + c * 64, out, mask);
        }
    }
}
// FP8 (E4M3FN) KV-cache style: y = bf16(fp8 * scale) through DIST_UNPACK4_B8 into a reinterpreted fp8 register,
// and q = fp8(x / scale) through a narrowing Cast and DIST_PACK4_B32
__aicore__ inline void Fp8RoundTripVf(__local_mem__ fp8_e4m3fn_t *codes, __local_mem__ float *x,
                                      __local_mem__ bfloat16_t *y, __local_mem__ fp8_e4m3fn_t *q, float scale,
                                      uint16_t chunks)
{
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<fp8_e4m3fn_t> packed, enc;
        MicroAPI::RegTensor<float> v;
        MicroAPI::RegTensor<bfloat16_t> out;
        auto mask = MicroAPI::CreateMask<float, MicroAPI::MaskPattern::ALL>();
        for (uint16_t c = 0; c < chunks; ++c) {
            MicroAPI::LoadAlign<int8_t, MicroAPI::LoadDist::DIST_UNPACK4_B8>(
                reinterpret_cast<MicroAPI::RegTensor<int8_t> &>(packed), reinterpret_cast<__ubuf__ int8_t *>(codes) + c * 64);
            MicroAPI::Cast<float, fp8_e4m3fn_t, kWiden>(v, packed, mask);
            MicroAPI::Muls(v, v, scale, mask);
            MicroAPI::Cast<bfloat16_t, float, kNarrowRint>(out, v, mask);
            MicroAPI::StoreAlign<bfloat16_t, MicroAPI::StoreDist::DIST_PACK_B32>(y + c * 64, out, mask);
            MicroAPI::LoadAlign(v, x + c * 64);
            MicroAPI::Muls(v, v, 1.0f / scale, mask);
            MicroAPI::Cast<fp8_e4m3fn_t, float, kNarrowRint>(enc, v, mask);
            MicroAPI::DataCopy<fp8_e4m3fn_t, MicroAPI::StoreDist::DIST_PACK4_B32>(q + c * 64, enc, mask);
        }
    }
}
}  // namespace

// n fp8 codes (a multiple of 64) -> n bf16 values times scale; n floats -> n fp8 codes of x / scale
extern "C" __global__ __aicore__ void reg_fp8_round_trip(GM_ADDR codes, GM_ADDR x, GM_ADDR y, GM_ADDR q, uint32_t n,
                                                         float scale)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<fp8_e4m3fn_t> cGm, qGm;
    GlobalTensor<float> xGm;
    GlobalTensor<bfloat16_t> yGm;
    cGm.SetGlobalBuffer((__gm__ fp8_e4m3fn_t *)codes, n);
    qGm.SetGlobalBuffer((__gm__ fp8_e4m3fn_t *)q, n);
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    yGm.SetGlobalBuffer((__gm__ bfloat16_t *)y, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> cb, xb, yb, qb;
    pipe.InitBuffer(cb, n);
    pipe.InitBuffer(xb, n * sizeof(float));
    pipe.InitBuffer(yb, n * sizeof(bfloat16_t));
    pipe.InitBuffer(qb, n);
    LocalTensor<fp8_e4m3fn_t> cl = cb.Get<fp8_e4m3fn_t>(), ql = qb.Get<fp8_e4m3fn_t>();
    LocalTensor<float> xl = xb.Get<float>();
    LocalTensor<bfloat16_t> yl = yb.Get<bfloat16_t>();
    DataCopyPad(cl, cGm, DataCopyExtParams{1, n, 0, 0, 0}, DataCopyPadExtParams<fp8_e4m3fn_t>{});
    DataCopy(xl, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Fp8RoundTripVf((__local_mem__ fp8_e4m3fn_t *)cl.GetPhyAddr(), (__local_mem__ float *)xl.GetPhyAddr(),
                   (__local_mem__ bfloat16_t *)yl.GetPhyAddr(), (__local_mem__ fp8_e4m3fn_t *)ql.GetPhyAddr(), scale,
                   static_cast<uint16_t>(n / 64));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, yl, n);
    DataCopyPad(qGm, ql, DataCopyExtParams{1, n, 0, 0, 0});
}

// rows x 128 bf16 in x, rows floats in scale (one block): y rows x 128 bf16, amax rows x 8 floats (element 0 used)
extern "C" __global__ __aicore__ void reg_bf16_row_norm(GM_ADDR x, GM_ADDR scale, GM_ADDR y, GM_ADDR amax,
                                                        uint32_t rows, float eps)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<bfloat16_t> xGm, yGm;
    GlobalTensor<float> sGm, aGm;
    xGm.SetGlobalBuffer((__gm__ bfloat16_t *)x, rows * kRow);
    yGm.SetGlobalBuffer((__gm__ bfloat16_t *)y, rows * kRow);
    sGm.SetGlobalBuffer((__gm__ float *)scale, rows);
    aGm.SetGlobalBuffer((__gm__ float *)amax, rows * 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, sb, yb, ab;
    pipe.InitBuffer(xb, rows * kRow * sizeof(bfloat16_t));
    pipe.InitBuffer(sb, (rows + 7) / 8 * 32);
    pipe.InitBuffer(yb, rows * kRow * sizeof(bfloat16_t));
    pipe.InitBuffer(ab, rows * 32);
    LocalTensor<bfloat16_t> xl = xb.Get<bfloat16_t>(), yl = yb.Get<bfloat16_t>();
    LocalTensor<float> sl = sb.Get<float>(), al = ab.Get<float>();
    DataCopy(xl, xGm, rows * kRow);
    DataCopyPad(sl, sGm, DataCopyExtParams{1, static_cast<uint32_t>(rows * sizeof(float)), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Duplicate(al, 0.0f, rows * 8);
    PipeBarrier<PIPE_V>();
    RowNormVf((__local_mem__ bfloat16_t *)xl.GetPhyAddr(), (__local_mem__ float *)sl.GetPhyAddr(),
              (__local_mem__ bfloat16_t *)yl.GetPhyAddr(), (__local_mem__ float *)al.GetPhyAddr(),
              static_cast<uint16_t>(rows), eps);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, yl, rows * kRow);
    DataCopy(aGm, al, rows * 8);
}

// n int8 (a multiple of 64) halved with rounding away from zero
extern "C" __global__ __aicore__ void reg_int8_halve(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<int8_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int8_t *)x, n);
    yGm.SetGlobalBuffer((__gm__ int8_t *)y, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    pipe.InitBuffer(xb, n);
    pipe.InitBuffer(yb, n);
    LocalTensor<int8_t> xl = xb.Get<int8_t>(), yl = yb.Get<int8_t>();
    DataCopy(xl, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    HalveInt8Vf((__local_mem__ int8_t *)xl.GetPhyAddr(), (__local_mem__ int8_t *)yl.GetPhyAddr(),
                static_cast<uint16_t>(n / 64));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, yl, n);
}
#endif
