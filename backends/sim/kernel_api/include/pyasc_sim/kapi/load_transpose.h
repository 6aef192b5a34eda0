// Ascend C on the CPU -- LoadDataWithTranspose: the transposing 2D load from L1 (A1 / B1) into
// L0A / L0B, with its parameter struct LoadData2dTransposeParams.
//
// Reference page LoadDataWithTranspose (atlasascendc_api_07_0239, CANN 8.0 - 9.x; Atlas A2 / A3 /
// 200I-500 A2 / 350): for half / bfloat16_t every repeat transposes one 16 x 16 fractal (512 bytes).
// Repeat i reads the source square at startIndex + i * srcStride (units: one square = one fractal for
// 16-bit types) and writes the destination fractal (1 + dstGap) fractals after the previous repeat's
// first fractal (dstGap in 512-byte units); dstFracGap does not apply to 16-bit types, whose square is
// one fractal.  The element (r, c) of the source fractal lands at (c, r) of the destination fractal:
// the same bits LoadData with ifTranspose = true moves for 16-bit types, which is why a B operand
// loaded in Nd2Nz's band order reaches L0B as the Zn layout Mmad reads (kapi/cube.h).
//
// For float / int32_t / uint32_t every repeat transposes one 16 x 16 square of 4-byte elements (1 KB):
// the source's two consecutive 16 x 8 fractals side by side (square column c < 8 from the first, c >= 8
// from the second; srcStride and startIndex count squares), transposed, split again into two 16 x 8
// fractals by columns -- the first holds square rows 0..7 as its columns, the second rows 8..15 -- the
// second written (1 + dstFracGap) fractals after the first, the next repeat's first (1 + dstGap)
// fractals after this one's first.  That turns a B operand's zZ tiles in L1 (16 K-rows x 8 N) into the
// nZ fractals (16 N x 8 K) L0B holds for float Mmad (Catlass's CopyL1ToL0B for float).
//
// For int8_t / uint8_t every repeat transposes one 32 x 32 square of bytes (1 KB): the source's two
// consecutive 16 x 32 fractals stacked (square rows 0..15 from the first, 16..31 from the second: a
// fractal row is 32 bytes, so the square's rows are the fractals' rows in order), transposed, split
// again into two 16 x 32 fractals by rows -- the first holds square columns 0..15 as its rows, the
// second columns 16..31 -- the second written (1 + dstFracGap) fractals after the first, the next
// repeat's first (1 + dstGap) fractals after this one's first; srcStride and startIndex count squares.
// That turns int8 operands as Catlass keeps them in L1 into the fractals Mmad reads: a column-major A's
// nZ tiles (32 M x 16 K, one K column per 32-byte line) into L0A's zZ (16 M x 32 K), a row-major B's zN
// tiles (16 K x 32 N) into L0B's nZ (one N column of 32 K per line); NPUKernelBench's
// GroupedMatmulSliceKPerTokenDequant does both (COMPAT.md, round 20).
#ifndef PYASC_SIM_KAPI_LOAD_TRANSPOSE_H_
#define PYASC_SIM_KAPI_LOAD_TRANSPOSE_H_

#include "pyasc_sim/kapi/cube.h"

namespace AscendC {

struct LoadData2dTransposeParams {
    LoadData2dTransposeParams() {}
    LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                              const uint16_t dstGapIn, const uint16_t dstFracGapIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn) {}
    LoadData2dTransposeParams(const uint16_t startIndexIn, const uint8_t repeatTimesIn, const uint16_t srcStrideIn,
                              const uint16_t dstGapIn, const uint16_t dstFracGapIn, const uint16_t addrModeIn)
        : startIndex(startIndexIn), repeatTimes(repeatTimesIn), srcStride(srcStrideIn), dstGap(dstGapIn),
          dstFracGap(dstFracGapIn), addrMode(addrModeIn) {}
    uint16_t startIndex = 0;  // first source square
    uint8_t repeatTimes = 0;  // squares to transpose
    uint16_t srcStride = 0;   // squares between consecutive source squares
    uint16_t dstGap = 0;      // 512-byte fractals between one repeat's first fractal and the next's
    uint16_t dstFracGap = 0;  // 512-byte fractals between the two fractals of one repeat (8 / 32-bit types)
    uint16_t addrMode = 0;
};

namespace sim_detail {

// The two-fractal forms (32-bit: float / int32_t / uint32_t; 8-bit: int8_t / uint8_t; see the header comment):
// each repeat transposes one 1 KB square into two 512-byte fractals of 16 rows, dstFracGap fractals apart;
// at(i, j, half) is the square's element that lands at row i, column j of fractal `half` (0 or 1).
template <typename T, typename At>
inline void load_transpose_pair(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2dTransposeParams &p,
                                const pyasc_sim::kapi::SrcLoc &loc, At at) {
    constexpr uint64_t frac = 512 / sizeof(T);     // elements per 512-byte fractal
    constexpr uint64_t square = 1024 / sizeof(T);  // elements per square (two fractals, 1 KB)
    constexpr uint64_t width = frac / 16;          // a fractal row
    check_position(src, pyasc_sim::kapi::kL1, "LoadDataWithTranspose", "src", loc);
    dst.check_aligned("LoadDataWithTranspose", "dst", loc, 512);
    src.check_aligned("LoadDataWithTranspose", "src", loc, 32);
    const uint64_t dstExtent = p.repeatTimes == 0 ? 0
        : ((p.repeatTimes - 1ull) * (1ull + p.dstGap) + (1ull + p.dstFracGap) + 1) * frac;
    dst.check(0, static_cast<int64_t>(dstExtent), "LoadDataWithTranspose writes", loc);
    // a square no instruction wrote leaves both its destination fractals unwritten (cube_taint.h), reported only
    // where the data leaves the cube -- as the 2D LoadData does
    const std::vector<uint64_t> tainted = fractal_source_taint(src, p.repeatTimes, p.startIndex * 1024ull,
                                                               p.srcStride * 1024ull, 1024, (1ull + p.dstGap) * 512ull,
                                                               (1ull + p.dstFracGap) * 512ull,
                                                               "LoadDataWithTranspose reads", loc);
    T *d = dst.ptr();
    const T *s = src.ptr();
    for (uint64_t r = 0; r < p.repeatTimes; ++r) {
        const T *sq = s + (p.startIndex + r * p.srcStride) * square;
        T *d0 = d + r * (1ull + p.dstGap) * frac;
        T *d1 = d0 + (1ull + p.dstFracGap) * frac;
        for (uint64_t i = 0; i < 16; ++i) {
            for (uint64_t j = 0; j < width; ++j) {
                d0[i * width + j] = sq[at(i, j, 0)];
                d1[i * width + j] = sq[at(i, j, 1)];
            }
        }
    }
    mark_load_taint(dst, tainted);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE1,
                            pyasc_sim::cost::kDmaIssueCycles + p.repeatTimes * 1024.0 / pyasc_sim::cost::kLocalBytesPerCycle);
}

// 32-bit: square element (row, col) = fractal (col / 8) at row * 8 + col % 8; destination (i, j) = square (j, i)
template <typename T>
inline void load_transpose_b32(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2dTransposeParams &p,
                               const pyasc_sim::kapi::SrcLoc &loc) {
    load_transpose_pair(dst, src, p, loc, [](uint64_t i, uint64_t j, uint64_t half) {
        return (i / 8) * 128 + (j + 8 * half) * 8 + i % 8;
    });
}

// 8-bit: square element (row, col) = sq[row * 32 + col]; destination row i = square column i (fractal 0) / i + 16 (1)
template <typename T>
inline void load_transpose_b8(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData2dTransposeParams &p,
                              const pyasc_sim::kapi::SrcLoc &loc) {
    load_transpose_pair(dst, src, p, loc, [](uint64_t i, uint64_t j, uint64_t half) { return j * 32 + i + 16 * half; });
}

}  // namespace sim_detail

template <typename T>
inline void LoadDataWithTranspose(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                  const LoadData2dTransposeParams &p, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(LoadData, T);
    if (sizeof(T) == 4) {
        sim_detail::load_transpose_b32(dst, src, p, loc);
        return;
    }
    if (sizeof(T) == 1) {
        sim_detail::load_transpose_b8(dst, src, p, loc);
        return;
    }
    constexpr uint64_t frac = 256;  // 16-bit elements per 512-byte fractal
    sim_detail::check_position(src, pyasc_sim::kapi::kL1, "LoadDataWithTranspose", "src", loc);
    dst.check_aligned("LoadDataWithTranspose", "dst", loc, 512);
    src.check_aligned("LoadDataWithTranspose", "src", loc, 32);
    const uint64_t dstExtent = p.repeatTimes == 0 ? 0 : ((p.repeatTimes - 1ull) * (1ull + p.dstGap) + 1) * frac;
    dst.check(0, static_cast<int64_t>(dstExtent), "LoadDataWithTranspose writes", loc);
    // a source fractal no instruction wrote leaves its destination fractal unwritten (cube_taint.h)
    const std::vector<uint64_t> tainted = sim_detail::fractal_source_taint(src, p.repeatTimes, p.startIndex * 512ull,
                                                                           p.srcStride * 512ull, 512,
                                                                           (1ull + p.dstGap) * 512ull, 0,
                                                                           "LoadDataWithTranspose reads", loc);
    LoadData2DParams q;
    q.startIndex = p.startIndex;
    q.repeatTimes = p.repeatTimes;
    q.srcStride = p.srcStride;
    q.dstGap = p.dstGap;
    q.ifTranspose = true;
    sim_detail::load2d(dst.ptr(), src.ptr(), q);
    sim_detail::mark_load_taint(dst, tainted);
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE1,
                            pyasc_sim::cost::kDmaIssueCycles + p.repeatTimes * 512.0 / pyasc_sim::cost::kLocalBytesPerCycle);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_LOAD_TRANSPOSE_H_
