// DataCopyEnhancedParams as generated public kernels spell it (kernel_api/COMPAT.md, round 10b):
// a positional braced list in the documented member order {blockMode, deqScale, deqValue,
// sidStoreMode, isRelu, padMode, padValue} with AscendC::DeqScale::DEQ_NONE and the global-scope
// pad_t::PAD_NONE, no `using namespace AscendC`. Written for pyasc in the style of those kernels.
#include "kernel_operator.h"

// y = 3 * x (n floats, n a multiple of 8) through the enhanced GM <-> UB DataCopy forms (the enhanced
// parameters take no effect on these paths); fields[0..5] = the members the braced list filled.
extern "C" __global__ __aicore__ void enhanced_params_scale(GM_ADDR x, GM_ADDR y, GM_ADDR fields, uint32_t n)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    AscendC::DataCopyEnhancedParams enhance({AscendC::BlockMode::BLOCK_MODE_NORMAL, AscendC::DeqScale::DEQ_NONE, 7, 1,
                                             true, pad_t::PAD_NONE, 5});
    AscendC::GlobalTensor<float> xGm, yGm;
    AscendC::GlobalTensor<int32_t> fGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n);
    fGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(fields), 8);
    AscendC::LocalTensor<float> t = buf.Get<float>();
    AscendC::DataCopy(t, xGm, {(uint16_t)1, (uint16_t)(n / 8), (uint16_t)0, (uint16_t)0}, enhance);
    AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(0);
    AscendC::Muls(t, t, 3.0f, n);
    AscendC::SetFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::WaitFlag<AscendC::HardEvent::V_MTE3>(0);
    AscendC::DataCopy(yGm, t, {(uint16_t)1, (uint16_t)(n / 8), (uint16_t)0, (uint16_t)0}, enhance);
    fGm.SetValue(0, static_cast<int32_t>(enhance.blockMode));
    fGm.SetValue(1, static_cast<int32_t>(enhance.deqScale));
    fGm.SetValue(2, static_cast<int32_t>(enhance.deqValue));
    fGm.SetValue(3, static_cast<int32_t>(enhance.sidStoreMode));
    fGm.SetValue(4, static_cast<int32_t>(enhance.isRelu));
    fGm.SetValue(5, static_cast<int32_t>(enhance.padMode));
    fGm.SetValue(6, static_cast<int32_t>(enhance.padValue));
    fGm.SetValue(7, static_cast<int32_t>(enhance.deqTensorAddr));
}
