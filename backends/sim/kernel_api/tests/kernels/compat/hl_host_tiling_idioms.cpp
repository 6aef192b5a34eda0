#include "kernel_operator.h"
// Compatibility kernels (ours, in the style of public Ascend C): the sharedTmpBuffer of CumSum, AscendQuant,
// AscendDequant and AscendAntiQuant sized by the host helpers of tiling/tiling_api.h. `tmp_sizes` runs the
// C++ helpers (as an op's TilingFunc would) and stores what they report; each API kernel takes the tmp size in
// bytes as an argument and hands the API a sharedTmpBuffer of exactly that many bytes.
// `confusion_nz_half` runs the ConfusionTranspose NZ scenarios 1-6 with a tiling from GetConfusionTransposeTilingInfo.
// tests/test_sim_compat_hl_host_tiling.py compares the sizes and tilings with pyasc_sim and the results with NumPy.
#include "lib/math/cumsum.h"
#include "lib/quantization/ascend_quant.h"
#include "lib/quantization/ascend_dequant.h"
#include "lib/quantization/ascend_antiquant.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

namespace {
constexpr uint32_t kUbBytes = 16384;  // per buffer; every test shape fits

class Scratch {
public:
    __aicore__ inline Scratch()
    {
        for (uint32_t i = 0; i < kSlots; ++i) {
            pipe.InitBuffer(bufs[i], kUbBytes);
        }
    }
    template <typename T>
    __aicore__ inline LocalTensor<T> Get(uint32_t slot, uint32_t count)
    {
        return bufs[slot].Get<T>(count);
    }
    static constexpr uint32_t kSlots = 4;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufs[kSlots];
};

template <typename T>
__aicore__ inline LocalTensor<T> Load(Scratch &s, uint32_t slot, GM_ADDR src, uint32_t count)
{
    GlobalTensor<T> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(src), count);
    LocalTensor<T> t = s.Get<T>(slot, count);
    DataCopy(t, gm, count);
    return t;
}

template <typename T>
__aicore__ inline void Store(GM_ADDR dst, const LocalTensor<T> &t, uint32_t count)
{
    GlobalTensor<T> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(dst), count);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm, t, count);
}

constexpr CumSumConfig kLastAxis = {true, false, true};
constexpr CumSumConfig kFirstAxis = {false, false, true, CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
}  // namespace

// The host helpers for a fixed list of shapes: (max, min) pairs, then the factor pairs.
extern "C" __global__ __aicore__ void tmp_sizes(GM_ADDR out)
{
    auto o = reinterpret_cast<__gm__ uint32_t *>(out);
    uint32_t i = 0;
    uint32_t mx = 0, mn = 0;
    GetCumSumMaxMinTmpSize(ge::Shape({8, 64}), 2, true, false, mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetCumSumMaxMinTmpSize(ge::Shape({8, 64}), 4, false, true, mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetAscendQuantMaxMinTmpSize(ge::Shape({1024}), 2, mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetAscendQuantMaxMinTmpSize(ge::Shape({2, 40}), 4, mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetAscendDequantMaxMinTmpSize(ge::Shape({2, 1024}), 4, mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetAscendAntiQuantMaxMinTmpSize(ge::Shape({64, 512}), ge::Shape({1, 512}), false, ge::DT_INT8, ge::DT_BF16, mx, mn);
    o[i++] = mx, o[i++] = mn;
    o[i++] = GetAscendAntiQuantMaxTmpSize(ge::Shape({100}), ge::Shape({1}), true, ge::DT_INT8, ge::DT_FLOAT16);
    o[i++] = GetAscendAntiQuantMinTmpSize(ge::Shape({100}), ge::Shape({1}), true, ge::DT_INT8, ge::DT_FLOAT16);
    GetAscendQuantTmpBufferFactorSize(mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetAscendDequantTmpBufferFactorSize(ge::Shape({2, 1024}), mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetAscendAntiQuantTmpBufferFactorSize(ge::Shape({64, 512}), ge::Shape({1, 512}), false, ge::DT_INT8, ge::DT_BF16,
                                          mx, mn);
    o[i++] = mx, o[i++] = mn;
    // refused arguments report 0 / 0
    GetCumSumMaxMinTmpSize(ge::Shape({8, 60}), 2, true, false, mx, mn);
    o[i++] = mx, o[i++] = mn;
}

// y = cumsum(x) of half [outter, inner] along the last (lastAxis 1) or first axis; last = y's last row
extern "C" __global__ __aicore__ void cumsum_tmp_half(GM_ADDR x, GM_ADDR y, GM_ADDR last, uint32_t outter,
                                                      uint32_t inner, uint32_t lastAxis, uint32_t tmpBytes)
{
    Scratch s;
    LocalTensor<half> src = Load<half>(s, 0, x, outter * inner);
    LocalTensor<half> dst = s.Get<half>(1, outter * inner);
    LocalTensor<half> lastRow = s.Get<half>(2, inner);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(3, tmpBytes);
    PipeBarrier<PIPE_ALL>();
    if (lastAxis != 0) {
        CumSum<half, kLastAxis>(dst, lastRow, src, tmp, {outter, inner});
    } else {
        CumSum<half, kFirstAxis>(dst, lastRow, src, tmp, {outter, inner});
    }
    Store(y, dst, outter * inner);
    Store(last, lastRow, inner);
}

// per tensor: y = int8(round(half(x) * scale + offset)) over count float elements
extern "C" __global__ __aicore__ void quant_tmp_float(GM_ADDR x, GM_ADDR y, uint32_t count, float scale, float offset,
                                                      uint32_t tmpBytes)
{
    Scratch s;
    LocalTensor<float> src = Load<float>(s, 0, x, count);
    LocalTensor<int8_t> dst = s.Get<int8_t>(1, count);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(2, tmpBytes);
    PipeBarrier<PIPE_ALL>();
    AscendQuant<float>(dst, src, tmp, scale, offset, count);
    Store(y, dst, count);
}

// x [m, n] int32 (n * 4 bytes a multiple of 32), scalar float deqScale -> y [m, n] float
extern "C" __global__ __aicore__ void dequant_tmp_float(GM_ADDR x, GM_ADDR y, uint32_t m, uint32_t n, float deqScale,
                                                        uint32_t tmpBytes)
{
    Scratch s;
    LocalTensor<int32_t> src = Load<int32_t>(s, 0, x, m * n);
    LocalTensor<float> dst = s.Get<float>(1, m * n);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(2, tmpBytes);
    PipeBarrier<PIPE_ALL>();
    AscendDequant<float, float, DeQuantMode::DEQUANT_WITH_MULTI_ROW>(dst, src, deqScale, tmp, {m, n, n});
    Store(y, dst, m * n);
}

// per tensor: y = bfloat16(float(x + offset) * scale) over count int8 elements
extern "C" __global__ __aicore__ void antiquant_tmp_bf16(GM_ADDR x, GM_ADDR y, uint32_t count, float offset,
                                                         float scale, uint32_t tmpBytes)
{
    Scratch s;
    LocalTensor<int8_t> src = Load<int8_t>(s, 0, x, count);
    LocalTensor<bfloat16_t> dst = s.Get<bfloat16_t>(1, count);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(2, tmpBytes);
    PipeBarrier<PIPE_ALL>();
    AscendAntiQuant<int8_t, bfloat16_t, false>(dst, src, static_cast<bfloat16_t>(offset), static_cast<bfloat16_t>(scale),
                                               tmp, count);
    Store(y, dst, count);
}

// ---- ConfusionTranspose NZ scenarios ---------------------------------------------------------------------
// y = ConfusionTranspose(x) of half with TransposeType `scenario`; the tiling comes from the C++ host helper
// GetConfusionTransposeTilingInfo(srcShape [B, N, S, H/N], ...) (hostTiling 1, also stored to tilingOut) or from
// the tiling buffer Python filled (hostTiling 0)
extern "C" __global__ __aicore__ void confusion_nz_half(GM_ADDR x, GM_ADDR y, GM_ADDR tilingIn, GM_ADDR tilingOut,
                                                        uint32_t scenario, uint32_t b, uint32_t n, uint32_t s,
                                                        uint32_t hn, uint32_t inCount, uint32_t outCount,
                                                        uint32_t hostTiling)
{
    ConfusionTransposeTiling tiling;
    auto params = reinterpret_cast<uint32_t *>(&tiling);
    if (hostTiling != 0) {
        GetConfusionTransposeTilingInfo(ge::Shape({b, n, s, hn}), kUbBytes, sizeof(half), scenario, tiling);
        auto out = reinterpret_cast<__gm__ uint32_t *>(tilingOut);
        for (uint32_t i = 0; i < sizeof(tiling) / sizeof(uint32_t); ++i) {
            out[i] = params[i];
        }
    } else {
        auto in = reinterpret_cast<__gm__ uint32_t *>(tilingIn);
        for (uint32_t i = 0; i < sizeof(tiling) / sizeof(uint32_t); ++i) {
            params[i] = in[i];
        }
    }
    Scratch sc;
    LocalTensor<half> src = Load<half>(sc, 0, x, inCount);
    LocalTensor<half> dst = Load<half>(sc, 1, y, outCount);  // the NZ padding columns are left as they were
    PipeBarrier<PIPE_ALL>();
    ConfusionTranspose(dst, src, static_cast<TransposeType>(scenario), tiling);
    Store(y, dst, outCount);
}

// ---- Pad / UnPad with a sized sharedTmpBuffer --------------------------------------------------------------
// Pad (unpad 0) widens [h, w] half rows to w rounded up to 16 with padValue 5; UnPad (unpad 1) drops rightPad
// columns of an aligned width. The tiling and the sizes come from the C++ helpers, stored to sizesOut
// (max, min, then the tiling's srcHeight, srcWidth).
extern "C" __global__ __aicore__ void pad_tmp_half(GM_ADDR x, GM_ADDR y, GM_ADDR sizesOut, uint32_t h, uint32_t w,
                                                   uint32_t unpad, uint32_t rightPad, uint32_t tmpBytes)
{
    auto o = reinterpret_cast<__gm__ uint32_t *>(sizesOut);
    uint32_t mx = 0, mn = 0;
    const uint32_t outW = unpad != 0 ? w - rightPad : (w + 15) / 16 * 16;
    Scratch s;
    LocalTensor<half> src = Load<half>(s, 0, x, h * w);
    LocalTensor<half> dst = s.Get<half>(1, h * outW);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(2, tmpBytes);
    PipeBarrier<PIPE_ALL>();
    if (unpad != 0) {
        struct NoPlatform {
        } platform;
        GetUnPadMaxMinTmpSize(platform, ge::Shape({h, w}), sizeof(half), mx, mn);
        UnPadTiling tiling;
        UnPadTilingFunc(ge::Shape({h, w}), tmpBytes, sizeof(half), tiling);
        o[2] = tiling.srcHeight, o[3] = tiling.srcWidth;
        UnPadParams params{0, static_cast<uint16_t>(rightPad)};
        UnPad(dst, src, params, tmp, tiling);
    } else {
        GetPadMaxMinTmpSize(ge::Shape({h, w}), sizeof(half), mx, mn);
        PadTiling tiling;
        PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, w}), tmpBytes, sizeof(half), tiling);
        o[2] = tiling.srcHeight, o[3] = tiling.srcWidth;
        PadParams params{0, static_cast<uint16_t>(outW - w), 5};
        Pad(dst, src, params, tmp, tiling);
    }
    o[0] = mx, o[1] = mn;
    Store(y, dst, h * outW);
}
