// Ascend C on the CPU -- the communication tiling structs of MC2 (computation-communication) ops, Mc2InitTiling
// and Mc2CcTiling, global as in the SDK's kernel_tiling/kernel_tiling.h.
//
// The reference (Hccl Tiling, "TilingData结构体", atlasascendc_api_07_10048) documents both as opaque byte
// blocks that only the host's Mc2CcTilingConfig::GetTiling fills: Mc2InitTiling's `reserved` holds the
// initial communication configuration, at most 64 bytes; each Mc2CcTiling's `reserved` one communication
// task's configuration, at most 280 bytes (an op declares up to 8).  Op tiling structs embed them by value
// ahead of their own fields (sgl-kernel-npu's deepep DispatchLayoutTilingData, round 20 s20f), so the
// simulator gives them those sizes: the fields that follow sit where the op's host code put them.  Their
// content is the HCCL library's and the simulator has no HCCL runtime: nothing reads it.
#ifndef PYASC_SIM_KAPI_MC2_TILING_H_
#define PYASC_SIM_KAPI_MC2_TILING_H_

#include <cstdint>

struct Mc2InitTiling {
    uint8_t reserved[64];
};

struct Mc2CcTiling {
    uint8_t reserved[280];
};

#endif  // PYASC_SIM_KAPI_MC2_TILING_H_
