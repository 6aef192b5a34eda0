// Thread-local error messages (aclGetRecentErrMsg) and the helper that records one.
#ifndef PYASC_SIM_ERROR_H_
#define PYASC_SIM_ERROR_H_

#include <string>

#include "pyasc/acl_abi.h"

namespace pyasc_sim {

// Appends `message` to the calling thread's pending error messages (newest on top)
// and returns `code`, so call sites can write `return fail(code, ...)`.
aclError fail(aclError code, const std::string &message);

// printf-style formatting into a std::string.
std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

// "0x7f..." for a pointer.
std::string ptr_str(const void *p);

// Public name of an aclError value ("ACL_ERROR_RT_PARAM_INVALID"), or "aclError <n>".
std::string error_name(aclError code);

}  // namespace pyasc_sim

#endif  // PYASC_SIM_ERROR_H_
