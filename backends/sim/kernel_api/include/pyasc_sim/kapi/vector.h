// Ascend C on the CPU -- vector instructions on local tensors.
//
// Two documented forms per instruction:
//   * count form:  Add(dst, src0, src1, count) -- the first `count` elements;
//   * mask/repeat: Add(dst, src0, src1, mask, repeatTimes, BinaryRepeatParams) -- repeatTimes
//     (<= 255) repeats of 256 bytes = 8 data blocks of 32 bytes; within repeat r, element i
//     (in data block i / E, E = 32 / sizeof(T)) of an operand is at element offset
//         r * repStride * E + (i / E) * blkStride * E + i % E,
//     and only elements whose mask bit is set are computed (the rest of dst is untouched).
//     mask is either a count (continuous mode: the first `mask` elements of every repeat,
//     1 <= mask <= 256 / sizeof(T)) or uint64_t[2] (bit mode: bit i of mask[i / 64]).
// Operand start addresses must be 32-byte aligned (check 'ub-alignment'); accesses are
// checked against the operand's buffer (check 'local-out-of-bounds').
#ifndef PYASC_SIM_KAPI_VECTOR_H_
#define PYASC_SIM_KAPI_VECTOR_H_

#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/params.h"
#include "pyasc_sim/kapi/simd.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/vector_taint.h"

namespace AscendC {

namespace sim_detail {

using pyasc_sim::kapi::SrcLoc;

struct Mask {
    uint64_t w[4] = {0, 0, 0, 0};
    uint32_t n = 0;  // highest active element + 1
    bool test(uint32_t i) const { return ((w[i >> 6] >> (i & 63)) & 1u) != 0; }
    // Every element below n is active (a continuous mask): repeats run as contiguous runs.
    bool prefix() const {
        uint32_t ones = 0;
        for (int k = 0; k < 4; ++k) ones += static_cast<uint32_t>(__builtin_popcountll(w[k]));
        return ones == n;
    }
    void finish(uint32_t epr) {
        n = 0;
        for (uint32_t i = 0; i < epr; ++i) {
            if (test(i)) n = i + 1;
        }
    }
};

inline Mask mask_count(uint64_t m, uint32_t epr, const char *api, const SrcLoc &loc) {
    if ((m == 0 || m > epr) && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("vector-mask", loc,
                              "%s: mask %llu is outside [1, %u], the elements one 256-byte repeat holds for this type",
                              api, static_cast<unsigned long long>(m), epr);
    }
    Mask r;
    const uint32_t k = static_cast<uint32_t>(std::min<uint64_t>(m, epr));
    for (uint32_t i = 0; i < k; ++i) r.w[i >> 6] |= 1ull << (i & 63);
    r.n = k;
    return r;
}

inline Mask mask_bits(const uint64_t *m, uint32_t epr) {
    Mask r;
    r.w[0] = m[0];
    if (epr > 64) r.w[1] = m[1];
    r.finish(epr);
    return r;
}

template <bool isSetMask>
inline Mask mask_of(uint64_t m, uint32_t epr, const char *api, const SrcLoc &loc) {
    if (isSetMask) return mask_count(m, epr, api, loc);
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (b.mask_counter) {
        pyasc_sim::kapi::fail("unsupported", loc, "%s with isSetMask = false in counter mask mode (SetMaskCount) is not "
                              "supported by the simulator; use the count form", api);
    }
    return mask_bits(b.mask, epr);
}
template <bool isSetMask>
inline Mask mask_of(const uint64_t *m, uint32_t epr, const char *api, const SrcLoc &loc) {
    if (isSetMask) return mask_bits(m, epr);
    return mask_of<false>(uint64_t{0}, epr, api, loc);
}

// An operand of a repeat-form instruction: strides in 32-byte blocks, E elements per block.
struct Opnd {
    int64_t blk;
    int64_t rep;
    int64_t epb;
    int64_t off(uint32_t r, uint32_t i) const { return r * rep * epb + (i / epb) * blk * epb + i % epb; }
    // Elements from the start the instruction may touch (block granular).
    int64_t extent(uint32_t repeats, const Mask &m) const {
        if (repeats == 0 || m.n == 0) return 0;
        const int64_t last = m.n - 1;
        return (repeats - 1) * rep * epb + (last / epb) * blk * epb + epb;
    }
};

// A count-form operand read (`read`: initcheck, the read side of pipe-race) or written.
template <typename T>
inline void check_operand_as(pyasc_sim::kapi::BlockState &b, const LocalTensor<T> &t, const char *api, const char *name,
                             bool read, int64_t elems, const SrcLoc &loc) {
    t.check_vec_operand(b, elems * static_cast<int64_t>(sizeof(T)), read, api, name, loc);
}
template <typename T>
inline void check_operand(pyasc_sim::kapi::BlockState &b, const LocalTensor<T> &t, const char *api, const char *name,
                          int64_t elems, const SrcLoc &loc) {
    const bool src = name[0] == 's' && name[1] == 'r' && name[2] == 'c';  // src, src0, src1: a read (initcheck)
    check_operand_as(b, t, api, name, src, elems, loc);
}
template <typename T>
inline void check_operand(const LocalTensor<T> &t, const char *api, const char *name, int64_t elems,
                          const SrcLoc &loc) {
    check_operand(pyasc_sim::kapi::blk(), t, api, name, elems, loc);
}

// A repeat-form operand.  A destination is marked written over its extent; a source is checked
// for bounds and pipe-race over its extent, and for initcheck per 32-byte block the instruction
// reads: the blocks holding a lane of the mask in each repeat (not the stride gaps between them).
// `read`: the operand is read (a source, or a destination the instruction also reads: dst = a * b + dst).
template <typename T>
inline void check_operand_as(const LocalTensor<T> &t, const char *api, const char *name, bool read, const Opnd &o,
                             uint32_t repeats, const Mask &m, const SrcLoc &loc) {
    const int64_t elems = o.extent(repeats, m);
    if (!read) {
        check_operand_as(pyasc_sim::kapi::blk(), t, api, name, false, elems, loc);
        return;
    }
    t.check_aligned(api, name, loc);
    t.check_read_span(0, elems, api, loc);
    if (!pyasc_sim::kapi::blk().checks || elems == 0 || o.epb <= 0) return;
    // every sector of the extent written: each block the loop below tests is (one span test instead
    // of one per repeat)
    if (pyasc_sim::kapi::local_first_unwritten(pyasc_sim::kapi::blk(), t.kind(), t.mem_offset(pyasc_sim::kapi::blk()),
                                               static_cast<uint64_t>(elems) * sizeof(T)) < 0) {
        return;
    }
    constexpr uint32_t kMaxBlocks = 8;  // 256 bytes per repeat
    bool used[kMaxBlocks] = {};
    for (uint32_t i = 0; i < m.n; ++i) {
        if (m.test(i) && i / o.epb < kMaxBlocks) used[i / o.epb] = true;
    }
    // as for count forms (LocalTensor::vec_init_read): the first block read, and some block of each
    // repeat, must have been written (a full mask over a partly filled repeat reads ignored lanes);
    // in an elementwise instruction (vtaint_on) a miss is taint (kapi/vector_taint.h)
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    const bool taint = b.vtaint_on;
    const int k = t.kind();
    const uint64_t base = t.mem_offset(b);
    const int64_t esz = static_cast<int64_t>(sizeof(T));
    bool first = true;
    int64_t miss = -1;
    for (uint32_t r = 0; r < repeats; ++r) {
        int64_t some = -1;
        bool any = false;
        for (uint32_t j = 0; j < kMaxBlocks && !any; ++j) {
            if (!used[j]) continue;
            const int64_t at = o.off(r, j * static_cast<uint32_t>(o.epb)) * esz;
            any = pyasc_sim::kapi::local_any_written(b, k, base + static_cast<uint64_t>(at), 32);
            if (first) {
                first = false;
                if (!any) {
                    if (!taint) t.init_read(at, 32, api, loc, elems * esz, 0);
                    miss = at;
                }
            }
            if (some < 0) some = at;
        }
        if (!any && some >= 0) {
            if (!taint) t.init_read(some, 32, api, loc, elems * esz, 0);
            if (miss < 0) miss = some;
        }
    }
    if (miss >= 0) b.vtaint_hit = true;
}
template <typename T>
inline void check_operand(const LocalTensor<T> &t, const char *api, const char *name, const Opnd &o,
                          uint32_t repeats, const Mask &m, const SrcLoc &loc) {
    check_operand_as(t, api, name, std::strncmp(name, "src", 3) == 0, o, repeats, m, loc);
}

template <typename F>
inline void for_each_masked(uint32_t repeats, const Mask &m, F f) {
    for (uint32_t r = 0; r < repeats; ++r) {
        for (uint32_t i = 0; i < m.n; ++i) {
            if (m.test(i)) f(r, i);
        }
    }
}

inline double repeats_of(uint64_t count, size_t elem) { return static_cast<double>((count * elem + 255) / 256); }

inline int64_t check_count(int64_t count, const char *api, const SrcLoc &loc) {
    if (count < 0 && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("vector-count", loc, "%s: count %lld is negative", api, static_cast<long long>(count));
    }
    return count < 0 ? 0 : count;
}

// ---- engines ----------------------------------------------------------------------------------
// The running block when the checks are off, else nullptr. With the checks off every operand check
// of a count form returns at once after noting the source line of the timeline span; the fast path
// of the engines does only that, with one block lookup per instruction instead of one per operand
// check (the block state is thread-local: each lookup is a call out of the kernel library).
inline pyasc_sim::kapi::BlockState *unchecked_block(const SrcLoc &loc) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (b.checks) return nullptr;
    pyasc_sim::kapi::timeline_loc(b, loc);
    return &b;
}

template <typename T, typename F>
inline void binary_count(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &s0,
                         const LocalTensor<T> &s1, int64_t count, double factor, const SrcLoc &loc, F f) {
    pyasc_sim::kapi::BlockState *b = unchecked_block(loc);
    if (b != nullptr) {
        count = count < 0 ? 0 : count;
    } else {
        pyasc_sim::kapi::BlockState &bs = pyasc_sim::kapi::blk();  // one lookup for the three operands
        count = check_count(count, api, loc);
        PYASC_SIM_VTAINT_CHECKED(bs,
                                 check_operand(bs, dst, api, "dst", count, loc);
                                 check_operand(bs, s0, api, "src0", count, loc);
                                 check_operand(bs, s1, api, "src1", count, loc);,
                                 vtaint_count(bs, dst, s0, s1, count));
    }
    pyasc_sim::simd::map2(dst.ptr(), s0.ptr(), s1.ptr(), count, f);
    pyasc_sim::kapi::charge(b != nullptr ? *b : pyasc_sim::kapi::blk(), pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(count, sizeof(T)), factor));
}

// The row broadcast path of binary_repeat: dst run d[0, reps * E) = f(a[k], bb[k % E]) (a == nullptr: in
// place, a = d), in the host's widest vectors where the CPU has them (the same operations per element,
// -ffp-contract=off: the portable loop's values), as the count forms' map2.
#define PYASC_SIM_BROADCAST_RUN(NAME, ATTR)                                                                   \
    template <typename T, int64_t E, typename F>                                                              \
    ATTR inline void NAME(T *__restrict__ d, const T *__restrict__ a, const T *__restrict__ bb, int64_t reps, \
                          F f) {                                                                              \
        for (int64_t r = 0; r < reps; ++r) {                                                                  \
            for (int64_t t = 0; t < E; ++t) d[r * E + t] = f(a[r * E + t], bb[t]);                            \
        }                                                                                                     \
    }                                                                                                         \
    template <typename T, int64_t E, typename F>                                                              \
    ATTR inline void NAME##_inplace(T *__restrict__ d, const T *__restrict__ bb, int64_t reps, F f) {         \
        for (int64_t r = 0; r < reps; ++r) {                                                                  \
            for (int64_t t = 0; t < E; ++t) d[r * E + t] = f(d[r * E + t], bb[t]);                            \
        }                                                                                                     \
    }
PYASC_SIM_BROADCAST_RUN(broadcast_run_portable, )
#ifdef PYASC_SIM_X86
PYASC_SIM_BROADCAST_RUN(broadcast_run_avx512, __attribute__((target("avx512f"))))
PYASC_SIM_BROADCAST_RUN(broadcast_run_avx2, __attribute__((target("avx2"))))
#endif
#undef PYASC_SIM_BROADCAST_RUN
template <typename T, int64_t E, typename F>
inline void broadcast_run(T *d, const T *a, const T *bb, int64_t reps, F f) {
#ifdef PYASC_SIM_X86
    if constexpr (std::is_arithmetic<T>::value) {
        const int level = pyasc_sim::simd::x86_level();
        if (level == 2) {
            return a == d ? broadcast_run_avx512_inplace<T, E>(d, bb, reps, f) : broadcast_run_avx512<T, E>(d, a, bb, reps, f);
        }
        if (level == 1) {
            return a == d ? broadcast_run_avx2_inplace<T, E>(d, bb, reps, f) : broadcast_run_avx2<T, E>(d, a, bb, reps, f);
        }
    }
#endif
    return a == d ? broadcast_run_portable_inplace<T, E>(d, bb, reps, f) : broadcast_run_portable<T, E>(d, a, bb, reps, f);
}
// Whether dst's extent [d, d + od.extent) overlaps neither src1's nor src0's, or is src0's own layout.
template <typename T>
inline bool row_broadcast_safe(const T *d, const Opnd &od, const T *a, const Opnd &o0, const T *b, const Opnd &o1,
                               uint32_t repeats, const Mask &m) {
    const T *de = d + od.extent(repeats, m), *ae = a + o0.extent(repeats, m), *be = b + o1.extent(repeats, m);
    const bool apart_b = de <= b || be <= d;
    const bool apart_a = de <= a || ae <= d;
    return apart_b && (apart_a || (d == a && od.blk == o0.blk));
}

template <typename T, typename F>
inline void binary_repeat(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &s0,
                          const LocalTensor<T> &s1, const Mask &m, uint8_t repeats, const BinaryRepeatParams &p,
                          double factor, const SrcLoc &loc, F f) {
    constexpr int64_t e = 32 / sizeof(T);
    const Opnd od{p.dstBlkStride, p.dstRepStride, e}, o0{p.src0BlkStride, p.src0RepStride, e},
        o1{p.src1BlkStride, p.src1RepStride, e};
    pyasc_sim::kapi::BlockState &bs = pyasc_sim::kapi::blk();
    PYASC_SIM_VTAINT_CHECKED(bs,
                             check_operand(dst, api, "dst", od, repeats, m, loc);
                             check_operand(s0, api, "src0", o0, repeats, m, loc);
                             check_operand(s1, api, "src1", o1, repeats, m, loc);,
                             const uint64_t a0 = s0.mem_offset(bs), a1 = s1.mem_offset(bs);
                             vtaint_apply(bs, dst, [&](auto emit) {
                                 for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) {
                                     emit(od.off(r, i), vtaint_src(bs, s0, a0, o0.off(r, i)) ||
                                                            vtaint_src(bs, s1, a1, o1.off(r, i)));
                                 });
                             }));
    T *d = dst.ptr();
    const T *a = s0.ptr();
    const T *b = s1.ptr();
    if (m.prefix() && od.blk == 1 && o0.blk == 1 && o1.blk == 1) {
        // continuous mask, contiguous blocks: one contiguous run of m.n elements per repeat (one
        // run in all when the repeats are back to back)
        if (m.n == 256 / sizeof(T) && od.rep == 8 && o0.rep == 8 && o1.rep == 8) {
            pyasc_sim::simd::map2(d, a, b, static_cast<int64_t>(repeats) * m.n, f);
        } else {
            for (uint32_t r = 0; r < repeats; ++r) {
                pyasc_sim::simd::map2(d + od.off(r, 0), a + o0.off(r, 0), b + o1.off(r, 0), m.n, f);
            }
        }
    } else if (m.prefix() && m.n % e == 0 && od.rep == 1 && o0.rep == 1 && o1.rep == 0 &&
               row_broadcast_safe(d, od, a, o0, b, o1, repeats, m)) {
        // a row broadcast (each repeat one block of each of m.n / e rows, src1 the same blocks every
        // repeat): block j of every repeat is one run of repeats * e elements of dst and src0 against
        // src1's block j; dst does not overlap src1 and is src0 itself or does not overlap it, so the
        // order of the elements does not change a value
        const int64_t nb = m.n / e;
        for (int64_t j = 0; j < nb; ++j) {
            T bb[e];
            for (int64_t t = 0; t < e; ++t) bb[t] = b[j * o1.blk * e + t];
            T *dj = d + j * od.blk * e;
            const T *aj = a + j * o0.blk * e;
            broadcast_run<T, e>(dj, aj, bb, repeats, f);
        }
    } else if (m.prefix() && m.n % e == 0 &&
               ((reinterpret_cast<uintptr_t>(d) | reinterpret_cast<uintptr_t>(a) | reinterpret_cast<uintptr_t>(b)) & 31) == 0) {
        // continuous mask of whole blocks, any block strides: block by block in the element loop's order;
        // the operands' blocks are 32-byte aligned, so a destination block either is a source block or does
        // not overlap it, and computing the block from both sources' loaded values before storing it gives
        // the element loop's values
        const int64_t nb = m.n / e;
        for (int64_t r = 0; r < repeats; ++r) {
            T *dr = d + r * od.rep * e;
            const T *ar = a + r * o0.rep * e;
            const T *br = b + r * o1.rep * e;
            for (int64_t j = 0; j < nb; ++j) {
                T *dp = dr + j * od.blk * e;
                const T *ap = ar + j * o0.blk * e;
                const T *bp = br + j * o1.blk * e;
                T va[e], vb[e], vd[e];
                for (int64_t t = 0; t < e; ++t) {
                    va[t] = ap[t];
                    vb[t] = bp[t];
                }
                for (int64_t t = 0; t < e; ++t) vd[t] = f(va[t], vb[t]);
                for (int64_t t = 0; t < e; ++t) dp[t] = vd[t];
            }
        }
    } else {
        for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) { d[od.off(r, i)] = f(a[o0.off(r, i)], b[o1.off(r, i)]); });
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats, factor));
}

// ---- a row loop's next instruction ----------------------------------------------------------------
// A loop over the rows of a batch issues the same instruction at one source line on the next slices of the same
// buffers; the race detector then extends its held accesses (kapi/race.h RaceState::extend_row).  For such an
// instruction the engines below take its checks in one pass, exactly: every check first (each operand's buffer,
// alignment and bounds, the sources' initcheck, the race detector's row path), then the same changes the general
// path makes in its order (the previous instruction's pending destination marked written, this one's deferred or
// marked, the held accesses extended), and no note built or committed.  When any test fails (an operand the
// general path would report, a never-written source: a report or taint, an access the row path does not take)
// nothing has changed but what the general path changes first in any case, and the general path runs.
//
// Operand t's offset in its memory (off) when check_aligned and bounds(0, bytes) would pass (false also for a
// tensor outside the block's local memories: the general path decides).
template <typename T>
inline bool row_operand(const pyasc_sim::kapi::BlockState &b, const LocalTensor<T> &t, int64_t bytes, uint64_t &off) {
    const uint8_t *p = reinterpret_cast<const uint8_t *>(t.ptr());
    const int k = t.kind();
    if (p == nullptr || t.buf_begin() == nullptr || k < 0 || b.mem[k] == nullptr) return false;
    off = static_cast<uint64_t>(p - b.mem[k]);
    return (off & 31) == 0 && p >= t.buf_begin() && p + bytes <= t.buf_end();
}
// The row test the engines make first (one compare for an instruction at another line than the held accesses').
inline bool row_candidate(const pyasc_sim::kapi::BlockState &b, const SrcLoc &loc) {
    return b.race.held_line == loc.line && b.race.held_file == loc.file;
}
// A unary count form's checks (dst, then src: check_operand twice under its VecTaintScope) in one pass.
template <typename D, typename S>
inline bool row_unary(pyasc_sim::kapi::BlockState &b, const LocalTensor<D> &dst, const LocalTensor<S> &src,
                      int64_t count, const SrcLoc &loc) {
    using Note = pyasc_sim::kapi::RaceState::Note;
    const int64_t db = count * static_cast<int64_t>(sizeof(D)), sb = count * static_cast<int64_t>(sizeof(S));
    uint64_t doff = 0, soff = 0;
    if (count <= 0 || !row_operand(b, dst, db, doff) || !row_operand(b, src, sb, soff)) return false;
    pyasc_sim::kapi::local_flush_pending(b);  // the dst check's first change
    if (pyasc_sim::kapi::local_vec_first_unwritten(b, src.kind(), soff, static_cast<uint64_t>(sb)) >= 0) return false;
    const Note acc[2] = {Note(dst.kind(), doff, static_cast<uint64_t>(db), true),
                         Note(src.kind(), soff, static_cast<uint64_t>(sb), false)};
    if (!pyasc_sim::kapi::race(b).extend_row(static_cast<int>(pyasc_sim::kapi::kPipeV), loc.file, loc.line, acc)) return false;
    pyasc_sim::kapi::local_defer_written(b, dst.kind(), doff, static_cast<uint64_t>(db), loc);
    b.vtaint_on = false;  // as the VecTaintScope leaves them after sources with no never-written repeat
    b.vtaint_hit = false;
    pyasc_sim::kapi::timeline_loc(b, loc);
    return true;
}

// The element count of a unary count form: with the checks off (b from unchecked_block) a negative
// count is 0; with them on, the count and both operands' extents are checked.
template <typename D, typename S>
inline int64_t unary_count_operands(const pyasc_sim::kapi::BlockState *b, const char *api, const LocalTensor<D> &dst,
                                    const LocalTensor<S> &src, int64_t count, const SrcLoc &loc) {
    if (b != nullptr) return count < 0 ? 0 : count;
    pyasc_sim::kapi::BlockState &bs = pyasc_sim::kapi::blk();  // one lookup for both operands
    count = check_count(count, api, loc);
    if (row_candidate(bs, loc) && row_unary(bs, dst, src, count, loc)) return count;  // a row loop's next row
    PYASC_SIM_VTAINT_CHECKED(bs,
                             check_operand(bs, dst, api, "dst", count, loc);
                             check_operand(bs, src, api, "src", count, loc);,
                             vtaint_count(bs, dst, src, count));
    return count;
}

template <typename D, typename S, typename F>
inline void unary_count(const char *api, const LocalTensor<D> &dst, const LocalTensor<S> &src, int64_t count,
                        double factor, const SrcLoc &loc, F f) {
    pyasc_sim::kapi::BlockState *b = unchecked_block(loc);
    count = unary_count_operands(b, api, dst, src, count, loc);
    pyasc_sim::simd::map1(dst.ptr(), src.ptr(), count, f);
    pyasc_sim::kapi::charge(b != nullptr ? *b : pyasc_sim::kapi::blk(), pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(repeats_of(count, std::max(sizeof(D), sizeof(S))), factor));
}

template <typename D, typename S, typename F>
inline void unary_repeat(const char *api, const LocalTensor<D> &dst, const LocalTensor<S> &src, const Mask &m,
                         uint8_t repeats, const UnaryRepeatParams &p, double factor, const SrcLoc &loc, F f) {
    const Opnd od{p.dstBlkStride, p.dstRepStride, static_cast<int64_t>(32 / sizeof(D))},
        os{p.srcBlkStride, p.srcRepStride, static_cast<int64_t>(32 / sizeof(S))};
    pyasc_sim::kapi::BlockState &bs = pyasc_sim::kapi::blk();
    PYASC_SIM_VTAINT_CHECKED(bs,
                             check_operand(dst, api, "dst", od, repeats, m, loc);
                             check_operand(src, api, "src", os, repeats, m, loc);,
                             const uint64_t as = src.mem_offset(bs);
                             vtaint_apply(bs, dst, [&](auto emit) {
                                 for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) {
                                     emit(od.off(r, i), vtaint_src(bs, src, as, os.off(r, i)));
                                 });
                             }));
    D *d = dst.ptr();
    const S *a = src.ptr();
    if (m.prefix() && od.blk == 1 && os.blk == 1) {
        if (m.n * sizeof(D) == 256 && m.n * sizeof(S) == 256 && od.rep == 8 && os.rep == 8) {
            pyasc_sim::simd::map1(d, a, static_cast<int64_t>(repeats) * m.n, f);
        } else {
            for (uint32_t r = 0; r < repeats; ++r) pyasc_sim::simd::map1(d + od.off(r, 0), a + os.off(r, 0), m.n, f);
        }
    } else {
        for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) { d[od.off(r, i)] = f(a[os.off(r, i)]); });
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats, factor));
}

// Count forms with a CPU-dispatched bulk loop (float Exp and Ln): the same values as the element
// lambda, faster in the shipped portable kernels, run in fed_run's steps (the block's next GM tile
// prefetched as they read: state.h). False: use the lambda.
template <typename T>
inline bool bulk_unary(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src, int64_t count,
                       double factor, const SrcLoc &loc) {
    if constexpr (std::is_same<T, float>::value) {
        const bool exp = std::strcmp(api, "Exp") == 0;
        if (!exp && std::strcmp(api, "Ln") != 0) return false;
        pyasc_sim::kapi::BlockState *b = unchecked_block(loc);
        count = unary_count_operands(b, api, dst, src, count, loc);
        float *d = dst.ptr();
        const float *s = src.ptr();
        pyasc_sim::kapi::BlockState &fb = b != nullptr ? *b : pyasc_sim::kapi::blk();
        if (d != s && pyasc_sim::simd::overlap(d, count, s, count)) {  // shifted operands: one pass, in order
            exp ? pyasc_sim::simd::exp_f32(d, s, count) : pyasc_sim::simd::log_f32(d, s, count);
        } else if (exp) {
            pyasc_sim::kapi::fed_run(fb, count, 4, [d, s](int64_t i, int64_t m) { pyasc_sim::simd::exp_f32(d + i, s + i, m); });
        } else {
            pyasc_sim::kapi::fed_run(fb, count, 4, [d, s](int64_t i, int64_t m) { pyasc_sim::simd::log_f32(d + i, s + i, m); });
        }
        pyasc_sim::kapi::charge(fb, pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats_of(count, 4), factor));
        return true;
    } else {
        (void)api, (void)dst, (void)src, (void)count, (void)factor, (void)loc;
        return false;
    }
}

// Math in float (double for double) for the transcendental ops.
template <typename T>
using calc_t = typename std::conditional<std::is_same<T, double>::value, double, float>::type;
template <typename T>
inline calc_t<T> cv(T v) {
    return static_cast<calc_t<T>>(pyasc_sim::kapi::to_double(v));
}
inline float exp_calc(float x) { return pyasc_sim::simd::exp_f32_one(x); }
inline double exp_calc(double x) { return std::exp(x); }
inline float log_calc(float x) { return pyasc_sim::simd::log_f32_one(x); }
inline double log_calc(double x) { return std::log(x); }
template <typename T>
inline T sim_div(T a, T b) {
    if constexpr (std::is_integral<T>::value) {
        return b == T(0) ? T(0) : static_cast<T>(a / b);
    } else {
        return static_cast<T>(cv(a) / cv(b));
    }
}
template <typename T>
inline T sim_abs(T a) {
    if constexpr (std::is_integral<T>::value) {
        return a < T(0) ? static_cast<T>(-a) : a;
    } else {
        return static_cast<T>(std::fabs(cv(a)));
    }
}

}  // namespace sim_detail

// ---- mask state (isSetMask = false) --------------------------------------------------------------
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    b.mask[0] = maskLow;
    b.mask[1] = maskHigh;
}
template <typename T, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(int32_t len) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    b.mask[0] = b.mask[1] = 0;
    for (int32_t i = 0; i < len && i < 128; ++i) b.mask[i >> 6] |= 1ull << (i & 63);
}
inline void ResetMask() {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    b.mask[0] = b.mask[1] = ~0ull;
}
inline void SetMaskCount() { pyasc_sim::kapi::blk().mask_counter = true; }
inline void SetMaskNorm() { pyasc_sim::kapi::blk().mask_counter = false; }

// ---- instruction families ----------------------------------------------------------------------
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()

// dst = f(src0, src1)
namespace sim_detail {
// The basic vector APIs' count and repeat (mask) forms carry a trailing source-location parameter (PYASC_SIM_LOC),
// so their type is not the documented one; each also has an overload with the documented prototype exactly,
// templated on the tensor type D (a LocalTensor), so `ForeachOneScalarBinary<half, half, Adds>`-style template
// arguments (a `void (*)(const LocalTensor<T> &, const LocalTensor<T> &, const T &, const int32_t &)`) and
// `ForeachOneScalarBinaryLevelZeroApi<half, float, Div>`-style ones (the repeat form: `..., uint64_t mask,
// const uint8_t repeatTimes, const BinaryRepeatParams &`) find it.  In a call
// both forms match and the LocalTensor<T> form is more specialised, so calls keep their source location.
template <typename D>
struct is_local_tensor : std::false_type {};
template <typename T>
struct is_local_tensor<LocalTensor<T>> : std::true_type {};
template <typename D>
inline constexpr bool is_local_tensor_v = is_local_tensor<D>::value;
}  // namespace sim_detail

#define PYASC_SIM_BINARY(NAME, FACTOR, EXPR)                                                                        \
    template <typename T>                                                                                          \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,            \
                     const int32_t &count, PYASC_SIM_LOC) {                                                        \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        sim_detail::binary_count(#NAME, dst, src0, src1, count, FACTOR, loc, [](T a, T b) -> T { return EXPR; }); \
    }                                                                                                              \
    /* the documented prototype exactly, for a kernel that passes NAME as a function pointer (see       */     \
    /* sim_detail::is_local_tensor_v); calls prefer the form above, which is more specialised           */     \
    template <typename D, typename = std::enable_if_t<sim_detail::is_local_tensor_v<D>>>                         \
    inline void NAME(const D &dst, const D &src0, const D &src1, const int32_t &count) {                           \
        NAME<typename D::PrimType>(dst, src0, src1, count, pyasc_sim::kapi::SrcLoc());                             \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,            \
                     const uint64_t mask[], const uint8_t repeatTimes, const BinaryRepeatParams &repeatParams,     \
                     PYASC_SIM_LOC) {                                                                              \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        sim_detail::binary_repeat(#NAME, dst, src0, src1,                                                          \
                                  sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), repeatTimes,  \
                                  repeatParams, FACTOR, loc, [](T a, T b) -> T { return EXPR; });                  \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,            \
                     const uint64_t mask, const uint8_t repeatTimes, const BinaryRepeatParams &repeatParams,       \
                     PYASC_SIM_LOC) {                                                                              \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        sim_detail::binary_repeat(#NAME, dst, src0, src1,                                                          \
                                  sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), repeatTimes,  \
                                  repeatParams, FACTOR, loc, [](T a, T b) -> T { return EXPR; });                  \
    }                                                                                                              \
    /* a non-const bit-mask array: keeps the kernel line (the uint64_t mask[] form below would match better) */     \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1,            \
                     uint64_t mask[], const uint8_t repeatTimes, const BinaryRepeatParams &repeatParams,           \
                     PYASC_SIM_LOC) {                                                                              \
        NAME<T, isSetMask>(dst, src0, src1, static_cast<const uint64_t *>(mask), repeatTimes, repeatParams, loc);  \
    }                                                                                                              \
    /* the documented repeat (mask) prototypes exactly, for function-pointer template arguments */                 \
    template <typename D, bool isSetMask = true, typename = std::enable_if_t<sim_detail::is_local_tensor_v<D>>>  \
    inline void NAME(const D &dst, const D &src0, const D &src1, uint64_t mask[], const uint8_t repeatTimes,       \
                     const BinaryRepeatParams &repeatParams) {                                                     \
        NAME<typename D::PrimType, isSetMask>(dst, src0, src1, static_cast<const uint64_t *>(mask), repeatTimes,   \
                                              repeatParams, pyasc_sim::kapi::SrcLoc());                            \
    }                                                                                                              \
    template <typename D, bool isSetMask = true, typename = std::enable_if_t<sim_detail::is_local_tensor_v<D>>>  \
    inline void NAME(const D &dst, const D &src0, const D &src1, uint64_t mask, const uint8_t repeatTimes,         \
                     const BinaryRepeatParams &repeatParams) {                                                     \
        NAME<typename D::PrimType, isSetMask>(dst, src0, src1, mask, repeatTimes, repeatParams,                    \
                                              pyasc_sim::kapi::SrcLoc());                                          \
    }

// dst = f(src)
#define PYASC_SIM_UNARY(NAME, FACTOR, EXPR)                                                                        \
    template <typename T>                                                                                          \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t &count, PYASC_SIM_LOC) {  \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        if (sim_detail::bulk_unary<T>(#NAME, dst, src, count, FACTOR, loc)) return;                                \
        sim_detail::unary_count(#NAME, dst, src, count, FACTOR, loc, [](T a) -> T { return EXPR; });               \
    }                                                                                                              \
    template <typename D, typename = std::enable_if_t<sim_detail::is_local_tensor_v<D>>>                         \
    inline void NAME(const D &dst, const D &src, const int32_t &count) { /* as a function pointer */               \
        NAME<typename D::PrimType>(dst, src, count, pyasc_sim::kapi::SrcLoc());                                    \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask[],                  \
                     const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams, PYASC_SIM_LOC) {            \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        sim_detail::unary_repeat(#NAME, dst, src, sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), \
                                 repeatTimes, repeatParams, FACTOR, loc, [](T a) -> T { return EXPR; });           \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint64_t mask,                    \
                     const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams, PYASC_SIM_LOC) {            \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        sim_detail::unary_repeat(#NAME, dst, src, sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), \
                                 repeatTimes, repeatParams, FACTOR, loc, [](T a) -> T { return EXPR; });           \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint64_t mask[],                        \
                     const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams, PYASC_SIM_LOC) {            \
        NAME<T, isSetMask>(dst, src, static_cast<const uint64_t *>(mask), repeatTimes, repeatParams, loc);         \
    }                                                                                                              \
    template <typename D, bool isSetMask = true, typename = std::enable_if_t<sim_detail::is_local_tensor_v<D>>>  \
    inline void NAME(const D &dst, const D &src, uint64_t mask[], const uint8_t repeatTimes,                       \
                     const UnaryRepeatParams &repeatParams) { /* as a function pointer */                          \
        NAME<typename D::PrimType, isSetMask>(dst, src, static_cast<const uint64_t *>(mask), repeatTimes,          \
                                              repeatParams, pyasc_sim::kapi::SrcLoc());                            \
    }                                                                                                              \
    template <typename D, bool isSetMask = true, typename = std::enable_if_t<sim_detail::is_local_tensor_v<D>>>  \
    inline void NAME(const D &dst, const D &src, uint64_t mask, const uint8_t repeatTimes,                         \
                     const UnaryRepeatParams &repeatParams) { /* as a function pointer */                          \
        NAME<typename D::PrimType, isSetMask>(dst, src, mask, repeatTimes, repeatParams, pyasc_sim::kapi::SrcLoc()); \
    }

// dst = f(src, scalar)
#define PYASC_SIM_SCALAR(NAME, EXPR)                                                                               \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                         \
                     const pyasc_sim::kapi::ident_t<T> &scalarValue, const int32_t &count, PYASC_SIM_LOC) {        \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        const T s = scalarValue;                                                                                   \
        sim_detail::unary_count(#NAME, dst, src, count, 1.0, loc, [s](T a) -> T { return EXPR; });                 \
    }                                                                                                              \
    template <typename D, bool isSetMask = true, typename = std::enable_if_t<sim_detail::is_local_tensor_v<D>>>  \
    inline void NAME(const D &dst, const D &src, const typename D::PrimType &scalarValue,                          \
                     const int32_t &count) { /* as a function pointer */                                            \
        NAME<typename D::PrimType, isSetMask>(dst, src, scalarValue, count, pyasc_sim::kapi::SrcLoc());            \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                         \
                     const pyasc_sim::kapi::ident_t<T> &scalarValue, const uint64_t mask[],                        \
                     const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams, PYASC_SIM_LOC) {            \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        const T s = scalarValue;                                                                                   \
        sim_detail::unary_repeat(#NAME, dst, src, sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), \
                                 repeatTimes, repeatParams, 1.0, loc, [s](T a) -> T { return EXPR; });             \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                         \
                     const pyasc_sim::kapi::ident_t<T> &scalarValue, const uint64_t mask,                          \
                     const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams, PYASC_SIM_LOC) {            \
        PYASC_SIM_DTYPE_CHECK(NAME, T);                                                                            \
        const T s = scalarValue;                                                                                   \
        sim_detail::unary_repeat(#NAME, dst, src, sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), #NAME, loc), \
                                 repeatTimes, repeatParams, 1.0, loc, [s](T a) -> T { return EXPR; });             \
    }                                                                                                              \
    template <typename T, bool isSetMask = true>                                                                   \
    inline void NAME(const LocalTensor<T> &dst, const LocalTensor<T> &src,                                         \
                     const pyasc_sim::kapi::ident_t<T> &scalarValue, uint64_t mask[], const uint8_t repeatTimes,   \
                     const UnaryRepeatParams &repeatParams, PYASC_SIM_LOC) {                                       \
        NAME<T, isSetMask>(dst, src, scalarValue, static_cast<const uint64_t *>(mask), repeatTimes, repeatParams,  \
                           loc);                                                                                   \
    }                                                                                                              \
    template <typename D, bool isSetMask = true, typename = std::enable_if_t<sim_detail::is_local_tensor_v<D>>>  \
    inline void NAME(const D &dst, const D &src, const typename D::PrimType &scalarValue, uint64_t mask[],         \
                     const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams) { /* as a function pointer */ \
        NAME<typename D::PrimType, isSetMask>(dst, src, scalarValue, static_cast<const uint64_t *>(mask),          \
                                              repeatTimes, repeatParams, pyasc_sim::kapi::SrcLoc());               \
    }                                                                                                              \
    template <typename D, bool isSetMask = true, typename = std::enable_if_t<sim_detail::is_local_tensor_v<D>>>  \
    inline void NAME(const D &dst, const D &src, const typename D::PrimType &scalarValue, uint64_t mask,           \
                     const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams) { /* as a function pointer */ \
        NAME<typename D::PrimType, isSetMask>(dst, src, scalarValue, mask, repeatTimes, repeatParams,              \
                                              pyasc_sim::kapi::SrcLoc());                                          \
    }

PYASC_SIM_BINARY(Add, 1.0, static_cast<T>(a + b))
PYASC_SIM_BINARY(Sub, 1.0, static_cast<T>(a - b))
PYASC_SIM_BINARY(Mul, 1.0, static_cast<T>(a * b))
PYASC_SIM_BINARY(Div, pyasc_sim::cost::kVectorComplexFactor, sim_detail::sim_div(a, b))
PYASC_SIM_BINARY(Max, 1.0, (a > b ? a : b))
PYASC_SIM_BINARY(Min, 1.0, (a < b ? a : b))

// Exp: float math through pyasc_sim::simd::exp_f32_one (error bound there: < 1.03 ulp of the exact
// value), double through libm. The float count form runs the CPU-dispatched vector loop.
PYASC_SIM_UNARY(Exp, pyasc_sim::cost::kVectorComplexFactor, static_cast<T>(sim_detail::exp_calc(sim_detail::cv(a))))
// Ln: float math through pyasc_sim::simd::log_f32_one (error bound there: < 1 ulp of the exact value),
// double through libm. The float count form runs the CPU-dispatched vector loop.
PYASC_SIM_UNARY(Ln, pyasc_sim::cost::kVectorComplexFactor, static_cast<T>(sim_detail::log_calc(sim_detail::cv(a))))
PYASC_SIM_UNARY(Abs, 1.0, sim_detail::sim_abs(a))
PYASC_SIM_UNARY(Relu, 1.0, (a > T(0) ? a : T(0)))
PYASC_SIM_UNARY(Sqrt, pyasc_sim::cost::kVectorComplexFactor, static_cast<T>(std::sqrt(sim_detail::cv(a))))
PYASC_SIM_UNARY(Rsqrt, pyasc_sim::cost::kVectorComplexFactor,
                static_cast<T>(sim_detail::calc_t<T>(1) / std::sqrt(sim_detail::cv(a))))
PYASC_SIM_UNARY(Reciprocal, pyasc_sim::cost::kVectorComplexFactor,
                static_cast<T>(sim_detail::calc_t<T>(1) / sim_detail::cv(a)))

PYASC_SIM_SCALAR(Adds, static_cast<T>(a + s))
PYASC_SIM_SCALAR(Muls, static_cast<T>(a * s))
PYASC_SIM_SCALAR(Maxs, (a > s ? a : s))
PYASC_SIM_SCALAR(Mins, (a < s ? a : s))

#undef PYASC_SIM_BINARY
#undef PYASC_SIM_UNARY
#undef PYASC_SIM_SCALAR

// ---- Duplicate: fill with a scalar -------------------------------------------------------------
template <typename T>
inline void Duplicate(const LocalTensor<T> &dst, const pyasc_sim::kapi::ident_t<T> &scalarValue, const int32_t &count,
                      PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Duplicate, T);
    pyasc_sim::kapi::BlockState *b = sim_detail::unchecked_block(loc);
    int64_t n = count < 0 ? 0 : count;
    if (b == nullptr) {
        n = sim_detail::check_count(count, "Duplicate", loc);
        sim_detail::check_operand(dst, "Duplicate", "dst", n, loc);
    }
    T *d = dst.ptr();
    const T s = scalarValue;
    std::fill(d, d + n, s);
    pyasc_sim::kapi::charge(b != nullptr ? *b : pyasc_sim::kapi::blk(), pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(n, sizeof(T))));
}
namespace sim_detail {
template <typename T>
inline void duplicate_repeat(const LocalTensor<T> &dst, T s, const Mask &m, uint8_t repeats, uint16_t blk, uint8_t rep,
                             const SrcLoc &loc) {
    const Opnd od{blk, rep, static_cast<int64_t>(32 / sizeof(T))};
    check_operand(dst, "Duplicate", "dst", od.extent(repeats, m), loc);
    T *d = dst.ptr();
    for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) { d[od.off(r, i)] = s; });
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats));
}
}  // namespace sim_detail
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T> &dst, const pyasc_sim::kapi::ident_t<T> &scalarValue, uint64_t mask[],
                      const uint8_t repeatTimes, const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
                      PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Duplicate, T);
    sim_detail::duplicate_repeat(dst, static_cast<T>(scalarValue),
                                 sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), "Duplicate", loc), repeatTimes,
                                 dstBlockStride, dstRepeatStride, loc);
}
template <typename T, bool isSetMask = true>
inline void Duplicate(const LocalTensor<T> &dst, const pyasc_sim::kapi::ident_t<T> &scalarValue, const uint64_t mask,
                      const uint8_t repeatTimes, const uint16_t dstBlockStride, const uint8_t dstRepeatStride,
                      PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Duplicate, T);
    sim_detail::duplicate_repeat(dst, static_cast<T>(scalarValue),
                                 sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), "Duplicate", loc), repeatTimes,
                                 dstBlockStride, dstRepeatStride, loc);
}

// ---- Cast with RoundMode ---------------------------------------------------------------------------
namespace sim_detail {
template <typename T>
struct is_packed4 : std::false_type {};  // true for int4b_t (kapi/int4.h)

// Bit-level neighbours of 16-bit floating formats (half, bfloat16_t).
template <typename F>
inline F next16(F v, bool up) {
    uint16_t b;
    std::memcpy(&b, &v, 2);
    const bool neg = (b & 0x8000u) != 0;
    if ((b & 0x7fffu) == 0) {
        b = up ? 0x0001u : 0x8001u;
    } else if (up != neg) {
        ++b;
    } else {
        --b;
    }
    F r;
    std::memcpy(&r, &b, 2);
    return r;
}
template <typename F>
inline F next_float(F v, bool up) {
    if constexpr (std::is_same<F, float>::value || std::is_same<F, double>::value) {
        return std::nextafter(v, up ? std::numeric_limits<F>::infinity() : -std::numeric_limits<F>::infinity());
    } else {
        return next16(v, up);
    }
}
template <typename F>
inline bool odd_mantissa(F v) {
    if constexpr (sizeof(F) == 2) {
        uint16_t b;
        std::memcpy(&b, &v, 2);
        return (b & 1u) != 0;
    } else if constexpr (sizeof(F) == 4) {
        uint32_t b;
        std::memcpy(&b, &v, 4);
        return (b & 1u) != 0;
    } else {
        uint64_t b;
        std::memcpy(&b, &v, 8);
        return (b & 1u) != 0;
    }
}
template <typename F>
inline F nearest_even(double x) {
    if constexpr (std::is_same<F, bfloat16_t>::value) {
        return bfloat16_t(static_cast<float>(x));
    } else {
        return static_cast<F>(x);
    }
}

// Rounds x (exact in double for every source type but 64-bit integers) to D with mode m.
template <typename D>
inline D round_to(double x, RoundMode m) {
    if constexpr (std::is_integral<D>::value) {
        if (std::isnan(x)) return D(0);
        double r;
        switch (m) {
            case RoundMode::CAST_FLOOR: r = std::floor(x); break;
            case RoundMode::CAST_CEIL: r = std::ceil(x); break;
            case RoundMode::CAST_ROUND: r = std::round(x); break;
            case RoundMode::CAST_TRUNC: r = std::trunc(x); break;
            default: r = std::nearbyint(x); break;  // NONE, RINT, ODD, HYBRID: ties to even
        }
        const double lo = static_cast<double>(std::numeric_limits<D>::min());
        const double hi = static_cast<double>(std::numeric_limits<D>::max());
        if (r <= lo) return std::numeric_limits<D>::min();
        if (r >= hi) return std::numeric_limits<D>::max();
        return static_cast<D>(r);
    } else {
        const D t0 = nearest_even<D>(x);
        const double d0 = pyasc_sim::kapi::to_double(t0);
        if (std::isnan(x) || d0 == x || m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT ||
            m == RoundMode::CAST_HYBRID) {
            return t0;
        }
        const D lo = d0 < x ? t0 : next_float(t0, false);
        const D hi = d0 < x ? next_float(t0, true) : t0;
        switch (m) {
            case RoundMode::CAST_FLOOR: return lo;
            case RoundMode::CAST_CEIL: return hi;
            case RoundMode::CAST_TRUNC: return x > 0 ? lo : hi;
            case RoundMode::CAST_ODD: return odd_mantissa(lo) ? lo : hi;
            case RoundMode::CAST_ROUND: {
                const double dl = x - pyasc_sim::kapi::to_double(lo), dh = pyasc_sim::kapi::to_double(hi) - x;
                if (dl < dh) return lo;
                if (dh < dl) return hi;
                return x > 0 ? hi : lo;  // tie: away from zero
            }
            default: return t0;
        }
    }
}

// Cast within one floating type (float -> float, half -> half, bfloat16_t -> bfloat16_t): the
// documented table rounds src to an integral value by the mode and keeps the format
// (0.5: RINT 0, FLOOR 0, CEIL 1, ROUND 1, TRUNC 0); CAST_NONE keeps the value.
template <typename T>
inline T round_integral(T a, RoundMode m) {
    const double x = pyasc_sim::kapi::to_double(a);
    if (std::isnan(x) || std::isinf(x)) return a;
    double r;
    switch (m) {
        case RoundMode::CAST_RINT: r = std::nearbyint(x); break;
        case RoundMode::CAST_FLOOR: r = std::floor(x); break;
        case RoundMode::CAST_CEIL: r = std::ceil(x); break;
        case RoundMode::CAST_ROUND: r = std::round(x); break;
        case RoundMode::CAST_TRUNC: r = std::trunc(x); break;
        default: return a;  // CAST_NONE: no precision loss, no rounding
    }
    return nearest_even<T>(std::copysign(r, x));  // integral values of a float format are exact in it
}

template <typename T, typename U>
constexpr bool same_float_v = std::is_same<T, U>::value && !std::is_integral<T>::value;

// int32_t -> half (s322f16) multiplies by the DEQSCALE register's half scale before converting by
// the mode: SetDeqScale(half) is documented "for AddDeqRelu / Cast / CastDeq s322f16" on Atlas A2 and
// the inference series AI Core (SetDeqScale, atlasascendc_api_07_0099); dst = Cast(src * scale) as
// the reference's s322f16 dequantisation states.  The register read before SetDeqScale(half) is
// an error ('deq-scale': on hardware it holds whatever was last set).
template <typename T, typename U>
constexpr bool is_s322f16 = std::is_same<T, half>::value && std::is_same<U, int32_t>::value;
inline double s322f16_scale(const SrcLoc &loc) {
    const pyasc_sim::kapi::VecRegs &r = pyasc_sim::kapi::blk().vregs;
    if (r.deq_kind != 1 && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("deq-scale", loc,
                              "Cast int32_t -> half (s322f16) multiplies by the DEQSCALE register's half scale, but %s; "
                              "call SetDeqScale(half scale) first (SetDeqScale(static_cast<half>(1.0f)) for a plain "
                              "conversion)",
                              r.deq_kind == 0 ? "no SetDeqScale set it in this kernel"
                                              : "it was last set by another SetDeqScale overload (CastDeq's)");
    }
    const uint16_t b = static_cast<uint16_t>(r.deqscale & 0xffffu);
    half h;
    std::memcpy(&h, &b, 2);
    return pyasc_sim::kapi::to_double(h);
}

// The scalar conversion of one element; same-type float casts check the mode once per call.
template <typename T, typename U>
inline auto cast_fn(RoundMode m, const SrcLoc &loc) {
    if constexpr (same_float_v<T, U>) {
        if (m == RoundMode::CAST_ODD || m == RoundMode::CAST_HYBRID) {
            pyasc_sim::kapi::fail("unsupported", loc,
                                  "Cast from a float type to the same type takes CAST_NONE, CAST_RINT, CAST_FLOOR, "
                                  "CAST_CEIL, CAST_ROUND or CAST_TRUNC (round to an integral value), not mode %d",
                                  static_cast<int>(m));
        }
        return [m](U a) -> T { return round_integral<T>(a, m); };
    } else if constexpr (is_s322f16<T, U>) {
        const double sc = s322f16_scale(loc);  // the product of an int32 and a half is exact in double
        return [m, sc](U a) -> T { return round_to<T>(static_cast<double>(a) * sc, m); };
    } else {
        return [m](U a) -> T { return round_to<T>(pyasc_sim::kapi::to_double(a), m); };
    }
}

// Conversions whose result is one hardware instruction (or exact) for the mode: float <-> half
// (F16C where present), float <-> bfloat16_t, float -> int16/int32/int64 in every mode, int32 ->
// float to nearest, and the exact int16 -> float, int32 -> int64; the same values cast_fn gives,
// element by element. has_cast_fast says whether (T, U, m) has one.
template <typename T>
constexpr bool kFastInt = std::is_same<T, int16_t>::value || std::is_same<T, int32_t>::value ||
                          std::is_same<T, int64_t>::value;
template <typename T, typename U>
inline bool has_cast_fast(RoundMode m) {
    const bool nearest = m == RoundMode::CAST_NONE || m == RoundMode::CAST_RINT || m == RoundMode::CAST_HYBRID;
    if constexpr ((std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value) && std::is_same<U, float>::value) {
        return nearest;
    } else if constexpr (kFastInt<T> && std::is_same<U, float>::value) {
        return true;
    } else if constexpr (std::is_same<T, float>::value && std::is_same<U, int32_t>::value) {
        return nearest;
    } else if constexpr ((std::is_same<T, float>::value && std::is_same<U, int16_t>::value) ||
                         (std::is_same<T, int64_t>::value && std::is_same<U, int32_t>::value)) {
        return true;  // exact in every mode
    } else {
        return std::is_same<T, float>::value && (std::is_same<U, half>::value || std::is_same<U, bfloat16_t>::value);
    }
}
// float -> integer D as round_to<D> does it, in float: rnd(x) is the exact integral value round_to
// computes in double (floor / ceil / trunc / round / nearbyint of a float are floats), and the
// saturation bounds are powers of two or exact (float(INT32_MAX) = 2^31: no float lies in
// [2^31 - 1, 2^31)), so the comparisons decide the same; NaN -> 0.
template <typename D, typename R>
inline void float_to_int(D *d, const float *s, int64_t n, R rnd) {
    pyasc_sim::simd::map1(d, s, n, [rnd](float x) -> D {
        constexpr float lo = static_cast<float>(std::numeric_limits<D>::min());
        constexpr float hi = static_cast<float>(std::numeric_limits<D>::max());
        const float r = rnd(x);
        if (r != r) return D(0);
        if (r <= lo) return std::numeric_limits<D>::min();
        if (r >= hi) return std::numeric_limits<D>::max();
        return static_cast<D>(r);
    });
}
template <typename T, typename U>
inline void cast_fast(T *d, const U *s, int64_t n, RoundMode m) {
    if constexpr (std::is_same<T, half>::value && std::is_same<U, float>::value) {
        pyasc_sim::simd::f32_to_f16(d, s, n);
    } else if constexpr (std::is_same<T, float>::value && std::is_same<U, half>::value) {
        pyasc_sim::simd::f16_to_f32(d, s, n);  // exact: every mode gives the same value
    } else if constexpr (std::is_same<T, bfloat16_t>::value && std::is_same<U, float>::value) {
        pyasc_sim::simd::map1(d, s, n, [](float a) { return bfloat16_t::from_bits(bfloat16_t::from_float(a)); });
    } else if constexpr (std::is_same<T, float>::value && std::is_same<U, bfloat16_t>::value) {
        pyasc_sim::simd::map1(d, s, n, [](bfloat16_t a) { return static_cast<float>(a); });  // exact
    } else if constexpr (kFastInt<T> && std::is_same<U, float>::value) {
        switch (m) {
            case RoundMode::CAST_FLOOR: return float_to_int(d, s, n, [](float x) { return std::floor(x); });
            case RoundMode::CAST_CEIL: return float_to_int(d, s, n, [](float x) { return std::ceil(x); });
            case RoundMode::CAST_ROUND: return float_to_int(d, s, n, [](float x) { return std::round(x); });
            case RoundMode::CAST_TRUNC: return float_to_int(d, s, n, [](float x) { return std::trunc(x); });
            default: return float_to_int(d, s, n, [](float x) { return std::nearbyint(x); });  // ties to even
        }
    } else if constexpr (!std::is_same<T, U>::value && (std::is_same<U, int16_t>::value || std::is_same<U, int32_t>::value)) {
        // int32 -> float (to nearest: the one rounding of the exact value), int16 -> float, int32 -> int64
        pyasc_sim::simd::map1(d, s, n, [](U a) { return static_cast<T>(a); });
    } else {
        (void)d, (void)s, (void)n;
    }
    (void)m;
}

}  // namespace sim_detail

template <typename T, typename U>
inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &round_mode,
                 const uint32_t count, PYASC_SIM_LOC) {
    if constexpr (sim_detail::is_packed4<T>::value || sim_detail::is_packed4<U>::value) {
        sim_int4_cast(dst, src, round_mode, count, loc);  // packed int4b_t: kapi/int4.h (found by ADL)
    } else {
        PYASC_SIM_CAST_CHECK(T, U);
        PYASC_SIM_CAST_RUN_CHECK(T, U, round_mode, loc);
        if (sim_detail::has_cast_fast<T, U>(round_mode) && !pyasc_sim::simd::overlap(dst.ptr(), count, src.ptr(), count)) {
            pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
            PYASC_SIM_VTAINT_CHECKED(b,
                                     sim_detail::check_operand(b, dst, "Cast", "dst", count, loc);
                                     sim_detail::check_operand(b, src, "Cast", "src", count, loc);,
                                     sim_detail::vtaint_count(b, dst, src, count));
            sim_detail::cast_fast(dst.ptr(), src.ptr(), count, round_mode);
            pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(
                                                                 sim_detail::repeats_of(count, std::max(sizeof(T), sizeof(U))), 1.0));
            return;
        }
        sim_detail::unary_count("Cast", dst, src, count, 1.0, loc, sim_detail::cast_fn<T, U>(round_mode, loc));
    }
}
namespace sim_detail {
// Cast's repeat forms, bit-mask array or element-count mask alike (mask_of takes either)
template <bool isSetMask, typename T, typename U, typename Mask>
inline void cast_repeat(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode m, const Mask &mask,
                        const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams, const SrcLoc &loc) {
    if constexpr (is_packed4<T>::value || is_packed4<U>::value) {
        // packed int4b_t: kapi/int4.h (found by ADL); half <-> int4b_t only, checked there
        sim_int4_cast_repeat(dst, src, m, mask_of<isSetMask>(mask, 128, "Cast", loc), repeatTimes, repeatParams, loc);
    } else {
        PYASC_SIM_CAST_CHECK(T, U);
        PYASC_SIM_CAST_RUN_CHECK(T, U, m, loc);
        unary_repeat("Cast", dst, src, mask_of<isSetMask>(mask, 256 / std::max(sizeof(T), sizeof(U)), "Cast", loc),
                     repeatTimes, repeatParams, 1.0, loc, cast_fn<T, U>(m, loc));
    }
}
}  // namespace sim_detail
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &round_mode,
                 const uint64_t mask[], const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams,
                 PYASC_SIM_LOC) {
    sim_detail::cast_repeat<isSetMask>(dst, src, round_mode, mask, repeatTimes, repeatParams, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Cast(const LocalTensor<T> &dst, const LocalTensor<U> &src, const RoundMode &round_mode,
                 const uint64_t mask, const uint8_t repeatTimes, const UnaryRepeatParams &repeatParams,
                 PYASC_SIM_LOC) {
    sim_detail::cast_repeat<isSetMask>(dst, src, round_mode, mask, repeatTimes, repeatParams, loc);
}

// ---- Compare: one result bit per element (bit i of byte i / 8, LSB first) -------------------------
namespace sim_detail {
template <typename T>
inline bool compare(T a, T b, CMPMODE m) {
    switch (m) {
        case CMPMODE::LT: return a < b;
        case CMPMODE::GT: return a > b;
        case CMPMODE::EQ: return a == b;
        case CMPMODE::LE: return a <= b;
        case CMPMODE::GE: return a >= b;
        case CMPMODE::NE: return a != b;
    }
    return false;
}
inline void set_bit(uint8_t *bits, uint64_t i, bool v) {
    if (v) {
        bits[i >> 3] = static_cast<uint8_t>(bits[i >> 3] | (1u << (i & 7)));
    } else {
        bits[i >> 3] = static_cast<uint8_t>(bits[i >> 3] & ~(1u << (i & 7)));
    }
}
inline bool get_bit(const uint8_t *bits, uint64_t i) { return ((bits[i >> 3] >> (i & 7)) & 1u) != 0; }

inline const char *cmpmode_name(CMPMODE m) {
    switch (m) {
        case CMPMODE::LT: return "LT";
        case CMPMODE::GT: return "GT";
        case CMPMODE::EQ: return "EQ";
        case CMPMODE::LE: return "LE";
        case CMPMODE::GE: return "GE";
        case CMPMODE::NE: return "NE";
    }
    return "?";
}

// On Atlas A2 the Compare page lists int32_t for EQ and NE only, the Compares page (CompareScalar's
// too) for EQ only (asc-devkit Compare.md / Compares.md, 数据类型: "int32_t（只支持CMPMODE::EQ）");
// dtype_tables.h lists int32_t for the type check, the mode is a run-time argument: an unlisted mode
// on int32_t is reported like an unlisted type.
template <typename T>
inline void check_compare_mode(CMPMODE m, const char *api, const SrcLoc &loc, bool ne_listed = true) {
#if __CCE_AICORE__ == 220 && !defined(PYASC_SIM_NO_DTYPE_TABLES)
    if (std::is_same<T, int32_t>::value && m != CMPMODE::EQ && (m != CMPMODE::NE || !ne_listed) &&
        pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "%s with int32_t takes %s only on " PYASC_SIM_DT_SOC
                              " (mode CMPMODE::%s): Cast the int32 operand(s) to float and compare there (exact for "
                              "the sign of a - b, or for |x| < 2^24)",
                              api, ne_listed ? "CMPMODE::EQ or CMPMODE::NE" : "CMPMODE::EQ", cmpmode_name(m));
    }
#else
    (void)m, (void)api, (void)loc, (void)ne_listed;
#endif
}

// The count form processes whole 256-byte repeats (documented).
template <typename T>
inline void check_compare_count(uint32_t count, const char *api, const SrcLoc &loc) {
    if ((static_cast<uint64_t>(count) * sizeof(T)) % 256 != 0 && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("compare-count", loc,
                              "%s: count %u x %zu bytes = %llu bytes is not a multiple of 256 bytes (one repeat); the "
                              "count form of %s needs whole repeats",
                              api, count, sizeof(T), static_cast<unsigned long long>(count * sizeof(T)), api);
    }
}
}  // namespace sim_detail

template <typename T, typename U>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
                    uint32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Compare, T);
    sim_detail::check_compare_mode<T>(cmpMode, "Compare", loc);
    sim_detail::check_compare_count<T>(count, "Compare", loc);
    sim_detail::check_operand(src0, "Compare", "src0", count, loc);
    sim_detail::check_operand(src1, "Compare", "src1", count, loc);
    dst.check_aligned("Compare", "dst", loc);
    dst.check_bytes(0, (count + 7) / 8, "Compare writes", loc);
    uint8_t *bits = reinterpret_cast<uint8_t *>(dst.ptr());
    for (uint32_t i = 0; i < count; ++i) sim_detail::set_bit(bits, i, sim_detail::compare(src0.ptr()[i], src1.ptr()[i], cmpMode));
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(count, sizeof(T))));
}
// Repeat form: repeat r writes its 256 / sizeof(T) result bits to bytes [r * E / 8, (r + 1) * E / 8)
// of dst (masked-off elements give 0).
template <typename T, typename U, bool isSetMask = true>
inline void Compare(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const LocalTensor<T> &src1, CMPMODE cmpMode,
                    const uint64_t mask, uint8_t repeatTimes, const BinaryRepeatParams &p, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Compare, T);
    sim_detail::check_compare_mode<T>(cmpMode, "Compare", loc);
    constexpr uint32_t epr = 256 / sizeof(T);
    const sim_detail::Mask m = sim_detail::mask_of<isSetMask>(mask, epr, "Compare", loc);
    const sim_detail::Opnd o0{p.src0BlkStride, p.src0RepStride, 32 / sizeof(T)},
        o1{p.src1BlkStride, p.src1RepStride, 32 / sizeof(T)};
    sim_detail::check_operand(src0, "Compare", "src0", o0, repeatTimes, m, loc);
    sim_detail::check_operand(src1, "Compare", "src1", o1, repeatTimes, m, loc);
    dst.check_aligned("Compare", "dst", loc);
    dst.check_bytes(0, static_cast<int64_t>(repeatTimes) * epr / 8, "Compare writes", loc);
    uint8_t *bits = reinterpret_cast<uint8_t *>(dst.ptr());
    for (uint32_t r = 0; r < repeatTimes; ++r) {
        for (uint32_t i = 0; i < epr; ++i) {
            const bool v = m.test(i) && sim_detail::compare(src0.ptr()[o0.off(r, i)], src1.ptr()[o1.off(r, i)], cmpMode);
            sim_detail::set_bit(bits, static_cast<uint64_t>(r) * epr + i, v);
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeatTimes));
}
template <typename T, typename U>
inline void Compares(const LocalTensor<U> &dst, const LocalTensor<T> &src0, const pyasc_sim::kapi::ident_t<T> src1Scalar,
                     CMPMODE cmpMode, uint32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Compares, T);
    sim_detail::check_compare_mode<T>(cmpMode, "Compares", loc, false);
    sim_detail::check_compare_count<T>(count, "Compares", loc);
    sim_detail::check_operand(src0, "Compares", "src0", count, loc);
    dst.check_aligned("Compares", "dst", loc);
    dst.check_bytes(0, (count + 7) / 8, "Compares writes", loc);
    uint8_t *bits = reinterpret_cast<uint8_t *>(dst.ptr());
    const T s = src1Scalar;
    for (uint32_t i = 0; i < count; ++i) sim_detail::set_bit(bits, i, sim_detail::compare(src0.ptr()[i], s, cmpMode));
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(count, sizeof(T))));
}

// ---- Select: dst[i] = bit i of selMask ? src0[i] : src1[i] (or the scalar) -------------------------
// VSEL_CMPMASK_SPR (mode 0) reuses the first 256 / sizeof(T) bits for every repeat; modes 1
// and 2 consume the bits continuously.
namespace sim_detail {
template <typename T, typename U, typename Src1>
inline void select_count(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                         Src1 src1, SELMODE mode, uint32_t count, const SrcLoc &loc) {
    constexpr uint32_t epr = 256 / sizeof(T);
    check_operand(dst, "Select", "dst", count, loc);
    check_operand(src0, "Select", "src0", count, loc);
    selMask.check_aligned("Select", "selMask", loc);
    selMask.check_bytes(0, mode == SELMODE::VSEL_CMPMASK_SPR ? std::min<uint32_t>(count, epr) / 8 : (count + 7) / 8,
                        "Select reads", loc);
    const uint8_t *bits = reinterpret_cast<const uint8_t *>(selMask.ptr());
    for (uint32_t i = 0; i < count; ++i) {
        const uint32_t bit = mode == SELMODE::VSEL_CMPMASK_SPR ? i % epr : i;
        dst.ptr()[i] = get_bit(bits, bit) ? src0.ptr()[i] : src1(i);
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats_of(count, sizeof(T))));
}
template <typename T, typename U, typename Src1>
inline void select_repeat(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                          Src1 src1, int64_t src1_extent, const sim_detail::Opnd &o1, SELMODE mode, const Mask &m,
                          uint8_t repeats, const BinaryRepeatParams &p, const SrcLoc &loc) {
    constexpr uint32_t epr = 256 / sizeof(T);
    const Opnd od{p.dstBlkStride, p.dstRepStride, 32 / sizeof(T)}, o0{p.src0BlkStride, p.src0RepStride, 32 / sizeof(T)};
    check_operand(dst, "Select", "dst", od.extent(repeats, m), loc);
    check_operand(src0, "Select", "src0", o0, repeats, m, loc);
    (void)src1_extent;
    selMask.check_aligned("Select", "selMask", loc);
    selMask.check_bytes(0, mode == SELMODE::VSEL_CMPMASK_SPR ? epr / 8 : static_cast<int64_t>(repeats) * epr / 8,
                        "Select reads", loc);
    const uint8_t *bits = reinterpret_cast<const uint8_t *>(selMask.ptr());
    for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) {
        const uint64_t bit = mode == SELMODE::VSEL_CMPMASK_SPR ? i : static_cast<uint64_t>(r) * epr + i;
        dst.ptr()[od.off(r, i)] = get_bit(bits, bit) ? src0.ptr()[o0.off(r, i)] : src1(o1.off(r, i));
    });
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats));
}
}  // namespace sim_detail

template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   const LocalTensor<T> &src1, SELMODE selMode, uint32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Select, T);
    sim_detail::check_operand(src1, "Select", "src1", count, loc);
    const T *s1 = src1.ptr();
    sim_detail::select_count(dst, selMask, src0, [s1](int64_t i) { return s1[i]; }, selMode, count, loc);
}
template <typename T, typename U>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   const pyasc_sim::kapi::ident_t<T> src1, SELMODE selMode, uint32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Select, T);
    const T s = src1;
    sim_detail::select_count(dst, selMask, src0, [s](int64_t) { return s; }, selMode, count, loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   const LocalTensor<T> &src1, SELMODE selMode, uint64_t mask, uint8_t repeatTimes,
                   const BinaryRepeatParams &p, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Select, T);
    const sim_detail::Mask m = sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), "Select", loc);
    const sim_detail::Opnd o1{p.src1BlkStride, p.src1RepStride, 32 / sizeof(T)};
    sim_detail::check_operand(src1, "Select", "src1", o1, repeatTimes, m, loc);
    const T *s1 = src1.ptr();
    sim_detail::select_repeat(dst, selMask, src0, [s1](int64_t i) { return s1[i]; }, 0, o1, selMode, m, repeatTimes, p,
                              loc);
}
template <typename T, typename U, bool isSetMask = true>
inline void Select(const LocalTensor<T> &dst, const LocalTensor<U> &selMask, const LocalTensor<T> &src0,
                   const pyasc_sim::kapi::ident_t<T> src1, SELMODE selMode, uint64_t mask, uint8_t repeatTimes,
                   const BinaryRepeatParams &p, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Select, T);
    const sim_detail::Mask m = sim_detail::mask_of<isSetMask>(mask, 256 / sizeof(T), "Select", loc);
    const T s = src1;
    sim_detail::select_repeat(dst, selMask, src0, [s](int64_t) { return s; }, 0, sim_detail::Opnd{0, 0, 1}, selMode, m,
                              repeatTimes, p, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_VECTOR_H_
