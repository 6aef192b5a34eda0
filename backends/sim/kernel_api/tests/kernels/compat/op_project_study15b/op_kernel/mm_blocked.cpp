// Our own op-project kernels in the style of the round-15 public retrieval kernels (IndexSDK matmul_at_fp32,
// ascendc_ivfpq_subspace_distance): `using namespace matmul;` alone (CANN's namespace matmul brings AscendC's
// names in, so GetBlockIdx() / GetSysWorkSpacePtr() / TPipe / TQue resolve unqualified), a block split of C over
// the cores from the TCubeTiling, and an operator class that keeps a copy of the kernel's pipe
// (`this->pipe = *tPipe;`).
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace matmul;

__aicore__ inline uint32_t CeilBlocks(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

class MmBlocked {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling &t)
    {
        tiling = t;
        uint32_t mBlocks = CeilBlocks(t.M, t.singleCoreM);
        uint32_t mIdx = GetBlockIdx() % mBlocks;
        uint32_t nIdx = GetBlockIdx() / mBlocks;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(a) + mIdx * t.singleCoreM * t.Ka);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(b) + nIdx * t.singleCoreN);
        cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c) + mIdx * t.singleCoreM * t.N + nIdx * t.singleCoreN);
    }
    __aicore__ inline void Process()
    {
        if (GetSysWorkSpacePtr() == nullptr) {
            return;
        }
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm);
        mm.IterateAll(cGm);
        mm.End();
    }

    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;

private:
    TCubeTiling tiling;
    GlobalTensor<float> aGm, bGm, cGm;
};

extern "C" __global__ __aicore__ void mm_blocked(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    TPipe pipe;
    MmBlocked op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTiling);
    op.Init(a, b, c, tilingData.cubeTiling);
    op.Process();
}

// y = 2 x through a queue of a pipe the operator copied from the kernel's pipe; the copy starts allocating
// where the kernel's pipe stood (after its 32-byte scratch TBuf), and GetTPipePtr() stays the pipe the
// latest constructor made.
class ScaleWithPipeCopy {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n, TPipe *tPipe)
    {
        this->pipe = *tPipe;
        this->n = n;
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + GetBlockIdx() * n, n);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + GetBlockIdx() * n, n);
        pipe.InitBuffer(inQue, 1, n * sizeof(float));
        pipe.InitBuffer(outQue, 1, n * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<float> xl = inQue.AllocTensor<float>();
        DataCopy(xl, xGm, n);
        inQue.EnQue(xl);
        xl = inQue.DeQue<float>();
        LocalTensor<float> yl = outQue.AllocTensor<float>();
        Muls(yl, xl, 2.0f, n);
        outQue.EnQue(yl);
        inQue.FreeTensor(xl);
        yl = outQue.DeQue<float>();
        DataCopy(yGm, yl, n);
        outQue.FreeTensor(yl);
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQue;
    TQue<TPosition::VECOUT, 1> outQue;
    GlobalTensor<float> xGm, yGm;
    uint32_t n = 0;
};

extern "C" __global__ __aicore__ void scale_pipe_copy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    TPipe tPipe;
    TBuf<TPosition::VECCALC> scratch;
    tPipe.InitBuffer(scratch, 32);
    ScaleWithPipeCopy op;
    op.Init(x, y, tilingData.scaleRows, &tPipe);
    op.Process();
}

// Squared row norms in the style of IndexSDK's ascendc_l2_norm: int8 rows moved ND -> NZ into a user-managed
// L1 buffer (TSCM), multiplied with themselves as A and as transposed NZ B (x x^T), the half result written NZ
// into a local tensor by a synchronous IterateAll, then the diagonal 16 x 16 fractals picked with one strided
// DataCopy and each row's diagonal element summed out of its fractal row under a one-hot mask.
class RowNormsNz {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR onehot, GM_ADDR y, uint32_t dim, const TCubeTiling &t)
    {
        tiling = t;
        this->dim = dim;
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t *>(x) + GetBlockIdx() * t.M * dim);
        maskGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(onehot), t.M * 16);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(y) + GetBlockIdx() * t.M, t.M);
        pipe.InitBuffer(l1Que, 1, t.M * dim);
        pipe.InitBuffer(cBuf, t.M * t.M * sizeof(half));
        pipe.InitBuffer(diagBuf, t.M * 16 * sizeof(half));
        pipe.InitBuffer(maskQue, 1, t.M * 16 * sizeof(half));
        pipe.InitBuffer(outQue, 1, t.M * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        LocalTensor<int8_t> xl = l1Que.AllocTensor<int8_t>();
        Nd2NzParams nd2nz{1, static_cast<uint16_t>(tiling.M), static_cast<uint16_t>(dim), 0,
                          static_cast<uint16_t>(dim), static_cast<uint16_t>(tiling.M), 1, 0};
        DataCopy(xl, xGm, nd2nz);
        l1Que.EnQue(xl);
        xl = l1Que.DeQue<int8_t>();
        LocalTensor<half> c = cBuf.Get<half>();
        mm.SetTensorA(xl);
        mm.SetTensorB(xl, true);
        mm.IterateAll(c);
        mm.End();
        l1Que.FreeTensor(xl);

        LocalTensor<half> diag = diagBuf.Get<half>();
        DataCopyParams pick{static_cast<uint16_t>(tiling.M / 16), 16, static_cast<uint16_t>(tiling.M), 0};
        DataCopy(diag, c, pick);
        LocalTensor<half> mask = maskQue.AllocTensor<half>();
        DataCopy(mask, maskGm, tiling.M * 16);
        maskQue.EnQue(mask);
        mask = maskQue.DeQue<half>();
        Mul(diag, diag, mask, tiling.M * 16);
        LocalTensor<half> out = outQue.AllocTensor<half>();
        WholeReduceSum<half>(out, diag, 16, tiling.M, 1, 1, 1);
        outQue.EnQue(out);
        maskQue.FreeTensor(mask);
        out = outQue.DeQue<half>();
        DataCopy(yGm, out, tiling.M);
        outQue.FreeTensor(out);
    }

    Matmul<MatmulType<TPosition::TSCM, CubeFormat::NZ, int8_t>, MatmulType<TPosition::TSCM, CubeFormat::NZ, int8_t, true>,
           MatmulType<TPosition::LCM, CubeFormat::NZ, half>> mm;

private:
    TPipe pipe;
    TCubeTiling tiling;
    uint32_t dim = 0;
    TSCM<TPosition::GM, 1> l1Que;
    TBuf<TPosition::VECCALC> cBuf, diagBuf;
    TQue<TPosition::VECIN, 1> maskQue;
    TQue<TPosition::VECOUT, 1> outQue;
    GlobalTensor<int8_t> xGm;
    GlobalTensor<half> maskGm, yGm;
};

extern "C" __global__ __aicore__ void row_norms_nz(GM_ADDR x, GM_ADDR onehot, GM_ADDR y, GM_ADDR workspace,
                                                   GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    RowNormsNz op;
    op.Init(x, onehot, y, tilingData.scaleRows, tilingData.cubeTiling);
    TPipe *pipe = GetTPipePtr();
    REGIST_MATMUL_OBJ(pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTiling);
    op.Process();
}
