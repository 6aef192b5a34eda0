// y[r] = x[r] / sqrt(mean(x[r]^2) + eps) for rows of 64 floats (ours, op-project style): the row sums
// come from WholeReduceSum<float, false> under a mask set with the length form
// AscendCUtils::SetMask<float>(len), the idiom vllm-ascend's adn_rms_norm uses.
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t COLS = 64;

extern "C" __global__ __aicore__ void row_norm(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t first = GetBlockIdx() * t.rowsPerCore;
    if (first >= t.rows) {
        return;
    }
    const uint32_t rows = (t.rows - first < t.rowsPerCore) ? t.rows - first : t.rowsPerCore;
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)x + first * COLS, rows * COLS);
    gy.SetGlobalBuffer((__gm__ float *)y + first * COLS, rows * COLS);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> sqBuf, sumBuf;
    pipe.InitBuffer(inQ, 1, rows * COLS * sizeof(float));
    pipe.InitBuffer(outQ, 1, rows * COLS * sizeof(float));
    pipe.InitBuffer(sqBuf, rows * COLS * sizeof(float));
    pipe.InitBuffer(sumBuf, 32 * sizeof(float));

    LocalTensor<float> in = inQ.AllocTensor<float>();
    DataCopy(in, gx, rows * COLS);
    inQ.EnQue(in);
    in = inQ.DeQue<float>();
    LocalTensor<float> sq = sqBuf.Get<float>();
    LocalTensor<float> sums = sumBuf.Get<float>();
    Mul(sq, in, in, rows * COLS);
    PipeBarrier<PIPE_V>();
    AscendCUtils::SetMask<float>(COLS);  // every lane of a 64-float repeat
    WholeReduceSum<float, false>(sums, sq, COLS, rows, 1, 1, COLS / 8);
    PipeBarrier<PIPE_V>();
    ResetMask();
    event_t vs = static_cast<event_t>(pipe.FetchEventID(HardEvent::V_S));
    SetFlag<HardEvent::V_S>(vs);
    WaitFlag<HardEvent::V_S>(vs);
    LocalTensor<float> out = outQ.AllocTensor<float>();
    for (uint32_t r = 0; r < rows; ++r) {
        const float scale = 1.0f / sqrt(sums.GetValue(r) / COLS + t.eps);
        event_t sv = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(sv);
        WaitFlag<HardEvent::S_V>(sv);
        Muls(out[r * COLS], in[r * COLS], scale, COLS);
    }
    outQ.EnQue(out);
    inQ.FreeTensor(in);
    out = outQ.DeQue<float>();
    DataCopy(gy, out, rows * COLS);
    outQ.FreeTensor(out);
}
