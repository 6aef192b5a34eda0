// Ascend C on the CPU -- the architecture macros the NPU toolchain defines, and the core type.
//
// The device compiler defines, for the SoC it builds for, __CCE_AICORE__ (220 on Atlas A2 / 910B),
// __NPU_ARCH__ (2201 on 910B) and, per core kind, __DAV_C220_VEC__ (vector core build) or
// __DAV_C220_CUBE__ (cube core build), with the generic __DAV_VEC__ / __DAV_CUBE__.  pyasc_sim.compile() passes them with -D from the SoC
// profile (PYASC_SIM_SOC); these defaults cover a plain g++ build against kernel_operator.h
// (910B, vector core).  ASCEND_IS_AIV / ASCEND_IS_AIC tell the kind of core running the block;
// blocks of a vector-only launch run on AIV.  Written from the public Ascend C documentation.
#ifndef PYASC_SIM_KAPI_ARCH_H_
#define PYASC_SIM_KAPI_ARCH_H_

#include <cstdint>

#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
#if !defined(__DAV_C220_VEC__) && !defined(__DAV_C220_CUBE__) && __NPU_ARCH__ == 2201 && \
    !defined(PYASC_SIM_NO_DAV_MACRO)
#define __DAV_C220_VEC__ 1
#endif
// the generic spellings bisheng defines as well (__DAV_VEC__: a vector core build, __DAV_CUBE__: cube)
#if !defined(__DAV_VEC__) && !defined(__DAV_CUBE__) && defined(__DAV_C220_VEC__) && !defined(__DAV_C220_CUBE__)
#define __DAV_VEC__ 1
#endif
#if !defined(__DAV_VEC__) && !defined(__DAV_CUBE__) && defined(__DAV_C220_CUBE__) && !defined(__DAV_C220_VEC__)
#define __DAV_CUBE__ 1
#endif

namespace pyasc_sim {
namespace kapi {

// The kind of core running the current block (1 = AIC, 2 = AIV; see AscendC::AIC / AIV below).
// The runtime's mixed cube/vector launches set it per block; everything else runs on AIV.
inline int32_t &core_type_slot() {
    thread_local int32_t type = 2;
    return type;
}

}  // namespace kapi
}  // namespace pyasc_sim

namespace AscendC {
constexpr int32_t AIC = 1;  // cube core
constexpr int32_t AIV = 2;  // vector core
}  // namespace AscendC

// ASCEND_IS_AIV / ASCEND_IS_AIC / ASCEND_IS_NOT_*: mix.h (they need the running block's state).

#endif  // PYASC_SIM_KAPI_ARCH_H_
