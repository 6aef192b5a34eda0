// Cube tiles with never-written tails, in the style of Catlass-like Gemm kernels: the L1 tiles of A and B are
// allocated for a whole mTile x k / k x nTile block, a tail block copies in only its m rows / n columns, and the
// whole tile goes through L0A / L0B and Mmad; only the m x n corner of the product that was written is stored.
// Hardware gives the right result; the sanitizer carries the never-written fractals through LoadData and Mmad
// and reports only a store of a product that depends on them (kapi/cube_taint.h).  Our own kernel
// (tests/test_sim_cube_taint.py).
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr uint32_t kFrac = 16;

// GM (ND rows x cols half, row pitch srcCols) -> L1 NZ of a tile with tileRows rows per column fractal.
__aicore__ inline void GmToL1Tile(const LocalTensor<half> &dst, const GlobalTensor<half> &src, uint16_t rows,
                                  uint16_t cols, uint16_t tileRows)
{
    Nd2NzParams p;
    p.ndNum = 1;
    p.nValue = rows;
    p.dValue = cols;
    p.srcDValue = cols;
    p.dstNzC0Stride = tileRows;
    p.dstNzNStride = 1;
    DataCopy(dst, src, p);
}

// L1 NZ (rowFracs x colFracs fractals) -> L0A (Zz), or -> L0B (Zn, each fractal transposed).
__aicore__ inline void L1ToL0(const LocalTensor<half> &dst, const LocalTensor<half> &src, uint16_t rowFracs,
                              uint16_t colFracs, bool transpose)
{
    for (uint16_t i = 0; i < rowFracs; ++i) {
        LoadData2dParams p;
        p.repeatTimes = colFracs;
        p.srcStride = rowFracs;
        p.ifTranspose = transpose;
        LoadData(dst[i * colFracs * 256], src[i * 256], p);
    }
}

}  // namespace

// y (storeRows x storeCols float, row pitch storeCols) = the corner of A_tile @ B_tile, where A_tile is
// mTile x k with only its first m rows written and B_tile k x nTile with only its first n columns written.
// shape: m, k, n, mTile, nTile, storeRows, storeCols (multiples of 16, m <= mTile, n <= nTile).
extern "C" __global__ __aicore__ void tail_tile_mm(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR shape)
{
    GlobalTensor<uint32_t> shapeGm;
    shapeGm.SetGlobalBuffer((__gm__ uint32_t *)shape, 7);
    const uint16_t m = shapeGm.GetValue(0), k = shapeGm.GetValue(1), n = shapeGm.GetValue(2);
    const uint16_t mTile = shapeGm.GetValue(3), nTile = shapeGm.GetValue(4);
    const uint16_t storeRows = shapeGm.GetValue(5), storeCols = shapeGm.GetValue(6);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> yGm;
    aGm.SetGlobalBuffer((__gm__ half *)a, m * k);
    bGm.SetGlobalBuffer((__gm__ half *)b, k * n);
    yGm.SetGlobalBuffer((__gm__ float *)y, storeRows * storeCols);

    TPipe pipe;
    TQue<QuePosition::A1, 1> a1Q;
    TQue<QuePosition::B1, 1> b1Q;
    TQue<QuePosition::A2, 1> a2Q;
    TQue<QuePosition::B2, 1> b2Q;
    TQue<QuePosition::CO1, 1> c1Q;
    pipe.InitBuffer(a1Q, 1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(b1Q, 1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(a2Q, 1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(b2Q, 1, 64 * 64 * sizeof(half));
    pipe.InitBuffer(c1Q, 1, 64 * 64 * sizeof(float));

    LocalTensor<half> aL1 = a1Q.AllocTensor<half>();
    GmToL1Tile(aL1, aGm, m, k, mTile);  // rows m .. mTile of every column fractal never written
    a1Q.EnQue(aL1);
    LocalTensor<half> bL1 = b1Q.AllocTensor<half>();
    GmToL1Tile(bL1, bGm, k, n, k);  // column fractals n / 16 .. nTile / 16 never written
    b1Q.EnQue(bL1);
    aL1 = a1Q.DeQue<half>();
    LocalTensor<half> aL0 = a2Q.AllocTensor<half>();
    L1ToL0(aL0, aL1, mTile / kFrac, k / kFrac, false);  // the whole tile
    a1Q.FreeTensor(aL1);
    a2Q.EnQue(aL0);
    bL1 = b1Q.DeQue<half>();
    LocalTensor<half> bL0 = b2Q.AllocTensor<half>();
    L1ToL0(bL0, bL1, k / kFrac, nTile / kFrac, true);
    b1Q.FreeTensor(bL1);
    b2Q.EnQue(bL0);
    aL0 = a2Q.DeQue<half>();
    bL0 = b2Q.DeQue<half>();
    LocalTensor<float> c = c1Q.AllocTensor<float>();
    Mmad(c, aL0, bL0, {mTile, nTile, k, false, 0, false, false, false});
    a2Q.FreeTensor(aL0);
    b2Q.FreeTensor(bL0);
    c1Q.EnQue(c);
    c = c1Q.DeQue<float>();
    FixpipeParamsV220 fp(storeCols, storeRows, mTile, storeCols, false);
    // stores the corner: local-uninit-read when it reaches past the m rows / n columns written
    Fixpipe(yGm, c, fp);  // BAD(stored-tail)
    c1Q.FreeTensor(c);
}
