// Two SDK facts public kernels rely on (tests/test_sim_compat_transpose_divceil.py):
//
// * the common 16 x 16 Transpose(dst, src) on bfloat16_t tiles, as attention kernels transpose a bf16
//   block in the Unified Buffer: the reference lists uint16_t / int16_t / half for that form, but the
//   SDK's type check is a CPU-debug assertion and the instruction moves 16-bit words, so the NPU compiles
//   it and transposes the bits (the simulator: the same result and the warning dtype-unlisted);
// * AscendC::DivCeil(uint32_t, uint32_t), the SDK's kernel-side ceiling division, called unqualified
//   under `using namespace AscendC` -- next to a kernel's own global template of the same name, which
//   stays the better match for 64-bit arguments.
//
// Layout (transpose): x and y hold `tiles` 16 x 16 tiles of T, row-major, one after the other.
#include "kernel_operator.h"
using namespace AscendC;

// A kernel's own helper of the same name (many public kernels carry one): exact for int64_t arguments,
// so those calls resolve here, not to AscendC::DivCeil(uint32_t, uint32_t).
template <typename T>
__aicore__ inline T DivCeil(T a, T b)
{
    return b == 0 ? T(0) : (a + b - 1) / b;
}

namespace {

constexpr uint32_t kTileElems = 16 * 16;

template <typename T>
class TileTranspose {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t tiles)
    {
        this->tiles = tiles;
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(x), tiles * kTileElems);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ T *>(y), tiles * kTileElems);
        pipe.InitBuffer(inQueue, 2, kTileElems * sizeof(T));
        pipe.InitBuffer(outQueue, 2, kTileElems * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t t = 0; t < tiles; ++t) {
            LocalTensor<T> in = inQueue.AllocTensor<T>();
            DataCopy(in, xGm[t * kTileElems], kTileElems);
            inQueue.EnQue(in);
            in = inQueue.DeQue<T>();
            LocalTensor<T> out = outQueue.AllocTensor<T>();
            Transpose(out, in);  // BAD(transpose)
            inQueue.FreeTensor(in);
            outQueue.EnQue(out);
            out = outQueue.DeQue<T>();
            DataCopy(yGm[t * kTileElems], out, kTileElems);
            outQueue.FreeTensor(out);
        }
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 2> inQueue;
    TQue<TPosition::VECOUT, 2> outQueue;
    GlobalTensor<T> xGm, yGm;
    uint32_t tiles = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void transpose_bf16_tiles(GM_ADDR x, GM_ADDR y, uint32_t tiles)
{
    TileTranspose<bfloat16_t> op;
    op.Init(x, y, tiles);
    op.Process();
}

extern "C" __global__ __aicore__ void transpose_u16_tiles(GM_ADDR x, GM_ADDR y, uint32_t tiles)
{
    TileTranspose<uint16_t> op;
    op.Init(x, y, tiles);
    op.Process();
}

// out[0] = DivCeil(total, tile) on uint32_t (AscendC's), out[1] the same at compile time,
// out[2] = DivCeil(bigTotal, bigTile) on int64_t (the kernel's own template: 0 for a zero tile),
// out[3] = AscendC::DivCeil(bigTotal, bigTile) qualified (64-bit arguments convert to uint32_t; -1 for a zero
// bigTile).
// With zeroTile != 0 the uint32_t call divides by zero.
extern "C" __global__ __aicore__ void div_ceil_values(GM_ADDR out, uint32_t total, uint32_t tile, int64_t bigTotal,
                                                      int64_t bigTile, uint32_t zeroTile)
{
    GlobalTensor<int64_t> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t *>(out), 4);
    constexpr uint32_t kBlocks = DivCeil(100u, 32u);
    static_assert(kBlocks == 4, "DivCeil is constexpr");
    const uint32_t divisor = zeroTile != 0 ? 0u : tile;
    outGm.SetValue(0, static_cast<int64_t>(DivCeil(total, divisor)));  // BAD(div-ceil-zero)
    outGm.SetValue(1, static_cast<int64_t>(kBlocks));
    outGm.SetValue(2, DivCeil(bigTotal, bigTile));
    outGm.SetValue(3, bigTile == 0 ? -1 : static_cast<int64_t>(AscendC::DivCeil(bigTotal, bigTile)));
}
