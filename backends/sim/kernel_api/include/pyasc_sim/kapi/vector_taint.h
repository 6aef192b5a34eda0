// Ascend C on the CPU -- the initcheck of elementwise vector instructions as taint (`local-uninit-read`).
//
// Epilogues read whole UB tiles of which a tail tile wrote only its real rows / columns, compute
// on every lane, and store only the lanes that were written: hardware gives the right result,
// because the garbage lanes never reach GM.  So an elementwise vector instruction (each
// destination lane computed from the same lane of its sources: the count and repeat forms of
// the unary / binary engines, the three-operand forms that also read their destination
// (MulAddDst, FusedMulAdd(Relu), Axpy: dst is a source too), Cast, Brcb's broadcast of one
// source lane per block) carries
// "never written" instead of reporting it: where the old check would report a source (its first
// 32-byte sector, or a whole 256-byte repeat of the read, never written), the instruction runs,
// and every destination lane computed from a never-written source sector is marked unwritten
// again (whole destination sectors only: a sector holding one lane of written data counts as
// written, as partly filled sectors always did).  The error is raised where such a lane matters:
// a DMA out of UB (DataCopy / DataCopyPad to GM or L1 read every sector they move), a scalar
// read (GetValue), and every instruction not listed above (reductions, Compare / Select,
// Gather, the sorts, local -> local DataCopy, ...), which still need their sources written as
// before.  This holds also for a source of which no sector was written: Catlass epilogues split a
// tile into column slices, and a slice past the real columns reads only never-written data (a row
// broadcast of scales copied in for the real columns only).  The taint is computed only when the
// old check would have reported (no cost on a clean read); reads the old check passed (a partly
// filled repeat read whole) still mark the whole destination written.
#ifndef PYASC_SIM_KAPI_VECTOR_TAINT_H_
#define PYASC_SIM_KAPI_VECTOR_TAINT_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"

namespace AscendC {
namespace sim_detail {

// Marks the block's operand checks as those of an elementwise instruction while it lives (a
// source with a never-written repeat sets BlockState::vtaint_hit instead of reporting).
class VecTaintScope {
public:
    explicit VecTaintScope(pyasc_sim::kapi::BlockState &b) : b_(b) {
        b_.vtaint_on = true;
        b_.vtaint_hit = false;
    }
    ~VecTaintScope() { b_.vtaint_on = false; }
    VecTaintScope(const VecTaintScope &) = delete;
    VecTaintScope &operator=(const VecTaintScope &) = delete;

private:
    pyasc_sim::kapi::BlockState &b_;
};

// The operand checks of an elementwise instruction, in one place: CHECKS (its check_operand calls, as
// statements) run under a VecTaintScope of block state b, then, when a source had a never-written repeat
// (vtaint_hit), the statements after them (a vtaint_count / vtaint_apply call) mark the destination lanes
// computed from it unwritten again.  A macro, not a function taking lambdas: the statements are compiled in
// place exactly as the scope written out at each instruction was (GCC 12 inlined the lambda form into a
// kernel differently: +8.6% instructions in a queued Adds / Mul / Cast loop, callgrind).
#define PYASC_SIM_VTAINT_CHECKED(b, CHECKS, ...)             \
    do {                                                     \
        {                                                    \
            ::AscendC::sim_detail::VecTaintScope vts_(b);    \
            CHECKS                                           \
        }                                                    \
        if ((b).vtaint_hit) {                                \
            __VA_ARGS__;                                     \
        }                                                    \
    } while (0)

// Whether element `index` of src lies in a 32-byte sector no instruction wrote.
template <typename S>
inline bool vtaint_src(const pyasc_sim::kapi::BlockState &b, const LocalTensor<S> &src, uint64_t srcBase, int64_t index) {
    return !pyasc_sim::kapi::local_sector_written(b, src.kind(), srcBase + static_cast<uint64_t>(index) * sizeof(S));
}

// After an elementwise instruction's operand checks noted a never-written source (vtaint_hit):
// each(emit) calls emit(dstIndex, tainted) for every destination element the instruction writes,
// in order, tainted when a source sector it is computed from was never written.  The destination
// (pending: marked written after the sources were checked) is marked written, then the whole
// sectors of the tainted lanes unwritten again.
template <typename D, typename Each>
inline void vtaint_apply(pyasc_sim::kapi::BlockState &b, const LocalTensor<D> &dst, Each each) {
    b.vtaint_hit = false;
    std::vector<std::pair<uint64_t, uint64_t>> runs;  // tainted destination byte ranges, adjacent lanes merged
    const uint64_t base = dst.mem_offset(b);
    each([&](int64_t dstIndex, bool tainted) {
        if (!tainted) return;
        const uint64_t lo = base + static_cast<uint64_t>(dstIndex) * sizeof(D), hi = lo + sizeof(D);
        if (!runs.empty() && runs.back().second == lo) {
            runs.back().second = hi;
        } else {
            runs.emplace_back(lo, hi);
        }
    });
    pyasc_sim::kapi::local_flush_pending(b);
    for (const auto &r : runs) pyasc_sim::kapi::local_mark_unwritten(b, dst.kind(), r.first, r.second - r.first);
}

// The count forms: destination element i from element i of each source.
template <typename D, typename S0>
inline void vtaint_count(pyasc_sim::kapi::BlockState &b, const LocalTensor<D> &dst, const LocalTensor<S0> &s0,
                         int64_t count) {
    const uint64_t a0 = s0.mem_offset(b);
    vtaint_apply(b, dst, [&](auto emit) {
        for (int64_t i = 0; i < count; ++i) emit(i, vtaint_src(b, s0, a0, i));
    });
}
template <typename D, typename S0, typename S1>
inline void vtaint_count(pyasc_sim::kapi::BlockState &b, const LocalTensor<D> &dst, const LocalTensor<S0> &s0,
                         const LocalTensor<S1> &s1, int64_t count) {
    const uint64_t a0 = s0.mem_offset(b), a1 = s1.mem_offset(b);
    vtaint_apply(b, dst, [&](auto emit) {
        for (int64_t i = 0; i < count; ++i) emit(i, vtaint_src(b, s0, a0, i) || vtaint_src(b, s1, a1, i));
    });
}

template <typename D, typename S0, typename S1, typename S2>
inline void vtaint_count(pyasc_sim::kapi::BlockState &b, const LocalTensor<D> &dst, const LocalTensor<S0> &s0,
                         const LocalTensor<S1> &s1, const LocalTensor<S2> &s2, int64_t count) {
    const uint64_t a0 = s0.mem_offset(b), a1 = s1.mem_offset(b), a2 = s2.mem_offset(b);
    vtaint_apply(b, dst, [&](auto emit) {
        for (int64_t i = 0; i < count; ++i) {
            emit(i, vtaint_src(b, s0, a0, i) || vtaint_src(b, s1, a1, i) || vtaint_src(b, s2, a2, i));
        }
    });
}

}  // namespace sim_detail
}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_VECTOR_TAINT_H_
