// Our own mixed (AIC:AIV = 1:2) kernel in the style of IndexSDK's rotate_and_l2_at_fp32: each vector core
// records the NPU compiler's builtins get_block_idx() / get_block_num() / get_subblockid() / get_subblockdim(),
// the CPU-debug global block_idx and the documented GetBlockIdx() / GetBlockNum(), 8 int32 per vector core.
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void subblock_ids(GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV {
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 8 * sizeof(int32_t));
        LocalTensor<int32_t> ids = buf.Get<int32_t>();
        int32_t vid = static_cast<int32_t>(get_block_idx() * get_subblockdim() + get_subblockid());
        ids.SetValue(0, static_cast<int32_t>(get_block_idx()));
        ids.SetValue(1, static_cast<int32_t>(get_block_num()));
        ids.SetValue(2, static_cast<int32_t>(get_subblockid()));
        ids.SetValue(3, static_cast<int32_t>(get_subblockdim()));
        ids.SetValue(4, static_cast<int32_t>(static_cast<int64_t>(block_idx)));
        ids.SetValue(5, static_cast<int32_t>(GetBlockIdx()));
        ids.SetValue(6, static_cast<int32_t>(GetBlockNum()));
        ids.SetValue(7, vid);
        SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
        GlobalTensor<int32_t> outGm;
        outGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(out) + vid * 8, 8);
        DataCopy(outGm, ids, 8);
    }
}
