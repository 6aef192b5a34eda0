// The op project's host tiling header, as pyasc_sim.compile(tiling_header=..., dtypes=...) includes it into the
// kernel build (build.py: -include this, the header(s), then host_header_end.h): CANN's op build never compiles
// the host header into the kernel, so the header may spell ge::DT_FLOAT16 / ge::FORMAT_ND where the kernel build
// has DT_* / FORMAT_* as preprocessor numbers (kapi/op_dtypes.h). This defines those numbers now (so the include
// guard keeps them from being redefined inside the header) and sets them aside (dt_names_begin.h);
// host_header_end.h restores them for the kernel. No include guard.
//
// The header is compiled in the context the op's host source gives it: an op_host/<op>.cpp includes
// register/op_def_registry.h (and with it gert::Shape, gert::TilingContext, ge::graphStatus, the platform
// API) and the C++ standard headers before the tiling header, and a tiling header may use those names without
// including them itself (NPUKernelBench's ReverseSequence header declares gert::Shape structs, std::array and
// std::min). They are included here, inside the DT_* set-aside, so the header sees them as its host build does.
// The region is an SDK header's for INT_MAX / INT_MIN (pyasc_sim/sdk_begin.h): what it includes is not the kernel's.
#include "pyasc_sim/sdk_begin.h"
#ifdef PYASC_SIM_OP_DTYPE_MACROS
#include "pyasc_sim/kapi/op_dtypes.h"
#include "pyasc_sim/kapi/dt_names_begin.h"
#endif
#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "register/op_def_registry.h"
// The host headers' include guards are saved here and restored by host_header_end.h (build.py
// host_header_guards: CANN's kernel build never sees the host header, so its guard must not hide a kernel
// header that uses the same name).
#ifdef PYASC_SIM_HOST_GUARDS_PUSH
PYASC_SIM_HOST_GUARDS_PUSH
#endif
