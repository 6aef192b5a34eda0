// acl/acl_base.h on the kernel include path -- the ACL base header (aclError, aclDataType, ...)
// that kernel-side headers of public projects include for its types; pyasc's ACL declarations stand
// in for it, as for acl/acl.h.
#ifndef PYASC_SIM_SDK_ACL_ACL_BASE_H_
#define PYASC_SIM_SDK_ACL_ACL_BASE_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "pyasc/acl_abi.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_ACL_ACL_BASE_H_
