// platform/platform_info.h -- the SDK header of CANN's platform-information manager, which op projects' host
// tiling headers include (NPUKernelBench's ForeachNonFiniteCheckAndUnscale).  On pyasc_sim only the type names a
// host header may mention exist (fe::PlatFormInfos, fe::OptionalInfos: empty classes); the kernel build that
// includes such a header never queries the platform (host tiling code runs on the host, not in the kernel).
#ifndef PYASC_SIM_SDK_PLATFORM_PLATFORM_INFO_H_
#define PYASC_SIM_SDK_PLATFORM_PLATFORM_INFO_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "platform/platform_infos_def.h"

namespace fe {
class OptionalInfos {};
}  // namespace fe

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_PLATFORM_PLATFORM_INFO_H_
