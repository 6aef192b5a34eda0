// Row-wise GM <-> UB staging shared by the row kernels (reduce, softmax, norm), which work on the
// last axis of a (rows, cols) tensor in chunks and compute in float.
#ifndef PYASC_ROW_IO_H_
#define PYASC_ROW_IO_H_

#include "kernel_common.h"

namespace pyasc_kernels {

// Binds g to rows [row0, row0 + nrows) of a (rows, cols) tensor at gm.
template <typename T>
__aicore__ inline void BindRows(GlobalTensor<T> &g, GM_ADDR gm, uint32_t row0, uint32_t nrows, uint32_t cols) {
    g.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(gm) + static_cast<uint64_t>(row0) * cols,
                      static_cast<uint64_t>(nrows) * cols);
}

// This core's rows of a (rows, cols) input x and its output y (yCols values per row), and a
// double-buffered VECIN queue and a VECOUT queue (OUT_DEPTH buffers) of T elements that move chunks
// between global memory and float tensors in UB (widened / narrowed for half and bfloat16, copied
// for float).
template <typename T, int32_t OUT_DEPTH = BUFFER_NUM>
class RowStage {
public:
    // Tiling: rows, rowsPerCore, cols, chunk. false when this core has no rows.
    template <typename Tiling>
    __aicore__ inline bool Init(TPipe &pipe, GM_ADDR xAddr, GM_ADDR yAddr, const Tiling &t, uint32_t yCols,
                                uint32_t outElems) {
        // rows whose output is not whole blocks end in a scalar write on Ascend310P (CopyOut): there
        // the cores' rows start on a cache line of y
        const UniformItems items{reinterpret_cast<uint64_t>(yAddr), static_cast<uint64_t>(yCols) * sizeof(T)};
        ScalarSafeRange(t.rows, t.rowsPerCore, items, (yCols * sizeof(T)) % BLOCK_BYTES != 0, row0, nrows);
        if (nrows == 0) {
            return false;
        }
        BindRows(xGm, xAddr, row0, nrows, t.cols);
        BindRows(yGm, yAddr, row0, nrows, yCols);
        pipe.InitBuffer(in_, BUFFER_NUM, t.chunk * sizeof(T));
        pipe.InitBuffer(out_, OUT_DEPTH, outElems * sizeof(T));
        return true;
    }

    // src[0, count) -> dst as float.
    __aicore__ inline void Load(const LocalTensor<float> &dst, const GlobalTensor<T> &src, uint32_t count) {
        LocalTensor<T> x = in_.AllocTensor<T>();
        CopyIn(x, src, count);
        in_.EnQue(x);
        x = in_.DeQue<T>();
        if constexpr (kWidened<T>) {
            ToCompute(dst, x, count);
        } else {
            DataCopy(dst, x, AlignBlock<float>(count));
        }
        in_.FreeTensor(x);
    }

    // src[0, count) in a VECIN buffer, handed to the caller to compute from in place (no staging
    // copy into a float tensor: for float rows); give it back with Drop before the next Take.
    __aicore__ inline LocalTensor<T> Take(const GlobalTensor<T> &src, uint32_t count) {
        LocalTensor<T> x = in_.AllocTensor<T>();
        CopyIn(x, src, count);
        in_.EnQue(x);
        return in_.DeQue<T>();
    }
    __aicore__ inline void Drop(LocalTensor<T> &x) { in_.FreeTensor(x); }

    // An output buffer to compute into, then Send.
    __aicore__ inline LocalTensor<T> Alloc() { return out_.template AllocTensor<T>(); }

    // y (from Alloc) -> dst[0, count).
    __aicore__ inline void Send(const GlobalTensor<T> &dst, LocalTensor<T> &y, uint32_t count) {
        out_.EnQue(y);
        y = out_.template DeQue<T>();
        CopyOut(dst, y, count);
        out_.FreeTensor(y);
    }

    // float src[0, count) -> dst[0, count) as T.
    __aicore__ inline void Store(const GlobalTensor<T> &dst, const LocalTensor<float> &src, uint32_t count) {
        LocalTensor<T> y = Alloc();
        if constexpr (kWidened<T>) {
            FromCompute(y, src, count);
        } else {
            DataCopy(y, src, AlignBlock<float>(count));
        }
        Send(dst, y, count);
    }

    GlobalTensor<T> xGm, yGm;  // this core's rows
    uint32_t row0 = 0;
    uint32_t nrows = 0;

private:
    TQue<QuePosition::VECIN, BUFFER_NUM> in_;
    TQue<QuePosition::VECOUT, OUT_DEPTH> out_;
};

// Per-row reductions and row broadcasts over a batch of nr rows of `cols` floats (back to back in UB)
// in a few instructions per batch instead of a few per row (and no scalar read of a row's value):
//   sums / maxima: WholeReduceSum / WholeReduceMax (mask 64, ORDER_ONLY_VALUE) of every 64 floats
//     into partials, then the same over each row's cols / 64 partials (mask cols / 64, repeat stride
//     cols / 512 blocks) into vals (one float per row, in row order), kGroup rows at a time at most;
//   a row's value against its row (x - v, x * v): Brcb puts vals[k] in 32-byte block k of bc, then one
//     Level-0 binary instruction per 8 rows: each repeat is one 8-float column block of the 8 rows
//     (dst / src0 block stride cols / 8 blocks, repeat stride 1), src1 the 8 Brcb blocks (block
//     stride 1, repeat stride 0), repeatTime cols / 8, mask 8 floats per row present.
// Documented limits (Fits): repeatTime <= 255 (WholeReduceMax atlasascendc_api_07_0079, WholeReduceSum,
// Brcb 0089), the binary strides uint8 (BinaryRepeatParams 0013), WholeReduce*'s dst 8-byte aligned for
// float: cols a multiple of 512 (whole blocks of partials per row) with cols / 8 <= 255.
// A row's sum is a tree sum of each 64 floats, then of the row's partials (pairwise within a repeat, as
// the simulator's reductions), not ReduceSum's tree over the whole row: the row kernels take their
// resident rows' sums from here in the one-row path too (Fits(cols)), so the batch size never changes a
// bit of the result. Maxima are the same values as ReduceMax's.
class RowBatchOps {
public:
    __aicore__ static inline bool Fits(uint32_t cols) { return cols > 0 && cols % 512 == 0 && cols / 8 <= 255; }
    // bytes of UB Init takes for batches of up to maxRows rows
    __aicore__ static inline uint32_t Bytes(uint32_t cols, uint32_t maxRows) {
        const uint32_t slots = Slots(maxRows);
        return (AlignBlock<float>(Group(cols, maxRows) * (cols / 64)) + 2 * slots + 8 * slots) * sizeof(float);
    }
    // buf: Bytes(cols, maxRows) bytes of VECCALC; vals and ones fully written (Brcb reads whole groups
    // of 8 values)
    __aicore__ inline void Init(TPipe &pipe, TBuf<QuePosition::VECCALC> &buf, uint32_t cols, uint32_t maxRows) {
        pipe.InitBuffer(buf, Bytes(cols, maxRows));
        cols_ = cols;
        p_ = cols / 64;
        group_ = Group(cols, maxRows);
        const uint32_t slots = Slots(maxRows);
        part_ = buf.Get<float>();
        vals = part_[AlignBlock<float>(group_ * p_)];
        ones_ = vals[slots];
        bc_ = ones_[slots];
        Duplicate(vals, 0.0f, slots);
        Duplicate(ones_, 1.0f, slots);
    }
    // vals[k] = the sum of row k of src, k < nr
    __aicore__ inline void Sum(const LocalTensor<float> &src, uint32_t nr) {
        for (uint32_t g = 0; g < nr; g += group_) {
            const uint32_t rows = nr - g < group_ ? nr - g : group_;
            WholeReduceSum(part_, src[g * cols_], 64, static_cast<int32_t>(rows * p_), 1, 1, 8);
            WholeReduceSum(vals[g], part_, static_cast<int32_t>(p_), static_cast<int32_t>(rows), 1, 1,
                           static_cast<int32_t>(p_ / 8));
        }
    }
    // vals[k] = the maximum of row k of src
    __aicore__ inline void Max(const LocalTensor<float> &src, uint32_t nr) {
        for (uint32_t g = 0; g < nr; g += group_) {
            const uint32_t rows = nr - g < group_ ? nr - g : group_;
            WholeReduceMax(part_, src[g * cols_], 64, static_cast<int32_t>(rows * p_), 1, 1, 8,
                           ReduceOrder::ORDER_ONLY_VALUE);
            WholeReduceMax(vals[g], part_, static_cast<int32_t>(p_), static_cast<int32_t>(rows), 1, 1,
                           static_cast<int32_t>(p_ / 8), ReduceOrder::ORDER_ONLY_VALUE);
        }
    }
    // vals[k] = 1 / vals[k] (a vector division of 1.0f: the scalar 1.0f / v's value)
    __aicore__ inline void Reciprocal(uint32_t nr) { Div(vals, ones_, vals, static_cast<int32_t>(nr)); }
    // dst row k = src row k - vals[k]
    __aicore__ inline void SubRows(const LocalTensor<float> &dst, const LocalTensor<float> &src, uint32_t nr) {
        Broadcast(nr);
        for (uint32_t g = 0; g < nr; g += 8) {
            Sub(dst[g * cols_], src[g * cols_], bc_[8 * g], Mask(nr - g), Repeats(), Params());
        }
    }
    // dst = src - v over one row (a row alone computed with the batch's operation: Sub, not Adds of -v,
    // whose NaN differs in its sign bit when v is NaN)
    __aicore__ inline void SubValue(const LocalTensor<float> &dst, const LocalTensor<float> &src, float v) {
        Duplicate(vals, v, 8);
        SubRows(dst, src, 1);
    }
    // dst row k = src row k * vals[k]
    __aicore__ inline void MulRows(const LocalTensor<float> &dst, const LocalTensor<float> &src, uint32_t nr) {
        Broadcast(nr);
        for (uint32_t g = 0; g < nr; g += 8) {
            Mul(dst[g * cols_], src[g * cols_], bc_[8 * g], Mask(nr - g), Repeats(), Params());
        }
    }

    LocalTensor<float> vals;  // one value per row

private:
    __aicore__ static inline uint32_t Slots(uint32_t maxRows) { return (maxRows + 7) / 8 * 8; }
    // rows per WholeReduce pair: their partials in one repeatTime (<= 255), a multiple of 8 (each
    // group's vals 32-byte aligned), at most maxRows
    __aicore__ static inline uint32_t Group(uint32_t cols, uint32_t maxRows) {
        const uint32_t g = 255 / (cols / 64) / 8 * 8;
        return maxRows < g ? maxRows : g;
    }
    __aicore__ inline void Broadcast(uint32_t nr) {
        Brcb(bc_, vals, static_cast<uint8_t>((nr + 7) / 8), BrcbRepeatParams(1, 8));
    }
    __aicore__ static inline uint64_t Mask(uint32_t rowsLeft) { return 8ull * (rowsLeft < 8 ? rowsLeft : 8); }
    __aicore__ inline uint8_t Repeats() const { return static_cast<uint8_t>(cols_ / 8); }
    __aicore__ inline BinaryRepeatParams Params() const {
        const uint8_t rowBlocks = static_cast<uint8_t>(cols_ / 8);
        return BinaryRepeatParams(rowBlocks, rowBlocks, 1, 1, 1, 0);
    }

    LocalTensor<float> part_, ones_, bc_;
    uint32_t cols_ = 0;
    uint32_t p_ = 0;
    uint32_t group_ = 1;
};

}  // namespace pyasc_kernels

#endif  // PYASC_ROW_IO_H_
