// Elementwise comparisons: eq, ne, lt, le, gt, ge -> bool (one byte per element, 0 or 1).
//
// Kernels compare_<op>_<dtype> for float16, bfloat16 (compared in float), float32 and int32.
// Compare (CMPMODE) writes a bit mask; Select turns it into 1.0 / 0.0 (half) and Cast makes the
// bytes. A Python scalar on the right (mode 1) is compared as a tensor; the host swaps a scalar on the
// left into this form (s < y  <=>  y > s); the scalar is Duplicate'd into a tensor once.
// Compare takes int32_t for EQ/NE only on Atlas A2: int32 lt/le/gt/ge compare the sign of a - b,
// computed exactly in float without shifts (ShiftLeft/ShiftRight are not on the inference series'
// AI Core): f = float(x) is monotonic in x and r = x - int32(f) (rint, saturating at 2^31 - 1) is an
// exact small int32 (|r| <= 64, or -63..0 next to 2^31), so s = (fa - fb) * 256 + (float(ra) - float(rb))
// has the sign of a - b and is 0 only when a == b: fa - fb keeps the sign of the float difference (0 only
// when fa == fb, and then s = ra - rb exactly), and when it is not 0 it is at least 1, so its 256-fold
// outweighs |ra - rb| <= 128 and the rounded sum keeps its sign.
// On the Atlas inference series AI Core (__CCE_AICORE__ 200) Compare lists half and float only (no int32_t
// EQ/NE either), so int32 eq / ne take the same path there: s == 0 exactly when a == b.
#include "kernel_operator.h"  // first, so the simulator's precompiled kernel API header applies (pyasc_sim.pch)
#include "kernel_entry.h"
#include "tile_loop.h"

namespace pyasc_kernels {

// Host side: pyasc_kernels/elementwise.py (same layout as BinaryTiling).
struct CompareTiling {
    uint32_t totalLength;
    uint32_t perCore;
    uint32_t tileLength;  // elements per tile (multiple of 256 so every buffer is whole repeats)
    uint32_t mode;        // 0: tensor-tensor, 1: y is the scalar
    uint32_t scalarBits;  // float bits (floating kernels) or int32
    uint32_t reserved[3];
};

template <typename T, CMPMODE MODE>
class KernelCompare {
    using C = typename ComputeType<T>::type;
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
    static constexpr bool kIntCompareEqNe = false;  // Compare: half / float only on this family
#else
    static constexpr bool kIntCompareEqNe = true;  // Compare: int32_t for EQ / NE (Atlas A2)
#endif
    static constexpr bool kIntOrder =
        IsSame<T, int32_t>::value && (!kIntCompareEqNe || (MODE != CMPMODE::EQ && MODE != CMPMODE::NE));

public:
    using Tiling = CompareTiling;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const CompareTiling &tiling) {
        t_ = tiling;
        if (!loop_.Init(ShareOf(t_), z, x, t_.mode == 0 ? y : nullptr)) {
            return;
        }
        TPipe &pipe = loop_.Pipe();
        const uint32_t tile = t_.tileLength;
        if (t_.mode != 0) {
            pipe.InitBuffer(scalarBuf_, tile * sizeof(C));
            scalarTensor_ = scalarBuf_.Get<C>();
            Duplicate(scalarTensor_, ScalarFromBits<C>(t_.scalarBits), tile);
        }
        if constexpr (kWidened<T>) {
            pipe.InitBuffer(calc_, 2 * tile * sizeof(float));
        }
        if constexpr (kIntOrder) {  // three float tiles (the third is zeros at the end), one int32 tile
            pipe.InitBuffer(calc_, 3 * tile * sizeof(float));
            pipe.InitBuffer(intBuf_, tile * sizeof(int32_t));
        }
        pipe.InitBuffer(maskBuf_, tile / 8);
        pipe.InitBuffer(selBuf_, 3 * tile * sizeof(half));
        ones_ = selBuf_.Get<half>();
        zeros_ = ones_[tile];
        sel_ = ones_[2 * tile];
        Duplicate(ones_, static_cast<half>(1.0f), tile);
        Duplicate(zeros_, static_cast<half>(0.0f), tile);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Process() { loop_.Run(*this); }

    // One tile (called by the loop): z = x MODE y as bool bytes, y unset in mode 1.
    __aicore__ inline void Compute(const LocalTensor<uint8_t> &z, const LocalTensor<T> &x, const LocalTensor<T> &y,
                                   uint32_t count) {
        LocalTensor<uint8_t> mask = maskBuf_.Get<uint8_t>();
        if constexpr (kWidened<T>) {
            LocalTensor<float> xf = calc_.Get<float>();
            LocalTensor<float> yf = xf[t_.tileLength];
            const uint32_t n = AlignRepeat<float>(count);
            ToCompute(xf, x, n);
            if (t_.mode == 0) {
                ToCompute(yf, y, n);
            }
            CompareInto(mask, xf, yf, count);
        } else if constexpr (kIntOrder) {
            OrderInto(mask, x, t_.mode == 0 ? y : scalarTensor_, count);
        } else {
            CompareInto(mask, x, y, count);
        }
        const uint32_t n = AlignRepeat<half>(count);
        Select(sel_, mask, ones_, zeros_, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        Cast(z, sel_, RoundMode::CAST_ROUND, count);
    }

private:
    __aicore__ inline void CompareInto(const LocalTensor<uint8_t> &mask, const LocalTensor<C> &a,
                                       const LocalTensor<C> &b, uint32_t count) {
        // the count form compares whole 256-byte repeats: the tail of the last repeat holds
        // leftovers of earlier tiles and its results are never stored
        const uint32_t n = AlignRepeat<C>(count);
        Compare(mask, a, t_.mode == 0 ? b : scalarTensor_, MODE, n);
    }

    // int32 a MODE b for an ordering MODE (see the header): Compare(s MODE 0) in float
    __aicore__ inline void OrderInto(const LocalTensor<uint8_t> &mask, const LocalTensor<int32_t> &a,
                                     const LocalTensor<int32_t> &b, uint32_t count) {
        const uint32_t tile = t_.tileLength;
        const uint32_t n = AlignRepeat<float>(count);
        LocalTensor<float> d = calc_.Get<float>();  // fa, then fa - fb, then s
        LocalTensor<float> e = d[tile];             // ra, then ra - rb
        LocalTensor<float> f = d[2 * tile];         // fb, then rb, then zeros
        LocalTensor<int32_t> h = intBuf_.Get<int32_t>();
        Split(d, e, h, a, n);
        Split(f, h, b, n);  // h: rb as int32 (the float temporaries are full)
        Sub(d, d, f, n);
        Cast(f, h, RoundMode::CAST_NONE, n);
        Sub(e, e, f, n);
        Muls(d, d, 256.0f, n);
        Add(d, d, e, n);
        Duplicate(f, 0.0f, n);
        Compare(mask, d, f, MODE, n);
    }

    // fx = float(x), r = x - int32(rint(fx)) as float (through the int32 tile h), or (Split into an int32
    // tensor) r as int32
    __aicore__ inline void Split(const LocalTensor<float> &fx, const LocalTensor<float> &r, const LocalTensor<int32_t> &h,
                                 const LocalTensor<int32_t> &x, uint32_t n) {
        Split(fx, h, x, n);
        Cast(r, h, RoundMode::CAST_NONE, n);
    }
    __aicore__ inline void Split(const LocalTensor<float> &fx, const LocalTensor<int32_t> &r, const LocalTensor<int32_t> &x,
                                 uint32_t n) {
        Cast(fx, x, RoundMode::CAST_NONE, n);
        Cast(r, fx, RoundMode::CAST_RINT, n);
        Sub(r, x, r, n);
    }

    TileLoop<uint8_t, T, T> loop_;  // z <- x, y
    TBuf<QuePosition::VECCALC> calc_, maskBuf_, selBuf_, scalarBuf_, intBuf_;
    LocalTensor<half> ones_, zeros_, sel_;
    LocalTensor<C> scalarTensor_;
    CompareTiling t_;
};

}  // namespace pyasc_kernels

#define PYASC_COMPARE_KERNEL(DTYPE, T, NAME, MODE) \
    PYASC_ENTRY_3(compare_##NAME##_##DTYPE, pyasc_kernels::KernelCompare<T, CMPMODE::MODE>)

PYASC_NUMERIC_DTYPES(PYASC_COMPARE_KERNEL, eq, EQ)
PYASC_NUMERIC_DTYPES(PYASC_COMPARE_KERNEL, ne, NE)
PYASC_NUMERIC_DTYPES(PYASC_COMPARE_KERNEL, lt, LT)
PYASC_NUMERIC_DTYPES(PYASC_COMPARE_KERNEL, le, LE)
PYASC_NUMERIC_DTYPES(PYASC_COMPARE_KERNEL, gt, GT)
PYASC_NUMERIC_DTYPES(PYASC_COMPARE_KERNEL, ge, GE)
