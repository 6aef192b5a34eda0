// Elementwise binary ops: add, sub, mul, div, maximum, minimum.
//
// Kernels binary_<op>_<dtype> for dtype float16, bfloat16, float32, int32 and int16 (div: floating
// only; int16 as the Atlas A2 tables of Add/Sub/Mul/Max/Min and Adds/Muls/Maxs/Mins list it).
// Tensor-tensor operands have the same length (the host materialises broadcasts with the copy
// kernels); a Python scalar operand travels in the tiling struct:
//   mode 1 (y is the scalar): add/mul/maximum/minimum use Adds/Muls/Maxs/Mins, sub/div use a
//                             Duplicate'd scalar tensor;
//   mode 2 (x is the scalar): the same with the scalar on the left.
// half and bfloat16_t compute in float (one rounding at the end, as the reference). maximum and
// minimum propagate NaN like NumPy (see PropagateNaN).
#include "kernel_operator.h"  // first, so the simulator's precompiled kernel API header applies (pyasc_sim.pch)
#include "kernel_entry.h"
#include "tile_loop.h"

namespace pyasc_kernels {

enum BinaryOp : uint32_t { OP_ADD = 0, OP_SUB, OP_MUL, OP_DIV, OP_MAX, OP_MIN };
enum BinaryMode : uint32_t { MODE_TENSOR = 0, MODE_SCALAR_Y = 1, MODE_SCALAR_X = 2 };

// Host side: pyasc_kernels/elementwise.py (BINARY_TILING).
struct BinaryTiling {
    uint32_t totalLength;  // elements of z
    uint32_t perCore;      // elements per core (whole 256-byte repeats, except the last core's share)
    uint32_t tileLength;   // elements per tile (whole 256-byte repeats)
    uint32_t mode;         // BinaryMode
    uint32_t scalarBits;   // the scalar: float bits for floating kernels, int32 for integer kernels
    uint32_t reserved[3];
};

template <typename T, uint32_t OP>
class KernelBinary {
    using C = typename ComputeType<T>::type;
    static constexpr bool kNanAware = (OP == OP_MAX || OP == OP_MIN) && IsSame<C, float>::value;

public:
    using Tiling = BinaryTiling;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const BinaryTiling &tiling) {
        t_ = tiling;
        // "a" is always the tensor operand (y in mode 2), "b" the other tensor operand (mode 0 only)
        GM_ADDR a = t_.mode == MODE_SCALAR_X ? y : x;
        GM_ADDR b = t_.mode == MODE_TENSOR ? y : nullptr;
        if (!loop_.Init(ShareOf(t_), z, a, b)) {
            return;
        }
        TPipe &pipe = loop_.Pipe();
        if constexpr (kWidened<T>) {
            pipe.InitBuffer(calc_, 3 * t_.tileLength * sizeof(C));
        }
        if constexpr (kNanAware) {
            pipe.InitBuffer(maskBuf_, t_.tileLength / 8);
        }
        if (t_.mode != MODE_TENSOR) {
            scalar_ = ScalarFromBits<C>(t_.scalarBits);
            if (OP == OP_SUB || OP == OP_DIV) {  // no Subs/Divs: a tensor holding the scalar
                pipe.InitBuffer(scalarBuf_, t_.tileLength * sizeof(C));
                scalarTensor_ = scalarBuf_.Get<C>();
                Duplicate(scalarTensor_, scalar_, t_.tileLength);
                PipeBarrier<PIPE_V>();
            }
        }
    }

    __aicore__ inline void Process() { loop_.Run(*this); }

    // One tile (called by the loop): z = a OP b, b unset in the scalar modes.
    __aicore__ inline void Compute(const LocalTensor<T> &z, const LocalTensor<T> &a, const LocalTensor<T> &b,
                                   uint32_t count) {
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
    }

private:
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

    TileLoop<T, T, T> loop_;  // z <- a, b
    TBuf<QuePosition::VECCALC> calc_, scalarBuf_, maskBuf_;
    LocalTensor<C> scalarTensor_;
    BinaryTiling t_;
    C scalar_ = 0;
};

}  // namespace pyasc_kernels

#define PYASC_BINARY_KERNEL(DTYPE, T, NAME, OP) \
    PYASC_ENTRY_3(binary_##NAME##_##DTYPE, pyasc_kernels::KernelBinary<T, pyasc_kernels::OP>)

PYASC_FLOAT_DTYPES(PYASC_BINARY_KERNEL, div, OP_DIV)
PYASC_NUMERIC_DTYPES(PYASC_BINARY_KERNEL, add, OP_ADD)
PYASC_INT16_DTYPE(PYASC_BINARY_KERNEL, add, OP_ADD)
PYASC_NUMERIC_DTYPES(PYASC_BINARY_KERNEL, sub, OP_SUB)
PYASC_INT16_DTYPE(PYASC_BINARY_KERNEL, sub, OP_SUB)
PYASC_NUMERIC_DTYPES(PYASC_BINARY_KERNEL, mul, OP_MUL)
PYASC_INT16_DTYPE(PYASC_BINARY_KERNEL, mul, OP_MUL)
PYASC_NUMERIC_DTYPES(PYASC_BINARY_KERNEL, maximum, OP_MAX)
PYASC_INT16_DTYPE(PYASC_BINARY_KERNEL, maximum, OP_MAX)
PYASC_NUMERIC_DTYPES(PYASC_BINARY_KERNEL, minimum, OP_MIN)
PYASC_INT16_DTYPE(PYASC_BINARY_KERNEL, minimum, OP_MIN)
