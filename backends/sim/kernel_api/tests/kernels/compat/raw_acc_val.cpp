// Compatibility kernels (ours, in the style of public normalisation kernels) for the untemplated
// GetAccVal() / GetReduceRepeatSumSpr(): the raw SPR.ACC_VAL as int64_t, read back after a ReduceSum
// count form and reinterpreted by hand. tests/test_sim_compat_raw_acc_val.py runs them against NumPy.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kMaxCols = 256;

class RowRmsNorm {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR rstd, uint32_t rows, uint32_t cols, float eps)
    {
        rows_ = rows;
        cols_ = cols;
        eps_ = eps;
        xGm_.SetGlobalBuffer((__gm__ float *)x, rows * cols);
        yGm_.SetGlobalBuffer((__gm__ float *)y, rows * cols);
        rstdGm_.SetGlobalBuffer((__gm__ float *)rstd, rows);
        pipe_.InitBuffer(inQ_, 1, kMaxCols * sizeof(float));
        pipe_.InitBuffer(outQ_, 1, kMaxCols * sizeof(float));
        pipe_.InitBuffer(sq_, kMaxCols * sizeof(float));
        pipe_.InitBuffer(one_, 32);
    }

    __aicore__ inline void Process()
    {
        for (uint32_t r = GetBlockIdx(); r < rows_; r += GetBlockNum()) {
            Row(r);
        }
    }

private:
    __aicore__ inline void Row(uint32_t r)
    {
        LocalTensor<float> x = inQ_.AllocTensor<float>();
        DataCopyExtParams cp{1, static_cast<uint32_t>(cols_ * sizeof(float)), 0, 0, 0};
        DataCopyPadExtParams<float> pad{false, 0, 0, 0.0f};
        DataCopyPad(x, xGm_[r * cols_], cp, pad);
        inQ_.EnQue(x);
        x = inQ_.DeQue<float>();
        LocalTensor<float> y = outQ_.AllocTensor<float>();
        LocalTensor<float> sq = sq_.Get<float>();
        SetMaskNorm();
        Mul(sq, x, x, cols_);
        PipeBarrier<PIPE_V>();
        Muls(sq, sq, 1.0f / static_cast<float>(cols_), cols_);
        PipeBarrier<PIPE_V>();
        ReduceSum(sq, sq, sq, cols_);           // dst, src and work the same tensor, as public code does
        uint64_t bits = GetAccVal();            // untemplated: the register's raw bits
        const float meanSquare = *reinterpret_cast<float *>(&bits);
        const float rstd = 1.0f / sqrt(meanSquare + eps_);
        Muls(y, x, rstd, cols_);
        LocalTensor<float> one = one_.Get<float>();
        one.SetValue(0, rstd);
        event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(e);
        WaitFlag<HardEvent::S_MTE3>(e);
        DataCopyExtParams one4{1, 4, 0, 0, 0};
        DataCopyPad(rstdGm_[r], one, one4);
        inQ_.FreeTensor(x);
        outQ_.EnQue(y);
        y = outQ_.DeQue<float>();
        DataCopyPad(yGm_[r * cols_], y, cp);
        outQ_.FreeTensor(y);
        event_t back = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(back);
        WaitFlag<HardEvent::MTE3_S>(back);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, 1> inQ_;
    TQue<QuePosition::VECOUT, 1> outQ_;
    TBuf<TPosition::VECCALC> sq_;
    TBuf<TPosition::VECCALC> one_;
    GlobalTensor<float> xGm_, yGm_, rstdGm_;
    uint32_t rows_ = 0, cols_ = 0;
    float eps_ = 0.0f;
};
}  // namespace

// y = x * rstd row by row, rstd = 1 / sqrt(mean(x^2) + eps) read through the untemplated GetAccVal().
extern "C" __global__ __aicore__ void raw_acc_rms_norm(GM_ADDR x, GM_ADDR y, GM_ADDR rstd, uint32_t rows,
                                                       uint32_t cols, float eps)
{
    RowRmsNorm op;
    op.Init(x, y, rstd, rows, cols, eps);
    op.Process();
}

// out[0] = the raw register after a half ReduceSum of n values (GetReduceRepeatSumSpr(), the CANN 9 name):
// the half sum's bits in the low 16 bits, zeros above; out[1] = the same through GetAccVal<half>() widened.
extern "C" __global__ __aicore__ void raw_acc_half(GM_ADDR x, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, kMaxCols * sizeof(half));
    pipe.InitBuffer(b, 64);
    LocalTensor<half> xl = a.Get<half>();
    LocalTensor<int64_t> o = b.Get<int64_t>();
    GlobalTensor<half> xg;
    xg.SetGlobalBuffer((__gm__ half *)x, kMaxCols);
    DataCopy(xl, xg, kMaxCols);
    event_t e = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(e);
    WaitFlag<HardEvent::MTE2_V>(e);
    ReduceSum(xl, xl, xl, n);
    const int64_t raw = GetReduceRepeatSumSpr();
    const half viaTemplate = GetAccVal<half>();
    uint16_t tb;
    memcpy(&tb, &viaTemplate, sizeof(tb));
    o.SetValue(0, raw);
    o.SetValue(1, static_cast<int64_t>(tb));
    event_t s = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
    SetFlag<HardEvent::S_MTE3>(s);
    WaitFlag<HardEvent::S_MTE3>(s);
    GlobalTensor<int64_t> og;
    og.SetGlobalBuffer((__gm__ int64_t *)out, 4);
    DataCopy(og, o, 4);
}

// The untemplated read before any ReduceSum count form of the block: the register holds nothing yet.
extern "C" __global__ __aicore__ void raw_acc_before_reduce(GM_ADDR out)
{
    GlobalTensor<int64_t> og;
    og.SetGlobalBuffer((__gm__ int64_t *)out, 4);
    og.SetValue(0, GetAccVal());
}
