// Elementwise comparisons: eq, ne, lt, le, gt, ge -> bool (one byte per element, 0 or 1).
//
// Kernels compare_<op>_<dtype> for float16, bfloat16 (compared in float), float32 and int32.
// Compare (CMPMODE) writes a bit mask; Select turns it into 1.0 / 0.0 (half) and Cast makes the
// bytes. A Python scalar on the right (mode 1) is compared as a tensor; the host swaps a scalar on the
// left into this form (s < y  <=>  y > s); the scalar is Duplicate'd into a tensor once.
#include "kernel_common.h"

namespace pyasc_kernels {

// Host side: pyasc_sim/ops/elementwise.py (same layout as BinaryTiling).
struct CompareTiling {
    uint32_t totalLength;
    uint32_t perCore;
    uint32_t tileLength;  // elements per tile (multiple of 256 so every buffer is whole repeats)
    uint32_t mode;        // 0: tensor-tensor, 1: y is the scalar
    uint32_t scalarBits;  // float bits (floating kernels) or int32
    uint32_t reserved[3];
};

template <typename T, CMPMODE MODE>
class KernelCompare {
    using C = typename ComputeType<T>::type;

public:
    __aicore__ inline KernelCompare() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const CompareTiling &tiling) {
        t_ = tiling;
        CoreRange(t_.totalLength, t_.perCore, start_, length_);
        if (length_ == 0) {
            return;
        }
        const uint32_t tile = t_.tileLength;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x) + start_, length_);
        zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t *>(z) + start_, length_);
        pipe_.InitBuffer(inX_, BUFFER_NUM, tile * sizeof(T));
        if (t_.mode == 0) {
            yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y) + start_, length_);
            pipe_.InitBuffer(inY_, BUFFER_NUM, tile * sizeof(T));
        } else {
            C scalar;
            if constexpr (IsSame<C, float>::value) {
                scalar = BitsToFloat(t_.scalarBits);
            } else {
                scalar = static_cast<C>(static_cast<int32_t>(t_.scalarBits));
            }
            pipe_.InitBuffer(scalarBuf_, tile * sizeof(C));
            scalarTensor_ = scalarBuf_.Get<C>();
            Duplicate(scalarTensor_, scalar, tile);
        }
        pipe_.InitBuffer(outZ_, BUFFER_NUM, tile * sizeof(uint8_t));
        if constexpr (kWidened<T>) {
            pipe_.InitBuffer(calc_, 2 * tile * sizeof(float));
        }
        pipe_.InitBuffer(maskBuf_, tile / 8);
        pipe_.InitBuffer(selBuf_, 3 * tile * sizeof(half));
        ones_ = selBuf_.Get<half>();
        zeros_ = ones_[tile];
        sel_ = ones_[2 * tile];
        Duplicate(ones_, static_cast<half>(1.0f), tile);
        Duplicate(zeros_, static_cast<half>(0.0f), tile);
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Process() {
        if (length_ == 0) {
            return;
        }
        const uint32_t tiles = (length_ + t_.tileLength - 1) / t_.tileLength;
        for (uint32_t i = 0; i < tiles; ++i) {
            const uint32_t offset = i * t_.tileLength;
            const uint32_t count = i + 1 == tiles ? length_ - offset : t_.tileLength;
            LoadTile(offset, count);
            ComputeTile(count);
            StoreTile(offset, count);
        }
    }

private:
    __aicore__ inline void LoadTile(uint32_t offset, uint32_t count) {
        LocalTensor<T> x = inX_.AllocTensor<T>();
        CopyIn(x, xGm_[offset], count);
        inX_.EnQue(x);
        if (t_.mode == 0) {
            LocalTensor<T> y = inY_.AllocTensor<T>();
            CopyIn(y, yGm_[offset], count);
            inY_.EnQue(y);
        }
    }

    __aicore__ inline void CompareInto(const LocalTensor<uint8_t> &mask, const LocalTensor<C> &a,
                                       const LocalTensor<C> &b, uint32_t count) {
        // the count form compares whole 256-byte repeats: the tail of the last repeat holds
        // leftovers of earlier tiles and its results are never stored
        const uint32_t n = AlignRepeat<C>(count);
        Compare(mask, a, t_.mode == 0 ? b : scalarTensor_, MODE, n);
    }

    __aicore__ inline void ComputeTile(uint32_t count) {
        LocalTensor<T> x = inX_.DeQue<T>();
        LocalTensor<T> y;
        if (t_.mode == 0) {
            y = inY_.DeQue<T>();
        }
        LocalTensor<uint8_t> mask = maskBuf_.Get<uint8_t>();
        if constexpr (kWidened<T>) {
            LocalTensor<float> xf = calc_.Get<float>();
            LocalTensor<float> yf = xf[t_.tileLength];
            const uint32_t n = AlignRepeat<float>(count);
            ToCompute(xf, x, n);
            if (t_.mode == 0) {
                ToCompute(yf, y, n);
            }
            CompareInto(mask, xf, yf, count);
        } else {
            CompareInto(mask, x, y, count);
        }
        const uint32_t n = AlignRepeat<half>(count);
        Select(sel_, mask, ones_, zeros_, SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
        LocalTensor<uint8_t> z = outZ_.AllocTensor<uint8_t>();
        Cast(z, sel_, RoundMode::CAST_ROUND, count);
        outZ_.EnQue(z);
        inX_.FreeTensor(x);
        if (t_.mode == 0) {
            inY_.FreeTensor(y);
        }
    }

    __aicore__ inline void StoreTile(uint32_t offset, uint32_t count) {
        LocalTensor<uint8_t> z = outZ_.DeQue<uint8_t>();
        CopyOut(zGm_[offset], z, count);
        outZ_.FreeTensor(z);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inX_, inY_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outZ_;
    TBuf<QuePosition::VECCALC> calc_, maskBuf_, selBuf_, scalarBuf_;
    GlobalTensor<T> xGm_, yGm_;
    GlobalTensor<uint8_t> zGm_;
    LocalTensor<half> ones_, zeros_, sel_;
    LocalTensor<C> scalarTensor_;
    CompareTiling t_;
    uint32_t start_ = 0;
    uint32_t length_ = 0;
};

template <typename T, CMPMODE MODE>
__aicore__ inline void RunCompare(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    CompareTiling t;
    LoadTiling(t, tiling);
    KernelCompare<T, MODE> op;
    op.Init(x, y, z, t);
    op.Process();
}

}  // namespace pyasc_kernels

#define PYASC_COMPARE_KERNEL(NAME, MODE, DTYPE, T)                                                           \
    extern "C" __global__ __aicore__ void compare_##NAME##_##DTYPE(GM_ADDR x, GM_ADDR y, GM_ADDR z,          \
                                                                   GM_ADDR workspace, GM_ADDR tiling) {      \
        (void)workspace;                                                                                     \
        pyasc_kernels::RunCompare<T, CMPMODE::MODE>(x, y, z, tiling);                                        \
    }

#define PYASC_COMPARE_DTYPES(NAME, MODE)                 \
    PYASC_COMPARE_KERNEL(NAME, MODE, float16, half)      \
    PYASC_COMPARE_KERNEL(NAME, MODE, bfloat16, bfloat16_t) \
    PYASC_COMPARE_KERNEL(NAME, MODE, float32, float)     \
    PYASC_COMPARE_KERNEL(NAME, MODE, int32, int32_t)

PYASC_COMPARE_DTYPES(eq, EQ)
PYASC_COMPARE_DTYPES(ne, NE)
PYASC_COMPARE_DTYPES(lt, LT)
PYASC_COMPARE_DTYPES(le, LE)
PYASC_COMPARE_DTYPES(gt, GT)
PYASC_COMPARE_DTYPES(ge, GE)
