// Compatibility kernels (ours, in the style of public Ascend C quantisation and select kernels) for
// the DEQSCALE register (SetDeqScale + CastDeq / CastDequant / AddDeqRelu), the converting
// arithmetic (AddReluCast, SubReluCast, MulCast), the CmpMask register (Compare without dst,
// GetCmpMask, SetCmpMask, Select without a mask) and GetAccVal.
// tests/test_sim_compat_dequant.py runs them against NumPy.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kN = 256;
constexpr uint32_t kBuf = 4096;

// One kernel's UB: four 4 KiB scratch buffers.
struct Ub {
    TPipe pipe;
    TBuf<TPosition::VECCALC> b0, b1, b2, b3;
    __aicore__ inline Ub() {
        pipe.InitBuffer(b0, kBuf);
        pipe.InitBuffer(b1, kBuf);
        pipe.InitBuffer(b2, kBuf);
        pipe.InitBuffer(b3, kBuf);
    }
};

template <typename T>
__aicore__ inline void load(const LocalTensor<T> &dst, GM_ADDR src, uint32_t n) {
    GlobalTensor<T> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(src), n);
    DataCopy(dst, g, n);
    PipeBarrier<PIPE_ALL>();
}
template <typename T>
__aicore__ inline void store(GM_ADDR dst, const LocalTensor<T> &src, uint32_t n) {
    PipeBarrier<PIPE_ALL>();
    GlobalTensor<T> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(dst), n);
    DataCopy(g, src, n);
}
}  // namespace

// y_add = AddReluCast(half a, half b) -> int8 (count form); y_sub = SubReluCast(float c, float d) ->
// half (mask form, 64 floats per repeat, dst repeats 4 blocks apart); y_mul = MulCast(a, b) -> uint8
// (mask form, dstRepStride 4 as the page's example).
extern "C" __global__ __aicore__ void relu_mul_cast(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR d, GM_ADDR yAdd,
                                                    GM_ADDR ySub, GM_ADDR yMul)
{
    Ub ub;
    LocalTensor<half> ha = ub.b0.Get<half>(), hb = ub.b1.Get<half>();
    LocalTensor<float> fc = ub.b2.Get<float>(), fd = ub.b3.Get<float>();
    load(ha, a, kN);
    load(hb, b, kN);
    load(fc, c, kN);
    load(fd, d, kN);
    TBuf<TPosition::VECCALC> o0, o1, o2;
    ub.pipe.InitBuffer(o0, kN);
    ub.pipe.InitBuffer(o1, kN * 2);
    ub.pipe.InitBuffer(o2, kN);
    LocalTensor<int8_t> i8 = o0.Get<int8_t>();
    LocalTensor<half> h = o1.Get<half>();
    LocalTensor<uint8_t> u8 = o2.Get<uint8_t>();
    AddReluCast(i8, ha, hb, kN);
    SubReluCast(h, fc, fd, 64, kN / 64, {1, 1, 1, 4, 8, 8});
    uint64_t full[2] = {UINT64_MAX, UINT64_MAX};
    MulCast(u8, ha, hb, full, kN / 128, {1, 1, 1, 4, 8, 8});
    store(yAdd, i8, kN);
    store(ySub, h, kN);
    store(yMul, u8, kN);
}

// Per-tensor dequantisation of int16 to int8 (signMode true): y holds 2 * kN bytes, read from GM first
// (the untouched halves keep what the caller put there); halfBlock = true then the upper half of each
// 32-byte block, y2 the lower half (halfBlock = false).
extern "C" __global__ __aicore__ void cast_deq_tensor(GM_ADDR x, GM_ADDR y, GM_ADDR y2, float scale, int32_t offset)
{
    Ub ub;
    LocalTensor<int16_t> xl = ub.b0.Get<int16_t>();
    LocalTensor<int8_t> yl = ub.b1.Get<int8_t>(), yl2 = ub.b2.Get<int8_t>();
    load(xl, x, kN);
    load(yl, y, 2 * kN);
    load(yl2, y2, 2 * kN);
    SetDeqScale(scale, static_cast<int16_t>(offset), true);
    CastDeq<int8_t, int16_t, false, true>(yl, xl, kN);
    CastDequant<int8_t, int16_t, true, false, false>(yl2, xl, 128, kN / 128, {1, 1, 8, 8});
    store(y, yl, 2 * kN);
    store(y2, yl2, 2 * kN);
}

// Vector dequantisation of int16 to uint8: 16 parameter sets (element i of each 32-byte block uses
// set i % 16), written into a UB tensor by SetDeqScale(vdeq, info); CastDequant mask form, halfBlock.
extern "C" __global__ __aicore__ void cast_deq_vector(GM_ADDR x, GM_ADDR y, GM_ADDR scales, GM_ADDR offsets)
{
    Ub ub;
    LocalTensor<int16_t> xl = ub.b0.Get<int16_t>();
    LocalTensor<uint8_t> yl = ub.b1.Get<uint8_t>();
    LocalTensor<uint64_t> vdeq = ub.b2.Get<uint64_t>();
    load(xl, x, kN);
    load(yl, y, 2 * kN);
    GlobalTensor<float> sg;
    GlobalTensor<int32_t> og;
    sg.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(scales), 16);
    og.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(offsets), 16);
    float s[VDEQ_TENSOR_SIZE];
    int16_t o[VDEQ_TENSOR_SIZE];
    bool sign[VDEQ_TENSOR_SIZE];
    for (int i = 0; i < VDEQ_TENSOR_SIZE; ++i) {
        s[i] = sg.GetValue(i);
        o[i] = static_cast<int16_t>(og.GetValue(i));
        sign[i] = false;
    }
    VdeqInfo info(s, o, sign);
    SetDeqScale<uint64_t>(vdeq, info);
    uint64_t mask[2] = {UINT64_MAX, UINT64_MAX};
    CastDequant<uint8_t, int16_t, true, true, true>(yl, xl, mask, kN / 128, {1, 1, 8, 8});
    store(y, yl, 2 * kN);
}

// int32 -> half with SetDeqScale(half): CastDequant count form, and AddDeqRelu (mask form, 64 int32
// per repeat, dst repeats 4 blocks apart as the page's example).
extern "C" __global__ __aicore__ void deq_s32(GM_ADDR a, GM_ADDR b, GM_ADDR yCast, GM_ADDR yRelu, float scale)
{
    Ub ub;
    LocalTensor<int32_t> al = ub.b0.Get<int32_t>(), bl = ub.b1.Get<int32_t>();
    LocalTensor<half> c = ub.b2.Get<half>(), r = ub.b3.Get<half>();
    load(al, a, kN);
    load(bl, b, kN);
    SetDeqScale(static_cast<half>(scale));
    CastDequant<half, int32_t>(c, al, kN);
    AddDeqRelu(r, al, bl, 64, kN / 64, {1, 1, 1, 4, 8, 8});
    store(yCast, c, kN);
    store(yRelu, r, kN);
}

// Compare into CmpMask (64 floats, LT), GetCmpMask to `bits` (16 bytes used of 32), then Select without
// a mask in mode 0: y = a < b ? a : b. Mode 1: z = bit of sel ? a : 1.5 (scalar from SetCmpMask).
// Mode 2: w = bit of sel ? a : b, the register holding sel's address (the reference's CPU-debug idiom).
extern "C" __global__ __aicore__ void cmp_select(GM_ADDR a, GM_ADDR b, GM_ADDR sel, GM_ADDR bits, GM_ADDR y, GM_ADDR z,
                                                 GM_ADDR w)
{
    Ub ub;
    LocalTensor<float> al = ub.b0.Get<float>(), bl = ub.b1.Get<float>();
    LocalTensor<uint8_t> m = ub.b2.Get<uint8_t>();
    LocalTensor<float> yl = ub.b3.Get<float>();
    TBuf<TPosition::VECCALC> e0, e1, e2;
    ub.pipe.InitBuffer(e0, 256);
    ub.pipe.InitBuffer(e1, 64 * sizeof(float));
    ub.pipe.InitBuffer(e2, 32);
    LocalTensor<uint8_t> sl = e0.Get<uint8_t>();
    LocalTensor<float> zl = e1.Get<float>();
    LocalTensor<float> scalar = e2.Get<float>();
    load(al, a, 64);
    load(bl, b, 64);
    load(sl, sel, 32);
    Compare(al, bl, CMPMODE::LT, 64, {1, 1, 1, 8, 8, 8});
    GetCmpMask(m);
    PipeBarrier<PIPE_V>();
    SetVectorMask<float>(64);
    Select<float, SELMODE::VSEL_CMPMASK_SPR>(yl, al, bl, 1, {1, 1, 1, 8, 8, 8});
    Duplicate(scalar, 1.5f, 8);
    PipeBarrier<PIPE_V>();
    SetCmpMask(scalar);
    PipeBarrier<PIPE_V>();
    Select(zl, sl, al, 1, {1, 1, 1, 8, 8, 8});
    TBuf<TPosition::VECCALC> e3, e4;
    ub.pipe.InitBuffer(e3, 32);
    ub.pipe.InitBuffer(e4, 64 * sizeof(float));
    LocalTensor<int64_t> addr = e3.Get<int64_t>();
    LocalTensor<float> wl = e4.Get<float>();
    addr.SetValue(0, reinterpret_cast<int64_t>(sl.GetPhyAddr()));
    addr.SetValue(1, 0);
    PipeBarrier<PIPE_ALL>();
    SetCmpMask<int64_t>(addr);
    PipeBarrier<PIPE_V>();
    Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(wl, al, bl, 1, {1, 1, 1, 8, 8, 8});
    ResetMask();
    store(bits, m, 32);
    store(y, yl, 64);
    store(z, zl, 64);
    store(w, wl, 64);
}

// y[0] = GetAccVal after ReduceSum of n floats, y[1] = GetReduceRepeatSumSpr (its CANN 9 name).
extern "C" __global__ __aicore__ void acc_val(GM_ADDR x, GM_ADDR y, int32_t n)
{
    Ub ub;
    LocalTensor<float> xl = ub.b0.Get<float>(), dst = ub.b1.Get<float>(), work = ub.b2.Get<float>();
    load(xl, x, kN);
    ReduceSum<float>(dst, xl, work, n);
    const float v = GetAccVal<float>();
    const float w = GetReduceRepeatSumSpr<float>();
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 8);
    g.SetValue(0, v);
    g.SetValue(1, w);
}

// Misuse the sanitizer reports: which = 0 CastDeq before SetDeqScale, 1 signMode false with an int8
// dst, 2 GetCmpMask before any Compare / SetCmpMask, 3 GetAccVal before a ReduceSum count form,
// 4 Select mode 2 without a mask while the register holds no UB address (zeros).
extern "C" __global__ __aicore__ void register_misuse(GM_ADDR x, int32_t which)
{
    Ub ub;
    LocalTensor<int16_t> xl = ub.b0.Get<int16_t>();
    LocalTensor<int8_t> yl = ub.b1.Get<int8_t>();
    load(xl, x, kN);
    if (which == 0) {
        CastDeq<int8_t, int16_t, false, true>(yl, xl, kN);
    } else if (which == 1) {
        SetDeqScale(1.0f, 0, false);
        CastDeq<int8_t, int16_t, false, true>(yl, xl, kN);
    } else if (which == 2) {
        GetCmpMask(ub.b2.Get<uint8_t>());
    } else if (which == 3) {
        (void)GetAccVal<float>();
    } else {
        LocalTensor<float> f = ub.b2.Get<float>();
        Duplicate(f, 0.0f, 64);
        PipeBarrier<PIPE_V>();
        SetCmpMask(f);
        SetVectorMask<float>(64);
        Select<float, SELMODE::VSEL_TENSOR_TENSOR_MODE>(f, f, f, 1, {1, 1, 1, 8, 8, 8});
    }
}
