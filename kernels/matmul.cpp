// Batched matrix product C[b] = A[b] @ B[b] (A: batch x M x K, B: batch x K x N, row-major; the
// host materialises broadcast batch dimensions and 1-D operands).
//
// matmul_cube_<dtype> (float16, bfloat16, float32): the cube path. Per (batch, M tile, N tile) unit,
// K is walked in steps: GM (ND) -> L1 (Nz) with DataCopy + Nd2NzParams, L1 -> L0A (Zz) / L0B (Zn,
// each fractal transposed) with LoadData, Mmad accumulating in float in L0C, and Fixpipe L0C -> GM
// converting to the output type (F322F16 / F322BF16, round to nearest even; float32 as is).
// float32 fractals are 16 x 8 (C0 = 8); the 2D load cannot transpose 32-bit fractals, so the host
// passes B transposed (batch x N x K): its Nz tile in L1 already holds the Zn fractals L0B wants,
// in L0B's order.
//
// matmul_vec_<dtype> (float32, int32): the vector path (int32; float32 where the kernel set has no
// cube entries, the Atlas inference series):
// per unit of R rows x an N tile, accumulators stay in UB and each row of B is loaded once for
// the R rows: acc[r] += A[r, k] * B[k, :] (Muls + Add; float with compensated summation).
#include "kernel_operator.h"  // first, so the simulator's precompiled kernel API header applies (pyasc_sim.pch)
#include "kernel_entry.h"

namespace pyasc_kernels {

// Host side: pyasc_kernels/linalg.py (both kernels).
struct MatmulTiling {
    uint32_t batch;
    uint32_t m;
    uint32_t n;
    uint32_t k;
    uint32_t tileM;         // cube: rows per unit (multiple of 16); vector: R rows per unit
    uint32_t tileN;         // columns per unit (cube: multiple of 16; vector: multiple of 64)
    uint32_t tileK;         // cube: K step (multiple of 16)
    uint32_t unitsPerCore;
    uint32_t totalUnits;    // batch * ceil(m / tileM) * ceil(n / tileN)
    uint32_t reserved[7];
};

__aicore__ inline uint32_t Align16(uint32_t a) { return CeilDiv(a, 16) * 16; }

// GM (ND, rows x cols of a matrix with srcCols columns) -> L1 (Nz, paddedRows rows per fractal column).
__aicore__ inline Nd2NzParams NdToNz(uint32_t rows, uint32_t cols, uint32_t srcCols, uint32_t paddedRows) {
    Nd2NzParams p;
    p.ndNum = 1;
    p.nValue = static_cast<uint16_t>(rows);
    p.dValue = static_cast<uint16_t>(cols);
    p.srcDValue = static_cast<uint16_t>(srcCols);
    p.dstNzC0Stride = static_cast<uint16_t>(paddedRows);
    p.dstNzNStride = 1;
    return p;
}

// L1 -> L0A / L0B: `runs` runs of `len` fractals (512 bytes each); run i starts at L1 fractal i
// and steps by `runs` fractals (the L1 Nz layout), and lands contiguously at dst fractal i * len.
template <typename T>
__aicore__ inline void LoadFractalRuns(const LocalTensor<T> &dst, const LocalTensor<T> &src, uint32_t runs,
                                       uint32_t len, bool transpose) {
    if constexpr (IsSame<T, bfloat16_t>::value) {
        // the transposing 2D load is documented for uint16_t / int16_t / half only (Load2D, ifTranspose):
        // bfloat16 fractals move as the same 16-bit words through a half view (bits copied, not converted)
        if (transpose) {
            LoadFractalRuns(dst.template ReinterpretCast<half>(), src.template ReinterpretCast<half>(), runs, len, true);
            return;
        }
    }
    constexpr uint32_t kFractal = 512 / sizeof(T);
    for (uint32_t i = 0; i < runs; ++i) {
        LoadData2DParams p;
        p.startIndex = static_cast<uint16_t>(i);
        p.repeatTimes = static_cast<uint8_t>(len);
        p.srcStride = static_cast<uint16_t>(runs);
        p.ifTranspose = transpose;
        LoadData(dst[i * len * kFractal], src, p);
    }
}

// The operands of a launch: the tiling and the whole A, B, C tensors.
template <typename T>
struct MatmulOperands {
    MatmulTiling t;
    GlobalTensor<T> a, b, c;
};

// One (batch, M tile, N tile) unit: m x n elements of C from rows m0.. of A and columns n0.. of B.
struct MatmulUnit {
    uint32_t m, n;
    uint32_t bi, n0;  // batch index and first column (the cube's float32 B^T addressing)
    uint64_t aBase;  // A[bi, m0, 0]
    uint64_t bBase;  // B[bi, 0, n0]
    uint64_t cBase;  // C[bi, m0, n0]
};

// GM byte where unit u's C rows start when there is one N tile (row bi * m + m0 of C).
struct UnitStarts {
    UniformItems rows;  // C's rows
    uint32_t m;
    uint32_t tileM;
    uint32_t mTiles;
    __aicore__ inline uint64_t operator()(uint32_t u) const {
        return rows(u / mTiles * m + u % mTiles * tileM);
    }
};

// Splits the units over the cores and walks this core's; the path (MatmulCube, MatmulVec) has
// Init(TPipe &, const MatmulTiling &) for its buffers and Unit(const MatmulOperands<T> &, const MatmulUnit &).
template <typename T, class Path>
class KernelMatmul {
public:
    using Tiling = MatmulTiling;

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const MatmulTiling &tiling) {
        const MatmulTiling &t = io_.t = tiling;
        // rows of C shorter than one block are scalar writes on Ascend310P (CopyOut): with one N tile
        // the units' outputs follow one another and the cores' units start on a cache line of C; with
        // several (the host avoids a narrow last tile) units of one row interleave and one core does all
        const uint32_t nTiles = CeilDiv(t.n, t.tileN);
        const bool narrow = t.n - (nTiles - 1) * t.tileN < BLOCK_BYTES / sizeof(T);
        if (kScalarTails && narrow && nTiles > 1) {
            unit0_ = 0;
            nunits_ = GetBlockIdx() == 0 ? t.totalUnits : 0;
        } else {
            const UniformItems rows{reinterpret_cast<uint64_t>(c), static_cast<uint64_t>(t.n) * sizeof(T)};
            const UnitStarts starts{rows, t.m, t.tileM, CeilDiv(t.m, t.tileM)};
            ScalarSafeRange(t.totalUnits, t.unitsPerCore, starts, narrow, unit0_, nunits_);
        }
        if (nunits_ == 0) {
            return;
        }
        io_.a.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), static_cast<uint64_t>(t.batch) * t.m * t.k);
        io_.b.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), static_cast<uint64_t>(t.batch) * t.k * t.n);
        io_.c.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c), static_cast<uint64_t>(t.batch) * t.m * t.n);
        path_.Init(pipe_, t);
    }

    __aicore__ inline void Process() {
        const MatmulTiling &t = io_.t;
        const uint32_t mTiles = CeilDiv(t.m, t.tileM);
        const uint32_t nTiles = CeilDiv(t.n, t.tileN);
        for (uint32_t u = unit0_; u < unit0_ + nunits_; ++u) {
            const uint32_t bi = u / (mTiles * nTiles);
            const uint32_t m0 = (u / nTiles) % mTiles * t.tileM;
            const uint32_t n0 = u % nTiles * t.tileN;
            MatmulUnit g;
            g.bi = bi;
            g.n0 = n0;
            g.m = t.m - m0 < t.tileM ? t.m - m0 : t.tileM;
            g.n = t.n - n0 < t.tileN ? t.n - n0 : t.tileN;
            g.aBase = static_cast<uint64_t>(bi) * t.m * t.k + static_cast<uint64_t>(m0) * t.k;
            g.bBase = static_cast<uint64_t>(bi) * t.k * t.n + n0;
            g.cBase = static_cast<uint64_t>(bi) * t.m * t.n + static_cast<uint64_t>(m0) * t.n + n0;
            path_.Unit(io_, g);
        }
    }

private:
    TPipe pipe_;
    MatmulOperands<T> io_;
    Path path_;
    uint32_t unit0_ = 0;
    uint32_t nunits_ = 0;
};

template <typename T>
class MatmulCube {
    static constexpr bool kTransposedB = IsSame<T, float>::value;  // float32: the host passes B^T

public:
    __aicore__ inline void Init(TPipe &pipe, const MatmulTiling &t) {
        const uint32_t aBytes = t.tileM * t.tileK * sizeof(T);
        const uint32_t bBytes = t.tileK * t.tileN * sizeof(T);
        pipe.InitBuffer(inA1_, 1, aBytes);
        pipe.InitBuffer(inB1_, 1, bBytes);
        pipe.InitBuffer(inA2_, 1, aBytes);
        pipe.InitBuffer(inB2_, 1, bBytes);
        pipe.InitBuffer(outCO1_, 1, t.tileM * t.tileN * sizeof(float));
    }

    // One unit: C tile = A rows x B columns (called by KernelMatmul::Process).
    __aicore__ inline void Unit(const MatmulOperands<T> &io, const MatmulUnit &g) {
        const MatmulTiling &t = io.t;
        const uint32_t m = g.m, n = g.n;
        LocalTensor<float> c1 = outCO1_.AllocTensor<float>();
        const uint32_t kSteps = CeilDiv(t.k, t.tileK);
        for (uint32_t ks = 0; ks < kSteps; ++ks) {
            const uint32_t k0 = ks * t.tileK;
            const uint32_t k = t.k - k0 < t.tileK ? t.k - k0 : t.tileK;
            constexpr uint32_t c0 = 32 / sizeof(T);  // columns of a fractal: 16 (half), 8 (float)
            const uint32_t mPad = Align16(m), kPad = CeilDiv(k, c0) * c0, nPad = Align16(n);
            // GM -> L1 (Nz): A tile m x k, B tile k x n (float32: B^T tile n x k)
            LocalTensor<T> a1 = inA1_.AllocTensor<T>();
            LocalTensor<T> b1 = inB1_.AllocTensor<T>();
            DataCopy(a1, io.a[g.aBase + k0], NdToNz(m, k, t.k, mPad));
            if constexpr (kTransposedB) {
                const uint64_t bt = static_cast<uint64_t>(g.bi) * t.n * t.k + static_cast<uint64_t>(g.n0) * t.k + k0;
                DataCopy(b1, io.b[bt], NdToNz(n, k, t.k, nPad));
            } else {
                DataCopy(b1, io.b[g.bBase + static_cast<uint64_t>(k0) * t.n], NdToNz(k, n, t.n, kPad));
            }
            inA1_.EnQue(a1);
            inB1_.EnQue(b1);
            a1 = inA1_.DeQue<T>();
            b1 = inB1_.DeQue<T>();
            // L1 -> L0A: fractal (mi, ki) from L1 fractal ki * mBlocks + mi
            LocalTensor<T> a2 = inA2_.AllocTensor<T>();
            const uint32_t mBlocks = mPad / 16, kBlocks = kPad / c0, nBlocks = nPad / 16;
            LoadFractalRuns(a2, a1, mBlocks, kBlocks, false);
            LocalTensor<T> b2 = inB2_.AllocTensor<T>();
            if constexpr (kTransposedB) {
                // L1 (Nz of B^T): fractal (ni, ki) at ki * nBlocks + ni is already L0B's (ki, ni)
                LoadFractalRuns(b2, b1, 1, kBlocks * nBlocks, false);
            } else {
                // L1 -> L0B: fractal (ki, ni) from L1 fractal ni * kBlocks + ki, transposed
                LoadFractalRuns(b2, b1, kBlocks, nBlocks, true);
            }
            inA1_.FreeTensor(a1);
            inB1_.FreeTensor(b1);
            inA2_.EnQue(a2);
            inB2_.EnQue(b2);
            a2 = inA2_.DeQue<T>();
            b2 = inB2_.DeQue<T>();
            MmadParams mp;
            mp.m = static_cast<uint16_t>(m);
            mp.n = static_cast<uint16_t>(n);
            mp.k = static_cast<uint16_t>(k);
            mp.cmatrixInitVal = ks == 0;  // the first K step starts from 0, later ones accumulate
            Mmad(c1, a2, b2, mp);
            inA2_.FreeTensor(a2);
            inB2_.FreeTensor(b2);
        }
        outCO1_.EnQue(c1);
        c1 = outCO1_.DeQue<float>();
        FixpipeParamsV220 fp;
        fp.nSize = static_cast<uint16_t>(n);
        fp.mSize = static_cast<uint16_t>(m);
        fp.srcStride = static_cast<uint16_t>(Align16(m));
        fp.dstStride = t.n;
        fp.quantPre = IsSame<T, half>::value     ? QuantMode_t::F322F16
                      : IsSame<T, float>::value ? QuantMode_t::NoQuant
                                                : QuantMode_t::F322BF16;
        Fixpipe(io.c[g.cBase], c1, fp);
        outCO1_.FreeTensor(c1);
    }

private:
    TQue<QuePosition::A1, 1> inA1_;
    TQue<QuePosition::B1, 1> inB1_;
    TQue<QuePosition::A2, 1> inA2_;
    TQue<QuePosition::B2, 1> inB2_;
    TQue<QuePosition::CO1, 1> outCO1_;
};

template <typename T>
class MatmulVec {
public:
    __aicore__ inline void Init(TPipe &pipe, const MatmulTiling &t) {
        pipe.InitBuffer(inB_, BUFFER_NUM, t.tileN * sizeof(T));
        pipe.InitBuffer(outC_, BUFFER_NUM, t.tileN * sizeof(T));
        pipe.InitBuffer(acc_, (2 * t.tileM + 2) * t.tileN * sizeof(T));
    }

    // One unit: C tile = A rows x B columns (called by KernelMatmul::Process).
    __aicore__ inline void Unit(const MatmulOperands<T> &io, const MatmulUnit &g) {
        const MatmulTiling &t = io.t;
        const uint32_t rows = g.m, n = g.n;
        // float: compensated (Kahan) summation over k, so the result is within a few ulp of the
        // exact product whatever K is; int32: plain sums (exact, wrapping like NumPy)
        LocalTensor<T> acc = acc_.Get<T>();
        LocalTensor<T> comp = acc[t.tileM * t.tileN];
        LocalTensor<T> y = acc[2 * t.tileM * t.tileN];
        LocalTensor<T> tsum = acc[(2 * t.tileM + 1) * t.tileN];
        Duplicate(acc, static_cast<T>(0), rows * t.tileN);
        Duplicate(comp, static_cast<T>(0), rows * t.tileN);
        for (uint32_t k = 0; k < t.k; ++k) {
            LocalTensor<T> brow = inB_.AllocTensor<T>();
            CopyIn(brow, io.b[g.bBase + static_cast<uint64_t>(k) * t.n], n);
            inB_.EnQue(brow);
            brow = inB_.DeQue<T>();
            for (uint32_t r = 0; r < rows; ++r) {
                const T av = io.a.GetValue(g.aBase + static_cast<uint64_t>(r) * t.k + k);
                LocalTensor<T> sr = acc[r * t.tileN];
                Muls(y, brow, av, n);
                if constexpr (IsSame<T, float>::value) {
                    LocalTensor<T> cr = comp[r * t.tileN];
                    Sub(y, y, cr, n);         // y = product - c
                    Add(tsum, sr, y, n);      // t = s + y
                    Sub(cr, tsum, sr, n);     // c = (t - s) - y
                    Sub(cr, cr, y, n);
                    DataCopy(sr, tsum, AlignBlock<T>(n));  // s = t
                } else {
                    Add(sr, sr, y, n);
                }
            }
            inB_.FreeTensor(brow);
        }
        for (uint32_t r = 0; r < rows; ++r) {
            LocalTensor<T> out = outC_.AllocTensor<T>();
            DataCopy(out, acc[r * t.tileN], AlignBlock<T>(n));
            outC_.EnQue(out);
            out = outC_.DeQue<T>();
            CopyOut(io.c[g.cBase + static_cast<uint64_t>(r) * t.n], out, n);
            outC_.FreeTensor(out);
        }
    }

private:
    TQue<QuePosition::VECIN, BUFFER_NUM> inB_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outC_;
    TBuf<QuePosition::VECCALC> acc_;
};

}  // namespace pyasc_kernels

#define PYASC_MATMUL_KERNEL(PATH, DTYPE, T, PATH_CLASS) \
    PYASC_ENTRY_3(matmul_##PATH##_##DTYPE, pyasc_kernels::KernelMatmul<T, pyasc_kernels::PATH_CLASS<T>>)

// The cube path leaves L0C through Fixpipe (FixpipeParamsV220), which the reference documents for the
// Atlas A2 family only (the Atlas inference series AI Core has no Fixpipe, nor bfloat16 / float Mmad):
// its entries exist where __CCE_AICORE__ == 220 (the simulated SoCs); other SoCs get the vector path.
#if __CCE_AICORE__ == 220
PYASC_MATMUL_KERNEL(cube, float16, half, MatmulCube)
#if PYASC_HAS_BF16  // no bfloat16 on the Atlas inference series (kernel_entry.h)
PYASC_MATMUL_KERNEL(cube, bfloat16, bfloat16_t, MatmulCube)
#endif
PYASC_MATMUL_KERNEL(cube, float32, float, MatmulCube)
#endif
PYASC_MATMUL_KERNEL(vec, float32, float, MatmulVec)
PYASC_MATMUL_KERNEL(vec, int32, int32_t, MatmulVec)
