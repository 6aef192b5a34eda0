// Reductions over the last axis of a (rows, cols) tensor: sum, mean, max, min.
//
// Kernels reduce_<op>_<dtype> for float16, bfloat16 and float32 (reduced in float). Other axes:
// the host permutes the reduced axes to the end first (copy kernel). Each core takes a range of
// rows; a row is reduced chunk by chunk (ReduceSum / ReduceMax / ReduceMin on a whole chunk, the
// chunk results combined in scalar code), results gather in UB and leave in one DMA per batch of
// rows. max / min propagate NaN like NumPy (a NaN in a chunk turns its checksum NaN). float sums and
// means bring `group` chunks of a row in per DMA (SumRow): each chunk is still reduced alone and the
// chunk sums are added in order, so the result is the same, with fewer DMAs, queue operations and
// flags per element (each one a checked instruction with the sanitizer on).
#include "kernel_entry.h"
#include "row_io.h"

namespace pyasc_kernels {

enum ReduceOp : uint32_t { RED_SUM = 0, RED_MEAN, RED_MAX, RED_MIN };

// Host side: pyasc_kernels/reduce.py.
struct ReduceTiling {
    uint32_t rows;
    uint32_t cols;
    uint32_t rowsPerCore;
    uint32_t chunk;  // elements per chunk (multiple of 64)
    uint32_t batch;  // results per output DMA (multiple of 16)
    uint32_t group;  // float sum / mean: chunks per input DMA (0 or 1: one)
    uint32_t reserved[2];
};

template <typename T, uint32_t OP>
class KernelReduce {
    static constexpr bool kMinMax = OP == RED_MAX || OP == RED_MIN;
    // float sums read the VECIN buffer in place (no staging copy into a float tensor)
    static constexpr bool kInPlace = !kWidened<T> && (OP == RED_SUM || OP == RED_MEAN);
    static constexpr uint32_t kSlot = BLOCK_BYTES / sizeof(float);  // one ReduceSum result per 32 bytes

public:
    using Tiling = ReduceTiling;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ReduceTiling &tiling) {
        t_ = tiling;
        group_ = kInPlace && t_.group > 1 ? t_.group : 1;
        if (!io_.Init(pipe_, x, y, t_, 1, t_.batch, group_ * t_.chunk)) {
            return;
        }
        if constexpr (kInPlace) {
            pipe_.InitBuffer(calc_, t_.chunk * sizeof(float));  // reduction work space
        } else {
            pipe_.InitBuffer(calc_, 2 * t_.chunk * sizeof(float));  // x as float, reduction work space
        }
        // the chunk results (one value + index slot; SumRow: one per chunk of a group), then the batch's
        resAt_ = t_.batch > kSlot * group_ ? t_.batch : kSlot * group_;
        pipe_.InitBuffer(res_, (resAt_ + t_.batch) * sizeof(float));
        if constexpr (kMinMax) {
            pipe_.InitBuffer(nanBuf_, t_.chunk * sizeof(float) + t_.chunk / 8);
            zeros_ = nanBuf_.Get<float>();
            Duplicate(zeros_, 0.0f, t_.chunk);
            PipeBarrier<PIPE_V>();
        }
    }

    __aicore__ inline void Process() {
        if (io_.nrows == 0) {
            return;
        }
        LocalTensor<float> results = res_.Get<float>()[resAt_];
        uint32_t inBatch = 0;
        uint32_t batchStart = 0;
        for (uint32_t r = 0; r < io_.nrows; ++r) {
            results.SetValue(inBatch, ReduceRow(r));
            if (++inBatch == t_.batch || r + 1 == io_.nrows) {
                StoreBatch(results, batchStart, inBatch);
                batchStart += inBatch;
                inBatch = 0;
            }
        }
    }

private:
    // float sum / mean of row r: DMAs of up to group_ chunks; per chunk a ReduceSum into its own slot,
    // one V -> S flag per DMA, then the chunk sums added in chunk order (as ReduceRow adds them).
    __aicore__ inline float SumRow(uint32_t r) {
        const uint32_t chunks = (t_.cols + t_.chunk - 1) / t_.chunk;
        float acc = 0.0f;
        LocalTensor<float> work = calc_.Get<float>();
        LocalTensor<float> sums = res_.Get<float>();
        for (uint32_t c = 0; c < chunks; c += group_) {
            const uint32_t g = chunks - c < group_ ? chunks - c : group_;
            const uint32_t offset = c * t_.chunk;
            const uint32_t count = c + g == chunks ? t_.cols - offset : g * t_.chunk;
            LocalTensor<T> held = io_.Take(io_.xGm[static_cast<uint64_t>(r) * t_.cols + offset], count);
            for (uint32_t k = 0; k < g; ++k) {
                const uint32_t n = k + 1 == g ? count - k * t_.chunk : t_.chunk;
                ReduceSum(sums[kSlot * k], held[k * t_.chunk], work, n);
            }
            SetFlag<HardEvent::V_S>(EVENT_ID0);
            WaitFlag<HardEvent::V_S>(EVENT_ID0);
            for (uint32_t k = 0; k < g; ++k) {
                acc += sums.GetValue(kSlot * k);
            }
            io_.Drop(held);
        }
        if constexpr (OP == RED_MEAN) {
            acc = acc / static_cast<float>(t_.cols);
        }
        return acc;
    }

    __aicore__ inline float ReduceRow(uint32_t r) {
        if constexpr (kInPlace) {
            return SumRow(r);
        } else {
            return ChunkRow(r);
        }
    }

    // The other reductions of row r, chunk by chunk through a float copy in calc_.
    __aicore__ inline float ChunkRow(uint32_t r) {
        const uint32_t chunks = (t_.cols + t_.chunk - 1) / t_.chunk;
        float acc = OP == RED_MAX ? BitsToFloat(0xff800000u) : (OP == RED_MIN ? BitsToFloat(0x7f800000u) : 0.0f);
        bool nan = false;
        LocalTensor<float> xf = calc_.Get<float>();
        LocalTensor<float> work = xf[t_.chunk];
        LocalTensor<float> one = res_.Get<float>();
        for (uint32_t c = 0; c < chunks; ++c) {
            const uint32_t offset = c * t_.chunk;
            const uint32_t count = c + 1 == chunks ? t_.cols - offset : t_.chunk;
            io_.Load(xf, io_.xGm[static_cast<uint64_t>(r) * t_.cols + offset], count);
            if constexpr (OP == RED_SUM || OP == RED_MEAN) {
                ReduceSum(one, xf, work, count);
            } else if constexpr (OP == RED_MAX) {
                ReduceMax(one, xf, work, count);
            } else {
                ReduceMin(one, xf, work, count);
            }
            if constexpr (kMinMax) {  // checksum: 0 for numbers, NaN for NaN; its sum is NaN iff any NaN
                LocalTensor<uint8_t> mask = nanBuf_.Get<uint8_t>()[t_.chunk * sizeof(float)];
                const uint32_t n = AlignRepeat<float>(count);
                Compare(mask, xf, xf, CMPMODE::EQ, n);
                Select(work, mask, zeros_, xf, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
                ReduceSum(one[8], work, xf, count);
            }
            const float v = ReadAfterVector(one);
            if constexpr (OP == RED_SUM || OP == RED_MEAN) {
                acc += v;
            } else {
                const float check = one.GetValue(8);
                nan = nan || check != check;
                acc = OP == RED_MAX ? (v > acc ? v : acc) : (v < acc ? v : acc);
            }
        }
        if constexpr (OP == RED_MEAN) {
            acc = acc / static_cast<float>(t_.cols);
        }
        if (nan) {
            acc = BitsToFloat(0x7fc00000u);
        }
        return acc;
    }

    __aicore__ inline void StoreBatch(const LocalTensor<float> &results, uint32_t start, uint32_t count) {
        SetFlag<HardEvent::S_V>(EVENT_ID0);
        WaitFlag<HardEvent::S_V>(EVENT_ID0);
        io_.Store(io_.yGm[start], results, count);
    }

    TPipe pipe_;
    RowStage<T, 1> io_;  // x chunks in, one batch of results out
    TBuf<QuePosition::VECCALC> calc_, res_, nanBuf_;
    LocalTensor<float> zeros_;
    ReduceTiling t_;
    uint32_t group_ = 1;  // chunks per input DMA
    uint32_t resAt_ = 0;  // where the batch results start in res_
};

}  // namespace pyasc_kernels

#define PYASC_REDUCE_KERNEL(DTYPE, T, NAME, OP) \
    PYASC_ENTRY_2(reduce_##NAME##_##DTYPE, pyasc_kernels::KernelReduce<T, pyasc_kernels::OP>)

PYASC_FLOAT_DTYPES(PYASC_REDUCE_KERNEL, sum, RED_SUM)
PYASC_FLOAT_DTYPES(PYASC_REDUCE_KERNEL, mean, RED_MEAN)
PYASC_FLOAT_DTYPES(PYASC_REDUCE_KERNEL, max, RED_MAX)
PYASC_FLOAT_DTYPES(PYASC_REDUCE_KERNEL, min, RED_MIN)
