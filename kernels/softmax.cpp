// softmax and log_softmax over the last axis of a (rows, cols) tensor (other axes: the host
// moves the axis last first).
//
// Kernels softmax_<dtype> and log_softmax_<dtype> for float16, bfloat16, float32 (computed in
// float). Per row, as the reference: m = max(x); e = exp(x - m); s = sum(e);
// softmax = e / s, log_softmax = (x - m) - log(s). A row that fits one chunk stays in UB for the
// three passes; longer rows are streamed from global memory once per pass.
#include "kernel_common.h"

namespace pyasc_kernels {

// Host side: pyasc_sim/ops/nn.py.
struct SoftmaxTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t chunk;  // elements per chunk (multiple of 64)
    uint32_t reserved[4];
};

template <typename T, bool LOG>
class KernelSoftmax {
public:
    __aicore__ inline KernelSoftmax() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxTiling &tiling) {
        t_ = tiling;
        CoreRange(t_.rows, t_.rowsPerCore, row0_, nrows_);
        if (nrows_ == 0) {
            return;
        }
        const uint64_t base = static_cast<uint64_t>(row0_) * t_.cols;
        const uint64_t len = static_cast<uint64_t>(nrows_) * t_.cols;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x) + base, len);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y) + base, len);
        pipe_.InitBuffer(inX_, BUFFER_NUM, t_.chunk * sizeof(T));
        pipe_.InitBuffer(outY_, BUFFER_NUM, t_.chunk * sizeof(T));
        pipe_.InitBuffer(calc_, 4 * t_.chunk * sizeof(float) + 64);
        LocalTensor<float> b = calc_.Get<float>();
        xf_ = b;
        ef_ = b[t_.chunk];
        work_ = b[2 * t_.chunk];
        sv_ = b[3 * t_.chunk];
        one_ = b[4 * t_.chunk];
    }

    __aicore__ inline void Process() {
        for (uint32_t r = 0; r < nrows_; ++r) {
            Row(r);
        }
    }

private:
    __aicore__ inline void Load(uint32_t r, uint32_t offset, uint32_t count) {
        LocalTensor<T> x = inX_.AllocTensor<T>();
        CopyIn(x, xGm_[static_cast<uint64_t>(r) * t_.cols + offset], count);
        inX_.EnQue(x);
        x = inX_.DeQue<T>();
        if constexpr (kWidened<T>) {
            ToCompute(xf_, x, count);
        } else {
            DataCopy(xf_, x, AlignBlock<float>(count));
        }
        inX_.FreeTensor(x);
    }

    __aicore__ inline float Scalar() {
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        return one_.GetValue(0);
    }

    __aicore__ inline void Row(uint32_t r) {
        const uint32_t chunks = (t_.cols + t_.chunk - 1) / t_.chunk;
        const bool resident = chunks == 1;
        // pass 1: the maximum
        float m = BitsToFloat(0xff800000u);
        for (uint32_t c = 0; c < chunks; ++c) {
            const uint32_t offset = c * t_.chunk;
            const uint32_t count = c + 1 == chunks ? t_.cols - offset : t_.chunk;
            Load(r, offset, count);
            ReduceMax(one_, xf_, work_, count);
            const float v = Scalar();
            m = v > m ? v : m;
        }
        // pass 2: the sum of exp(x - m)
        float s = 0.0f;
        for (uint32_t c = 0; c < chunks; ++c) {
            const uint32_t offset = c * t_.chunk;
            const uint32_t count = c + 1 == chunks ? t_.cols - offset : t_.chunk;
            if (!resident) {
                Load(r, offset, count);
            }
            Adds(work_, xf_, -m, count);
            Exp(ef_, work_, count);
            ReduceSum(one_, ef_, work_, count);
            s += Scalar();
        }
        float shift = 0.0f;  // log_softmax: log(s), by the vector unit
        if constexpr (LOG) {
            Duplicate(sv_, s, 16);
            Ln(sv_, sv_, 16);
            SetFlag<HardEvent::V_S>(EVENT_ID0);
            WaitFlag<HardEvent::V_S>(EVENT_ID0);
            shift = sv_.GetValue(0);
        }
        // pass 3: the output
        for (uint32_t c = 0; c < chunks; ++c) {
            const uint32_t offset = c * t_.chunk;
            const uint32_t count = c + 1 == chunks ? t_.cols - offset : t_.chunk;
            if (!resident) {
                Load(r, offset, count);
            }
            LocalTensor<T> y = outY_.AllocTensor<T>();
            LocalTensor<float> yf = kWidened<T> ? work_ : y.template ReinterpretCast<float>();
            if constexpr (LOG) {
                Adds(yf, xf_, -m, count);
                Adds(yf, yf, -shift, count);
            } else {
                if (!resident) {  // a resident row still has exp(x - m) from pass 2
                    Adds(work_, xf_, -m, count);
                    Exp(ef_, work_, count);
                }
                Duplicate(sv_, s, count);
                Div(yf, ef_, sv_, count);
            }
            if constexpr (kWidened<T>) {
                FromCompute(y, yf, count);
            }
            outY_.EnQue(y);
            y = outY_.DeQue<T>();
            CopyOut(yGm_[static_cast<uint64_t>(r) * t_.cols + offset], y, count);
            outY_.FreeTensor(y);
        }
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inX_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outY_;
    TBuf<QuePosition::VECCALC> calc_;
    GlobalTensor<T> xGm_, yGm_;
    LocalTensor<float> xf_, ef_, work_, sv_, one_;
    SoftmaxTiling t_;
    uint32_t row0_ = 0;
    uint32_t nrows_ = 0;
};

template <typename T, bool LOG>
__aicore__ inline void RunSoftmax(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    SoftmaxTiling t;
    LoadTiling(t, tiling);
    KernelSoftmax<T, LOG> op;
    op.Init(x, y, t);
    op.Process();
}

}  // namespace pyasc_kernels

#define PYASC_SOFTMAX_KERNEL(NAME, LOG, DTYPE, T)                                                           \
    extern "C" __global__ __aicore__ void NAME##_##DTYPE(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,           \
                                                         GM_ADDR tiling) {                                  \
        (void)workspace;                                                                                    \
        pyasc_kernels::RunSoftmax<T, LOG>(x, y, tiling);                                                    \
    }

PYASC_SOFTMAX_KERNEL(softmax, false, float16, half)
PYASC_SOFTMAX_KERNEL(softmax, false, bfloat16, bfloat16_t)
PYASC_SOFTMAX_KERNEL(softmax, false, float32, float)
PYASC_SOFTMAX_KERNEL(log_softmax, true, float16, half)
PYASC_SOFTMAX_KERNEL(log_softmax, true, bfloat16, bfloat16_t)
PYASC_SOFTMAX_KERNEL(log_softmax, true, float32, float)
