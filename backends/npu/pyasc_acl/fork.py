"""fork() safety of the ACL backends, as PyTorch has it for CUDA: a child forked after a device was
opened cannot use that device (its threads, its device process and its runtime state belong to
the parent), so the first use in the child raises ForkedDeviceError naming the parent and the fix
instead of hanging. A child that never touches the device runs and exits normally."""

from __future__ import annotations

import os
import threading
import weakref
from typing import Any

from .errors import ForkedDeviceError

#: backend name -> pid of the process that opened its device before fork() (in a forked child)
stale: dict[str, int] = {}
_backends: weakref.WeakSet[Any] = weakref.WeakSet()
_pid_before_fork = 0


def track(backend: Any) -> None:
    """Watch an AclBackend across fork() (its ``_devices`` says whether a device was opened)."""
    _backends.add(backend)


def check(name: str) -> None:
    """Raise ForkedDeviceError when backend ``name``'s device was inherited through fork()."""
    if stale:
        pid = stale.get(name)
        if pid is not None:
            raise ForkedDeviceError(name, pid)


def _before_fork() -> None:
    global _pid_before_fork
    _pid_before_fork = os.getpid()


def _after_in_child() -> None:
    for backend in list(_backends):
        if backend._devices and backend.name not in stale:
            stale[backend.name] = _pid_before_fork
        # a lock another thread held at fork() time would stay locked forever in the child
        backend._lock = threading.Lock()
    from . import loader

    loader._lock = threading.Lock()


os.register_at_fork(before=_before_fork, after_in_child=_after_in_child)
