// fork() safety of the simulated runtime: a child forked while a device was open cannot use it
// (the device's worker threads, and any device process, belong to the parent), so every ACL
// entry point in such a child fails with a clear error instead of hanging on a copied lock.
#ifndef PYASC_SIM_FORK_H_
#define PYASC_SIM_FORK_H_

#include <sys/types.h>

#include "pyasc/acl_abi.h"

namespace pyasc_sim {

// True in a process forked (directly or not) from one that had a simulated device open.
// Teardown code uses it to skip joining threads or talking to device processes of the parent.
bool in_forked_child();

// The pid of the process whose device the child inherited (0 outside a forked child).
pid_t forked_from_pid();

// getpid() without its system call (~150-200 ns on this VM, once per launch): kept at load and renewed by the
// same pthread_atfork child handler in every forked child (a fork that bypasses the C library's fork(), e.g. a
// raw clone system call, is not seen: nor is it by in_forked_child()).
pid_t own_pid();

// Counts the devices open in this process (aclrtSetDevice created one / the last reset or
// aclFinalize destroyed it): only a fork with a device open makes the child unusable.
void note_device_opened();
void note_device_closed();

// ACL_SUCCESS outside a forked child; otherwise records the clear error message for `api`
// (which names the parent and the fix) and returns ACL_ERROR_RT_CONTEXT_NULL.  Called before any
// lock is taken: a lock another thread held at fork() time stays locked forever in the child.
aclError refuse_in_forked_child(const char *api);

}  // namespace pyasc_sim

#endif  // PYASC_SIM_FORK_H_
