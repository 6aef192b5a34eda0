"""pyasc: a Python runtime for Huawei Ascend NPUs and a simulated NPU that runs on any CPU.

This namespace re-exports the user API of ``pyasc_core``; it holds no logic of its own.
"""

from pyasc_core import __version__
from pyasc_core import memory
from pyasc_core.backend import Backend, EventImpl, StreamImpl, TensorMeta
from pyasc_core import library
from pyasc import testing
from pyasc import profiler
from pyasc_core.creation import (
    arange,
    asarray,
    empty,
    empty_like,
    from_numpy,
    full,
    full_like,
    ones,
    ones_like,
    tensor,
    zeros,
    zeros_like,
)
from pyasc_core.device import Device
from pyasc_core.dispatch import OpHandle, get_op, handle, ops
from pyasc_core.dtypes import (
    bfloat16,
    bool_,
    float16,
    float32,
    float64,
    int8,
    int16,
    int32,
    int64,
    uint8,
    result_type,
)
from pyasc_core.dtypes import as_dtype as dtype
from pyasc_core.errors import (
    ArgumentError,
    BackendConfigError,
    BackendError,
    BackendUnavailableError,
    DeviceMismatchError,
    DevicePointerError,
    DtypeError,
    EnvironmentSettingError,
    IndexingError,
    InvalidDeviceError,
    KernelNotFoundError,
    NotOnSocError,
    OpRegistrationError,
    OutOfMemoryError,
    PluginConflictError,
    PluginError,
    PyascError,
    ReferenceMismatchError,
    StreamRaceError,
    PluginHookError,
    ReservedNamespaceError,
    SanitizerWarning,
    ShapeError,
    TorchUnavailableError,
    UnknownBackendError,
    UnknownOpError,
    ValueRangeError,
)
from pyasc_core.builtin_ops import public_names as _builtin_op_names
from pyasc_core.hookspecs import hookimpl
from pyasc_core.interop import from_dlpack
from pyasc_core.device_pointer import UnownedMemory, from_device_pointer
from pyasc_core.torch_tensors import from_torch
# pyasc ops take torch tensors (through their torch ops); torch itself is imported only when used
import pyasc_core.torch_ops  # noqa: F401
from pyasc_core.kernel import Kernel, KernelSource, kernels
from pyasc_core.tiling import TilingStruct
from pyasc import tiling
from pyasc_core.library import op
from pyasc_core.opdef import OpDef
from pyasc_core.placement import FallbackWarning, get_fallback, set_fallback
from pyasc_core.plugins import PyascPluginWarning
from pyasc_core.selection import get_backend, set_backend, using_backend
from pyasc_core.streams import Event, ExternalStream, Stream, current_stream, default_stream, stream, synchronize
from pyasc_core.tensor import Tensor
from pyasc.lang.jit import jit

bool = bool_  # noqa: A001  (pyasc.bool, as torch.bool)

#: pyasc.add, pyasc.softmax, ...: one per built-in op record (pyasc_core.builtin_ops)
_BUILTIN_OPS = _builtin_op_names()
for _name in _BUILTIN_OPS:
    globals()[_name] = handle(f"pyasc::{_name}")
del _name

__all__ = [
    "Backend", "Device", "Event", "ExternalStream", "EventImpl", "OpDef", "OpHandle", "Stream", "StreamImpl",
    "Tensor", "TensorMeta", "arange", "asarray", "current_stream", "default_stream",
    "empty", "empty_like", "from_dlpack", "from_device_pointer", "UnownedMemory", "DevicePointerError", "from_torch", "TorchUnavailableError", "from_numpy", "full", "full_like", "get_backend",
    "get_op", "hookimpl", "library", "memory", "ones", "ones_like", "op", "ops", "set_backend",
    "stream", "synchronize", "tensor", "using_backend", "zeros", "zeros_like", "dtype",
    "result_type", "bfloat16", "bool", "bool_", "float16", "float32", "float64", "int8",
    "int16", "int32", "int64", "uint8", "PyascError", "ArgumentError", "DtypeError",
    "ShapeError", "DeviceMismatchError", "BackendError", "UnknownBackendError",
    "BackendUnavailableError", "KernelNotFoundError", "NotOnSocError", "OpRegistrationError", "UnknownOpError",
    "PluginError", "PluginConflictError", "ReferenceMismatchError", "StreamRaceError", "IndexingError",
    "OutOfMemoryError", "PyascPluginWarning", "BackendConfigError", "EnvironmentSettingError",
    "InvalidDeviceError", "PluginHookError", "ValueRangeError", "ReservedNamespaceError",
    "Kernel", "KernelSource", "kernels", "jit", "TilingStruct", "tiling", "SanitizerWarning",
    "FallbackWarning", "get_fallback", "set_fallback",
    *_BUILTIN_OPS,
]

# PYASC_SIM_PROFILE=trace.json: the whole program runs under the profiler (pyasc.profiler).
from pyasc_core.profiler import profile_from_env as _profile_from_env  # noqa: E402

_profile_from_env()
