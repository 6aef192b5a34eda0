// The op project's host tiling header, as pyasc_sim.compile(tiling_header=..., dtypes=...) includes it into the
// kernel build (build.py: -include this, the header(s), then host_header_end.h): CANN's op build never compiles
// the host header into the kernel, so the header may spell ge::DT_FLOAT16 / ge::FORMAT_ND where the kernel build
// has DT_* / FORMAT_* as preprocessor numbers (kapi/op_dtypes.h). This defines those numbers now (so the include
// guard keeps them from being redefined inside the header) and sets them aside (dt_names_begin.h);
// host_header_end.h restores them for the kernel. No include guard.
#ifdef PYASC_SIM_OP_DTYPE_MACROS
#include "pyasc_sim/kapi/op_dtypes.h"
#include "pyasc_sim/kapi/dt_names_begin.h"
#endif
