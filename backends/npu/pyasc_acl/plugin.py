"""Registers the ``npu`` backend: the ACL binding over the real libascendcl (entry point ``npu``)."""

from __future__ import annotations

from collections.abc import Callable

from pyasc_core.backend import Backend
from pyasc_core.hookspecs import hookimpl

from .backend import AclBackend
from .cann_compile import compile_source
from .loader import locate_acl_library

# Below numpy (priority 0) while no op has an npu kernel: the default backend stays numpy.
BACKEND = AclBackend(
    "npu",
    description="Ascend NPU through CANN's ACL runtime (libascendcl.so)",
    priority=-2,
    locate=locate_acl_library,
    compile_source=compile_source,  # CANN's bisheng on first use, when installed
)


@hookimpl
def pyasc_register_backends(register: Callable[[Backend], None]) -> None:
    register(BACKEND)
