// Elementwise unary ops: neg, abs, exp, log, sqrt, rsqrt, relu, sigmoid, tanh, gelu, silu.
//
// Kernels unary_<op>_<dtype> for float16, bfloat16, float32 (computed in float), and int32 and
// int16 for neg, abs and relu (Muls, Max, Maxs: Abs and Relu take no int16_t on Atlas A2). The
// activations are built from vector primitives:
//   sigmoid(x) = 1 / (1 + exp(-x))
//   tanh(x)    = 1 - 2 / (exp(2x) + 1)                       (no overflow for large |x|)
//   gelu(x)    = x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3)))   (the tanh approximation)
//   silu(x)    = x / (1 + exp(-x))
#include "kernel_operator.h"  // first, so the simulator's precompiled kernel API header applies (pyasc_sim.pch)
#include "kernel_entry.h"
#include "tile_loop.h"

namespace pyasc_kernels {

enum UnaryOp : uint32_t {
    OP_NEG = 0, OP_ABS, OP_EXP, OP_LOG, OP_SQRT, OP_RSQRT, OP_RELU, OP_SIGMOID, OP_TANH, OP_GELU, OP_SILU
};

// Host side: pyasc_kernels/elementwise.py.
struct UnaryTiling {
    uint32_t totalLength;
    uint32_t perCore;
    uint32_t tileLength;
    uint32_t reserved;
};

template <typename T, uint32_t OP>
class KernelUnary {
    using C = typename ComputeType<T>::type;
    static constexpr bool kInteger = IsSame<C, int32_t>::value || IsSame<C, int16_t>::value;
    // the ops that use calc_ (16-bit types' float copies, the activations' temporary and constant,
    // integer abs's -x): the others take no calc space, and the host gives float32 ones a tile twice
    // as long (pyasc_kernels/elementwise.py, LONG_TILE: fewer, longer instructions per element)
    static constexpr bool kCalc = kWidened<T> || OP >= OP_SIGMOID || (kInteger && OP == OP_ABS);

public:
    using Tiling = UnaryTiling;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, const UnaryTiling &tiling) {
        if (!loop_.Init(ShareOf(tiling), y, x)) {
            return;
        }
        TPipe &pipe = loop_.Pipe();
        const uint32_t tile = tiling.tileLength;
        if constexpr (OP == OP_RELU && IsSame<C, float>::value) {
            pipe.InitBuffer(maskBuf_, tile / 8);
        }
        if constexpr (kCalc) {
            // float copies of x and y (16-bit types), a temporary, and a constant
            pipe.InitBuffer(calc_, 4 * tile * sizeof(C));
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
        }
        PipeBarrier<PIPE_V>();
    }

    __aicore__ inline void Process() { loop_.Run(*this); }

    // One tile (called by the loop): y = OP(x).
    __aicore__ inline void Compute(const LocalTensor<T> &y, const LocalTensor<T> &x, uint32_t count) {
        if constexpr (kWidened<T>) {
            ToCompute(xc_, x, count);
            Apply(yc_, xc_, count);
            FromCompute(y, yc_, count);
        } else {
            Apply(y, x, count);
        }
    }

private:
    __aicore__ inline void Apply(const LocalTensor<C> &y, const LocalTensor<C> &x, uint32_t n) {
        const LocalTensor<C> &t = tmp_;
        if constexpr (OP == OP_NEG) {
            Muls(y, x, static_cast<C>(-1), n);
        } else if constexpr (OP == OP_ABS) {
            if constexpr (kInteger) {  // |x| = max(x, -x)
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
            if constexpr (kInteger) {
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

    TileLoop<T, T> loop_;  // y <- x
    TBuf<QuePosition::VECCALC> calc_, maskBuf_;
    LocalTensor<C> xc_, yc_, tmp_, konst_;
};

}  // namespace pyasc_kernels

#define PYASC_UNARY_KERNEL(DTYPE, T, NAME, OP) \
    PYASC_ENTRY_2(unary_##NAME##_##DTYPE, pyasc_kernels::KernelUnary<T, pyasc_kernels::OP>)

PYASC_NUMERIC_DTYPES(PYASC_UNARY_KERNEL, neg, OP_NEG)
PYASC_INT16_DTYPE(PYASC_UNARY_KERNEL, neg, OP_NEG)
PYASC_NUMERIC_DTYPES(PYASC_UNARY_KERNEL, abs, OP_ABS)
PYASC_INT16_DTYPE(PYASC_UNARY_KERNEL, abs, OP_ABS)
PYASC_NUMERIC_DTYPES(PYASC_UNARY_KERNEL, relu, OP_RELU)
PYASC_INT16_DTYPE(PYASC_UNARY_KERNEL, relu, OP_RELU)
PYASC_FLOAT_DTYPES(PYASC_UNARY_KERNEL, exp, OP_EXP)
PYASC_FLOAT_DTYPES(PYASC_UNARY_KERNEL, log, OP_LOG)
PYASC_FLOAT_DTYPES(PYASC_UNARY_KERNEL, sqrt, OP_SQRT)
PYASC_FLOAT_DTYPES(PYASC_UNARY_KERNEL, rsqrt, OP_RSQRT)
PYASC_FLOAT_DTYPES(PYASC_UNARY_KERNEL, sigmoid, OP_SIGMOID)
PYASC_FLOAT_DTYPES(PYASC_UNARY_KERNEL, tanh, OP_TANH)
PYASC_FLOAT_DTYPES(PYASC_UNARY_KERNEL, gelu, OP_GELU)
PYASC_FLOAT_DTYPES(PYASC_UNARY_KERNEL, silu, OP_SILU)
