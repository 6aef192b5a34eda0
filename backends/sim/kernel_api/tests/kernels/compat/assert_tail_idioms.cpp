// ASSERT written as the tail of an expression whose `;` was forgotten, as two NPUKernelBench reference answers do
// (backends/sim/kernel_api/COMPAT.md, "Round 19 (study19a)": MseLoss's `this->tileNum = tileNum ASSERT(...);` and
// Lerp's `uint32_t ALIGN_NUM = paramList.ALIGN_NUM` + `ASSERT(ALIGN_NUM != 0 ...);` on the next line).  Our own
// kernel in their style: y = 3 x over n floats in tiles of `tile`, the tile count and the alignment checked by
// such ASSERTs; a bad tile stops the kernel with the ASSERT's condition.
#include "kernel_operator.h"
using namespace AscendC;

class KernelTripleTiles {
public:
    __aicore__ inline KernelTripleTiles() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t tile)
    {
        this->tileLength = tile ASSERT(tile != 0 && "tile can not be zero");
        uint32_t align = tile
        ASSERT(align % 8 == 0 && "tile must hold whole 32-byte blocks");
        this->tileNum = n / align;
        xGm.SetGlobalBuffer((__gm__ float *)x, n);
        yGm.SetGlobalBuffer((__gm__ float *)y, n);
        pipe.InitBuffer(inQueue, 1, this->tileLength * sizeof(float));
        pipe.InitBuffer(outQueue, 1, this->tileLength * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < this->tileNum; ++i) {
            LocalTensor<float> xLocal = inQueue.AllocTensor<float>();
            DataCopy(xLocal, xGm[i * this->tileLength], this->tileLength);
            inQueue.EnQue(xLocal);
            xLocal = inQueue.DeQue<float>();
            LocalTensor<float> yLocal = outQueue.AllocTensor<float>();
            Muls(yLocal, xLocal, 3.0f, this->tileLength);
            outQueue.EnQue(yLocal);
            inQueue.FreeTensor(xLocal);
            yLocal = outQueue.DeQue<float>();
            DataCopy(yGm[i * this->tileLength], yLocal, this->tileLength);
            outQueue.FreeTensor(yLocal);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQueue;
    TQue<QuePosition::VECOUT, 1> outQueue;
    GlobalTensor<float> xGm, yGm;
    uint32_t tileNum = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void assert_tail_triple(GM_ADDR x, GM_ADDR y, uint32_t n, uint32_t tile)
{
    KernelTripleTiles op;
    op.Init(x, y, n, tile);
    op.Process();
}

// The statement forms next to it: with a semicolon, without one before a declaration, and as the body of an if.
extern "C" __global__ __aicore__ void assert_tail_statements(GM_ADDR x, uint32_t n)
{
    ASSERT(n < 100);
    ASSERT(n != 7 && "n must not be 7")
    GlobalTensor<int32_t> xGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(x), 8);
    if (n > 50) ASSERT(n % 2 == 0 && "a large n must be even");
    xGm.SetValue(0, static_cast<int32_t>(n) + 1);
}
