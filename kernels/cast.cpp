// Dtype conversion, with pyasc::cast's semantics (NumPy's astype): float -> float rounds to
// nearest even, float -> int truncates toward zero, anything -> bool is x != 0.
//
// Kernels cast_<src>_<dst> for src, dst in {bool, uint8, int8, int32, float16, bfloat16, float32}.
// Every conversion goes through float with Cast and an explicit RoundMode, in the steps the vector
// unit converts (8-bit integers <-> half, half <-> float, bfloat16 <-> float, int32 <-> float):
//   to float:   f16/bf16/i32 -Cast-> f32;  u8/i8 -Cast-> f16 -Cast-> f32 (exact)
//   from float: -> f16/bf16 CAST_RINT;  -> i32 CAST_TRUNC;
//               -> u8/i8: CAST_TRUNC to i32, then i32 -> f16 -> u8/i8 (exact for in-range values);
//               from an integer source the value first wraps modulo 256 as in NumPy
//   -> bool:    Compare(x != 0) and Select 1/0
#include "kernel_common.h"

namespace pyasc_kernels {

// Host side: pyasc_sim/ops/elementwise.py.
struct CastTiling {
    uint32_t totalLength;
    uint32_t perCore;
    uint32_t tileLength;  // multiple of 256 elements
    uint32_t reserved;
};

template <typename S, typename D, bool TO_BOOL>
class KernelCast {
    static constexpr bool kFloatSource =
        IsSame<S, float>::value || IsSame<S, half>::value || IsSame<S, bfloat16_t>::value;

public:
    __aicore__ inline KernelCast() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CastTiling &tiling) {
        t_ = tiling;
        CoreRange(t_.totalLength, t_.perCore, start_, length_);
        if (length_ == 0) {
            return;
        }
        const uint32_t tile = t_.tileLength;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ S *>(x) + start_, length_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ D *>(y) + start_, length_);
        pipe_.InitBuffer(inX_, BUFFER_NUM, tile * sizeof(S));
        pipe_.InitBuffer(outY_, BUFFER_NUM, tile * sizeof(D));
        pipe_.InitBuffer(f32Buf_, (TO_BOOL ? 2 : 1) * tile * sizeof(float));
        pipe_.InitBuffer(i32Buf_, tile * sizeof(int32_t));
        pipe_.InitBuffer(f16Buf_, 3 * tile * sizeof(half));
        if constexpr (TO_BOOL) {
            pipe_.InitBuffer(maskBuf_, tile / 8);
            LocalTensor<half> h = f16Buf_.Get<half>();
            Duplicate(h[tile], static_cast<half>(1.0f), tile);
            Duplicate(h[2 * tile], static_cast<half>(0.0f), tile);
            Duplicate(f32Buf_.Get<float>()[tile], 0.0f, tile);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void Process() {
        if (length_ == 0) {
            return;
        }
        const uint32_t tiles = (length_ + t_.tileLength - 1) / t_.tileLength;
        for (uint32_t i = 0; i < tiles; ++i) {
            const uint32_t offset = i * t_.tileLength;
            const uint32_t count = i + 1 == tiles ? length_ - offset : t_.tileLength;
            LocalTensor<S> x = inX_.AllocTensor<S>();
            CopyIn(x, xGm_[offset], count);
            inX_.EnQue(x);
            ComputeTile(count);
            LocalTensor<D> y = outY_.DeQue<D>();
            CopyOut(yGm_[offset], y, count);
            outY_.FreeTensor(y);
        }
    }

private:
    // src (any supported type) -> float
    __aicore__ inline void ToFloat(const LocalTensor<float> &f, const LocalTensor<S> &x, uint32_t n) {
        if constexpr (IsSame<S, float>::value) {
            DataCopy(f, x, AlignBlock<float>(n));
        } else if constexpr (IsSame<S, uint8_t>::value || IsSame<S, int8_t>::value) {
            LocalTensor<half> h = f16Buf_.Get<half>();
            Cast(h, x, RoundMode::CAST_NONE, n);
            Cast(f, h, RoundMode::CAST_NONE, n);
        } else {
            Cast(f, x, RoundMode::CAST_NONE, n);
        }
    }

    // float -> dst (not bool)
    __aicore__ inline void FromFloat(const LocalTensor<D> &y, const LocalTensor<float> &f, uint32_t n) {
        if constexpr (IsSame<D, float>::value) {
            DataCopy(y, f, AlignBlock<float>(n));
        } else if constexpr (IsSame<D, half>::value || IsSame<D, bfloat16_t>::value) {
            Cast(y, f, RoundMode::CAST_RINT, n);
        } else if constexpr (IsSame<D, int32_t>::value) {
            Cast(y, f, RoundMode::CAST_TRUNC, n);
        } else {  // uint8_t / int8_t: truncate to int32 first, then exact narrowing through half
            LocalTensor<int32_t> i = i32Buf_.Get<int32_t>();
            Cast(i, f, RoundMode::CAST_TRUNC, n);
            if constexpr (!kFloatSource) {
                WrapTo8Bit(i, f, n);
            }
            LocalTensor<half> h = f16Buf_.Get<half>();
            Cast(h, i, RoundMode::CAST_NONE, n);
            Cast(y, h, RoundMode::CAST_TRUNC, n);
        }
    }

    // Integer -> 8-bit integer wraps modulo 256 like NumPy: i = (i + off) - 256 * floor((i + off) / 256)
    // - off, with off = 128 for int8 (exact for |i| < 2^24, where the float quotient is exact).
    __aicore__ inline void WrapTo8Bit(const LocalTensor<int32_t> &i, const LocalTensor<float> &f, uint32_t n) {
        constexpr int32_t off = IsSame<D, int8_t>::value ? 128 : 0;
        LocalTensor<int32_t> q = f16Buf_.Get<int32_t>();  // the half buffers hold tile int32s too
        Adds(i, i, off, n);
        Cast(f, i, RoundMode::CAST_NONE, n);
        Muls(f, f, 1.0f / 256.0f, n);
        Cast(q, f, RoundMode::CAST_FLOOR, n);
        Muls(q, q, 256, n);
        Sub(i, i, q, n);
        Adds(i, i, -off, n);
    }

    __aicore__ inline void ComputeTile(uint32_t count) {
        LocalTensor<S> x = inX_.DeQue<S>();
        LocalTensor<D> y = outY_.AllocTensor<D>();
        LocalTensor<float> f = f32Buf_.Get<float>();
        if constexpr (TO_BOOL) {
            const uint32_t n = AlignRepeat<float>(count);
            ToFloat(f, x, n);
            LocalTensor<uint8_t> mask = maskBuf_.Get<uint8_t>();
            Compare(mask, f, f[t_.tileLength], CMPMODE::NE, n);
            LocalTensor<half> h = f16Buf_.Get<half>();
            const uint32_t tile = t_.tileLength;
            Select(h, mask, h[tile], h[2 * tile], SELMODE::VSEL_TENSOR_TENSOR_MODE, AlignRepeat<half>(count));
            Cast(y, h, RoundMode::CAST_ROUND, count);
        } else if constexpr (IsSame<S, D>::value) {
            DataCopy(y, x, AlignBlock<S>(count));
        } else {
            ToFloat(f, x, count);
            FromFloat(y, f, count);
        }
        outY_.EnQue(y);
        inX_.FreeTensor(x);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inX_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outY_;
    TBuf<QuePosition::VECCALC> f32Buf_, i32Buf_, f16Buf_, maskBuf_;
    GlobalTensor<S> xGm_;
    GlobalTensor<D> yGm_;
    CastTiling t_;
    uint32_t start_ = 0;
    uint32_t length_ = 0;
};

template <typename S, typename D, bool TO_BOOL>
__aicore__ inline void RunCast(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    CastTiling t;
    LoadTiling(t, tiling);
    KernelCast<S, D, TO_BOOL> op;
    op.Init(x, y, t);
    op.Process();
}

}  // namespace pyasc_kernels

#define PYASC_CAST_KERNEL(SNAME, S, DNAME, D, TO_BOOL)                                                      \
    extern "C" __global__ __aicore__ void cast_##SNAME##_##DNAME(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,   \
                                                                 GM_ADDR tiling) {                          \
        (void)workspace;                                                                                    \
        pyasc_kernels::RunCast<S, D, TO_BOOL>(x, y, tiling);                                                \
    }

// bool is stored as one byte 0/1: as a source it converts like uint8
#define PYASC_CAST_FROM(SNAME, S)                                \
    PYASC_CAST_KERNEL(SNAME, S, bool, uint8_t, true)             \
    PYASC_CAST_KERNEL(SNAME, S, uint8, uint8_t, false)           \
    PYASC_CAST_KERNEL(SNAME, S, int8, int8_t, false)             \
    PYASC_CAST_KERNEL(SNAME, S, int32, int32_t, false)           \
    PYASC_CAST_KERNEL(SNAME, S, float16, half, false)            \
    PYASC_CAST_KERNEL(SNAME, S, bfloat16, bfloat16_t, false)     \
    PYASC_CAST_KERNEL(SNAME, S, float32, float, false)

PYASC_CAST_FROM(bool, uint8_t)
PYASC_CAST_FROM(uint8, uint8_t)
PYASC_CAST_FROM(int8, int8_t)
PYASC_CAST_FROM(int32, int32_t)
PYASC_CAST_FROM(float16, half)
PYASC_CAST_FROM(bfloat16, bfloat16_t)
PYASC_CAST_FROM(float32, float)
