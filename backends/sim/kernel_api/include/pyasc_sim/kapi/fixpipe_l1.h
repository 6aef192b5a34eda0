// kapi/fixpipe_l1.h -- Fixpipe from L0C into L1 (FixpipeParamsV220, the Atlas A2 / A3 L0C -> L1 path), and the
// older Fixpipe parameters `FixpipeParams<T>` (cburstNum / burstLen / strides, QuantParams, Nz2NdParams) that
// public kernels written for earlier CANN releases pass (sgl-kernel-npu's tri_inv).
//
// Why: a cube kernel that chains matrix products keeps the product on chip: Fixpipe moves C from L0C into an
// L1 (A1 / B1 / C1) tensor, converting float to half on the way, and LoadData takes it on to L0A / L0B for the
// next Mmad.  The simulator's Fixpipe wrote GM only.
//
// Semantics (Fixpipe page, atlasascendc_api_07_0251, "通路L0C Buffer(CO1)->L1 Buffer(C1)", and its
// FixpipeParamsV220 table; checked with the docs corpus):
//  * dst is an L1 LocalTensor in NZ format (A2 / A3 write NZ to L1: use CFG_NZ; the NZ2ND conversion exists on
//    the L0C -> GM path only), 32-byte aligned; src is an L0C (CO1) tensor, 64-byte aligned;
//  * nSize (a multiple of 16, <= 4095) columns x mSize rows; nSize or mSize 0 is a no-op;
//  * srcStride: start-to-start distance of the source's column fractals in C0 rows (16 elements of the L0C type);
//  * dstStride: start-to-start distance of the destination's column fractals in 32-byte data blocks (not 0);
//  * quantPre: this path has no NoQuant; float -> half / bfloat16_t (F322F16 / F322BF16, round to nearest
//    even), int32_t -> half (DEQF16 scalar); float / int32_t -> int8_t / uint8_t (channel merge of two 16-column
//    fractals into one 32-byte row) is refused as unsupported by the simulator.
//
// The older parameters (asc-devkit's kernel_utils_struct_dma_params.h, Apache-2.0 (2023): FixpipeParams<src_T>,
// QuantParams, Nz2NdParams; the TIK fixpipe page atlastikapi_07_0093 for the burst fields): cburstNum bursts
// (column fractals of 16), each burstLen data blocks of 32 bytes of the L0C type (so mSize = burstLen * 32 /
// sizeof(src) / 16 rows), srcStride the gap between bursts in 256-element fractals, dstStride the gap in 32-byte
// blocks; with nz2ndParams.nz2ndEn the output is ND with dstStride elements per row and originalNSize columns
// (which must be set).  They are translated into the FixpipeParamsV220 form: nSize = nz2ndEn ? originalNSize :
// cburstNum * 16, srcStride = srcStride * 16 + mSize rounded up to 16, dstStride = nz2ndEn ? dstStride :
// dstStride + burstLen * sizeof(dst) / sizeof(src).
#ifndef PYASC_SIM_KAPI_FIXPIPE_L1_H_
#define PYASC_SIM_KAPI_FIXPIPE_L1_H_

#include <cstdint>
#include <type_traits>

#include "pyasc_sim/kapi/cube.h"

namespace AscendC {

// The older quantisation / NZ2ND / Fixpipe parameter structs (fields and defaults as documented).
struct QuantParams {
    QuantParams() {}
    QuantParams(const QuantMode_t quantPreIn) : quantPre(quantPreIn) {}  // NOLINT: implicit as documented
    QuantParams(const QuantMode_t quantPreIn, const uint64_t deqScalarIn) : quantPre(quantPreIn), deqScalar(deqScalarIn) {}
    QuantMode_t quantPre = QuantMode_t::NoQuant;
    uint64_t deqScalar = 0;
};

struct Nz2NdParams {
    Nz2NdParams() {}
    Nz2NdParams(const bool nz2ndEnIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn, const uint16_t dstNdStrideIn,
                const uint16_t originalNSizeIn)
        : nz2ndEn(nz2ndEnIn), ndNum(ndNumIn), srcNdStride(srcNdStrideIn), dstNdStride(dstNdStrideIn),
          originalNSize(originalNSizeIn) {}
    bool nz2ndEn = false;
    uint16_t ndNum = 1;
    uint16_t srcNdStride = 0;
    uint16_t dstNdStride = 0;
    uint16_t originalNSize = 0;  // columns of the ND output (NZ2ND may leave a partial fractal)
};

template <typename src_T = int32_t>
struct FixpipeParams {
    FixpipeParams() {}
    FixpipeParams(const uint16_t count, const uint16_t len, const uint16_t srcStrideIn, const uint32_t dstStrideIn)
        : cburstNum(count), burstLen(len), dstStride(dstStrideIn), srcStride(srcStrideIn) {}
    uint16_t cburstNum = 1;  // bursts: column fractals of 16
    uint16_t burstLen = 1;   // 32-byte blocks of the L0C type per burst
    uint32_t dstStride = 0;  // gap between bursts in 32-byte blocks; with NZ2ND the ND row stride in elements
    uint16_t srcStride = 0;  // gap between bursts in 256-element fractals
    QuantParams quantParams;
    bool reluEn = false;
    Nz2NdParams nz2ndParams;
    uint8_t unitFlag = 0;
};

namespace sim_detail {

// FixpipeParams<Src> -> FixpipeParamsV220 (the translation in the header comment), with the documented ranges
// (cburstNum in [1, 4095], burstLen >= 1, originalNSize set under NZ2ND).
template <typename Dst, typename Src>
inline FixpipeParamsV220 fixpipe_v220_of(const FixpipeParams<Src> &p, const SrcLoc &loc) {
    if (pyasc_sim::kapi::blk().checks) {
        if (p.cburstNum == 0 || p.cburstNum > 4095 || p.burstLen == 0) {
            pyasc_sim::kapi::fail("fixpipe-params", loc,
                                  "Fixpipe(FixpipeParams): cburstNum = %u, burstLen = %u; cburstNum is documented in "
                                  "[1, 4095] and burstLen in [1, 65535] (32-byte blocks)",
                                  static_cast<unsigned>(p.cburstNum), static_cast<unsigned>(p.burstLen));
        }
        if (p.nz2ndParams.nz2ndEn && p.nz2ndParams.originalNSize == 0) {
            pyasc_sim::kapi::fail("fixpipe-params", loc,
                                  "Fixpipe(FixpipeParams) with nz2ndParams.nz2ndEn = true needs "
                                  "nz2ndParams.originalNSize (the ND output's columns); it is 0");
        }
        if ((p.burstLen * 32u) % (16u * sizeof(Src)) != 0) {
            pyasc_sim::kapi::fail("fixpipe-params", loc,
                                  "Fixpipe(FixpipeParams): burstLen = %u blocks of 32 bytes is not whole rows of 16 "
                                  "%zu-byte L0C elements (burstLen = rows * 16 * sizeof(src) / 32)",
                                  static_cast<unsigned>(p.burstLen), sizeof(Src));
        }
    }
    FixpipeParamsV220 v;
    const uint32_t rows = p.burstLen * 32u / static_cast<uint32_t>(sizeof(Src)) / 16u;
    v.mSize = static_cast<uint16_t>(rows);
    v.nSize = p.nz2ndParams.nz2ndEn ? p.nz2ndParams.originalNSize : static_cast<uint16_t>(p.cburstNum * 16u);
    v.srcStride = static_cast<uint16_t>(p.srcStride * 16u + (rows + 15u) / 16u * 16u);
    v.dstStride = p.nz2ndParams.nz2ndEn ? p.dstStride
                                        : p.dstStride + static_cast<uint32_t>(p.burstLen * sizeof(Dst) / sizeof(Src));
    v.quantPre = p.quantParams.quantPre;
    v.deqScalar = p.quantParams.deqScalar;
    v.reluEn = p.reluEn;
    v.unitFlag = p.unitFlag;
    v.ndNum = p.nz2ndParams.ndNum;
    v.srcNdStride = p.nz2ndParams.srcNdStride;
    v.dstNdStride = p.nz2ndParams.dstNdStride;
    return v;
}

}  // namespace sim_detail

// L0C -> L1 (NZ).  Column fractal ni (16 columns x mSize rows) goes to byte ni * dstStride * 32 of dst, each row
// 16 converted elements (32 bytes for half / bfloat16_t).
template <typename T, typename U, const FixpipeConfig &config = CFG_ROW_MAJOR>
inline void Fixpipe(const LocalTensor<T> &dst, const LocalTensor<U> &src, const FixpipeParamsV220 &p, PYASC_SIM_LOC) {
    PYASC_SIM_FIXPIPE_CHECK(T, U);
    sim_detail::check_position(src, pyasc_sim::kapi::kL0C, "Fixpipe", "src", loc);
    sim_detail::check_position(dst, pyasc_sim::kapi::kL1, "Fixpipe (L0C -> L1)", "dst", loc);
    pyasc_sim::kapi::BlockState &b = pyasc_sim::kapi::blk();
    if constexpr (config.format != CO2Layout::NZ) {
        if (b.checks) {
            pyasc_sim::kapi::fail("fixpipe-l1", loc,
                                  "Fixpipe from L0C into an L1 tensor writes NZ (the reference's L0C -> L1 path: dst "
                                  "\"数据格式为NZ格式\"; NZ2ND exists on the L0C -> GM path only): pass CFG_NZ, "
                                  "Fixpipe<T, U, CFG_NZ>(dst, src, params)");
        }
    }
    if (sizeof(T) != 2) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "Fixpipe from L0C into L1 with a %zu-byte destination type: the simulator supports the "
                              "16-bit destinations (half / bfloat16_t); the int8_t / uint8_t channel merge is not "
                              "implemented", sizeof(T));
    }
    if (b.checks && (p.quantPre == QuantMode_t::NoQuant || !sim_detail::fixpipe_quant_matches<T, U>(p.quantPre))) {
        pyasc_sim::kapi::fail("fixpipe-l1", loc,
                              "Fixpipe from L0C into L1 with quantPre = QuantMode_t::%s for a %zu-byte L0C type and a "
                              "%zu-byte L1 type: this path has no NoQuant (float -> half / bfloat16_t take F322F16 / "
                              "F322BF16, int32_t -> half DEQF16; Fixpipe page, FixpipeParamsV220 quantPre)",
                              sim_detail::quant_name(p.quantPre), sizeof(U), sizeof(T));
    }
    if (p.quantPre == QuantMode_t::VDEQF16 || p.quantPre == QuantMode_t::VQF322B8_PRE || p.quantPre == QuantMode_t::VREQ8) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "Fixpipe into L1 with the tensor quantisation mode %s needs the cbufWorkspace overload, "
                              "which the simulator does not provide", sim_detail::quant_name(p.quantPre));
    }
    if (p.mSize == 0 || p.nSize == 0) return;  // documented no-op
    if (b.checks) {
        if (p.nSize % 16 != 0 || p.nSize > 4095) {
            pyasc_sim::kapi::fail("fixpipe-l1", loc,
                                  "Fixpipe into L1: nSize = %u; the FixpipeParamsV220 table documents nSize in "
                                  "[0, 4095] and a multiple of 16", static_cast<unsigned>(p.nSize));
        }
        if (p.dstStride == 0) {
            pyasc_sim::kapi::fail("fixpipe-l1", loc,
                                  "Fixpipe into L1: dstStride = 0; it is the distance between the destination's "
                                  "column fractals in 32-byte blocks and must not be 0");
        }
    }
    src.check_aligned("Fixpipe", "src", loc, 64);
    dst.check_aligned("Fixpipe", "dst", loc, 32);
    const uint64_t nb = p.nSize / 16u;
    src.check_read_bursts(nb, p.mSize * 16ull * sizeof(U), p.srcStride * 16ull * sizeof(U), "Fixpipe reads", loc);
    const uint64_t pitch = static_cast<uint64_t>(p.dstStride) * 32u / sizeof(T);  // elements between column fractals
    if (b.checks && pitch < static_cast<uint64_t>(p.mSize) * 16u && nb > 1) {
        pyasc_sim::kapi::fail("fixpipe-l1", loc,
                              "Fixpipe into L1: dstStride = %u blocks (%llu elements) is shorter than a column fractal "
                              "of mSize = %u rows x 16 (%u elements): the column fractals overlap, and the reference "
                              "does not order overlapping writes",
                              static_cast<unsigned>(p.dstStride), static_cast<unsigned long long>(pitch),
                              static_cast<unsigned>(p.mSize), static_cast<unsigned>(p.mSize) * 16u);
    }
    for (uint64_t ni = 0; ni < nb; ++ni) dst.check(static_cast<int64_t>(ni * pitch), p.mSize * 16ll, "Fixpipe writes", loc);
    const double scale = sim_detail::fixpipe_scalar_scale(p.quantPre, p.deqScalar);
    const U *s = src.ptr();
    T *d = dst.ptr();
    for (uint64_t ni = 0; ni < nb; ++ni) {
        for (uint64_t r = 0; r < p.mSize; ++r) {
            for (uint64_t c = 0; c < 16; ++c) {
                d[ni * pitch + r * 16 + c] = sim_detail::fixpipe_convert<T>(s[ni * p.srcStride * 16 + r * 16 + c], scale, p.reluEn);
            }
        }
    }
    sim_detail::charge_fixpipe(p.mSize, p.nSize, sizeof(T));
}

// The older parameters: L0C -> GM (NZ, or ND with nz2ndParams.nz2ndEn) ...
template <typename T, typename U>
inline void Fixpipe(const GlobalTensor<T> &dst, const LocalTensor<U> &src, const FixpipeParams<U> &p, PYASC_SIM_LOC) {
    const FixpipeParamsV220 v = sim_detail::fixpipe_v220_of<T>(p, loc);
    if (p.nz2ndParams.nz2ndEn) {
        Fixpipe<T, U, CFG_ROW_MAJOR>(dst, src, v, loc);
    } else {
        Fixpipe<T, U, CFG_NZ>(dst, src, v, loc);
    }
}
// ... and L0C -> L1 (NZ only: the older implementation refuses nz2ndEn on this path too).
template <typename T, typename U>
inline void Fixpipe(const LocalTensor<T> &dst, const LocalTensor<U> &src, const FixpipeParams<U> &p, PYASC_SIM_LOC) {
    if (p.nz2ndParams.nz2ndEn && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("fixpipe-l1", loc,
                              "Fixpipe(LocalTensor, LocalTensor, FixpipeParams) from L0C into L1 with "
                              "nz2ndParams.nz2ndEn = true: the L0C -> L1 path writes NZ only");
    }
    Fixpipe<T, U, CFG_NZ>(dst, src, sim_detail::fixpipe_v220_of<T>(p, loc), loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_FIXPIPE_L1_H_
