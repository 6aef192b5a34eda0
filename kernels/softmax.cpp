// softmax and log_softmax over the last axis of a (rows, cols) tensor (other axes: the host
// moves the axis last first).
//
// Kernels softmax_<dtype> and log_softmax_<dtype> for float16, bfloat16, float32 (computed in
// float). Per row, as the reference: m = max(x); e = exp(x - m); s = sum(e);
// softmax = e * (1 / s) (as PyTorch's CPU kernel), log_softmax = (x - m) - log(s). A row that fits one chunk stays in UB for the
// three passes; longer rows are streamed from global memory once per pass.
#include "kernel_operator.h"  // first, so the simulator's precompiled kernel API header applies (pyasc_sim.pch)
#include "kernel_entry.h"
#include "row_io.h"

namespace pyasc_kernels {

// Host side: pyasc_kernels/nn.py.
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
    using Tiling = SoftmaxTiling;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const SoftmaxTiling &tiling) {
        t_ = tiling;
        if (!io_.Init(pipe_, x, y, t_, t_.cols, t_.chunk)) {
            return;
        }
        // + one_: a reduction result per row of a batch, 32 bytes apart (2 slots at least)
        const uint32_t slots = t_.chunk / (t_.cols > 0 ? t_.cols : 1) > 2 ? t_.chunk / t_.cols : 2;
        if (kInOutput && BatchRows() > 1) {
            // float softmax batches compute in the VECIN and VECOUT buffers alone (BatchInOutput):
            // calc holds the reductions' work space (one row: more than ReduceMax / ReduceSum's
            // documented minimum) and the per-row slots, so the host gives them a larger chunk
            // (more rows per batch, pyasc_kernels/nn.py)
            const uint32_t workElems = AlignBlock<float>(t_.cols);
            pipe_.InitBuffer(calc_, workElems * sizeof(float) + 32 * slots);
            LocalTensor<float> b = calc_.Get<float>();
            sv_ = b;
            one_ = b[workElems];
            return;
        }
        pipe_.InitBuffer(calc_, 4 * t_.chunk * sizeof(float) + 32 * slots);
        LocalTensor<float> b = calc_.Get<float>();
        xf_ = b;
        ef_ = b[t_.chunk];
        work_ = b[2 * t_.chunk];
        sv_ = b[3 * t_.chunk];
        one_ = b[4 * t_.chunk];
    }

    __aicore__ inline void Process() {
        // rows of whole 32-byte blocks that fit a chunk several times: `batch` rows at a time (one
        // DMA each way, Exp over the whole batch)
        const uint32_t batch = BatchRows();
        if (batch > 1) {
            for (uint32_t r = 0; r < io_.nrows; r += batch) {
                if constexpr (kInOutput) {
                    BatchInOutput(r, io_.nrows - r < batch ? io_.nrows - r : batch);
                } else {
                    Batch(r, io_.nrows - r < batch ? io_.nrows - r : batch);
                }
            }
            return;
        }
        for (uint32_t r = 0; r < io_.nrows; ++r) {
            Row(r);
        }
    }

private:
    // float softmax: a batch computes x - max, its exp and the output in the output buffer
    static constexpr bool kInOutput = !kWidened<T> && !LOG;

    __aicore__ inline uint32_t BatchRows() const {
        return t_.cols > 0 && t_.cols <= t_.chunk && t_.cols % (BLOCK_BYTES / sizeof(T)) == 0 ? t_.chunk / t_.cols
                                                                                               : 1;
    }

    // The chunk at offset of row r as float in xv_: widened into xf_ for 16-bit types; for float the
    // VECIN buffer itself (held until the next load or the end of the row: no staging copy).
    __aicore__ inline void Load(uint32_t r, uint32_t offset, uint32_t count) {
        if constexpr (kWidened<T>) {
            io_.Load(xf_, io_.xGm[static_cast<uint64_t>(r) * t_.cols + offset], count);
            xv_ = xf_;
        } else {
            Drop();
            xin_ = io_.Take(io_.xGm[static_cast<uint64_t>(r) * t_.cols + offset], count);
            xv_ = xin_;
            held_ = true;
        }
    }
    __aicore__ inline void Drop() {
        if constexpr (!kWidened<T>) {
            if (held_) {
                io_.Drop(xin_);
                held_ = false;
            }
        }
    }

    // The first step of a batch of nr rows loaded in xv_: each row's maximum m into its slot of
    // one_ (ReduceMax, sv_ its work space), one V -> S flag, then dst row k = x row k + (-m), with
    // m = -inf for a NaN maximum (as Row). Batch and BatchInOutput share it: dst is work_ or the
    // output buffer.
    __aicore__ inline void ShiftByRowMax(const LocalTensor<float> &dst, uint32_t nr) {
        const uint32_t cols = t_.cols;
        for (uint32_t k = 0; k < nr; ++k) {
            ReduceMax(one_[8 * k], xv_[k * cols], sv_, cols);
        }
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        for (uint32_t k = 0; k < nr; ++k) {
            float m = BitsToFloat(0xff800000u);  // as Row: a NaN maximum leaves -inf
            const float v = one_.GetValue(8 * k);
            m = v > m ? v : m;
            Adds(dst[k * cols], xv_[k * cols], -m, cols);
        }
    }

    // Rows [r, r + nr) of one chunk, as Row computes them with fewer instructions: the maxima and
    // the sums of the rows land in slots of one_ 32 bytes apart and are read after one V -> S flag;
    // x - max row by row into work_, Exp over the whole batch, then e * (1 / sum) row by row
    // (softmax) or (x - max) - log(sum) with the logs of all the sums from one Ln (log_softmax:
    // work_ holds x - max, the value Row computes again).
    __aicore__ inline void Batch(uint32_t r, uint32_t nr) {
        const uint32_t cols = t_.cols;
        const uint32_t total = nr * cols;
        Load(r, 0, total);
        ShiftByRowMax(work_, nr);
        // softmax: Exp in place (work_ is not read again), so the batch touches one tile fewer;
        // log_softmax keeps x - max in work_ for its output
        const LocalTensor<float> e = LOG ? ef_ : work_;
        Exp(e, work_, total);
        for (uint32_t k = 0; k < nr; ++k) {
            ReduceSum(one_[8 * k], e[k * cols], sv_, cols);
        }
        LocalTensor<T> y = io_.Alloc();
        // 16-bit types: computed in ef_ for softmax (work_ holds e), in place over x - max for log_softmax
        LocalTensor<float> yf = kWidened<T> ? (LOG ? work_ : ef_) : y.template ReinterpretCast<float>();
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        if constexpr (LOG) {
            for (uint32_t k = 0; k < nr; ++k) {
                float s = 0.0f;
                s += one_.GetValue(8 * k);
                sv_.SetValue(k, s);
            }
            SetFlag<HardEvent::S_V>(EVENT_ID0);
            WaitFlag<HardEvent::S_V>(EVENT_ID0);
            Ln(sv_, sv_, nr);
            SetFlag<HardEvent::V_S>(EVENT_ID0);
            WaitFlag<HardEvent::V_S>(EVENT_ID0);
            for (uint32_t k = 0; k < nr; ++k) {
                Adds(yf[k * cols], work_[k * cols], -sv_.GetValue(k), cols);
            }
        } else {
            for (uint32_t k = 0; k < nr; ++k) {  // e * (1 / sum), row by row
                float s = 0.0f;
                s += one_.GetValue(8 * k);
                Muls(yf[k * cols], e[k * cols], 1.0f / s, cols);
            }
        }
        if constexpr (kWidened<T>) {
            FromCompute(y, yf, total);
        }
        io_.Send(io_.yGm[static_cast<uint64_t>(r) * cols], y, total);
        Drop();
    }

    // Batch for float softmax with the same operations in the same order on the same values, in
    // two UB buffers instead of four: x stays in its VECIN buffer; x - max, its exp (in place) and
    // e * (1 / sum) (in place) live in the output buffer, so nothing but the reductions' work space
    // and the per-row slots takes calc space and the host's larger chunk fits (twice the rows per
    // batch: each per-batch instruction, checked with the sanitizer on, serves more rows).
    __aicore__ inline void BatchInOutput(uint32_t r, uint32_t nr) {
        const uint32_t cols = t_.cols;
        const uint32_t total = nr * cols;
        Load(r, 0, total);
        LocalTensor<T> y = io_.Alloc();
        const LocalTensor<float> e = y.template ReinterpretCast<float>();
        ShiftByRowMax(e, nr);
        Drop();  // x is not read again
        Exp(e, e, total);
        for (uint32_t k = 0; k < nr; ++k) {
            ReduceSum(one_[8 * k], e[k * cols], sv_, cols);
        }
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        for (uint32_t k = 0; k < nr; ++k) {  // e * (1 / sum), row by row
            float s = 0.0f;
            s += one_.GetValue(8 * k);
            Muls(e[k * cols], e[k * cols], 1.0f / s, cols);
        }
        io_.Send(io_.yGm[static_cast<uint64_t>(r) * cols], y, total);
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
            ReduceMax(one_, xv_, work_, count);
            const float v = ReadAfterVector(one_);
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
            Adds(work_, xv_, -m, count);
            Exp(ef_, work_, count);
            ReduceSum(one_, ef_, work_, count);
            s += ReadAfterVector(one_);
        }
        const float rs = 1.0f / s;  // softmax multiplies by the reciprocal of the sum
        float shift = 0.0f;  // log_softmax: log(s), by the vector unit
        if constexpr (LOG) {
            Duplicate(sv_, s, 16);
            Ln(sv_, sv_, 16);
            shift = ReadAfterVector(sv_);
        }
        // pass 3: the output
        for (uint32_t c = 0; c < chunks; ++c) {
            const uint32_t offset = c * t_.chunk;
            const uint32_t count = c + 1 == chunks ? t_.cols - offset : t_.chunk;
            if (!resident) {
                Load(r, offset, count);
            }
            LocalTensor<T> y = io_.Alloc();
            LocalTensor<float> yf = kWidened<T> ? work_ : y.template ReinterpretCast<float>();
            if constexpr (LOG) {
                Adds(yf, xv_, -m, count);
                Adds(yf, yf, -shift, count);
            } else {
                if (!resident) {  // a resident row still has exp(x - m) from pass 2
                    Adds(work_, xv_, -m, count);
                    Exp(ef_, work_, count);
                }
                Muls(yf, ef_, rs, count);
            }
            if constexpr (kWidened<T>) {
                FromCompute(y, yf, count);
            }
            io_.Send(io_.yGm[static_cast<uint64_t>(r) * t_.cols + offset], y, count);
        }
        Drop();
    }

    TPipe pipe_;
    RowStage<T> io_;
    TBuf<QuePosition::VECCALC> calc_;
    LocalTensor<float> xf_, ef_, work_, sv_, one_;
    LocalTensor<float> xv_;  // the current x chunk as float (xf_, or the held VECIN buffer)
    LocalTensor<T> xin_;
    bool held_ = false;
    SoftmaxTiling t_;
};

}  // namespace pyasc_kernels

#define PYASC_SOFTMAX_KERNEL(DTYPE, T, NAME, LOG) PYASC_ENTRY_2(NAME##_##DTYPE, pyasc_kernels::KernelSoftmax<T, LOG>)

PYASC_FLOAT_DTYPES(PYASC_SOFTMAX_KERNEL, softmax, false)
PYASC_FLOAT_DTYPES(PYASC_SOFTMAX_KERNEL, log_softmax, true)
