// Compatibility kernels (ours, in the style of public Ascend C) for the rest of the documented basic
// API (issue 8 point 6, "in order of use"): RepeatReduceSum row sums, an argmax with WholeReduceMax +
// GetReduceMaxMinCount, the scalar bit helpers, ToBfloat16 / ToFloat, MulAddRelu, Trap,
// DataSyncBarrier, Gatherb, GetDataBlockSizeInBytes.
// tests/test_sim_compat_basic_rest.py runs them against NumPy.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kRows = 8;
constexpr uint32_t kCols = 64;  // one 256-byte repeat of float per row
constexpr uint32_t kBits = 6;   // results per value in scalar_bits
}  // namespace

// y[r] = sum(x[r, 0:valid]) for 8 rows of 64 floats: one RepeatReduceSum over 8 repeats.
extern "C" __global__ __aicore__ void repeat_reduce_rows(GM_ADDR x, GM_ADDR y, int32_t valid)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, kRows * kCols * sizeof(float));
    pipe.InitBuffer(outQ, 1, kRows * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), kRows * kCols);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), kRows);

    LocalTensor<float> xl = inQ.AllocTensor<float>();
    DataCopy(xl, xGm, kRows * kCols);
    inQ.EnQue(xl);
    xl = inQ.DeQue<float>();
    LocalTensor<float> yl = outQ.AllocTensor<float>();
    // dstBlkStride is ignored; srcRepStride = one row per repeat (8 blocks); dstRepStride 1 result
    constexpr int16_t blk = GetDataBlockSizeInBytes();
    RepeatReduceSum<float>(yl, xl, kRows, valid, 0, 1, 1, kCols * sizeof(float) / blk);
    outQ.EnQue(yl);
    inQ.FreeTensor(xl);
    yl = outQ.DeQue<float>();
    DataCopy(yGm, yl, kRows);
    outQ.FreeTensor(yl);
}

// vals[r], idx[r] = max and argmax of x[r, :] (8 rows of 64 floats): WholeReduceMax per row, then the
// value and index register read with GetReduceMaxMinCount (the index in the float's bits).
extern "C" __global__ __aicore__ void argmax_rows(GM_ADDR x, GM_ADDR vals, GM_ADDR idx)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TBuf<TPosition::VECCALC> work;
    pipe.InitBuffer(inQ, 1, kRows * kCols * sizeof(float));
    pipe.InitBuffer(work, 32);
    GlobalTensor<float> xGm, valGm;
    GlobalTensor<int32_t> idxGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), kRows * kCols);
    valGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(vals), kRows);
    idxGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(idx), kRows);

    LocalTensor<float> xl = inQ.AllocTensor<float>();
    DataCopy(xl, xGm, kRows * kCols);
    inQ.EnQue(xl);
    xl = inQ.DeQue<float>();
    LocalTensor<float> dst = work.Get<float>();
    for (uint32_t r = 0; r < kRows; ++r) {
        WholeReduceMax<float>(dst, xl[r * kCols], kCols, 1, 1, 1, 8);
        float val = 0;
        float index = 0;
        GetReduceMaxMinCount<float>(val, index);
        valGm.SetValue(r, val);
        idxGm.SetValue(r, static_cast<int32_t>(*reinterpret_cast<uint32_t *>(&index)));
    }
    inQ.FreeTensor(xl);
}

// For each 64-bit value v of x[0:n]: ones, zeros, leading zeros, bits like the sign bit, first one,
// first zero (y[6 i + k], int64).
extern "C" __global__ __aicore__ void scalar_bits(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    GlobalTensor<uint64_t> xGm;
    GlobalTensor<int64_t> yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t *>(x), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t *>(y), n * kBits);
    for (uint32_t i = 0; i < n; ++i) {
        const uint64_t v = xGm.GetValue(i);
        yGm.SetValue(i * kBits + 0, ScalarGetCountOfValue<1>(v));
        yGm.SetValue(i * kBits + 1, GetBitCount<0>(v));
        yGm.SetValue(i * kBits + 2, ScalarCountLeadingZero(v));
        yGm.SetValue(i * kBits + 3, CountBitsCntSameAsSignBit(static_cast<int64_t>(v)));
        yGm.SetValue(i * kBits + 4, ScalarGetSFFValue<1>(v));
        yGm.SetValue(i * kBits + 5, GetSFFValue<0>(v));
    }
}

// y[i] = ToFloat(ToBfloat16(x[i])): float rounded to bfloat16 and back, scalar by scalar.
extern "C" __global__ __aicore__ void bf16_scalar_round_trip(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n);
    for (uint32_t i = 0; i < n; ++i) {
        const bfloat16_t b = ToBfloat16(xGm.GetValue(i));
        yGm.SetValue(i, ToFloat(b));
    }
}

// z = relu(x * z + y) with MulAddRelu, count form (64 floats per block).
extern "C" __global__ __aicore__ void mul_add_relu(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, 3 * kCols * sizeof(float));
    pipe.InitBuffer(outQ, 1, kCols * sizeof(float));
    const uint32_t off = GetBlockIdx() * kCols;
    GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + off, kCols);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + off, kCols);
    zGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z) + off, kCols);

    LocalTensor<float> in = inQ.AllocTensor<float>();
    DataCopy(in, xGm, kCols);
    DataCopy(in[kCols], yGm, kCols);
    DataCopy(in[2 * kCols], zGm, kCols);
    inQ.EnQue(in);
    in = inQ.DeQue<float>();
    LocalTensor<float> out = outQ.AllocTensor<float>();
    DataCopy(out, in[2 * kCols], kCols);  // dst starts as z (vector pipe: ordered before MulAddRelu)
    MulAddRelu(out, in, in[kCols], kCols);
    outQ.EnQue(out);
    inQ.FreeTensor(in);
    out = outQ.DeQue<float>();
    DataCopy(zGm, out, kCols);
    outQ.FreeTensor(out);
}

// A kernel that stops itself when stop != 0 (Trap is its debug guard); else writes y[0] = 1.
extern "C" __global__ __aicore__ void trap_guard(GM_ADDR y, uint32_t stop)
{
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 8);
    if (stop != 0) {
        Trap();  // trap-line
    }
    yGm.SetValue(0, 1.0f);
}

// y = x * scale (64 floats per block) with TBuf memory and DataSyncBarrier instead of flags between
// the DMA in, the vector multiply and the DMA out (the pipe-race check takes it as a full barrier).
extern "C" __global__ __aicore__ void dsb_scale(GM_ADDR x, GM_ADDR y, float scale)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * kCols * sizeof(float));
    const uint32_t off = GetBlockIdx() * kCols;
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + off, kCols);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + off, kCols);
    LocalTensor<float> in = buf.Get<float>();
    LocalTensor<float> out = in[kCols];
    DataCopy(in, xGm, kCols);
    DataSyncBarrier<MemDsbT::ALL>();
    Muls(out, in, scale, kCols);
    AscendC::DataSyncBarrier<AscendC::MemDsbT::UB>();
    DataCopy(yGm, out, kCols);
}

// y = the 32-byte blocks of x (16 blocks of 8 uint32) in the order offs gives (byte offsets), with
// Gatherb: 2 repeats of 8 blocks, dst blocks contiguous.
extern "C" __global__ __aicore__ void gatherb_blocks(GM_ADDR x, GM_ADDR offs, GM_ADDR y)
{
    constexpr uint32_t kBlocks = 16, kPer = 8;
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, 2 * kBlocks * kPer * sizeof(uint32_t));
    pipe.InitBuffer(outQ, 1, kBlocks * kPer * sizeof(uint32_t));
    GlobalTensor<uint32_t> xGm, offGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(x), kBlocks * kPer);
    offGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(offs), kBlocks);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(y), kBlocks * kPer);

    LocalTensor<uint32_t> in = inQ.AllocTensor<uint32_t>();
    DataCopy(in, xGm, kBlocks * kPer);
    DataCopy(in[kBlocks * kPer], offGm, kBlocks);
    inQ.EnQue(in);
    in = inQ.DeQue<uint32_t>();
    LocalTensor<uint32_t> out = outQ.AllocTensor<uint32_t>();
    GatherRepeatParams params(1, 8);
    Gatherb(out, in, in[kBlocks * kPer], 2, params);
    outQ.EnQue(out);
    inQ.FreeTensor(in);
    out = outQ.DeQue<uint32_t>();
    DataCopy(yGm, out, kBlocks * kPer);
    outQ.FreeTensor(out);
}
