// Ascend C on the CPU -- reductions: ReduceSum / ReduceMax / ReduceMin (to one value, with
// an optional index) and WholeReduceSum / WholeReduceMax / WholeReduceMin (one value per
// repeat).
//
// Indices are written as the integer bit pattern of the element type's width (uint16_t for
// half, uint32_t for float) in the element slot after the value, as documented ("read it
// back with reinterpret_cast").  Sums are pairwise (tree) sums in the element type, as the
// hardware's reduction tree adds: the elements (in index order) are halved level by level,
// x[i] + x[i + h] with h = floor(len / 2) (an odd last element moves up a level unchanged), every
// addition rounded to T. Max / Min give the first element (in index order) of the extreme value
// (a NaN only when it is the first element) and its index.
#ifndef PYASC_SIM_KAPI_REDUCE_H_
#define PYASC_SIM_KAPI_REDUCE_H_

#include <vector>

#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/vector.h"

namespace AscendC {

namespace sim_detail {

template <typename T>
inline void put_index(T *slot, uint32_t index) {
    if constexpr (sizeof(T) == 2) {
        const uint16_t v = static_cast<uint16_t>(index);
        std::memcpy(slot, &v, 2);
    } else if constexpr (sizeof(T) == 4) {
        std::memcpy(slot, &index, 4);
    } else {
        const uint64_t v = index;
        std::memcpy(slot, &v, sizeof(T) < 8 ? sizeof(T) : 8);
    }
}

enum class RedOp { kSum, kMax, kMin };

// The reduction value/index register: ReduceMax/Min and WholeReduceMax/Min leave their (last)
// result here and GetReduceMaxMinCount (vector_extra.h) reads it. One per thread = per running core.
struct ReduceSpr {
    unsigned char value[8];
    uint32_t index;
};
inline ReduceSpr &reduce_spr() {
    static thread_local ReduceSpr spr{};
    return spr;
}
template <typename T>
inline void set_reduce_spr(const T &value, uint32_t index) {
    ReduceSpr &s = reduce_spr();
    std::memcpy(s.value, &value, sizeof(T) < 8 ? sizeof(T) : 8);
    s.index = index;
}

// Scratch of the calling thread for the pairwise sum (one per element type).
template <typename T>
inline T *sum_scratch(size_t n) {
    thread_local std::vector<T> buf;
    if (buf.size() < n) buf.resize(n);
    return buf.data();
}

// The pairwise (tree) sum of p[0, n) in T: level by level x[i] = x[i] + x[i + h], h = n / 2, an
// odd last element carried to the next level (x[h] = x[2h]). While n is a multiple of 16 the first
// four levels run fused (element i of level 4 is the tree of the 16 elements p[i + k n / 16]: the
// same additions in the same order, one pass over p instead of four); then each level is one
// vectorised loop.
template <typename T>
__attribute__((always_inline)) inline void pairwise_fused16(T *__restrict__ t, const T *__restrict__ p, int64_t q) {
    int64_t i = 0;
#ifdef PYASC_SIM_X86
    if constexpr (std::is_same<T, float>::value) {
        // below the clones' vector width (q < 16 for AVX-512: the second level of a 1024-element row
        // has q = 4) the loop ran scalar: 4 outputs at a time in SSE registers (the x86-64 baseline),
        // the same additions in the same order per output (-ffp-contract=off: no fused forms)
        if (q < 16) {
            for (; i + 4 <= q; i += 4) {
                __m128 a[8];
                for (int k = 0; k < 8; ++k) a[k] = _mm_add_ps(_mm_loadu_ps(p + i + k * q), _mm_loadu_ps(p + i + (k + 8) * q));
                for (int k = 0; k < 4; ++k) a[k] = _mm_add_ps(a[k], a[k + 4]);
                for (int k = 0; k < 2; ++k) a[k] = _mm_add_ps(a[k], a[k + 2]);
                _mm_storeu_ps(t + i, _mm_add_ps(a[0], a[1]));
            }
        }
    }
#endif
    for (; i < q; ++i) {
        T a[8];
        for (int k = 0; k < 8; ++k) a[k] = static_cast<T>(p[i + k * q] + p[i + (k + 8) * q]);
        for (int k = 0; k < 4; ++k) a[k] = static_cast<T>(a[k] + a[k + 4]);
        for (int k = 0; k < 2; ++k) a[k] = static_cast<T>(a[k] + a[k + 2]);
        t[i] = static_cast<T>(a[0] + a[1]);
    }
}
template <typename T>
__attribute__((always_inline)) inline void pairwise_level(T *__restrict__ t, const T *__restrict__ a,
                                                          const T *__restrict__ b, int64_t h) {
    for (int64_t i = 0; i < h; ++i) t[i] = static_cast<T>(a[i] + b[i]);
}
template <typename T>
__attribute__((always_inline)) inline void pairwise_level_inplace(T *__restrict__ t, const T *__restrict__ b,
                                                                  int64_t h) {
    for (int64_t i = 0; i < h; ++i) t[i] = static_cast<T>(t[i] + b[i]);
}
// The tree with scratch t (pairwise_scratch(n) elements); n >= 2.
template <typename T>
__attribute__((always_inline)) inline T pairwise_tree(const T *p, int64_t n, T *t) {
    int64_t h;
    if (n % 16 == 0 && n >= 32) {
        h = n / 16;
        pairwise_fused16(t, p, h);
        n = h;
    } else {
        h = n / 2;
        pairwise_level(t, p, p + h, h);
        if (n & 1) t[h] = p[2 * h];
        n = h + (n & 1);
    }
    while (n > 1) {
        if (n % 16 == 0 && n >= 32) {  // fused, into the scratch after the level's n elements
            h = n / 16;
            pairwise_fused16(t + n, t, h);
            t += n;
            n = h;
            continue;
        }
        h = n / 2;
        pairwise_level_inplace(t, t + h, h);
        if (n & 1) t[h] = t[2 * h];
        n = h + (n & 1);
    }
    return t[0];
}
// Scratch elements pairwise_tree needs for n inputs (levels fused into fresh space: < 1 / 15 more).
inline size_t pairwise_scratch(int64_t n) { return static_cast<size_t>(n / 2 + 1 + n / 24 + 16); }
#ifdef PYASC_SIM_X86
__attribute__((target("avx512f"))) inline float pairwise_tree_f32_avx512(const float *p, int64_t n, float *t) {
    return pairwise_tree(p, n, t);
}
__attribute__((target("avx2"))) inline float pairwise_tree_f32_avx2(const float *p, int64_t n, float *t) {
    return pairwise_tree(p, n, t);
}
#endif
// pairwise_sum(p, 64) without the dispatch and the scratch (a WholeReduceSum repeat of 64 floats): the
// tree's first four levels fused (pairwise_fused16 with 4 outputs), then its two last levels.
template <typename T>
inline T pairwise_sum64(const T *p) {
    T t[4];
    pairwise_fused16(t, p, 4);
    return static_cast<T>(static_cast<T>(t[0] + t[2]) + static_cast<T>(t[1] + t[3]));
}
template <typename T>
inline T pairwise_sum(const T *p, int64_t n) {
    if (n <= 0) return T(0);
    if (n == 1) return p[0];
    T *t = sum_scratch<T>(pairwise_scratch(n));
#ifdef PYASC_SIM_X86
    if constexpr (std::is_same<T, float>::value) {
        const int level = pyasc_sim::simd::x86_level();
        if (level == 2) return pairwise_tree_f32_avx512(p, n, t);
        if (level == 1) return pairwise_tree_f32_avx2(p, n, t);
    }
#endif
    return pairwise_tree(p, n, t);
}

// Max (or Min) of p[0, n) with the semantics of a scan from index 0 that replaces the best only by
// a strictly greater (smaller) value: the first element equal to the extreme, a NaN only at p[0].
// Vectorised over 16 lanes for the types the compiler compares natively (float: the host's widest
// vectors, dispatched at run time).
template <typename T>
__attribute__((always_inline)) inline T extreme_lanes(const T *__restrict__ p, int64_t n, bool is_max) {
    constexpr int L = 16;
    T lane[L];
    for (int j = 0; j < L; ++j) lane[j] = p[0];
    int64_t i = 0;
    if (is_max) {
        for (; i + L <= n; i += L) {
            for (int j = 0; j < L; ++j) lane[j] = p[i + j] > lane[j] ? p[i + j] : lane[j];
        }
        for (; i < n; ++i) lane[0] = p[i] > lane[0] ? p[i] : lane[0];
    } else {
        for (; i + L <= n; i += L) {
            for (int j = 0; j < L; ++j) lane[j] = p[i + j] < lane[j] ? p[i + j] : lane[j];
        }
        for (; i < n; ++i) lane[0] = p[i] < lane[0] ? p[i] : lane[0];
    }
    T m = lane[0];
    for (int j = 1; j < L; ++j) m = (is_max ? lane[j] > m : lane[j] < m) ? lane[j] : m;
    return m;
}
#ifdef PYASC_SIM_X86
// The same value with the host's vectors: MAXPS / MINPS (a, b) is a > b ? a : b (a < b ? a : b)
// exactly, and the extreme of a set of numbers does not depend on the lanes (a zero's sign does:
// extreme_first finds the first zero when the extreme is zero).  The AVX-512 form is the masked one with
// every lane set (the unmasked intrinsics trip GCC 12's maybe-uninitialized).
template <bool IsMax>
__attribute__((target("avx512f"))) inline __m512 extreme_ps(__m512 a, __m512 b) {
    constexpr __mmask16 kAll = 0xFFFF;
    if constexpr (IsMax) {
        return _mm512_mask_max_ps(b, kAll, a, b);
    } else {
        return _mm512_mask_min_ps(b, kAll, a, b);
    }
}
template <bool IsMax>
__attribute__((target("avx2"))) inline __m256 extreme_ps(__m256 a, __m256 b) {
    if constexpr (IsMax) {
        return _mm256_max_ps(a, b);
    } else {
        return _mm256_min_ps(a, b);
    }
}
template <bool IsMax>
inline float extreme_tail(const float *p, int64_t i, int64_t n, const float *lane, int lanes) {
    float m = lane[0];
    for (; i < n; ++i) m = (IsMax ? p[i] > m : p[i] < m) ? p[i] : m;
    for (int j = 1; j < lanes; ++j) m = (IsMax ? lane[j] > m : lane[j] < m) ? lane[j] : m;
    return m;
}
template <bool IsMax>
__attribute__((target("avx512f"))) inline float extreme_lanes_f32_avx512(const float *p, int64_t n) {
    __m512 a0 = _mm512_set1_ps(p[0]), a1 = a0, a2 = a0, a3 = a0;
    int64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        a0 = extreme_ps<IsMax>(_mm512_loadu_ps(p + i), a0);
        a1 = extreme_ps<IsMax>(_mm512_loadu_ps(p + i + 16), a1);
        a2 = extreme_ps<IsMax>(_mm512_loadu_ps(p + i + 32), a2);
        a3 = extreme_ps<IsMax>(_mm512_loadu_ps(p + i + 48), a3);
    }
    for (; i + 16 <= n; i += 16) a0 = extreme_ps<IsMax>(_mm512_loadu_ps(p + i), a0);
    a0 = extreme_ps<IsMax>(extreme_ps<IsMax>(a0, a1), extreme_ps<IsMax>(a2, a3));
    float lane[16];
    _mm512_storeu_ps(lane, a0);
    return extreme_tail<IsMax>(p, i, n, lane, 16);
}
template <bool IsMax>
__attribute__((target("avx2"))) inline float extreme_lanes_f32_avx2(const float *p, int64_t n) {
    __m256 a0 = _mm256_set1_ps(p[0]), a1 = a0;
    int64_t i = 0;
    for (; i + 16 <= n; i += 16) {
        a0 = extreme_ps<IsMax>(_mm256_loadu_ps(p + i), a0);
        a1 = extreme_ps<IsMax>(_mm256_loadu_ps(p + i + 8), a1);
    }
    a0 = extreme_ps<IsMax>(a0, a1);
    float lane[8];
    _mm256_storeu_ps(lane, a0);
    return extreme_tail<IsMax>(p, i, n, lane, 8);
}
#endif
// index == nullptr: the value only.
template <typename T>
inline T extreme_first(const T *p, int64_t n, bool is_max, uint32_t *index) {
    if (index != nullptr) *index = 0;
    if (n <= 0) return T{};
    const T first = p[0];
    if (!(first == first)) return first;  // NaN first: nothing replaces it
    T m;
#ifdef PYASC_SIM_X86
    const int level = std::is_same<T, float>::value ? pyasc_sim::simd::x86_level() : 0;
    if constexpr (std::is_same<T, float>::value) {
        if (level == 2) {
            m = is_max ? extreme_lanes_f32_avx512<true>(p, n) : extreme_lanes_f32_avx512<false>(p, n);
        } else if (level == 1) {
            m = is_max ? extreme_lanes_f32_avx2<true>(p, n) : extreme_lanes_f32_avx2<false>(p, n);
        } else {
            m = extreme_lanes(p, n, is_max);
        }
    } else {
        m = extreme_lanes(p, n, is_max);
    }
#else
    m = extreme_lanes(p, n, is_max);
#endif
    if (index == nullptr && !(m == T(0))) return m;  // no index wanted: only a zero's sign needs the scan
    int64_t at = 0;
    while (!(p[at] == m)) ++at;  // the first element equal to the extreme (bitwise: the sign of a zero)
    if (index != nullptr) *index = static_cast<uint32_t>(at);
    return p[at];
}

// Max / Min accumulator of the strided forms (sums are pairwise: sum_value is set directly).
template <typename T>
struct Acc {
    RedOp op;
    T sum_value{};
    T best{};
    uint32_t index = 0;
    bool any = false;
    void add(T v, uint32_t i) {
        if (!any || (op == RedOp::kMax ? v > best : v < best)) {
            best = v;
            index = i;
        }
        any = true;
    }
    T value() const { return op == RedOp::kSum ? sum_value : best; }
};

// The documented start alignment of ReduceSum / ReduceMax / ReduceMin's dst: not the 32 bytes of other vector
// operands but one result's element -- ReduceSum 2 bytes for half, 4 for float (page atlasascendc_api_07_0078),
// ReduceMax / ReduceMin the value + index pair, 4 bytes for half, 8 for float (07_0075 / 07_0076), with or without
// calIndex; src and sharedTmpBuffer stay 32-byte aligned.
template <typename T>
constexpr uint32_t reduce_dst_alignment(RedOp op) {
    return static_cast<uint32_t>((op == RedOp::kSum ? 1 : 2) * sizeof(T));
}

// The count form's checks (src, dst, sharedTmpBuffer below) of a row loop's next row in one pass (vector.h,
// row_unary): src's alignment, bounds and initcheck, dst's alignment and bounds, the work buffer's alignment,
// the race detector's row path; then dst marked written.
template <typename T>
inline bool row_reduce(pyasc_sim::kapi::BlockState &b, const LocalTensor<T> &dst, const LocalTensor<T> &src,
                       const LocalTensor<T> &work, int64_t n, bool calIndex, const SrcLoc &loc) {
    using Note = pyasc_sim::kapi::RaceState::Note;
    const int64_t sb = n * static_cast<int64_t>(sizeof(T)), db = (calIndex ? 2 : 1) * static_cast<int64_t>(sizeof(T));
    uint64_t soff = 0, doff = 0;
    if (n <= 0 || !row_operand(b, src, sb, soff) || !row_operand(b, dst, db, doff)) return false;
    if (work.ptr() == nullptr || (work.mem_offset(b) & 31) != 0) return false;
    pyasc_sim::kapi::local_flush_pending_before_source(b, loc);  // the src check's first change
    if (pyasc_sim::kapi::local_vec_first_unwritten(b, src.kind(), soff, static_cast<uint64_t>(sb)) >= 0) return false;
    const Note acc[2] = {Note(src.kind(), soff, static_cast<uint64_t>(sb), false),
                         Note(dst.kind(), doff, static_cast<uint64_t>(db), true)};
    if (!pyasc_sim::kapi::race(b).extend_row(static_cast<int>(pyasc_sim::kapi::kPipeV), loc.file, loc.line, acc)) return false;
    pyasc_sim::kapi::local_flush_pending(b);
    pyasc_sim::kapi::local_mark_written(b, dst.kind(), doff, static_cast<uint64_t>(db));
    pyasc_sim::kapi::timeline_loc(b, loc);
    return true;
}

template <typename T>
inline void reduce_count(RedOp op, const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const LocalTensor<T> &work, int32_t count, bool calIndex, const SrcLoc &loc) {
    pyasc_sim::kapi::BlockState *fast = unchecked_block(loc);  // checks off: no operand checks (vector.h)
    pyasc_sim::kapi::BlockState &b = fast != nullptr ? *fast : pyasc_sim::kapi::blk();
    const int64_t n = count < 0 ? 0 : count;
    if (fast == nullptr && row_candidate(b, loc) && row_reduce(b, dst, src, work, n, calIndex, loc)) {
        // a row loop's next row: checked
    } else if (fast == nullptr) {
        check_count(count, api, loc);
        check_operand(b, src, api, "src", n, loc);
        dst.check_aligned(b, api, "dst", loc, reduce_dst_alignment<T>(op));
        // (dst.check(0, n, api, loc) in the block looked up above: an API name marks the bytes written)
        dst.check_access(b, 0, (calIndex ? 2 : 1) * static_cast<int64_t>(sizeof(T)), LocalTensor<T>::kWrite, api, loc);
        work.check_aligned(b, api, "sharedTmpBuffer", loc);
    }
    if (op == RedOp::kSum) {
        dst.ptr()[0] = pairwise_sum(src.ptr(), n);
        pyasc_sim::kapi::VecRegs &vr = b.vregs;  // GetAccVal reads it
        std::memset(vr.acc, 0, sizeof(vr.acc));  // the untemplated GetAccVal() reads all 8 bytes
        std::memcpy(vr.acc, dst.ptr(), sizeof(T) < 8 ? sizeof(T) : 8);
        vr.acc_set = true;
    } else if constexpr (std::is_arithmetic<T>::value) {
        uint32_t index = 0;
        dst.ptr()[0] = extreme_first(src.ptr(), n, op == RedOp::kMax, calIndex ? &index : nullptr);
        if (calIndex) put_index(dst.ptr() + 1, index);
        set_reduce_spr(dst.ptr()[0], index);  // without calIndex the index is 0 (documented as inexact on A2)
    } else {
        Acc<T> acc{op};
        for (int64_t i = 0; i < n; ++i) acc.add(src.ptr()[i], static_cast<uint32_t>(i));
        dst.ptr()[0] = acc.value();
        if (calIndex) put_index(dst.ptr() + 1, acc.index);
        set_reduce_spr(acc.value(), acc.index);
    }
    pyasc_sim::kapi::charge(b, pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(n, sizeof(T)), 2.0) +
                                pyasc_sim::cost::kReduceTailCycles);
}

// Mask form of ReduceSum/Max/Min: every masked element of every repeat (src block stride 1).
template <typename T>
inline void reduce_repeat(RedOp op, const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src,
                          const LocalTensor<T> &work, const Mask &m, int32_t repeats, int32_t srcRepStride,
                          bool calIndex, const SrcLoc &loc) {
    const Opnd os{1, srcRepStride, 32 / sizeof(T)};
    const uint32_t reps = static_cast<uint32_t>(std::max(repeats, 0));
    check_operand(src, api, "src", os, reps, m, loc);
    dst.check_aligned(api, "dst", loc, reduce_dst_alignment<T>(op));
    dst.check(0, calIndex ? 2 : 1, api, loc);
    work.check_aligned(api, "sharedTmpBuffer", loc);
    Acc<T> acc{op};
    if (op == RedOp::kSum) {  // the masked elements in order, summed pairwise
        std::vector<T> g;
        g.reserve(static_cast<size_t>(reps) * m.n);
        for_each_masked(reps, m, [&](uint32_t r, uint32_t i) { g.push_back(src.ptr()[os.off(r, i)]); });
        dst.ptr()[0] = pairwise_sum(g.data(), static_cast<int64_t>(g.size()));
    } else {
        for_each_masked(reps, m, [&](uint32_t r, uint32_t i) { acc.add(src.ptr()[os.off(r, i)], r * (256 / sizeof(T)) + i); });
        dst.ptr()[0] = acc.value();
    }
    if (calIndex && op != RedOp::kSum) put_index(dst.ptr() + 1, acc.index);
    if (op != RedOp::kSum) set_reduce_spr(acc.value(), acc.index);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(reps, 2.0) +
                                                         pyasc_sim::cost::kReduceTailCycles);
}

// Elements of T one result of a WholeReduce takes in dst, the unit of dstRepStride: a value, a value + index pair,
// or one 4-byte index.
template <typename T>
inline int64_t whole_reduce_result_elems(RedOp op, ReduceOrder order) {
    if (op != RedOp::kSum && order == ReduceOrder::ORDER_ONLY_INDEX) return static_cast<int64_t>(4 / sizeof(T));
    return op != RedOp::kSum && (order == ReduceOrder::ORDER_VALUE_INDEX || order == ReduceOrder::ORDER_INDEX_VALUE)
               ? 2 : 1;
}

template <typename T>
inline void whole_reduce(RedOp op, const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src,
                         const Mask &m, int32_t repeats, int32_t dstRepStride, int32_t srcBlkStride,
                         int32_t srcRepStride, ReduceOrder order, const SrcLoc &loc) {
    const Opnd os{srcBlkStride, srcRepStride, 32 / sizeof(T)};
    const uint32_t reps = static_cast<uint32_t>(std::max(repeats, 0));
    check_operand(src, api, "src", os, reps, m, loc);
    // dstRepStride unit: one result (value, or value + index pair, or one uint32 index).
    const int64_t unit = whole_reduce_result_elems<T>(op, order);
    if (reps > 0) {
        if (op != RedOp::kSum && order == ReduceOrder::ORDER_ONLY_INDEX) {
            dst.check_bytes(0, (static_cast<int64_t>(reps - 1) * dstRepStride + 1) * 4, api, loc);
        } else {
            dst.check(0, (static_cast<int64_t>(reps - 1) * dstRepStride + 1) * unit, api, loc);
        }
    }
    // a continuous mask over contiguous blocks: each repeat's elements are one run, reduced where they
    // are (the same pairwise sum; extreme_first is Acc's scan: the first extreme, a NaN only first)
    const bool run = m.prefix() && srcBlkStride == 1;
    for (uint32_t r = 0; r < reps; ++r) {
        Acc<T> acc{op};
        bool done = false;
        if (run) {
            const T *p = src.ptr() + os.off(r, 0);
            if (op == RedOp::kSum) {
                acc.sum_value = m.n == 64 ? pairwise_sum64(p) : pairwise_sum(p, static_cast<int64_t>(m.n));
                done = true;
            } else if constexpr (std::is_arithmetic<T>::value) {
                // the index only where it is written or left in the register (the last repeat)
                const bool index = order != ReduceOrder::ORDER_ONLY_VALUE || r + 1 == reps;
                acc.best = extreme_first(p, static_cast<int64_t>(m.n), op == RedOp::kMax, index ? &acc.index : nullptr);
                acc.any = m.n > 0;
                if (r + 1 == reps) set_reduce_spr(acc.value(), acc.index);
                done = true;
            }
        }
        if (done) {
            // reduced above
        } else if (op == RedOp::kSum) {  // the repeat's masked elements in order, summed pairwise
            T g[256];
            int64_t k = 0;
            for (uint32_t i = 0; i < m.n; ++i) {
                if (m.test(i)) g[k++] = src.ptr()[os.off(r, i)];
            }
            acc.sum_value = pairwise_sum(g, k);
        } else {
            for (uint32_t i = 0; i < m.n; ++i) {
                if (m.test(i)) acc.add(src.ptr()[os.off(r, i)], i);
            }
            if (r + 1 == reps) set_reduce_spr(acc.value(), acc.index);
        }
        if (op == RedOp::kSum || order == ReduceOrder::ORDER_ONLY_VALUE) {
            dst.ptr()[static_cast<int64_t>(r) * dstRepStride * unit] = acc.value();
        } else if (order == ReduceOrder::ORDER_ONLY_INDEX) {
            uint8_t *p = reinterpret_cast<uint8_t *>(dst.ptr()) + static_cast<int64_t>(r) * dstRepStride * 4;
            std::memcpy(p, &acc.index, 4);
        } else {
            T *p = dst.ptr() + static_cast<int64_t>(r) * dstRepStride * unit;
            if (order == ReduceOrder::ORDER_VALUE_INDEX) {
                p[0] = acc.value();
                put_index(p + 1, acc.index);
            } else {
                put_index(p, acc.index);
                p[1] = acc.value();
            }
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(reps, 2.0));
}

// Counter mask mode (SetMaskCount, then SetVectorMask<T, MaskMode::COUNTER>(0, n) and isSetMask = false):
// the mask's low word is the number of elements and the Vector Unit infers the repeats itself, the
// repeatTime argument has no effect (SetMaskCount page, atlasascendc_api_07_0097: "repeatTimes传入固定值即可，
// 建议统一设置为1，该值不生效"): n / (256 / sizeof(T)) full repeats, then one repeat of the remaining
// elements, each writing its result at r * dstRepStride as in the normal mode.
template <typename T>
inline void whole_reduce_counter(RedOp op, const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                 int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                                 ReduceOrder order, const SrcLoc &loc) {
    const uint64_t count = pyasc_sim::kapi::blk().mask[0];
    const uint32_t epr = 256 / sizeof(T);
    const uint64_t full = count / epr;
    const uint32_t tail = static_cast<uint32_t>(count % epr);
    if (full > 0) {
        whole_reduce(op, api, dst, src, mask_count(epr, epr, api, loc), static_cast<int32_t>(full), dstRepStride,
                     srcBlkStride, srcRepStride, order, loc);
    }
    if (tail > 0) {
        const int64_t dst_off = static_cast<int64_t>(full) * dstRepStride * whole_reduce_result_elems<T>(op, order);
        const int64_t src_off = static_cast<int64_t>(full) * srcRepStride * (32 / sizeof(T));
        whole_reduce(op, api, dst[dst_off], src[src_off], mask_count(tail, epr, api, loc), 1, dstRepStride,
                     srcBlkStride, srcRepStride, order, loc);
    }
}

}  // namespace sim_detail

#define PYASC_SIM_REDUCE(NAME, OP, INDEX_PARAM, INDEX_ARG)                                                           \
    template <typename T>                                                                                            \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,    \
                     const int32_t count INDEX_PARAM, PYASC_SIM_LOC) {                                               \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                              \
        sim_detail::reduce_count(OP, #NAME, dst, src, sharedTmpBuffer, count, INDEX_ARG, loc);                       \
    }                                                                                                                \
    template <typename T>                                                                                            \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,    \
                     const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride INDEX_PARAM,           \
                     PYASC_SIM_LOC) {                                                                                \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                              \
        sim_detail::reduce_repeat(OP, #NAME, dst, src, sharedTmpBuffer,                                              \
                                  sim_detail::mask_count(static_cast<uint64_t>(mask), 256 / sizeof(T), #NAME, loc),  \
                                  repeatTime, srcRepStride, INDEX_ARG, loc);                                         \
    }                                                                                                                \
    template <typename T>                                                                                            \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LocalTensor<T> &sharedTmpBuffer,    \
                     const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride INDEX_PARAM,        \
                     PYASC_SIM_LOC) {                                                                                \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                              \
        sim_detail::reduce_repeat(OP, #NAME, dst, src, sharedTmpBuffer, sim_detail::mask_bits(mask, 256 / sizeof(T)), \
                                  repeatTime, srcRepStride, INDEX_ARG, loc);                                         \
    }

#define PYASC_SIM_COMMA ,
PYASC_SIM_REDUCE(ReduceSum, sim_detail::RedOp::kSum, , false)
PYASC_SIM_REDUCE(ReduceMax, sim_detail::RedOp::kMax, PYASC_SIM_COMMA bool calIndex = false, calIndex)
PYASC_SIM_REDUCE(ReduceMin, sim_detail::RedOp::kMin, PYASC_SIM_COMMA bool calIndex = false, calIndex)
#undef PYASC_SIM_COMMA
#undef PYASC_SIM_REDUCE

#define PYASC_SIM_WHOLE_REDUCE(NAME, OP, ORDER_PARAM, ORDER_ARG)                                                   \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t mask,                     \
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,             \
                     const int32_t srcRepStride ORDER_PARAM, PYASC_SIM_LOC) {                                      \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                              \
        if (!isSetMask && pyasc_sim::kapi::blk().mask_counter) {                                                   \
            sim_detail::whole_reduce_counter(OP, #NAME, dst, src, dstRepStride, srcBlkStride, srcRepStride,       \
                                             ORDER_ARG, loc);                                                      \
            return;                                                                                                \
        }                                                                                                          \
        sim_detail::whole_reduce(OP, #NAME, dst, src,                                                              \
                                 sim_detail::mask_of<isSetMask>(static_cast<uint64_t>(mask), 256 / sizeof(T), #NAME, loc), \
                                 repeatTime, dstRepStride, srcBlkStride, srcRepStride, ORDER_ARG, loc);            \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],                  \
                     const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride,             \
                     const int32_t srcRepStride ORDER_PARAM, PYASC_SIM_LOC) {                                      \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                              \
        if (!isSetMask && pyasc_sim::kapi::blk().mask_counter) {                                                   \
            sim_detail::whole_reduce_counter(OP, #NAME, dst, src, dstRepStride, srcBlkStride, srcRepStride,       \
                                             ORDER_ARG, loc);                                                      \
            return;                                                                                                \
        }                                                                                                          \
        sim_detail::whole_reduce(OP, #NAME, dst, src, sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), \
                                 repeatTime, dstRepStride, srcBlkStride, srcRepStride, ORDER_ARG, loc);            \
    }

#define PYASC_SIM_COMMA ,
PYASC_SIM_WHOLE_REDUCE(WholeReduceSum, sim_detail::RedOp::kSum, , ReduceOrder::ORDER_ONLY_VALUE)
PYASC_SIM_WHOLE_REDUCE(WholeReduceMax, sim_detail::RedOp::kMax,
                       PYASC_SIM_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
PYASC_SIM_WHOLE_REDUCE(WholeReduceMin, sim_detail::RedOp::kMin,
                       PYASC_SIM_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
#undef PYASC_SIM_COMMA
#undef PYASC_SIM_WHOLE_REDUCE

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_REDUCE_H_
