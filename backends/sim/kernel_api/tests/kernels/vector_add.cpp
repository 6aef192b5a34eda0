// z = x + y, Ascend C style: multi-core split, double-buffered tiles, and a tail that is
// not a multiple of 32 bytes moved with DataCopyPad.  One template, two kernels (float, half).
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;

template <typename T>
class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileLength)
    {
        // Every block but the last gets a whole number of 32-byte blocks; the last one the rest.
        constexpr uint32_t perBlock = 32 / sizeof(T);
        const uint32_t blockNum = GetBlockNum();
        uint32_t share = (totalLength + blockNum - 1) / blockNum;
        share = (share + perBlock - 1) / perBlock * perBlock;
        const uint32_t start = share * GetBlockIdx();
        this->blockLength = start >= totalLength ? 0 : (totalLength - start < share ? totalLength - start : share);
        this->tileLength = tileLength;
        xGm.SetGlobalBuffer((__gm__ T *)x + start, this->blockLength);
        yGm.SetGlobalBuffer((__gm__ T *)y + start, this->blockLength);
        zGm.SetGlobalBuffer((__gm__ T *)z + start, this->blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, tileLength * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, tileLength * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        const uint32_t tiles = blockLength / tileLength;
        for (uint32_t i = 0; i < tiles; i++) {
            CopyIn(i * tileLength, tileLength);
            Compute(tileLength);
            CopyOut(i * tileLength, tileLength);
        }
        const uint32_t tail = blockLength - tiles * tileLength;
        if (tail > 0) {
            CopyIn(tiles * tileLength, tail);
            Compute(tail);
            CopyOut(tiles * tileLength, tail);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t offset, uint32_t count)
    {
        LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
        if ((count * sizeof(T)) % 32 == 0) {
            DataCopy(xLocal, xGm[offset], count);
            DataCopy(yLocal, yGm[offset], count);
        } else {
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
            DataCopyPadExtParams<T> padParams{true, 0, 0, 0};
            DataCopyPad(xLocal, xGm[offset], copyParams, padParams);
            DataCopyPad(yLocal, yGm[offset], copyParams, padParams);
        }
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(uint32_t count)
    {
        LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        Add(zLocal, xLocal, yLocal, count);
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(uint32_t offset, uint32_t count)
    {
        LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
        if ((count * sizeof(T)) % 32 == 0) {
            DataCopy(zGm[offset], zLocal, count);
        } else {
            DataCopyExtParams copyParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0};
            DataCopyPad(zGm[offset], zLocal, copyParams);
        }
        outQueueZ.FreeTensor(zLocal);
    }

    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    GlobalTensor<T> xGm, yGm, zGm;
    uint32_t blockLength = 0;
    uint32_t tileLength = 0;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength,
                                                 uint32_t tileLength)
{
    KernelAdd<float> op;
    op.Init(x, y, z, totalLength, tileLength);
    op.Process();
}

extern "C" __global__ __aicore__ void add_custom_half(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength,
                                                      uint32_t tileLength)
{
    KernelAdd<half> op;
    op.Init(x, y, z, totalLength, tileLength);
    op.Process();
}
