#include "kernel_operator.h"
// Register-based SIMD VFs of the Ascend 950 appending a varying number of elements to UB, as public 950 kernels
// compact their results (Ascend/DrivingSDK's arch35 unique_voxel, ops-nn's NonZero):
// * reg_compact_positive: per 64-int register, the mask of x > 0 is stored to UB through an AddrReg, reloaded after a
//   LocalMemBar, and the kept elements are squeezed (GatherMask<.., STORE_REG>) and appended with the AR-form
//   DataCopyUnAlign; the count is read back from AR with GetSpr (bytes). `mode` misuses the idiom for the tests:
//   1 squeezes without STORE_REG, 2 squeezes twice before a store, 3 leaves out the DataCopyUnAlignPost.
// * reg_unalign_prefix: the first k floats of every 64-float chunk appended contiguously with the current names
//   (LoadAlign through an AddrReg, StoreUnAlign with a post-update stride, one StoreUnAlignPost); dstOff moves the
//   destination (elements) for the out-of-UB test.
// * reg_unalign_shift: 64-float registers loaded from an unaligned UB address (LoadUnAlignPre once, LoadUnAlign with a
//   post-update stride), stored aligned.

using namespace AscendC;

#if __CCE_AICORE__ == 310
namespace {
constexpr uint32_t kLanes = 64;  // int32 / float elements of one 256-byte register

__aicore__ inline void CompactVf(__local_mem__ int32_t *x, __local_mem__ uint32_t *bits, __local_mem__ int32_t *out,
                                 uint32_t count, uint16_t chunks, uint32_t mode)
{
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<int32_t> vx, kept;
        MicroAPI::MaskReg mask, pos;
        MicroAPI::UnalignReg ureg;
        for (uint16_t c = 0; c < chunks; ++c) {
            mask = MicroAPI::UpdateMask<int32_t>(count);
            MicroAPI::AddrReg at = MicroAPI::CreateAddrReg<uint32_t>(c, 8);
            MicroAPI::DataCopy(vx, x + c * kLanes);
            MicroAPI::CompareScalar<int32_t, CMPMODE::GT>(pos, vx, 0, mask);
            MicroAPI::DataCopy(bits, pos, at);
        }
        MicroAPI::LocalMemBar<MicroAPI::MemType::VEC_STORE, MicroAPI::MemType::VEC_LOAD>();
        MicroAPI::ClearSpr<SpecialPurposeReg::AR>();
        for (uint16_t c = 0; c < chunks; ++c) {
            MicroAPI::AddrReg at = MicroAPI::CreateAddrReg<uint32_t>(c, 8);
            MicroAPI::DataCopy(pos, bits, at);
            MicroAPI::DataCopy(vx, x + c * kLanes);
            if (mode == 1) {
                MicroAPI::GatherMask<int32_t, MicroAPI::GatherMaskMode::NO_STORE_REG>(kept, vx, pos);
            } else {
                MicroAPI::GatherMask<int32_t, MicroAPI::GatherMaskMode::STORE_REG>(kept, vx, pos);
            }
            if (mode == 2) {
                MicroAPI::GatherMask<int32_t, MicroAPI::GatherMaskMode::STORE_REG>(kept, vx, pos);
            }
            MicroAPI::DataCopyUnAlign(out, kept, ureg);
        }
        if (mode != 3) {
            MicroAPI::DataCopyUnAlignPost(out, ureg);
        }
    }
}

__aicore__ inline void PrefixVf(__local_mem__ float *x, __local_mem__ float *y, uint32_t k, uint16_t chunks)
{
    __VEC_SCOPE__ {
        Reg::RegTensor<float> v;
        Reg::UnalignRegForStore ureg;
        for (uint16_t c = 0; c < chunks; ++c) {
            Reg::AddrReg at = Reg::CreateAddrReg<float>(c, kLanes);
            Reg::LoadAlign(v, x, at);
            Reg::StoreUnAlign(y, v, ureg, k);
        }
        Reg::StoreUnAlignPost(y, ureg, 0);
    }
}
__aicore__ inline void ShiftVf(__local_mem__ float *x, __local_mem__ float *y, uint16_t chunks, uint32_t pre)
{
    __VEC_SCOPE__ {
        Reg::RegTensor<float> v;
        Reg::UnalignRegForLoad ureg;
        Reg::MaskReg all = Reg::CreateMask<float>();
        if (pre != 0) {
            Reg::LoadUnAlignPre(ureg, x);
        }
        for (uint16_t c = 0; c < chunks; ++c) {
            Reg::LoadUnAlign(v, ureg, x, kLanes);
            Reg::StoreAlign(y + c * kLanes, v, all);
        }
    }
}
}  // namespace

// n int32 (a multiple of 8): out = x[x > 0] then -7 (chunks * 64 elements), bits = the x > 0 MaskRegs as stored in
// UB (32 bytes per chunk), cnt[0] = the kept count from AR
extern "C" __global__ __aicore__ void reg_compact_positive(GM_ADDR x, GM_ADDR out, GM_ADDR bits, GM_ADDR cnt,
                                                           uint32_t n, uint32_t mode)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const uint32_t chunks = (n + kLanes - 1) / kLanes;
    GlobalTensor<int32_t> xGm, oGm, cGm;
    GlobalTensor<uint32_t> bGm;
    xGm.SetGlobalBuffer((__gm__ int32_t *)x, n);
    oGm.SetGlobalBuffer((__gm__ int32_t *)out, chunks * kLanes);
    bGm.SetGlobalBuffer((__gm__ uint32_t *)bits, chunks * 8);
    cGm.SetGlobalBuffer((__gm__ int32_t *)cnt, 8);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ob, bb, cb;
    pipe.InitBuffer(xb, chunks * 256);
    pipe.InitBuffer(ob, chunks * 256);
    pipe.InitBuffer(bb, chunks * 32);
    pipe.InitBuffer(cb, 32);
    LocalTensor<int32_t> xl = xb.Get<int32_t>(), ol = ob.Get<int32_t>(), cl = cb.Get<int32_t>();
    LocalTensor<uint32_t> bl = bb.Get<uint32_t>();
    Duplicate(xl, 0, chunks * kLanes);
    Duplicate(ol, -7, chunks * kLanes);
    Duplicate(cl, 0, 8);
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    DataCopy(xl, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    CompactVf((__local_mem__ int32_t *)xl.GetPhyAddr(), (__local_mem__ uint32_t *)bl.GetPhyAddr(),
              (__local_mem__ int32_t *)ol.GetPhyAddr(), n, static_cast<uint16_t>(chunks), mode);
    const int64_t kept = GetSpr<SpecialPurposeReg::AR>() / static_cast<int64_t>(sizeof(int32_t));
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    cl.SetValue(0, static_cast<int32_t>(kept));
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(oGm, ol, chunks * kLanes);
    DataCopy(bGm, bl, chunks * 8);
    DataCopy(cGm, cl, 8);
}

// chunks * 64 floats in; y = the first k of every chunk, then -7 up to a multiple of 8 floats
extern "C" __global__ __aicore__ void reg_unalign_prefix(GM_ADDR x, GM_ADDR y, uint32_t chunks, uint32_t k,
                                                         uint32_t dstOff)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const uint32_t yLen = (chunks * k + 7) / 8 * 8;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, chunks * kLanes);
    yGm.SetGlobalBuffer((__gm__ float *)y, yLen);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    pipe.InitBuffer(xb, chunks * 256);
    pipe.InitBuffer(yb, yLen * 4);
    LocalTensor<float> xl = xb.Get<float>(), yl = yb.Get<float>();
    Duplicate(yl, -7.0f, yLen);
    DataCopy(xl, xGm, chunks * kLanes);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    PrefixVf((__local_mem__ float *)xl.GetPhyAddr(), (__local_mem__ float *)yl.GetPhyAddr() + dstOff, k,
             static_cast<uint16_t>(chunks));
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, yl, yLen);
}

// (chunks + 1) * 64 floats in; y = the chunks * 64 floats from x[shift] on, read with unaligned loads (pre = 0 leaves
// out LoadUnAlignPre)
extern "C" __global__ __aicore__ void reg_unalign_shift(GM_ADDR x, GM_ADDR y, uint32_t chunks, uint32_t shift,
                                                        uint32_t pre)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, (chunks + 1) * kLanes);
    yGm.SetGlobalBuffer((__gm__ float *)y, chunks * kLanes);
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb;
    pipe.InitBuffer(xb, (chunks + 1) * 256);
    pipe.InitBuffer(yb, chunks * 256);
    LocalTensor<float> xl = xb.Get<float>(), yl = yb.Get<float>();
    DataCopy(xl, xGm, (chunks + 1) * kLanes);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    ShiftVf((__local_mem__ float *)xl.GetPhyAddr() + shift, (__local_mem__ float *)yl.GetPhyAddr(),
            static_cast<uint16_t>(chunks), pre);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, yl, chunks * kLanes);
}
#endif
