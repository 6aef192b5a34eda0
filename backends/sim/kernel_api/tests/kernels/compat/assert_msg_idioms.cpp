// ASSERT_MSG(cond, fmt, args...), the SDK's kernel-side assert with a message, as public kernels check their
// inputs before they move data (tests/test_sim_compat_assert_msg.py): a row gather that copies source rows
// picked by an index list into consecutive destination rows, through a VECIN -> VECOUT bound queue.
//
// Layout: src holds srcRows rows of kRowElems floats, idx holds count int32_t row numbers, dst count rows.
// Blocks take the rows i = blockIdx, blockIdx + blockNum, ...
#include "kernel_operator.h"
using namespace AscendC;

namespace {

constexpr uint32_t kRowElems = 64;

class RowGather {
public:
    __aicore__ inline void Init(GM_ADDR src, GM_ADDR idx, GM_ADDR dst, uint32_t srcRows, uint32_t cap, int32_t count)
    {
        ASSERT_MSG(count >= 0 && count <= static_cast<int32_t>(cap),  // BAD(count)
                   "copy count must be within [0, copy capacity].");
        this->srcRows = srcRows;
        this->count = count;
        srcGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(src), srcRows * kRowElems);
        idxGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(idx), cap);
        dstGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(dst), cap * kRowElems);
        pipe.InitBuffer(rowQueue, 2, kRowElems * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = static_cast<int32_t>(GetBlockIdx()); i < count; i += static_cast<int32_t>(GetBlockNum())) {
            const int32_t row = idxGm.GetValue(i);
            ASSERT_MSG(row >= 0 && static_cast<uint32_t>(row) < srcRows,  // BAD(index)
                       "entry %d: source row %d is outside [0, %u)\n", i, row, srcRows);
            LocalTensor<float> t = rowQueue.AllocTensor<float>();
            DataCopy(t, srcGm[static_cast<uint64_t>(row) * kRowElems], kRowElems);
            rowQueue.EnQue(t);
            t = rowQueue.DeQue<float>();
            DataCopy(dstGm[static_cast<uint64_t>(i) * kRowElems], t, kRowElems);
            rowQueue.FreeTensor(t);
        }
    }

private:
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 2> rowQueue;
    GlobalTensor<float> srcGm, dstGm;
    GlobalTensor<int32_t> idxGm;
    uint32_t srcRows = 0;
    int32_t count = 0;
};

}  // namespace

extern "C" __global__ __aicore__ void assert_msg_row_gather(GM_ADDR src, GM_ADDR idx, GM_ADDR dst, uint32_t srcRows,
                                                            uint32_t cap, int32_t count)
{
    RowGather op;
    op.Init(src, idx, dst, srcRows, cap, count);
    op.Process();
}

// The statement form in an if / else without braces (the SDK's expansion is one `do { } while (0)` statement)
// and a false condition that is never reached: out[0] = 1 if x > 0, else out[0] = 2.
extern "C" __global__ __aicore__ void assert_msg_statement(GM_ADDR out, int32_t x)
{
    GlobalTensor<int32_t> outGm;
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out), 8);
    if (x > 0)
        ASSERT_MSG(x > 0, "x must be positive");
    else
        ASSERT_MSG(x <= 0, "unreachable");
    outGm.SetValue(0, x > 0 ? 1 : 2);
}
