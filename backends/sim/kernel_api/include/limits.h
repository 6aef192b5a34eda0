// <limits.h> as the C library declares it, for kernels and the simulator's headers alike (#include_next), with
// INT_MAX / INT_MIN defined again each time it is included: the simulator's SDK headers hide those two at their end
// (pyasc_sim/sdk_begin.h says why), so a kernel including <limits.h> after kernel_operator.h sees them as with CANN.
// Included outside any SDK header (the kernel's own include), the two macros are the kernel's: no SDK header hides
// them afterwards. No include guard (the C library's header has its own).
#include_next <limits.h>
#ifndef INT_MAX
#define INT_MAX __INT_MAX__
#endif
#ifndef INT_MIN
#define INT_MIN (-INT_MAX - 1)
#endif
#if !defined(PYASC_SIM_IN_SDK_HEADER) && !defined(PYASC_SIM_KERNEL_INT_LIMITS)
#define PYASC_SIM_KERNEL_INT_LIMITS 1
#endif
