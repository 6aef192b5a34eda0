// Vector API kernels for tests/test_sim_kernel_api.py and the kernel API's C++ driver
// (tests/test_kernel_api.cpp: compare_select, compares_relu): the mask/repeat form with strides, Cast
// with a round mode, reductions, and Compare / Compares + Select. Each stages its operands through UB with
// DataCopy / DataCopyPad and writes its result back to global memory; one block each.
#include "kernel_operator.h"
using namespace AscendC;

namespace {

// Copies `count` elements of `src` (any byte length) into `dst`.
template <typename T>
__aicore__ inline void LoadAny(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count)
{
    if (count * sizeof(T) % 32 == 0) {
        DataCopy(dst, src, count);
    } else {
        DataCopyPad(dst, src, DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0},
                    DataCopyPadExtParams<T>{false, 0, 0, T(0)});
    }
}

template <typename T>
__aicore__ inline void StoreAny(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count)
{
    if (count * sizeof(T) % 32 == 0) {
        DataCopy(dst, src, count);
    } else {
        DataCopyPad(dst, src, DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0});
    }
}

// z = x - y in the mask/repeat form. z comes in with its initial contents (the elements the mask
// or the strides skip must keep them). bits != 0: the mask is the bit pattern {lo, hi}; else `lo`
// is the continuous-mode count.
template <typename T>
__aicore__ inline void SubRepeat(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t len, uint64_t lo, uint64_t hi,
                                 uint32_t bits, uint32_t repeats, uint32_t dstBlk, uint32_t src0Blk, uint32_t src1Blk,
                                 uint32_t dstRep, uint32_t src0Rep, uint32_t src1Rep)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bz;
    pipe.InitBuffer(bx, len * sizeof(T));
    pipe.InitBuffer(by, len * sizeof(T));
    pipe.InitBuffer(bz, len * sizeof(T));
    GlobalTensor<T> gx, gy, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), len);
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), len);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(z), len);
    LocalTensor<T> a = bx.Get<T>(), b = by.Get<T>(), c = bz.Get<T>();
    DataCopy(a, gx, len);
    DataCopy(b, gy, len);
    DataCopy(c, gz, len);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    BinaryRepeatParams params(static_cast<uint8_t>(dstBlk), static_cast<uint8_t>(src0Blk),
                              static_cast<uint8_t>(src1Blk), static_cast<uint8_t>(dstRep),
                              static_cast<uint8_t>(src0Rep), static_cast<uint8_t>(src1Rep));
    if (bits != 0) {
        uint64_t mask[2] = {lo, hi};
        Sub(c, a, b, mask, static_cast<uint8_t>(repeats), params);
    } else {
        Sub(c, a, b, lo, static_cast<uint8_t>(repeats), params);
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(gz, c, len);
}

// The round modes by a code the host passes.
__aicore__ inline RoundMode ModeOf(uint32_t code)
{
    switch (code) {
        case 1: return RoundMode::CAST_RINT;
        case 2: return RoundMode::CAST_FLOOR;
        case 3: return RoundMode::CAST_CEIL;
        case 4: return RoundMode::CAST_ROUND;
        case 5: return RoundMode::CAST_TRUNC;
        case 6: return RoundMode::CAST_ODD;
        default: return RoundMode::CAST_NONE;
    }
}

template <typename D, typename S>
__aicore__ inline void CastKernel(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t code)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> qin;
    TQue<TPosition::VECOUT, 1> qout;
    pipe.InitBuffer(qin, 1, n * sizeof(S));
    pipe.InitBuffer(qout, 1, n * sizeof(D));
    GlobalTensor<S> gx;
    GlobalTensor<D> gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ S *>(x), n);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ D *>(z), n);
    LocalTensor<S> src = qin.AllocTensor<S>();
    LoadAny(src, gx, n);
    qin.EnQue(src);
    src = qin.DeQue<S>();
    LocalTensor<D> dst = qout.AllocTensor<D>();
    if constexpr (std::is_same<D, half>::value && std::is_same<S, int32_t>::value) {
        SetDeqScale(static_cast<half>(1.0f));  // s322f16 multiplies by DEQSCALE's half scale
    }
    Cast(dst, src, ModeOf(code), n);
    qout.EnQue(dst);
    qin.FreeTensor(src);
    dst = qout.DeQue<D>();
    StoreAny(gz, dst, n);
    qout.FreeTensor(dst);
}

__aicore__ inline CMPMODE CmpOf(uint32_t code)
{
    switch (code) {
        case 0: return CMPMODE::LT;
        case 1: return CMPMODE::GT;
        case 2: return CMPMODE::EQ;
        case 3: return CMPMODE::LE;
        case 4: return CMPMODE::GE;
        default: return CMPMODE::NE;
    }
}

}  // namespace

extern "C" __global__ __aicore__ void sub_repeat_float(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t len, uint64_t lo,
                                                       uint64_t hi, uint32_t bits, uint32_t repeats, uint32_t dstBlk,
                                                       uint32_t src0Blk, uint32_t src1Blk, uint32_t dstRep,
                                                       uint32_t src0Rep, uint32_t src1Rep)
{
    SubRepeat<float>(x, y, z, len, lo, hi, bits, repeats, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep);
}

extern "C" __global__ __aicore__ void sub_repeat_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t len, uint64_t lo,
                                                      uint64_t hi, uint32_t bits, uint32_t repeats, uint32_t dstBlk,
                                                      uint32_t src0Blk, uint32_t src1Blk, uint32_t dstRep,
                                                      uint32_t src0Rep, uint32_t src1Rep)
{
    SubRepeat<half>(x, y, z, len, lo, hi, bits, repeats, dstBlk, src0Blk, src1Blk, dstRep, src0Rep, src1Rep);
}

extern "C" __global__ __aicore__ void cast_half_int32(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    CastKernel<int32_t, half>(x, z, n, mode);
}

extern "C" __global__ __aicore__ void cast_float_half(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    CastKernel<half, float>(x, z, n, mode);
}

extern "C" __global__ __aicore__ void cast_float_bf16(GM_ADDR x, GM_ADDR z, uint32_t n, uint32_t mode)
{
    CastKernel<bfloat16_t, float>(x, z, n, mode);
}

// out[0] = sum(x[:n]); out[8], out[9] = max(x[:n]) and its index (uint32 bits);
// for each of the `rows` rows of 64 floats: out[16 + 2r], out[17 + 2r] = the row's max and its index
// in the row (WholeReduceMax), out[sumAt + r] = the row's sum (WholeReduceSum),
// with sumAt = 16 + 2 * rows rounded up to 8.
extern "C" __global__ __aicore__ void reductions(GM_ADDR x, GM_ADDR out, uint32_t n, uint32_t rows)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bwork, bout;
    const uint32_t sumAt = (16 + 2 * rows + 7) / 8 * 8;
    const uint32_t outLen = sumAt + rows;
    pipe.InitBuffer(bx, n * sizeof(float));
    pipe.InitBuffer(bwork, n * sizeof(float));
    pipe.InitBuffer(bout, outLen * sizeof(float));
    GlobalTensor<float> gx, gout;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    gout.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), outLen);
    LocalTensor<float> src = bx.Get<float>(), work = bwork.Get<float>(), res = bout.Get<float>();
    LoadAny(src, gx, n);
    PipeBarrier<PIPE_ALL>();
    Duplicate(res, 0.0f, static_cast<int32_t>(outLen));
    ReduceSum(res, src, work, static_cast<int32_t>(n));
    ReduceMax(res[8], src, work, static_cast<int32_t>(n), true);
    if (rows > 0) {
        WholeReduceMax(res[16], src, 64, static_cast<int32_t>(rows), 1, 1, 8, ReduceOrder::ORDER_VALUE_INDEX);
        WholeReduceSum(res[sumAt], src, 64, static_cast<int32_t>(rows), 1, 1, 8);
    }
    PipeBarrier<PIPE_ALL>();
    StoreAny(gout, res, outLen);
}

// bits = packed (x <op> y), one bit per element, LSB first; z[:n] = where(bits, x, y) (tensor-tensor
// Select) and z[n:2n] = where(bits, x, fill) (tensor-scalar Select). n is a multiple of 64.
extern "C" __global__ __aicore__ void compare_select(GM_ADDR x, GM_ADDR y, GM_ADDR bits, GM_ADDR z, uint32_t n,
                                                     uint32_t op, float fill)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bm, bz;
    pipe.InitBuffer(bx, n * sizeof(float));
    pipe.InitBuffer(by, n * sizeof(float));
    pipe.InitBuffer(bm, n / 8);
    pipe.InitBuffer(bz, 2 * n * sizeof(float));
    GlobalTensor<float> gx, gy, gz;
    GlobalTensor<uint8_t> gbits;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), 2 * n);
    gbits.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t *>(bits), n / 8);
    LocalTensor<float> a = bx.Get<float>(), b = by.Get<float>(), c = bz.Get<float>();
    LocalTensor<uint8_t> m = bm.Get<uint8_t>();
    DataCopy(a, gx, n);
    DataCopy(b, gy, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
    Compare(m, a, b, CmpOf(op), n);
    Select(c, m, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
    Select(c[n], m, a, fill, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    DataCopy(gz, c, 2 * n);
    StoreAny(gbits, m, n / 8);
}

// z = max(x, 0) through Compares (tensor-scalar GT 0) and a tensor-scalar Select. n is a multiple of 64.
extern "C" __global__ __aicore__ void compares_relu(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bm, bz;
    pipe.InitBuffer(bx, n * sizeof(float));
    pipe.InitBuffer(bm, n / 8);
    pipe.InitBuffer(bz, n * sizeof(float));
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), n);
    LocalTensor<float> a = bx.Get<float>(), c = bz.Get<float>();
    LocalTensor<uint8_t> m = bm.Get<uint8_t>();
    DataCopy(a, gx, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID1);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID1);
    Compares(m, a, 0.0f, CMPMODE::GT, n);
    Select(c, m, a, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    DataCopy(gz, c, n);
}
