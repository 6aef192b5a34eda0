// Ascend C on the CPU -- ConfusionTranspose (lib/transpose/confusion_transpose.h): data re-layout on
// the Unified Buffer selected by TransposeType.  Semantics from the public Ascend C reference's scenario
// table (input / output shape and format of each):
//   1 TRANSPOSE_NZ2ND_0213           NZ [B, N, H/N/16, S/16, 16, 16] ([B, N, S, H/N]) -> ND [B, S, N, H/N]
//   2 TRANSPOSE_NZ2NZ_0213           same input -> NZ [B, S, H/N/16, N/16, 16, 16] ([B, S, N, H/N])
//   3 TRANSPOSE_NZ2NZ_012_WITH_N     NZ [B, H/16, S/16, 16, 16] ([B, S, H]) -> NZ [B, N, H/N/16, S/16, 16, 16]
//   4 TRANSPOSE_NZ2ND_012_WITH_N     same input -> ND [B, N, S, H/N]
//   5 TRANSPOSE_NZ2ND_012_WITHOUT_N  NZ [B, N, H/N/16, S/16, 16, 16] -> ND [B, S, H]
//   6 TRANSPOSE_NZ2NZ_012_WITHOUT_N  same input -> NZ [B, H/16, S/16, 16, 16] ([B, S, H])
//   7 TRANSPOSE_ND2ND_ONLY           [H, W] -> [W, H], H and W multiples of 16
// NZ here is the reference's: a [rows, cols] matrix stored as [ceil(cols/16), rows/16, 16, 16] fractals of
// 16 x 16 elements for every T (the shapes on the page), rows a multiple of 16 (S; N too for scenario 2's
// output); a column count that is not a multiple of 16 (H/N or H) is padded to the next fractal and the
// padding columns of an NZ output are left as they were.  Scenarios 1-6 read [B, N, S, H/N] from the tiling
// as pyasc's GetConfusionTransposeTilingInfo lays it out (param0 blockSize, param1 B, param2 N, param3 S,
// param4 H/N, param17 the scenario; tiling/tiling_api.h, pyasc_sim.hl_tiling_norm); scenario 7 reads
// ConfusionTransposeOnlyTiling's param1 = height, param2 = width.  The other TransposeType values end the
// block with an `unsupported` error naming the type.  sharedTmpBuffer is accepted and not needed (a pure
// re-layout between separate buffers).
#ifndef PYASC_SIM_KAPI_CONFUSION_TRANSPOSE_H_
#define PYASC_SIM_KAPI_CONFUSION_TRANSPOSE_H_

#include "pyasc_sim/kapi/softmax_flash.h"  // sim_detail::hl_in / hl_out

// Kernel-side tiling struct (kernel_tiling/kernel_tiling.h): 18 uint32 fields whose meaning depends on
// the scenario; GetConfusionTransposeTilingInfo fills them on the host.
struct ConfusionTransposeTiling {
    uint32_t param0 = 0, param1 = 0, param2 = 0, param3 = 0, param4 = 0, param5 = 0;
    uint32_t param6 = 0, param7 = 0, param8 = 0, param9 = 0, param10 = 0, param11 = 0;
    uint32_t param12 = 0, param13 = 0, param14 = 0, param15 = 0, param16 = 0, param17 = 0;
};

namespace AscendC {
using ::ConfusionTransposeTiling;

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

// The documented values, in order (shared with the enhanced Transpose's TransposeParamsExt).
enum class TransposeType : uint8_t {
    TRANSPOSE_TYPE_NONE,
    TRANSPOSE_NZ2ND_0213,
    TRANSPOSE_NZ2NZ_0213,
    TRANSPOSE_NZ2NZ_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITH_N,
    TRANSPOSE_NZ2ND_012_WITHOUT_N,
    TRANSPOSE_NZ2NZ_012_WITHOUT_N,
    TRANSPOSE_ND2ND_ONLY,
    TRANSPOSE_ND_UB_GM,
    TRANSPOSE_GRAD_ND_UB_GM,
    TRANSPOSE_ND2ND_B16,
    TRANSPOSE_NCHW2NHWC,
    TRANSPOSE_NHWC2NCHW,
};

namespace sim_detail {
// element offset of (r, c) in an NZ [ceil16(cols), rows] fractal matrix with rows a multiple of 16
inline int64_t nz_at(uint32_t rows, uint32_t r, uint32_t c) {
    return (static_cast<int64_t>(c / 16) * rows + r) * 16 + c % 16;
}
inline uint32_t ceil16(uint32_t v) { return (v + 15) / 16 * 16; }

template <typename T>
inline void confusion_nz(const LocalTensor<T> &dst, const LocalTensor<T> &src, int type,
                         const ConfusionTransposeTiling &t, const SrcLoc &loc) {
    const char *api = "ConfusionTranspose";
    const uint32_t B = t.param1, N = t.param2, S = t.param3, hn = t.param4, H = N * hn;
    const bool checks = pyasc_sim::kapi::blk().checks;
    if (checks && static_cast<int>(t.param17) != type) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "ConfusionTranspose: TransposeType %d with a tiling made for scenario %u (param17): fill "
                              "it with GetConfusionTransposeTilingInfo(srcShape [B, N, S, H/N], stackBufferSize, "
                              "sizeof(T), %d, tiling)",
                              type, t.param17, type);
    }
    if (checks && (B == 0 || N == 0 || S == 0 || hn == 0 || S % 16 != 0 || (type == 2 && N % 16 != 0))) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "ConfusionTranspose scenario %d: tiling [B %u, N %u, S %u, H/N %u]: all must be non-zero, "
                              "S a multiple of 16%s (the NZ fractals are 16 x 16)",
                              type, B, N, S, hn, type == 2 ? " and N a multiple of 16 (the output's rows)" : "");
    }
    // per-batch sizes: the [B, N, S, H/N] NZ side (N matrices [S, H/N]), the [B, S, H] NZ side, ND sides
    const int64_t nz_bn = static_cast<int64_t>(N) * S * ceil16(hn), nz_bsh = static_cast<int64_t>(S) * ceil16(H);
    const int64_t nd = static_cast<int64_t>(S) * H;
    const int64_t nz_bsn = static_cast<int64_t>(S) * N * ceil16(hn);  // scenario 2: S matrices [N, H/N]
    const bool from_bn = type == 1 || type == 2 || type == 5 || type == 6;
    const int64_t in_per_b = from_bn ? nz_bn : nz_bsh;
    const int64_t out_per_b = type == 2 ? nz_bsn : (type == 3 ? nz_bn : (type == 6 ? nz_bsh : nd));
    sim_detail::hl_in(src, api, "srcTensor", static_cast<int64_t>(B) * in_per_b, loc);
    sim_detail::hl_out(dst, api, "dstTensor", static_cast<int64_t>(B) * out_per_b, loc);
    if (checks && dst.ptr() < src.ptr() + static_cast<int64_t>(B) * in_per_b &&
        src.ptr() < dst.ptr() + static_cast<int64_t>(B) * out_per_b) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "ConfusionTranspose: dstTensor and srcTensor overlap; the re-layout needs separate buffers");
    }
    const T *x = src.ptr();
    T *y = dst.ptr();
    for (uint32_t b = 0; b < B; ++b) {
        const T *xb = x + b * in_per_b;
        T *yb = y + b * out_per_b;
        for (uint32_t n = 0; n < N; ++n) {
            for (uint32_t s = 0; s < S; ++s) {
                for (uint32_t k = 0; k < hn; ++k) {
                    // the element (s, n * H/N + k) of the [S, H] view
                    const int64_t in = from_bn ? n * static_cast<int64_t>(S) * ceil16(hn) + nz_at(S, s, k)
                                               : nz_at(S, s, n * hn + k);
                    int64_t out = 0;
                    switch (type) {
                        case 1: out = (static_cast<int64_t>(s) * N + n) * hn + k; break;       // ND [S, N, H/N]
                        case 2: out = s * static_cast<int64_t>(N) * ceil16(hn) + nz_at(N, n, k); break;
                        case 3: out = n * static_cast<int64_t>(S) * ceil16(hn) + nz_at(S, s, k); break;
                        case 4: out = (static_cast<int64_t>(n) * S + s) * hn + k; break;       // ND [N, S, H/N]
                        case 5: out = static_cast<int64_t>(s) * H + n * hn + k; break;         // ND [S, H]
                        default: out = nz_at(S, s, n * hn + k); break;                         // 6: NZ [S, H]
                    }
                    yb[out] = xb[in];
                }
            }
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(
                                sim_detail::repeats_of(static_cast<uint64_t>(B) * N * S * hn, sizeof(T)), 2.0));
}
}  // namespace sim_detail

template <typename T>
inline void ConfusionTranspose(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                               const LocalTensor<uint8_t> &sharedTmpBuffer, TransposeType transposeType,
                               ConfusionTransposeTiling &tiling, PYASC_SIM_LOC) {
    PYASC_SIM_DTYPE_CHECK(ConfusionTranspose, T);
    (void)sharedTmpBuffer;
    const char *api = "ConfusionTranspose";
    const int type = static_cast<int>(transposeType);
    if (type >= 1 && type <= 6) {
        sim_detail::confusion_nz(dstTensor, srcTensor, type, tiling, loc);
        return;
    }
    if (transposeType != TransposeType::TRANSPOSE_ND2ND_ONLY) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "ConfusionTranspose: TransposeType %d is not supported by the pyasc simulator (it implements "
                              "the scenarios 1-6 (NZ2ND / NZ2NZ re-layouts) and TRANSPOSE_ND2ND_ONLY = 7; the reference "
                              "documents no ConfusionTranspose scenario for the others); see "
                              "backends/sim/kernel_api/README.md",
                              type);
    }
    const uint32_t h = tiling.param1, w = tiling.param2;
    if (pyasc_sim::kapi::blk().checks && (h == 0 || w == 0 || h % 16 != 0 || w % 16 != 0)) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "ConfusionTranspose TRANSPOSE_ND2ND_ONLY: tiling height %u (param1) x width %u (param2): "
                              "both must be non-zero multiples of 16 (fill the tiling with GetConfusionTransposeTilingInfo "
                              "or as ConfusionTransposeOnlyTiling lays it out)",
                              h, w);
    }
    const int64_t n = static_cast<int64_t>(h) * w;
    sim_detail::hl_in(srcTensor, api, "srcTensor", n, loc);
    sim_detail::hl_out(dstTensor, api, "dstTensor", n, loc);
    if (pyasc_sim::kapi::blk().checks && dstTensor.ptr() < srcTensor.ptr() + n && srcTensor.ptr() < dstTensor.ptr() + n) {
        pyasc_sim::kapi::fail("vector-count", loc,
                              "ConfusionTranspose: dstTensor and srcTensor overlap (%lld elements each); the transpose "
                              "needs separate buffers",
                              static_cast<long long>(n));
    }
    for (uint32_t r = 0; r < h; ++r) {
        for (uint32_t c = 0; c < w; ++c) {
            dstTensor.ptr()[static_cast<int64_t>(c) * h + r] = srcTensor.ptr()[static_cast<int64_t>(r) * w + c];
        }
    }
    pyasc_sim::kapi::charge(pyasc_sim::kapi::kPipeV,
                            pyasc_sim::kapi::vector_cycles(sim_detail::repeats_of(static_cast<uint64_t>(n), sizeof(T)), 2.0));
}
template <typename T>
inline void ConfusionTranspose(const LocalTensor<T> &dstTensor, const LocalTensor<T> &srcTensor,
                               TransposeType transposeType, ConfusionTransposeTiling &tiling, PYASC_SIM_LOC) {
    ConfusionTranspose<T>(dstTensor, srcTensor, LocalTensor<uint8_t>(), transposeType, tiling, loc);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_CONFUSION_TRANSPOSE_H_
