// A vector epilogue over a UB tile with a never-written tail, in the style of Catlass-like per-token dequant
// epilogues: the UB tiles are allocated for a whole kRows x kCols block, a tail block copies in only its m rows,
// and every instruction works on the whole tile (count forms over kRows * kCols elements, a mask / repeat form
// with a row-broadcast operand, Brcb of the per-row scales); only the rows the caller asks for are stored.
// Hardware gives the right result as long as only written rows are stored; the sanitizer carries the
// never-written lanes through the elementwise instructions and reports only a store of lanes computed from them
// (kapi/vector_taint.h).  Our own kernel (tests/test_sim_vector_taint.py).
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kRows = 16;
constexpr uint32_t kCols = 64;               // one 256-byte repeat of floats per row
constexpr uint32_t kCount = kRows * kCols;
}  // namespace

// c: m x n int32, scale: n float (per column), token: m float (per row), d: storeRows x n half;
// shape: m, n (<= 64, n * 2 a multiple of 32), storeRows.
// d[r][j] = half(float(c[r][j]) * scale[j] * token[r] + 0.5f) for r < storeRows.
extern "C" __global__ __aicore__ void tail_tile_epilogue(GM_ADDR c, GM_ADDR scale, GM_ADDR token, GM_ADDR d,
                                                         GM_ADDR shape)
{
    GlobalTensor<int32_t> gShape;
    gShape.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(shape), 3);
    const uint32_t m = gShape.GetValue(0), n = gShape.GetValue(1), storeRows = gShape.GetValue(2);
    GlobalTensor<int32_t> gC;
    GlobalTensor<float> gScale, gToken;
    GlobalTensor<half> gD;
    gC.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(c), m * n);
    gScale.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(scale), n);
    gToken.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(token), m);
    gD.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(d), storeRows * n);

    TPipe pipe;
    TBuf<TPosition::VECCALC> bufC, bufF, bufScale, bufToken, bufTokenB, bufD;
    pipe.InitBuffer(bufC, kCount * sizeof(int32_t));
    pipe.InitBuffer(bufF, kCount * sizeof(float));
    pipe.InitBuffer(bufScale, kCols * sizeof(float));
    pipe.InitBuffer(bufToken, kRows * sizeof(float));
    pipe.InitBuffer(bufTokenB, kRows * 8 * sizeof(float));
    pipe.InitBuffer(bufD, kCount * sizeof(half));
    LocalTensor<int32_t> ubC = bufC.Get<int32_t>();
    LocalTensor<float> ubF = bufF.Get<float>();
    LocalTensor<float> ubScale = bufScale.Get<float>();
    LocalTensor<float> ubToken = bufToken.Get<float>();
    LocalTensor<float> ubTokenB = bufTokenB.Get<float>();
    LocalTensor<half> ubD = bufD.Get<half>();

    // m rows of n values into rows of kCols (the row slots past n count as written: DataCopyPad pads them)
    const uint32_t rowSlot = (n * sizeof(int32_t) + 31) / 32 * 32;
    DataCopyPad(ubC, gC, {static_cast<uint16_t>(m), n * static_cast<uint32_t>(sizeof(int32_t)), 0,
                          (kCols * static_cast<uint32_t>(sizeof(int32_t)) - rowSlot) / 32},
                {false, 0, 0, 0});
    DataCopyPad(ubScale, gScale, {1, n * static_cast<uint32_t>(sizeof(float)), 0, 0}, {false, 0, 0, 0});
    DataCopyPad(ubToken, gToken, {1, m * static_cast<uint32_t>(sizeof(float)), 0, 0}, {false, 0, 0, 0});
    PipeBarrier<PIPE_ALL>();

    Cast(ubF, ubC, RoundMode::CAST_NONE, kCount);                            // the whole tile, count form
    PipeBarrier<PIPE_V>();
    Mul(ubF, ubF, ubScale, 64, kRows, {1, 1, 1, 8, 8, 0});                  // row broadcast: one repeat per row
    Brcb(ubTokenB, ubToken, kRows / 8, {1, 8});                              // token[r] -> block r
    PipeBarrier<PIPE_V>();
    Mul(ubF, ubF, ubTokenB, 64, kRows, {1, 1, 0, 8, 8, 1});                 // column broadcast of one block
    PipeBarrier<PIPE_V>();
    Adds(ubF, ubF, 0.5f, kCount);                                            // in place, count form
    PipeBarrier<PIPE_V>();
    Cast(ubD, ubF, RoundMode::CAST_RINT, kCount);
    PipeBarrier<PIPE_ALL>();

    // storeRows rows of n halves (rows past m were computed from never-written UB)
    const uint32_t outSlot = (n * sizeof(half) + 31) / 32 * 32;
    const DataCopyExtParams out{static_cast<uint16_t>(storeRows), n * static_cast<uint32_t>(sizeof(half)),
                                (kCols * static_cast<uint32_t>(sizeof(half)) - outSlot) / 32, 0};
    DataCopyPad(gD, ubD, out);  // BAD(stored-tail)
}
