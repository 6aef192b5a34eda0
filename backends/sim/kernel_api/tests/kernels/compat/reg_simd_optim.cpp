#include "kernel_operator.h"
// Register-based SIMD VFs of the Ascend 950 as public optimiser kernels write them (RecSDK's c310 embedding
// backward kernels): rows copied into a TQue, raw `__local_mem__` pointers from GetPhyAddr() handed to a
// template VF started with VF_CALL<f<float>>(...), which walks the row one VL (64 floats) at a time with
// UpdateMask<uint32_t>(count) for the tail, MicroAPI::DataCopy loads / masked stores and register arithmetic.
// A second kernel uses the newer spellings (asc_vf_call, AscendC::Reg, LoadAlign / StoreAlign, CreateMask
// patterns, MERGING mode, unmasked Duplicate).

using namespace AscendC;

#if __CCE_AICORE__ == 310
template <typename T>
__simd_vf__ inline void AdamRowVf(__local_mem__ T *outP, __local_mem__ T *outM, __local_mem__ T *outV,
                                  __local_mem__ T *p, __local_mem__ T *m, __local_mem__ T *v, __local_mem__ T *g,
                                  uint32_t count, uint16_t repeat, uint32_t oneRepeat, float lr, float beta1,
                                  float beta2, float eps)
{
    AscendC::MicroAPI::RegTensor<T> rp, rm, rv, rg, t;
    AscendC::MicroAPI::MaskReg mask;
    for (uint16_t i = 0; i < repeat; ++i) {
        mask = AscendC::MicroAPI::UpdateMask<uint32_t>(count);
        AscendC::MicroAPI::DataCopy(rp, p + i * oneRepeat);
        AscendC::MicroAPI::DataCopy(rm, m + i * oneRepeat);
        AscendC::MicroAPI::DataCopy(rv, v + i * oneRepeat);
        AscendC::MicroAPI::DataCopy(rg, g + i * oneRepeat);
        // m = beta1 * m + (1 - beta1) * g
        AscendC::MicroAPI::Muls(rm, rm, beta1, mask);
        AscendC::MicroAPI::Muls(t, rg, 1 - beta1, mask);
        AscendC::MicroAPI::Add(rm, rm, t, mask);
        // v = beta2 * v + (1 - beta2) * g * g
        AscendC::MicroAPI::Muls(rv, rv, beta2, mask);
        AscendC::MicroAPI::Mul(t, rg, rg, mask);
        AscendC::MicroAPI::Muls(t, t, 1 - beta2, mask);
        AscendC::MicroAPI::Add(rv, rv, t, mask);
        // p = p - lr * m / (sqrt(v) + eps)
        AscendC::MicroAPI::Sqrt(t, rv, mask);
        AscendC::MicroAPI::Adds(t, t, eps, mask);
        AscendC::MicroAPI::Div(t, rm, t, mask);
        AscendC::MicroAPI::Muls(t, t, -1, mask);
        AscendC::MicroAPI::Muls(t, t, lr, mask);
        AscendC::MicroAPI::Add(rp, rp, t, mask);
        AscendC::MicroAPI::DataCopy(outP + i * oneRepeat, rp, mask);
        AscendC::MicroAPI::DataCopy(outM + i * oneRepeat, rm, mask);
        AscendC::MicroAPI::DataCopy(outV + i * oneRepeat, rv, mask);
    }
}

// Each block updates `len` floats (a multiple of 8) of p, m, v from g.
extern "C" __global__ __aicore__ void reg_adam_rows(GM_ADDR p, GM_ADDR m, GM_ADDR v, GM_ADDR g, GM_ADDR pOut,
                                                    GM_ADDR mOut, GM_ADDR vOut, uint32_t len, float lr, float beta1,
                                                    float beta2, float eps)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const uint64_t base = static_cast<uint64_t>(GetBlockIdx()) * len;
    GlobalTensor<float> gm[7];
    GM_ADDR addrs[7] = {p, m, v, g, pOut, mOut, vOut};
    for (int k = 0; k < 7; ++k) gm[k].SetGlobalBuffer((__gm__ float *)addrs[k] + base, len);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    const uint32_t slot = (len + 63) / 64 * 64;  // one VL multiple per operand: the loads read whole VLs
    pipe.InitBuffer(inQ, 1, 4 * slot * sizeof(float));
    pipe.InitBuffer(outQ, 1, 3 * slot * sizeof(float));
    LocalTensor<float> in = inQ.AllocTensor<float>();
    for (int k = 0; k < 4; ++k) DataCopy(in[k * slot], gm[k], len);
    inQ.EnQue(in);
    LocalTensor<float> src = inQ.DeQue<float>();
    LocalTensor<float> dst = outQ.AllocTensor<float>();
    constexpr uint32_t vecLen = AscendC::GetVecLen();
    constexpr uint32_t oneRepeat = vecLen / static_cast<uint32_t>(sizeof(float));
    uint16_t repeat = (len + oneRepeat - 1) / oneRepeat;
    VF_CALL<AdamRowVf<float>>((__local_mem__ float *)dst[0].GetPhyAddr(), (__local_mem__ float *)dst[slot].GetPhyAddr(),
                              (__local_mem__ float *)dst[2 * slot].GetPhyAddr(),
                              (__local_mem__ float *)src[0].GetPhyAddr(), (__local_mem__ float *)src[slot].GetPhyAddr(),
                              (__local_mem__ float *)src[2 * slot].GetPhyAddr(),
                              (__local_mem__ float *)src[3 * slot].GetPhyAddr(), len, repeat, oneRepeat, lr, beta1,
                              beta2, eps);
    outQ.EnQue(dst);
    inQ.FreeTensor(src);
    LocalTensor<float> res = outQ.DeQue<float>();
    for (int k = 0; k < 3; ++k) DataCopy(gm[4 + k], res[k * slot], len);
    outQ.FreeTensor(res);
}

// y = exp(clamp(x, lo, hi)) * 2 - x, then every 4th element (M4) negated in MERGING mode, the first 8 (VL8)
// replaced by max(y, x) ... as a pattern exercise; also min with a broadcast register and Abs / Relu / Ln.
__simd_vf__ inline void PatternVf(__ubuf__ float *y, __ubuf__ float *x, uint32_t count, uint16_t repeat, float lo,
                                  float hi)
{
    AscendC::Reg::RegTensor<float> rx, ry, two;
    AscendC::Reg::MaskReg all = AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::ALL>();
    AscendC::Reg::MaskReg m4 = AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::M4>();
    AscendC::Reg::MaskReg low8 = AscendC::Reg::CreateMask<float, AscendC::Reg::MaskPattern::VL8>();
    AscendC::Reg::Duplicate(two, 2.0f);
    for (uint16_t i = 0; i < repeat; ++i) {
        AscendC::Reg::MaskReg mask = AscendC::Reg::UpdateMask<float>(count);
        AscendC::Reg::LoadAlign(rx, x + i * 64);
        AscendC::Reg::Maxs(ry, rx, lo, all);
        AscendC::Reg::Mins(ry, ry, hi, all);
        AscendC::Reg::Exp(ry, ry, all);
        AscendC::Reg::Mul(ry, ry, two, all);
        AscendC::Reg::Sub(ry, ry, rx, all);
        AscendC::Reg::Neg<float, AscendC::Reg::MaskMergeMode::MERGING>(ry, ry, m4);
        AscendC::Reg::Max<float, AscendC::Reg::MaskMergeMode::MERGING>(ry, ry, rx, low8);
        AscendC::Reg::StoreAlign(y + i * 64, ry, mask);
    }
}

// abs / relu / ln of x in the lanes of `count`, ZEROING the rest before a full store: rows of 3 * 64 floats.
__simd_vf__ inline void UnaryVf(__ubuf__ float *y, __ubuf__ float *x, uint32_t count)
{
    AscendC::Reg::RegTensor<float> rx, ra, rr, rl;
    AscendC::Reg::MaskReg full = AscendC::Reg::CreateMask<float>();
    AscendC::Reg::MaskReg mask = AscendC::Reg::UpdateMask<float>(count);
    AscendC::Reg::LoadAlign(rx, x);
    AscendC::Reg::Abs(ra, rx, mask);
    AscendC::Reg::Relu(rr, rx, mask);
    AscendC::Reg::Adds(rl, ra, 1.0f, mask);
    AscendC::Reg::Ln(rl, rl, mask);
    AscendC::Reg::Min(rl, rl, rr, full);  // zeros beyond count stay zeros (min(0, 0))
    AscendC::Reg::StoreAlign(y, ra, full);
    AscendC::Reg::StoreAlign(y + 64, rr, full);
    AscendC::Reg::StoreAlign(y + 128, rl, full);
}

extern "C" __global__ __aicore__ void reg_patterns(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t len, uint32_t zcount,
                                                   float lo, float hi)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x, len);
    yg.SetGlobalBuffer((__gm__ float *)y, len);
    zg.SetGlobalBuffer((__gm__ float *)z, 192);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    const uint32_t padded = (len + 63) / 64 * 64;
    pipe.InitBuffer(buf, (2 * padded + 192) * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 0.0f, padded);
    PipeBarrier<PIPE_V>();
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    DataCopy(t, xg, len);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    __ubuf__ float *ux = (__ubuf__ float *)t.GetPhyAddr();
    __ubuf__ float *uy = (__ubuf__ float *)t[padded].GetPhyAddr();
    __ubuf__ float *uz = (__ubuf__ float *)t[2 * padded].GetPhyAddr();
    asc_vf_call<PatternVf>(uy, ux, len, static_cast<uint16_t>(padded / 64), lo, hi);
    asc_vf_call<UnaryVf>(uz, ux, zcount);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yg, t[padded], len);
    DataCopy(zg, t[2 * padded], 192);
}
// The unqualified style of public 950 activation helpers: `MicroAPI::` through `using namespace AscendC`,
// UpdateMask<T> with the element type, a VL-sized step from GetVecLen(), CeilDivision for the repeat count and a
// SupportType static_assert. y = x * a / (1 + exp(-x * a)) (silu with a scale), half or float.
template <typename T>
__aicore__ inline void ScaledSiluVf(__ubuf__ T *dst, __ubuf__ T *src, float alpha, uint32_t count, const uint16_t repeatTimes)
{
    constexpr uint32_t oneRep = static_cast<uint32_t>(GetVecLen() / sizeof(T));
    MicroAPI::RegTensor<T> x, t, y;
    MicroAPI::MaskReg mask;
    for (uint16_t i = 0; i < repeatTimes; ++i) {
        mask = MicroAPI::UpdateMask<T>(count);
        MicroAPI::DataCopy(x, src + i * oneRep);
        MicroAPI::Muls(x, x, alpha, mask);
        MicroAPI::Muls(t, x, -1.0f, mask);
        MicroAPI::Exp(t, t, mask);
        MicroAPI::Adds(t, t, 1.0f, mask);
        MicroAPI::Div(y, x, t, mask);
        MicroAPI::DataCopy(dst + i * oneRep, y, mask);
    }
}

template <typename T>
__aicore__ inline void ScaledSiluRows(GM_ADDR x, GM_ADDR y, uint32_t len, float alpha)
{
    static_assert(SupportType<T, half, float>(), "scaled silu: half or float");
    GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T *)x + GetBlockIdx() * len, len);
    yg.SetGlobalBuffer((__gm__ T *)y + GetBlockIdx() * len, len);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    constexpr uint32_t oneRep = static_cast<uint32_t>(GetVecLen() / sizeof(T));
    const uint16_t repeat = static_cast<uint16_t>(CeilDivision(len, oneRep));
    pipe.InitBuffer(inQ, 1, repeat * GetVecLen());
    pipe.InitBuffer(outQ, 1, repeat * GetVecLen());
    LocalTensor<T> in = inQ.AllocTensor<T>();
    DataCopy(in, xg, len);
    inQ.EnQue(in);
    LocalTensor<T> src = inQ.DeQue<T>();
    LocalTensor<T> dst = outQ.AllocTensor<T>();
    VF_CALL<ScaledSiluVf<T>>((__ubuf__ T *)dst.GetPhyAddr(), (__ubuf__ T *)src.GetPhyAddr(), alpha, len, repeat);
    outQ.EnQue(dst);
    inQ.FreeTensor(src);
    LocalTensor<T> res = outQ.DeQue<T>();
    DataCopy(yg, res, len);
    outQ.FreeTensor(res);
}

extern "C" __global__ __aicore__ void reg_silu_f32(GM_ADDR x, GM_ADDR y, uint32_t len, float alpha)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    ScaledSiluRows<float>(x, y, len, alpha);
}

extern "C" __global__ __aicore__ void reg_silu_f16(GM_ADDR x, GM_ADDR y, uint32_t len, float alpha)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    ScaledSiluRows<half>(x, y, len, alpha);
}
#endif
