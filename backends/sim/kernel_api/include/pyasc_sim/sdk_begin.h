// The start of an SDK header of the simulator (every header outside pyasc_sim/ includes this first, the op project's
// host tiling header region too: kapi/host_header_begin.h). No include guard: it nests with pyasc_sim/sdk_end.h
// through push_macro / pop_macro, so PYASC_SIM_IN_SDK_HEADER is defined exactly while an SDK header is being read.
//
// Why: CANN's kernel_operator.h leaves INT_MAX / INT_MIN undefined (its own grid_sampler3_d_grad_simt.h, and
// Ascend/DrivingSDK's grid_sampler3d_grad_v1, declare `constexpr int32_t INT_MAX` right after including it), while
// the simulator's headers reach <climits> / <limits.h> through the C++ library (<memory>, <thread>). The
// outermost SDK header hides the two macros again at its end (sdk_end.h) unless the kernel itself included
// <climits> / <limits.h> (the wrappers ../climits and ../limits.h note that, and define them again when the kernel
// includes them after an SDK header). COMPAT.md "Round 31 (s31a)".
#pragma push_macro("PYASC_SIM_IN_SDK_HEADER")
#undef PYASC_SIM_IN_SDK_HEADER
#define PYASC_SIM_IN_SDK_HEADER 1
