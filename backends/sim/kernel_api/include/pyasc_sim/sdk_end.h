// The end of an SDK header of the simulator (pyasc_sim/sdk_begin.h says why). No include guard. When the outermost
// SDK header ends, INT_MAX / INT_MIN are hidden again unless the kernel included <climits> / <limits.h> itself
// (PYASC_SIM_KERNEL_INT_LIMITS, set by the wrappers ../climits and ../limits.h outside any SDK header).
#pragma pop_macro("PYASC_SIM_IN_SDK_HEADER")
#if !defined(PYASC_SIM_IN_SDK_HEADER) && !defined(PYASC_SIM_KERNEL_INT_LIMITS)
#undef INT_MAX
#undef INT_MIN
#endif
