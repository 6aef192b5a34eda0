// Idioms seen in the public kernel study (COMPAT.md), written for pyasc:
//  - a tiling header that uses uint32_t / size_t before any include;
//  - an SDK-internal header path (interface/kernel_common.h);
//  - lowercase pipe_barrier(PIPE_V) called from a template without `using namespace AscendC`;
//  - the math library's Floor / Ceil / Trunc.
#include "study_tiling.h"
#include "interface/kernel_common.h"
#include "kernel_operator.h"

template <typename T>
class StudyRound {
public:
    __aicore__ inline StudyRound() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
    {
        study::RoundTiling t;
        t.count = ((__gm__ uint32_t *)tiling)[0];
        n_ = t.count;
        xGm_.SetGlobalBuffer((__gm__ T *)x + AscendC::GetBlockIdx() * n_, n_);
        yGm_.SetGlobalBuffer((__gm__ T *)y + AscendC::GetBlockIdx() * 3 * n_, 3 * n_);
        pipe_.InitBuffer(inQ_, 1, n_ * sizeof(T));
        pipe_.InitBuffer(outQ_, 1, 3 * n_ * sizeof(T));
        pipe_.InitBuffer(tmp_, 256);
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> x = inQ_.AllocTensor<T>();
        AscendC::DataCopy(x, xGm_, n_);
        inQ_.EnQue(x);
        x = inQ_.DeQue<T>();
        AscendC::LocalTensor<T> y = outQ_.AllocTensor<T>();
        AscendC::LocalTensor<uint8_t> tmp = tmp_.Get<uint8_t>();
        AscendC::Floor(y, x, tmp, n_);
        pipe_barrier(PIPE_V);
        AscendC::Ceil(y[n_], x, n_);
        pipe_barrier(PIPE_V);
        AscendC::Trunc<T, false>(y[2 * n_], x, n_);
        AscendC::pipe_barrier(PIPE_V);
        outQ_.EnQue(y);
        inQ_.FreeTensor(x);
        y = outQ_.DeQue<T>();
        AscendC::DataCopy(yGm_, y, 3 * n_);
        outQ_.FreeTensor(y);
    }

private:
    AscendC::TPipe pipe_;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> inQ_;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> outQ_;
    AscendC::TBuf<AscendC::QuePosition::VECCALC> tmp_;
    AscendC::GlobalTensor<T> xGm_, yGm_;
    uint32_t n_ = 0;
};

extern "C" __global__ __aicore__ void study_round(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    StudyRound<float> op;
    op.Init(x, y, tiling);
    op.Process();
}

namespace {
using namespace AscendC;
// after the using-directive the unqualified call still resolves to one function
__aicore__ inline void barrier_all() { pipe_barrier(PIPE_ALL); }
}  // namespace

extern "C" __global__ __aicore__ void study_round_half(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    barrier_all();
    StudyRound<half> op;
    op.Init(x, y, tiling);
    op.Process();
}
