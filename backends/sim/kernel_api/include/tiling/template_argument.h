// tiling/template_argument.h: the installed CANN spelling of the tiling template programming header
// (the SDK's utils include root holds tiling/template_argument.h; the reference pages spell it
// ascendc/host_api/tiling/template_argument.h).  Op projects include either one; both declare the
// same ASCENDC_TPL_* macros, so this spelling only forwards to the documented header.
#pragma once
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "ascendc/host_api/tiling/template_argument.h"
#include "pyasc_sim/sdk_end.h"
