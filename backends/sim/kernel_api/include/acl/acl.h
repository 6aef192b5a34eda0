// acl/acl.h on the kernel include path -- kernel-side headers of public projects include the ACL
// runtime header for its types (aclError, aclrtStream, ...). pyasc's own C declarations of the ACL
// runtime ABI (pyasc/acl_abi.h, written from the public ACL reference) stand in for it, so such
// headers compile unchanged; kernels launched through pyasc never need the ACL host API.
#ifndef PYASC_SIM_SDK_ACL_ACL_H_
#define PYASC_SIM_SDK_ACL_ACL_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "pyasc/acl_abi.h"

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_SDK_ACL_ACL_H_
