// layer_norm and rms_norm over the last axis of a (rows, cols) tensor, with optional weight
// (and bias for layer_norm) of length cols.
//
// Kernels layer_norm_<dtype>(x, weight, bias, y, workspace, tiling) and
// rms_norm_<dtype>(x, weight, y, workspace, tiling) for float16, bfloat16, float32 (computed in
// float). As the reference:
//   layer_norm: mean = sum(x) / n; var = sum((x - mean)^2) / n; y = (x - mean) * (1 / sqrt(var + eps))
//   rms_norm:   y = x * (1 / sqrt(sum(x^2) / n + eps))
// then * weight (+ bias). A row that fits one chunk stays in UB; longer rows are streamed from
// global memory once per pass.
#include "kernel_operator.h"  // first, so the simulator's precompiled kernel API header applies (pyasc_sim.pch)
#include "kernel_entry.h"
#include "row_io.h"

namespace pyasc_kernels {

// Host side: pyasc_kernels/nn.py.
struct NormTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t chunk;      // elements per chunk (multiple of 64)
    uint32_t hasWeight;
    uint32_t hasBias;
    uint32_t epsBits;    // eps as float bits
    uint32_t reserved;
};

template <typename T, bool LAYER>
class KernelNorm {
public:
    using Tiling = NormTiling;

    // rms_norm: no bias
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR y, const NormTiling &tiling) { Init(x, w, w, y, tiling); }

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR w, GM_ADDR b, GM_ADDR y, const NormTiling &tiling) {
        t_ = tiling;
        if (!io_.Init(pipe_, x, y, t_, t_.cols, t_.chunk)) {
            return;
        }
        if (t_.hasWeight) {
            wGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(w), t_.cols);
        }
        if (t_.hasBias) {
            bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), t_.cols);
        }
        eps_ = BitsToFloat(t_.epsBits);
        chunks_ = (t_.cols + t_.chunk - 1) / t_.chunk;
        // rows of whole 32-byte blocks that fit a chunk several times are normalised `batch_` at a
        // time (one DMA each way, the elementwise steps over the whole batch)
        batch_ = chunks_ == 1 && t_.cols % (BLOCK_BYTES / sizeof(T)) == 0 ? t_.chunk / t_.cols : 1;
        // + one_: two reduction results 32 bytes apart (a batch: one per row, where its denominator
        // is computed too), then nf_: n (cols) for that division, a slot's worth per row of a group
        const uint32_t slots = batch_ > 2 ? batch_ : 2;
        const uint32_t nfBytes = 32 * (batch_ < kDenGroup ? batch_ : kDenGroup);
        if (batch_ > 1 && !kWidened<T>) {
            // float batches: x stays in its VECIN buffer and the squares go to the output buffer, so
            // only x - mean (tf_), weight and bias take whole chunks; red_ is ReduceSum's documented
            // minimum work space for a row (RoundUp(cols, 64) results, whole blocks). Three chunks
            // instead of six: the host gives float rows a larger chunk (more rows per batch,
            // pyasc_kernels/nn.py)
            const uint32_t redElems = AlignBlock<float>((t_.cols + 63) / 64);
            pipe_.InitBuffer(calc_, 3 * t_.chunk * sizeof(float) + redElems * 4 + 32 * slots + nfBytes);
            LocalTensor<float> buf = calc_.Get<float>();
            tf_ = buf;
            wf_ = buf[t_.chunk];
            bf_ = buf[2 * t_.chunk];
            red_ = buf[3 * t_.chunk];
            one_ = red_[redElems];
            nf_ = one_[8 * slots];
        } else {
            pipe_.InitBuffer(calc_, (batch_ > 1 ? 6 : 5) * t_.chunk * sizeof(float) + 32 * slots + nfBytes);
            LocalTensor<float> buf = calc_.Get<float>();
            xf_ = buf;
            tf_ = buf[t_.chunk];
            work_ = buf[2 * t_.chunk];
            wf_ = buf[3 * t_.chunk];
            bf_ = buf[4 * t_.chunk];
            one_ = buf[5 * t_.chunk];
            if (batch_ > 1) {
                red_ = buf[5 * t_.chunk];
                one_ = buf[6 * t_.chunk];
                nf_ = one_[8 * slots];
            }
        }
        if (batch_ > 1) {
            Duplicate(nf_, static_cast<float>(t_.cols), nfBytes / 4);
        }
        if (chunks_ == 1) {  // weight and bias stay in UB for every row (batch_ copies of them)
            LoadAffine(0, t_.cols);
            ReplicateAffine();
        }
    }

    __aicore__ inline void Process() {
        if (batch_ > 1) {
            for (uint32_t r = 0; r < io_.nrows; r += batch_) {
                Batch(r, io_.nrows - r < batch_ ? io_.nrows - r : batch_);
            }
            return;
        }
        for (uint32_t r = 0; r < io_.nrows; ++r) {
            Row(r);
        }
    }

private:
    __aicore__ inline void LoadAffine(uint32_t offset, uint32_t count, uint32_t at = 0) {
        if (t_.hasWeight) {
            io_.Load(wf_[at], wGm_[offset], count);
        }
        if (LAYER && t_.hasBias) {
            io_.Load(bf_[at], bGm_[offset], count);
        }
    }

    // The loaded row of weight (and bias) copied into the batch's other rows: UB -> UB copies that
    // double the rows present (1 -> 2 -> 4 -> ...), instead of a load from global memory per row.
    __aicore__ inline void ReplicateAffine() {
        for (uint32_t have = 1; have < batch_;) {
            const uint32_t n = batch_ - have < have ? batch_ - have : have;
            if (t_.hasWeight) {
                DataCopy(wf_[have * t_.cols], wf_, n * t_.cols);
            }
            if (LAYER && t_.hasBias) {
                DataCopy(bf_[have * t_.cols], bf_, n * t_.cols);
            }
            have += n;
        }
    }

    // Rows [r, r + nr) (resident, nr <= batch_), as Row computes them with fewer instructions:
    // the per-row sums land in slots of one_ 32 bytes apart and are read after one V -> S flag; the
    // squares, weight and bias run over the whole batch. rms_norm uses x itself where Row has
    // x - 0 (the same bits: x + -0 is x).
    __aicore__ inline void Batch(uint32_t r, uint32_t nr) {
        const uint32_t cols = t_.cols;
        const uint32_t total = nr * cols;
        const float n = static_cast<float>(cols);
        LoadX(r, 0, total);
        LocalTensor<float> centred = xv_;  // x - mean
        if constexpr (LAYER) {
            for (uint32_t k = 0; k < nr; ++k) {
                ReduceSum(one_[8 * k], xv_[k * cols], red_, cols);
            }
            SetFlag<HardEvent::V_S>(EVENT_ID0);
            WaitFlag<HardEvent::V_S>(EVENT_ID0);
            for (uint32_t k = 0; k < nr; ++k) {
                float s = 0.0f;  // as Row: 0 + the one chunk's sum (a -0 sum becomes +0)
                s += one_.GetValue(8 * k);
                Adds(tf_[k * cols], xv_[k * cols], -(s / n), cols);
            }
            centred = tf_;
        }
        // the output buffer early: for float its tile holds the squares until the output overwrites
        // them (one tile fewer touched per batch than squares in work_)
        LocalTensor<T> y = io_.Alloc();
        LocalTensor<float> of = tf_;
        if constexpr (!kWidened<T>) {
            of = y.template ReinterpretCast<float>();
        }
        const LocalTensor<float> sq = kWidened<T> ? work_ : of;
        Mul(sq, centred, centred, total);
        for (uint32_t k = 0; k < nr; ++k) {
            ReduceSum(one_[8 * k], sq[k * cols], red_, cols);
        }
        Denominators(nr);
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        for (uint32_t k = 0; k < nr; ++k) {  // (x - mean) * (1 / denominator), row by row
            Muls(of[k * cols], centred[k * cols], 1.0f / one_.GetValue(8 * k), cols);
        }
        if (t_.hasWeight) {
            Mul(of, of, wf_, total);
        }
        if (LAYER && t_.hasBias) {
            Add(of, of, bf_, total);
        }
        if constexpr (kWidened<T>) {
            FromCompute(y, tf_, total);
        }
        io_.Send(io_.yGm[static_cast<uint64_t>(r) * cols], y, total);
        DropX();
    }

    // sqrt(ss / n + eps) in place of each row's sum of squares ss (element 0 of its 32-byte slot
    // one_[8 k], k < nr), by the vector unit: count forms over the nr slots whole (their other
    // seven lanes, sectors ReduceSum wrote, are computed and ignored). The same operations in float
    // as the scalar ss / n + eps then Sqrt (ss is a sum of squares, never -0: Row's 0 + ss is ss),
    // without a GetValue and a SetValue per row and the S -> V flag between them and the Sqrt.
    // kDenGroup rows at a time (nf_ holds n for that many slots: little UB for batches of short rows).
    static constexpr uint32_t kDenGroup = 8;
    __aicore__ inline void Denominators(uint32_t nr) {
        for (uint32_t k = 0; k < nr; k += kDenGroup) {
            const uint32_t count = 8 * (nr - k < kDenGroup ? nr - k : kDenGroup);
            const LocalTensor<float> at = one_[8 * k];
            Div(at, at, nf_, count);
            Adds(at, at, eps_, count);
            Sqrt(at, at, count);
        }
    }

    __aicore__ inline uint32_t Count(uint32_t c) const {
        return c + 1 == chunks_ ? t_.cols - c * t_.chunk : t_.chunk;
    }

    __aicore__ inline GlobalTensor<T> XAt(uint32_t r, uint32_t c) {
        return io_.xGm[static_cast<uint64_t>(r) * t_.cols + c * t_.chunk];
    }

    // Chunk c of row r as float in xv_: widened into xf_ for 16-bit types; for float the VECIN
    // buffer itself (held until the next load or the end of the row: no staging copy).
    __aicore__ inline void LoadX(uint32_t r, uint32_t c, uint32_t count) {
        if constexpr (kWidened<T>) {
            io_.Load(xf_, XAt(r, c), count);
            xv_ = xf_;
        } else {
            DropX();
            xin_ = io_.Take(XAt(r, c), count);
            xv_ = xin_;
            held_ = true;
        }
    }
    __aicore__ inline void DropX() {
        if constexpr (!kWidened<T>) {
            if (held_) {
                io_.Drop(xin_);
                held_ = false;
            }
        }
    }

    __aicore__ inline void Row(uint32_t r) {
        const bool resident = chunks_ == 1;
        const float n = static_cast<float>(t_.cols);
        float mean = 0.0f;
        if constexpr (LAYER) {  // pass: the mean
            float s = 0.0f;
            for (uint32_t c = 0; c < chunks_; ++c) {
                LoadX(r, c, Count(c));
                ReduceSum(one_, xv_, work_, Count(c));
                s += ReadAfterVector(one_);
            }
            mean = s / n;
        }
        // pass: the sum of squares (of x - mean for layer_norm, of x for rms_norm; a resident
        // layer_norm row keeps x - mean in tf_ for the output pass, its squares go to work_ and the
        // reduction's work space is xf_)
        float ss = 0.0f;
        for (uint32_t c = 0; c < chunks_; ++c) {
            const uint32_t count = Count(c);
            if (!LAYER || !resident) {
                LoadX(r, c, count);
            }
            if constexpr (LAYER) {
                Adds(tf_, xv_, -mean, count);
                if (resident) {
                    Mul(work_, tf_, tf_, count);
                    ReduceSum(one_, work_, xf_, count);
                } else {
                    Mul(tf_, tf_, tf_, count);
                    ReduceSum(one_, tf_, work_, count);
                }
            } else {  // rms_norm: x itself (x - 0 is x)
                Mul(tf_, xv_, xv_, count);
                ReduceSum(one_, tf_, work_, count);
            }
            ss += ReadAfterVector(one_);
        }
        // 1 / sqrt(ss / n + eps), by the vector unit
        Duplicate(work_, ss / n + eps_, 16);
        Sqrt(work_, work_, 16);
        const float rden = 1.0f / ReadAfterVector(work_);  // the output multiplies by its reciprocal
        SetFlag<HardEvent::S_V>(EVENT_ID0);
        WaitFlag<HardEvent::S_V>(EVENT_ID0);
        // pass: the output
        for (uint32_t c = 0; c < chunks_; ++c) {
            const uint32_t count = Count(c);
            if (!resident) {
                LoadX(r, c, count);
                LoadAffine(c * t_.chunk, count);
            }
            // computed straight into the output buffer for float (no staging copy), else in tf_
            LocalTensor<T> y = io_.Alloc();
            LocalTensor<float> of = tf_;
            if constexpr (!kWidened<T>) {
                of = y.template ReinterpretCast<float>();
            }
            if (LAYER && resident) {  // tf_ = x - mean from the sum-of-squares pass
                Muls(of, tf_, rden, count);
            } else if (LAYER) {
                Adds(of, xv_, -mean, count);
                Muls(of, of, rden, count);
            } else {  // rms_norm: x itself
                Muls(of, xv_, rden, count);
            }
            if (t_.hasWeight) {
                Mul(of, of, wf_, count);
            }
            if (LAYER && t_.hasBias) {
                Add(of, of, bf_, count);
            }
            if constexpr (kWidened<T>) {
                FromCompute(y, tf_, count);
            }
            io_.Send(io_.yGm[static_cast<uint64_t>(r) * t_.cols + c * t_.chunk], y, count);
        }
        DropX();
    }

    TPipe pipe_;
    RowStage<T> io_;
    TBuf<QuePosition::VECCALC> calc_;
    GlobalTensor<T> wGm_, bGm_;
    LocalTensor<float> xf_, tf_, work_, wf_, bf_, one_, red_, nf_;
    LocalTensor<float> xv_;  // the current x chunk as float (xf_, or the held VECIN buffer)
    LocalTensor<T> xin_;
    bool held_ = false;
    NormTiling t_;
    float eps_ = 0.0f;
    uint32_t chunks_ = 1;
    uint32_t batch_ = 1;
};

}  // namespace pyasc_kernels

// layer_norm_<dtype>(x, weight, bias, y, workspace, tiling), rms_norm_<dtype>(x, weight, y, workspace, tiling)
#define PYASC_NORM_KERNELS(DTYPE, T, UNUSED)                                              \
    PYASC_ENTRY_4(layer_norm_##DTYPE, pyasc_kernels::KernelNorm<T, true>)                \
    PYASC_ENTRY_3(rms_norm_##DTYPE, pyasc_kernels::KernelNorm<T, false>)

PYASC_FLOAT_DTYPES(PYASC_NORM_KERNELS, unused)
