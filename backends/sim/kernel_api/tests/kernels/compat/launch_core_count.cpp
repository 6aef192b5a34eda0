// A kernel-launch source whose host launcher sizes the launch from the cores the calling thread may
// use (aclrtGetResInCurrentThread, as collective libraries do) and whose kernel is instantiated for
// the toolchain's float64_t, as collectives switch on a double data type.
// ccopy<T>(x, y, n): y = x on n elements of T, split over the launch's blocks (the last block takes
// the remainder), GM -> UB -> GM with DataCopyPad.
#include <acl/acl_rt.h>
#include "kernel_operator.h"

template <typename T>
__aicore__ inline void CopyRange(GM_ADDR x, GM_ADDR y, uint64_t n)
{
    const uint64_t per = n / AscendC::GetBlockNum();
    const uint64_t start = per * AscendC::GetBlockIdx();
    const uint64_t count = AscendC::GetBlockIdx() == AscendC::GetBlockNum() - 1 ? n - start : per;
    if (count == 0) {
        return;
    }
    AscendC::GlobalTensor<T> xg, yg;
    xg.SetGlobalBuffer((__gm__ T *)x + start, count);
    yg.SetGlobalBuffer((__gm__ T *)y + start, count);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, (count * sizeof(T) + 31) / 32 * 32);
    AscendC::LocalTensor<T> t = buf.Get<T>();
    AscendC::DataCopyExtParams params(1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0);
    AscendC::DataCopyPadExtParams<T> pad;
    AscendC::DataCopyPad(t, xg, params, pad);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopyPad(yg, t, params);
}

extern "C" __global__ __aicore__ void ccopy(GM_ADDR x, GM_ADDR y, uint64_t n, int isDouble)
{
    if (isDouble) {
        CopyRange<float64_t>(x, y, n);
    } else {
        CopyRange<float32_t>(x, y, n);
    }
}

// Host launcher: one block per vector core the thread may use; returns the block count launched, or
// a negative ACL error.
int64_t ccopy_do(void *stream, uint8_t *x, uint8_t *y, uint64_t n, int isDouble)
{
    uint32_t blockDim = 0;
    aclError ret = aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &blockDim);
    if (ret != ACL_SUCCESS) {
        return -static_cast<int64_t>(ret);
    }
    ccopy<<<blockDim, nullptr, stream>>>(x, y, n, isDouble);
    return blockDim;
}
