// tiling/platform/platform_ascendc.h -- platform_ascendc::PlatformAscendC, the host tiling API's platform query
// (core counts, memory sizes, SoC), declared as the public Ascend C reference documents it so that an op
// project's host tiling header that holds one (by value, built from fe::PlatFormInfos *) or declares functions
// over it compiles when pyasc_sim.compile(tiling_header=...) includes that header into the kernel build.
// Host-only: the constructor is defined (as documented, it keeps the pointer), the queries are declared but
// have no definition on the simulator -- host tiling runs on the host, never in a kernel build, and a kernel
// that called one would fail to load naming the function. Enumerator names are the documented ones; the
// numeric values of SocVersion are not documented and not relied on.
#ifndef PYASC_SIM_SDK_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#define PYASC_SIM_SDK_TILING_PLATFORM_PLATFORM_ASCENDC_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <cstdint>

#include "platform/platform_infos_def.h"

namespace platform_ascendc {
// the memories GetCoreMemSize / GetCoreMemBw query (names and order as aclplatformLocalMemType)
enum class CoreMemType { L0_A = 0, L0_B = 1, L0_C = 2, L1 = 3, L2 = 4, UB = 5, HBM = 6, RESERVED };
enum class SocVersion { ASCEND910 = 0, ASCEND910B, ASCEND910_93, ASCEND310P, ASCEND310B, RESERVED_VERSION };

class PlatformAscendC {
public:
    PlatformAscendC() = delete;
    ~PlatformAscendC() = default;
    explicit PlatformAscendC(fe::PlatFormInfos *platformInfo) : platformInfo_(platformInfo) {}
    uint32_t GetCoreNum(void) const;
    SocVersion GetSocVersion(void) const;
    uint32_t GetCoreNumAic(void) const;
    uint32_t GetCoreNumAiv(void) const;
    uint32_t GetCoreNumVector(void) const;
    uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) const;
    void GetCoreMemSize(const CoreMemType &memType, uint64_t &size) const;
    void GetCoreMemBw(const CoreMemType &memType, uint64_t &bwSize) const;
    uint32_t GetLibApiWorkSpaceSize(void) const;
    uint32_t GetResGroupBarrierWorkSpaceSize(void) const;
    uint32_t GetResCubeGroupWorkSpaceSize(void) const;

private:
    fe::PlatFormInfos *platformInfo_;
};

// Kernel Launch projects' host code: PlatformAscendCManager::GetInstance() (declared; host only)
class PlatformAscendCManager {
public:
    static PlatformAscendC *GetInstance();
    static PlatformAscendC *GetInstance(const char *customSocVersion);
};
}  // namespace platform_ascendc

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_TILING_PLATFORM_PLATFORM_ASCENDC_H_
