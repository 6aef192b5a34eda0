// The vector instructions' fast paths (pyasc_sim/kapi/simd.h) next to their general forms, for
// tests/test_sim_fastpath.py: each kernel writes every result to z so a native and a portable build
// of this file can be compared bit for bit, and the results checked against documented semantics.
#include "kernel_operator.h"
using namespace AscendC;

namespace {
constexpr uint32_t N = 2048;  // elements per operand (float)

// dst = the first n elements of src with every pipe idle before and after: how the kernels below copy an
// input in and each result out, one at a time
template <typename D, typename S>
__aicore__ inline void FencedCopy(const D &dst, const S &src, uint32_t n)
{
    PipeBarrier<PIPE_ALL>();
    DataCopy(dst, src, n);
    PipeBarrier<PIPE_ALL>();
}
}  // namespace

// x, y: N floats. z (floats): Add, Sub, Mul, Div, Max, Exp, Ln, Sqrt, Adds, Muls, in-place Add,
// a masked repeat Add (mask 40, rep stride 8), a strided repeat Add (block stride 2), Cast
// f32 -> f16 -> f32, f32 -> bf16 -> f32, each N elements; then ReduceSum, ReduceMax (+ index),
// ReduceMin (+ index) of x at floats 0, 8 (9), 16 (17) after them (indices as uint32 bits).
extern "C" __global__ __aicore__ void fastpath_vec(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    constexpr uint32_t kOut = 15;
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bt, bh, bb, bo, br;
    pipe.InitBuffer(bx, N * 4);
    pipe.InitBuffer(by, N * 4);
    pipe.InitBuffer(bt, N * 4);
    pipe.InitBuffer(bh, N * 2);
    pipe.InitBuffer(bb, N * 2);
    pipe.InitBuffer(bo, N * 4);
    pipe.InitBuffer(br, 128);
    GlobalTensor<float> gx, gy, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), N);
    gy.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), N);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), N * kOut + 32);
    LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>(), lt = bt.Get<float>(), lo = bo.Get<float>();
    LocalTensor<half> lh = bh.Get<half>();
    LocalTensor<bfloat16_t> lb = bb.Get<bfloat16_t>();
    LocalTensor<float> lr = br.Get<float>();
    DataCopy(lx, gx, N);
    DataCopy(ly, gy, N);
    PipeBarrier<PIPE_ALL>();
    uint32_t slot = 0;
    auto out = [&]() { FencedCopy(gz[N * slot++], lo, N); };
    Add(lo, lx, ly, N); out();
    Sub(lo, lx, ly, N); out();
    Mul(lo, lx, ly, N); out();
    Div(lo, lx, ly, N); out();
    Max(lo, lx, ly, N); out();
    Exp(lo, lx, N); out();
    Ln(lo, lx, N); out();
    Sqrt(lo, lx, N); out();
    Adds(lo, lx, 0.1f, N); out();
    Muls(lo, lx, -3.3f, N); out();
    DataCopy(lo, gx, N);
    PipeBarrier<PIPE_ALL>();
    Add(lo, lo, ly, N); out();  // in place
    Duplicate(lo, 7.0f, N);
    BinaryRepeatParams rp;  // continuous mask of 40 of the 64 elements of each repeat
    Add(lo, lx, ly, 40, static_cast<uint8_t>(N / 64), rp); out();
    Duplicate(lo, 7.0f, N);
    BinaryRepeatParams sp;  // every other data block: 16 repeats, block stride 2, repeat stride 16
    sp.dstBlkStride = sp.src0BlkStride = sp.src1BlkStride = 2;
    sp.dstRepStride = sp.src0RepStride = sp.src1RepStride = 16;
    Add(lo, lx, ly, 64, static_cast<uint8_t>(N / 128), sp); out();
    Cast(lh, lx, RoundMode::CAST_RINT, N);
    Cast(lo, lh, RoundMode::CAST_NONE, N); out();
    Cast(lb, lx, RoundMode::CAST_RINT, N);
    Cast(lo, lb, RoundMode::CAST_NONE, N); out();
    Duplicate(lr, 0.0f, 32);
    ReduceSum(lr, lx, lt, N);
    ReduceMax(lr[8], lx, lt, N, true);
    ReduceMin(lr[16], lx, lt, N, true);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz[slot * N], lr, 32);
}

// z[0] = ReduceSum of the first n elements of x (n <= N), for the pairwise-order tests.
extern "C" __global__ __aicore__ void fastpath_sum(GM_ADDR x, GM_ADDR z, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, bt, br;
    pipe.InitBuffer(bx, N * 4);
    pipe.InitBuffer(bt, N * 4);
    pipe.InitBuffer(br, 32);
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), N);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), 8);
    LocalTensor<float> lx = bx.Get<float>(), lt = bt.Get<float>(), lr = br.Get<float>();
    DataCopy(lx, gx, N);
    Duplicate(lr, 0.0f, 8);
    PipeBarrier<PIPE_ALL>();
    ReduceSum(lr, lx, lt, static_cast<int32_t>(n));
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, lr, 8);
}

// The three-operand forms (kapi/simd.h fma3_*): a, b, c are N floats. z (floats), N each:
// MulAddDst(d = c; d = a * b + d), FusedMulAdd(d = b; d = a * d + c), FusedMulAddRelu (the same, relu),
// MulAddDst in place on a source (d = a; d = d * b + d), FusedMulAdd over the first N - 3 elements
// (d = b; the vector loop's scalar tail; the last 3 keep b), then the half forms of MulAddDst and
// FusedMulAddRelu on a, b, c cast to half (round to nearest even), widened back to float exactly.
extern "C" __global__ __aicore__ void fastpath_fma(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR z)
{
    constexpr uint32_t kOut = 7;
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bc, bo, ha, hb, hc, ho;
    pipe.InitBuffer(ba, N * 4);
    pipe.InitBuffer(bb, N * 4);
    pipe.InitBuffer(bc, N * 4);
    pipe.InitBuffer(bo, N * 4);
    pipe.InitBuffer(ha, N * 2);
    pipe.InitBuffer(hb, N * 2);
    pipe.InitBuffer(hc, N * 2);
    pipe.InitBuffer(ho, N * 2);
    GlobalTensor<float> ga, gb, gc, gz;
    ga.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(a), N);
    gb.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(b), N);
    gc.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), N);
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), N * kOut);
    LocalTensor<float> la = ba.Get<float>(), lb = bb.Get<float>(), lc = bc.Get<float>(), lo = bo.Get<float>();
    LocalTensor<half> lha = ha.Get<half>(), lhb = hb.Get<half>(), lhc = hc.Get<half>(), lho = ho.Get<half>();
    DataCopy(la, ga, N);
    DataCopy(lb, gb, N);
    DataCopy(lc, gc, N);
    PipeBarrier<PIPE_ALL>();
    uint32_t slot = 0;
    auto out = [&]() { FencedCopy(gz[N * slot++], lo, N); };
    auto load = [&](const GlobalTensor<float> &g) { FencedCopy(lo, g, N); };  // lo = a copy of an input
    load(gc);
    MulAddDst(lo, la, lb, N); out();
    load(gb);
    FusedMulAdd(lo, la, lc, N); out();
    load(gb);
    FusedMulAddRelu(lo, la, lc, N); out();
    load(ga);
    MulAddDst(lo, lo, lb, N); out();  // in place: dst is src0
    load(gb);
    FusedMulAdd(lo, la, lc, N - 3); out();
    Cast(lha, la, RoundMode::CAST_RINT, N);
    Cast(lhb, lb, RoundMode::CAST_RINT, N);
    Cast(lhc, lc, RoundMode::CAST_RINT, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(lho, lhc, N);
    PipeBarrier<PIPE_ALL>();
    MulAddDst(lho, lha, lhb, N);
    Cast(lo, lho, RoundMode::CAST_NONE, N); out();
    DataCopy(lho, lhb, N);
    PipeBarrier<PIPE_ALL>();
    FusedMulAddRelu(lho, lha, lhc, N);
    Cast(lo, lho, RoundMode::CAST_NONE, N); out();
}
