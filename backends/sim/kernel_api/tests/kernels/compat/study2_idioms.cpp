// Idioms of the second public-kernel study (kernel_api/COMPAT.md), in the style of the public code
// and written for pyasc: a kernel header including acl/acl.h, kernels inside an extern "C" { }
// block, the lowercase mask-mode intrinsics with AscendCUtils::ResetMask, ReduceSum<T, isSetMask>,
// lib/pad/broadcast.h's Broadcast, braced DataCopyPad parameters, scalar min / max / Ceil, and the
// SoC constants (TOTAL_*_SIZE, DEFAULT_C0_SIZE, g_coreType).
//
// Per block (K = 64 floats of x): out[0:64] = x * x; out[64:128] = x[0:4] broadcast along the
// columns ([4, 1] -> [4, 16]); out[128:192] = x[0:16] broadcast along the rows ([1, 16] -> [4, 16]);
// out[192:200] = {sum(x), min(block, 1), max(block, 1), Ceil(7, 2), TOTAL_L1_SIZE / 1024,
// TOTAL_L0C_SIZE / 1024, g_coreType == AIV, DEFAULT_C0_SIZE}.
#include "acl/acl.h"
#include "kernel_operator.h"
#include "lib/pad/broadcast.h"

namespace {
constexpr int32_t K = 64;
constexpr int32_t ROWS = 4;
constexpr int32_t COLS = 16;
constexpr int32_t OUT = 200;
}  // namespace

#ifdef __cplusplus
extern "C" {
#endif

__global__ __aicore__ void study2_idioms(GM_ADDR x, GM_ADDR out) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> xb, ob, wb, sb;
    pipe.InitBuffer(xb, K * sizeof(float));
    pipe.InitBuffer(ob, OUT * sizeof(float));
    pipe.InitBuffer(wb, K * sizeof(float));
    pipe.InitBuffer(sb, 8 * sizeof(float));
    AscendC::GlobalTensor<float> xGm, oGm;
    const int32_t blk = AscendC::GetBlockIdx();
    xGm.SetGlobalBuffer((__gm__ float *)x + blk * K, K);
    oGm.SetGlobalBuffer((__gm__ float *)out + blk * OUT, OUT);
    AscendC::LocalTensor<float> xl = xb.Get<float>();
    AscendC::LocalTensor<float> ol = ob.Get<float>();
    AscendC::LocalTensor<float> work = wb.Get<float>();
    AscendC::LocalTensor<float> sum = sb.Get<float>();

    // braced parameters, as in public kernels: {blockCount, blockLen (bytes), srcStride, dstStride}, {}
    AscendC::DataCopyPad(xl, xGm, {1, static_cast<uint32_t>(K * sizeof(float)), 0, 0}, {});
    AscendC::PipeBarrier<PIPE_ALL>();

    set_mask_count();
    AscendC::Mul(ol, xl, xl, K);
    set_mask_norm();
    AscendC::AscendCUtils::ResetMask();

    const uint32_t dstShape[2] = {ROWS, COLS};
    const uint32_t colShape[2] = {ROWS, 1};
    const uint32_t rowShape[2] = {1, COLS};
    AscendC::Broadcast<float, 2, 1>(ol[K], xl, dstShape, colShape);
    AscendC::LocalTensor<uint8_t> tmp = wb.Get<uint8_t>();
    AscendC::Broadcast<float, 2, 0>(ol[K + ROWS * COLS], xl, dstShape, rowShape, tmp);
    AscendC::PipeBarrier<PIPE_V>();
    AscendC::ReduceSum<float, true>(sum, xl, work, K);
    AscendC::PipeBarrier<PIPE_ALL>();

    const int32_t base = K + 2 * ROWS * COLS;
    ol.SetValue(base + 0, sum.GetValue(0));
    ol.SetValue(base + 1, static_cast<float>(min(blk, 1)));
    ol.SetValue(base + 2, static_cast<float>(max(blk, 1)));
    ol.SetValue(base + 3, static_cast<float>(AscendC::Ceil(7u, 2u)));
    ol.SetValue(base + 4, static_cast<float>(AscendC::TOTAL_L1_SIZE / 1024));
    ol.SetValue(base + 5, static_cast<float>(AscendC::TOTAL_L0C_SIZE / 1024));
    ol.SetValue(base + 6, g_coreType == AscendC::AIV ? 1.0f : 0.0f);
    ol.SetValue(base + 7, static_cast<float>(AscendC::DEFAULT_C0_SIZE));
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(oGm, ol, OUT);
}

#ifdef __cplusplus
}
#endif
