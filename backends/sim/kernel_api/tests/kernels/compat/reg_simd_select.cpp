#include "kernel_operator.h"
// Register-based SIMD VFs of the Ascend 950 comparing into a MaskReg and selecting with it, as public 950 kernels do
// (vllm-ascend's flash_attn_c8_prepare turns a zero quantisation scale into one): per 64-float register,
// y = x < 0 ? -x : x (CompareScalar LT + Select), z = x > t ? 1 : 0 (Compare GT against a register of t), and
// s = s == 0 ? 1 : s (CompareScalar EQ + Select), only the first `count` elements active (UpdateMask).

using namespace AscendC;

#if __CCE_AICORE__ == 310
namespace {
__aicore__ inline void SelectVf(__local_mem__ float *x, __local_mem__ float *y, __local_mem__ float *z,
                                __local_mem__ float *s, float t, uint32_t count, uint16_t chunks)
{
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<float> vx, neg, vt, one, zero, out, vs;
        MicroAPI::MaskReg sel;
        for (uint16_t c = 0; c < chunks; ++c) {
            MicroAPI::MaskReg mask = MicroAPI::UpdateMask<float>(count);
            MicroAPI::DataCopy(vx, x + c * 64);
            MicroAPI::Muls(neg, vx, -1.0f, mask);
            MicroAPI::CompareScalar<float, CMPMODE::LT>(sel, vx, 0.0f, mask);
            MicroAPI::Select(out, neg, vx, sel);
            MicroAPI::DataCopy(y + c * 64, out, mask);
            MicroAPI::Duplicate(vt, t, mask);
            MicroAPI::Duplicate(one, 1.0f, mask);
            MicroAPI::Duplicate(zero, 0.0f, mask);
            MicroAPI::Compare<float, CMPMODE::GT>(sel, vx, vt, mask);
            MicroAPI::Select(out, one, zero, sel);
            MicroAPI::DataCopy(z + c * 64, out, mask);
            MicroAPI::DataCopy(vs, s + c * 64);
            MicroAPI::CompareScalar<float, CMPMODE::EQ>(sel, vs, 0.0f, mask);
            MicroAPI::Select(vs, one, vs, sel);
            MicroAPI::DataCopy(s + c * 64, vs, mask);
        }
    }
}
}  // namespace

// n floats (a multiple of 8, UB rounded to whole registers): y = |x| by select, z = (x > t), s: zeros become ones
extern "C" __global__ __aicore__ void reg_select_rows(GM_ADDR x, GM_ADDR s, GM_ADDR y, GM_ADDR z, uint32_t n, float t)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<float> xGm, sGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    sGm.SetGlobalBuffer((__gm__ float *)s, n);
    yGm.SetGlobalBuffer((__gm__ float *)y, n);
    zGm.SetGlobalBuffer((__gm__ float *)z, n);
    const uint32_t chunks = (n + 63) / 64;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, sb, yb, zb;
    pipe.InitBuffer(xb, chunks * 256);
    pipe.InitBuffer(sb, chunks * 256);
    pipe.InitBuffer(yb, chunks * 256);
    pipe.InitBuffer(zb, chunks * 256);
    LocalTensor<float> xl = xb.Get<float>(), sl = sb.Get<float>(), yl = yb.Get<float>(), zl = zb.Get<float>();
    Duplicate(xl, 0.0f, chunks * 64);
    Duplicate(sl, 0.0f, chunks * 64);
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    DataCopy(xl, xGm, n);
    DataCopy(sl, sGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    SelectVf((__local_mem__ float *)xl.GetPhyAddr(), (__local_mem__ float *)yl.GetPhyAddr(),
             (__local_mem__ float *)zl.GetPhyAddr(), (__local_mem__ float *)sl.GetPhyAddr(), t, n,
             static_cast<uint16_t>(chunks));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, yl, n);
    DataCopy(zGm, zl, n);
    DataCopy(sGm, sl, n);
}
#endif
