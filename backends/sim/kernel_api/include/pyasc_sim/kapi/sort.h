// Ascend C on the CPU -- the sorting family: Sort32, Sort (isFullSort), MrgSort (both prototypes),
// Concat, Extract, GetSortLen / GetSortOffset, ProposalConcat / ProposalExtract, and the TopK
// high-level API.  Written from the public Ascend C API reference (no CANN code).
//
// Layout (Atlas A2 / 910B, "layout mode 1"): a sorted element is an 8-byte (score, index) struct:
// float: score in bytes [0, 4), uint32 index in [4, 8); half: score in [0, 2), [2, 4) reserved (the
// simulator writes 0), index in [4, 8).  Order: descending score; equal scores keep their input
// order (the lower position first), as the reference's constraint says.  Region proposals
// (ProposalConcat / ProposalExtract: 8 elements [x1, y1, x2, y2, score, label, r0, r1]) are
// the Atlas inference layout ("mode 2"); the simulator's Sort/MrgSort always use mode 1.
#ifndef PYASC_SIM_KAPI_SORT_H_
#define PYASC_SIM_KAPI_SORT_H_

#include <algorithm>
#include <cstring>
#include <vector>

#include "pyasc_sim/kapi/vector.h"
#include "pyasc_sim/kapi/mrg_sort_spr.h"

// ---- The TopK implementation's constants: global, in an unnamed namespace, as the SDK declares them ------------
// The SDK's TopK implementation header (asc-devkit impl/adv_api/detail/sort/topk/topk_common_utils.h) declares these
// names in an unnamed namespace at global scope for __NPU_ARCH__ 2002 / 2201 / 3510 (and other families), and
// kernel_operator.h reaches it whatever the kernel uses: kernel_operator_intf.h -> adv_api/kernel_api.h (and, on
// 2201, adv_api/sort/topk.h directly) -> sort/topk.h -> topk_common_utils.h. Public kernels use them unqualified
// (Ascend/DrivingSDK subm_sparse_conv3d_v2: `halfk0_ = k0_ / TWO`); a kernel that declares its own `TWO` in its
// unnamed namespace (a redefinition) or at global scope (then ambiguous where used) stops with CANN too. Not in the
// API reference: hidden in documented-only mode. COMPAT.md "Round 31 (s31a)".
#if !PYASC_SIM_DOCUMENTED_ONLY && defined(__NPU_ARCH__) && \
    (__NPU_ARCH__ == 2002 || __NPU_ARCH__ == 2201 || __NPU_ARCH__ == 3510)
namespace {
constexpr uint16_t MIN_SORT32_SIZE = 32;
constexpr uint16_t MIN_RPSORT16_SIZE = 16;
constexpr uint32_t BUF_LIST_SIZE = 2;
constexpr uint32_t MRG_MAX_ARRAY_SIZE = 15;
constexpr uint32_t MRGSORT_VALID_QUEUE = 4;
constexpr uint32_t MRGSORT_VALID_TWO = 2;
constexpr uint32_t MRGSORT_VALID_TWO_OFFSET = 769;
constexpr uint32_t TWO = 2;
constexpr uint32_t THREE = 3;
constexpr uint32_t FOUR = 4;
constexpr uint32_t FIVE = 5;
constexpr uint32_t SIX = 6;
constexpr uint32_t SEVEN = 7;
constexpr uint32_t EIGHT = 8;
constexpr uint32_t NINE = 9;
constexpr uint32_t TWELVE = 12;
constexpr uint32_t SIXTEEN = 16;
constexpr uint32_t THIRTY_TWO = 32;
constexpr uint32_t FORTYEIGHT = 48;
constexpr uint32_t VREDUCEV2_HALF_MASK = 128;
constexpr uint32_t VREDUCEV2_FOUR_BYTE_MASK = 64;
constexpr uint32_t SRC1_STACK_TENSORSIZE = 10;
constexpr uint32_t SRC1_STACK_VAL_OFFSET = 16;
constexpr uint32_t TOPK_INNER_ALIGN_LEN = 32;
constexpr uint32_t TOPK_NORMAL_INNER_MAX_HALF_LEN = 2048;
constexpr uint32_t TOPK_NSMALL_INNER_LEN = 32;
constexpr uint32_t TOPK_NORMAL_INNER_MAX_LEN = 4096;
}  // namespace
#endif

// ---- TopK's tiling struct: global, as in the SDK's kernel_tiling/kernel_tiling.h -------------------
// The documented fields in the documented order (34 words); the simulator computes TopK from
// TopKInfo and reads none of them.  The last 11 documented words are kept as one reserved array.
struct TopkTiling {
    int32_t tmpLocalSize = 0;
    int32_t allDataSize = 0;
    int32_t innerDataSize = 0;
    uint32_t sortRepeat = 0;
    int32_t mrgSortRepeat = 0;
    int32_t kAlignFourBytes = 0;
    int32_t kAlignTwoBytes = 0;
    int32_t maskOffset = 0;
    int32_t maskVreducev2FourBytes = 0;
    int32_t maskVreducev2TwoBytes = 0;
    int32_t mrgSortSrc1offset = 0;
    int32_t mrgSortSrc2offset = 0;
    int32_t mrgSortSrc3offset = 0;
    int32_t mrgSortTwoQueueSrc1Offset = 0;
    int32_t mrgFourQueueTailPara1 = 0;
    int32_t mrgFourQueueTailPara2 = 0;
    int32_t srcIndexOffset = 0;
    uint32_t copyUbToUbBlockCount = 0;
    int32_t topkMrgSrc1MaskSizeOffset = 0;
    int32_t topkNSmallSrcIndexOffset = 0;
    uint32_t vreduceValMask0 = 0;
    uint32_t vreduceValMask1 = 0;
    uint32_t vreduceIdxMask0 = 0;
    uint32_t pyascSimReservedTail[11] = {};
};

namespace AscendC {
using ::TopkTiling;

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

// ---- parameter structures ----------------------------------------------------------------------------
template <typename T>
struct MrgSortSrcList {
    MrgSortSrcList() = default;
    MrgSortSrcList(const LocalTensor<T> &src1In, const LocalTensor<T> &src2In, const LocalTensor<T> &src3In = {},
                   const LocalTensor<T> &src4In = {})
        : src1(src1In), src2(src2In), src3(src3In), src4(src4In) {}
    LocalTensor<T> src1;
    LocalTensor<T> src2;
    LocalTensor<T> src3;  // may stay empty when fewer lists are merged
    LocalTensor<T> src4;
};

struct MrgSort4Info {
    MrgSort4Info() = default;
    MrgSort4Info(const uint16_t elementLengthsIn[4], bool ifExhaustedSuspensionIn, uint16_t validBitIn,
                 uint16_t repeatTimesIn)
        : ifExhaustedSuspension(ifExhaustedSuspensionIn), validBit(validBitIn), repeatTimes(repeatTimesIn) {
        for (int i = 0; i < 4; ++i) elementLengths[i] = elementLengthsIn[i];
    }
    uint16_t elementLengths[4] = {0, 0, 0, 0};
    bool ifExhaustedSuspension = false;
    uint16_t validBit = 0;
    uint16_t repeatTimes = 1;
};

enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };
// TopK's algorithm configuration (TopKTilingFunc / TopK pages, Atlas 350 / Ascend 950): algo RADIX_SELECT or
// MERGE_SORT (the default), order UNSET (isLargest decides), LARGEST or SMALLEST (isLargest ignored), sorted: whether
// the k results come out ordered.  The simulator always returns them ordered (best first, equal values by lower
// position), which is one of the orders an unsorted RADIX_SELECT may give.
enum class TopKAlgo { RADIX_SELECT, MERGE_SORT };
enum class TopKOrder { UNSET, LARGEST, SMALLEST };
struct TopKConfig {
    TopKAlgo algo = TopKAlgo::MERGE_SORT;
    TopKOrder order = TopKOrder::UNSET;
    bool sorted = true;
};
// The default configuration, the object a defaulted config template argument refers to (a reference template
// parameter: the kernels pass a static constexpr TopKConfig; C++17 has no class-type template parameters).
inline constexpr TopKConfig kPyascSimDefaultTopKConfig{};

struct TopKInfo {
    int32_t outter = 1;  // rows
    int32_t inner = 1;   // row length in memory (a multiple of 32)
    int32_t n = 1;       // valid elements per row (n <= inner)
};

// Bytes of sorted data for elemCount elements, and the byte offset of element elemOffset in it
// (the reference gives both in bytes: 8 per (score, index) struct).
template <typename T>
inline uint32_t GetSortLen(const uint32_t elemCount) {
    return elemCount * 8u;
}
template <typename T>
inline uint32_t GetSortOffset(const uint32_t elemOffset) {
    return elemOffset * 8u;
}

namespace sim_detail {

struct SortRec {
    double score;
    uint32_t index;
};

template <typename T>
inline void check_sort_type(const char *api, const pyasc_sim::kapi::SrcLoc &loc) {
    (void)api;
    (void)loc;
    static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                  "AscendC sort APIs (Sort, Sort32, MrgSort, Concat, Extract, TopK) take half or float scores");
}

// Reads / writes the 8-byte (score, index) struct i of a sorted tensor.
template <typename T>
inline SortRec sort_get(const LocalTensor<T> &t, uint64_t i) {
    const uint8_t *p = reinterpret_cast<const uint8_t *>(t.ptr()) + i * 8;
    T s;
    uint32_t idx;
    std::memcpy(&s, p, sizeof(T));
    std::memcpy(&idx, p + 4, 4);
    return SortRec{pyasc_sim::kapi::to_double(s), idx};
}
template <typename T>
inline void sort_put(const LocalTensor<T> &t, uint64_t i, const SortRec &r) {
    uint8_t *p = reinterpret_cast<uint8_t *>(t.ptr()) + i * 8;
    const T s = static_cast<T>(r.score);
    std::memset(p, 0, 8);
    std::memcpy(p, &s, sizeof(T));
    std::memcpy(p + 4, &r.index, 4);
}
// Descending by score; ties keep input order (stable sort).
inline void sort_desc(std::vector<SortRec> &v) {
    std::stable_sort(v.begin(), v.end(), [](const SortRec &a, const SortRec &b) { return a.score > b.score; });
}
inline void check_repeat(int32_t repeat, const char *api, const pyasc_sim::kapi::SrcLoc &loc) {
    if (pyasc_sim::kapi::blk().checks && (repeat < 0 || repeat > 255)) {
        pyasc_sim::kapi::fail("vector-count", loc, "%s: repeatTime %d is outside the documented range [0, 255]", api,
                              static_cast<int>(repeat));
    }
}

// Sorts `groups` groups of `per` scores (src) with their indices (index) into dst structs.
template <typename T>
inline void sort_groups(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> &src,
                        const LocalTensor<uint32_t> &index, uint32_t groups, uint32_t per,
                        const pyasc_sim::kapi::SrcLoc &loc) {
    const uint64_t n = static_cast<uint64_t>(groups) * per;
    src.check_aligned(api, "src", loc);
    index.check_aligned(api, "index", loc);
    dst.check_aligned(api, "dst", loc);
    src.check_read(0, static_cast<int64_t>(n), api, loc);
    index.check_read(0, static_cast<int64_t>(n), api, loc);
    dst.check_vec_dst(0, static_cast<int64_t>(n * 8 / sizeof(T)), api, loc);
    std::vector<SortRec> v(n);
    for (uint64_t i = 0; i < n; ++i) v[i] = SortRec{pyasc_sim::kapi::to_double(src.ptr()[i]), index.ptr()[i]};
    for (uint32_t g = 0; g < groups; ++g) {
        std::stable_sort(v.begin() + static_cast<int64_t>(g) * per, v.begin() + static_cast<int64_t>(g + 1) * per,
                         [](const SortRec &a, const SortRec &b) { return a.score > b.score; });
    }
    for (uint64_t i = 0; i < n; ++i) sort_put(dst, i, v[i]);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(static_cast<double>(n) * 8 / 256 + 1, 2.0));
}
}  // namespace sim_detail

// ---- Sort32: each repeat sorts 32 scores with their uint32 indices into 32 (score, index) structs ----
template <typename T>
inline void Sort32(const LocalTensor<T> &dst, const LocalTensor<T> &src0, const LocalTensor<uint32_t> &src1,
                   const int32_t repeatTime, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Sort32, T);
    sim_detail::check_sort_type<T>("Sort32", loc);
    sim_detail::check_repeat(repeatTime, "Sort32", loc);
    sim_detail::sort_groups("Sort32", dst, src0, src1, static_cast<uint32_t>(std::max(repeatTime, 0)), 32, loc);
}

// ---- Sort<T, isFullSort>: repeatTime x 32 scores; full sort orders all of them, else each 32 ------
template <typename T, bool isFullSort>
inline void Sort(const LocalTensor<T> &dst, const LocalTensor<T> &concat, const LocalTensor<uint32_t> &index,
                 LocalTensor<T> &tmp, const int32_t repeatTime, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Sort, T);
    sim_detail::check_sort_type<T>("Sort", loc);
    sim_detail::check_repeat(repeatTime, "Sort", loc);
    (void)tmp;
    const uint32_t r = static_cast<uint32_t>(std::max(repeatTime, 0));
    if (isFullSort) {
        sim_detail::sort_groups("Sort", dst, concat, index, 1, r * 32, loc);
    } else {
        sim_detail::sort_groups("Sort", dst, concat, index, r, 32, loc);
    }
}

// ---- Concat: prepares scores for Sort (mode 1: a copy of repeatTime x 16 elements) ----------------
template <typename T>
inline void Concat(LocalTensor<T> &concat, const LocalTensor<T> &src, const LocalTensor<T> &tmp,
                   const int32_t repeatTime, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Concat, T);
    sim_detail::check_sort_type<T>("Concat", loc);
    sim_detail::check_repeat(repeatTime, "Concat", loc);
    (void)tmp;
    const int64_t n = static_cast<int64_t>(std::max(repeatTime, 0)) * 16;
    sim_detail::check_operand(src, "Concat", "src", n, loc);
    sim_detail::check_operand(concat, "Concat", "dst", n, loc);
    if (concat.ptr() != src.ptr()) std::memmove(concat.ptr(), src.ptr(), static_cast<size_t>(n) * sizeof(T));
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(n, sizeof(T))));
}

// ---- Extract: (score, index) structs -> scores and indices, repeatTime x 32 structs ---------------
template <typename T>
inline void Extract(const LocalTensor<T> &dstValue, const LocalTensor<uint32_t> &dstIndex, const LocalTensor<T> &sorted,
                    const int32_t repeatTime, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(Extract, T);
    sim_detail::check_sort_type<T>("Extract", loc);
    sim_detail::check_repeat(repeatTime, "Extract", loc);
    const int64_t n = static_cast<int64_t>(std::max(repeatTime, 0)) * 32;
    sorted.check_aligned("Extract", "sorted", loc);
    sorted.check_read(0, n * 8 / static_cast<int64_t>(sizeof(T)), "Extract", loc);
    sim_detail::check_operand(dstValue, "Extract", "dstValue", n, loc);
    sim_detail::check_operand(dstIndex, "Extract", "dstIndex", n, loc);
    std::vector<sim_detail::SortRec> v(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) v[i] = sim_detail::sort_get(sorted, static_cast<uint64_t>(i));
    for (int64_t i = 0; i < n; ++i) {
        dstValue.ptr()[i] = static_cast<T>(v[i].score);
        dstIndex.ptr()[i] = v[i].index;
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(static_cast<double>(n) * 8 / 256 + 1));
}

namespace sim_detail {
// Merges up to four sorted lists (validBit: 0b11, 0b111, 0b1111) into dst; with exhausted
// suspension the merge stops when one list runs out.  Returns the structs written.
template <typename T>
inline uint32_t merge_lists(const char *api, const LocalTensor<T> &dst, const LocalTensor<T> *lists,
                            const uint16_t *lengths, uint16_t validBit, bool suspend, uint32_t *taken,
                            const pyasc_sim::kapi::SrcLoc &loc) {
    int nl = 0;
    if (validBit == 0b11) nl = 2;
    else if (validBit == 0b111) nl = 3;
    else if (validBit == 0b1111) nl = 4;
    else if (pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "%s: validBit 0x%x is not one of the documented values 0b11 (2 lists), 0b111 (3), "
                              "0b1111 (4)", api, static_cast<unsigned>(validBit));
    } else {
        nl = 2;
    }
    uint64_t total = 0;
    for (int l = 0; l < nl; ++l) {
        lists[l].check_aligned(api, "sortList", loc, 8);
        lists[l].check_read(0, static_cast<int64_t>(lengths[l]) * 8 / static_cast<int64_t>(sizeof(T)), api, loc);
        total += lengths[l];
    }
    dst.check_aligned(api, "dst", loc);
    std::vector<SortRec> out;
    out.reserve(total);
    uint32_t pos[4] = {0, 0, 0, 0};
    for (;;) {
        int best = -1;
        SortRec br{0, 0};
        bool exhausted = false;
        for (int l = 0; l < nl; ++l) {
            if (pos[l] >= lengths[l]) {
                exhausted = true;
                continue;
            }
            const SortRec r = sort_get(lists[l], pos[l]);
            if (best < 0 || r.score > br.score) {  // ties: the lower-numbered list first
                best = l;
                br = r;
            }
        }
        if (best < 0 || (suspend && exhausted)) break;
        out.push_back(br);
        ++pos[best];
    }
    dst.check_vec_dst(0, static_cast<int64_t>(out.size()) * 8 / static_cast<int64_t>(sizeof(T)), api, loc);
    for (size_t i = 0; i < out.size(); ++i) sort_put(dst, i, out[i]);
    if (taken != nullptr) {
        for (int l = 0; l < 4; ++l) taken[l] = l < nl ? pos[l] : 0;
    }
    mrg_sort_spr_set(pos, nl);  // GetMrgSortResult (kapi/mrg_sort_spr.h)
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(static_cast<double>(out.size()) * 8 / 256 + 1, 2.0));
    return static_cast<uint32_t>(out.size());
}

template <typename T>
inline void mrg_sort_repeats(const char *api, const LocalTensor<T> &dst, const MrgSortSrcList<T> &l,
                             const uint16_t *lengths, uint16_t validBit, bool suspend, uint32_t *sortedNum,
                             int32_t repeatTime, const pyasc_sim::kapi::SrcLoc &loc) {
    check_repeat(repeatTime, api, loc);
    const LocalTensor<T> lists[4] = {l.src1, l.src2, l.src3, l.src4};
    if (repeatTime <= 1) {
        merge_lists(api, dst, lists, lengths, validBit, suspend, sortedNum, loc);
        return;
    }
    // Repeats: four equal, consecutive lists (validBit 0b1111, no suspension), each repeat moving
    // every operand on by the four lists' total length.
    if (pyasc_sim::kapi::blk().checks && (validBit != 0b1111 || suspend || lengths[0] != lengths[1] ||
                                          lengths[0] != lengths[2] || lengths[0] != lengths[3])) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "%s: repeatTime %d > 1 needs four lists of equal length stored back to back, validBit "
                              "0b1111 and no exhausted suspension (the reference's conditions)", api,
                              static_cast<int>(repeatTime));
    }
    const uint32_t step = 4u * lengths[0] * 8u / sizeof(T);  // elements of T per repeat
    for (int32_t r = 0; r < repeatTime; ++r) {
        LocalTensor<T> shifted[4];
        for (int i = 0; i < 4; ++i) shifted[i] = lists[i][r * step];
        merge_lists(api, dst[r * step], shifted, lengths, validBit, suspend, sortedNum, loc);
    }
}
}  // namespace sim_detail

// ---- MrgSort: merges 2-4 sorted lists of (score, index) structs ---------------------------------------
template <typename T, bool isExhaustedSuspension = false>
inline void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &sortList, const uint16_t elementCountList[4],
                    uint32_t sortedNum[4], uint16_t validBit, const int32_t repeatTime, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(MrgSort, T);
    sim_detail::check_sort_type<T>("MrgSort", loc);
    sim_detail::mrg_sort_repeats("MrgSort", dst, sortList, elementCountList, validBit, isExhaustedSuspension,
                                 sortedNum, repeatTime, loc);
}
template <typename T>
inline void MrgSort(const LocalTensor<T> &dst, const MrgSortSrcList<T> &sortList, const MrgSort4Info &params,
                    PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK_NAMED(MrgSortInfo, T, "AscendC::MrgSort (the MrgSort4Info form)");
    sim_detail::check_sort_type<T>("MrgSort", loc);
    sim_detail::mrg_sort_repeats("MrgSort", dst, sortList, params.elementLengths, params.validBit,
                                 params.ifExhaustedSuspension, static_cast<uint32_t *>(nullptr), params.repeatTimes,
                                 loc);
}

// ---- Region proposals (mode 2): ProposalConcat / ProposalExtract move 16 elements per repeat into
// / out of field modeNumber (0 x1, 1 y1, 2 x2, 3 y2, 4 score, 5 label) of 8-element proposals ---------
template <typename T>
inline void ProposalConcat(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,
                           const int32_t modeNumber, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(ProposalConcat, T);
    sim_detail::check_sort_type<T>("ProposalConcat", loc);
    sim_detail::check_repeat(repeatTime, "ProposalConcat", loc);
    if (pyasc_sim::kapi::blk().checks && (modeNumber < 0 || modeNumber > 5)) {
        pyasc_sim::kapi::fail("unsupported", loc, "ProposalConcat: modeNumber %d is outside [0, 5]",
                              static_cast<int>(modeNumber));
    }
    const int64_t n = static_cast<int64_t>(std::max(repeatTime, 0)) * 16;
    sim_detail::check_operand(src, "ProposalConcat", "src", n, loc);
    sim_detail::check_operand(dst, "ProposalConcat", "dst", n * 8, loc);
    for (int64_t i = 0; i < n; ++i) dst.ptr()[i * 8 + modeNumber] = src.ptr()[i];
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(static_cast<double>(repeatTime)));
}
template <typename T>
inline void ProposalExtract(const LocalTensor<T> &dst, const LocalTensor<T> &src, const int32_t repeatTime,
                            const int32_t modeNumber, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(ProposalExtract, T);
    sim_detail::check_sort_type<T>("ProposalExtract", loc);
    sim_detail::check_repeat(repeatTime, "ProposalExtract", loc);
    if (pyasc_sim::kapi::blk().checks && (modeNumber < 0 || modeNumber > 5)) {
        pyasc_sim::kapi::fail("unsupported", loc, "ProposalExtract: modeNumber %d is outside [0, 5]",
                              static_cast<int>(modeNumber));
    }
    const int64_t n = static_cast<int64_t>(std::max(repeatTime, 0)) * 16;
    sim_detail::check_operand(src, "ProposalExtract", "src", n * 8, loc);
    sim_detail::check_operand(dst, "ProposalExtract", "dst", n, loc);
    for (int64_t i = 0; i < n; ++i) dst.ptr()[i] = src.ptr()[i * 8 + modeNumber];
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(static_cast<double>(repeatTime)));
}

// ---- TopK on the Atlas inference series (__CCE_AICORE__ == 200, Ascend310P): the reference
// (TopK page, atlasascendc_api_07_0836.html, 约束说明) documents one difference for this family: with
// half input the indices may not exceed 2048 -- topKInfo.inner <= 2048 when isInitIndex is false, every
// srcIndexLocal value <= 2048 when it is true.  The reason is the family's sort path (TopK page of
// CANN 8.0.RC2, atlasascendc_api_07_0547.html): ProposalConcat puts data and index into region
// proposals of type T, sorted with RpSort16 / MrgSort4 and split with ProposalExtract, so a half
// proposal carries the index as a half (exact up to 2048).  The simulator checks the documented bound
// and, with checks off, passes the index through T as the proposal does.  The outputs' layout (k_pad,
// kpad_index rows) is the same on every family; tmpLocal's contents are internal to the API.
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
constexpr bool kTopKIndexInProposal = true;
#else
constexpr bool kTopKIndexInProposal = false;
#endif
namespace sim_detail {
constexpr int32_t kTopKHalfIndexMax = 2048;
constexpr const char *kTopKSocName = "the Atlas inference series (__CCE_AICORE__ 200)";
template <bool isInitIndex, TopKMode topkMode>
inline void check_topk_half_index(const LocalTensor<int32_t> &srcIndex, int32_t rows, int32_t inner, int32_t n,
                                  const pyasc_sim::kapi::SrcLoc &loc) {
    if (!isInitIndex) {
        if (inner > kTopKHalfIndexMax) {
            pyasc_sim::kapi::fail("unsupported", loc,
                                  "TopK<half> on %s: topKInfo.inner %d > %d: on the Atlas inference series the index "
                                  "travels in a half region proposal, so the reference limits inner to %d for half "
                                  "input (split the row, or sort float)",
                                  kTopKSocName, static_cast<int>(inner), kTopKHalfIndexMax, kTopKHalfIndexMax);
        }
        return;
    }
    const int64_t count = topkMode == TopKMode::TOPK_NSMALL ? static_cast<int64_t>(rows) * inner : inner;
    for (int64_t i = 0; i < count; ++i) {
        if (i % inner >= n) continue;  // padding past n is never picked
        const int32_t idx = srcIndex.ptr()[i];
        if (idx > kTopKHalfIndexMax) {
            pyasc_sim::kapi::fail("unsupported", loc,
                                  "TopK<half, isInitIndex=true> on %s: srcIndexLocal[%lld] = %d > %d: on the Atlas "
                                  "inference series the index travels in a half region proposal, so the reference "
                                  "limits index values to %d for half input (rebase the indices, or sort float)",
                                  kTopKSocName, static_cast<long long>(i), static_cast<int>(idx),
                                  kTopKHalfIndexMax, kTopKHalfIndexMax);
        }
    }
}
// An index stored in a region proposal of type T and read back.
template <typename T>
inline int32_t through_proposal(int32_t idx) {
    return static_cast<int32_t>(pyasc_sim::kapi::to_double(static_cast<T>(static_cast<double>(idx))));
}
}  // namespace sim_detail

// ---- TopK (high-level): the k largest (isLargest) or smallest values of each of topKInfo.outter rows
// of topKInfo.inner elements (the first n valid) with their indices.  Row r of dstValue starts at
// r * kPad (k rounded up to 32 bytes of T), of dstIndex at r * kPadIdx (k rounded up to 8 int32).
// Indices: the position in the row, or srcIndex's value there (isInitIndex: normal mode one
// [inner] vector for every row, small mode [outter * inner]); a row whose finish flag is true
// (isHasfinish) gets index n everywhere.  Equal values: the lower position first.
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig &config = kPyascSimDefaultTopKConfig>
inline void TopK(const LocalTensor<T> &dstValueLocal, const LocalTensor<int32_t> &dstIndexLocal,
                 const LocalTensor<T> &srcLocal, const LocalTensor<int32_t> &srcIndexLocal,
                 const LocalTensor<bool> &finishLocal, const LocalTensor<uint8_t> &tmpLocal, const int32_t k,
                 const TopkTiling &tiling, const TopKInfo &topKInfo, const bool isLargestArg = true, PYASC_SIM_LOC) {
    // RADIX_SELECT (the 950's algorithm): no 4096-element row limit; isHasfinish is reserved for it.
    constexpr bool kRadix = config.algo == TopKAlgo::RADIX_SELECT;
    constexpr bool kFinish = isHasfinish && !kRadix;
    const bool isLargest = config.order == TopKOrder::UNSET ? isLargestArg : config.order == TopKOrder::LARGEST;
    PYASC_SIM_DTYPE_CHECK(TopK, T);
    sim_detail::check_sort_type<T>("TopK", loc);
    (void)tmpLocal;
    (void)tiling;
    const int32_t rows = topKInfo.outter, inner = topKInfo.inner, n = topKInfo.n;
    const bool checks = pyasc_sim::kapi::blk().checks;
    if (checks && (rows < 1 || inner < 1 || inner % 32 != 0 || n < 1 || n > inner || k < 1 || k > n ||
                   (topkMode == TopKMode::TOPK_NSMALL && inner != 32) ||
                   (topkMode == TopKMode::TOPK_NORMAL && !kRadix && inner > 4096))) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "TopK: outter %d, inner %d, n %d, k %d: the reference needs outter >= 1, inner a "
                              "multiple of 32 (32 in TOPK_NSMALL mode, at most 4096 in TOPK_NORMAL mode), "
                              "1 <= n <= inner and 1 <= k <= n",
                              static_cast<int>(rows), static_cast<int>(inner), static_cast<int>(n),
                              static_cast<int>(k));
    }
    if (rows < 1 || inner < 1 || n < 1 || k < 1) return;
    const int32_t kk = std::min(k, n);
    const int32_t kPad = (k * static_cast<int32_t>(sizeof(T)) + 31) / 32 * 32 / static_cast<int32_t>(sizeof(T));
    const int32_t kPadIdx = (k + 7) / 8 * 8;
    sim_detail::check_operand(srcLocal, "TopK", "src", static_cast<int64_t>(rows) * inner, loc);
    if (isInitIndex) {
        const int64_t ni = topkMode == TopKMode::TOPK_NSMALL ? static_cast<int64_t>(rows) * inner : inner;
        sim_detail::check_operand(srcIndexLocal, "TopK", "srcIndex", ni, loc);
    }
    if (kFinish) sim_detail::check_operand(finishLocal, "TopK", "srcFinish", rows, loc);
    sim_detail::check_operand(dstValueLocal, "TopK", "dstValue", static_cast<int64_t>(rows) * kPad, loc);
    sim_detail::check_operand(dstIndexLocal, "TopK", "dstIndex", static_cast<int64_t>(rows) * kPadIdx, loc);
    if (kTopKIndexInProposal && std::is_same<T, half>::value && checks) {
        sim_detail::check_topk_half_index<isInitIndex, topkMode>(srcIndexLocal, rows, inner, n, loc);
    }
    std::vector<sim_detail::SortRec> v(static_cast<size_t>(n));
    for (int32_t r = 0; r < rows; ++r) {
        for (int32_t i = 0; i < n; ++i) {
            const double s = pyasc_sim::kapi::to_double(srcLocal.ptr()[static_cast<int64_t>(r) * inner + i]);
            v[i] = sim_detail::SortRec{isLargest ? s : -s, static_cast<uint32_t>(i)};
        }
        sim_detail::sort_desc(v);
        const bool finished = kFinish && finishLocal.ptr()[r];
        for (int32_t j = 0; j < kk; ++j) {
            const uint32_t pos = v[j].index;
            dstValueLocal.ptr()[static_cast<int64_t>(r) * kPad + j] = srcLocal.ptr()[static_cast<int64_t>(r) * inner + pos];
            int32_t idx = static_cast<int32_t>(pos);
            if (isInitIndex) {
                idx = topkMode == TopKMode::TOPK_NSMALL ? srcIndexLocal.ptr()[static_cast<int64_t>(r) * inner + pos]
                                                        : srcIndexLocal.ptr()[pos];
            }
            if (kTopKIndexInProposal) idx = sim_detail::through_proposal<T>(idx);
            dstIndexLocal.ptr()[static_cast<int64_t>(r) * kPadIdx + j] = finished ? n : idx;
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(static_cast<double>(rows) * inner * 8 / 256 + 1, 4.0));
}
// The prototype without tmpLocal (the API allocates its temporary space itself).
template <typename T, bool isInitIndex = false, bool isHasfinish = false, bool isReuseSrc = false,
          TopKMode topkMode = TopKMode::TOPK_NORMAL, const TopKConfig &config = kPyascSimDefaultTopKConfig>
inline void TopK(const LocalTensor<T> &dstValueLocal, const LocalTensor<int32_t> &dstIndexLocal,
                 const LocalTensor<T> &srcLocal, const LocalTensor<int32_t> &srcIndexLocal,
                 const LocalTensor<bool> &finishLocal, const int32_t k, const TopkTiling &tiling,
                 const TopKInfo &topKInfo, const bool isLargest = true, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(TopK, T);
    TopK<T, isInitIndex, isHasfinish, isReuseSrc, topkMode, config>(dstValueLocal, dstIndexLocal, srcLocal, srcIndexLocal,
                                                           finishLocal, LocalTensor<uint8_t>(), k, tiling, topKInfo,
                                                           isLargest, loc);
}

// ---- index generators used with Sort: CreateVecIndex (count and Level-0 forms) and ArithProgression -------------
// dst[i] = firstValue + i (CreateVecIndex), firstValue + i * diffValue (ArithProgression).
template <typename T>
inline void CreateVecIndex(LocalTensor<T> dst, const T &firstValue, uint32_t calCount, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(CreateVecIndex, T);
    sim_detail::check_operand(dst, "CreateVecIndex", "dst", calCount, loc);
    const double f = pyasc_sim::kapi::to_double(firstValue);
    for (uint32_t i = 0; i < calCount; ++i) dst.ptr()[i] = static_cast<T>(f + i);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(calCount, sizeof(T))));
}
// The Level-0 forms (CreateVecIndex page atlasascendc_api_07_0090, "tensor高维切分计算": mask as a count or bits,
// repeatTime, dstBlkStride, dstRepStride). The page gives the prototypes and a one-repeat example; which value each
// lane of a later repeat gets is the SDK's: its A2 implementation (asc-devkit impl/basic_api/dav_c220/
// kernel_operator_vec_createvecindex_impl.h) writes repeat 0's first block by scalar, each further block as the block
// before it + 32 / sizeof(T) (Adds), and each further repeat as the repeat before it + 256 / sizeof(T) (Adds under
// the mask); its 950 implementation adds one vector length per repeat to the register CreateVecIndex filled. So
// lane k of repeat r (k below a count mask, or bit k set) receives firstValue + r * 256 / sizeof(T) + k, at block
// k / (32 / sizeof(T)) of the repeat (dstBlkStride blocks apart), repeat r at r * dstRepStride blocks; lanes off the
// mask are not written. Computed as the count form does (in double, one rounding to T).
namespace sim_detail {
template <typename T>
inline void create_vec_index_repeat(const LocalTensor<T> &dst, T firstValue, const Mask &m, uint8_t repeats,
                                    uint16_t blk, uint8_t rep, const SrcLoc &loc) {
    const Opnd od{blk, rep, static_cast<int64_t>(32 / sizeof(T))};
    check_operand(dst, "CreateVecIndex", "dst", od.extent(repeats, m), loc);
    T *d = dst.ptr();
    const double f = pyasc_sim::kapi::to_double(firstValue);
    const double perRepeat = static_cast<double>(256 / sizeof(T));
    for_each_masked(repeats, m, [&](uint32_t r, uint32_t i) {
        d[od.off(r, i)] = static_cast<T>(f + r * perRepeat + i);
    });
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(repeats));
}
template <typename T, typename M>
inline void create_vec_index_level0(const LocalTensor<T> &dst, T firstValue, M mask, uint8_t repeatTime,
                                    uint16_t dstBlkStride, uint8_t dstRepStride, const SrcLoc &loc) {
    PYASC_SIM_DTYPE_CHECK(CreateVecIndex, T);
    create_vec_index_repeat(dst, firstValue, mask_of<true>(mask, 256 / sizeof(T), "CreateVecIndex", loc), repeatTime,
                            dstBlkStride, dstRepStride, loc);
}
}  // namespace sim_detail
template <typename T>
inline void CreateVecIndex(const LocalTensor<T> &dst, const T &firstValue, uint64_t mask, uint8_t repeatTime,
                           uint16_t dstBlkStride, uint8_t dstRepStride, PYASC_SIM_LOC) {
    sim_detail::create_vec_index_level0(dst, firstValue, mask, repeatTime, dstBlkStride, dstRepStride, loc);
}
template <typename T>
inline void CreateVecIndex(const LocalTensor<T> &dst, const T &firstValue, uint64_t mask[], uint8_t repeatTime,
                           uint16_t dstBlkStride, uint8_t dstRepStride, PYASC_SIM_LOC) {
    sim_detail::create_vec_index_level0(dst, firstValue, mask, repeatTime, dstBlkStride, dstRepStride, loc);
}
template <typename T>
inline void ArithProgression(const LocalTensor<T> &dstLocal, const T firstValue, const T diffValue,
                             const int32_t count, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(ArithProgression, T);
    const int64_t n = sim_detail::check_count(count, "ArithProgression", loc);
    sim_detail::check_operand(dstLocal, "ArithProgression", "dst", n, loc);
    const double f = pyasc_sim::kapi::to_double(firstValue), d = pyasc_sim::kapi::to_double(diffValue);
    for (int64_t i = 0; i < n; ++i) dstLocal.ptr()[i] = static_cast<T>(f + static_cast<double>(i) * d);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(n, sizeof(T))));
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_SORT_H_
