// Ascend C on the CPU -- region-proposal sorting of the Atlas inference series AI Core: RpSort16 (sort
// 16 proposals per repeat), MrgSort4 (merge up to four sorted proposal lists), and GetMrgSortResult
// (the merge-count register, also written by MrgSort on Atlas A2).  Written from the public Ascend C
// API reference (asc-devkit docs/api/SIMD-API/基础API/Memory矢量计算/排序组合（ISASI）/RpSort16.md,
// MrgSort4.md, GetMrgSortResult.md; ascendcopapi atlasascendc_api_07_0233.html); no CANN file was used.
//
// A region proposal is 8 elements of T, [x1, y1, x2, y2, score, label, reserved, reserved] (16 bytes of
// half, 32 of float; ProposalConcat / ProposalExtract in sort.h fill and read its fields).  Both sorts
// order by score, largest first; equal scores keep the lower position (the lower-numbered list in a
// merge) first, as the constraint "proposal[j] is selected first when i > j" says.  Whole proposals move.
#ifndef PYASC_SIM_KAPI_PROPOSAL_SORT_H_
#define PYASC_SIM_KAPI_PROPOSAL_SORT_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/mrg_sort_spr.h"
#include "pyasc_sim/kapi/sort.h"
#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"

// Element types (pages RpSort16 / MrgSort4, row T): Atlas inference series AI Core half/float; the
// product tables mark Atlas A2 x.
#if __CCE_AICORE__ == 200
#define PYASC_SIM_DT_RpSort16 half, float  // source: asc-devkit RpSort16.md (row T, Atlas 推理系列产品AI Core)
#define PYASC_SIM_DT_MrgSort4 half, float  // source: asc-devkit MrgSort4.md (row T, Atlas 推理系列产品AI Core)
#elif __CCE_AICORE__ == 220
#define PYASC_SIM_DT_RpSort16 ::pyasc_sim::kapi::dtypes::not_on_this_soc  // source: asc-devkit RpSort16.md (A2: 不支持)
#define PYASC_SIM_DT_MrgSort4 ::pyasc_sim::kapi::dtypes::not_on_this_soc  // source: asc-devkit MrgSort4.md (A2: 不支持)
#else
#define PYASC_SIM_DT_RpSort16 PYASC_SIM_DT_UNCHECKED
#define PYASC_SIM_DT_MrgSort4 PYASC_SIM_DT_UNCHECKED
#endif

namespace AscendC {
namespace sim_detail {

struct Proposal {
    uint8_t bytes[32];  // 8 elements of T (16 or 32 bytes used)
    double score;
};

template <typename T>
inline Proposal proposal_get(const LocalTensor<T> &t, uint64_t i) {
    Proposal p{};
    const T *e = t.ptr() + i * 8;
    std::memcpy(p.bytes, e, 8 * sizeof(T));
    p.score = pyasc_sim::kapi::to_double(e[4]);
    return p;
}
template <typename T>
inline void proposal_put(const LocalTensor<T> &t, uint64_t i, const Proposal &p) {
    std::memcpy(t.ptr() + i * 8, p.bytes, 8 * sizeof(T));
}

template <typename T>
inline void check_proposal_type() {
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                  "AscendC::RpSort16 / MrgSort4 sort region proposals of half or float");
}

}  // namespace sim_detail

// ---- RpSort16: repeat r sorts proposals [16 r, 16 r + 16) of src into the same places of dst --------
template <typename T>
inline void RpSort16(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(RpSort16, T);
    sim_detail::check_proposal_type<T>();
    sim_detail::check_repeat(repeatTime, "RpSort16", loc);
    if (repeatTime <= 0) return;
    const uint64_t n = 16u * static_cast<uint64_t>(repeatTime);
    src.check_aligned("RpSort16", "src", loc);
    dst.check_aligned("RpSort16", "dst", loc);
    src.check_read_span(0, static_cast<int64_t>(n * 8), "RpSort16", loc);  // bounds + pipe race: unfilled fields may move
    dst.check_vec_dst(0, static_cast<int64_t>(n * 8), "RpSort16", loc);
    std::vector<sim_detail::Proposal> v(n);
    for (uint64_t i = 0; i < n; ++i) v[i] = sim_detail::proposal_get(src, i);
    for (int32_t r = 0; r < repeatTime; ++r) {
        std::stable_sort(v.begin() + 16 * r, v.begin() + 16 * (r + 1),
                         [](const sim_detail::Proposal &a, const sim_detail::Proposal &b) { return a.score > b.score; });
    }
    for (uint64_t i = 0; i < n; ++i) sim_detail::proposal_put(dst, i, v[i]);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeatTime, 4.0));
}

namespace sim_detail {
// One merge of 2-4 sorted proposal lists into dst; returns the proposals written.
template <typename T>
inline uint64_t merge_proposals(const LocalTensor<T> &dst, const LocalTensor<T> *lists, const uint16_t *lengths,
                                int nl, bool suspend, const pyasc_sim::kapi::SrcLoc &loc) {
    const bool checks = pyasc_sim::kapi::blk().checks;
    uint64_t total = 0;
    for (int l = 0; l < nl; ++l) total += lengths[l];
    const uint8_t *d0 = reinterpret_cast<const uint8_t *>(dst.ptr());
    const uint8_t *d1 = d0 + total * 8 * sizeof(T);
    for (int l = 0; l < nl; ++l) {
        lists[l].check_aligned("MrgSort4", "src", loc, 8 * sizeof(T));
        lists[l].check_read_span(0, static_cast<int64_t>(lengths[l]) * 8, "MrgSort4", loc);
        const uint8_t *s0 = reinterpret_cast<const uint8_t *>(lists[l].ptr());
        const uint8_t *s1 = s0 + static_cast<uint64_t>(lengths[l]) * 8 * sizeof(T);
        if (checks && lengths[l] > 0 && total > 0 && s0 < d1 && d0 < s1) {
            pyasc_sim::kapi::fail("vector-overlap", loc,
                                  "MrgSort4: list %d (%u proposals) overlaps dst (%llu proposals); the reference "
                                  "does not allow source and destination to overlap: merge into another buffer",
                                  l + 1, static_cast<unsigned>(lengths[l]), static_cast<unsigned long long>(total));
        }
    }
    dst.check_aligned("MrgSort4", "dst", loc, 8 * sizeof(T));
    std::vector<Proposal> out;
    out.reserve(total);
    uint32_t pos[4] = {0, 0, 0, 0};
    for (;;) {
        int best = -1;
        Proposal bp{};
        bool exhausted = false;
        for (int l = 0; l < nl; ++l) {
            if (pos[l] >= lengths[l]) {
                exhausted = true;
                continue;
            }
            const T *e = lists[l].ptr() + static_cast<uint64_t>(pos[l]) * 8;
            const double s = pyasc_sim::kapi::to_double(e[4]);
            if (best < 0 || s > bp.score) {  // ties: the lower-numbered list first
                best = l;
                bp = proposal_get(lists[l], pos[l]);
            }
        }
        if (best < 0 || (suspend && exhausted)) break;
        out.push_back(bp);
        ++pos[best];
    }
    dst.check_vec_dst(0, static_cast<int64_t>(out.size()) * 8, "MrgSort4", loc);
    for (size_t i = 0; i < out.size(); ++i) proposal_put(dst, i, out[i]);
    mrg_sort_spr_set(pos, nl);
    return out.size();
}
}  // namespace sim_detail

// ---- MrgSort4: merges 2-4 sorted proposal lists (validBit 3 / 7 / 15) -------------------------------
// repeatTimes > 1 needs four equal lists stored back to back, validBit 15 and no exhausted suspension
// (the reference's conditions; anything else is reported); each repeat moves every operand on by the
// four lists' total length.
template <typename T>
inline void MrgSort4(const LocalTensor<T> &dst, const MrgSortSrcList<T> &src, const MrgSort4Info &params,
                     PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(MrgSort4, T);
    sim_detail::check_proposal_type<T>();
    const bool checks = pyasc_sim::kapi::blk().checks;
    int nl = 0;
    if (params.validBit == 3) nl = 2;
    else if (params.validBit == 7) nl = 3;
    else if (params.validBit == 15) nl = 4;
    else if (checks) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "MrgSort4: validBit %u is not one of the documented values 3 (two lists), 7 (three), "
                              "15 (four)", static_cast<unsigned>(params.validBit));
    } else {
        nl = 2;
    }
    const LocalTensor<T> lists[4] = {src.src1, src.src2, src.src3, src.src4};
    const uint32_t reps = params.repeatTimes == 0 ? 1 : params.repeatTimes;
    if (reps > 1) {
        const uint16_t *len = params.elementLengths;
        const uint64_t l0 = static_cast<uint64_t>(len[0]) * 8;
        const bool contiguous = lists[1].ptr() == lists[0].ptr() + l0 && lists[2].ptr() == lists[1].ptr() + l0 &&
                                lists[3].ptr() == lists[2].ptr() + l0;
        if (checks && (nl != 4 || params.ifExhaustedSuspension || len[1] != len[0] || len[2] != len[0] ||
                       len[3] != len[0] || !contiguous || reps > 255)) {
            pyasc_sim::kapi::fail("unsupported", loc,
                                  "MrgSort4: repeatTimes %u > 1 needs four lists of equal length stored back to back, "
                                  "validBit 15 and ifExhaustedSuspension false (the reference's conditions), and at "
                                  "most 255 repeats", reps);
        }
    }
    const uint64_t step = 4ull * params.elementLengths[0] * 8;  // elements of T per repeat
    uint64_t written = 0;
    for (uint32_t r = 0; r < reps; ++r) {
        LocalTensor<T> shifted[4];
        for (int i = 0; i < 4; ++i) shifted[i] = r == 0 ? lists[i] : lists[i][static_cast<uint32_t>(r * step)];
        written += sim_detail::merge_proposals(r == 0 ? dst : dst[static_cast<uint32_t>(r * step)], shifted,
                                               params.elementLengths, nl, params.ifExhaustedSuspension, loc);
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(static_cast<double>(written) * 8 * sizeof(T) / 256 + 1, 2.0));
}

// ---- GetMrgSortResult: the entries each list gave to the last MrgSort4 (inference series) / MrgSort
// (Atlas A2); meaningful after a merge with exhausted suspension, where it tells how far each list got.
inline void GetMrgSortResult(uint16_t &mrgSortList1, uint16_t &mrgSortList2, uint16_t &mrgSortList3,
                             uint16_t &mrgSortList4) {
    const sim_detail::MrgSortSpr &s = sim_detail::mrg_sort_spr();
    mrgSortList1 = s.taken[0];
    mrgSortList2 = s.taken[1];
    mrgSortList3 = s.taken[2];
    mrgSortList4 = s.taken[3];
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeS, 1.0);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_PROPOSAL_SORT_H_
