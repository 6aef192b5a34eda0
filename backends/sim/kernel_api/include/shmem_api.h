// Ascend C on the CPU -- the SHMEM SDK's device entry header `shmem_api.h`: the simulator's SHMEM device layer
// (pyasc_sim/kapi/shmem.h; both the shmem_* and the aclshmem_* names). Run such kernels on N PEs with
// pyasc_sim.shmem.Team (kernel API README, "Round 31 (s31b)").
#pragma once
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "pyasc_sim/kapi/shmem.h"
#include "pyasc_sim/sdk_end.h"
