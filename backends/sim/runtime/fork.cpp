// fork() handling: a pthread_atfork child handler marks the child of a process that had a device
// open; the ACL entry points then refuse to run in it (see fork.h).
#include "fork.h"

#include <pthread.h>
#include <unistd.h>

#include <atomic>

#include "error.h"

namespace pyasc_sim {
namespace {

std::atomic<int> g_open_devices{0};
std::atomic<pid_t> g_forked_from{0};  // 0: not a forked child of a process with a device open
std::atomic<pid_t> g_own_pid{getpid()};  // this process's pid (own_pid), renewed in every forked child

void child_after_fork() {
    g_own_pid.store(getpid());
    // The only thread of the child runs this, so plain reads of the counters are consistent.
    if (g_forked_from.load() != 0) return;  // a grandchild keeps the process that opened the device
    if (g_open_devices.load() > 0) g_forked_from.store(getppid());
}

struct AtForkRegistration {
    AtForkRegistration() { pthread_atfork(nullptr, nullptr, &child_after_fork); }
} g_atfork_registration;

}  // namespace

bool in_forked_child() { return g_forked_from.load(std::memory_order_relaxed) != 0; }

pid_t forked_from_pid() { return g_forked_from.load(std::memory_order_relaxed); }

pid_t own_pid() { return g_own_pid.load(std::memory_order_relaxed); }

void note_device_opened() { g_open_devices.fetch_add(1); }

void note_device_closed() { g_open_devices.fetch_sub(1); }

aclError refuse_in_forked_child(const char *api) {
    const pid_t parent = forked_from_pid();
    if (parent == 0) return ACL_SUCCESS;
    return fail(ACL_ERROR_RT_CONTEXT_NULL,
                format("%s: cannot use the simulated device in a forked child (pid %d): it was initialised in "
                       "process %d before fork(); use multiprocessing's 'spawn' or 'forkserver' start method, or "
                       "initialise the device in the child only",
                       api, static_cast<int>(getpid()), static_cast<int>(parent)));
}

}  // namespace pyasc_sim
