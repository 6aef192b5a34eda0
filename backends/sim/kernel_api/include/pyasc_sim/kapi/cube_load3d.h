// Ascend C on the CPU -- the rest of the cube data path public kernels use: Load3Dv2
// (LoadData with LoadData3DParamsV2, A1 -> A2 / B1 -> B2 im2col), InitConstValue (fill L1 / L0A / L0B),
// InitSocState (ToBfloat16 / ToFloat live in vector_extra.h).
//
// Load3Dv2 is provided for the 1 x 1 filter, stride 1, dilation 1, no padding, no transpose case
// (the feature map is then the matrix itself: the GEMM use of Load3D); other settings fail with
// "unsupported".  Source (A1 / B1) layout C1 x H x W x C0 (C0 = 32 bytes of elements); the im2col
// matrix has row m = h * l1W + w and column k = channel.  Destination A2: "Zz" fractals of 16 x C0
// (cube.h).  Destination B2 (the B1 -> B2 path; LoadData page: B2 is "小N大Z", N-ordered fractals in Z
// order): the matrix is the B operand with GEMM-K = m and GEMM-N = k, stored as L0B's "Zn" fractals
// (cube.h: fractal (m / 16, k / 16) at (m / 16) * kBlocks + k / 16, element (mm, kk) at kk * 16 + mm);
// 16-bit types only (their B2 fractal is 16 x 16; the C0 x 16 fractals of 8- / 32-bit types would cut
// the channel blocks differently: "unsupported").
#pragma once

#include <algorithm>

#include "pyasc_sim/kapi/cube.h"

namespace AscendC {

template <typename T>
struct LoadData3DParamsV2 {
    uint8_t padList[4] = {0, 0, 0, 0};
    uint16_t l1H = 0;
    uint16_t l1W = 0;
    uint16_t channelSize = 0;
    uint16_t kExtension = 0;
    uint16_t mExtension = 0;
    uint16_t kStartPt = 0;
    uint16_t mStartPt = 0;
    uint8_t strideW = 1;
    uint8_t strideH = 1;
    uint8_t filterW = 1;
    uint8_t filterH = 1;
    uint8_t dilationFilterW = 1;
    uint8_t dilationFilterH = 1;
    bool enTranspose = false;
    bool enSmallK = false;
    T padValue = T{};
    bool filterSizeW = false;
    bool filterSizeH = false;
    bool fMatrixCtrl = false;
};

template <typename T, typename U = T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData3DParamsV2<U> &p,
                     PYASC_SIM_LOC) {
    constexpr uint32_t c0 = 32 / sizeof(T);
    if (p.filterW != 1 || p.filterH != 1 || p.strideW != 1 || p.strideH != 1 || p.dilationFilterW != 1 ||
        p.dilationFilterH != 1 || p.padList[0] || p.padList[1] || p.padList[2] || p.padList[3] || p.enTranspose ||
        p.enSmallK || p.filterSizeW || p.filterSizeH || p.fMatrixCtrl) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "LoadData (Load3Dv2): the simulator provides the 1 x 1 filter, stride 1, dilation 1, "
                              "unpadded, untransposed im2col only");
    }
    const bool toB2 = dst.GetPosition() == TPosition::B2;
    if (dst.GetPosition() != TPosition::A2 && !toB2) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "LoadData (Load3Dv2): the simulator provides the A1 -> A2 and B1 -> B2 paths only");
    }
    if (toB2 && sizeof(T) != 2) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "LoadData (Load3Dv2): the B1 -> B2 path is provided for 16-bit types (half, bfloat16_t, "
                              "int16_t, uint16_t) only, got %u-byte elements",
                              static_cast<unsigned>(sizeof(T)));
    }
    const uint32_t rows = static_cast<uint32_t>(p.l1H) * p.l1W;
    if (p.channelSize % c0 || p.kExtension % c0 || p.kStartPt % c0 || p.mExtension % 16 || p.mStartPt % 16 ||
        p.kStartPt + p.kExtension > p.channelSize || p.mStartPt + p.mExtension > ((rows + 15) / 16) * 16) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "LoadData (Load3Dv2): channelSize %u, kStartPt %u, kExtension %u must be multiples of "
                              "%u within the channels, mStartPt %u, mExtension %u multiples of 16 within the %u "
                              "positions",
                              p.channelSize, p.kStartPt, p.kExtension, c0, p.mStartPt, p.mExtension, rows);
    }
    dst.check_aligned("LoadData", "dst", loc, 512);
    src.check_aligned("LoadData", "src", loc, 32);
    const uint64_t n = static_cast<uint64_t>(p.mExtension) * p.kExtension;
    dst.check(0, static_cast<int64_t>(n), "LoadData writes", loc);
    // the reads: rows [mStartPt, min(mStartPt + mExtension, rows)) of each channel block the k range covers
    const uint32_t mEnd = std::min<uint32_t>(p.mStartPt + p.mExtension, rows);
    if (mEnd > p.mStartPt) {
        for (uint32_t c1 = p.kStartPt / c0; c1 < (p.kStartPt + p.kExtension) / c0; ++c1) {
            src.check((static_cast<int64_t>(c1) * rows + p.mStartPt) * c0, static_cast<int64_t>(mEnd - p.mStartPt) * c0,
                      "LoadData reads", loc);
        }
    }
    T *d = dst.ptr();
    const T *s = src.ptr();
    const uint32_t kBlocks = p.kExtension / c0;
    for (uint32_t m = 0; m < p.mExtension; ++m) {
        const uint32_t row = p.mStartPt + m;
        for (uint32_t kb = 0; kb < kBlocks; ++kb) {
            T *out = d + ((m / 16) * kBlocks + kb) * 16 * c0 + (toB2 ? m % 16 : (m % 16) * c0);
            const uint64_t step = toB2 ? 16 : 1;  // B2: the fractal is stored column by column
            const uint32_t c1 = p.kStartPt / c0 + kb;
            if (row >= rows) {
                for (uint32_t e = 0; e < c0; ++e) out[e * step] = p.padValue;
                continue;
            }
            const T *in = s + (static_cast<uint64_t>(c1) * rows + row) * c0;
            for (uint32_t e = 0; e < c0; ++e) out[e * step] = in[e];
        }
    }
    pyasc_sim::kapi::uses_cube_unit();
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE1,
                            pyasc_sim::cost::kDmaIssueCycles + n * sizeof(T) / pyasc_sim::cost::kLocalBytesPerCycle);
}

template <typename T>
struct InitConstValueParams {
    InitConstValueParams() {}
    InitConstValueParams(const uint16_t repeatTimesIn, const uint16_t blockNumIn, const uint16_t dstGapIn,
                         const T initValueIn)
        : repeatTimes(repeatTimesIn), blockNum(blockNumIn), dstGap(dstGapIn), initValue(initValueIn) {}
    uint16_t repeatTimes = 0;
    uint16_t blockNum = 0;
    uint16_t dstGap = 0;
    T initValue = T{};
};

// repeatTimes x (blockNum blocks written, dstGap blocks skipped); a block is 32 bytes in A1 / B1
// and a 512-byte fractal in A2 / B2.
template <typename T, typename U = T>
inline void InitConstValue(const LocalTensor<T> &dst, const InitConstValueParams<U> &p, PYASC_SIM_LOC) {
    const TPosition pos = dst.GetPosition();
    const uint64_t block = (pos == TPosition::A2 || pos == TPosition::B2) ? 512 : 32;
    const uint64_t per = block / sizeof(T);
    const uint64_t total = (static_cast<uint64_t>(p.repeatTimes) * (p.blockNum + p.dstGap)) * per;
    if (total) dst.check(0, static_cast<int64_t>(total - p.dstGap * per), "InitConstValue", loc);
    T *d = dst.ptr();
    const T v = static_cast<T>(p.initValue);
    for (uint64_t r = 0; r < p.repeatTimes; ++r) {
        T *base = d + r * (p.blockNum + p.dstGap) * per;
        for (uint64_t i = 0; i < p.blockNum * per; ++i) base[i] = v;
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeMTE2,
                            pyasc_sim::cost::kDmaIssueCycles +
                                p.repeatTimes * p.blockNum * block / pyasc_sim::cost::kLocalBytesPerCycle);
}

// The SoC state registers a cube kernel may reset first: nothing to do on the simulator.
inline void InitSocState() {}

}  // namespace AscendC
