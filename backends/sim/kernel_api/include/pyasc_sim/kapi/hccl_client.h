// Ascend C on the CPU -- the Hccl client class of computation-communication (MC2) kernels, declared so kernels
// that hold one compile: HcclServerType, CoreType, HcclServerConfig / DEFAULT_CFG, HcclHandle, Hccl<serverType,
// config>, the HcclDataType / HcclReduceOp enums its task methods take, and the SDK header's HCCL_MAX_RANK_NUM /
// MemDetails / IbVerbsData (window-context layout; hidden in documented-only mode).
//
// The reference (Hccl, "Hccl模板参数" atlasascendc_api_07_0870) defines
// `template <HcclServerType serverType = HCCL_SERVER_TYPE_AICPU, const auto &config = DEFAULT_CFG> class Hccl;`
// with `enum HcclServerType { HCCL_SERVER_TYPE_AICPU = 0, HCCL_SERVER_TYPE_CCU, HCCL_SERVER_TYPE_END }` (CCU on the
// Ascend 950 only), `struct HcclServerConfig { CoreType type; int64_t blockId; }`, `enum class CoreType : uint8_t
// { DEFAULT, ON_AIV, ON_AIC }` and `DEFAULT_CFG = {CoreType::DEFAULT, 0}`. Its methods (Init, SetCcTiling,
// AllReduce / AllGather / ReduceScatter / AlltoAll(V) / BatchWrite, Commit, Wait, Query, Iterate, Finalize,
// GetWindowsInAddr / GetWindowsOutAddr, GetRankId / GetRankDim) hand tasks to the HCCL server on the AI CPU.
//
// The simulator has no HCCL server: the types are provided so that a kernel holding an `Hccl<...>` member
// compiles (sgl-kernel-npu's deepep notify_dispatch declares one and never calls it, round 20 s20f), and every
// method reports `unsupported` naming itself when called. (With checks off the method is a no-op returning 0 /
// nullptr, as nothing was sent.)
#ifndef PYASC_SIM_KAPI_HCCL_CLIENT_H_
#define PYASC_SIM_KAPI_HCCL_CLIENT_H_

#include <cstdint>

#include "pyasc_sim/kapi/base.h"
#include "pyasc_sim/kapi/state.h"

namespace AscendC {

enum HcclServerType { HCCL_SERVER_TYPE_AICPU = 0, HCCL_SERVER_TYPE_CCU, HCCL_SERVER_TYPE_END };

enum class CoreType : uint8_t { DEFAULT, ON_AIV, ON_AIC };

struct HcclServerConfig {
    CoreType type;
    int64_t blockId;
};

constexpr HcclServerConfig DEFAULT_CFG = {CoreType::DEFAULT, 0};

using HcclHandle = int8_t;

// The HCCL data and reduction types the Hccl client's task methods take (AllReduce(sendBuf, recvBuf, count,
// HcclDataType, HcclReduceOp, repeat), ...) and that kernels write into BatchWrite items, with the values of the
// HCCL reference ("HcclDataType" hcclcpp_07_0040, "HcclReduceOp" hcclcpp_07_0039). Plain enums, so both
// `HCCL_DATA_TYPE_INT8` and `AscendC::HcclDataType::HCCL_DATA_TYPE_INT8` (sgl-kernel-npu's notify_dispatch_a2)
// name the enumerator.
enum HcclDataType {
    HCCL_DATA_TYPE_INT8 = 0,
    HCCL_DATA_TYPE_INT16 = 1,
    HCCL_DATA_TYPE_INT32 = 2,
    HCCL_DATA_TYPE_FP16 = 3,
    HCCL_DATA_TYPE_FP32 = 4,
    HCCL_DATA_TYPE_INT64 = 5,
    HCCL_DATA_TYPE_UINT64 = 6,
    HCCL_DATA_TYPE_UINT8 = 7,
    HCCL_DATA_TYPE_UINT16 = 8,
    HCCL_DATA_TYPE_UINT32 = 9,
    HCCL_DATA_TYPE_FP64 = 10,
    HCCL_DATA_TYPE_BFP16 = 11,
    HCCL_DATA_TYPE_INT128 = 12,
    HCCL_DATA_TYPE_RESERVED
};

enum HcclReduceOp {
    HCCL_REDUCE_SUM = 0,
    HCCL_REDUCE_PROD = 1,
    HCCL_REDUCE_MAX = 2,
    HCCL_REDUCE_MIN = 3,
    HCCL_REDUCE_RESERVED
};

#if !PYASC_SIM_DOCUMENTED_ONLY  // names of the SDK's HCCL kernel header, not of the Ascend C reference
// The rank bound and the RDMA memory records that the SDK's HCCL kernel header (`lib/hccl/hccl.h`, next to the
// Hccl client) declares in namespace AscendC, for the window context an MC2 kernel reads from
// `GetHcclContext<...>()`: `windowsIn[HCCL_MAX_RANK_NUM]` / `windowsOut[...]`, the window addresses of each rank,
// and an `IbVerbsData *` to the RDMA memory of the remote and local input / output windows (each a
// `MemDetails{size, addr, key}`: byte size, address, memory key). sgl-kernel-npu's deepep ops2 kernels declare
// their `HcclA2CombineOpParam` with them (COMPAT.md "Round 35 (s35a)"). Facts only (names, types, member order,
// values), as public kernels and SDK stubs spell them. The simulator has no HCCL server and no RDMA: nothing fills
// or reads these records; they only give the kernels' context structs their layout.
constexpr uint32_t HCCL_MAX_RANK_NUM = 32U;

struct MemDetails {
    uint64_t size;
    uint64_t addr;
    uint32_t key;
};

struct IbVerbsData {
    MemDetails remoteInput;
    MemDetails remoteOutput;
    MemDetails localInput;
    MemDetails localOutput;
    uint8_t res[24];
};
#endif

namespace sim_detail {
inline void hccl_unsupported(const char *method, const pyasc_sim::kapi::SrcLoc &loc) {
    if (pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "AscendC::Hccl::%s: the pyasc simulator has no HCCL server (the AI CPU side of the "
                              "Hccl client API), so it cannot run communication tasks",
                              method);
    }
}
}  // namespace sim_detail

// Init / Commit / Wait / Finalize with their documented parameters (the report names the caller's line); the
// task methods take any arguments (the simulator runs none of them) and report the line of this header.
template <HcclServerType serverType = HCCL_SERVER_TYPE_AICPU, const auto &config = DEFAULT_CFG>
class Hccl {
public:
#define PYASC_SIM_HCCL_METHOD(RET, NAME, VALUE)                                                           \
    template <typename... A>                                                                              \
    RET NAME(A &&...) {                                                                                   \
        sim_detail::hccl_unsupported(#NAME, pyasc_sim::kapi::SrcLoc());                                   \
        return VALUE;                                                                                     \
    }
#define PYASC_SIM_HCCL_TASK(NAME)                                                                         \
    template <bool commit = false, typename... A>                                                         \
    HcclHandle NAME(A &&...) {                                                                            \
        sim_detail::hccl_unsupported(#NAME, pyasc_sim::kapi::SrcLoc());                                   \
        return 0;                                                                                         \
    }
    void Init(GM_ADDR context, __gm__ void *initTiling = nullptr, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        (void)context;
        (void)initTiling;
        sim_detail::hccl_unsupported("Init", loc);
    }
    void Commit(HcclHandle handleId, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        (void)handleId;
        sim_detail::hccl_unsupported("Commit", loc);
    }
    int32_t Wait(HcclHandle handleId, pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) {
        (void)handleId;
        sim_detail::hccl_unsupported("Wait", loc);
        return 0;
    }
    void Finalize(pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()) { sim_detail::hccl_unsupported("Finalize", loc); }
    PYASC_SIM_HCCL_METHOD(int32_t, SetCcTiling, 0)
    PYASC_SIM_HCCL_TASK(AllReduce)
    PYASC_SIM_HCCL_TASK(AllGather)
    PYASC_SIM_HCCL_TASK(ReduceScatter)
    PYASC_SIM_HCCL_TASK(AlltoAll)
    PYASC_SIM_HCCL_TASK(AlltoAllV)
    PYASC_SIM_HCCL_TASK(BatchWrite)
    PYASC_SIM_HCCL_METHOD(int32_t, Query, 0)
    PYASC_SIM_HCCL_METHOD(int32_t, Iterate, 0)
    PYASC_SIM_HCCL_METHOD(GM_ADDR, GetWindowsInAddr, nullptr)
    PYASC_SIM_HCCL_METHOD(GM_ADDR, GetWindowsOutAddr, nullptr)
    PYASC_SIM_HCCL_METHOD(uint32_t, GetRankId, 0u)
    PYASC_SIM_HCCL_METHOD(uint32_t, GetRankDim, 0u)
#undef PYASC_SIM_HCCL_TASK
#undef PYASC_SIM_HCCL_METHOD
};

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_HCCL_CLIENT_H_
