"""ACL errors as Python exceptions: one class per family, each keeping the code, its symbolic name,
the failing ACL function and the runtime's own message (``aclGetRecentErrMsg``).

The C++ binding raises these through :func:`_acl_error` and :func:`_allocator_oom`.
"""

from __future__ import annotations

from pyasc_core.errors import BackendError, OutOfMemoryError

#: public ACL return codes by symbolic name (the numbering of the ACL API reference)
ERROR_CODES: dict[str, int] = {
    "ACL_SUCCESS": 0,
    "ACL_ERROR_INVALID_PARAM": 100000,
    "ACL_ERROR_UNINITIALIZE": 100001,
    "ACL_ERROR_REPEAT_INITIALIZE": 100002,
    "ACL_ERROR_INVALID_FILE": 100003,
    "ACL_ERROR_WRITE_FILE": 100004,
    "ACL_ERROR_INVALID_FILE_SIZE": 100005,
    "ACL_ERROR_PARSE_FILE": 100006,
    "ACL_ERROR_FILE_MISSING_ATTR": 100007,
    "ACL_ERROR_FILE_ATTR_INVALID": 100008,
    "ACL_ERROR_REPEAT_FINALIZE": 100037,
    "ACL_ERROR_BAD_ALLOC": 200000,
    "ACL_ERROR_API_NOT_SUPPORT": 200001,
    "ACL_ERROR_INVALID_DEVICE": 200002,
    "ACL_ERROR_MEMORY_ADDRESS_UNALIGNED": 200003,
    "ACL_ERROR_RESOURCE_NOT_MATCH": 200004,
    "ACL_ERROR_INVALID_RESOURCE_HANDLE": 200005,
    "ACL_ERROR_FEATURE_UNSUPPORTED": 200006,
    "ACL_ERROR_STORAGE_OVER_LIMIT": 300000,
    "ACL_ERROR_INTERNAL_ERROR": 500000,
    "ACL_ERROR_FAILURE": 500001,
    "ACL_ERROR_GE_FAILURE": 500002,
    "ACL_ERROR_RT_FAILURE": 500003,
    "ACL_ERROR_DRV_FAILURE": 500004,
    "ACL_ERROR_PROFILING_FAILURE": 500005,
    "ACL_ERROR_RT_PARAM_INVALID": 107000,
    "ACL_ERROR_RT_INVALID_DEVICEID": 107001,
    "ACL_ERROR_RT_CONTEXT_NULL": 107002,
    "ACL_ERROR_RT_STREAM_CONTEXT": 107003,
    "ACL_ERROR_RT_MODEL_CONTEXT": 107004,
    "ACL_ERROR_RT_STREAM_MODEL": 107005,
    "ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID": 107006,
    "ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL": 107007,
    "ACL_ERROR_RT_ADDR_UNALIGNED": 107008,
    "ACL_ERROR_RT_FILE_OPEN": 107009,
    "ACL_ERROR_RT_FILE_WRITE": 107010,
    "ACL_ERROR_RT_INVALID_MEMORY_TYPE": 107016,
    "ACL_ERROR_RT_INVALID_HANDLE": 107017,
    "ACL_ERROR_RT_INVALID_MALLOC_TYPE": 107018,
    "ACL_ERROR_RT_WAIT_TIMEOUT": 107019,
    "ACL_ERROR_RT_TASK_TIMEOUT": 107020,
    "ACL_ERROR_RT_FEATURE_NOT_SUPPORT": 207000,
    "ACL_ERROR_RT_MEMORY_ALLOCATION": 207001,
    "ACL_ERROR_RT_MEMORY_FREE": 207002,
    "ACL_ERROR_RT_AICORE_OVER_FLOW": 207003,
    "ACL_ERROR_RT_NO_DEVICE": 207004,
    "ACL_ERROR_RT_RESOURCE_ALLOC_FAIL": 207005,
    "ACL_ERROR_RT_NO_PERMISSION": 207006,
    "ACL_ERROR_RT_NO_EVENT_RESOURCE": 207007,
    "ACL_ERROR_RT_NO_STREAM_RESOURCE": 207008,
    "ACL_ERROR_RT_DEVIDE_OOM": 207018,
    "ACL_ERROR_RT_INTERNAL_ERROR": 507000,
    "ACL_ERROR_RT_TS_ERROR": 507001,
    "ACL_ERROR_RT_STREAM_TASK_FULL": 507002,
    "ACL_ERROR_RT_STREAM_TASK_EMPTY": 507003,
    "ACL_ERROR_RT_STREAM_NOT_COMPLETE": 507004,
    "ACL_ERROR_RT_END_OF_SEQUENCE": 507005,
    "ACL_ERROR_RT_EVENT_NOT_COMPLETE": 507006,
    "ACL_ERROR_RT_CONTEXT_RELEASE_ERROR": 507007,
    "ACL_ERROR_RT_SOC_VERSION": 507008,
    "ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT": 507009,
    "ACL_ERROR_RT_MODEL_EXECUTE": 507011,
    "ACL_ERROR_RT_AICORE_TIMEOUT": 507014,
    "ACL_ERROR_RT_AICORE_EXCEPTION": 507015,
    "ACL_ERROR_RT_AICORE_TRAP_EXCEPTION": 507016,
    "ACL_ERROR_RT_AICPU_TIMEOUT": 507017,
    "ACL_ERROR_RT_AICPU_EXCEPTION": 507018,
    "ACL_ERROR_RT_KERNEL_LOOKUP": 507027,
    "ACL_ERROR_RT_VECTOR_CORE_TIMEOUT": 507034,
    "ACL_ERROR_RT_VECTOR_CORE_EXCEPTION": 507035,
    "ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION": 507036,
    "ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW": 507042,
    "ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW": 507043,
    "ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW": 507044,
    "ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW": 507045,
    "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT": 507046,
    "ACL_ERROR_RT_EVENT_SYNC_TIMEOUT": 507047,
    "ACL_ERROR_RT_DRV_INTERNAL_ERROR": 507899,
}
#: symbolic name by code (ACL_ERROR_NONE is an alias of ACL_SUCCESS and not listed)
ERROR_NAMES: dict[int, str] = {code: name for name, code in ERROR_CODES.items()}


def error_name(code: int) -> str:
    """The symbolic name of an ACL return code ('aclError <n>' when it is not a public one)."""
    return ERROR_NAMES.get(code, f"aclError {code}")


class AclError(BackendError):
    """An ACL call failed. ``code``/``name``: the aclError; ``api``: the function; ``message``:
    the runtime's text (``aclGetRecentErrMsg``)."""

    def __init__(self, code: int, api: str, message: str = "") -> None:
        self.code = int(code)
        self.name = error_name(self.code)
        self.api = api
        self.message = message
        text = f"{api} failed: {self.name} ({self.code})"
        if message:
            text += f": {message}"
        hint = _CODE_HINTS.get(self.code) or _HINTS.get(type(self))
        if hint:
            text += f". {hint}"
        super().__init__(text)

    def __reduce__(self):
        return (type(self), (self.code, self.api, self.message))


class AclInvalidParameterError(AclError, ValueError):
    """A bad argument: a pointer that is not a live allocation, a size that overflows it, a copy kind
    that does not match the pointers, a NULL that must not be."""


class AclOutOfMemoryError(AclError, OutOfMemoryError):
    """The runtime could not allocate device or host memory."""


class AclDeviceError(AclError):
    """A device or context problem: no device set for the thread, a bad device id, a stream of
    another device, no device present."""


class AclInvalidHandleError(AclError, ValueError):
    """A stream, event, binary or function handle that is not live (destroyed or never created)."""


class AclInitializationError(AclError):
    """The runtime is not initialized, or was initialized/finalized twice."""


class AclFileError(AclError, OSError):
    """A file (kernel binary, configuration) cannot be opened or is not valid."""


class AclNotSupportedError(AclError, NotImplementedError):
    """The runtime or the device does not support this call or argument."""


class AclResourceError(AclError):
    """A runtime resource other than memory (streams, events, storage) is exhausted."""


class AclKernelError(AclError):
    """A kernel failed on the device (AI Core / vector core exception, trap, timeout) or could not
    be found; reported by the next synchronize of its stream."""


class AclTimeoutError(AclError, TimeoutError):
    """A wait on a stream, event or task timed out."""


class AclEventError(AclError):
    """An event cannot answer: not recorded or not completed yet, or recorded in the wrong order."""


_FAMILIES: dict[type[AclError], tuple[int, ...]] = {
    AclInvalidParameterError: (100000, 107000, 107008, 107016, 107018, 200003),
    AclOutOfMemoryError: (200000, 207001, 207018),
    AclDeviceError: (200002, 107001, 107002, 107003, 107004, 207004, 207006, 507007, 507008),
    AclInvalidHandleError: (107017, 200004, 200005),
    AclInitializationError: (100001, 100002, 100037),
    AclFileError: (100003, 100004, 100005, 100006, 100007, 100008, 107009, 107010),
    AclNotSupportedError: (200001, 200006, 207000, 507009),
    AclResourceError: (207005, 207007, 207008, 300000, 507002),
    AclKernelError: (207003, 507014, 507015, 507016, 507017, 507018, 507027, 507034, 507035, 507036,
                     507042, 507043, 507044, 507045),
    AclTimeoutError: (107019, 107020, 507046, 507047),
    AclEventError: (107006, 107007, 507006),
}
ERROR_CLASSES: dict[int, type[AclError]] = {c: cls for cls, codes in _FAMILIES.items() for c in codes}

_HINTS: dict[type[AclError], str] = {
    AclKernelError: "The device stays usable; fix the kernel or its arguments",
    AclDeviceError: "Check the device index (pyasc info lists the devices)",
}
#: hints for single codes, ahead of their class's hint
_CODE_HINTS: dict[int, str] = {
    507008: ("On the simulator, set PYASC_SIM_SOC to one of the known SoC profiles (the message names them) "
             "or unset it for the default Ascend910B1; on an NPU, use a CANN and kernels built for this SoC"),
}


class ForkedDeviceError(BackendError):
    """A device used in a child forked after the parent had opened it (as CUDA, it cannot be
    shared across fork()). ``backend``: the backend name; ``parent_pid``: the process that opened it."""

    def __init__(self, backend: str, parent_pid: int) -> None:
        self.backend = backend
        self.parent_pid = int(parent_pid)
        super().__init__(
            f"cannot use the {backend} device in a forked child: it was initialised in process {parent_pid} "
            "before fork(); use multiprocessing's 'spawn' or 'forkserver' start method, or initialise the "
            "device in the child only (tensors inherited from the parent are unusable here)"
        )

    def __reduce__(self):
        return (type(self), (self.backend, self.parent_pid))


def _forked_device_error(parent_pid: int) -> ForkedDeviceError:
    """Called by the C++ binding when a device inherited through fork() is used."""
    from . import fork

    names = sorted(name for name, pid in fork.stale.items() if pid == parent_pid) or ["ACL"]
    return ForkedDeviceError("/".join(names), parent_pid)


def error_class(code: int) -> type[AclError]:
    """The exception class of an ACL return code (AclError for codes without a family)."""
    return ERROR_CLASSES.get(int(code), AclError)


def _acl_error(code: int, api: str, message: str) -> AclError:
    """Called by the C++ binding: the exception for a failed ACL call."""
    return error_class(code)(code, api, message.strip())


class BinaryUnloadedError(BackendError, ValueError):
    """A kernel binary was used after ``Binary.unload()``."""


class DeviceOutOfMemoryError(OutOfMemoryError):
    """The caching allocator could not serve a request even after freeing its cache. Attributes
    give the figures in bytes: requested, allocated, reserved, free, total, limit (None: no limit)."""

    def __init__(self, message: str, requested: int, allocated: int, reserved: int, free: int,
                 total: int, limit: int | None, code: int) -> None:
        super().__init__(message)
        self.requested, self.allocated, self.reserved = requested, allocated, reserved
        self.free, self.total, self.limit = free, total, limit
        self.code = code
        self.name = error_name(code) if code else "memory limit"


def _allocator_oom(message: str, requested: int, allocated: int, reserved: int, free: int,
                   total: int, limit: int, code: int) -> DeviceOutOfMemoryError:
    """Called by the C++ binding when the caching allocator runs out of memory."""
    return DeviceOutOfMemoryError(message, requested, allocated, reserved, free, total,
                                  None if limit >= 2**64 - 1 else limit, code)
