// platform/platform_infos_def.h -- fe::PlatFormInfos, the platform description CANN's op framework hands a
// host tiling function (gert::TilingContext::GetPlatformInfo()) and PlatformAscendC's constructor takes.
// On pyasc_sim only the name exists (an empty class): op projects' host tiling headers declare members and
// parameters of this type, and the kernel build that includes such a header never reads it.
#ifndef PYASC_SIM_SDK_PLATFORM_PLATFORM_INFOS_DEF_H_
#define PYASC_SIM_SDK_PLATFORM_PLATFORM_INFOS_DEF_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

namespace fe {
class PlatFormInfos {};
}  // namespace fe

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_PLATFORM_PLATFORM_INFOS_DEF_H_
