#include "kernel_operator.h"
// Compatibility kernels (ours, in the style of public Ascend C): Sum, Mean, SoftMax / SimpleSoftMax, SoftmaxFlashV2,
// LayerNorm, RmsNorm, DeepNorm, LayerNormGrad and LayerNormGradBeta with a sharedTmpBuffer sized by the host helpers
// of tiling/tiling_api.h (GetSumMaxMinTmpSize, GetMeanMaxMinTmpSize, GetSoftMaxMin/MaxTmpSize,
// GetSoftMaxFlashV2Min/MaxTmpSize, GetLayerNormMaxMinTmpSize, GetRmsNormMaxMinTmpSize, GetDeepNormMaxMinTmpSize,
// GetLayerNormGrad(Beta)MaxMinTmpSize) and tilings from their TilingFunc / TilingInfo. `norm_tmp_sizes` and
// `norm_tilings` run the C++ helpers (as an op's TilingFunc would) and store what they report; each API kernel takes
// the tmp size in bytes and hands the API a sharedTmpBuffer of exactly that many bytes.
// tests/test_sim_compat_hl_norm_tmp.py compares the sizes and tilings with pyasc_sim.hl_tiling_tmp / hl_tiling_norm
// and the results with NumPy.
#include "lib/activation/gelu.h"
#include "lib/activation/sigmoid.h"
#include "lib/activation/silu.h"
#include "lib/activation/softmax.h"
#include "lib/activation/softmaxflashv2.h"
#include "lib/normalization/layernorm.h"
#include "lib/normalization/rmsnorm.h"
#include "lib/reduce/mean.h"
#include "lib/reduce/sum.h"
#include "lib/normalization/deepnorm.h"
#include "lib/normalization/layernormgrad.h"
#include "lib/normalization/layernormgradbeta.h"
#include "tiling/tiling_api.h"

using namespace AscendC;

// An op's tiling struct with the high-level APIs' tilings as fields, as op_host tiling headers declare it; the
// TilingFunc idiom `SoftMaxTilingFunc(shape, size, ws, tiling.softmaxTilingData)` fills the field in place.
namespace optiling {
BEGIN_TILING_DATA_DEF(NormOpTilingData)
TILING_DATA_FIELD_DEF(uint32_t, rows);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmaxTilingData);
TILING_DATA_FIELD_DEF_STRUCT(LayerNormTiling, layernormTilingData);
END_TILING_DATA_DEF;
}  // namespace optiling

namespace {
constexpr uint32_t kSlotBytes = 8192;  // per buffer; every test shape fits

class Scratch {
public:
    __aicore__ inline Scratch()
    {
        for (uint32_t i = 0; i < kSlots; ++i) {
            pipe.InitBuffer(bufs[i], kSlotBytes);
        }
    }
    template <typename T>
    __aicore__ inline LocalTensor<T> Get(uint32_t slot, uint32_t count)
    {
        return bufs[slot].Get<T>(count);
    }
    static constexpr uint32_t kSlots = 11;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bufs[kSlots];
};

__aicore__ inline LocalTensor<float> Load(Scratch &s, uint32_t slot, GM_ADDR src, uint32_t count)
{
    GlobalTensor<float> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(src), count);
    LocalTensor<float> t = s.Get<float>(slot, count);
    DataCopy(t, gm, count);
    return t;
}

__aicore__ inline void Store(GM_ADDR dst, const LocalTensor<float> &t, uint32_t count)
{
    GlobalTensor<float> gm;
    gm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(dst), count);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gm, t, count);
}

template <typename S>
__aicore__ inline uint32_t Put(__gm__ uint32_t *o, uint32_t i, const S &tiling)
{
    auto w = reinterpret_cast<const uint32_t *>(&tiling);
    for (uint32_t j = 0; j < sizeof(S) / sizeof(uint32_t); ++j) {
        o[i + j] = w[j];
    }
    return i + sizeof(S) / sizeof(uint32_t);
}
}  // namespace

// The size helpers for a fixed list of shapes (see the test for the order); refused arguments report 0 / false.
extern "C" __global__ __aicore__ void norm_tmp_sizes(GM_ADDR out)
{
    auto o = reinterpret_cast<__gm__ uint32_t *>(out);
    uint32_t i = 0;
    uint32_t mx = 0, mn = 0;
    o[i++] = GetSoftMaxFlashV2MaxTmpSize(ge::Shape({8, 64}), 4, 4, true);
    o[i++] = GetSoftMaxFlashV2MinTmpSize(ge::Shape({8, 64}), 4, 4, true);
    o[i++] = GetSoftMaxFlashV2MaxTmpSize(ge::Shape({2, 4, 128}), 2, 4, false, false, true);
    o[i++] = GetSoftMaxFlashV2MinTmpSize(ge::Shape({2, 4, 128}), 2, 4, false, false, true);
    o[i++] = GetSoftMaxFlashMaxTmpSize(ge::Shape({8, 64}), 4, true, false);
    o[i++] = GetSoftMaxFlashMinTmpSize(ge::Shape({8, 64}), 4, true, false);
    o[i++] = GetDeepNormMaxMinTmpSize(ge::Shape({2, 4, 64}), 4, false, false, mx, mn);
    o[i++] = mx, o[i++] = mn;
    o[i++] = GetDeepNormMaxMinTmpSize(ge::Shape({2, 4, 128}), 2, false, true, mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetLayerNormGradMaxMinTmpSize(ge::Shape({2, 4, 64}), 4, false, mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetLayerNormGradMaxMinTmpSize(ge::Shape({2, 4, 64, 60}), 2, false, mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetLayerNormGradBetaMaxMinTmpSize(ge::Shape({2, 4, 64}), 4, false, mx, mn);
    o[i++] = mx, o[i++] = mn;
    o[i++] = GetSoftMaxMaxTmpSize(ge::Shape({8, 64}), 2, false);
    o[i++] = GetSoftMaxMinTmpSize(ge::Shape({8, 64}), 2, false);
    GetLayerNormMaxMinTmpSize(ge::Shape({2, 4, 64}), 4, false, mx, mn);
    o[i++] = mx, o[i++] = mn;
    o[i++] = GetRmsNormMaxMinTmpSize(ge::Shape({2, 4, 64}), 2, mx, mn, true);
    o[i++] = mx, o[i++] = mn;
    GetSumMaxMinTmpSize(100, 2, false, mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetMeanMaxMinTmpSize(60, 2, 4, false, mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetSigmoidMaxMinTmpSize(ge::Shape({1000}), 2, false, mx, mn);
    o[i++] = mx, o[i++] = mn;
    GetSiluTmpSize(ge::Shape({4, 10}), 4, false, mx, mn);
    o[i++] = mx, o[i++] = mn;
    o[i++] = GetGeluMaxTmpSize(ge::Shape({300}), 4);
    o[i++] = GetGeluMinTmpSize(ge::Shape({300}), 4);
    // refused: a row of 60 floats is not 32-byte aligned; H over 2040; isReuseSource with half
    o[i++] = GetSoftMaxFlashV2MinTmpSize(ge::Shape({8, 60}), 4, 4, false);
    o[i++] = GetDeepNormMaxMinTmpSize(ge::Shape({2, 4, 2048}), 4, false, false, mx, mn);
    o[i++] = mx, o[i++] = mn;
    o[i++] = GetDeepNormMaxMinTmpSize(ge::Shape({2, 4, 64}), 2, true, false, mx, mn);
}

// The tiling helpers: SoftMaxFlashV2TilingFunc({10, 64}, 4, 4, ws), GetDeepNormTilingInfo({2, 4, 64}, {2, 4, 60}),
// GetLayerNormGradNDTilingInfo and GetLayerNormGradBetaNDTilingInfo({2, 4, 64, 60}), each with stack bytes.
extern "C" __global__ __aicore__ void norm_tilings(GM_ADDR out, uint32_t ws, uint32_t stack)
{
    auto o = reinterpret_cast<__gm__ uint32_t *>(out);
    uint32_t i = 0;
    SoftMaxTiling flash;
    SoftMaxFlashV2TilingFunc(ge::Shape({10, 64}), 4, 4, ws, flash, true);
    i = Put(o, i, flash);
    optiling::DeepNormTiling deep;
    o[i++] = GetDeepNormTilingInfo(ge::Shape({2, 4, 64}), ge::Shape({2, 4, 60}), stack, 4, false, false, deep);
    i = Put(o, i, deep);
    optiling::LayerNormGradTiling grad;
    GetLayerNormGradNDTilingInfo(ge::Shape({2, 4, 64, 60}), stack, 4, false, grad);
    i = Put(o, i, grad);
    AscendC::tiling::LayerNormGradBetaTiling beta;
    GetLayerNormGradBetaNDTilingInfo(ge::Shape({2, 4, 64, 60}), stack, 4, false, beta);
    i = Put(o, i, beta);
    SoftMaxTiling soft;
    SoftMaxTilingFunc(ge::Shape({10, 64}), 4, ws, soft);
    i = Put(o, i, soft);
    optiling::LayerNormTiling ln;
    GetLayerNormNDTilingInfo(ge::Shape({2, 4, 64, 60}), stack, 4, false, ln);
    i = Put(o, i, ln);
    RmsNormTiling rms;
    o[i++] = GetRmsNormTilingInfo(ge::Shape({2, 4, 64}), ge::Shape({2, 4, 60}), stack, 4, rms);
    i = Put(o, i, rms);
    optiling::NormOpTilingData op;  // the same two tilings filled as fields of an op's tiling struct
    op.rows = 10;
    AscendC::SoftMaxTilingFunc(ge::Shape({10, 64}), 4, ws, op.softmaxTilingData);
    AscendC::GetLayerNormNDTillingInfo(ge::Shape({2, 4, 64, 60}), stack, 4, false, op.layernormTilingData);
    i = Put(o, i, op.softmaxTilingData);
    Put(o, i, op.layernormTilingData);
}

// Two SoftmaxFlashV2 steps over x [m, 2k] float: the first k columns without update, the second with it.
// y: the two unnormalised blocks; stats: [expMax (m * 8), sum (m * 8), max (m * 8)] after the second step.
extern "C" __global__ __aicore__ void flash_v2_tmp(GM_ADDR x, GM_ADDR y, GM_ADDR stats, uint32_t m, uint32_t k,
                                                   uint32_t tmpBytes)
{
    Scratch s;
    LocalTensor<float> a = Load(s, 0, x, m * k);
    LocalTensor<float> b = Load(s, 1, x + m * k * sizeof(float), m * k);
    LocalTensor<float> sum = s.Get<float>(2, m * 8), max = s.Get<float>(3, m * 8), expMax = s.Get<float>(4, m * 8);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(5, tmpBytes);
    PipeBarrier<PIPE_ALL>();
    SoftMaxShapeInfo shape{m, k, m, k};
    SoftMaxTiling tiling;
    SoftMaxFlashV2TilingFunc(ge::Shape({m, k}), sizeof(float), sizeof(float), tmpBytes, tiling, true);
    SoftmaxFlashV2<float, false>(a, sum, max, a, expMax, sum, max, tmp, tiling, shape);
    PipeBarrier<PIPE_V>();
    SoftmaxFlashV2<float, true>(b, sum, max, b, expMax, sum, max, tmp, tiling, shape);
    Store(y, a, m * k);
    Store(y + m * k * sizeof(float), b, m * k);
    Store(stats, expMax, m * 8);
    Store(stats + m * 8 * sizeof(float), sum, m * 8);
    Store(stats + 2 * m * 8 * sizeof(float), max, m * 8);
}

// DeepNorm over float [b, s, h] with the tiling from GetDeepNormTilingInfo.
extern "C" __global__ __aicore__ void deepnorm_tmp(GM_ADDR x, GM_ADDR gx, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                   GM_ADDR mean, GM_ADDR var, uint32_t b, uint32_t s, uint32_t h,
                                                   uint32_t tmpBytes, float alpha, float eps)
{
    const uint32_t n = b * s * h;
    Scratch sc;
    LocalTensor<float> xl = Load(sc, 0, x, n), gxl = Load(sc, 1, gx, n);
    LocalTensor<float> gl = Load(sc, 2, gamma, h), bl = Load(sc, 3, beta, h);
    LocalTensor<float> yl = sc.Get<float>(4, n), ml = sc.Get<float>(5, b * s), vl = sc.Get<float>(6, b * s);
    LocalTensor<uint8_t> tmp = sc.Get<uint8_t>(7, tmpBytes);
    PipeBarrier<PIPE_ALL>();
    DeepNormTiling tiling;
    GetDeepNormTilingInfo(ge::Shape({b, s, h}), ge::Shape({b, s, h}), tmpBytes, sizeof(float), false, false, tiling);
    DeepNorm<float, false, false>(yl, ml, vl, xl, gxl, bl, gl, tmp, alpha, eps, tiling);
    Store(y, yl, n);
    Store(mean, ml, b * s);
    Store(var, vl, b * s);
}

// LayerNormGrad then LayerNormGradBeta over float [b, s, h], each with its own sharedTmpBuffer and the tiling
// from GetLayerNormGradNDTilingInfo / GetLayerNormGradBetaNDTilingInfo.
extern "C" __global__ __aicore__ void layernorm_grad_tmp(GM_ADDR dy, GM_ADDR x, GM_ADDR var, GM_ADDR mean,
                                                         GM_ADDR gamma, GM_ADDR pdx, GM_ADDR res, GM_ADDR pdGamma,
                                                         GM_ADDR pdBeta, uint32_t b, uint32_t s, uint32_t h,
                                                         uint32_t tmpBytes, uint32_t betaTmpBytes, float eps)
{
    const uint32_t n = b * s * h;
    Scratch sc;
    LocalTensor<float> dyl = Load(sc, 0, dy, n), xl = Load(sc, 1, x, n);
    LocalTensor<float> vl = Load(sc, 2, var, b * s), ml = Load(sc, 3, mean, b * s), gl = Load(sc, 4, gamma, h);
    LocalTensor<float> pdxl = sc.Get<float>(5, n), resl = sc.Get<float>(6, n);
    LocalTensor<float> pgl = sc.Get<float>(7, h), pbl = sc.Get<float>(8, h);
    LocalTensor<uint8_t> tmp = sc.Get<uint8_t>(9, tmpBytes), betaTmp = sc.Get<uint8_t>(10, betaTmpBytes);
    PipeBarrier<PIPE_ALL>();
    LayerNormGradTiling tiling;
    GetLayerNormGradNDTilingInfo(ge::Shape({b, s, h}), tmpBytes, sizeof(float), false, tiling);
    LayerNormGrad<float, false>(pdxl, resl, dyl, xl, vl, ml, gl, tmp, eps, tiling);
    LayerNormGradBetaTiling betaTiling;
    GetLayerNormGradBetaNDTilingInfo(ge::Shape({b, s, h}), betaTmpBytes, sizeof(float), false, betaTiling);
    PipeBarrier<PIPE_V>();
    LayerNormGradBeta<float, false>(pgl, pbl, resl, dyl, betaTmp, betaTiling);
    Store(pdx, pdxl, n);
    Store(res, resl, n);
    Store(pdGamma, pgl, h);
    Store(pdBeta, pbl, h);
}

// SoftMax (with sum / max) then SimpleSoftMax from those statistics over x [m, k] float, each with a
// sharedTmpBuffer of tmpBytes; y: [SoftMax's dst, SimpleSoftMax's dst].
extern "C" __global__ __aicore__ void softmax_tmp(GM_ADDR x, GM_ADDR y, uint32_t m, uint32_t k, uint32_t tmpBytes)
{
    Scratch s;
    LocalTensor<float> src = Load(s, 0, x, m * k);
    LocalTensor<float> dst = s.Get<float>(1, m * k), dst2 = s.Get<float>(2, m * k);
    LocalTensor<float> sum = s.Get<float>(3, m * 8), max = s.Get<float>(4, m * 8);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(5, tmpBytes);
    PipeBarrier<PIPE_ALL>();
    SoftMaxTiling tiling;
    SoftMaxTilingFunc(ge::Shape({m, k}), sizeof(float), kSlotBytes, tiling);  // the shape comes from the tiling
    SoftMax<float>(dst, sum, max, src, tmp, tiling);
    PipeBarrier<PIPE_V>();
    SimpleSoftMax<float>(dst2, sum, max, src, tmp, tiling);
    Store(y, dst, m * k);
    Store(y + m * k * sizeof(float), dst2, m * k);
}

// LayerNorm (which 1) or RmsNorm (which 0) over float [b, s, h] with the tiling from GetLayerNormNDTilingInfo /
// GetRmsNormTilingInfo (the latter given the slot size as stackBufferByteSize); mean / var only for LayerNorm.
extern "C" __global__ __aicore__ void norm_tmp(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean,
                                               GM_ADDR var, uint32_t b, uint32_t s, uint32_t h, uint32_t tmpBytes,
                                               float eps, uint32_t which)
{
    const uint32_t n = b * s * h;
    Scratch sc;
    LocalTensor<float> xl = Load(sc, 0, x, n), gl = Load(sc, 1, gamma, h), bl = Load(sc, 2, beta, h);
    LocalTensor<float> yl = sc.Get<float>(3, n), ml = sc.Get<float>(4, b * s), vl = sc.Get<float>(5, b * s);
    LocalTensor<uint8_t> tmp = sc.Get<uint8_t>(6, tmpBytes);
    PipeBarrier<PIPE_ALL>();
    if (which != 0) {
        LayerNormTiling tiling;
        GetLayerNormNDTilingInfo(ge::Shape({b, s, h}), tmpBytes, sizeof(float), false, tiling);
        LayerNorm<float, false>(yl, ml, vl, xl, gl, bl, tmp, eps, tiling);
        Store(mean, ml, b * s);
        Store(var, vl, b * s);
    } else {
        RmsNormTiling tiling;
        GetRmsNormTilingInfo(ge::Shape({b, s, h}), ge::Shape({b, s, h}), kSlotBytes, sizeof(float), tiling);
        RmsNorm<float>(yl, xl, gl, tmp, eps, tiling);
    }
    Store(y, yl, n);
}

// Sum then Mean of the first n of each of `outter` float rows of `inner` (one sharedTmpBuffer of tmpBytes);
// y: outter sums, then outter means (each padded to 8).
extern "C" __global__ __aicore__ void sum_mean_tmp(GM_ADDR x, GM_ADDR y, uint32_t outter, uint32_t inner, uint32_t n,
                                                   uint32_t tmpBytes)
{
    Scratch s;
    LocalTensor<float> src = Load(s, 0, x, outter * inner);
    LocalTensor<float> dst = s.Get<float>(1, 16);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(2, tmpBytes);
    PipeBarrier<PIPE_ALL>();
    Sum(dst, src, tmp, SumParams{outter, inner, n});
    PipeBarrier<PIPE_V>();
    Mean(dst[8], src, tmp, MeanParams{outter, inner, n});
    Store(y, dst, 16);
}

// Sigmoid, Silu, Tanh, Gelu and FasterGelu of count floats, each with one sharedTmpBuffer of tmpBytes; y: the
// five results one after another (count a multiple of 8).
extern "C" __global__ __aicore__ void activation_tmp(GM_ADDR x, GM_ADDR y, uint32_t count, uint32_t tmpBytes)
{
    Scratch s;
    LocalTensor<float> src = Load(s, 0, x, count);
    LocalTensor<float> dst = s.Get<float>(1, 5 * count);
    LocalTensor<uint8_t> tmp = s.Get<uint8_t>(2, tmpBytes);
    PipeBarrier<PIPE_ALL>();
    Sigmoid(dst, src, tmp, count);
    Silu(dst[count], src, tmp, count);
    Tanh(dst[2 * count], src, tmp, count);
    Gelu(dst[3 * count], src, tmp, count);
    FasterGelu(dst[4 * count], src, tmp, count);
    Store(y, dst, 5 * count);
}
