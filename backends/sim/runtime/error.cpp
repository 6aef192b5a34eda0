#include "error.h"

#include <cstdarg>
#include <cstdio>
#include <vector>

namespace pyasc_sim {
namespace {

constexpr size_t kMaxPendingMessages = 16;

struct ThreadMessages {
    std::vector<std::string> pending;  // oldest first
    std::string returned;              // storage behind the last aclGetRecentErrMsg pointer
};

ThreadMessages &thread_messages() {
    thread_local ThreadMessages messages;
    return messages;
}

}  // namespace

aclError fail(aclError code, const std::string &message) {
    ThreadMessages &tm = thread_messages();
    if (tm.pending.size() >= kMaxPendingMessages) tm.pending.erase(tm.pending.begin());
    tm.pending.push_back(format("[%s %d] ", error_name(code).c_str(), code) + message);
    return code;
}

std::string format(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    va_list ap2;
    va_copy(ap2, ap);
    const int n = std::vsnprintf(nullptr, 0, fmt, ap);
    va_end(ap);
    std::string out;
    if (n > 0) {
        out.resize(static_cast<size_t>(n) + 1);
        std::vsnprintf(&out[0], out.size(), fmt, ap2);
        out.resize(static_cast<size_t>(n));
    }
    va_end(ap2);
    return out;
}

std::string ptr_str(const void *p) { return format("%p", p); }

std::string error_name(aclError code) {
    switch (code) {
#define PYASC_NAME_(c) \
    case c:            \
        return #c;
        PYASC_NAME_(ACL_SUCCESS)
        PYASC_NAME_(ACL_ERROR_INVALID_PARAM)
        PYASC_NAME_(ACL_ERROR_UNINITIALIZE)
        PYASC_NAME_(ACL_ERROR_REPEAT_INITIALIZE)
        PYASC_NAME_(ACL_ERROR_INVALID_FILE)
        PYASC_NAME_(ACL_ERROR_REPEAT_FINALIZE)
        PYASC_NAME_(ACL_ERROR_BAD_ALLOC)
        PYASC_NAME_(ACL_ERROR_API_NOT_SUPPORT)
        PYASC_NAME_(ACL_ERROR_RT_PARAM_INVALID)
        PYASC_NAME_(ACL_ERROR_RT_INVALID_DEVICEID)
        PYASC_NAME_(ACL_ERROR_RT_CONTEXT_NULL)
        PYASC_NAME_(ACL_ERROR_RT_STREAM_CONTEXT)
        PYASC_NAME_(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID)
        PYASC_NAME_(ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL)
        PYASC_NAME_(ACL_ERROR_RT_INVALID_HANDLE)
        PYASC_NAME_(ACL_ERROR_RT_FEATURE_NOT_SUPPORT)
        PYASC_NAME_(ACL_ERROR_RT_MEMORY_ALLOCATION)
        PYASC_NAME_(ACL_ERROR_RT_MEMORY_FREE)
        PYASC_NAME_(ACL_ERROR_RT_INTERNAL_ERROR)
        PYASC_NAME_(ACL_ERROR_RT_SOC_VERSION)
        PYASC_NAME_(ACL_ERROR_RT_AICORE_EXCEPTION)
        PYASC_NAME_(ACL_ERROR_RT_AICORE_TRAP_EXCEPTION)
        PYASC_NAME_(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION)
        PYASC_NAME_(ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW)
        PYASC_NAME_(ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW)
#undef PYASC_NAME_
        default:
            return format("aclError %d", code);
    }
}

}  // namespace pyasc_sim

// ---------------------------------------------------------------------------
// ACL entry point
// ---------------------------------------------------------------------------
extern "C" const char *aclGetRecentErrMsg(void) {
    pyasc_sim::ThreadMessages &tm = pyasc_sim::thread_messages();
    if (tm.pending.empty()) return nullptr;
    // Newest message first, as documented; reading clears the pending messages.
    std::string out;
    for (auto it = tm.pending.rbegin(); it != tm.pending.rend(); ++it) {
        if (!out.empty()) out += '\n';
        out += *it;
    }
    tm.pending.clear();
    tm.returned.swap(out);
    return tm.returned.c_str();
}
