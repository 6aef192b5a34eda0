// The end of the op project's host tiling header in a kernel build: restores the DT_* / FORMAT_* numbers
// pyasc_sim/kapi/host_header_begin.h set aside. No include guard.
// The host headers' include guards get back the state they had before the headers (host_header_begin.h).
#ifdef PYASC_SIM_HOST_GUARDS_POP
PYASC_SIM_HOST_GUARDS_POP
#endif
#ifdef PYASC_SIM_OP_DTYPE_MACROS
#include "pyasc_sim/kapi/dt_names_end.h"
#endif
// The op's tiling structs (and the op registrations GET_TILING_DATA resolves) by name in the kernel's global
// scope, when build.py could list them (PYASC_SIM_TILING_NAMES: `using ::optiling::Name;` ...).
#ifdef PYASC_SIM_TILING_NAMES
PYASC_SIM_TILING_NAMES
#endif
#include "pyasc_sim/sdk_end.h"  // the end of the region host_header_begin.h opened
