// Ascend C on the CPU -- the Mmad mode switches (SetHF32Mode, SetHF32TransMode, SetMMLayoutTransform).
//
// The reference (SetHF32Mode page, atlasascendc_api_07_0258; SetHF32TransMode, atlasascendc_api_07_0250)
// describes a cube register: with HF32 on, FP32 data in L0A / L0B are rounded to HF32 before Mmad
// (SetHF32TransMode picks round-to-nearest-even (false) or the other rounding (true)); with HF32 off the
// cube does ordinary FP32 matrix multiplication.  Releases spell the argument as `bool` and, later, as the
// `HF32Mode` enumeration (ENABLE / DISABLE, also written Enable / Disable); both are accepted.
//
// The simulator's Mmad is the ordinary FP32 product, so SetHF32Mode(false) is exact.  The HF32 format
// itself (its mantissa width) is not documented, so the simulator cannot reproduce the rounding HF32 mode
// applies: turning it on is reported as `unsupported` (with checks off the product stays FP32, a
// documented deviation).  Public kernels (vllm-ascend chunk_kda_fwd_prepare) call SetHF32Mode(false)
// before every FP32 Mmad to make sure the register is off.
#ifndef PYASC_SIM_KAPI_HF32_H_
#define PYASC_SIM_KAPI_HF32_H_

#include <cstdint>

#include "pyasc_sim/kapi/state.h"

namespace AscendC {

#ifndef PYASC_SIM_LOC
#define PYASC_SIM_LOC pyasc_sim::kapi::SrcLoc loc = pyasc_sim::kapi::SrcLoc()
#endif

// The HF32Mode enumeration of the newer reference; both spellings of the two values name the same mode.
enum class HF32Mode : uint8_t { DISABLE = 0, ENABLE = 1, Disable = 0, Enable = 1 };

inline void SetHF32Mode(bool hf32Mode, PYASC_SIM_LOC) {
    if (hf32Mode && pyasc_sim::kapi::blk().checks) {
        pyasc_sim::kapi::fail("unsupported", loc,
                              "AscendC::SetHF32Mode(true): the simulator's Mmad computes in FP32 and cannot round "
                              "L0A / L0B data to HF32 (the HF32 format is not documented); call "
                              "SetHF32Mode(false) or run with PYASC_SIM_CHECKS=0 to accept an FP32 product");
    }
}

inline void SetHF32Mode(HF32Mode mode, PYASC_SIM_LOC) { SetHF32Mode(mode == HF32Mode::ENABLE, loc); }

// The rounding HF32 mode uses; it has no effect while HF32 mode is off (the only mode the simulator runs).
inline void SetHF32TransMode(bool hf32TransMode) { (void)hf32TransMode; }

// SetMMLayoutTransform (atlasascendc_api_07_0260; a register switch "like SetHF32Mode / SetHF32TransMode",
// 8.0 page): true makes the cube walk N first, then M, false M first; it orders how Mmad produces its
// results, not what they are, so the simulator's Mmad is the same either way and the call is a no-op.
// Products: every release's page lists Atlas A2 / A3 and Atlas 200I/500 A2 and marks the Atlas inference
// series AI Core (310P) x; the SDK's implementation (a public Apache-2.0 copy of its kernel_reg.h) sets
// the control-register bit with no architecture guard, so a 310P build that calls it compiles on the
// NPU toolchain too (opensensor/vllm-ascend glm_kpool_score_v310 calls it): accepted on every SoC.
inline void SetMMLayoutTransform(bool mmLayoutMode) { (void)mmLayoutMode; }

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_HF32_H_
