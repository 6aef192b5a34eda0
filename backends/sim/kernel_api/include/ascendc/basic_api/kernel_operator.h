// ascendc/basic_api/kernel_operator.h -- the basic-API header path of the newer CANN SDK layout
// (public kernels include "ascendc/basic_api/kernel_operator.h"); forwards to pyasc_sim's
// kernel_operator.h.
#ifndef PYASC_SIM_SDK_ASCENDC_BASIC_API_KERNEL_OPERATOR_H_
#define PYASC_SIM_SDK_ASCENDC_BASIC_API_KERNEL_OPERATOR_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include <kernel_operator.h>  // angle brackets: not this file, which has the same name

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_ASCENDC_BASIC_API_KERNEL_OPERATOR_H_
