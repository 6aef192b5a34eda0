// acl/acl_rt.h on the kernel include path -- the ACL runtime header (aclrt* functions and types) that
// public kernel sources include next to acl/acl.h (MindSpore Lite's ascend_native kernels); CANN's
// acl.h includes it. pyasc's declarations of the ACL runtime ABI (pyasc/acl_abi.h) stand in for both.
#ifndef PYASC_SIM_SDK_ACL_ACL_RT_H_
#define PYASC_SIM_SDK_ACL_ACL_RT_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)
#include "acl/acl.h"
#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_ACL_ACL_RT_H_
