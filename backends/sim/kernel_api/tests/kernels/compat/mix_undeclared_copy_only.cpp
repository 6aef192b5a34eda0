// An undeclared mixed kernel whose vector half computes nothing: each AIV only moves data (GM -> UB -> GM with
// DataCopy) and hands flags to its AIC -- the shape of Catlass kernels whose AIV part is a padding prologue
// (NPUKernelBench level3 OptimizedMatmul: PaddingMatrixBlockND copies A / B into a padded workspace with
// DataCopyPad, then CrossCoreSetFlag<0x2> releases the AIC's matmul).  A UB -> GM copy is an AIV instruction
// (the AIC has no UB), so the NPU compiler's inference sees cube and vector instructions: MIX AIC:AIV 1:2.
// Dispatch by a member template defaulted to g_coreType, built core="mix" (tests/test_sim_compat_mix_inferred.py).
// Per group g: each AIV copies its 16 rows of x[g] (half, 32 x 32) into the workspace and sets flag 3; the AIC
// computes y[g] = ws @ ws (mix_parts::CubePart) and sets flag 4; each AIV then copies its rows of y to out.
#include "mix_undeclared_parts.h"

namespace copy_only {
class VectorCopyPart {
public:
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR out)
    {
        const uint32_t sub = GetSubBlockIdx();
        const uint32_t group = GetBlockIdx() / GetTaskRation();
        const uint32_t rowOffset = group * mix_parts::kLen + sub * mix_parts::kRows * mix_parts::kN;
        const uint32_t count = mix_parts::kRows * mix_parts::kN;
        pipe_.InitBuffer(buf_, count * sizeof(float));
        GlobalTensor<half> xGm, wsGm;
        xGm.SetGlobalBuffer((__gm__ half *)x + rowOffset, count);
        wsGm.SetGlobalBuffer((__gm__ half *)ws + rowOffset, count);
        LocalTensor<half> h = buf_.Get<half>();
        DataCopy(h, xGm, count);
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        DataCopy(wsGm, h, count);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        CrossCoreSetFlag<0x2, PIPE_MTE3>(mix_parts::kFlagW);
        CrossCoreWaitFlag(mix_parts::kFlagY);
        GlobalTensor<float> yGm, outGm;
        yGm.SetGlobalBuffer((__gm__ float *)y + rowOffset, count);
        outGm.SetGlobalBuffer((__gm__ float *)out + rowOffset, count);
        LocalTensor<float> f = buf_.Get<float>();
        DataCopy(f, yGm, count);
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
        DataCopy(outGm, f, count);
    }

private:
    TPipe pipe_;
    TBuf<TPosition::VECCALC> buf_;
};
}  // namespace copy_only

struct CopyOnlyDispatch {
    template <int32_t CORE_TYPE = g_coreType>
    __aicore__ inline void operator()(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR out) {}

    template <>
    __aicore__ inline void operator()<AIC>(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR out)
    {
        mix_parts::CubePart op;
        op.Run(ws, y);
    }

    template <>
    __aicore__ inline void operator()<AIV>(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR out)
    {
        copy_only::VectorCopyPart op;
        op.Run(x, ws, y, out);
    }
};

extern "C" __global__ __aicore__ void mix_undeclared_copy_only(GM_ADDR x, GM_ADDR ws, GM_ADDR y, GM_ADDR out)
{
    CopyOnlyDispatch dispatch;
    dispatch(x, ws, y, out);
}
