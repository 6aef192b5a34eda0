"""pyasc_acl: the ACL runtime bound with pybind11, and the ACL backend it drives.

The same binding and backend serve two devices: ``npu`` (the real ``libascendcl.so`` of CANN,
registered by ``pyasc_acl.plugin``) and ``sim`` (pyasc's simulated ACL runtime, registered by
``pyasc_sim.plugin``). The library is loaded at run time with dlopen; nothing links against CANN.
(Formerly ``pyasc_npu``; that name still imports, with a DeprecationWarning, for one release.)
"""

from __future__ import annotations

from .backend import AclBackend
from .facts import (
    ACL_DEV_ATTR_AICORE_CORE_NUM,
    ACL_DEV_ATTR_AICPU_CORE_NUM,
    ACL_DEV_ATTR_CUBE_CORE_NUM,
    ACL_DEV_ATTR_L2_CACHE_SIZE,
    ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE,
    ACL_DEV_ATTR_VECTOR_CORE_NUM,
    DeviceFacts,
    device_facts,
    device_info,
)
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


def set_op_execute_timeout(seconds: int, backend: str = "sim") -> None:
    """aclrtSetOpExecuteTimeOut for ``backend``'s ACL library: a kernel running longer than
    ``seconds`` fails with ACL_ERROR_RT_AICORE_TIMEOUT (AclKernelError) at the next synchronize;
    0 disables the timeout (the simulator's default is 547 s, env PYASC_SIM_OP_TIMEOUT)."""
    from pyasc_core.errors import ArgumentError
    from pyasc_core.registry import REGISTRY

    if isinstance(seconds, bool) or not isinstance(seconds, int) or not 0 <= seconds <= 0xFFFFFFFF:
        raise ArgumentError(f"set_op_execute_timeout: seconds must be an int in [0, 4294967295] (0 disables the "
                            f"timeout), got {seconds!r}")
    REGISTRY.backend(backend).library().set_op_execute_timeout(seconds)

__all__ = [
    "ACL_DEV_ATTR_AICORE_CORE_NUM", "ACL_DEV_ATTR_AICPU_CORE_NUM", "ACL_DEV_ATTR_CUBE_CORE_NUM",
    "ACL_DEV_ATTR_L2_CACHE_SIZE", "ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE", "ACL_DEV_ATTR_VECTOR_CORE_NUM",
    "DeviceFacts", "device_facts", "device_info",
    "AclBackend", "AclDeviceError", "AclError", "AclEventError", "AclFileError",
    "AclInitializationError", "AclInvalidHandleError", "AclInvalidParameterError", "AclKernelError",
    "AclNotSupportedError", "AclOutOfMemoryError", "AclResourceError", "AclTimeoutError", "Binary",
    "BinaryUnloadedError", "DeviceArray", "DeviceOutOfMemoryError", "ForkedDeviceError", "Function", "error_class",
    "error_name", "launch",
    "library_candidates", "locate_acl_library", "pack_args", "set_op_execute_timeout",
]
