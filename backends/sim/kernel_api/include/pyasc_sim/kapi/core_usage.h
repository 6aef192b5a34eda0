// Ascend C on the CPU -- which core kinds' instructions a kernel binary instantiates, for the kernel type
// the NPU compiler infers when a kernel declares none.
//
// The documentation ("设置Kernel类型", the Kernel-type constraints page of the programming guide) lets a
// kernel leave out KERNEL_TASK_TYPE_DEFAULT: the compiler then infers the type from the instructions the
// kernel compiles to -- only vector instructions: a vector kernel; cube and vector instructions: a mixed
// cube/vector kernel, launched as numBlocks groups of one AIC and two AIV on the Atlas A2 / A3 (SetBlockDim:
// "针对Vector/Cube融合计算的算子，启动时，按照AIV和AIC组合启动").  Not in a compilation unit with more
// than one kernel, and not for the Atlas 350 or the Atlas inference series.
//
// The simulator sees the same fact at link time: every cube instruction of the kernel API (Mmad, LoadData,
// LoadData3D, Fixpipe, the Matmul high-level API's compute) calls uses_cube_unit(), every vector compute
// instruction reaches vector_cycles() (kapi/state.h), which calls uses_vector_unit().  Each of the two holds
// a `used` static in its own named section; GCC emits it only when the function is reachable from code the
// binary keeps (an instantiated template, a function a kernel calls), so an API a header declares but no
// kernel uses marks nothing.  The linker defines __start_<section> for a section present in the binary, and
// a weak undefined reference is null otherwise: binary_uses_cube() / binary_uses_vector() read that at run
// time, run_entry (kapi/entry.h) turns it into the inferred task type.
#ifndef PYASC_SIM_KAPI_CORE_USAGE_H_
#define PYASC_SIM_KAPI_CORE_USAGE_H_

extern "C" {
// defined by the linker when the binary holds the section; weak: null when it does not
__attribute__((weak, visibility("hidden"))) extern const char __start_pyasc_sim_uses_cube[];
__attribute__((weak, visibility("hidden"))) extern const char __start_pyasc_sim_uses_vector[];
// defined by the stub unit when pyasc_sim.compile asks for the inference (pyasc_sim/task_infer.py: one
// kernel in the unit, an Atlas A2 / A3 build, no task type declared)
__attribute__((weak, visibility("hidden"))) extern const int __pyasc_sim_infer_task_type;
}

namespace pyasc_sim {
namespace kapi {

// Called by every cube-unit instruction of the kernel API: its body only has to exist in the binary.
inline void uses_cube_unit() {
    __attribute__((used, section("pyasc_sim_uses_cube"))) static const char mark = 1;
    (void)mark;
}

// Called (through vector_cycles) by every vector-unit compute instruction of the kernel API.
inline void uses_vector_unit() {
    __attribute__((used, section("pyasc_sim_uses_vector"))) static const char mark = 1;
    (void)mark;
}

// Whether the binary this code is linked into instantiates a cube / vector instruction.
inline bool binary_uses_cube() { return __start_pyasc_sim_uses_cube != nullptr; }
inline bool binary_uses_vector() { return __start_pyasc_sim_uses_vector != nullptr; }

// The task type a kernel that declares none is launched with: KERNEL_TYPE_MIX_AIC_1_2 when the build asked
// for the inference and the binary instantiates cube and vector instructions, else -1 (launched as before:
// vector cores only).  A cube-only kernel keeps the simulator's earlier behaviour (the documented inference
// would make it KERNEL_TYPE_AIC_ONLY: a launch of the same numBlocks cores; kernel_api/README.md, deviations).
// In the cube pass of a kernel built once per core kind (`split_cube_pass`: pyasc_sim.mix_build's undeclared
// MixCore build), a binary with cube but no vector instructions runs its cube pass on AIC-only blocks
// (KERNEL_TYPE_AIC_ONLY), so ASCEND_IS_AIC agrees with that pass's constant g_coreType.
inline int inferred_task_type(bool split_cube_pass = false) {
    if (&__pyasc_sim_infer_task_type == nullptr) return -1;
    if (binary_uses_cube() && binary_uses_vector()) return 5;  // KERNEL_TYPE_MIX_AIC_1_2
    if (split_cube_pass && binary_uses_cube()) return 1;       // KERNEL_TYPE_AIC_ONLY
    return -1;
}

// The build asked for the inference and the binary has vector instructions only (a vector kernel).
inline bool inferred_vector_only() {
    return &__pyasc_sim_infer_task_type != nullptr && binary_uses_vector() && !binary_uses_cube();
}

}  // namespace kapi
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_CORE_USAGE_H_
