// Elementwise unary ops: neg, abs, exp, log, sqrt, rsqrt, relu, sigmoid, tanh, gelu, silu.
//
// Kernels unary_<op>_<dtype> for float16, bfloat16, float32 (computed in float), and int32 for
// neg, abs and relu. The activations are built from vector primitives:
//   sigmoid(x) = 1 / (1 + exp(-x))
//   tanh(x)    = 1 - 2 / (exp(2x) + 1)                       (no overflow for large |x|)
//   gelu(x)    = x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3)))   (the tanh approximation)
//   silu(x)    = x / (1 + exp(-x))
#include "kernel_common.h"

namespace pyasc_kernels {

enum UnaryOp : uint32_t {
    OP_NEG = 0, OP_ABS, OP_EXP, OP_LOG, OP_SQRT, OP_RSQRT, OP_RELU, OP_SIGMOID, OP_TANH, OP_GELU, OP_SILU
};

// Host side: pyasc_sim/ops/elementwise.py.
struct UnaryTiling {
    uint32_t totalLength;
    uint32_t perCore;
    uint32_t tileLength;
    uint32_t reserved;
};

template <typename T, uint32_t OP>
class KernelUnary {
    using C = typename ComputeType<T>::type;

public:
    __aicore__ inline KernelUnary() {}

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const UnaryTiling &tiling) {
        t_ = tiling;
        CoreRange(t_.totalLength, t_.perCore, start_, length_);
        if (length_ == 0) {
            return;
        }
        const uint32_t tile = t_.tileLength;
        xGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x) + start_, length_);
        yGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y) + start_, length_);
        pipe_.InitBuffer(inX_, BUFFER_NUM, tile * sizeof(T));
        pipe_.InitBuffer(outY_, BUFFER_NUM, tile * sizeof(T));
        // float copies of x and y (16-bit types), a temporary, and a constant
        pipe_.InitBuffer(calc_, 4 * tile * sizeof(C));
        if constexpr (OP == OP_RELU && IsSame<C, float>::value) {
            pipe_.InitBuffer(maskBuf_, tile / 8);
        }
        LocalTensor<C> base = calc_.Get<C>();
        xc_ = base;
        yc_ = base[tile];
        tmp_ = base[2 * tile];
        konst_ = base[3 * tile];
        if constexpr (OP == OP_SIGMOID) {
            Duplicate(konst_, static_cast<C>(1), tile);
        } else if constexpr (OP == OP_TANH) {
            Duplicate(konst_, static_cast<C>(2), tile);
        }
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
            LocalTensor<T> x = inX_.AllocTensor<T>();
            CopyIn(x, xGm_[offset], count);
            inX_.EnQue(x);
            ComputeTile(count);
            LocalTensor<T> y = outY_.DeQue<T>();
            CopyOut(yGm_[offset], y, count);
            outY_.FreeTensor(y);
        }
    }

private:
    __aicore__ inline void Apply(const LocalTensor<C> &y, const LocalTensor<C> &x, uint32_t n) {
        const LocalTensor<C> &t = tmp_;
        if constexpr (OP == OP_NEG) {
            Muls(y, x, static_cast<C>(-1), n);
        } else if constexpr (OP == OP_ABS) {
            if constexpr (IsSame<C, int32_t>::value) {  // |x| = max(x, -x)
                Muls(t, x, static_cast<C>(-1), n);
                Max(y, x, t, n);
            } else {
                Abs(y, x, n);
            }
        } else if constexpr (OP == OP_EXP) {
            Exp(y, x, n);
        } else if constexpr (OP == OP_LOG) {
            Ln(y, x, n);
        } else if constexpr (OP == OP_SQRT) {
            Sqrt(y, x, n);
        } else if constexpr (OP == OP_RSQRT) {
            Rsqrt(y, x, n);
        } else if constexpr (OP == OP_RELU) {
            if constexpr (IsSame<C, int32_t>::value) {
                Maxs(y, x, static_cast<C>(0), n);
            } else {
                Relu(y, x, n);
                PropagateNaN(y, x, maskBuf_.Get<uint8_t>(), n);  // relu(NaN) = NaN, as np.maximum(x, 0)
            }
        } else if constexpr (OP == OP_SIGMOID) {
            Muls(t, x, static_cast<C>(-1), n);
            Exp(t, t, n);
            Adds(t, t, static_cast<C>(1), n);
            Div(y, konst_, t, n);
        } else if constexpr (OP == OP_TANH) {
            Muls(t, x, static_cast<C>(2), n);
            Exp(t, t, n);
            Adds(t, t, static_cast<C>(1), n);
            Div(t, konst_, t, n);           // 2 / (exp(2x) + 1)
            Muls(t, t, static_cast<C>(-1), n);
            Adds(y, t, static_cast<C>(1), n);
        } else if constexpr (OP == OP_GELU) {
            Mul(t, x, x, n);
            Mul(t, t, x, n);
            Muls(t, t, static_cast<C>(0.044715f), n);
            Add(t, t, x, n);
            Muls(t, t, static_cast<C>(-1.5957691216057308f), n);  // -2 * sqrt(2 / pi)
            Exp(t, t, n);
            Adds(t, t, static_cast<C>(1), n);
            Div(y, x, t, n);
        } else if constexpr (OP == OP_SILU) {
            Muls(t, x, static_cast<C>(-1), n);
            Exp(t, t, n);
            Adds(t, t, static_cast<C>(1), n);
            Div(y, x, t, n);
        }
    }

    __aicore__ inline void ComputeTile(uint32_t count) {
        LocalTensor<T> x = inX_.DeQue<T>();
        LocalTensor<T> y = outY_.AllocTensor<T>();
        if constexpr (kWidened<T>) {
            ToCompute(xc_, x, count);
            Apply(yc_, xc_, count);
            FromCompute(y, yc_, count);
        } else {
            Apply(y, x, count);
        }
        outY_.EnQue(y);
        inX_.FreeTensor(x);
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inX_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outY_;
    TBuf<QuePosition::VECCALC> calc_, maskBuf_;
    GlobalTensor<T> xGm_, yGm_;
    LocalTensor<C> xc_, yc_, tmp_, konst_;
    UnaryTiling t_;
    uint32_t start_ = 0;
    uint32_t length_ = 0;
};

template <typename T, uint32_t OP>
__aicore__ inline void RunUnary(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) {
    UnaryTiling t;
    LoadTiling(t, tiling);
    KernelUnary<T, OP> op;
    op.Init(x, y, t);
    op.Process();
}

}  // namespace pyasc_kernels

#define PYASC_UNARY_KERNEL(NAME, OP, DTYPE, T)                                                              \
    extern "C" __global__ __aicore__ void unary_##NAME##_##DTYPE(GM_ADDR x, GM_ADDR y, GM_ADDR workspace,   \
                                                                 GM_ADDR tiling) {                          \
        (void)workspace;                                                                                    \
        pyasc_kernels::RunUnary<T, pyasc_kernels::OP>(x, y, tiling);                                        \
    }

#define PYASC_UNARY_FLOAT_DTYPES(NAME, OP)              \
    PYASC_UNARY_KERNEL(NAME, OP, float16, half)         \
    PYASC_UNARY_KERNEL(NAME, OP, bfloat16, bfloat16_t)  \
    PYASC_UNARY_KERNEL(NAME, OP, float32, float)

PYASC_UNARY_FLOAT_DTYPES(neg, OP_NEG)
PYASC_UNARY_FLOAT_DTYPES(abs, OP_ABS)
PYASC_UNARY_FLOAT_DTYPES(exp, OP_EXP)
PYASC_UNARY_FLOAT_DTYPES(log, OP_LOG)
PYASC_UNARY_FLOAT_DTYPES(sqrt, OP_SQRT)
PYASC_UNARY_FLOAT_DTYPES(rsqrt, OP_RSQRT)
PYASC_UNARY_FLOAT_DTYPES(relu, OP_RELU)
PYASC_UNARY_FLOAT_DTYPES(sigmoid, OP_SIGMOID)
PYASC_UNARY_FLOAT_DTYPES(tanh, OP_TANH)
PYASC_UNARY_FLOAT_DTYPES(gelu, OP_GELU)
PYASC_UNARY_FLOAT_DTYPES(silu, OP_SILU)
PYASC_UNARY_KERNEL(neg, OP_NEG, int32, int32_t)
PYASC_UNARY_KERNEL(abs, OP_ABS, int32, int32_t)
PYASC_UNARY_KERNEL(relu, OP_RELU, int32, int32_t)
