// Compatibility kernels (ours, in the style of public flash-attention and normalisation kernels) for
// SoftmaxFlashV2 / SoftmaxFlash, DeepNorm, LayerNormGrad + LayerNormGradBeta and ConfusionTranspose.
// tests/test_sim_compat_hl_flash_norm.py runs them against NumPy.
#include "kernel_operator.h"
#include "lib/activation/softmaxflashv2.h"
#include "lib/normalization/deepnorm.h"
#include "lib/normalization/layernormgrad.h"
#include "lib/normalization/layernormgradbeta.h"
#include "lib/transpose/confusion_transpose.h"

using namespace AscendC;

namespace {
constexpr uint32_t kRows = 8;    // softmax rows (non-last axes)
constexpr uint32_t kBlk = 32;    // column block of one flash step
constexpr uint32_t kMaxBlk = 4;  // blocks per row at most

// Flash softmax over `nblk` column blocks of x [kRows, nblk * kBlk] (T data, U statistics), the
// FlashAttention way: each step's exp tile is kept in UB (tile-major), earlier tiles are rescaled by
// the step's expMax, the last step divides by the running sum (V2; V1 tiles come out normalised).
// y: nblk tiles [kRows, kBlk] in a row; stats: max, sum, and (kNoBrc) the last block's own row max,
// one float per row each.  kNoBrc: statistics one element per row (SOFTMAX_OUTPUT_WITHOUT_BRC) and the
// form with outReduceMax.
constexpr SoftmaxConfig kNoBrcCfg = {false, 0, 0, SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC};
template <typename T, typename U, bool kV1, bool kNoBrc = false>
__aicore__ inline void FlashRun(GM_ADDR x, GM_ADDR y, GM_ADDR stats, uint32_t nblk)
{
    constexpr uint32_t epb = 32 / sizeof(T);  // elements per 32-byte block
    constexpr uint32_t perT = kNoBrc ? 1 : epb, perU = kNoBrc ? 1 : 32 / sizeof(U);
    const uint32_t cols = nblk * kBlk;
    TPipe pipe;
    TBuf<TPosition::VECCALC> tileBuf, sumBuf, maxBuf, expMaxBuf, statBuf, redBuf;
    pipe.InitBuffer(tileBuf, kMaxBlk * kRows * kBlk * sizeof(T));
    pipe.InitBuffer(sumBuf, kRows * 32);
    pipe.InitBuffer(maxBuf, kRows * 32);
    pipe.InitBuffer(expMaxBuf, kRows * 32);
    pipe.InitBuffer(statBuf, 3 * kRows * sizeof(float));
    pipe.InitBuffer(redBuf, kRows * 32);
    LocalTensor<T> tiles = tileBuf.Get<T>();
    LocalTensor<U> sumL = sumBuf.Get<U>();
    LocalTensor<U> maxL = maxBuf.Get<U>();
    LocalTensor<T> expMaxL = expMaxBuf.Get<T>();
    LocalTensor<float> statL = statBuf.Get<float>();
    LocalTensor<U> redL = redBuf.Get<U>();
    GlobalTensor<T> xGm, yGm;
    GlobalTensor<float> sGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), kRows * cols);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), kRows * cols);
    sGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(stats), 3 * kRows);
    if constexpr (kNoBrc) {
        Duplicate(redL, static_cast<U>(0), kRows * 32 / sizeof(U));
    }
    SoftMaxShapeInfo shape{kRows, kBlk, kRows, kBlk};
    SoftMaxTiling tiling = SoftMaxFlashV2TilingFunc(shape, sizeof(T), sizeof(U), 0, true);
    for (uint32_t j = 0; j < nblk; ++j) {
        LocalTensor<T> tile = tiles[j * kRows * kBlk];
        DataCopyParams in{static_cast<uint16_t>(kRows), static_cast<uint16_t>(kBlk / epb),
                          static_cast<uint16_t>((cols - kBlk) / epb), 0};
        DataCopy(tile, xGm[j * kBlk], in);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        if constexpr (kV1) {
            SoftmaxFlash<T>(tile, sumL, maxL, tile, expMaxL, sumL, maxL, tiling, j > 0, shape);
        } else if constexpr (kNoBrc) {
            if (j == 0) {
                SoftmaxFlashV2<T, false, false, false, false, kNoBrcCfg>(tile, redL, sumL, maxL, tile, expMaxL, sumL,
                                                                         maxL, tiling, shape);
            } else {
                SoftmaxFlashV2<T, true, false, false, false, kNoBrcCfg>(tile, redL, sumL, maxL, tile, expMaxL, sumL,
                                                                        maxL, tiling, shape);
            }
        } else if (j == 0) {
            SoftmaxFlashV2<T, false>(tile, sumL, maxL, tile, expMaxL, sumL, maxL, tiling, shape);
        } else {
            SoftmaxFlashV2<T, true>(tile, sumL, maxL, tile, expMaxL, sumL, maxL, tiling, shape);
        }
        if (j > 0) {  // rescale the earlier tiles row by row
            SetFlag<HardEvent::V_S>(EVENT_ID0);
            WaitFlag<HardEvent::V_S>(EVENT_ID0);
            for (uint32_t r = 0; r < kRows; ++r) {
                const T em = expMaxL.GetValue(r * perT);
                for (uint32_t t = 0; t < j; ++t) {
                    LocalTensor<T> row = tiles[t * kRows * kBlk + r * kBlk];
                    Muls(row, row, em, kBlk);
                }
            }
            PipeBarrier<PIPE_V>();
        }
    }
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    for (uint32_t r = 0; r < kRows; ++r) {
        const float mx = static_cast<float>(maxL.GetValue(r * perU));
        const float sm = static_cast<float>(sumL.GetValue(r * perU));
        statL.SetValue(r, mx);
        statL.SetValue(kRows + r, sm);
        statL.SetValue(2 * kRows + r, kNoBrc ? static_cast<float>(redL.GetValue(r * perU)) : 0.0f);
        if constexpr (!kV1) {
            const T inv = static_cast<T>(1.0f / sm);
            for (uint32_t t = 0; t < nblk; ++t) {
                LocalTensor<T> row = tiles[t * kRows * kBlk + r * kBlk];
                Muls(row, row, inv, kBlk);
            }
        }
    }
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    DataCopy(yGm, tiles, kRows * cols);
    DataCopy(sGm, statL, 3 * kRows);
}

constexpr uint32_t kB = 2, kS = 4, kH = 32;  // [B, S, H] of the normalisation kernels
constexpr uint32_t kN = kB * kS * kH;

// Copies n floats GM -> UB.
__aicore__ inline void Load(const LocalTensor<float> &dst, GM_ADDR src, uint32_t n)
{
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(src), n);
    DataCopy(dst, g, n);
}
// The tiling struct from its GM buffer, word by word (what public kernels' CopyTiling does).
template <typename S>
__aicore__ inline void CopyTiling(S *dst, GM_ADDR src)
{
    const __gm__ uint32_t *s = reinterpret_cast<const __gm__ uint32_t *>(src);
    uint32_t *d = reinterpret_cast<uint32_t *>(dst);
    for (size_t i = 0; i < sizeof(S) / sizeof(uint32_t); ++i) {
        d[i] = s[i];
    }
}
__aicore__ inline void Store(GM_ADDR dst, const LocalTensor<float> &src, uint32_t n)
{
    GlobalTensor<float> g;
    g.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(dst), n);
    DataCopy(g, src, n);
}
}  // namespace

extern "C" __global__ __aicore__ void flash_v2_f32(GM_ADDR x, GM_ADDR y, GM_ADDR stats, uint32_t nblk)
{
    FlashRun<float, float, false>(x, y, stats, nblk);
}
extern "C" __global__ __aicore__ void flash_v2_f16(GM_ADDR x, GM_ADDR y, GM_ADDR stats, uint32_t nblk)
{
    FlashRun<half, float, false>(x, y, stats, nblk);  // half data, float statistics
}
extern "C" __global__ __aicore__ void flash_v2_nobrc_f32(GM_ADDR x, GM_ADDR y, GM_ADDR stats, uint32_t nblk)
{
    FlashRun<float, float, false, true>(x, y, stats, nblk);
}
extern "C" __global__ __aicore__ void flash_v1_f32(GM_ADDR x, GM_ADDR y, GM_ADDR stats, uint32_t nblk)
{
    FlashRun<float, float, true>(x, y, stats, nblk);
}

// DeepNorm over [kB, kS, kH]: y = LayerNorm(alpha * x + gx) * gamma + beta; mean / var: kB * kS;
// the tiling comes from the host (pyasc_sim.hl_tiling_norm.deepnorm_tiling).
extern "C" __global__ __aicore__ void deep_norm_f32(GM_ADDR x, GM_ADDR gx, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                   GM_ADDR mean, GM_ADDR var, GM_ADDR tilingGm, float alpha, float eps)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b0, b1, b2, b3, b4, b5, b6, tmp;
    pipe.InitBuffer(b0, kN * 4);
    pipe.InitBuffer(b1, kN * 4);
    pipe.InitBuffer(b2, kH * 4);
    pipe.InitBuffer(b3, kH * 4);
    pipe.InitBuffer(b4, kN * 4);
    pipe.InitBuffer(b5, kB * kS * 4);
    pipe.InitBuffer(b6, kB * kS * 4);
    pipe.InitBuffer(tmp, 4096);
    LocalTensor<float> xl = b0.Get<float>(), gxl = b1.Get<float>(), gl = b2.Get<float>(), bl = b3.Get<float>();
    LocalTensor<float> yl = b4.Get<float>(), ml = b5.Get<float>(), vl = b6.Get<float>();
    Load(xl, x, kN);
    Load(gxl, gx, kN);
    Load(gl, gamma, kH);
    Load(bl, beta, kH);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    DeepNormTiling tiling;
    CopyTiling(&tiling, tilingGm);
    DeepNorm<float, false, false>(yl, ml, vl, xl, gxl, bl, gl, tmp.Get<uint8_t>(), alpha, eps, tiling);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    Store(y, yl, kN);
    Store(mean, ml, kB * kS);
    Store(var, vl, kB * kS);
}

// LayerNormGrad + LayerNormGradBeta over [kB, kS, kH]: pdx, resForGamma [B, S, H]; pdGamma, pdBeta [H];
// the LayerNormGrad tiling from the host, the LayerNormGradBeta one filled here.
extern "C" __global__ __aicore__ void layernorm_grad_f32(GM_ADDR dy, GM_ADDR x, GM_ADDR var, GM_ADDR mean, GM_ADDR gamma,
                                                        GM_ADDR pdx, GM_ADDR res, GM_ADDR pdGamma, GM_ADDR pdBeta,
                                                        GM_ADDR tilingGm, float eps)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b0, b1, b2, b3, b4, b5, b6, b7, b8;
    pipe.InitBuffer(b0, kN * 4);
    pipe.InitBuffer(b1, kN * 4);
    pipe.InitBuffer(b2, kB * kS * 4);
    pipe.InitBuffer(b3, kB * kS * 4);
    pipe.InitBuffer(b4, kH * 4);
    pipe.InitBuffer(b5, kN * 4);
    pipe.InitBuffer(b6, kN * 4);
    pipe.InitBuffer(b7, kH * 4);
    pipe.InitBuffer(b8, kH * 4);
    LocalTensor<float> dyl = b0.Get<float>(), xl = b1.Get<float>(), vl = b2.Get<float>(), ml = b3.Get<float>();
    LocalTensor<float> gl = b4.Get<float>(), pdxl = b5.Get<float>(), resl = b6.Get<float>();
    LocalTensor<float> pgl = b7.Get<float>(), pbl = b8.Get<float>();
    Load(dyl, dy, kN);
    Load(xl, x, kN);
    Load(vl, var, kB * kS);
    Load(ml, mean, kB * kS);
    Load(gl, gamma, kH);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    LayerNormGradTiling tiling;
    CopyTiling(&tiling, tilingGm);
    LayerNormGrad<float, false>(pdxl, resl, dyl, xl, vl, ml, gl, eps, tiling, {DataFormat::ND});
    LayerNormGradBetaTiling betaTiling;
    betaTiling.bLength = kB;
    betaTiling.sLength = kS;
    betaTiling.hLength = kH;
    betaTiling.originalHLength = kH;
    PipeBarrier<PIPE_V>();
    LayerNormGradBeta<float, false>(pgl, pbl, resl, dyl, betaTiling);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    Store(pdx, pdxl, kN);
    Store(res, resl, kN);
    Store(pdGamma, pgl, kH);
    Store(pdBeta, pbl, kH);
}

// ConfusionTranspose TRANSPOSE_ND2ND_ONLY of an [h, w] half matrix (tiling filled in the kernel as
// public kernels do); `type` 8 and above has no ConfusionTranspose scenario (the NZ ones are tested elsewhere).
extern "C" __global__ __aicore__ void confusion_transpose_f16(GM_ADDR x, GM_ADDR y, uint32_t h, uint32_t w,
                                                             uint32_t type)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> src, dst, tmp;
    pipe.InitBuffer(src, h * w * sizeof(half));
    pipe.InitBuffer(dst, h * w * sizeof(half));
    pipe.InitBuffer(tmp, 1024);
    LocalTensor<half> sl = src.Get<half>(), dl = dst.Get<half>();
    GlobalTensor<half> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(x), h * w);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(y), h * w);
    DataCopy(sl, xGm, h * w);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    ConfusionTransposeTiling tiling;
    tiling.param0 = 16;  // block size
    tiling.param1 = h;   // height
    tiling.param2 = w;   // width
    tiling.param3 = h / 16;
    ConfusionTranspose(dl, sl, tmp.Get<uint8_t>(), static_cast<TransposeType>(type), tiling);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, dl, h * w);
}
