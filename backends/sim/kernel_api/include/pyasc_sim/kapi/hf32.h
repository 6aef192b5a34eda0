// Ascend C on the CPU -- the Mmad HF32 mode switches (SetHF32Mode, SetHF32TransMode).
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

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_HF32_H_
