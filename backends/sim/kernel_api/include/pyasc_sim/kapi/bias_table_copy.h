// Ascend C on the CPU -- DataCopy L1 (A1 / B1 / C1) -> bias table (C2), the Mmad bias vector's way
// into the cube, with and without a type conversion.
//
// Documented (CANN 8.5 / 9.0 / 9.1 editions of the basic data-move page, atlasascendc_api_07_0103:
// "template <typename T, typename U> DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
// const DataCopyParams& repeatParams)", the prototype whose source and destination types differ, on Atlas
// A2 / A3 / 350 only), carried out by the intrinsic copy_cbuf_to_bt (cceintrinsicapi cceapi_0097 /
// cceapi_0098, PIPE_MTE1): the bias table is 1 KB, its address 64-byte aligned, the L1 source's 32-byte
// aligned; lenBurst counts 64-byte blocks, the source gap 32-byte blocks, the destination gap 64-byte
// blocks; with conversion the L1 data is read as FP16 and written to the table as FP32.
//
// Which side lenBurst measures when the conversion widens the data the pages do not say; the block is
// taken as 64 bytes of the SOURCE read from L1 (32 halves, written as 32 floats = 128 bytes): public
// kernels built on the Catlass templates size the copy so (NPUKernelBench MatmulBias: blockLen = N /
// (64 / sizeof(half)) for a 256-float bias tile, which fills the 1 KB table exactly; measured on the
// destination the same call would fill half of it).  Without conversion both sides agree.
#ifndef PYASC_SIM_KAPI_BIAS_TABLE_COPY_H_
#define PYASC_SIM_KAPI_BIAS_TABLE_COPY_H_

#include <cstring>
#include <type_traits>

#include "pyasc_sim/kapi/params.h"
#include "pyasc_sim/kapi/tensor.h"

namespace AscendC {

namespace sim_detail {

// The element types of the L1 -> bias table path: the table holds float (half / bfloat16_t widened)
// or int32_t (the int8 Mmad's bias), and the source is the same type or, for float, half / bfloat16_t.
template <typename T, typename U>
struct BiasTableCopyTypes {
    static constexpr bool value =
        (std::is_same<T, float>::value &&
         (std::is_same<U, float>::value || std::is_same<U, half>::value || std::is_same<U, bfloat16_t>::value)) ||
        (std::is_same<T, int32_t>::value && std::is_same<U, int32_t>::value);
};

// kMarksCube: the converting prototype is a cube-unit instruction for the kernel-type inference
// (kapi/core_usage.h); the same-type local -> local DataCopy reaches this path only at run time, and must
// not mark every vector kernel that copies UB -> UB as using the cube (a kernel filling the bias table
// runs Mmad, which marks it).
template <typename T, typename U, bool kMarksCube = true>
inline void bias_table_copy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const DataCopyParams &p,
                            const pyasc_sim::kapi::SrcLoc &loc) {
    static_assert(BiasTableCopyTypes<T, U>::value,
                  "pyasc: DataCopy into the bias table (C2) takes float from float / half / bfloat16_t, or "
                  "int32_t from int32_t (basic data-move page, the L1 -> C2 path; copy_cbuf_to_bt)");
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if (b.checks && (dst.kind() != pyasc_sim::kapi::kBT || src.kind() != pyasc_sim::kapi::kL1)) {
        pyasc_sim::kapi::fail("cube-position", loc,
                              "DataCopy into the bias table: dst is a %s tensor (in %s) and src a %s tensor (in %s), "
                              "but the bias-table copy goes from L1 (A1 / B1 / C1) to C2 (BT)%s",
                              pyasc_sim::kapi::pos_name(dst.GetPosition()), pyasc_sim::kapi::mem_name(dst.kind()),
                              pyasc_sim::kapi::pos_name(src.GetPosition()), pyasc_sim::kapi::mem_name(src.kind()),
                              std::is_same<T, U>::value
                                  ? ""
                                  : "; a DataCopy between local tensors of different element types exists only on "
                                    "this path");
    }
    // a burst reads blockLen 64-byte blocks of the source and writes as many elements of T
    const uint64_t n_elem = p.blockLen * 64ull / sizeof(U);
    const uint64_t src_burst = n_elem * sizeof(U), dst_burst = n_elem * sizeof(T);
    const uint64_t sp = src_burst + p.srcStride * 32ull, dp = dst_burst + p.dstStride * 64ull;
    dst.check_aligned("DataCopy (L1 -> bias table)", "dst", loc, 64);
    src.check_aligned("DataCopy (L1 -> bias table)", "src", loc, 32);
    src.check_read_bursts(p.blockCount, src_burst, sp, "DataCopy (L1 -> bias table) reads", loc);
    const uint64_t dst_span = p.blockCount == 0 ? 0 : (p.blockCount - 1) * dp + dst_burst;
    dst.check_bytes(0, static_cast<int64_t>(dst_span), "DataCopy (L1 -> bias table) writes", loc);
    if constexpr (kMarksCube) pyasc_sim::kapi::uses_cube_unit();
    const uint8_t *s = reinterpret_cast<const uint8_t *>(src.ptr());
    uint8_t *d = reinterpret_cast<uint8_t *>(dst.ptr());
    for (uint64_t i = 0; i < p.blockCount; ++i) {
        const U *si = reinterpret_cast<const U *>(s + i * sp);
        T *di = reinterpret_cast<T *>(d + i * dp);
        if constexpr (std::is_same<T, U>::value) {
            std::memmove(di, si, dst_burst);
        } else {
            for (uint64_t j = 0; j < n_elem; ++j) di[j] = static_cast<T>(pyasc_sim::kapi::to_double(si[j]));  // exact
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE1,
                            pyasc_sim::cost::kDmaIssueCycles +
                                static_cast<double>(p.blockCount * dst_burst) / pyasc_sim::cost::kLocalBytesPerCycle);
}

// The same-type DataCopy(local, local, DataCopyParams) with a C2 destination (a run-time position).
template <typename T>
inline void bias_table_copy_same(const LocalTensor<T> &dst, const LocalTensor<T> &src, const DataCopyParams &p,
                                 const pyasc_sim::kapi::SrcLoc &loc) {
    if constexpr (BiasTableCopyTypes<T, T>::value) {
        bias_table_copy<T, T, false>(dst, src, p, loc);
    } else {
        pyasc_sim::kapi::fail("invalid-argument", loc,
                              "DataCopy into the bias table (C2) of %zu-byte elements that are not float or int32_t: "
                              "the table holds float (copied from float, or widened from half / bfloat16_t through "
                              "DataCopy(LocalTensor<float>, LocalTensor<half or bfloat16_t>, DataCopyParams)) or "
                              "int32_t",
                              sizeof(T));
    }
}

}  // namespace sim_detail

// The converting prototype (source and destination types differ): L1 -> C2 only.
template <typename T, typename U, typename std::enable_if<!std::is_same<T, U>::value, int>::type = 0>
inline void DataCopy(const LocalTensor<T> &dst, const LocalTensor<U> &src, const DataCopyParams &p,
                     pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
    sim_detail::bias_table_copy(dst, src, p, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_BIAS_TABLE_COPY_H_
