// Ascend C on the CPU -- the cube path: LoadData (L1/GM -> L0A/L0B), Mmad (L0A x L0B -> L0C)
// and Fixpipe (L0C -> GM).  (DataCopy GM -> L1 and CO1 -> CO2 are in data_copy.h.)
//
// Fractal layouts (C0 = 32 / sizeof(input) columns; 16 for half):
//   L0A "Zz": A (m x k) as ceil(m/16) x ceil(k/C0) fractals of 16 x C0, fractal (mi, ki) at
//             index mi * kBlocks + ki, each fractal row-major;
//   L0B "Zn": B (k x n) as fractals of C0 x 16, fractal (ki, ni) at index ki * nBlocks + ni,
//             each fractal stored transposed (element (kk, nn) at nn * C0 + kk);
//   L0C "Nz": C (m x n) as fractals of 16 x 16, fractal (mi, ni) at index ni * mBlocks + mi,
//             each fractal row-major.
// A 16-bit fractal is 512 bytes; LoadData2DParams counts fractals.
#ifndef PYASC_SIM_KAPI_CUBE_H_
#define PYASC_SIM_KAPI_CUBE_H_

#include <cstring>

#include "pyasc_sim/kapi/cube_taint.h"  // never-written fractals carried through LoadData / Mmad
#include "pyasc_sim/kapi/mmad_kernel.h"
#include "pyasc_sim/kapi/order.h"  // the unit-flag edges of Mmad / Fixpipe
#include "pyasc_sim/kapi/params.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/vector.h"  // round_to, PYASC_SIM_LOC
#include "pyasc_sim/kapi/xcore.h"   // gm_store: Fixpipe under SetAtomicAdd

namespace AscendC {

namespace sim_detail {

#if defined(__x86_64__)
// d = s^T for a 16 x 16 fractal of 16-bit elements (bit copies), as four 8 x 8 SSE2 transposes;
// d and s do not overlap.
inline void transpose16_b16(void *d, const void *s) {
    const auto *src = static_cast<const uint16_t *>(s);
    auto *dst = static_cast<uint16_t *>(d);
    for (int bi = 0; bi < 2; ++bi) {
        for (int bj = 0; bj < 2; ++bj) {
            __m128i r[8];
            for (int i = 0; i < 8; ++i) {
                r[i] = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + (bi * 8 + i) * 16 + bj * 8));
            }
            const __m128i t0 = _mm_unpacklo_epi16(r[0], r[1]), t1 = _mm_unpackhi_epi16(r[0], r[1]);
            const __m128i t2 = _mm_unpacklo_epi16(r[2], r[3]), t3 = _mm_unpackhi_epi16(r[2], r[3]);
            const __m128i t4 = _mm_unpacklo_epi16(r[4], r[5]), t5 = _mm_unpackhi_epi16(r[4], r[5]);
            const __m128i t6 = _mm_unpacklo_epi16(r[6], r[7]), t7 = _mm_unpackhi_epi16(r[6], r[7]);
            const __m128i u0 = _mm_unpacklo_epi32(t0, t2), u1 = _mm_unpackhi_epi32(t0, t2);
            const __m128i u2 = _mm_unpacklo_epi32(t1, t3), u3 = _mm_unpackhi_epi32(t1, t3);
            const __m128i u4 = _mm_unpacklo_epi32(t4, t6), u5 = _mm_unpackhi_epi32(t4, t6);
            const __m128i u6 = _mm_unpacklo_epi32(t5, t7), u7 = _mm_unpackhi_epi32(t5, t7);
            const __m128i cols[8] = {_mm_unpacklo_epi64(u0, u4), _mm_unpackhi_epi64(u0, u4),
                                     _mm_unpacklo_epi64(u1, u5), _mm_unpackhi_epi64(u1, u5),
                                     _mm_unpacklo_epi64(u2, u6), _mm_unpackhi_epi64(u2, u6),
                                     _mm_unpacklo_epi64(u3, u7), _mm_unpackhi_epi64(u3, u7)};
            for (int j = 0; j < 8; ++j) {
                _mm_storeu_si128(reinterpret_cast<__m128i *>(dst + (bj * 8 + j) * 16 + bi * 8), cols[j]);
            }
        }
    }
}
#endif

template <typename T>
inline void load2d(T *dst, const T *src, const LoadData2DParams &p) {
    constexpr uint64_t frac = 512 / sizeof(T);  // elements per 512-byte fractal
    for (uint64_t i = 0; i < p.repeatTimes; ++i) {
        const T *s = src + (p.startIndex + i * p.srcStride) * frac;
        T *d = dst + i * (1ull + p.dstGap) * frac;
#if defined(__x86_64__)
        if constexpr (sizeof(T) == 2) {
            if (p.ifTranspose && !pyasc_sim::simd::overlap(d, frac, s, frac)) {
                transpose16_b16(d, s);
                continue;
            }
        }
#endif
        if (p.ifTranspose) {
            for (uint64_t r = 0; r < 16; ++r) {
                for (uint64_t c = 0; c < 16; ++c) d[c * 16 + r] = s[r * 16 + c];
            }
        } else {
            std::memmove(d, s, frac * sizeof(T));
        }
    }
}

inline uint64_t load2d_src_extent(const LoadData2DParams &p, uint64_t frac) {
    return p.repeatTimes == 0 ? 0 : (p.startIndex + (p.repeatTimes - 1ull) * p.srcStride + 1) * frac;
}
inline uint64_t load2d_dst_extent(const LoadData2DParams &p, uint64_t frac) {
    return p.repeatTimes == 0 ? 0 : ((p.repeatTimes - 1ull) * (1ull + p.dstGap) + 1) * frac;
}

template <typename T>
inline void check_transpose(const LoadData2DParams &p, const SrcLoc &loc) {
    if (p.ifTranspose && sizeof(T) != 2) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "LoadData with ifTranspose = true on %zu-byte elements: the 2D transposing load is "
                              "documented for 16-bit types only", sizeof(T));
    }
#if !defined(PYASC_SIM_NO_DTYPE_TABLES) && defined(PYASC_SIM_LOAD2D_TRANSPOSE)
    // ifTranspose is a run-time field.  The published LoadData / Load2D pages list uint16_t / int16_t / half for
    // the transposing load (LoadData2DParams, ifTranspose: "使能转置功能时，源操作数、目的操作数仅支持uint16_t/
    // int16_t/half数据类型"); the SDK's own current page says "b16" (asc-devkit docs LoadData_2D.md: "仅支持b16数据
    // 类型"), and its dav-c220 LoadData2DL12L0ACal / L0BCal pass a bfloat16_t operand unchanged to
    // load_cbuf_to_ca / load_cbuf_to_cb with the transpose bit set (only uint16_t / int16_t are re-typed as half),
    // so the NPU compiles a bfloat16_t transposing load and transposes the 16-bit words of each fractal, as
    // LoadDataWithTranspose documents for bfloat16_t.  Here: the bit-exact transpose with the warning
    // dtype-unlisted (an error with PYASC_SIM_STRICT), as the common Transpose on bfloat16_t (round 24, s24a).
    if (p.ifTranspose && !pyasc_sim::kapi::dtypes::listed_v<T, PYASC_SIM_LOAD2D_TRANSPOSE>) {
        pyasc_sim::kapi::warn("dtype-unlisted", loc,
                              "AscendC::LoadData with ifTranspose = true on element type %s: the reference's LoadData "
                              "page lists " PYASC_SIM_DT_STR(PYASC_SIM_LOAD2D_TRANSPOSE) " for the transposing "
                              "load on " PYASC_SIM_DT_SOC "; the SDK's device code accepts any 16-bit type and "
                              "transposes the 16-bit words of each 16 x 16 fractal, so the result is the bit-exact "
                              "transpose. Fix: load a ReinterpretCast<half>() view of the operands (the same bits), "
                              "or use LoadDataWithTranspose, which documents bfloat16_t",
                              pyasc_sim::kapi::dtypes::type_name<T>());
    }
#endif
}

// Fixpipe's quantPre must convert the L0C type U to the GM type T (FixpipeParamsV220, quantPre):
// NoQuant keeps the type; F322F16 / F322BF16 float -> half / bfloat16_t; (V)DEQF16 int32_t -> half;
// (V)QF322B8_PRE float -> int8_t / uint8_t; (V)REQ8 int32_t -> int8_t / uint8_t.
template <typename T, typename U>
inline bool fixpipe_quant_matches(QuantMode_t q) {
    constexpr bool f32 = std::is_same<U, float>::value, s32 = std::is_same<U, int32_t>::value;
    constexpr bool b8 = std::is_same<T, int8_t>::value || std::is_same<T, uint8_t>::value;
    switch (q) {
        case QuantMode_t::NoQuant: return std::is_same<T, U>::value;
        case QuantMode_t::F322F16: return f32 && std::is_same<T, half>::value;
        case QuantMode_t::F322BF16: return f32 && std::is_same<T, bfloat16_t>::value;
        case QuantMode_t::DEQF16:
        case QuantMode_t::VDEQF16: return s32 && std::is_same<T, half>::value;
        case QuantMode_t::QF322B8_PRE:
        case QuantMode_t::VQF322B8_PRE: return f32 && b8;
        case QuantMode_t::REQ8:
        case QuantMode_t::VREQ8: return s32 && b8;
    }
    return false;
}
// The scalar quantization modes (DEQF16, QF322B8_PRE, REQ8) scale every element by deqScalar, which holds
// the float's bits in its low 32 bits (SetFixpipePreQuantFlag page, atlasascendc_api_07_0254: "uint64_t
// deqScalar = static_cast<uint64_t>(*reinterpret_cast<int32_t*>(&tmp))"); the other modes take no scalar.
inline double fixpipe_scalar_scale(QuantMode_t q, uint64_t deqScalar) {
    if (q != QuantMode_t::DEQF16 && q != QuantMode_t::QF322B8_PRE && q != QuantMode_t::REQ8) return 1.0;
    const uint32_t bits = static_cast<uint32_t>(deqScalar & 0xffffffffull);
    float f;
    std::memcpy(&f, &bits, sizeof(f));
    return static_cast<double>(f);
}
// One element through the FIX pipe: scaled (the scalar quantization modes), ReLU when reluEn, rounded to T
// (CAST_RINT) -- the conversion of every Fixpipe path (L0C -> GM here, L0C -> L1 in kapi/fixpipe_l1.h).
template <typename T, typename U>
inline T fixpipe_convert(U v, double scale, bool reluEn) {
    double x = pyasc_sim::kapi::to_double(v) * scale;
    if (reluEn && x < 0) x = 0;
    return round_to<T>(x, RoundMode::CAST_RINT);
}
// The FIX pipe's cycles for an mSize x nSize move into T elements.
inline void charge_fixpipe(uint64_t mSize, uint64_t nSize, size_t dstBytes) {
    pyasc_sim::kapi::uses_cube_unit();
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeFIX,
                            pyasc_sim::cost::kDmaIssueCycles +
                                static_cast<double>(mSize) * nSize * dstBytes / pyasc_sim::cost::kFixpipeBytesPerCycle);
}
inline const char *quant_name(QuantMode_t q) {
    static const char *const names[] = {"NoQuant", "F322F16", "F322BF16", "DEQF16", "VDEQF16",
                                        "QF322B8_PRE", "VQF322B8_PRE", "REQ8", "VREQ8"};
    const unsigned i = static_cast<unsigned>(q);
    return i < sizeof(names) / sizeof(names[0]) ? names[i] : "(unknown)";
}

}  // namespace sim_detail

// L1 -> L0A / L0B (and other local -> local fractal loads).
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2DParams &p, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(LoadData, T);
    constexpr uint64_t frac = 512 / sizeof(T);
    sim_detail::check_transpose<T>(p, loc);
    dst.check_aligned("LoadData", "dst", loc, 512);
    src.check_aligned("LoadData", "src", loc, 32);
    dst.check(0, static_cast<int64_t>(sim_detail::load2d_dst_extent(p, frac)), "LoadData writes", loc);
    // the fractals it reads: startIndex, then every srcStride-th; a never-written one leaves its
    // destination fractal unwritten (cube_taint.h), reported only where the data leaves the cube
    const std::vector<uint64_t> tainted = sim_detail::load2d_source_taint(src, p, "LoadData reads", loc);
    pyasc_sim::kapi::uses_cube_unit();
    sim_detail::load2d(dst.ptr(), src.ptr(), p);
    sim_detail::mark_load_taint(dst, tainted);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE1,
                            pyasc_sim::cost::kDmaIssueCycles + p.repeatTimes * 512.0 / pyasc_sim::cost::kLocalBytesPerCycle);
}

// GM -> L1 / L0A / L0B.
template <typename T>
inline void LoadData(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const LoadData2DParams &p, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(LoadData, T);
    constexpr uint64_t frac = 512 / sizeof(T);
    sim_detail::check_transpose<T>(p, loc);
    dst.check_aligned("LoadData", "dst", loc, 32);
    dst.check(0, static_cast<int64_t>(sim_detail::load2d_dst_extent(p, frac)), "LoadData writes", loc);
    for (uint64_t i = 0; i < p.repeatTimes; ++i) {
        src.check((p.startIndex + i * p.srcStride) * frac, frac, false, "LoadData reads", loc);
    }
    pyasc_sim::kapi::uses_cube_unit();
    sim_detail::load2d(dst.ptr(), src.GetPhyAddr(), p);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE2, pyasc_sim::kapi::dma_cycles(p.repeatTimes * 512ull, p.repeatTimes));
}

namespace sim_detail {

template <typename T>
inline void check_position(const LocalTensor<T> &t, pyasc_sim::kapi::MemKind want, const char *api,
                           const char *operand, const SrcLoc &loc) {
    if (pyasc_sim::kapi::blk().checks && t.kind() != want) {
        pyasc_sim::kapi::fail("cube-position", loc, "%s: %s is a %s tensor (in %s) but must be in %s", api, operand,
                              pyasc_sim::kapi::pos_name(t.GetPosition()), pyasc_sim::kapi::mem_name(t.kind()),
                              pyasc_sim::kapi::mem_name(want));
    }
}

// The reference product: per output row, sum over k in order of A[m, k] * B[k, n] in double
// (zero A elements skipped), plus the initial value (C or the bias), rounded once to Dst.
template <typename Dst, typename A, typename B, typename BiasF>
inline void mmad_reference(const LocalTensor<Dst> &c, const LocalTensor<A> &a, const LocalTensor<B> &b,
                           const MmadParams &p, bool accumulate, BiasF bias) {
    constexpr uint64_t c0 = 32 / sizeof(A);
    const uint64_t mb = (p.m + 15) / 16, kb = (p.k + c0 - 1) / c0, nb = (p.n + 15) / 16;
    const A *pa = a.ptr();
    const B *pb = b.ptr();
    Dst *pc = c.ptr();
    std::vector<double> row(p.n);
    for (uint64_t m = 0; m < p.m; ++m) {
        const uint64_t mi = m / 16, mm = m % 16;
        for (uint64_t n = 0; n < p.n; ++n) row[n] = 0.0;
        for (uint64_t k = 0; k < p.k; ++k) {
            const uint64_t ki = k / c0, kk = k % c0;
            const double av = pyasc_sim::kapi::to_double(pa[(mi * kb + ki) * 16 * c0 + mm * c0 + kk]);
            if (av == 0.0) continue;
            for (uint64_t n = 0; n < p.n; ++n) {
                const uint64_t ni = n / 16, nn = n % 16;
                row[n] += av * pyasc_sim::kapi::to_double(pb[(ki * nb + ni) * 16 * c0 + nn * c0 + kk]);
            }
        }
        for (uint64_t n = 0; n < p.n; ++n) {
            const uint64_t ni = n / 16, nn = n % 16;
            Dst &out = pc[(ni * mb + mi) * 256 + mm * 16 + nn];
            const double init = accumulate ? pyasc_sim::kapi::to_double(out) : bias(n);
            out = static_cast<Dst>(init + row[n]);
        }
    }
}

template <typename Dst, typename A, typename B, typename BiasF>
inline void mmad(const LocalTensor<Dst> &c, const LocalTensor<A> &a, const LocalTensor<B> &b, const MmadParams &p,
                 bool accumulate, BiasF bias, const SrcLoc &loc) {
    constexpr uint64_t c0 = 32 / sizeof(A);
    const uint64_t mb = (p.m + 15) / 16, kb = (p.k + c0 - 1) / c0, nb = (p.n + 15) / 16;
    check_position(a, pyasc_sim::kapi::kL0A, "Mmad", "fm (A)", loc);
    check_position(b, pyasc_sim::kapi::kL0B, "Mmad", "filter (B)", loc);
    check_position(c, pyasc_sim::kapi::kL0C, "Mmad", "dst (C)", loc);
    a.check_aligned("Mmad", "fm", loc, 512);
    b.check_aligned("Mmad", "filter", loc, 512);
    c.check_aligned("Mmad", "dst", loc, 1024);
    // bounds and pipe order; products of never-written A / B fractals leave their L0C fractals unwritten
    mmad_operands_taint(c, a, b, mb, kb, nb, loc);
    // the blocked micro-kernel (mmad_kernel.h) gives the reference's bits; it hands Inf / NaN
    // inputs and element types with inexact double products to the reference loop
    bool done = false;
    if constexpr (pyasc_sim::mmad::exact_products<A, B>()) {
        done = pyasc_sim::mmad::blocked(c.ptr(), a.ptr(), b.ptr(), p.m, p.n, p.k, accumulate, bias);
    }
    if (!done) mmad_reference(c, a, b, p, accumulate, bias);
    pyasc_sim::kapi::uses_cube_unit();
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeM,
                            pyasc_sim::cost::kCubeIssueCycles +
                                static_cast<double>(mb * 16) * static_cast<double>(nb * 16) *
                                    static_cast<double>(kb * c0) / pyasc_sim::cost::kCubeMacsPerCycle);
}

}  // namespace sim_detail

namespace sim_detail {
// unitFlag (MmadParams / FixpipeParamsV220; the UnitFlag page of the Mmad key features): 0b10 on, 0b11 on and
// the last Mmad of the accumulation; the hardware then hands each finished fractal from Mmad to Fixpipe without
// SetFlag / WaitFlag. For the pipe-race check: a unit-flag Mmad follows the last unit-flag Fixpipe (it reuses
// the L0C that Fixpipe drained), the 0b11 Mmad publishes for the next unit-flag Fixpipe, which follows it.
inline void unit_flag_before_mmad(uint8_t unitFlag) {
    if (unitFlag & 0b10) pyasc_sim::kapi::order_unit_flag_wait(static_cast<int>(HardEvent::FIX_M), 1);
}
inline void unit_flag_after_mmad(uint8_t unitFlag) {
    if (unitFlag == 0b11) pyasc_sim::kapi::order_unit_flag_set(static_cast<int>(HardEvent::M_FIX), 0);
}
inline void unit_flag_before_fixpipe(uint8_t unitFlag) {
    if (unitFlag == 0b11) pyasc_sim::kapi::order_unit_flag_wait(static_cast<int>(HardEvent::M_FIX), 0);
}
inline void unit_flag_after_fixpipe(uint8_t unitFlag) {
    if (unitFlag == 0b11) pyasc_sim::kapi::order_unit_flag_set(static_cast<int>(HardEvent::FIX_M), 1);
}
// the FIX -> M edge once the Fixpipe's reads are committed (at the end of its scope)
struct UnitFlagAfterFixpipe {
    uint8_t unitFlag;
    ~UnitFlagAfterFixpipe() { unit_flag_after_fixpipe(unitFlag); }
};
}  // namespace sim_detail

// C (L0C) = A (L0A) x B (L0B); with isBias or cmatrixInitVal = false, C += A x B.
template <typename T, typename U, typename S>
inline void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
                 const MmadParams &mmadParams, PYASC_SIM_LOC) {
    PYASC_SIM_MMAD_CHECK(T, U, S);
    const bool acc = mmadParams.isBias || !mmadParams.cmatrixInitVal;
    sim_detail::unit_flag_before_mmad(mmadParams.unitFlag);
    sim_detail::mmad(dst, fm, filter, mmadParams, acc, [](uint64_t) { return 0.0; }, loc);
    sim_detail::unit_flag_after_mmad(mmadParams.unitFlag);
}
// With a bias vector (C2 / bias table): C = A x B + bias[n] (or C += A x B when accumulating).
template <typename T, typename U, typename S, typename V>
inline void Mmad(const LocalTensor<T> &dst, const LocalTensor<U> &fm, const LocalTensor<S> &filter,
                 const LocalTensor<V> &bias, const MmadParams &mmadParams, PYASC_SIM_LOC) {
    PYASC_SIM_MMAD_BIAS_CHECK(T, U, S, V);
    bias.check(0, mmadParams.n, "Mmad reads bias", loc);
    const V *pb = bias.ptr();
    sim_detail::unit_flag_before_mmad(mmadParams.unitFlag);
    sim_detail::mmad(dst, fm, filter, mmadParams, false,
                     [pb](uint64_t n) { return pyasc_sim::kapi::to_double(pb[n]); }, loc);
    sim_detail::unit_flag_after_mmad(mmadParams.unitFlag);
}

// L0C (Nz) -> GM.  CFG_ROW_MAJOR (default) writes an ND matrix: row r, column c of the
// mSize x nSize result goes to dst[r * dstStride + c]; CFG_NZ keeps the fractal layout with
// dstStride rows between column fractals.  srcStride counts rows (of 16 elements) between
// the source's column fractals.  quantPre F322F16 / F322BF16 convert (round to nearest even); the
// scalar modes DEQF16 / QF322B8_PRE / REQ8 first multiply by the float in deqScalar's low 32 bits;
// reluEn applies ReLU.
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src, const FixpipeParamsV220 &p, PYASC_SIM_LOC) {
    PYASC_SIM_FIXPIPE_CHECK(T, U);
    sim_detail::check_position(src, pyasc_sim::kapi::kL0C, "Fixpipe", "src", loc);
    sim_detail::unit_flag_before_fixpipe(p.unitFlag);
    sim_detail::UnitFlagAfterFixpipe unit_flag_done{p.unitFlag};
#if !defined(PYASC_SIM_NO_DTYPE_TABLES) && defined(PYASC_SIM_DT_SOC)
    if (!sim_detail::fixpipe_quant_matches<T, U>(p.quantPre)) {
        pyasc_sim::kapi::fail("dtype-table", loc,
                              "AscendC::Fixpipe with quantPre = QuantMode_t::%s does not convert this %zu-byte L0C "
                              "type to this %zu-byte GM type on " PYASC_SIM_DT_SOC ": NoQuant keeps the type "
                              "(float -> float, int32_t -> int32_t), F322F16 / F322BF16 take float to half / "
                              "bfloat16_t, DEQF16 / VDEQF16 int32_t to half, QF322B8_PRE / VQF322B8_PRE float to "
                              "int8_t / uint8_t, REQ8 / VREQ8 int32_t to int8_t / uint8_t (Fixpipe page, quantPre)",
                              sim_detail::quant_name(p.quantPre), sizeof(U), sizeof(T));
    }
#endif
    if (p.ndNum > 1) {
        // The ND batch (FixpipeParamsV220 ndNum / srcNdStride / dstNdStride, the same fields as
        // SetFixpipeNz2ndFlag): matrix i is read srcNdStride * i 1 KB L0C fractals after src and written
        // dstNdStride * i elements after dst, each as a one-matrix Fixpipe of the same shape.
        if constexpr (config.format != CO2Layout::ROW_MAJOR) {
            pyasc_sim::kapi::fail("unsupported", loc,
                                  "Fixpipe with ndNum = %u > 1 into an NZ destination: the ND batch is the NZ -> ND "
                                  "conversion's (CFG_ROW_MAJOR); the simulator does not batch NZ outputs",
                                  static_cast<unsigned>(p.ndNum));
            return;
        } else {
            if (pyasc_sim::kapi::blk().checks && (p.srcNdStride == 0 || p.srcNdStride > 512 || p.dstNdStride == 0)) {
                pyasc_sim::kapi::fail("fixpipe-params", loc,
                                      "Fixpipe with ndNum = %u: srcNdStride = %u (1 KB fractals, documented in [1, 512]) "
                                      "and dstNdStride = %u (elements, documented as not 0) (SetFixpipeNz2ndFlag / "
                                      "FixpipeParamsV220)",
                                      static_cast<unsigned>(p.ndNum), static_cast<unsigned>(p.srcNdStride),
                                      static_cast<unsigned>(p.dstNdStride));
            }
            FixpipeParamsV220 one = p;
            one.ndNum = 1;
            for (uint64_t i = 0; i < p.ndNum; ++i) {
                Fixpipe<T, U, config>(dst[i * p.dstNdStride], src[i * p.srcNdStride * (1024 / sizeof(U))], one, loc);
            }
            return;
        }
    }
    const uint64_t nb = (p.nSize + 15u) / 16u;
    if (p.mSize > 0 && p.nSize > 0) {
        // nb column fractals of mSize rows x 16 elements, srcStride rows apart
        src.check_read_bursts(nb, p.mSize * 16ull * sizeof(U), p.srcStride * 16ull * sizeof(U), "Fixpipe reads", loc);
    }
    const U *s = src.ptr();
    T *d = dst.GetPhyAddr();
    const double scale = sim_detail::fixpipe_scalar_scale(p.quantPre, p.deqScalar);
    auto conv = [&p, scale](U v) -> T { return sim_detail::fixpipe_convert<T>(v, scale, p.reluEn); };
    // Under SetAtomicAdd / Max / Min the L0C -> GM move combines with GM, as the reference documents
    // for Fixpipe (one atomic read-modify-write per element, kapi/xcore.h).
    const bool atomic = pyasc_sim::kapi::blk().atomic_op != 0;
    auto put = [atomic](T *at, T v) {
        if (atomic) {
            sim_detail::gm_store(at, &v, sizeof(T));
        } else {
            *at = v;
        }
    };
    constexpr bool kFastOut = std::is_same<U, float>::value &&
                              (std::is_same<T, float>::value || std::is_same<T, half>::value);
    if constexpr (config.format == CO2Layout::ROW_MAJOR && kFastOut) {
        if (!atomic) {
            // the same conversion a fractal row (16 elements) at a time: float -> double -> float is
            // the identity a vector loop does; float -> half rounds once either way (F16C)
            float row[16];
            for (uint64_t r = 0; r < p.mSize; ++r) {
                dst.check(r * p.dstStride, p.nSize, true, "Fixpipe writes", loc);
                for (uint64_t c = 0; c < p.nSize; c += 16) {
                    const uint64_t len = p.nSize - c < 16 ? p.nSize - c : 16;
                    const float *from = s + (c / 16) * p.srcStride * 16 + r * 16;
                    for (uint64_t j = 0; j < len; ++j) {
                        const float x = static_cast<float>(static_cast<double>(from[j]));
                        row[j] = p.reluEn && x < 0 ? 0.0f : x;
                    }
                    T *to = d + r * p.dstStride + c;
                    if constexpr (std::is_same<T, half>::value) {
                        pyasc_sim::simd::f32_to_f16(to, row, static_cast<int64_t>(len));
                    } else {
                        std::memcpy(to, row, len * sizeof(float));
                    }
                }
            }
            sim_detail::charge_fixpipe(p.mSize, p.nSize, sizeof(T));
            return;
        }
    }
    if constexpr (config.format == CO2Layout::ROW_MAJOR) {
        for (uint64_t r = 0; r < p.mSize; ++r) {
            dst.check(r * p.dstStride, p.nSize, true, "Fixpipe writes", loc);
            for (uint64_t c = 0; c < p.nSize; ++c) put(&d[r * p.dstStride + c], conv(s[(c / 16) * p.srcStride * 16 + r * 16 + c % 16]));
        }
    } else {
        for (uint64_t ni = 0; ni < nb; ++ni) {
            dst.check(ni * p.dstStride * 16, static_cast<uint64_t>(p.mSize) * 16, true, "Fixpipe writes", loc);
            for (uint64_t r = 0; r < p.mSize; ++r) {
                for (uint64_t c = 0; c < 16; ++c) put(&d[ni * p.dstStride * 16 + r * 16 + c], conv(s[ni * p.srcStride * 16 + r * 16 + c]));
            }
        }
    }
    sim_detail::charge_fixpipe(p.mSize, p.nSize, sizeof(T));
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_CUBE_H_
