// Helpers shared by pyasc's built-in Ascend C kernels (kernels/*.cpp).
//
// Written against the public Ascend C API only, so the same source builds for the NPU (CANN's
// toolchain) and for pyasc's simulator (g++ against pyasc_sim.get_include()).
//
// Conventions of every built-in kernel:
//   * signature  extern "C" __global__ __aicore__ void name(GM_ADDR in..., GM_ADDR out...,
//                GM_ADDR workspace, GM_ADDR tiling)
//   * the tiling struct is computed on the host (pyasc_kernels/*.py, same field order) and read
//     from global memory word by word (LoadTiling);
//   * work is split over GetBlockNum() cores by GetBlockIdx();
//   * data moves GM -> UB -> GM through TQue double buffering; lengths that are not a multiple
//     of 32 bytes move with DataCopyPad (on Ascend310P, which has none: whole blocks, see CopyIn);
//   * half / bfloat16_t compute in float (Cast in UB), like the reference model.
//
// The scaffolding on top of these helpers has one header each: kernel_entry.h (tiling read, the
// extern "C" entry macros, the per-dtype lists), tile_loop.h (the elementwise double-buffered tile
// loop, parameterised by the kernel's Compute), row_io.h (this core's rows and their GM <-> float UB
// staging for reduce / softmax / norm).
#ifndef PYASC_KERNEL_COMMON_H_
#define PYASC_KERNEL_COMMON_H_

#include "kernel_operator.h"

using namespace AscendC;

namespace pyasc_kernels {

constexpr int32_t BUFFER_NUM = 2;   // double buffering
constexpr uint32_t BLOCK_BYTES = 32;
constexpr uint32_t REPEAT_BYTES = 256;

// Reads a tiling struct made of 32-bit fields from global memory.
template <typename T>
__aicore__ inline void LoadTiling(T &tiling, GM_ADDR gm) {
    static_assert(sizeof(T) % sizeof(uint32_t) == 0, "tiling structs are made of 32-bit fields");
    GlobalTensor<uint32_t> src;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(gm), sizeof(T) / sizeof(uint32_t));
    uint32_t *dst = reinterpret_cast<uint32_t *>(&tiling);
    for (uint32_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
        dst[i] = src.GetValue(i);
    }
}

__aicore__ inline float BitsToFloat(uint32_t bits) {
    union {
        uint32_t u;
        float f;
    } v;
    v.u = bits;
    return v.f;
}

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// Elements of T in n bytes rounded up to whole 32-byte blocks.
template <typename T>
__aicore__ inline uint32_t AlignBlock(uint32_t count) {
    constexpr uint32_t per = BLOCK_BYTES / sizeof(T);
    return (count + per - 1) / per * per;
}

// Elements of T rounded up to whole 256-byte repeats (Compare's count form needs this).
template <typename T>
__aicore__ inline uint32_t AlignRepeat(uint32_t count) {
    constexpr uint32_t per = REPEAT_BYTES / sizeof(T);
    return (count + per - 1) / per * per;
}

#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
// The Atlas inference series AI Core (Ascend310P) has no DataCopyPad (its product table marks it
// unsupported), so unaligned lengths move as whole 32-byte blocks that never leave [0, count):
//   count >= one block: the whole blocks, then the one block that ends exactly at count (it overlaps
//     the previous block with identical values), its elements moved into place in UB by the scalar
//     unit (UB operands of DataCopy must be 32-byte aligned; GM addresses need not be);
//   count <  one block: scalar GlobalTensor reads / writes with DataCacheCleanAndInvalid (the
//     inference series' two-parameter form). The reference asks that cores writing GM through the
//     data cache stay a 64-byte cache line apart: the kernels split their work with ScalarSafeRange
//     (below), whose shares start on a line wherever a share's writes can go through the cache.
// PipeBarrier<PIPE_ALL> orders the scalar steps against the DMA and vector pipes around them.
// The same results as the DataCopyPad path bit for bit; the dst / src UB buffers must hold
// AlignBlock(count) elements (every built-in kernel sizes them so).
template <typename T>
__aicore__ inline void CopyIn(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count) {
    constexpr uint32_t per = BLOCK_BYTES / sizeof(T);
    const uint32_t head = count / per * per;
    if (head == count) {
        DataCopy(dst, src, count);
        return;
    }
    if (count < per) {
        DataCacheCleanAndInvalid<T, CacheLine::ENTIRE_DATA_CACHE>(src);  // fresh GM, not stale lines
        PipeBarrier<PIPE_ALL>();
        for (uint32_t i = 0; i < count; ++i) {
            dst.SetValue(i, src.GetValue(i));
        }
        PipeBarrier<PIPE_ALL>();
        return;
    }
    if (head > 0) {
        DataCopy(dst, src, head);
    }
    // dst[head, head + per) <- src[count - per, count); element head + j sits at head + j + shift
    DataCopy(dst[head], src[count - per], per);
    const uint32_t shift = head + per - count;
    PipeBarrier<PIPE_ALL>();
    for (uint32_t j = 0; j < count - head; ++j) {
        dst.SetValue(head + j, dst.GetValue(head + j + shift));
    }
    PipeBarrier<PIPE_ALL>();
}

// UB -> GM of `count` elements (exactly count * sizeof(T) bytes are written). On an unaligned
// length of at least one block, src's last block is rearranged in place (callers free src after).
template <typename T>
__aicore__ inline void CopyOut(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count) {
    constexpr uint32_t per = BLOCK_BYTES / sizeof(T);
    const uint32_t head = count / per * per;
    if (head == count) {
        DataCopy(dst, src, count);
        return;
    }
    if (count < per) {
        PipeBarrier<PIPE_ALL>();
        for (uint32_t i = 0; i < count; ++i) {
            dst.SetValue(i, src.GetValue(i));
        }
        DataCacheCleanAndInvalid<T, CacheLine::ENTIRE_DATA_CACHE>(dst);  // write the lines out now
        return;
    }
    if (head > 0) {
        DataCopy(dst, src, head);
    }
    // src[head, head + per) <- src[count - per, count), back to front (the ranges overlap)
    PipeBarrier<PIPE_ALL>();
    for (uint32_t j = per; j-- > 0;) {
        src.SetValue(head + j, src.GetValue(count - per + j));
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(dst[count - per], src[head], per);
}
#else
// GM -> UB of `count` elements starting at src: DataCopy when the length is whole 32-byte blocks,
// otherwise DataCopyPad (DataCopy would silently round the length down on hardware).
template <typename T>
__aicore__ inline void CopyIn(const LocalTensor<T> &dst, const GlobalTensor<T> &src, uint32_t count) {
    if ((count * sizeof(T)) % BLOCK_BYTES == 0) {
        DataCopy(dst, src, count);
    } else {
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPadExtParams<T> pad{false, 0, 0, 0};
        DataCopyPad(dst, src, params, pad);
    }
}

// UB -> GM of `count` elements (exactly count * sizeof(T) bytes are written).
template <typename T>
__aicore__ inline void CopyOut(const GlobalTensor<T> &dst, const LocalTensor<T> &src, uint32_t count) {
    if ((count * sizeof(T)) % BLOCK_BYTES == 0) {
        DataCopy(dst, src, count);
    } else {
        DataCopyExtParams params{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
        DataCopyPad(dst, src, params);
    }
}
#endif

template <typename A, typename B>
struct IsSame {
    static constexpr bool value = false;
};
template <typename A>
struct IsSame<A, A> {
    static constexpr bool value = true;
};

// The type a kernel computes in: float for the 16-bit floating types, T otherwise.
template <typename T>
struct ComputeType {
    using type = T;
};
template <>
struct ComputeType<half> {
    using type = float;
};
template <>
struct ComputeType<bfloat16_t> {
    using type = float;
};

template <typename T>
constexpr bool kWidened = !IsSame<T, typename ComputeType<T>::type>::value;

// A Python scalar from the tiling struct in compute type C: float bits for float, else int32.
template <typename C>
__aicore__ inline C ScalarFromBits(uint32_t bits) {
    if constexpr (IsSame<C, float>::value) {
        return BitsToFloat(bits);
    } else {
        return static_cast<C>(static_cast<int32_t>(bits));
    }
}

// Widens `count` elements of a 16-bit float tensor to float (exact).
template <typename T>
__aicore__ inline void ToCompute(const LocalTensor<float> &dst, const LocalTensor<T> &src, uint32_t count) {
    Cast(dst, src, RoundMode::CAST_NONE, count);
}

// The RoundMode that converts float to the 16-bit float type T to nearest even: CAST_NONE for half (the
// only nearest mode the Atlas inference series lists for float -> half; it rounds to nearest even where
// precision is lost), CAST_RINT for bfloat16_t (whose table does not list CAST_NONE).
template <typename T>
constexpr RoundMode kToNearest = IsSame<T, half>::value ? RoundMode::CAST_NONE : RoundMode::CAST_RINT;

// Narrows float results to the 16-bit float type (round to nearest even, as NumPy's astype).
template <typename T>
__aicore__ inline void FromCompute(const LocalTensor<T> &dst, const LocalTensor<float> &src, uint32_t count) {
    Cast(dst, src, kToNearest<T>, count);
}

// dst = src wherever src is NaN. Max/Min/Relu return the other operand for a NaN input; pyasc
// follows NumPy (NaN propagates), so the kernels patch NaNs back in. `count` is rounded up to whole
// repeats (Compare's count form): the buffers must hold that many elements.
template <typename T>
__aicore__ inline void PropagateNaN(const LocalTensor<T> &dst, const LocalTensor<T> &src,
                                    const LocalTensor<uint8_t> &mask, uint32_t count) {
    const uint32_t n = AlignRepeat<T>(count);
    Compare(mask, src, src, CMPMODE::EQ, n);  // 1 where src is a number
    Select(dst, mask, dst, src, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
}

// This core's share [start, start + length) of `total` items split in chunks of `per_core`.
__aicore__ inline void CoreRange(uint32_t total, uint32_t per_core, uint32_t &start, uint32_t &length) {
    const uint32_t idx = GetBlockIdx();
    start = idx * per_core;
    if (start >= total) {
        start = total;
        length = 0;
        return;
    }
    length = total - start < per_core ? total - start : per_core;
}

// The GM cache line of the scalar unit's data cache: the reference asks that cores writing GM
// through it (GlobalTensor::SetValue) never share a line, since a line is written back whole.
constexpr uint32_t CACHE_LINE_BYTES = 64;

// true where unaligned lengths move through the scalar unit (CopyIn / CopyOut above).
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
constexpr bool kScalarTails = true;
#else
constexpr bool kScalarTails = false;
#endif

// Item r of a run of equal items writes GM from byte base + r * bytes (LineRangeBy's StartOf).
struct UniformItems {
    uint64_t base;
    uint64_t bytes;
    __aicore__ inline uint64_t operator()(uint32_t r) const { return base + static_cast<uint64_t>(r) * bytes; }
};

// The first item in [from, total) whose GM output starts a cache line, else total.
template <class StartOf>
__aicore__ inline uint32_t FirstLineStart(const StartOf &startOf, uint32_t from, uint32_t total) {
    for (uint32_t r = from; r < total; ++r) {
        if (startOf(r) % CACHE_LINE_BYTES == 0) {
            return r;
        }
    }
    return total;
}

// This core's share [start, start + length) of `total` items whose outputs follow one another in GM
// (item r from byte startOf(r)), split in chunks of about `per_core`: each boundary moves forward to
// the first item that starts a 64-byte line, so no line holds the output of two cores (the boundaries
// only move forward, so the shares still tile [0, total); a share may be empty or longer than per_core;
// with no such item, core 0 does it all). Results do not depend on the split.
template <class StartOf>
__aicore__ inline void LineRangeBy(uint32_t total, uint32_t per_core, const StartOf &startOf, uint32_t &start,
                                   uint32_t &length) {
    const uint64_t idx = GetBlockIdx();
    const uint64_t lo = idx * per_core;
    const uint64_t hi = lo + per_core;
    start = idx == 0 ? 0 : (lo >= total ? total : FirstLineStart(startOf, static_cast<uint32_t>(lo), total));
    const uint32_t end = hi >= total ? total : FirstLineStart(startOf, static_cast<uint32_t>(hi), total);
    length = end - start;
}

// The split of a kernel whose share may end in a scalar (data cache) write: line-aligned shares
// (LineRangeBy) where kScalarTails and `narrow` (some write of a share is shorter than one block),
// else CoreRange.
template <class StartOf>
__aicore__ inline void ScalarSafeRange(uint32_t total, uint32_t per_core, const StartOf &startOf, bool narrow,
                                       uint32_t &start, uint32_t &length) {
    if (kScalarTails && narrow) {
        LineRangeBy(total, per_core, startOf, start, length);
    } else {
        CoreRange(total, per_core, start, length);
    }
}

// Vector results -> scalar code: waits for the vector pipe, then reads element i.
__aicore__ inline float ReadAfterVector(const LocalTensor<float> &t, uint32_t i = 0) {
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    return t.GetValue(i);
}

}  // namespace pyasc_kernels

#endif  // PYASC_KERNEL_COMMON_H_
