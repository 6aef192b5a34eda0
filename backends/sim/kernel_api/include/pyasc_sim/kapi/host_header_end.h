// The end of the op project's host tiling header in a kernel build: restores the DT_* / FORMAT_* numbers
// pyasc_sim/kapi/host_header_begin.h set aside. No include guard.
#ifdef PYASC_SIM_OP_DTYPE_MACROS
#include "pyasc_sim/kapi/dt_names_end.h"
#endif
