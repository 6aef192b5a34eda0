// The elementwise tile loop shared by binary, pow, compare, unary, cast and where.
//
// Every elementwise kernel streams this core's share of up to three equal-length GM operands
// through double-buffered VECIN queues, computes one output tile in UB and streams it back
// through a double-buffered VECOUT queue:
//
//     for each tile:  CopyIn (Alloc, DataCopy[Pad], EnQue) per input
//                     Compute (DeQue inputs, Alloc output, op.Compute, EnQue output, Free inputs)
//                     CopyOut (DeQue, DataCopy[Pad], Free)
//
// TileLoop<Out, In0, In1, In2> owns the TPipe, the queues and the GM slices; the kernel owns the
// TileLoop, allocates its own VECCALC buffers from Pipe() and supplies
//     Compute(const LocalTensor<Out> &out, const LocalTensor<In0> &in0, [in1, [in2,]] uint32_t count)
// (inputs that a kernel does not have are NoInput and are not passed). Plain templates only: no
// virtual functions, no std library, so the same source builds for the NPU.
#ifndef PYASC_TILE_LOOP_H_
#define PYASC_TILE_LOOP_H_

#include "kernel_common.h"

namespace pyasc_kernels {

// This core's share [start, start + length) of an elementwise op, walked in tiles of `tile`.
struct TileShare {
    uint32_t start = 0;
    uint32_t length = 0;
    uint32_t tile = 0;
    uint32_t total = 0;    // the elements of all cores
    uint32_t perCore = 0;  // the tiling's share size
};

// The share of this core for a tiling struct with totalLength, perCore and tileLength fields.
template <typename Tiling>
__aicore__ inline TileShare ShareOf(const Tiling &t) {
    TileShare s;
    s.tile = t.tileLength;
    s.total = t.totalLength;
    s.perCore = t.perCore;
    CoreRange(t.totalLength, t.perCore, s.start, s.length);
    return s;
}

// Marks an operand slot a kernel does not use.
struct NoInput {};

// One input operand: its GM slice and a double-buffered VECIN queue of one tile per buffer. An
// operand bound to a null address (a Python scalar travelling in the tiling) moves nothing.
template <typename T>
class TileIn {
public:
    __aicore__ inline void Init(TPipe &pipe, GM_ADDR gm, const TileShare &s) {
        active_ = gm != nullptr;
        if (active_) {
            gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(gm) + s.start, s.length);
            pipe.InitBuffer(que_, BUFFER_NUM, s.tile * sizeof(T));
        }
    }
    __aicore__ inline void Load(uint32_t offset, uint32_t count) {
        if (active_) {
            LocalTensor<T> t = que_.AllocTensor<T>();
            CopyIn(t, gm_[offset], count);
            que_.EnQue(t);
        }
    }
    __aicore__ inline LocalTensor<T> Take() {
        LocalTensor<T> t;
        if (active_) {
            t = que_.DeQue<T>();
        }
        return t;
    }
    __aicore__ inline void Release(LocalTensor<T> &t) {
        if (active_) {
            que_.FreeTensor(t);
        }
    }

private:
    TQue<QuePosition::VECIN, BUFFER_NUM> que_;
    GlobalTensor<T> gm_;
    bool active_ = false;
};

template <>
class TileIn<NoInput> {
public:
    __aicore__ inline void Init(TPipe &, GM_ADDR, const TileShare &) {}
    __aicore__ inline void Load(uint32_t, uint32_t) {}
    __aicore__ inline NoInput Take() { return NoInput{}; }
    __aicore__ inline void Release(NoInput &) {}
};

// The output operand: its GM slice and a double-buffered VECOUT queue.
template <typename T>
class TileOut {
public:
    __aicore__ inline void Init(TPipe &pipe, GM_ADDR gm, const TileShare &s) {
        gm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(gm) + s.start, s.length);
        pipe.InitBuffer(que_, BUFFER_NUM, s.tile * sizeof(T));
    }
    __aicore__ inline LocalTensor<T> Alloc() { return que_.AllocTensor<T>(); }
    __aicore__ inline void Put(LocalTensor<T> &t) { que_.EnQue(t); }
    __aicore__ inline void Store(uint32_t offset, uint32_t count) {
        LocalTensor<T> t = que_.DeQue<T>();
        CopyOut(gm_[offset], t, count);
        que_.FreeTensor(t);
    }

private:
    TQue<QuePosition::VECOUT, BUFFER_NUM> que_;
    GlobalTensor<T> gm_;
};

template <typename Out, typename In0, typename In1 = NoInput, typename In2 = NoInput>
class TileLoop {
public:
    // Binds the operands (a null input address: no tensor for that slot) and creates their queues;
    // false when this core has no share.
    __aicore__ inline bool Init(const TileShare &share, GM_ADDR out, GM_ADDR in0, GM_ADDR in1 = nullptr,
                                GM_ADDR in2 = nullptr) {
        share_ = share;
        // where a share's last tile can be a scalar write (Ascend310P), shares start on a cache line
        // of the output, so the short tail's line is this core's alone
        const UniformItems items{reinterpret_cast<uint64_t>(out), sizeof(Out)};
        ScalarSafeRange(share.total, share.perCore, items, true, share_.start, share_.length);
        if (share_.length == 0) {
            return false;
        }
        in0_.Init(pipe_, in0, share_);
        in1_.Init(pipe_, in1, share_);
        in2_.Init(pipe_, in2, share_);
        out_.Init(pipe_, out, share_);
        return true;
    }

    // For the kernel's own VECCALC buffers (after Init).
    __aicore__ inline TPipe &Pipe() { return pipe_; }

    template <class Op>
    __aicore__ inline void Run(Op &op) {
        if (share_.length == 0) {
            return;
        }
        const uint32_t tiles = CeilDiv(share_.length, share_.tile);
        for (uint32_t i = 0; i < tiles; ++i) {
            const uint32_t offset = i * share_.tile;
            const uint32_t count = i + 1 == tiles ? share_.length - offset : share_.tile;
            in0_.Load(offset, count);
            in1_.Load(offset, count);
            in2_.Load(offset, count);
            Compute(op, count);
            out_.Store(offset, count);
        }
    }

private:
    template <class Op>
    __aicore__ inline void Compute(Op &op, uint32_t count) {
        auto a = in0_.Take();
        auto b = in1_.Take();
        auto c = in2_.Take();
        LocalTensor<Out> z = out_.Alloc();
        if constexpr (IsSame<In1, NoInput>::value) {
            op.Compute(z, a, count);
        } else if constexpr (IsSame<In2, NoInput>::value) {
            op.Compute(z, a, b, count);
        } else {
            op.Compute(z, a, b, c, count);
        }
        out_.Put(z);
        in0_.Release(a);
        in1_.Release(b);
        in2_.Release(c);
    }

    TPipe pipe_;
    TileIn<In0> in0_;
    TileIn<In1> in1_;
    TileIn<In2> in2_;
    TileOut<Out> out_;
    TileShare share_;
};

}  // namespace pyasc_kernels

#endif  // PYASC_TILE_LOOP_H_
