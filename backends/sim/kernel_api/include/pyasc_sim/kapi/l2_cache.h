// Ascend C on the CPU -- the L2 cache hint's enums: CacheMode (SetL2CacheHint's argument) and
// CacheRwMode (its template parameter).
//
// Reference page SetL2CacheHint (atlasascendc_api_07_00033; Atlas A2 / A3 / 350): a GlobalTensor uses
// the L2 cache unless SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE) turns it off for that tensor, a
// performance hint for data read once; the template parameter CacheRwMode is reserved (default RW).
// The simulator has no L2 cache, so the hint changes nothing (GlobalTensor::SetL2CacheHint, tensor.h);
// the enums exist so code naming them compiles (NPUKernelBench's GroupedMatmulSliceM turns the cache off
// for a group's B when one tile row covers the group).
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

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_L2_CACHE_H_
