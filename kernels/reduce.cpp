// Reductions over the last axis of a (rows, cols) tensor: sum, mean, max, min.
//
// Kernels reduce_<op>_<dtype> for float16, bfloat16 and float32 (reduced in float). Other axes:
// the host permutes the reduced axes to the end first (copy kernel). Each core takes a range of
// rows; a row is reduced chunk by chunk (ReduceSum / ReduceMax / ReduceMin on a whole chunk, the
// chunk results combined in scalar code), results gather in UB and leave in one DMA per batch of
// rows. max / min propagate NaN like NumPy (a NaN in a chunk turns its checksum NaN).
#include "kernel_operator.h"  // first, so the simulator's precompiled kernel API header applies (pyasc_sim.pch)
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
    uint32_t reserved[3];
};

template <typename T, uint32_t OP>
class KernelReduce {
    static constexpr bool kMinMax = OP == RED_MAX || OP == RED_MIN;

public:
    using Tiling = ReduceTiling;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const ReduceTiling &tiling) {
        t_ = tiling;
        if (!io_.Init(pipe_, x, y, t_, 1, t_.batch)) {
            return;
        }
        pipe_.InitBuffer(calc_, 2 * t_.chunk * sizeof(float));  // x as float, reduction work space
        pipe_.InitBuffer(res_, 2 * t_.batch * sizeof(float));   // one value (+ index slot), batch results
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
        LocalTensor<float> results = res_.Get<float>()[t_.batch];
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
    __aicore__ inline float ReduceRow(uint32_t r) {
        const uint32_t chunks = (t_.cols + t_.chunk - 1) / t_.chunk;
        float acc = OP == RED_MAX ? BitsToFloat(0xff800000u) : (OP == RED_MIN ? BitsToFloat(0x7f800000u) : 0.0f);
        bool nan = false;
        LocalTensor<float> xf = calc_.Get<float>();
        LocalTensor<float> work = xf[t_.chunk];
        LocalTensor<float> one = res_.Get<float>();
        for (uint32_t c = 0; c < chunks; ++c) {
            const uint32_t offset = c * t_.chunk;
            const uint32_t count = c + 1 == chunks ? t_.cols - offset : t_.chunk;
            // float sums read the VECIN buffer in place (no staging copy into xf)
            constexpr bool kInPlace = !kWidened<T> && (OP == RED_SUM || OP == RED_MEAN);
            LocalTensor<T> held;
            if constexpr (kInPlace) {
                held = io_.Take(io_.xGm[static_cast<uint64_t>(r) * t_.cols + offset], count);
            } else {
                io_.Load(xf, io_.xGm[static_cast<uint64_t>(r) * t_.cols + offset], count);
            }
            if constexpr (kInPlace) {
                ReduceSum(one, held, work, count);
            } else if constexpr (OP == RED_SUM || OP == RED_MEAN) {
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
            if constexpr (kInPlace) {
                io_.Drop(held);
            }
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
};

}  // namespace pyasc_kernels

#define PYASC_REDUCE_KERNEL(DTYPE, T, NAME, OP) \
    PYASC_ENTRY_2(reduce_##NAME##_##DTYPE, pyasc_kernels::KernelReduce<T, pyasc_kernels::OP>)

PYASC_FLOAT_DTYPES(PYASC_REDUCE_KERNEL, sum, RED_SUM)
PYASC_FLOAT_DTYPES(PYASC_REDUCE_KERNEL, mean, RED_MEAN)
PYASC_FLOAT_DTYPES(PYASC_REDUCE_KERNEL, max, RED_MAX)
PYASC_FLOAT_DTYPES(PYASC_REDUCE_KERNEL, min, RED_MIN)
