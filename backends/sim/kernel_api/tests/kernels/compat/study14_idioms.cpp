#include "kernel_operator.h"
// Idioms of round 14's public kernels (RecSDK's v220 ln_mul, in_linear_silu_backward, norm_multiply_dropout;
// backends/sim/kernel_api/COMPAT.md), written for pyasc in the style of public code:
// - the high-level ReduceSum<T, Pattern::Reduce::AR | RA, isReuse>(dst, src, shape, srcInnerPad) (and Max / Min /
//   Mean / Prod) on padded and unpadded rows, with and without a sharedTmpBuffer;
// - TQueSync<PIPE_MTE2, PIPE_V> / <PIPE_V, PIPE_MTE3> as the only ordering between a load, a vector op and a store;
// - DropOut<float, false, mode> with a bit mask (mode 3, in place) and a byte mask (mode 2) and DropOutShapeInfo;
// - kernel_log.h next to kernel_operator.h; ASSERT(cond && "msg") with no semicolon before the next statement;
// - a Matmul whose sixth template argument is MatmulCallBackFunc<nullptr, nullptr, nullptr>, with SetUserDefInfo.
#include "kernel_log.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

namespace {
constexpr uint32_t ROWS = 6;
constexpr uint32_t COLS = 20;  // not a multiple of 8 floats: padded rows hold 24
constexpr uint32_t PAD = 24;
}  // namespace

// x: ROWS x COLS floats (contiguous).  out (floats): [0, 6) AR sums over padded rows, [8, 14) AR max,
// [16, 22) AR min, [24, 30) AR mean, [32, 52) RA sums over the contiguous copy, [56, 76) RA prod of rows 0..1.
extern "C" __global__ __aicore__ void study14_pattern_reduce(GM_ADDR x, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> padBuf, flatBuf, resBuf, tmpBuf;
    pipe.InitBuffer(padBuf, ROWS * PAD * sizeof(float));
    pipe.InitBuffer(flatBuf, ROWS * PAD * sizeof(float));
    pipe.InitBuffer(resBuf, 80 * sizeof(float));
    pipe.InitBuffer(tmpBuf, 1024);
    GlobalTensor<float> xGm, outGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), ROWS * COLS);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), 80);
    LocalTensor<float> padded = padBuf.Get<float>();
    LocalTensor<float> flat = flatBuf.Get<float>();
    LocalTensor<float> res = resBuf.Get<float>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();

    DataCopyExtParams rowParams{ROWS, COLS * sizeof(float), 0, 0, 0};  // rows land 32-byte aligned
    DataCopyPad(padded, xGm, rowParams, DataCopyPadExtParams<float>{true, 0, PAD - COLS, 0.0f});
    DataCopyPad(flat, xGm, DataCopyExtParams{1, ROWS * COLS * sizeof(float), 0, 0, 0},
                DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
    Duplicate(res, 0.0f, 80);
    TQueSync<PIPE_MTE2, PIPE_V> loaded;
    loaded.SetFlag(0);
    loaded.WaitFlag(0);

    uint32_t shape[2] = {ROWS, COLS};
    ReduceSum<float, Pattern::Reduce::AR, false>(res, padded, shape, true);
    ReduceMax<float, Pattern::Reduce::AR>(res[8], padded, tmp, shape, true);
    ReduceMin<float, Pattern::Reduce::AR>(res[16], padded, shape, true);
    ReduceMean<float, Pattern::Reduce::AR>(res[24], padded, shape, true);
    ReduceSum<float, Pattern::Reduce::RA, false>(res[32], flat, shape, false);
    uint32_t two[2] = {2, COLS};
    ReduceProd<float, Pattern::Reduce::RA>(res[56], flat, tmp, two, false);

    TQueSync<PIPE_V, PIPE_MTE3> computed;
    computed.SetFlag(0);
    computed.WaitFlag(0);
    DataCopy(outGm, res, 80);
}

// y = DropOut(x) of a rows x cols float tensor: mode 3 reads `bits` (cols / 8 bytes a row), in place; mode 2 reads
// `bytes` (one a element) into a second tensor.  keep = keepPermille / 1000.
extern "C" __global__ __aicore__ void study14_dropout(GM_ADDR x, GM_ADDR bits, GM_ADDR bytes, GM_ADDR yBits,
                                                      GM_ADDR yBytes, uint32_t rows, uint32_t cols,
                                                      uint32_t keepPermille)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ, maskQ, byteQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    const uint32_t n = rows * cols;
    pipe.InitBuffer(inQ, 1, n * sizeof(float));
    pipe.InitBuffer(outQ, 1, n * sizeof(float));
    pipe.InitBuffer(maskQ, 1, (n / 8 + 31) / 32 * 32);
    pipe.InitBuffer(byteQ, 1, (n + 31) / 32 * 32);
    pipe.InitBuffer(tmpBuf, 1024);
    GlobalTensor<float> xGm, ybGm, yyGm;
    GlobalTensor<uint8_t> bitGm, byteGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    ybGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(yBits), n);
    yyGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(yBytes), n);
    bitGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t *>(bits), n / 8);
    byteGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t *>(bytes), n);

    LocalTensor<float> xl = inQ.AllocTensor<float>();
    LocalTensor<uint8_t> ml = maskQ.AllocTensor<uint8_t>();
    LocalTensor<uint8_t> bl = byteQ.AllocTensor<uint8_t>();
    DataCopy(xl, xGm, n);
    DataCopyPad(ml, bitGm, DataCopyExtParams{1, n / 8, 0, 0, 0}, DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
    DataCopyPad(bl, byteGm, DataCopyExtParams{1, n, 0, 0, 0}, DataCopyPadExtParams<uint8_t>{false, 0, 0, 0});
    inQ.EnQue(xl);
    maskQ.EnQue(ml);
    byteQ.EnQue(bl);
    xl = inQ.DeQue<float>();
    ml = maskQ.DeQue<uint8_t>();
    bl = byteQ.DeQue<uint8_t>();

    const float keep = static_cast<float>(keepPermille) / 1000.0f;
    LocalTensor<float> yl = outQ.AllocTensor<float>();
    DropOutShapeInfo info;
    info.firstAxis = rows;
    info.srcLastAxis = cols;
    info.maskLastAxis = cols;
    DropOut<float, false, 2>(yl, xl, bl, keep, info);
    info.maskLastAxis = cols / 8;
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    DropOut<float, false, 3>(xl, xl, ml, tmp, keep, info);  // in place, as public kernels call it
    outQ.EnQue(yl);
    yl = outQ.DeQue<float>();
    DataCopy(yyGm, yl, n);
    TQueSync<PIPE_V, PIPE_MTE3> done;
    done.SetFlag(0);
    done.WaitFlag(0);
    DataCopy(ybGm, xl, n);
    outQ.FreeTensor(yl);
    inQ.FreeTensor(xl);
    maskQ.FreeTensor(ml);
    byteQ.FreeTensor(bl);
}

// A DropOut whose keep probability is outside (0, 1]: reported.
extern "C" __global__ __aicore__ void study14_dropout_bad_keep(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf, mbuf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    pipe.InitBuffer(mbuf, 64);
    LocalTensor<float> xl = buf.Get<float>();
    LocalTensor<uint8_t> ml = mbuf.Get<uint8_t>();
    Duplicate(xl, 1.0f, 64);
    Duplicate(ml.ReinterpretCast<uint16_t>(), static_cast<uint16_t>(0xFFFF), 32);
    PipeBarrier<PIPE_V>();
    DropOutShapeInfo info;
    info.firstAxis = 1;
    info.srcLastAxis = 64;
    info.maskLastAxis = 64;
    DropOut<float, false, 2>(xl, xl, ml, 0.0f, info);
    (void)x;
}

// c[M, N] (float) = a[M, K] (half) @ b[K, N] (half), the Matmul declared with the default callback set and told
// the tiling address (SetUserDefInfo), as RecSDK's in_linear_silu_backward declares its two objects.  `rows` is
// checked with an ASSERT written without its semicolon before a declaration.  With atomicAdd = 1 every block adds
// its product into C (IterateAll's enAtomic), as in_linear_silu_backward's cores accumulate weight_grad.
extern "C" __global__ __aicore__ void study14_matmul_cb(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm,
                                                        GM_ADDR flag, uint32_t rows, uint8_t atomicAdd)
{
    TCubeTiling tiling;
    auto *words = reinterpret_cast<__gm__ uint32_t *>(tilingGm);
    for (size_t i = 0; i < sizeof(TCubeTiling) / sizeof(uint32_t); ++i) {
        reinterpret_cast<uint32_t *>(&tiling)[i] = words[i];
    }
    ASSERT(rows == static_cast<uint32_t>(tiling.M) && "rows must be the tiling's M")
    GlobalTensor<int32_t> flagGm;
    flagGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(flag), 8);
    if (GetBlockIdx() == 0) {
        flagGm.SetValue(0, 7);
    }
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), tiling.M * tiling.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), tiling.Kb * tiling.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), tiling.M * tiling.N);
    TPipe pipe;
    matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG_NORM,
                   matmul::MatmulCallBackFunc<nullptr, nullptr, nullptr>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    mm.SetUserDefInfo(reinterpret_cast<uint64_t>(tilingGm));
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm, atomicAdd);  // atomicAdd = 1: every block adds its product into the same C
    mm.End();
}

// An ASSERT written without its semicolon that fails: reported with its condition.
extern "C" __global__ __aicore__ void study14_assert_fails(GM_ADDR x, uint32_t n)
{
    ASSERT(n < 4 && "n must stay below 4")
    GlobalTensor<int32_t> xGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(x), 8);
    xGm.SetValue(0, static_cast<int32_t>(n));
}

// The documented kernel-side assert(expr, fmt, args...) (RecSDK's split_embedding_codegen_forward_unweighted checks
// its offsets so) and ascendc_assert: a false condition is reported with the formatted message.
extern "C" __global__ __aicore__ void study14_lower_assert(GM_ADDR x, uint32_t n)
{
    GlobalTensor<int32_t> xGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(x), 8);
    ascendc_assert(n != 5, "n is %u", n);
    assert(n < 4, "n = %u must stay below %d", n, 4);
    xGm.SetValue(1, static_cast<int32_t>(n) * 2);
}
