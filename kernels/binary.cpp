// Elementwise binary ops: add, sub, mul, div, maximum, minimum.
//
// Kernels binary_<op>_<dtype> for dtype float16, bfloat16, float32 and int32 (div: floating
// only). Tensor-tensor operands have the same length (the host materialises broadcasts with the
// copy kernels); a Python scalar operand travels in the tiling struct:
//   mode 1 (y is the scalar): add/mul/maximum/minimum use Adds/Muls/Maxs/Mins, sub/div use a
//                             Duplicate'd scalar tensor;
//   mode 2 (x is the scalar): the same with the scalar on the left.
// half and bfloat16_t compute in float (one rounding at the end, as the reference). maximum and
// minimum propagate NaN like NumPy (see PropagateNaN).
#include "kernel_common.h"

namespace pyasc_kernels {

enum BinaryOp : uint32_t { OP_ADD = 0, OP_SUB, OP_MUL, OP_DIV, OP_MAX, OP_MIN };
enum BinaryMode : uint32_t { MODE_TENSOR = 0, MODE_SCALAR_Y = 1, MODE_SCALAR_X = 2 };

// Host side: pyasc_sim/ops/elementwise.py (BINARY_TILING).
struct BinaryTiling {
    uint32_t totalLength;  // elements of z
    uint32_t perCore;      // elements per core (whole 256-byte repeats, except the last core's share)
    uint32_t tileLength;   // elements per tile (whole 256-byte repeats)
    uint32_t mode;         // BinaryMode
    uint32_t scalarBits;   // the scalar: float bits for floating kernels, int32 for int32 kernels
    uint32_t reserved[3];
};

template <typename T, uint32_t OP>
class KernelBinary {
    using C = typename ComputeType<T>::type;
    static constexpr bool kNanAware = (OP == OP_MAX || OP == OP_MIN) && IsSame<C, float>::value;

public:
    __aicore__ inline KernelBinary() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const BinaryTiling &tiling) {
        t_ = tiling;
        CoreRange(t_.totalLength, t_.perCore, start_, length_);
        if (length_ == 0) {
            return;
        }
        // in mode 2 the tensor operand is y: "a" is always the tensor operand, "b" the other one
        GM_ADDR a = t_.mode == MODE_SCALAR_X ? y : x;
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a) + start_, length_);
        if (t_.mode == MODE_TENSOR) {
            bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y) + start_, length_);
            pipe_.InitBuffer(inB_, BUFFER_NUM, t_.tileLength * sizeof(T));
        }
        zGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(z) + start_, length_);
        pipe_.InitBuffer(inA_, BUFFER_NUM, t_.tileLength * sizeof(T));
        pipe_.InitBuffer(outZ_, BUFFER_NUM, t_.tileLength * sizeof(T));
        if constexpr (kWidened<T>) {
            pipe_.InitBuffer(calc_, 3 * t_.tileLength * sizeof(C));
        }
        if constexpr (kNanAware) {
            pipe_.InitBuffer(maskBuf_, t_.tileLength / 8);
        }
        if (t_.mode != MODE_TENSOR) {
            if constexpr (IsSame<C, float>::value) {
                scalar_ = static_cast<C>(BitsToFloat(t_.scalarBits));
            } else {
                scalar_ = static_cast<C>(static_cast<int32_t>(t_.scalarBits));
            }
            if (OP == OP_SUB || OP == OP_DIV) {  // no Subs/Divs: a tensor holding the scalar
                pipe_.InitBuffer(scalarBuf_, t_.tileLength * sizeof(C));
                scalarTensor_ = scalarBuf_.Get<C>();
                Duplicate(scalarTensor_, scalar_, t_.tileLength);
                PipeBarrier<PIPE_V>();
            }
        }
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
        LocalTensor<T> a = inA_.AllocTensor<T>();
        CopyIn(a, aGm_[offset], count);
        inA_.EnQue(a);
        if (t_.mode == MODE_TENSOR) {
            LocalTensor<T> b = inB_.AllocTensor<T>();
            CopyIn(b, bGm_[offset], count);
            inB_.EnQue(b);
        }
    }

    // out = a OP b (mode 0), a OP s (mode 1), s OP a (mode 2); all C-typed.
    __aicore__ inline void Apply(const LocalTensor<C> &out, const LocalTensor<C> &a, const LocalTensor<C> &b,
                                 uint32_t count) {
        if (t_.mode == MODE_TENSOR) {
            if constexpr (OP == OP_ADD) Add(out, a, b, count);
            if constexpr (OP == OP_SUB) Sub(out, a, b, count);
            if constexpr (OP == OP_MUL) Mul(out, a, b, count);
            if constexpr (OP == OP_DIV) Div(out, a, b, count);
            if constexpr (OP == OP_MAX) Max(out, a, b, count);
            if constexpr (OP == OP_MIN) Min(out, a, b, count);
            if constexpr (kNanAware) {
                PropagateNaN(out, a, maskBuf_.Get<uint8_t>(), count);
                PropagateNaN(out, b, maskBuf_.Get<uint8_t>(), count);
            }
            return;
        }
        if constexpr (OP == OP_ADD) Adds(out, a, scalar_, count);
        if constexpr (OP == OP_MUL) Muls(out, a, scalar_, count);
        if constexpr (OP == OP_MAX) Maxs(out, a, scalar_, count);
        if constexpr (OP == OP_MIN) Mins(out, a, scalar_, count);
        if constexpr (kNanAware) {  // a NaN scalar already wins: (a > NaN ? a : NaN)
            PropagateNaN(out, a, maskBuf_.Get<uint8_t>(), count);
        }
        if constexpr (OP == OP_SUB || OP == OP_DIV) {
            const bool left = t_.mode == MODE_SCALAR_X;
            const LocalTensor<C> &lhs = left ? scalarTensor_ : a;
            const LocalTensor<C> &rhs = left ? a : scalarTensor_;
            if constexpr (OP == OP_SUB) Sub(out, lhs, rhs, count);
            if constexpr (OP == OP_DIV) Div(out, lhs, rhs, count);
        }
    }

    __aicore__ inline void ComputeTile(uint32_t count) {
        LocalTensor<T> a = inA_.DeQue<T>();
        LocalTensor<T> b;
        if (t_.mode == MODE_TENSOR) {
            b = inB_.DeQue<T>();
        }
        LocalTensor<T> z = outZ_.AllocTensor<T>();
        if constexpr (kWidened<T>) {
            LocalTensor<float> af = calc_.Get<float>();
            LocalTensor<float> bf = af[t_.tileLength];
            LocalTensor<float> zf = af[2 * t_.tileLength];
            ToCompute(af, a, count);
            if (t_.mode == MODE_TENSOR) {
                ToCompute(bf, b, count);
            }
            Apply(zf, af, bf, count);
            FromCompute(z, zf, count);
        } else {
            Apply(z, a, b, count);
        }
        outZ_.EnQue(z);
        inA_.FreeTensor(a);
        if (t_.mode == MODE_TENSOR) {
            inB_.FreeTensor(b);
        }
    }

    __aicore__ inline void StoreTile(uint32_t offset, uint32_t count) {
        LocalTensor<T> z = outZ_.DeQue<T>();
        CopyOut(zGm_[offset], z, count);
        outZ_.FreeTensor(z);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inA_, inB_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outZ_;
    TBuf<QuePosition::VECCALC> calc_, scalarBuf_, maskBuf_;
    GlobalTensor<T> aGm_, bGm_, zGm_;
    LocalTensor<C> scalarTensor_;
    BinaryTiling t_;
    C scalar_ = 0;
    uint32_t start_ = 0;
    uint32_t length_ = 0;
};

template <typename T, uint32_t OP>
__aicore__ inline void RunBinary(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    BinaryTiling t;
    LoadTiling(t, tiling);
    KernelBinary<T, OP> op;
    op.Init(x, y, z, t);
    op.Process();
}

}  // namespace pyasc_kernels

#define PYASC_BINARY_KERNEL(NAME, OP, DTYPE, T)                                                              \
    extern "C" __global__ __aicore__ void binary_##NAME##_##DTYPE(GM_ADDR x, GM_ADDR y, GM_ADDR z,           \
                                                                  GM_ADDR workspace, GM_ADDR tiling) {       \
        (void)workspace;                                                                                     \
        pyasc_kernels::RunBinary<T, pyasc_kernels::OP>(x, y, z, tiling);                                     \
    }

#define PYASC_BINARY_FLOAT_DTYPES(NAME, OP)        \
    PYASC_BINARY_KERNEL(NAME, OP, float16, half)   \
    PYASC_BINARY_KERNEL(NAME, OP, bfloat16, bfloat16_t) \
    PYASC_BINARY_KERNEL(NAME, OP, float32, float)

PYASC_BINARY_FLOAT_DTYPES(add, OP_ADD)
PYASC_BINARY_FLOAT_DTYPES(sub, OP_SUB)
PYASC_BINARY_FLOAT_DTYPES(mul, OP_MUL)
PYASC_BINARY_FLOAT_DTYPES(div, OP_DIV)
PYASC_BINARY_FLOAT_DTYPES(maximum, OP_MAX)
PYASC_BINARY_FLOAT_DTYPES(minimum, OP_MIN)
PYASC_BINARY_KERNEL(add, OP_ADD, int32, int32_t)
PYASC_BINARY_KERNEL(sub, OP_SUB, int32, int32_t)
PYASC_BINARY_KERNEL(mul, OP_MUL, int32, int32_t)
PYASC_BINARY_KERNEL(maximum, OP_MAX, int32, int32_t)
PYASC_BINARY_KERNEL(minimum, OP_MIN, int32, int32_t)
