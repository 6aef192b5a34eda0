"""pyasc_npu: the ACL runtime bound with pybind11, and the device backend it drives.

The same binding serves two backends: ``npu`` (the real ``libascendcl.so`` of CANN) and ``sim``
(pyasc's simulated ACL runtime, from ``pyasc_sim``). The library is loaded at run time with
dlopen; nothing links against CANN.
"""

from __future__ import annotations

from .backend import AclBackend
from .errors import (
    AclDeviceError,
    AclError,
    AclEventError,
    AclFileError,
    AclInitializationError,
    AclInvalidHandleError,
    AclInvalidParameterError,
    AclKernelError,
    AclNotSupportedError,
    AclOutOfMemoryError,
    AclResourceError,
    AclTimeoutError,
    BinaryUnloadedError,
    DeviceOutOfMemoryError,
    ForkedDeviceError,
    error_class,
    error_name,
)
from .kernels import Binary, Function, launch, pack_args
from .loader import candidates as library_candidates
from .loader import locate_acl_library
from .storage import DeviceArray

__all__ = [
    "AclBackend", "AclDeviceError", "AclError", "AclEventError", "AclFileError",
    "AclInitializationError", "AclInvalidHandleError", "AclInvalidParameterError", "AclKernelError",
    "AclNotSupportedError", "AclOutOfMemoryError", "AclResourceError", "AclTimeoutError", "Binary",
    "BinaryUnloadedError", "DeviceArray", "DeviceOutOfMemoryError", "ForkedDeviceError", "Function", "error_class",
    "error_name", "launch",
    "library_candidates", "locate_acl_library", "pack_args",
]
