// Ascend C on the CPU -- the rest of the cube data path public kernels use: Load3Dv2
// (LoadData with LoadData3DParamsV2, A1 -> A2 / B1 -> B2 im2col), InitConstValue (fill L1 / L0A / L0B),
// InitSocState (ToBfloat16 / ToFloat live in vector_extra.h).
//
// Load3Dv2 is provided for the 1 x 1 filter, stride 1, dilation 1, no transpose case (the GEMM use of
// Load3D); other settings fail with "unsupported".  Source (A1 / B1) layout C1 x H x W x C0 (C0 = 32 bytes
// of elements); padList = {left, right, top, bottom} (Load3D page, LoadData3DParamsV2 table; SetFmatrix
// page atlasascendc_api_07_0245: each 0..255) pads the feature map, so with a 1 x 1 filter and stride 1
// the im2col matrix has (top + l1H + bottom) x (left + l1W + right) rows: row m = ho * Wout + wo reads
// feature-map position (ho - top, wo - left) when that lies inside the map and is padValue otherwise;
// column k = channel.  Unpadded, row m is position m (the former, padding-free behaviour, unchanged).
// The template form LoadData<T, const IsResetLoad3dConfig &cfg>(...) (Load3D page: defaultConfig,
// IS_RESER_LOAD3D_DEFAULT_CONFIG = {isSetFMatrix true, isSetPadding true}) takes l1H / l1W / padList and
// padValue from the parameters when its flags are true (the default); the false forms read them from the
// SetFmatrix / SetLoadDataPaddingValue registers, which the simulator does not keep: "unsupported".
// Destination A2: "Zz"
// fractals of 16 x C0
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

// Load3Dv1 / Load3Dv2 template argument (Load3D page): whether the call sets the feature-map attributes
// (l1H, l1W, padList) and the pad value from its parameters.
struct IsResetLoad3dConfig {
    bool isSetFMatrix = true;
    bool isSetPadding = true;
};
constexpr IsResetLoad3dConfig IS_RESER_LOAD3D_DEFAULT_CONFIG = {true, true};

template <typename T, const IsResetLoad3dConfig &cfg = IS_RESER_LOAD3D_DEFAULT_CONFIG, typename U = T>
inline void LoadData(const LocalTensor<T> &dst, const LocalTensor<T> &src, const LoadData3DParamsV2<U> &p,
                     PYASC_SIM_LOC) {
    constexpr uint32_t c0 = 32 / sizeof(T);
    if (!cfg.isSetFMatrix || !cfg.isSetPadding) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "LoadData (Load3Dv2) with IsResetLoad3dConfig{isSetFMatrix %d, isSetPadding %d}: the "
                              "simulator keeps no SetFmatrix / SetLoadDataPaddingValue registers; pass {true, true} "
                              "(the default) so l1H, l1W, padList and padValue come from LoadData3DParamsV2",
                              static_cast<int>(cfg.isSetFMatrix), static_cast<int>(cfg.isSetPadding));
    }
    if (p.filterW != 1 || p.filterH != 1 || p.strideW != 1 || p.strideH != 1 || p.dilationFilterW != 1 ||
        p.dilationFilterH != 1 || p.enTranspose || p.enSmallK || p.filterSizeW || p.filterSizeH || p.fMatrixCtrl) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "LoadData (Load3Dv2): the simulator provides the 1 x 1 filter, stride 1, dilation 1, "
                              "untransposed im2col only");
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
    const uint32_t rows = static_cast<uint32_t>(p.l1H) * p.l1W;  // feature-map positions in src
    const uint32_t padL = p.padList[0], padT = p.padList[2];
    const uint32_t outW = padL + p.l1W + p.padList[1];
    const uint32_t outRows = (padT + p.l1H + p.padList[3]) * outW;  // im2col rows
    if (p.channelSize % c0 || p.kExtension % c0 || p.kStartPt % c0 || p.mExtension % 16 || p.mStartPt % 16 ||
        p.kStartPt + p.kExtension > p.channelSize || p.mStartPt + p.mExtension > ((outRows + 15) / 16) * 16) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "LoadData (Load3Dv2): channelSize %u, kStartPt %u, kExtension %u must be multiples of "
                              "%u within the channels, mStartPt %u, mExtension %u multiples of 16 within the %u "
                              "positions",
                              p.channelSize, p.kStartPt, p.kExtension, c0, p.mStartPt, p.mExtension, outRows);
    }
    dst.check_aligned("LoadData", "dst", loc, 512);
    src.check_aligned("LoadData", "src", loc, 32);
    const uint64_t n = static_cast<uint64_t>(p.mExtension) * p.kExtension;
    dst.check(0, static_cast<int64_t>(n), "LoadData writes", loc);
    // the feature-map position im2col row m reads, or -1 for a padding row
    auto source = [&](uint32_t m) -> int64_t {
        if (m >= outRows || outW == 0) return -1;
        const uint32_t ho = m / outW, wo = m % outW;
        if (ho < padT || ho - padT >= p.l1H || wo < padL || wo - padL >= p.l1W) return -1;
        return static_cast<int64_t>(ho - padT) * p.l1W + (wo - padL);
    };
    // the reads: the span of feature-map positions rows [mStartPt, mStartPt + mExtension) take, per channel block
    int64_t first = -1, last = -1;
    for (uint32_t m = p.mStartPt; m < static_cast<uint32_t>(p.mStartPt) + p.mExtension; ++m) {
        const int64_t pos = source(m);
        if (pos < 0) continue;
        if (first < 0) first = pos;
        last = pos;
    }
    if (first >= 0) {
        for (uint32_t c1 = p.kStartPt / c0; c1 < (p.kStartPt + p.kExtension) / c0; ++c1) {
            src.check((static_cast<int64_t>(c1) * rows + first) * c0, (last - first + 1) * c0, "LoadData reads", loc);
        }
    }
    T *d = dst.ptr();
    const T *s = src.ptr();
    const T pad = static_cast<T>(p.padValue);
    const uint32_t kBlocks = p.kExtension / c0;
    for (uint32_t m = 0; m < p.mExtension; ++m) {
        const int64_t pos = source(p.mStartPt + m);
        for (uint32_t kb = 0; kb < kBlocks; ++kb) {
            T *out = d + ((m / 16) * kBlocks + kb) * 16 * c0 + (toB2 ? m % 16 : (m % 16) * c0);
            const uint64_t step = toB2 ? 16 : 1;  // B2: the fractal is stored column by column
            const uint32_t c1 = p.kStartPt / c0 + kb;
            if (pos < 0) {
                for (uint32_t e = 0; e < c0; ++e) out[e * step] = pad;
                continue;
            }
            const T *in = s + (static_cast<uint64_t>(c1) * rows + static_cast<uint64_t>(pos)) * c0;
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
