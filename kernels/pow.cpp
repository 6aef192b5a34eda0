// Elementwise power: z = x ** y (np.power semantics).
//
// Kernels pow_<dtype> for float16, bfloat16, float32 (computed in float, one rounding at the end
// for the 16-bit types) and int32. Tensor-tensor operands have the same length (the host
// materialises broadcasts with the copy kernels); a Python scalar operand travels in the tiling
// struct (mode 1: y is the scalar, mode 2: x is the scalar) and is Duplicate'd into a tensor once.
//
// Floating kernels: |x| ** y = exp(y * ln|x|), with ln|x| and the product carried as float pairs
// (hi + lo) so that the result keeps float accuracy even when |y * ln|x|| is large (float Ln then
// Exp alone loses |y * ln|x|| * 2^-24 relative: ~5e-6 at 88). Only vector primitives are used:
//   1. |x| = 2^k * m with m in [sqrt(1/2), sqrt(2)): the exponent comes from the float's bits
//      (ReinterpretCast to int32, Cast to float, scale, Cast to int32 with CAST_FLOOR), the scale
//      2^-k is built as int32 bits and multiplied in exactly; values beyond 2^+-64 (denormals,
//      huge values) are first scaled by 2^-+64;
//   2. ln m = 2 atanh(s), s = f / (2 + f), f = m - 1 (exact): 2s carried as s_hi + s_lo (the
//      division's residual from an exact Dekker product), the tail 2 s^3 (1/3 + s^2/5 + ...) in
//      float (it is under 1% of ln m);
//   3. ln|x| = k ln2_hi (exact) + k ln2_lo + ln m, summed with TwoSum into L_hi + L_lo;
//   4. y * ln|x| = z_hi + z_lo (Dekker product, y clamped to +-2^100 which keeps every result that
//      far out at inf / 0), then exp(z_hi) * (1 + z_lo).
// Then np.power's special cases: a negative base with an integer-valued y takes the sign of y's
// parity (also -0 and -inf), with a non-integer y gives NaN (finite bases only); 0 ** y and
// inf ** y give 0 / inf by the sign of y; NaN in x or y gives NaN except x ** 0 == 1 and
// 1 ** y == 1. NumPy computes x ** 0.5 as sqrt(x) when the exponent is a single value for the
// whole loop (a scalar, a broadcast one-element array): then (-inf) ** 0.5 is NaN and (-0) ** 0.5
// is -0. The host says when y is such a value (tiling.uniformY) and the kernel does the same.
//
// int32 kernel: binary exponentiation over the 31 bits of y, most significant first (products
// wrap modulo 2^32 like NumPy's). A negative exponent (the host refuses a negative Python scalar,
// as the reference does) gives the value truncated toward zero: 1 for x == 1, +-1 for x == -1, 0
// otherwise.
#include "kernel_operator.h"  // first, so the simulator's precompiled kernel API header applies (pyasc_sim.pch)
#include "kernel_entry.h"
#include "tile_loop.h"

namespace pyasc_kernels {

enum PowMode : uint32_t { POW_TENSOR = 0, POW_SCALAR_Y = 1, POW_SCALAR_X = 2 };

// Host side: pyasc_kernels/elementwise.py (same layout as BinaryTiling).
struct PowTiling {
    uint32_t totalLength;  // elements of z
    uint32_t perCore;      // elements per core (whole 256-element groups, except the last core's share)
    uint32_t tileLength;   // elements per tile (a multiple of 256)
    uint32_t mode;         // PowMode
    uint32_t scalarBits;   // the scalar: float bits for floating kernels, int32 for the int32 kernel
    uint32_t uniformY;     // 1: y is one value for every element (see "y == 0.5" below)
    uint32_t reserved[2];
};

constexpr float kTwo64 = 18446744073709551616.0f;        // 2^64
constexpr float kTwoM64 = 5.42101086242752217004e-20f;   // 2^-64
constexpr float kSqrt2 = 1.41421353816986083984f;        // float(sqrt(2))
constexpr float kSqrtHalf = 0.70710676908493041992f;     // float(sqrt(1/2))
constexpr float kLn2Hi = 0.693145751953125f;             // 0x3f317200: 15 significant bits, k * kLn2Hi is exact
constexpr float kLn2Lo = 1.42860682030941723212e-06f;    // ln 2 - kLn2Hi
constexpr float kSplit = 4097.0f;                         // Dekker's splitter for 24-bit significands
constexpr float kYClamp = 1.2676506002282294e30f;         // 2^100
constexpr float kInf = __builtin_huge_valf();
constexpr float kNaN = __builtin_nanf("");
constexpr uint32_t kFloatTemps = 14;
constexpr uint32_t kIntTemps = 4;

template <typename T>
class KernelPow {
    using C = typename ComputeType<T>::type;
    static constexpr bool kFloat = IsSame<C, float>::value;

public:
    using Tiling = PowTiling;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const PowTiling &tiling) {
        t_ = tiling;
        // "a" is always a tensor operand (y in mode 2), "b" the other tensor operand (mode 0 only)
        GM_ADDR a = t_.mode == POW_SCALAR_X ? y : x;
        if (!loop_.Init(ShareOf(t_), z, a, t_.mode == POW_TENSOR ? y : nullptr)) {
            return;
        }
        TPipe &pipe = loop_.Pipe();
        const uint32_t tile = t_.tileLength;
        // x and y in C (widened copies, or the Duplicate'd scalar), then the temporaries
        const uint32_t temps = 2 + (kFloat ? kFloatTemps : kIntTemps);
        pipe.InitBuffer(calc_, temps * tile * sizeof(C));
        pipe.InitBuffer(maskBuf_, 2 * (tile / 8));
        LocalTensor<C> base = calc_.Get<C>();
        xc_ = base;
        yc_ = base[tile];
        for (uint32_t i = 0; i < temps - 2; ++i) {
            tmp_[i] = base[(2 + i) * tile];
        }
        LocalTensor<uint8_t> masks = maskBuf_.Get<uint8_t>();
        m0_ = masks;
        m1_ = masks[tile / 8];
        if (t_.mode != POW_TENSOR) {
            Duplicate(t_.mode == POW_SCALAR_X ? xc_ : yc_, ScalarFromBits<C>(t_.scalarBits), tile);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void Process() { loop_.Run(*this); }

    // One tile (called by the loop): z = x ** y from the tensor operands a (and b in mode 0).
    __aicore__ inline void Compute(const LocalTensor<T> &z, const LocalTensor<T> &a, const LocalTensor<T> &b,
                                   uint32_t count) {
        // every vector op runs over whole repeats (Compare's count form needs them); the lanes
        // past `count` compute on stale data and are never stored
        const uint32_t n = AlignRepeat<float>(count);
        // X, Y: the operands in C
        LocalTensor<C> X = xc_;
        LocalTensor<C> Y = yc_;
        const LocalTensor<T> &tx = a;  // read only in modes 0 and 1 (x is a tensor)
        const LocalTensor<T> &ty = t_.mode == POW_TENSOR ? b : a;  // read only in modes 0 and 2
        if constexpr (kWidened<T>) {
            if (t_.mode != POW_SCALAR_X) {
                ToCompute(X, tx, n);
            }
            if (t_.mode != POW_SCALAR_Y) {
                ToCompute(Y, ty, n);
            }
            PowFloat(tmp_[0], X, Y, n);
            FromCompute(z, tmp_[0], count);
        } else {
            if (t_.mode != POW_SCALAR_X) {
                X = tx;
            }
            if (t_.mode != POW_SCALAR_Y) {
                Y = ty;
            }
            if constexpr (kFloat) {
                PowFloat(z, X, Y, n);
            } else {
                PowInt(z, X, Y, n);
            }
        }
    }

private:
    // dst = mask ? src0 : src1 (tensors) / scalar
    __aicore__ inline void Sel(const LocalTensor<float> &dst, const LocalTensor<uint8_t> &mask,
                               const LocalTensor<float> &src0, const LocalTensor<float> &src1, uint32_t n) {
        Select(dst, mask, src0, src1, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
    }
    __aicore__ inline void Sel(const LocalTensor<float> &dst, const LocalTensor<uint8_t> &mask,
                               const LocalTensor<float> &src0, float src1, uint32_t n) {
        Select(dst, mask, src0, src1, SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
    }

    // Dekker's exact product: ph + pl == a * b (no FMA needed), with four scratch tensors.
    __aicore__ inline void TwoProd(const LocalTensor<float> &ph, const LocalTensor<float> &pl,
                                   const LocalTensor<float> &a, const LocalTensor<float> &b,
                                   const LocalTensor<float> &ah, const LocalTensor<float> &al,
                                   const LocalTensor<float> &bh, const LocalTensor<float> &bl, uint32_t n) {
        Mul(ph, a, b, n);
        Muls(ah, a, kSplit, n);  // split a = ah + al (12 + 12 bits)
        Sub(al, ah, a, n);
        Sub(ah, ah, al, n);
        Sub(al, a, ah, n);
        Muls(bh, b, kSplit, n);  // split b = bh + bl
        Sub(bl, bh, b, n);
        Sub(bh, bh, bl, n);
        Sub(bl, b, bh, n);
        Mul(pl, ah, bh, n);      // pl = ((ah bh - ph) + ah bl + al bh) + al bl
        Sub(pl, pl, ph, n);
        Mul(ah, ah, bl, n);
        Add(pl, pl, ah, n);
        Mul(ah, al, bh, n);
        Add(pl, pl, ah, n);
        Mul(ah, al, bl, n);
        Add(pl, pl, ah, n);
    }

    // R = X ** Y in float over n elements (R may alias neither X nor Y nor a temporary but tmp_[0]).
    __aicore__ inline void PowFloat(const LocalTensor<float> &R, const LocalTensor<float> &X,
                                    const LocalTensor<float> &Y, uint32_t n) {
        const LocalTensor<float> &A = tmp_[1];   // |x|, then m
        const LocalTensor<float> &K = tmp_[2];   // k (as float)
        const LocalTensor<float> &T1 = tmp_[3];
        const LocalTensor<float> &T2 = tmp_[4];
        const LocalTensor<int32_t> I1 = tmp_[3].template ReinterpretCast<int32_t>();
        const LocalTensor<int32_t> I2 = tmp_[4].template ReinterpretCast<int32_t>();

        // ---- 1. |x| = 2^k m, m in [sqrt(1/2), sqrt(2)) ----
        Abs(A, X, n);
        Duplicate(K, 0.0f, n);
        Compares(m0_, A, kTwo64, CMPMODE::GE, n);      // huge: scale by 2^-64
        Muls(T1, A, kTwoM64, n);
        Sel(A, m0_, T1, A, n);
        Adds(T1, K, 64.0f, n);
        Sel(K, m0_, T1, K, n);
        Compares(m0_, A, kTwoM64, CMPMODE::LT, n);     // tiny and denormal: scale by 2^64
        Muls(T1, A, kTwo64, n);
        Sel(A, m0_, T1, A, n);
        Adds(T1, K, -64.0f, n);
        Sel(K, m0_, T1, K, n);
        // biased exponent e = floor(bits / 2^23) (bits rounded to float may round e up by one:
        // m then lands in [1/2, 1), which the centring below takes care of)
        Cast(T1, A.ReinterpretCast<int32_t>(), RoundMode::CAST_NONE, n);
        Muls(T1, T1, 1.0f / 8388608.0f, n);
        Cast(I2, T1, RoundMode::CAST_FLOOR, n);
        Cast(T1, I2, RoundMode::CAST_NONE, n);
        Adds(T1, T1, -127.0f, n);
        Add(K, K, T1, n);
        // 2^(127 - e) as bits: (254 - e) << 23, then m = |x| * 2^(127 - e) (exact)
        Muls(I2, I2, -8388608, n);
        Adds(I2, I2, 254 * 8388608, n);
        Mul(A, A, T2, n);
        Compares(m0_, A, kSqrt2, CMPMODE::GE, n);
        Muls(T1, A, 0.5f, n);
        Sel(A, m0_, T1, A, n);
        Adds(T1, K, 1.0f, n);
        Sel(K, m0_, T1, K, n);
        Compares(m0_, A, kSqrtHalf, CMPMODE::LT, n);
        Muls(T1, A, 2.0f, n);
        Sel(A, m0_, T1, A, n);
        Adds(T1, K, -1.0f, n);
        Sel(K, m0_, T1, K, n);

        // ---- 2. ln m = 2 atanh(s), s = f / (2 + f) = S + Slo ----
        const LocalTensor<float> &F = A;          // f = m - 1 (exact), in place
        const LocalTensor<float> &U = tmp_[5];    // u = 2 + f (rounded)
        const LocalTensor<float> &EU = tmp_[6];   // (2 + f) - u (exact)
        const LocalTensor<float> &S = tmp_[7];
        const LocalTensor<float> &P = tmp_[8];
        const LocalTensor<float> &PL = tmp_[9];
        const LocalTensor<float> &W1 = tmp_[10];
        const LocalTensor<float> &W2 = tmp_[11];
        const LocalTensor<float> &W3 = tmp_[12];
        const LocalTensor<float> &W4 = tmp_[13];
        Adds(F, A, -1.0f, n);
        Adds(U, F, 2.0f, n);
        Adds(EU, U, -2.0f, n);
        Sub(EU, F, EU, n);
        Div(S, F, U, n);
        TwoProd(P, PL, S, U, W1, W2, W3, W4, n);   // S * u exactly
        Sub(T1, F, P, n);                          // f - S (u + eu) = (f - P) - PL - S eu
        Sub(T1, T1, PL, n);
        Mul(T2, S, EU, n);
        Sub(T1, T1, T2, n);
        Div(T1, T1, U, n);                         // Slo
        // tail 2 s^3 (1/3 + w/5 + w^2/7 + w^3/9 + w^4/11 + w^5/13), w = s^2 (float is enough)
        const LocalTensor<float> &WW = U;
        const LocalTensor<float> &Q = EU;
        Mul(WW, S, S, n);
        Muls(Q, WW, 2.0f / 13.0f, n);
        Adds(Q, Q, 2.0f / 11.0f, n);
        Mul(Q, Q, WW, n);
        Adds(Q, Q, 2.0f / 9.0f, n);
        Mul(Q, Q, WW, n);
        Adds(Q, Q, 2.0f / 7.0f, n);
        Mul(Q, Q, WW, n);
        Adds(Q, Q, 2.0f / 5.0f, n);
        Mul(Q, Q, WW, n);
        Adds(Q, Q, 2.0f / 3.0f, n);
        Mul(Q, Q, WW, n);
        Mul(Q, Q, S, n);
        // low = 2 Slo + tail; ln m = 2 S + low  ->  LM + LMlo (Fast2Sum)
        const LocalTensor<float> &LM = P;
        const LocalTensor<float> &LMlo = PL;
        Muls(T1, T1, 2.0f, n);
        Add(T1, T1, Q, n);                         // low
        Muls(S, S, 2.0f, n);                       // lead (exact)
        Add(LM, S, T1, n);
        Sub(T2, LM, S, n);
        Sub(LMlo, T1, T2, n);

        // ---- 3. ln|x| = k ln2_hi + (k ln2_lo + ln m) -> L + Llo ----
        const LocalTensor<float> &KH = W1;
        const LocalTensor<float> &SM = W2;
        const LocalTensor<float> &L = W3;
        const LocalTensor<float> &Llo = W4;
        Muls(KH, K, kLn2Hi, n);                    // exact
        Add(SM, KH, LM, n);                        // TwoSum(KH, LM) = SM + T1
        Sub(T2, SM, KH, n);                        // bb
        Sub(T1, SM, T2, n);
        Sub(T1, KH, T1, n);                        // KH - (SM - bb)
        Sub(T2, LM, T2, n);                        // LM - bb
        Add(T1, T1, T2, n);
        Add(T1, T1, LMlo, n);
        Muls(T2, K, kLn2Lo, n);
        Add(T1, T1, T2, n);                        // lo
        Add(L, SM, T1, n);                         // Fast2Sum(SM, lo)
        Sub(T2, L, SM, n);
        Sub(Llo, T1, T2, n);

        // ---- 4. y ln|x| = Z + Zlo, exp(Z) (1 + Zlo) ----
        const LocalTensor<float> &YC = K;          // k is no longer needed
        const LocalTensor<float> &Z = tmp_[5];
        const LocalTensor<float> &Zlo = tmp_[6];
        Mins(YC, Y, kYClamp, n);
        Maxs(YC, YC, -kYClamp, n);
        TwoProd(Z, Zlo, YC, L, S, P, PL, A, n);
        Mul(T1, YC, Llo, n);
        Add(Zlo, Zlo, T1, n);
        Add(T1, Z, Zlo, n);                        // Fast2Sum(Z, Zlo)
        Sub(T2, T1, Z, n);
        Sub(Zlo, Zlo, T2, n);
        Exp(Z, T1, n);
        Mul(T2, Z, Zlo, n);
        Add(R, Z, T2, n);
        Compare(m0_, R, R, CMPMODE::EQ, n);        // inf * 0 or inf - inf from an overflowed exp
        Sel(R, m0_, R, Z, n);

        // ---- special cases ----
        const LocalTensor<float> &AX = tmp_[7];
        Abs(AX, X, n);
        Muls(T1, Y, -kInf, n);                     // 0 ** y: exp(y * -inf) (y == 0 and NaN: below)
        Exp(T1, T1, n);
        Compares(m0_, AX, 0.0f, CMPMODE::EQ, n);
        Sel(R, m0_, T1, R, n);
        Muls(T1, Y, kInf, n);                      // inf ** y: exp(y * inf)
        Exp(T1, T1, n);
        Compares(m0_, AX, kInf, CMPMODE::EQ, n);
        Sel(R, m0_, T1, R, n);
        // y integer-valued? odd? (|y| >= 2^24 is an even integer; inf counts as even)
        const LocalTensor<float> &YA = tmp_[8];
        const LocalTensor<float> &FAC = tmp_[9];
        Abs(YA, Y, n);
        Mins(YA, YA, 16777216.0f, n);
        Cast(I1, YA, RoundMode::CAST_TRUNC, n);
        Cast(T1, I1, RoundMode::CAST_NONE, n);
        Compare(m1_, T1, YA, CMPMODE::EQ, n);      // m1: y is an integer
        Muls(T1, YA, 0.5f, n);
        Cast(I1, T1, RoundMode::CAST_TRUNC, n);
        Cast(T1, I1, RoundMode::CAST_NONE, n);
        Muls(T1, T1, -2.0f, n);
        Add(T1, YA, T1, n);                        // parity: 0 or 1 for integers
        Muls(FAC, T1, -2.0f, n);
        Adds(FAC, FAC, 1.0f, n);                   // (-1)^y
        // sign bit of x (also -0 and -inf): x + 1/x < 0
        Duplicate(T1, 1.0f, n);
        Div(T1, T1, X, n);
        Add(T1, T1, X, n);
        Compares(m0_, T1, 0.0f, CMPMODE::LT, n);
        Mul(T2, R, FAC, n);
        Sel(T2, m1_, T2, R, n);
        Sel(R, m0_, T2, R, n);
        // finite negative base with a non-integer exponent: NaN
        Compares(m0_, AX, kInf, CMPMODE::LT, n);
        Sel(T1, m0_, X, 0.0f, n);
        Compares(m0_, T1, 0.0f, CMPMODE::LT, n);
        Sel(T2, m1_, R, kNaN, n);
        Sel(R, m0_, T2, R, n);
        // NaN propagates, except x ** 0 == 1 and 1 ** y == 1
        Compare(m0_, X, X, CMPMODE::EQ, n);
        Sel(R, m0_, R, kNaN, n);
        Compare(m0_, Y, Y, CMPMODE::EQ, n);
        Sel(R, m0_, R, kNaN, n);
        Compares(m0_, Y, 0.0f, CMPMODE::NE, n);
        Sel(R, m0_, R, 1.0f, n);
        Compares(m0_, X, 1.0f, CMPMODE::NE, n);
        Sel(R, m0_, R, 1.0f, n);
        if (t_.uniformY != 0) {  // NumPy takes sqrt for one exponent of 0.5: (-inf) ** 0.5 is NaN there
            Sqrt(T1, X, n);
            Compares(m0_, Y, 0.5f, CMPMODE::EQ, n);
            Sel(R, m0_, T1, R, n);
        }
    }

    // mask = x MODE s for int32 x and a scalar s of magnitude <= 1 (callers: the sign of x, x == +-1).  Atlas A2
    // lists Compares for int32_t with CMPMODE::EQ only, the Atlas inference series AI Core for half / float only,
    // so every other case goes through float (scratch): float(x) keeps x's sign and equals +-1 or 0 exactly
    // when x does.
    __aicore__ inline void IntCompares(const LocalTensor<uint8_t> &mask, const LocalTensor<int32_t> &x, int32_t s,
                                       CMPMODE mode, const LocalTensor<int32_t> &scratch, uint32_t n) {
#if !defined(__CCE_AICORE__) || __CCE_AICORE__ != 200
        if (mode == CMPMODE::EQ) {
            Compares(mask, x, s, mode, n);
            return;
        }
#endif
        const LocalTensor<float> f = scratch.ReinterpretCast<float>();
        Cast(f, x, RoundMode::CAST_NONE, n);
        Compares(mask, f, static_cast<float>(s), mode, n);
    }

    // R = X ** Y for int32 (binary exponentiation; selects move the int32 bits as float lanes).
    __aicore__ inline void PowInt(const LocalTensor<int32_t> &R, const LocalTensor<int32_t> &X,
                                  const LocalTensor<int32_t> &Y, uint32_t n) {
        const LocalTensor<int32_t> &E = tmp_[0];
        const LocalTensor<int32_t> &T1 = tmp_[1];
        const LocalTensor<int32_t> &T2 = tmp_[2];
        // E = y for y >= 0, -(y + 1) for y < 0 (no overflow at INT32_MIN); x^E below
        IntCompares(m1_, Y, 0, CMPMODE::LT, T2, n);
        Adds(T1, Y, 1, n);
        Muls(T1, T1, -1, n);
        Select(E.ReinterpretCast<float>(), m1_, T1.ReinterpretCast<float>(), Y.ReinterpretCast<float>(),
               SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        Duplicate(R, 1, n);
        for (int32_t bit = 30; bit >= 0; --bit) {
            const int32_t p = static_cast<int32_t>(1u << bit);
            Mul(R, R, R, n);
            Adds(T2, E, -p, n);
            IntCompares(m0_, T2, 0, CMPMODE::GE, T1, n);  // E >= p  <=>  E - p >= 0 (no overflow: E >= 0)
            Mul(T1, R, X, n);
            Select(R.ReinterpretCast<float>(), m0_, T1.ReinterpretCast<float>(), R.ReinterpretCast<float>(),
                   SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
            Select(E.ReinterpretCast<float>(), m0_, T2.ReinterpretCast<float>(), E.ReinterpretCast<float>(),
                   SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        }
        // negative exponents: trunc(x^y) = 1 for x == 1, (-1)^y = -(-1)^E for x == -1, else 0
        Muls(T1, R, -1, n);
        IntCompares(m0_, X, -1, CMPMODE::EQ, T2, n);
        Duplicate(T2, 0, n);
        Select(T1.ReinterpretCast<float>(), m0_, T1.ReinterpretCast<float>(), T2.ReinterpretCast<float>(),
               SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        IntCompares(m0_, X, 1, CMPMODE::EQ, T2, n);
        Duplicate(T2, 1, n);
        Select(T1.ReinterpretCast<float>(), m0_, T2.ReinterpretCast<float>(), T1.ReinterpretCast<float>(),
               SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        Select(R.ReinterpretCast<float>(), m1_, T1.ReinterpretCast<float>(), R.ReinterpretCast<float>(),
               SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
    }

    TileLoop<T, T, T> loop_;  // z <- a, b
    TBuf<QuePosition::VECCALC> calc_, maskBuf_;
    LocalTensor<C> xc_, yc_;
    LocalTensor<C> tmp_[kFloatTemps];
    LocalTensor<uint8_t> m0_, m1_;
    PowTiling t_;
};

}  // namespace pyasc_kernels

#define PYASC_POW_KERNEL(DTYPE, T, NAME) PYASC_ENTRY_3(NAME##_##DTYPE, pyasc_kernels::KernelPow<T>)

PYASC_NUMERIC_DTYPES(PYASC_POW_KERNEL, pow)
