// Ascend C on the CPU -- data movement: DataCopy (count, DataCopyParams, Nd2NzParams and
// enhanced forms) and DataCopyPad.
//
// Documented sharp edges kept: DataCopy moves whole 32-byte blocks; a count form whose
// length is not a multiple of 32 bytes is rounded DOWN by the hardware without notice --
// here the sanitizer reports it (check 'datacopy-length'), and with checks off the copy
// is rounded down like the hardware.  Strides of DataCopyParams count 32-byte blocks.
#ifndef PYASC_SIM_KAPI_DATA_COPY_H_
#define PYASC_SIM_KAPI_DATA_COPY_H_

#include "pyasc_sim/kapi/bias_table_copy.h"  // L1 -> C2, and the converting local -> local prototype
#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/gm_copy.h"
#include "pyasc_sim/kapi/params.h"
#include "pyasc_sim/kapi/tensor.h"
#include "pyasc_sim/kapi/xcore.h"  // gm_store: atomic-aware GM writes

namespace AscendC {

namespace sim_detail {

inline uint64_t align32(uint64_t n) { return (n + 31u) / 32u * 32u; }

// Length of a count-form DataCopy: reported when not a multiple of 32 bytes (checks on),
// else rounded down as the hardware does.
inline uint64_t copy_len(uint64_t count, size_t elem, const char *api, const pyasc_sim::kapi::SrcLoc &loc) {
    const uint64_t bytes = count * elem;
    if (bytes % 32 != 0) {
        if (pyasc_sim::kapi::blk().checks) {
            pyasc_sim::kapi::fail("datacopy-length", loc,
                                  "%s of %llu elements = %llu bytes, which is not a multiple of 32 bytes; the hardware "
                                  "silently copies only the first %llu bytes. Copy a multiple of 32 bytes, or use "
                                  "DataCopyPad for an unaligned length",
                                  api, static_cast<unsigned long long>(count), static_cast<unsigned long long>(bytes),
                                  static_cast<unsigned long long>(bytes / 32 * 32));
        }
        return bytes / 32 * 32;
    }
    return bytes;
}

// A GM -> local copy of count rows of burst bytes, src_pitch apart, at src, about to run.  Rows of whole
// 32-byte blocks are read as flag blocks (gm_poll.h): their plain read records are muted while the copy's
// checks run, and after the copy after() hands the bytes it delivered to gm_poll_dma_read.  Once the checks
// passed, checked() lets a poll round give up the host thread before the copy (gm_poll_yield.h).
struct GmReadRows {
    pyasc_sim::kapi::BlockState &b;
    const uint64_t src, count, pitch, burst;
    const bool flags, muted;
    GmReadRows(pyasc_sim::kapi::BlockState &bs, const void *at, uint64_t n, uint64_t burst_bytes, uint64_t src_pitch)
        : b(bs), src(reinterpret_cast<uintptr_t>(at)), count(n), pitch(src_pitch),
          burst(burst_bytes), flags(pyasc_sim::kapi::dma_poll_shape(bs, src, n, burst_bytes, src_pitch)),
          muted(bs.xmute) {
        if (flags) b.xmute = true;
    }
    void checked(const pyasc_sim::kapi::SrcLoc &loc) { pyasc_sim::kapi::poll_read(b, src, count, burst, pitch, loc); }
    // The copy ran: row i landed at dst + i * dst_pitch.
    void after(const void *dst, uint64_t dst_pitch, const pyasc_sim::kapi::SrcLoc &loc) {
        if (!flags) return;
        b.xmute = muted;
        pyasc_sim::kapi::gm_poll_dma_read(b, src, count, pitch, static_cast<const uint8_t *>(dst), dst_pitch, loc);
    }
    ~GmReadRows() {
        if (flags) b.xmute = muted;
    }
    GmReadRows(const GmReadRows &) = delete;
    GmReadRows &operator=(const GmReadRows &) = delete;
};

// blockCount bursts of `burst` bytes, `src_pitch` / `dst_pitch` bytes apart.
inline void copy_bursts(uint8_t *dst, const uint8_t *src, uint64_t count, uint64_t burst, uint64_t src_pitch,
                        uint64_t dst_pitch) {
    if (src_pitch == burst && dst_pitch == burst) {
        std::memmove(dst, src, count * burst);
        return;
    }
    for (uint64_t i = 0; i < count; ++i) std::memmove(dst + i * dst_pitch, src + i * src_pitch, burst);
}

inline uint64_t span(uint64_t count, uint64_t burst, uint64_t pitch) {
    return count == 0 ? 0 : (count - 1) * pitch + burst;
}

template <typename T>
inline void record_bursts(const GlobalTensor<T> &g, uint64_t count, uint64_t burst, uint64_t pitch,
                          const pyasc_sim::kapi::SrcLoc &loc) {
    if (!pyasc_sim::kapi::blk().checks) return;
    if (pitch == burst) {
        g.sim_record(0, count * burst, loc);
        return;
    }
    for (uint64_t i = 0; i < count; ++i) g.sim_record(i * pitch, burst, loc);
}

// Checks a strided GM read as one span, but records (gm-cross-core-race) only the bursts it reads:
// the gaps between them may belong to other blocks.
template <typename T>
inline void check_read_bursts(const GlobalTensor<T> &g, uint64_t count, uint64_t burst, uint64_t pitch,
                              const char *what, const pyasc_sim::kapi::SrcLoc &loc) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (!b.xrace || pitch == burst || count < 2) {
        g.check_bytes(0, span(count, burst, pitch), false, what, loc);
        return;
    }
    {
        XMute mute;
        g.check_bytes(0, span(count, burst, pitch), false, what, loc);
    }
    const uint64_t a = reinterpret_cast<uintptr_t>(g.GetPhyAddr());
    for (uint64_t i = 0; i < count; ++i) pyasc_sim::kapi::record_read(a + i * pitch, a + i * pitch + burst, loc);
}

// DataCopyPad's row of the dtype tables: a static_assert where the family lists element types, and a
// run-time error 'dtype-table' on a family whose product table marks DataCopyPad unsupported (the
// Atlas inference series AI Core), so that a kernel reaching it only for unaligned lengths still
// compiles there and fails the moment it would need the missing instruction.
template <typename T>
inline void check_datacopypad_soc(const pyasc_sim::kapi::SrcLoc &loc) {
#if defined(PYASC_SIM_DATACOPYPAD_AT_RUN_TIME)
    if (!PYASC_SIM_DTYPE_OK(DataCopyPad, ::pyasc_sim::kapi::dtypes::moved_as_t<T>)) {
        pyasc_sim::kapi::fail("dtype-table", loc,
                              "AscendC::DataCopyPad is not available on %s (its product table marks this family "
                              "unsupported): move whole 32-byte blocks with DataCopy, or build for an Atlas A2 SoC "
                              "(see pyasc_sim/kapi/dtype_tables.h)",
                              PYASC_SIM_DT_SOC);
    }
#else
    (void)loc;
    PYASC_SIM_DTYPE_CHECK(DataCopyPad, ::pyasc_sim::kapi::dtypes::moved_as_t<T>);
#endif
}

template <typename T>
inline void fill(uint8_t *p, uint64_t bytes, T value) {
    for (uint64_t i = 0; i + sizeof(T) <= bytes; i += sizeof(T)) std::memcpy(p + i, &value, sizeof(T));
}

}  // namespace sim_detail

// ---- count form ------------------------------------------------------------------------------
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const uint32_t count,
                     pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    PYASC_SIM_DTYPE_CHECK(DataCopy, ::pyasc_sim::kapi::dtypes::moved_as_t<T>);  // GM -> local rows of the DataCopy table
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (!b.checks && !pyasc_sim::kapi::kTimelineSpans) {  // checks off: one state lookup per copy
        const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T) / 32 * 32;  // as copy_len
        pyasc_sim::kapi::poll_read(b, reinterpret_cast<uintptr_t>(src.GetPhyAddr()), 1, bytes, bytes, loc);
        pyasc_sim::kapi::gm_load_tile(b, dst.ptr(), src.GetPhyAddr(), bytes);
        pyasc_sim::kapi::charge(b, pyasc_sim::kapi::kPipeMTE2, pyasc_sim::kapi::dma_cycles(bytes, 1));
        return;
    }
    const uint64_t bytes = sim_detail::copy_len(count, sizeof(T), "DataCopy (GM -> local)", loc);
    dst.check_aligned("DataCopy", "dst", loc);
    dst.check_bytes(0, static_cast<int64_t>(bytes), "DataCopy writes", loc);
    sim_detail::GmReadRows rows(b, src.GetPhyAddr(), 1, bytes, bytes);
    src.check_bytes(0, bytes, false, "DataCopy reads", loc);
    rows.checked(loc);
    pyasc_sim::kapi::gm_load_tile(b, dst.ptr(), src.GetPhyAddr(), bytes);
    rows.after(dst.ptr(), bytes, loc);
    pyasc_sim::kapi::charge(b, pyasc_sim::kapi::kPipeMTE2, pyasc_sim::kapi::dma_cycles(bytes, 1));
}

template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count,
                     pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    PYASC_SIM_DTYPE_CHECK(DataCopy, ::pyasc_sim::kapi::dtypes::moved_as_t<T>);  // UB -> GM: the same list as GM -> UB
    pyasc_sim::kapi::uses_vector_unit();  // local -> GM leaves from UB: an AIV instruction (kapi/core_usage.h)
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (!b.checks && !pyasc_sim::kapi::kTimelineSpans) {  // checks off: one state lookup per copy
        const uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T) / 32 * 32;  // as copy_len
        sim_detail::gm_store(b, dst.GetPhyAddr(), src.ptr(), bytes);
        pyasc_sim::kapi::charge(b, pyasc_sim::kapi::kPipeMTE3, pyasc_sim::kapi::dma_cycles(bytes, 1));
        return;
    }
    const uint64_t bytes = sim_detail::copy_len(count, sizeof(T), "DataCopy (local -> GM)", loc);
    src.check_aligned("DataCopy", "src", loc);
    src.check_bytes(0, static_cast<int64_t>(bytes), "DataCopy reads", loc);
    dst.check_bytes(0, bytes, true, "DataCopy writes", loc);
    sim_detail::gm_store(b, dst.GetPhyAddr(), src.ptr(), bytes);
    pyasc_sim::kapi::charge(b, pyasc_sim::kapi::kPipeMTE3, pyasc_sim::kapi::dma_cycles(bytes, 1));
}

template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const uint32_t count,
                     pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    PYASC_SIM_DTYPE_CHECK(DataCopy, ::pyasc_sim::kapi::dtypes::moved_as_t<T>);  // UB -> UB
    const uint64_t bytes = sim_detail::copy_len(count, sizeof(T), "DataCopy (local -> local)", loc);
    dst.check_aligned("DataCopy", "dst", loc);
    src.check_aligned("DataCopy", "src", loc);
    dst.check_bytes(0, static_cast<int64_t>(bytes), "DataCopy writes", loc);
    // runs on the vector pipe: initcheck as a vector source (whole repeats past the data are tolerated)
    src.check_vec_read_bytes(0, static_cast<int64_t>(bytes), "DataCopy reads", loc);
    if (bytes != 0) std::memmove(dst.ptr(), src.ptr(), bytes);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, static_cast<double>(bytes) / pyasc_sim::cost::kLocalBytesPerCycle +
                                                         pyasc_sim::cost::kDmaIssueCycles);
}

// ---- DataCopyParams form: blockCount bursts of blockLen 32-byte blocks, strides in blocks ---
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p,
                     pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    PYASC_SIM_DTYPE_CHECK(DataCopy, ::pyasc_sim::kapi::dtypes::moved_as_t<T>);
    const uint64_t burst = p.blockLen * 32ull, sp = burst + p.srcStride * 32ull, dp = burst + p.dstStride * 32ull;
    dst.check_aligned("DataCopy", "dst", loc);
    dst.check_bytes(0, static_cast<int64_t>(sim_detail::span(p.blockCount, burst, dp)), "DataCopy writes", loc);
    sim_detail::GmReadRows rows(pyasc_sim::kapi::blk(), src.GetPhyAddr(), p.blockCount, burst, sp);
    sim_detail::check_read_bursts(src, p.blockCount, burst, sp, "DataCopy reads", loc);
    rows.checked(loc);
    sim_detail::copy_bursts(reinterpret_cast<uint8_t *>(dst.ptr()), reinterpret_cast<const uint8_t *>(src.GetPhyAddr()),
                            p.blockCount, burst, sp, dp);
    rows.after(dst.ptr(), dp, loc);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE2, pyasc_sim::kapi::dma_cycles(p.blockCount * burst, p.blockCount));
}

template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p,
                     pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    PYASC_SIM_DTYPE_CHECK(DataCopy, ::pyasc_sim::kapi::dtypes::moved_as_t<T>);
    pyasc_sim::kapi::uses_vector_unit();  // local -> GM leaves from UB: an AIV instruction (kapi/core_usage.h)
    const uint64_t burst = p.blockLen * 32ull, sp = burst + p.srcStride * 32ull, dp = burst + p.dstStride * 32ull;
    src.check_aligned("DataCopy", "src", loc);
    src.check_read_bursts(p.blockCount, burst, sp, "DataCopy reads", loc);
    dst.check_bytes(0, sim_detail::span(p.blockCount, burst, dp), false, "DataCopy writes", loc);
    sim_detail::record_bursts(dst, p.blockCount, burst, dp, loc);
    sim_detail::gm_store_bursts(reinterpret_cast<uint8_t *>(dst.GetPhyAddr()), reinterpret_cast<const uint8_t *>(src.ptr()),
                            p.blockCount, burst, sp, dp);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE3, pyasc_sim::kapi::dma_cycles(p.blockCount * burst, p.blockCount));
}

// Into the bias table (C2) the units are the bias-table copy's (kapi/bias_table_copy.h: 64-byte blocks).
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p,
                     pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    PYASC_SIM_DTYPE_CHECK(DataCopy, ::pyasc_sim::kapi::dtypes::moved_as_t<T>);
    if (dst.GetPosition() == TPosition::C2) {
        sim_detail::bias_table_copy_same(dst, src, p, loc);
        return;
    }
    const uint64_t burst = p.blockLen * 32ull, sp = burst + p.srcStride * 32ull, dp = burst + p.dstStride * 32ull;
    dst.check_aligned("DataCopy", "dst", loc);
    src.check_aligned("DataCopy", "src", loc);
    dst.check_bytes(0, static_cast<int64_t>(sim_detail::span(p.blockCount, burst, dp)), "DataCopy writes", loc);
    src.check_read_bursts(p.blockCount, burst, sp, "DataCopy reads", loc);
    sim_detail::copy_bursts(reinterpret_cast<uint8_t *>(dst.ptr()), reinterpret_cast<const uint8_t *>(src.ptr()),
                            p.blockCount, burst, sp, dp);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            static_cast<double>(p.blockCount * burst) / pyasc_sim::cost::kLocalBytesPerCycle +
                                pyasc_sim::cost::kDmaIssueCycles);
}

// Local -> local with DataCopyEnhancedParams (e.g. CO1 -> CO2): BLOCK_MODE_MATRIX counts
// blockLen and strides in 16 x 16 fractals of the element type, other modes in 32-byte blocks.
// The in-line computation (isRelu) exists on the Atlas inference series AI Core's CO1 -> CO2 path
// only (enhanced DataCopy page, atlasascendc_api_07_0104: on other SoCs and paths the call is a plain
// copy); isRelu anywhere else is ignored, as on hardware, with the warning 'enhanced-params-ignored'.
namespace sim_detail {
template <typename T>
inline bool enhanced_relu_applies(const LocalTensor<T> &dst, const LocalTensor<T> &src) {
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
    return src.GetPosition() == TPosition::CO1 && dst.GetPosition() == TPosition::CO2;
#else
    (void)dst, (void)src;
    return false;
#endif
}
}  // namespace sim_detail
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p,
                     const DataCopyEnhancedParams &e, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    PYASC_SIM_DTYPE_CHECK_NAMED(DataCopy, T, "AscendC::DataCopy (the DataCopyEnhancedParams local -> local form)");
    if (src.GetPosition() == TPosition::CO1) {
        PYASC_SIM_DTYPE_CHECK_AT_RUN_NAMED(DataCopyEnhancedCo1, T, "AscendC::DataCopy (DataCopyEnhancedParams, CO1 -> CO2)",
                                           loc);
    }
    const uint64_t unit = e.blockMode == BlockMode::BLOCK_MODE_MATRIX ? 256ull * sizeof(T) : 32ull;
    const uint64_t burst = p.blockLen * unit, sp = burst + p.srcStride * unit, dp = burst + p.dstStride * unit;
    dst.check_aligned("DataCopy", "dst", loc);
    src.check_aligned("DataCopy", "src", loc);
    dst.check_bytes(0, static_cast<int64_t>(sim_detail::span(p.blockCount, burst, dp)), "DataCopy writes", loc);
    src.check_read_bursts(p.blockCount, burst, sp, "DataCopy reads", loc);
    sim_detail::copy_bursts(reinterpret_cast<uint8_t *>(dst.ptr()), reinterpret_cast<const uint8_t *>(src.ptr()),
                            p.blockCount, burst, sp, dp);
    const bool relu = e.isRelu && sim_detail::enhanced_relu_applies(dst, src);
    if (e.isRelu && !relu && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::warn("enhanced-params-ignored", loc,
                              "DataCopy(dst, src, intriParams, enhancedParams) with isRelu = true from %s to %s: the "
                              "enhanced computation exists only on the CO1 -> CO2 path of the Atlas inference series "
                              "AI Core (__CCE_AICORE__ == 200); here the call is a plain copy and no ReLU is applied. "
                              "Apply Relu to the result, or copy CO1 -> CO2 on that SoC",
                              pyasc_sim::kapi::pos_name(src.GetPosition()), pyasc_sim::kapi::pos_name(dst.GetPosition()));
    }
    if (relu) {
        for (uint64_t i = 0; i < p.blockCount; ++i) {
            T *q = reinterpret_cast<T *>(reinterpret_cast<uint8_t *>(dst.ptr()) + i * dp);
            for (uint64_t j = 0; j < burst / sizeof(T); ++j) {
                if (pyasc_sim::kapi::to_double(q[j]) < 0) q[j] = T(0);
            }
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            static_cast<double>(p.blockCount * burst) / pyasc_sim::cost::kLocalBytesPerCycle +
                                pyasc_sim::cost::kDmaIssueCycles);
}
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyParams &p,
                     const DataCopyEnhancedParams &, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    DataCopy(dst, src, p, loc);
}
template <typename T>
inline void DataCopy(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p,
                     const DataCopyEnhancedParams &, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    DataCopy(dst, src, p, loc);
}

// ---- ND (row-major) in GM -> NZ fractal layout in L1 -------------------------------------------
// Row r, column block c (C0 = 32 / sizeof(T) columns) of matrix i lands at
//   i * dstNzMatrixStride + c * dstNzC0Stride * C0 + r * dstNzNStride * C0   (elements);
// a partial last column block is zero-filled.
template <typename T>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const Nd2NzParams &p,
                     pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    PYASC_SIM_DTYPE_CHECK_NAMED(DataCopyNd2Nz, T, "AscendC::DataCopy (the Nd2NzParams form)");
    constexpr uint64_t c0 = 32 / sizeof(T);
    dst.check_aligned("DataCopy (Nd2Nz)", "dst", loc);
    const uint64_t cblocks = (p.dValue + c0 - 1) / c0;
    uint64_t bytes = 0;
    for (uint64_t nd = 0; nd < p.ndNum; ++nd) {
        const uint64_t sbase = nd * p.srcNdMatrixStride, dbase = nd * p.dstNzMatrixStride;
        if (p.nValue > 0 && p.dValue > 0) {
            src.check(sbase, static_cast<uint64_t>(p.nValue - 1) * p.srcDValue + p.dValue, false,
                      "DataCopy (Nd2Nz) reads", loc);
            const uint64_t last = dbase + (cblocks - 1) * p.dstNzC0Stride * c0 + (p.nValue - 1ull) * p.dstNzNStride * c0;
            dst.check(static_cast<int64_t>(dbase), static_cast<int64_t>(last + c0 - dbase), "DataCopy (Nd2Nz) writes",
                      loc);
        }
        for (uint64_t r = 0; r < p.nValue; ++r) {
            for (uint64_t c = 0; c < cblocks; ++c) {
                T *d = dst.ptr() + dbase + c * p.dstNzC0Stride * c0 + r * p.dstNzNStride * c0;
                const T *s = src.GetPhyAddr() + sbase + r * p.srcDValue + c * c0;
                const uint64_t n = std::min<uint64_t>(c0, p.dValue - c * c0);
                std::memcpy(d, s, n * sizeof(T));
                if (n < c0) std::memset(static_cast<void *>(d + n), 0, (c0 - n) * sizeof(T));
            }
        }
        bytes += static_cast<uint64_t>(p.nValue) * p.dValue * sizeof(T);
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE2,
                            pyasc_sim::kapi::dma_cycles(bytes, static_cast<size_t>(p.ndNum) * p.nValue));
}

// ---- DataCopyPad: byte-granular bursts ---------------------------------------------------------
// The transfer mode of the CANN 9 prototypes `template <typename T, PaddingMode mode = Normal>`
// (DataCopyPad(ISASI) page, template parameter table): Normal pads every burst to 32 bytes in the
// local buffer (the only mode before CANN 9); Compact lets the bursts lie back to back in the local
// buffer and pads once, at the end of the whole transfer, to 32 bytes.  The page gives the mode to the
// Ascend 950 only ("该函数原型仅支持Ascend 950PR/Ascend 950DT"), and the SDK declares it so: the enum
// `AscendC::PaddingMode` (asc-devkit impl/basic_api/utils/kernel_utils_struct_confusion_pad.h) and the
// prototypes that take it (include/basic_api/kernel_operator_data_copy_intf.h) stand under an
// `__NPU_ARCH__` guard of the 950's architectures, so an Atlas A2 build (2201) has neither -- and a kernel
// may declare a `PaddingMode` of its own beside `using namespace AscendC` (DrivingSDK grid_sampler2d_v2).
// Likewise here: on other SoCs `PaddingMode` is not declared and DataCopyPad takes only its element type.
#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
enum class PaddingMode : uint8_t {
    Normal = 0,
    Compact,
};
#define PYASC_SIM_DATACOPYPAD_TEMPLATE template <typename T, PaddingMode mode = PaddingMode::Normal>
#define PYASC_SIM_DATACOPYPAD_COMPACT (mode == PaddingMode::Compact)
#else
#define PYASC_SIM_DATACOPYPAD_TEMPLATE template <typename T>
#define PYASC_SIM_DATACOPYPAD_COMPACT false
#endif

// GM -> local: Normal: each burst of blockLen bytes lands at a 32-byte-aligned slot of
// align32(leftPadding + blockLen + rightPadding) bytes; with isPad the padding elements are
// filled with paddingValue.  Compact: the slots are leftPadding + blockLen + rightPadding bytes,
// back to back, and the whole transfer ends on a 32-byte boundary (isPad: filled with
// paddingValue).  GM strides count bytes, local strides 32-byte blocks (added after each slot).
PYASC_SIM_DATACOPYPAD_TEMPLATE
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const DataCopyExtParams &p,
                        const DataCopyPadExtParams<T> &pad, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    sim_detail::check_datacopypad_soc<T>(loc);
    constexpr bool compact = PYASC_SIM_DATACOPYPAD_COMPACT;
    const uint64_t lp = pad.leftPadding * sizeof(T), rp = pad.rightPadding * sizeof(T);
    const uint64_t slot = compact ? lp + p.blockLen + rp : sim_detail::align32(lp + p.blockLen + rp);
    const uint64_t sp = p.blockLen + static_cast<uint64_t>(p.srcStride), dp = slot + p.dstStride * 32ull;
    const uint64_t used = sim_detail::span(p.blockCount, slot, dp);
    const uint64_t written = compact ? sim_detail::align32(used) : used;
    dst.check_aligned("DataCopyPad", "dst", loc);
    // What the copy writes (DataCopyPad(ISASI) page, DataCopyExtParams / DataCopyPadExtParams tables): each
    // burst's data, with isPad also its leftPadding / rightPadding elements (paddingValue) -- not the dstStride
    // gap after each slot (the interval "from the tail of one block to the head of the next"), and without isPad
    // not the padding either (left as it was here; its contents are not the kernel's data on hardware). Marked
    // per 32-byte sector, so a sector holding data counts as written, padding and alignment tail included.
    const uint64_t keep_lo = pad.isPad ? 0 : lp, keep = pad.isPad ? lp + p.blockLen + rp : p.blockLen;
    const bool whole = compact ? p.dstStride == 0 && (pad.isPad || lp + rp == 0)
                               : keep_lo < 32 && (p.blockCount <= 1 ? slot : dp) == sim_detail::align32(keep_lo + keep);
    if (whole) {  // the bursts' sectors are the whole span's
        dst.check_bytes(0, static_cast<int64_t>(written), "DataCopyPad writes", loc);
    } else {
        dst.check_write_bursts(p.blockCount, static_cast<int64_t>(keep_lo), keep, dp, static_cast<int64_t>(written),
                               "DataCopyPad writes", loc);
        if (compact && pad.isPad && written > used) {
            dst.check_bytes(static_cast<int64_t>(used), static_cast<int64_t>(written - used), "DataCopyPad writes",
                            loc);
        }
    }
    sim_detail::GmReadRows rows(pyasc_sim::kapi::blk(), src.GetPhyAddr(), p.blockCount, p.blockLen, sp);
    sim_detail::check_read_bursts(src, p.blockCount, p.blockLen, sp, "DataCopyPad reads", loc);
    rows.checked(loc);
    uint8_t *d = reinterpret_cast<uint8_t *>(dst.ptr());
    const uint8_t *s = reinterpret_cast<const uint8_t *>(src.GetPhyAddr());
    for (uint64_t i = 0; i < p.blockCount; ++i) {
        uint8_t *q = d + i * dp;
        if (pad.isPad) sim_detail::fill<T>(q, lp, pad.paddingValue);
        std::memmove(q + lp, s + i * sp, p.blockLen);
        if (pad.isPad) sim_detail::fill<T>(q + lp + p.blockLen, rp, pad.paddingValue);
    }
    rows.after(d + lp, dp, loc);
    if (compact && pad.isPad && written > used) {
        // The tail up to the 32-byte boundary, in whole elements from the end of the data.
        sim_detail::fill<T>(d + used, written - used, pad.paddingValue);
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE2,
                            pyasc_sim::kapi::dma_cycles(static_cast<uint64_t>(p.blockCount) * p.blockLen, p.blockCount));
}

// local -> GM: Normal: each burst reads blockLen bytes from a 32-byte-aligned slot of
// align32(blockLen) bytes (+ srcStride blocks); Compact: the bursts lie back to back in the local
// buffer (blockLen bytes each, + srcStride blocks).  Either way exactly blockLen bytes per burst
// reach GM, dstStride bytes apart.
PYASC_SIM_DATACOPYPAD_TEMPLATE
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyExtParams &p,
                        pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    pyasc_sim::kapi::uses_vector_unit();  // UB -> GM: an AIV instruction (kapi/core_usage.h)
    sim_detail::check_datacopypad_soc<T>(loc);
    const uint64_t slot = PYASC_SIM_DATACOPYPAD_COMPACT ? p.blockLen : sim_detail::align32(p.blockLen);
    const uint64_t sp = slot + p.srcStride * 32ull, dp = p.blockLen + static_cast<uint64_t>(p.dstStride);
    src.check_aligned("DataCopyPad", "src", loc);
    src.check_read_bursts(p.blockCount, p.blockLen, sp, "DataCopyPad reads", loc);
    dst.check_bytes(0, sim_detail::span(p.blockCount, p.blockLen, dp), false, "DataCopyPad writes", loc);
    sim_detail::record_bursts(dst, p.blockCount, p.blockLen, dp, loc);
    sim_detail::gm_store_bursts(reinterpret_cast<uint8_t *>(dst.GetPhyAddr()), reinterpret_cast<const uint8_t *>(src.ptr()),
                            p.blockCount, p.blockLen, sp, dp);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE3,
                            pyasc_sim::kapi::dma_cycles(static_cast<uint64_t>(p.blockCount) * p.blockLen, p.blockCount));
}

// Older prototypes: DataCopyParams whose blockLen counts bytes, DataCopyPadParams. A template on the
// copy-parameter type (as for GM <- local below), so that braced lists `{count, len, src, dst}, {}` pick
// the DataCopyExtParams overload unambiguously, as the NPU compiler accepts (same bytes either way); the
// pad parameters are a plain DataCopyPadParams, so a DataCopyParams variable with a braced pad list
// (`DataCopyPad(dst, src, copyParams, {false, 0, 0, 0})`, Huawei's IsFinite op) resolves here.
template <typename T, typename P, std::enable_if_t<std::is_same<P, DataCopyParams>::value, int> = 0>
inline void DataCopyPad(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const P &p,
                        const DataCopyPadParams &pad, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride),
                DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding,
                                        static_cast<T>(static_cast<float>(pad.paddingValue))),
                loc);
}
// A template on the parameter type, so that a braced four-field list `{count, len, src, dst}` (which
// cannot deduce P) picks the DataCopyExtParams overload unambiguously, as the NPU compiler does;
// both forms count blockLen in bytes, so the result is the same.
template <typename T, typename P, std::enable_if_t<std::is_same<P, DataCopyParams>::value, int> = 0>
inline void DataCopyPad(const GlobalTensor<T> &dst, const LocalTensor<T> &src, const P &p,
                        pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride), loc);
}

}  // namespace AscendC

#undef PYASC_SIM_DATACOPYPAD_TEMPLATE
#undef PYASC_SIM_DATACOPYPAD_COMPACT

#endif  // PYASC_SIM_KAPI_DATA_COPY_H_
