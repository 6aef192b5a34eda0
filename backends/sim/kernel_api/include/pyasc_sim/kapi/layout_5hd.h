// Ascend C on the CPU -- TransDataTo5HD: the 16-address NCHW -> NC1HWC0 conversion (and block
// transpose), in its three documented forms (LocalTensor[16] lists, uint64_t[16] address lists,
// LocalTensor<uint64_t> address tensors).  Written from the public Ascend C API reference
// (asc-devkit docs/api/SIMD-API/基础API/Memory矢量计算/数据排布转换/TransDataTo5HD.md;
// ascendcopapi atlasascendc_api_07_0200.html); no CANN file was used.
//
// One repeat reads one 32-byte DataBlock at each of the 16 source addresses and writes 16 dst blocks:
//   16-bit T: loop i < 16: dst block i = { src_k[i] : k < 16 };
//   32-bit T: loop j < 8:  dst block 2j = { src_k[j] : k < 8 }, block 2j + 1 = { src_k[j] : 8 <= k < 16 };
//    8-bit T: loop i < 16: the half (dstHighHalf ? upper : lower 16 bytes) of dst block i =
//             { src_k[i + (srcHighHalf ? 16 : 0)] : k < 16 }; the other half is left unchanged.
// Repeat r adds r * repStride blocks to every address; with repeatTimes == 1 the documented effective
// start is address + repStride (set the strides to 0 to use the addresses as given); 0 repeats are a NOP.
// Checks: the 16 addresses are 32-byte aligned and lie in the block's Unified Buffer (address forms)
// or inside their tensors (list form); every block read / written is bounds- and init-checked.
#ifndef PYASC_SIM_KAPI_LAYOUT_5HD_H_
#define PYASC_SIM_KAPI_LAYOUT_5HD_H_

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "pyasc_sim/kapi/base.h"
#include "pyasc_sim/kapi/dtype_tables.h"
#include "pyasc_sim/kapi/state.h"
#include "pyasc_sim/kapi/tensor.h"

// Element types per SoC family (page TransDataTo5HD, 数据类型): Atlas A2 and the Atlas inference
// series AI Core list int8_t、uint8_t、int16_t、uint16_t、half、int32_t、uint32_t、float (no bfloat16_t).
#if __CCE_AICORE__ == 220 || __CCE_AICORE__ == 200
#define PYASC_SIM_DT_TransDataTo5HD int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float  // source: asc-devkit TransDataTo5HD.md (数据类型, 910b / 310p rows)
#else
#define PYASC_SIM_DT_TransDataTo5HD PYASC_SIM_DT_UNCHECKED
#endif

namespace AscendC {

constexpr int32_t NCHW_CONV_ADDR_LIST_SIZE = 16;

struct TransDataTo5HDParams {
    TransDataTo5HDParams() = default;
    TransDataTo5HDParams(const bool dstHighHalfIn, const bool srcHighHalfIn, const uint8_t repeatTimesIn,
                         const uint16_t dstRepStrideIn, const uint16_t srcRepStrideIn)
        : dstHighHalf(dstHighHalfIn), srcHighHalf(srcHighHalfIn), repeatTimes(repeatTimesIn),
          dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn) {}
    bool dstHighHalf = false;
    bool srcHighHalf = false;
    uint8_t repeatTimes = 1;
    uint16_t dstRepStride = 0;
    uint16_t srcRepStride = 0;
};

namespace sim_detail {

// A raw UB address (GetPhyAddr() of a local tensor, as uint64_t) as a view bounded by the block's UB.
template <typename T>
inline LocalTensor<T> ub_view_of(uint64_t addr, const char *list, int i, const pyasc_sim::kapi::SrcLoc &loc) {
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    uint8_t *base = b.memory(pyasc_sim::kapi::kUB);
    uint8_t *end = base + b.capacity[pyasc_sim::kapi::kUB];
    uint8_t *p = reinterpret_cast<uint8_t *>(static_cast<uintptr_t>(addr));
    if (b.checks && (p < base || p + 32 > end)) {
        pyasc_sim::kapi::fail("local-out-of-bounds", loc,
                              "TransDataTo5HD: %s[%d] = 0x%llx is not an address in this core's Unified Buffer; "
                              "fill the list with (uint64_t)localTensor[offset].GetPhyAddr()",
                              list, i, static_cast<unsigned long long>(addr));
    }
    return LocalTensor<T>(reinterpret_cast<T *>(p), static_cast<uint32_t>(32 / sizeof(T)), TPosition::VECCALC, base,
                          end);
}

template <typename T>
inline void trans_5hd(const LocalTensor<T> (&dst)[NCHW_CONV_ADDR_LIST_SIZE],
                      const LocalTensor<T> (&src)[NCHW_CONV_ADDR_LIST_SIZE], const TransDataTo5HDParams &p,
                      const pyasc_sim::kapi::SrcLoc &loc) {
    static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4,
                  "AscendC::TransDataTo5HD: T must be an 8-, 16- or 32-bit type");
    PYASC_SIM_DTYPE_CHECK(TransDataTo5HD, T);
    const uint32_t reps = p.repeatTimes;
    if (reps == 0) return;  // documented NOP
    const bool checks = pyasc_sim::kapi::blk().checks;
    if (checks) {
        for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
            char name[24];
            std::snprintf(name, sizeof(name), "dstList[%d]", i);
            dst[i].check_aligned("TransDataTo5HD", name, loc);
            std::snprintf(name, sizeof(name), "srcList[%d]", i);
            src[i].check_aligned("TransDataTo5HD", name, loc);
        }
    }
    constexpr int kHalf = 16;
    for (uint32_t r = 0; r < reps; ++r) {
        const int64_t step = reps == 1 ? 1 : static_cast<int64_t>(r);
        const int64_t soff = step * p.srcRepStride * 32;
        const int64_t doff = step * p.dstRepStride * 32;
        // Reads first (all 16 source blocks), then writes: sources and destinations may overlap.
        uint8_t in[16][32];
        const int64_t rd_at = (sizeof(T) == 1 && p.srcHighHalf) ? kHalf : 0;
        const int64_t rd_len = sizeof(T) == 1 ? kHalf : 32;
        for (int k = 0; k < 16; ++k) {
            if (checks) src[k].check_bytes(soff + rd_at, rd_len, "TransDataTo5HD reads", loc);
            std::memcpy(in[k] + rd_at, reinterpret_cast<const uint8_t *>(src[k].ptr()) + soff + rd_at,
                        static_cast<size_t>(rd_len));
        }
        for (int i = 0; i < 16; ++i) {
            if (sizeof(T) == 1) {
                const int64_t at = doff + (p.dstHighHalf ? kHalf : 0);
                if (checks) dst[i].check_bytes(at, kHalf, "TransDataTo5HD writes", loc);
                uint8_t *d = reinterpret_cast<uint8_t *>(dst[i].ptr()) + at;
                for (int k = 0; k < 16; ++k) d[k] = in[k][rd_at + i];
            } else if (sizeof(T) == 2) {
                if (checks) dst[i].check_bytes(doff, 32, "TransDataTo5HD writes", loc);
                uint8_t *d = reinterpret_cast<uint8_t *>(dst[i].ptr()) + doff;
                for (int k = 0; k < 16; ++k) std::memcpy(d + 2 * k, in[k] + 2 * i, 2);
            } else {
                if (checks) dst[i].check_bytes(doff, 32, "TransDataTo5HD writes", loc);
                uint8_t *d = reinterpret_cast<uint8_t *>(dst[i].ptr()) + doff;
                const int j = i / 2, k0 = (i % 2) * 8;
                for (int k = 0; k < 8; ++k) std::memcpy(d + 4 * k, in[k0 + k] + 4 * j, 4);
            }
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV, pyasc_sim::kapi::vector_cycles(reps, 2.0));
}

template <typename T>
inline void trans_5hd_addrs(const uint64_t *dstList, const uint64_t *srcList, const TransDataTo5HDParams &p,
                            const pyasc_sim::kapi::SrcLoc &loc) {
    LocalTensor<T> d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        d[i] = ub_view_of<T>(dstList[i], "dstList", i, loc);
        s[i] = ub_view_of<T>(srcList[i], "srcList", i, loc);
    }
    trans_5hd(d, s, p, loc);
}

}  // namespace sim_detail

// dstList / srcList: 16 local tensors (each a 32-byte aligned DataBlock start).
template <typename T>
inline void TransDataTo5HD(const LocalTensor<T> (&dstList)[NCHW_CONV_ADDR_LIST_SIZE],
                           const LocalTensor<T> (&srcList)[NCHW_CONV_ADDR_LIST_SIZE],
                           const TransDataTo5HDParams &nchwconvParams, PYASC_SIM_LOC) {
    sim_detail::trans_5hd(dstList, srcList, nchwconvParams, loc);
}
// dstList / srcList: the 16 tensors' addresses, (uint64_t)tensor.GetPhyAddr().
template <typename T>
inline void TransDataTo5HD(uint64_t dstList[NCHW_CONV_ADDR_LIST_SIZE], uint64_t srcList[NCHW_CONV_ADDR_LIST_SIZE],
                           const TransDataTo5HDParams &nchwconvParams, PYASC_SIM_LOC) {
    sim_detail::trans_5hd_addrs<T>(dstList, srcList, nchwconvParams, loc);
}
// dst / src: local tensors holding the 16 addresses each (written with SetValue).
template <typename T>
inline void TransDataTo5HD(const LocalTensor<uint64_t> &dst, const LocalTensor<uint64_t> &src,
                           const TransDataTo5HDParams &nchwconvParams, PYASC_SIM_LOC) {
    dst.check_aligned("TransDataTo5HD", "dst", loc);
    src.check_aligned("TransDataTo5HD", "src", loc);
    dst.check_bytes(0, NCHW_CONV_ADDR_LIST_SIZE * 8, "TransDataTo5HD reads the address list", loc);
    src.check_bytes(0, NCHW_CONV_ADDR_LIST_SIZE * 8, "TransDataTo5HD reads the address list", loc);
    // The address lists are loaded by the scalar unit into the instruction's address registers (the
    // page's example fills them with SetValue and issues the instruction without a flag): a PIPE_S read.
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeS, 2.0 * NCHW_CONV_ADDR_LIST_SIZE);
    sim_detail::trans_5hd_addrs<T>(dst.ptr(), src.ptr(), nchwconvParams, loc);
}

// The SDK function behind TransDataTo5HD, on the 16 raw `__ubuf__` pointers of each list (ops kernels
// call it directly, e.g. GeGluGradV2's `TransDataTo5HDImpl(dstLocalList, srcLocalList, params)`): the
// address-list form with the same checks (each pointer inside this core's UB, 32-byte aligned).
template <typename T>
inline void TransDataTo5HDImpl(__ubuf__ T *dstList[NCHW_CONV_ADDR_LIST_SIZE], __ubuf__ T *srcList[NCHW_CONV_ADDR_LIST_SIZE],
                               const TransDataTo5HDParams &nchwconvParams, PYASC_SIM_LOC) {
    uint64_t d[NCHW_CONV_ADDR_LIST_SIZE], s[NCHW_CONV_ADDR_LIST_SIZE];
    for (int i = 0; i < NCHW_CONV_ADDR_LIST_SIZE; ++i) {
        d[i] = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(dstList[i]));
        s[i] = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(srcList[i]));
    }
    sim_detail::trans_5hd_addrs<T>(d, s, nchwconvParams, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_LAYOUT_5HD_H_
