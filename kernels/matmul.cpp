// Batched matrix product C[b] = A[b] @ B[b] (A: batch x M x K, B: batch x K x N, row-major; the
// host materialises broadcast batch dimensions and 1-D operands).
//
// matmul_cube_<dtype> (float16, bfloat16): the cube path. Per (batch, M tile, N tile) unit, K is
// walked in steps: GM (ND) -> L1 (Nz) with DataCopy + Nd2NzParams, L1 -> L0A (Zz) / L0B (Zn, each
// fractal transposed) with LoadData, Mmad accumulating in float in L0C, and Fixpipe L0C -> GM
// converting to the output type (F322F16 / F322BF16, round to nearest even).
//
// matmul_vec_<dtype> (float32, int32): the vector path (the cube takes 16-bit inputs here):
// per unit of R rows x an N tile, accumulators stay in UB and each row of B is loaded once for
// the R rows: acc[r] += A[r, k] * B[k, :] (Muls + Add; float with compensated summation).
#include "kernel_common.h"

namespace pyasc_kernels {

// Host side: pyasc_sim/ops/linalg.py (both kernels).
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

__aicore__ inline uint32_t CeilDiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
__aicore__ inline uint32_t Align16(uint32_t a) { return CeilDiv(a, 16) * 16; }

template <typename T>
class KernelMatmulCube {
public:
    __aicore__ inline KernelMatmulCube() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const MatmulTiling &tiling) {
        t_ = tiling;
        CoreRange(t_.totalUnits, t_.unitsPerCore, unit0_, nunits_);
        if (nunits_ == 0) {
            return;
        }
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), static_cast<uint64_t>(t_.batch) * t_.m * t_.k);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), static_cast<uint64_t>(t_.batch) * t_.k * t_.n);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c), static_cast<uint64_t>(t_.batch) * t_.m * t_.n);
        const uint32_t aBytes = t_.tileM * t_.tileK * sizeof(T);
        const uint32_t bBytes = t_.tileK * t_.tileN * sizeof(T);
        pipe_.InitBuffer(inA1_, 1, aBytes);
        pipe_.InitBuffer(inB1_, 1, bBytes);
        pipe_.InitBuffer(inA2_, 1, aBytes);
        pipe_.InitBuffer(inB2_, 1, bBytes);
        pipe_.InitBuffer(outCO1_, 1, t_.tileM * t_.tileN * sizeof(float));
    }

    __aicore__ inline void Process() {
        const uint32_t mTiles = CeilDiv(t_.m, t_.tileM);
        const uint32_t nTiles = CeilDiv(t_.n, t_.tileN);
        for (uint32_t u = unit0_; u < unit0_ + nunits_; ++u) {
            const uint32_t bi = u / (mTiles * nTiles);
            const uint32_t mi = (u / nTiles) % mTiles;
            const uint32_t ni = u % nTiles;
            Unit(bi, mi * t_.tileM, ni * t_.tileN);
        }
    }

private:
    __aicore__ inline void Unit(uint32_t bi, uint32_t m0, uint32_t n0) {
        const uint32_t m = t_.m - m0 < t_.tileM ? t_.m - m0 : t_.tileM;
        const uint32_t n = t_.n - n0 < t_.tileN ? t_.n - n0 : t_.tileN;
        const uint64_t aBase = static_cast<uint64_t>(bi) * t_.m * t_.k + static_cast<uint64_t>(m0) * t_.k;
        const uint64_t bBase = static_cast<uint64_t>(bi) * t_.k * t_.n + n0;
        LocalTensor<float> c1 = outCO1_.AllocTensor<float>();
        const uint32_t kSteps = CeilDiv(t_.k, t_.tileK);
        for (uint32_t ks = 0; ks < kSteps; ++ks) {
            const uint32_t k0 = ks * t_.tileK;
            const uint32_t k = t_.k - k0 < t_.tileK ? t_.k - k0 : t_.tileK;
            const uint32_t mPad = Align16(m), kPad = Align16(k), nPad = Align16(n);
            // GM -> L1 (Nz): A tile m x k, B tile k x n
            LocalTensor<T> a1 = inA1_.AllocTensor<T>();
            LocalTensor<T> b1 = inB1_.AllocTensor<T>();
            Nd2NzParams pa;
            pa.ndNum = 1;
            pa.nValue = static_cast<uint16_t>(m);
            pa.dValue = static_cast<uint16_t>(k);
            pa.srcDValue = static_cast<uint16_t>(t_.k);
            pa.dstNzC0Stride = static_cast<uint16_t>(mPad);
            pa.dstNzNStride = 1;
            DataCopy(a1, aGm_[aBase + k0], pa);
            Nd2NzParams pb;
            pb.ndNum = 1;
            pb.nValue = static_cast<uint16_t>(k);
            pb.dValue = static_cast<uint16_t>(n);
            pb.srcDValue = static_cast<uint16_t>(t_.n);
            pb.dstNzC0Stride = static_cast<uint16_t>(kPad);
            pb.dstNzNStride = 1;
            DataCopy(b1, bGm_[bBase + static_cast<uint64_t>(k0) * t_.n], pb);
            inA1_.EnQue(a1);
            inB1_.EnQue(b1);
            a1 = inA1_.DeQue<T>();
            b1 = inB1_.DeQue<T>();
            // L1 -> L0A: fractal (mi, ki) from L1 fractal ki * mBlocks + mi
            LocalTensor<T> a2 = inA2_.AllocTensor<T>();
            const uint32_t mBlocks = mPad / 16, kBlocks = kPad / 16, nBlocks = nPad / 16;
            for (uint32_t i = 0; i < mBlocks; ++i) {
                LoadData2DParams p;
                p.startIndex = static_cast<uint16_t>(i);
                p.repeatTimes = static_cast<uint8_t>(kBlocks);
                p.srcStride = static_cast<uint16_t>(mBlocks);
                p.ifTranspose = false;
                LoadData(a2[i * kBlocks * 256], a1, p);
            }
            // L1 -> L0B: fractal (ki, ni) from L1 fractal ni * kBlocks + ki, transposed
            LocalTensor<T> b2 = inB2_.AllocTensor<T>();
            for (uint32_t i = 0; i < kBlocks; ++i) {
                LoadData2DParams p;
                p.startIndex = static_cast<uint16_t>(i);
                p.repeatTimes = static_cast<uint8_t>(nBlocks);
                p.srcStride = static_cast<uint16_t>(kBlocks);
                p.ifTranspose = true;
                LoadData(b2[i * nBlocks * 256], b1, p);
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
        fp.dstStride = t_.n;
        fp.quantPre = IsSame<T, half>::value ? QuantMode_t::F322F16 : QuantMode_t::F322BF16;
        Fixpipe(cGm_[static_cast<uint64_t>(bi) * t_.m * t_.n + static_cast<uint64_t>(m0) * t_.n + n0], c1, fp);
        outCO1_.FreeTensor(c1);
    }

    TPipe pipe_;
    TQue<QuePosition::A1, 1> inA1_;
    TQue<QuePosition::B1, 1> inB1_;
    TQue<QuePosition::A2, 1> inA2_;
    TQue<QuePosition::B2, 1> inB2_;
    TQue<QuePosition::CO1, 1> outCO1_;
    GlobalTensor<T> aGm_, bGm_, cGm_;
    MatmulTiling t_;
    uint32_t unit0_ = 0;
    uint32_t nunits_ = 0;
};

template <typename T>
class KernelMatmulVec {
public:
    __aicore__ inline KernelMatmulVec() {}

    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const MatmulTiling &tiling) {
        t_ = tiling;
        CoreRange(t_.totalUnits, t_.unitsPerCore, unit0_, nunits_);
        if (nunits_ == 0) {
            return;
        }
        aGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(a), static_cast<uint64_t>(t_.batch) * t_.m * t_.k);
        bGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(b), static_cast<uint64_t>(t_.batch) * t_.k * t_.n);
        cGm_.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(c), static_cast<uint64_t>(t_.batch) * t_.m * t_.n);
        pipe_.InitBuffer(inB_, BUFFER_NUM, t_.tileN * sizeof(T));
        pipe_.InitBuffer(outC_, BUFFER_NUM, t_.tileN * sizeof(T));
        pipe_.InitBuffer(acc_, (2 * t_.tileM + 2) * t_.tileN * sizeof(T));
    }

    __aicore__ inline void Process() {
        const uint32_t mTiles = CeilDiv(t_.m, t_.tileM);
        const uint32_t nTiles = CeilDiv(t_.n, t_.tileN);
        for (uint32_t u = unit0_; u < unit0_ + nunits_; ++u) {
            const uint32_t bi = u / (mTiles * nTiles);
            const uint32_t mi = (u / nTiles) % mTiles;
            const uint32_t ni = u % nTiles;
            Unit(bi, mi * t_.tileM, ni * t_.tileN);
        }
    }

private:
    __aicore__ inline void Unit(uint32_t bi, uint32_t m0, uint32_t n0) {
        const uint32_t rows = t_.m - m0 < t_.tileM ? t_.m - m0 : t_.tileM;
        const uint32_t n = t_.n - n0 < t_.tileN ? t_.n - n0 : t_.tileN;
        const uint64_t aBase = static_cast<uint64_t>(bi) * t_.m * t_.k + static_cast<uint64_t>(m0) * t_.k;
        const uint64_t bBase = static_cast<uint64_t>(bi) * t_.k * t_.n + n0;
        // float: compensated (Kahan) summation over k, so the result is within a few ulp of the
        // exact product whatever K is; int32: plain sums (exact, wrapping like NumPy)
        LocalTensor<T> acc = acc_.Get<T>();
        LocalTensor<T> comp = acc[t_.tileM * t_.tileN];
        LocalTensor<T> y = acc[2 * t_.tileM * t_.tileN];
        LocalTensor<T> tsum = acc[(2 * t_.tileM + 1) * t_.tileN];
        Duplicate(acc, static_cast<T>(0), rows * t_.tileN);
        Duplicate(comp, static_cast<T>(0), rows * t_.tileN);
        for (uint32_t k = 0; k < t_.k; ++k) {
            LocalTensor<T> brow = inB_.AllocTensor<T>();
            CopyIn(brow, bGm_[bBase + static_cast<uint64_t>(k) * t_.n], n);
            inB_.EnQue(brow);
            brow = inB_.DeQue<T>();
            for (uint32_t r = 0; r < rows; ++r) {
                const T av = aGm_.GetValue(aBase + static_cast<uint64_t>(r) * t_.k + k);
                LocalTensor<T> sr = acc[r * t_.tileN];
                Muls(y, brow, av, n);
                if constexpr (IsSame<T, float>::value) {
                    LocalTensor<T> cr = comp[r * t_.tileN];
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
            DataCopy(out, acc[r * t_.tileN], AlignBlock<T>(n));
            outC_.EnQue(out);
            out = outC_.DeQue<T>();
            CopyOut(cGm_[static_cast<uint64_t>(bi) * t_.m * t_.n + static_cast<uint64_t>(m0 + r) * t_.n + n0], out, n);
            outC_.FreeTensor(out);
        }
    }

    TPipe pipe_;
    TQue<QuePosition::VECIN, BUFFER_NUM> inB_;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outC_;
    TBuf<QuePosition::VECCALC> acc_;
    GlobalTensor<T> aGm_, bGm_, cGm_;
    MatmulTiling t_;
    uint32_t unit0_ = 0;
    uint32_t nunits_ = 0;
};

template <typename K>
__aicore__ inline void RunMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling) {
    MatmulTiling t;
    LoadTiling(t, tiling);
    K op;
    op.Init(a, b, c, t);
    op.Process();
}

}  // namespace pyasc_kernels

#define PYASC_MATMUL_KERNEL(PATH, DTYPE, KERNEL)                                                              \
    extern "C" __global__ __aicore__ void matmul_##PATH##_##DTYPE(GM_ADDR a, GM_ADDR b, GM_ADDR c,            \
                                                                  GM_ADDR workspace, GM_ADDR tiling) {       \
        (void)workspace;                                                                                      \
        pyasc_kernels::RunMatmul<KERNEL>(a, b, c, tiling);                                                    \
    }

PYASC_MATMUL_KERNEL(cube, float16, pyasc_kernels::KernelMatmulCube<half>)
PYASC_MATMUL_KERNEL(cube, bfloat16, pyasc_kernels::KernelMatmulCube<bfloat16_t>)
PYASC_MATMUL_KERNEL(vec, float32, pyasc_kernels::KernelMatmulVec<float>)
PYASC_MATMUL_KERNEL(vec, int32, pyasc_kernels::KernelMatmulVec<int32_t>)
