// Two idioms of vllm-ascend fork kernels (backends/sim/kernel_api/COMPAT.md, "Round 34 (s34c)"): time-stamp marks
// with AscendC::PrintTimeStamp around a kernel's phases (yyz3172's turboquant_pack_kv_for_cache_fused), and a
// MatmulConfig written as a positional braced list in the documented member order (yyz3172's
// turboquant_rotate_matmul_probe spells the MDL template as 19 values).  Our own kernel in that style: each block
// doubles its share of x with a mark before and after, and block 0 writes three members of the positional config.
// Built with -DASCENDC_TIME_STAMP_ON (the marks print); without it PrintTimeStamp does nothing.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

constexpr uint32_t STAMP_TILE = 64;
constexpr uint32_t STAMP_BASE_ID = 0x10000;  // ids up to 0xffff are reserved for Ascend C itself (the page)

// doNorm, doBasicBlock, doMultiDataLoad, basicM, basicN, basicK, intrinsicsCheck, isNBatch, enVecND2NZ,
// doSpecialBasicBlock, doMTE2Preload, singleCoreM, singleCoreN, singleCoreK, stepM, stepN, baseMN, singleCoreMN,
// enUnitFlag
constexpr MatmulConfig kStampMdlCfg{false, false, true, 16, 32, 48, false, false, false, false, 2,
                                    0, 0, 0, 0, 0, 0, 0, true};

extern "C" __global__ __aicore__ void stamp_double(GM_ADDR x, GM_ADDR y, GM_ADDR cfg)
{
    PrintTimeStamp(STAMP_BASE_ID + 1);
    const uint32_t offset = GetBlockIdx() * STAMP_TILE;
    GlobalTensor<float> xGm;
    GlobalTensor<float> yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x) + offset, STAMP_TILE);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y) + offset, STAMP_TILE);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, STAMP_TILE * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, STAMP_TILE);
    event_t loaded = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(loaded);
    WaitFlag<HardEvent::MTE2_V>(loaded);
    Muls(t, t, 2.0f, STAMP_TILE);
    event_t computed = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_MTE3));
    SetFlag<HardEvent::V_MTE3>(computed);
    WaitFlag<HardEvent::V_MTE3>(computed);
    DataCopy(yGm, t, STAMP_TILE);
    if (GetBlockIdx() == 0) {
        GlobalTensor<uint32_t> cfgGm;
        cfgGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint32_t *>(cfg), 8);
        cfgGm.SetValue(0, kStampMdlCfg.doMultiDataLoad ? 1U : 0U);
        cfgGm.SetValue(1, kStampMdlCfg.doNorm ? 1U : 0U);
        cfgGm.SetValue(2, kStampMdlCfg.basicK);
        cfgGm.SetValue(3, kStampMdlCfg.doMTE2Preload);
        cfgGm.SetValue(4, kStampMdlCfg.enUnitFlag ? 1U : 0U);
    }
    PipeBarrier<PIPE_ALL>();
    PrintTimeStamp(STAMP_BASE_ID + 2);
}
