// Dtype conversion, with pyasc::cast's semantics: float -> float rounds to nearest even (NumPy),
// float -> int truncates toward zero and saturates as the vector unit converts (NaN -> 0, +inf and
// values above the range -> max, -inf and values below it -> min; the golden model does the same),
// integer -> narrower integer wraps modulo 2^bits (NumPy), anything -> bool is x != 0.
//
// Kernels cast_<src>_<dst> for src, dst in {bool, uint8, int8, int16, int32, int64, float16,
// bfloat16, float32}. Only conversions the Cast reference lists for Atlas A2 are used (8-bit
// integers <-> half, half <-> float, bfloat16 <-> float, int16 -> float, float -> int16, int32 <->
// float, int32 -> half, int32 -> int64, int64 -> float, float -> int64), each with an explicit
// RoundMode listed for the pair (float -> half: CAST_NONE, nearest even). On the Atlas inference series
// (__CCE_AICORE__ 200) only that family's Cast rows are used, with the same bits as the Atlas A2 build:
// int16 -> float goes through half exactly (Int16ToFloat); float -> int16 truncates to int32 (CAST_TRUNC,
// saturating) and narrows with the saturating int32 -> int16 row (CAST_NONE), which is A2's saturating
// float -> int16 CAST_TRUNC; int64 -> bool tests the two 32-bit words (each int32 -> float, exact about
// zero). Its table lists no int64_t conversion at all, so int64 -> float16 / float32 and every
// conversion to int64 (but int64 -> int64) are left out of that build (PYASC_CAST_NO_INT64_ROWS): the op
// reports them "not supported by the SoC" (pyasc_kernels/_runtime.py SOC_LACKS_KERNELS). A2 routes:
//   to float:   f16/bf16/i16/i32 -Cast-> f32;  i64 -Cast(RINT)-> f32;  u8/i8 -Cast-> f16 -Cast-> f32
//   from float: -> f16 CAST_NONE / bf16 CAST_RINT (nearest even);  -> i16/i32/i64 CAST_TRUNC (saturating);
//               -> u8/i8: CAST_TRUNC to i32, then i32 -> f16 -> u8/i8 (exact for in-range values;
//               out-of-range ones stay out of range through f16, so the last Cast saturates)
//   integer -> integer (no float rounding involved; exact for every value):
//               the source as int32 (i64: its low 32-bit words, picked by GatherMask; 8/16-bit
//               sources through float, exact), then -> i64 Cast (sign-extends); -> i16 the low
//               16-bit halves (GatherMask); -> u8/i8 the low 16 bits, then modulo 256 in float
//               arithmetic (exact below 2^24) and i32 -> f16 -> u8/i8
//   -> bool:    Compare(x != 0) on the float value (a non-zero int64 stays non-zero) and Select 1/0
// A float32 source (or destination) is the conversion's own input (output) tile: no staging copy.
#include "kernel_operator.h"  // first, so the simulator's precompiled kernel API header applies (pyasc_sim.pch)
#include "kernel_entry.h"
#include "tile_loop.h"

namespace pyasc_kernels {

// Host side: pyasc_kernels/elementwise.py.
struct CastTiling {
    uint32_t totalLength;
    uint32_t perCore;
    uint32_t tileLength;  // multiple of 256 elements
    uint32_t reserved;
};

template <typename T>
constexpr bool kFloatType = IsSame<T, float>::value || IsSame<T, half>::value || IsSame<T, bfloat16_t>::value;

template <typename S, typename D, bool TO_BOOL>
class KernelCast {
    static constexpr bool kFloatSource = kFloatType<S>;
    // integer sources wider than 16 bits: narrowing them keeps their low bits (GatherMask)
    static constexpr bool kWideSource = IsSame<S, int32_t>::value || IsSame<S, int64_t>::value;
    // one Cast from the input tile straight into the output tile (float -> half / bfloat16 and back): no
    // scratch buffers, and the host gives these pairs a tile twice as long (pyasc_kernels/elementwise.py, LONG_TILE)
    static constexpr bool kDirect = !TO_BOOL && ((IsSame<S, float>::value && (IsSame<D, half>::value || IsSame<D, bfloat16_t>::value)) ||
                                                 ((IsSame<S, half>::value || IsSame<S, bfloat16_t>::value) && IsSame<D, float>::value));

public:
    using Tiling = CastTiling;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const CastTiling &tiling) {
        tile_ = tiling.tileLength;
        if (!loop_.Init(ShareOf(tiling), y, x)) {
            return;
        }
        TPipe &pipe = loop_.Pipe();
        const uint32_t tile = tile_;
        if constexpr (!kDirect) {
            pipe.InitBuffer(f32Buf_, (TO_BOOL ? 2 : 1) * tile * sizeof(float));
            pipe.InitBuffer(i32Buf_, tile * sizeof(int32_t));
            pipe.InitBuffer(f16Buf_, 3 * tile * sizeof(half));
        }
        if constexpr (TO_BOOL) {
            pipe.InitBuffer(maskBuf_, tile / 8);
            LocalTensor<half> h = f16Buf_.Get<half>();
            Duplicate(h[tile], static_cast<half>(1.0f), tile);
            Duplicate(h[2 * tile], static_cast<half>(0.0f), tile);
            Duplicate(f32Buf_.Get<float>()[tile], 0.0f, tile);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void Process() { loop_.Run(*this); }

    // One tile (called by the loop): y = x converted.
    __aicore__ inline void Compute(const LocalTensor<D> &y, const LocalTensor<S> &x, uint32_t count) {
        if constexpr (TO_BOOL) {
            LocalTensor<float> f = f32Buf_.Get<float>();
            const uint32_t n = AlignRepeat<float>(count);
            // an int64 source is read for `count` only: a whole float repeat of it (512 bytes) reaches
            // past what the tile's DataCopy wrote (the compare's extra lanes are discarded anyway)
            ToFloat(f, x, sizeof(S) > sizeof(float) ? count : n);
            LocalTensor<uint8_t> mask = maskBuf_.Get<uint8_t>();
            Compare(mask, f, f[tile_], CMPMODE::NE, n);
            LocalTensor<half> h = f16Buf_.Get<half>();
            Select(h, mask, h[tile_], h[2 * tile_], SELMODE::VSEL_TENSOR_TENSOR_MODE, AlignRepeat<half>(count));
            Cast(y, h, RoundMode::CAST_ROUND, count);
        } else if constexpr (IsSame<S, D>::value) {
            DataCopy(y, x, AlignBlock<S>(count));
        } else if constexpr (IsSame<S, float>::value) {
            FromFloat(y, x, count);  // no staging copy of a float source
        } else if constexpr (IsSame<D, float>::value) {
            ToFloat(y, x, count);  // converted straight into the output tile
        } else if constexpr (kFloatSource || kFloatType<D>) {
            LocalTensor<float> f = f32Buf_.Get<float>();
            ToFloat(f, x, count);
            FromFloat(y, f, count);
        } else {  // integer -> integer
            LocalTensor<int32_t> i = i32Buf_.Get<int32_t>();
            ToInt32(i, x, count);
            FromInt32(y, i, count);
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
        } else if constexpr (IsSame<S, int64_t>::value) {
#if __CCE_AICORE__ == 200
            static_assert(TO_BOOL, "no int64_t Cast row on the Atlas inference series: only int64 -> bool is built");
            Int64Nonzero(f, x, n);
#else
            Cast(f, x, RoundMode::CAST_RINT, n);  // nearest even, as NumPy's int64 -> float32
#endif
        } else if constexpr (IsSame<S, int16_t>::value) {
            Int16ToFloat(f, x, n);
        } else {
            Cast(f, x, RoundMode::CAST_NONE, n);
        }
    }

    // int16 -> float, exact. The Atlas inference series AI Core has no int16 -> float Cast (its table lists
    // int16 -> half, exact only below 2048 in magnitude): there x = lo + hi with lo = x & 0xFF and hi = x - lo
    // (a multiple of 256), both exact in half, each widened to float and added (exact). Scratch: the three
    // half tiles (x may be the first) and the int32 tile as floats.
    __aicore__ inline void Int16ToFloat(const LocalTensor<float> &f, const LocalTensor<int16_t> &x, uint32_t n) {
#if __CCE_AICORE__ == 200
        LocalTensor<int16_t> r = f16Buf_.Get<int16_t>();
        LocalTensor<int16_t> hi = r, lo = r[tile_], c = r[2 * tile_];
        LocalTensor<float> g = i32Buf_.Get<float>();
        Duplicate(c, static_cast<int16_t>(0xFF), n);
        And(lo, x, c, n);
        Sub(hi, x, lo, n);
        Cast(c.template ReinterpretCast<half>(), lo, RoundMode::CAST_NONE, n);
        Cast(f, c.template ReinterpretCast<half>(), RoundMode::CAST_NONE, n);
        Cast(lo.template ReinterpretCast<half>(), hi, RoundMode::CAST_NONE, n);
        Cast(g, lo.template ReinterpretCast<half>(), RoundMode::CAST_NONE, n);
        Add(f, f, g, n);
        if constexpr (TO_BOOL) {  // the scratch held Select's 1 / 0 tiles (Init): refill them
            LocalTensor<half> h = f16Buf_.Get<half>();
            Duplicate(h[tile_], static_cast<half>(1.0f), tile_);
            Duplicate(h[2 * tile_], static_cast<half>(0.0f), tile_);
        }
#else
        Cast(f, x, RoundMode::CAST_NONE, n);
#endif
    }

    // int64 -> a float that is zero exactly where x is (for -> bool, without an int64 Cast row):
    // |float(low word)| + |float(high word)|, each word's int32 -> float nonzero iff the word is. Scratch:
    // the int32 tile and f's second half (Compare's zero tile, refilled).
    __aicore__ inline void Int64Nonzero(const LocalTensor<float> &f, const LocalTensor<int64_t> &x, uint32_t n) {
        LocalTensor<int32_t> i = i32Buf_.Get<int32_t>();
        LocalTensor<int32_t> words = x.template ReinterpretCast<int32_t>();
        LocalTensor<float> g = f[tile_];
        uint64_t kept = 0;
        LowHalves(i, words, n);
        Cast(f, i, RoundMode::CAST_NONE, n);
        Abs(f, f, n);
        GatherMask(i, words, static_cast<uint8_t>(2), true, 2 * n, GatherMaskParams{1, 1, 8, 0}, kept);  // high words
        Cast(g, i, RoundMode::CAST_NONE, n);
        Abs(g, g, n);
        Add(f, f, g, n);
        Duplicate(g, 0.0f, tile_);
    }

    // float -> dst (not bool); the source is a float type or dst is one
    __aicore__ inline void FromFloat(const LocalTensor<D> &y, const LocalTensor<float> &f, uint32_t n) {
        if constexpr (IsSame<D, float>::value) {
            DataCopy(y, f, AlignBlock<float>(n));
        } else if constexpr (IsSame<D, half>::value || IsSame<D, bfloat16_t>::value) {
            Cast(y, f, kToNearest<D>, n);
        } else if constexpr (IsSame<D, int16_t>::value) {
#if __CCE_AICORE__ == 200  // no float -> int16_t row: both steps saturate, as A2's one Cast
            LocalTensor<int32_t> i = i32Buf_.Get<int32_t>();
            Cast(i, f, RoundMode::CAST_TRUNC, n);
            Cast(y, i, RoundMode::CAST_NONE, n);
#else
            Cast(y, f, RoundMode::CAST_TRUNC, n);
#endif
        } else if constexpr (IsSame<D, int32_t>::value || IsSame<D, int64_t>::value) {
            Cast(y, f, RoundMode::CAST_TRUNC, n);
        } else {  // uint8_t / int8_t: truncate to int32 first, then exact narrowing through half
            LocalTensor<int32_t> i = i32Buf_.Get<int32_t>();
            Cast(i, f, RoundMode::CAST_TRUNC, n);
            NarrowTo8Bit(y, i, n);
        }
    }

    // integer src -> its value as int32 (int64: modulo 2^32, the low word of each element)
    __aicore__ inline void ToInt32(const LocalTensor<int32_t> &i, const LocalTensor<S> &x, uint32_t n) {
        if constexpr (IsSame<S, int32_t>::value) {
            DataCopy(i, x, AlignBlock<int32_t>(n));
        } else if constexpr (IsSame<S, int64_t>::value) {
            LowHalves(i, x.template ReinterpretCast<int32_t>(), n);
        } else {  // bool / uint8 / int8 / int16: exact through float
            LocalTensor<float> f = f32Buf_.Get<float>();
            ToFloat(f, x, n);
            Cast(i, f, RoundMode::CAST_TRUNC, n);
        }
    }

    // int32 value -> integer dst (not bool), wrapping like NumPy
    __aicore__ inline void FromInt32(const LocalTensor<D> &y, const LocalTensor<int32_t> &i, uint32_t n) {
        if constexpr (IsSame<D, int32_t>::value) {
            DataCopy(y, i, AlignBlock<int32_t>(n));
        } else if constexpr (IsSame<D, int64_t>::value) {
            Cast(y, i, RoundMode::CAST_NONE, n);  // sign-extends
        } else if constexpr (IsSame<D, int16_t>::value) {
            LowHalves(y, i.template ReinterpretCast<int16_t>(), n);
        } else {  // uint8_t / int8_t
            if constexpr (kWideSource) {  // keep the low 16 bits, back to int32 (exact): |i| <= 32768
                LocalTensor<int16_t> s = f16Buf_.Get<int16_t>();
                LocalTensor<float> f = f32Buf_.Get<float>();
                LowHalves(s, i.template ReinterpretCast<int16_t>(), n);
                Int16ToFloat(f, s, n);
                Cast(i, f, RoundMode::CAST_TRUNC, n);
            }
            WrapTo8Bit(i, f32Buf_.Get<float>(), n);
            NarrowTo8Bit(y, i, n);
        }
    }

    // dst[k] = the low half of element k (little endian: src[2k]) of n two-part elements: int64 ->
    // its low int32, int32 -> its low int16. GatherMask in counter mode reads exactly 2n elements.
    template <typename H>
    __aicore__ inline void LowHalves(const LocalTensor<H> &dst, const LocalTensor<H> &src, uint32_t n) {
        uint64_t kept = 0;
        GatherMask(dst, src, static_cast<uint8_t>(1), true, 2 * n, GatherMaskParams{1, 1, 8, 0}, kept);
    }

    // int32 values in the 8-bit range (in range or saturating through half) -> uint8 / int8
    __aicore__ inline void NarrowTo8Bit(const LocalTensor<D> &y, const LocalTensor<int32_t> &i, uint32_t n) {
        LocalTensor<half> h = f16Buf_.Get<half>();
        SetDeqScale(static_cast<half>(1.0f));  // int32 -> half multiplies by DEQSCALE's half scale
        Cast(h, i, RoundMode::CAST_NONE, n);
        Cast(y, h, RoundMode::CAST_TRUNC, n);
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

    TileLoop<D, S> loop_;  // y <- x
    TBuf<QuePosition::VECCALC> f32Buf_, i32Buf_, f16Buf_, maskBuf_;
    uint32_t tile_ = 0;
};

}  // namespace pyasc_kernels

#define PYASC_CAST_KERNEL(SNAME, S, DNAME, D, TO_BOOL) \
    PYASC_ENTRY_2(cast_##SNAME##_##DNAME, pyasc_kernels::KernelCast<S, D, TO_BOOL>)

// bool is stored as one byte 0/1: as a source it converts like uint8
#define PYASC_CAST_FROM(SNAME, S)                                \
    PYASC_CAST_KERNEL(SNAME, S, bool, uint8_t, true)             \
    PYASC_CAST_KERNEL(SNAME, S, uint8, uint8_t, false)           \
    PYASC_CAST_KERNEL(SNAME, S, int8, int8_t, false)             \
    PYASC_CAST_KERNEL(SNAME, S, int16, int16_t, false)           \
    PYASC_CAST_TO_INT64(SNAME, S)                                \
    PYASC_CAST_FROM_NUMERIC(SNAME, S)

#define PYASC_CAST_TO(DNAME, D, SNAME, S) PYASC_CAST_KERNEL(SNAME, S, DNAME, D, false)
#define PYASC_CAST_FROM_NUMERIC(SNAME, S) PYASC_NUMERIC_DTYPES(PYASC_CAST_TO, SNAME, S)

// The Atlas inference series' Cast table lists no int64_t conversion (PYASC_CAST_NO_INT64_ROWS): its build
// has no kernel converting to int64 (but int64 -> int64) nor from int64 to a float type; int64 -> bool and
// the integer narrowings need no int64 Cast and stay.
#if __CCE_AICORE__ == 200
#define PYASC_CAST_NO_INT64_ROWS 1
#define PYASC_CAST_TO_INT64(SNAME, S)
#else
#define PYASC_CAST_NO_INT64_ROWS 0
#define PYASC_CAST_TO_INT64(SNAME, S) PYASC_CAST_KERNEL(SNAME, S, int64, int64_t, false)
#endif

PYASC_CAST_FROM(bool, uint8_t)
PYASC_CAST_FROM(uint8, uint8_t)
PYASC_CAST_FROM(int8, int8_t)
PYASC_CAST_FROM(int16, int16_t)
PYASC_CAST_FROM(int32, int32_t)
#if PYASC_CAST_NO_INT64_ROWS
PYASC_CAST_KERNEL(int64, int64_t, bool, uint8_t, true)
PYASC_CAST_KERNEL(int64, int64_t, uint8, uint8_t, false)
PYASC_CAST_KERNEL(int64, int64_t, int8, int8_t, false)
PYASC_CAST_KERNEL(int64, int64_t, int16, int16_t, false)
PYASC_CAST_KERNEL(int64, int64_t, int32, int32_t, false)
PYASC_CAST_KERNEL(int64, int64_t, int64, int64_t, false)
#else
PYASC_CAST_FROM(int64, int64_t)
#endif
PYASC_CAST_FROM(float16, half)
#if PYASC_HAS_BF16  // no bfloat16 on the Atlas inference series (kernel_entry.h)
PYASC_CAST_FROM(bfloat16, bfloat16_t)
#endif
PYASC_CAST_FROM(float32, float)
