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

}  // namespace pyasc_kernels

#endif  // PYASC_ROW_IO_H_
