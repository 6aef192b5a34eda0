// Ascend C on the CPU -- the L2 cache hint's enums: CacheMode (SetL2CacheHint's argument) and
// CacheRwMode (its template parameter).
//
// Reference page SetL2CacheHint (atlasascendc_api_07_00033; Atlas A2 / A3 / 350): a GlobalTensor uses
// the L2 cache unless SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE) turns it off for that tensor, a
// performance hint for data read once; the template parameter CacheRwMode is reserved (default RW).
// The simulator has no L2 cache, so the hint changes nothing (GlobalTensor::SetL2CacheHint, tensor.h);
// the enums exist so code naming them compiles (NPUKernelBench's GroupedMatmulSliceM turns the cache off
// for a group's B when one tile row covers the group).
//
// ICachePreLoad (reference page atlasascendc_api_07_0276, "ICachePreLoad(ISASI)"; A2 / A3 / 350 and the
// Atlas inference series AI Core): preloads instructions from the DDR address they live at into the
// core's instruction cache, preFetchLen in units of 2 KB (on the 310P AI Core the argument is ignored and
// 128 bytes are fetched).  Instruction fetch is not modelled, so it is a hint that changes no data
// (Qeeweew/vllm-ascend's w4a16_moe calls ICachePreLoad(5) at kernel entry).
#ifndef PYASC_SIM_KAPI_L2_CACHE_H_
#define PYASC_SIM_KAPI_L2_CACHE_H_

#include <cstdint>

namespace AscendC {

enum class CacheMode : uint8_t {
    CACHE_MODE_DISABLE = 0,
    CACHE_MODE_NORMAL = 1,
};

enum CacheRwMode {
    READ = 1,
    WRITE = 2,
    RW = 3,
};

inline void ICachePreLoad(const int64_t preFetchLen) { (void)preFetchLen; }

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_L2_CACHE_H_
