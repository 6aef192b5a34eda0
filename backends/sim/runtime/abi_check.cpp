// Compile-time check that every exported definition has exactly the signature of
// the public declaration (PFN_* typedefs are generated from PYASC_ACL_FUNCTION_LIST).
#include <cstddef>
#include <type_traits>

#include "pyasc/acl_abi.h"
#include "pyasc_sim/kernel_abi.h"

#define PYASC_CHECK_SIGNATURE_(ret, name, params)                        \
    static_assert(std::is_same<decltype(&name), PFN_##name>::value,      \
                  #name " does not match its PYASC_ACL_FUNCTION_LIST entry");
PYASC_ACL_FUNCTION_LIST(PYASC_CHECK_SIGNATURE_)
#undef PYASC_CHECK_SIGNATURE_

static_assert(sizeof(aclError) == sizeof(int), "aclError is an int");
static_assert(sizeof(aclrtMemcpyKind) == sizeof(int), "enums are int-sized");
static_assert(sizeof(aclrtBinaryLoadOptionValue) == 16, "aclrtBinaryLoadOptionValue holds uint32_t rsv[4]");
static_assert(ACL_MEMCPY_DEFAULT == 4 && ACL_MEMCPY_INTER_DEVICE_TO_DEVICE == 7, "aclrtMemcpyKind values");
static_assert(ACL_MEM_MALLOC_NORMAL_ONLY == 2 && ACL_MEM_MALLOC_HUGE1G_ONLY_P2P == 7, "aclrtMemMallocPolicy values");
static_assert(ACL_STREAM_STATUS_COMPLETE == 0 && ACL_STREAM_STATUS_NOT_READY == 1 &&
                  ACL_STREAM_STATUS_RESERVED == 0xFFFF,
              "aclrtStreamStatus values");
static_assert(ACL_EVENT_RECORDED_STATUS_NOT_READY == 0 && ACL_EVENT_RECORDED_STATUS_COMPLETE == 1,
              "aclrtEventRecordedStatus values");
static_assert(ACL_HBM_MEM == 1 && ACL_HBM_MEM_P2P_NORMAL == 9, "aclrtMemAttr values");
static_assert(offsetof(PyascSimBlockContext, args) == 16, "kernel ABI layout");
static_assert(offsetof(PyascSimBlockContext, cycles) == 40, "kernel ABI layout");
static_assert(offsetof(PyascSimBlockContext, status) == 48, "kernel ABI layout");
static_assert(offsetof(PyascSimBlockContext, message) == 52, "kernel ABI layout");
static_assert(sizeof(PyascSimGmWrite) == 32, "kernel ABI v3 layout");
