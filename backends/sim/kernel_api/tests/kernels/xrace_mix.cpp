// Cross-core races inside one mixed block (KERNEL_TYPE_MIX_AIC_1_2): the AIC and the two AIVs of an AI
// Core run their own instruction streams, so two of them meeting in GM need the same ordering as two
// blocks (here the cross-core flags of a mixed kernel: each AIV sets, the AIC waits for both, then
// sets for both). In the style of public mixed kernels whose AIVs share a per-core GM workspace
// (kernel_api/COMPAT.md "Round 28 (s28b)": mamba-ascendc's chunk_scan_bwd_diag_state).
//
// Each AIV v (= GetBlockIdx(): group * 2 + sub-block) doubles its 64-float tile of x into the group's
// workspace, then reads its partner's tile (v ^ 1) back: y[v] = 2 x[v] + 2 x[v ^ 1].
//   xrace_mix_no_sync: nothing between the store and the partner's read (planted BAD lines);
//   xrace_mix_flag:    AIV -> CrossCoreSetFlag<0x2> -> AIC waits for both -> CrossCoreSetFlag<0x2> ->
//                      both AIVs wait: clean.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t TILE = 64;
constexpr uint16_t FLAG_STORED = 0x8;
constexpr uint16_t FLAG_GO = 0x9;

class MixPartnerSum {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR work) {
        const uint32_t v = GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ float *)x + v * TILE, TILE);
        yGm.SetGlobalBuffer((__gm__ float *)y + v * TILE, TILE);
        ownGm.SetGlobalBuffer((__gm__ float *)work + v * TILE, TILE);
        partnerGm.SetGlobalBuffer((__gm__ float *)work + (v ^ 1U) * TILE, TILE);
        pipe.InitBuffer(inQue, 1, TILE * sizeof(float));
        pipe.InitBuffer(outQue, 1, TILE * sizeof(float));
    }
    __aicore__ inline void Store() {
        LocalTensor<float> in = inQue.AllocTensor<float>();
        DataCopy(in, xGm, TILE);
        inQue.EnQue(in);
        in = inQue.DeQue<float>();
        LocalTensor<float> out = outQue.AllocTensor<float>();
        Muls(out, in, 2.0f, TILE);
        inQue.FreeTensor(in);
        outQue.EnQue(out);
        out = outQue.DeQue<float>();
        DataCopy(ownGm, out, TILE);  // BAD(mix-race-writer)
        outQue.FreeTensor(out);
    }
    __aicore__ inline void AddPartner() {
        LocalTensor<float> own = inQue.AllocTensor<float>();
        DataCopy(own, ownGm, TILE);
        inQue.EnQue(own);
        own = inQue.DeQue<float>();
        LocalTensor<float> other = outQue.AllocTensor<float>();
        DataCopy(other, partnerGm, TILE);  // BAD(mix-race-reader)
        outQue.EnQue(other);
        other = outQue.DeQue<float>();
        Add(other, other, own, TILE);
        inQue.FreeTensor(own);
        outQue.EnQue(other);
        other = outQue.DeQue<float>();
        DataCopy(yGm, other, TILE);
        outQue.FreeTensor(other);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQue;
    TQue<QuePosition::VECOUT, 1> outQue;
    GlobalTensor<float> xGm, yGm, ownGm, partnerGm;
};
}  // namespace

// The AIVs store, (ORDERED: signal the AIC, which waits for both and signals back,) then read the partner's tile.
template <bool ORDERED>
__aicore__ inline void PartnerSum(GM_ADDR x, GM_ADDR y, GM_ADDR work)
{
    if ASCEND_IS_AIV {
        MixPartnerSum op;
        op.Init(x, y, work);
        op.Store();
        if constexpr (ORDERED) {
            CrossCoreSetFlag<0x2, PIPE_MTE3>(FLAG_STORED);
            CrossCoreWaitFlag(FLAG_GO);
        }
        op.AddPartner();
    }
    if constexpr (ORDERED) {
        if ASCEND_IS_AIC {
            CrossCoreWaitFlag(FLAG_STORED);
            CrossCoreSetFlag<0x2, PIPE_FIX>(FLAG_GO);
        }
    }
}

extern "C" __global__ __aicore__ void xrace_mix_no_sync(GM_ADDR x, GM_ADDR y, GM_ADDR work)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    PartnerSum<false>(x, y, work);
}

extern "C" __global__ __aicore__ void xrace_mix_flag(GM_ADDR x, GM_ADDR y, GM_ADDR work)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    PartnerSum<true>(x, y, work);
}
