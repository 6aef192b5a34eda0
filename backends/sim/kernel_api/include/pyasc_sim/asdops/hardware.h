// Ascend C on the CPU -- our stand-in for `hardware.h` of the CANN devkit's asdops-style kernel headers (the
// header kda-ascendc's aclab kernels include with `mem.h`, `layout.h`, `common_func.h`, resolved from the devkit's
// include directories, not from the repository). Written from the names public kernels use, never from the SDK's
// file: the architecture tag `AsdopsBuffer<ArchType::ASCEND_V220>` is instantiated with. Included through the bare
// name `hardware.h` only when no other `hardware.h` is on the caller's path (../../hardware.h).
#ifndef PYASC_SIM_ASDOPS_HARDWARE_H_
#define PYASC_SIM_ASDOPS_HARDWARE_H_

enum class ArchType { ASCEND_V220, ASCEND_V200, ASCEND_M200 };

#endif  // PYASC_SIM_ASDOPS_HARDWARE_H_
