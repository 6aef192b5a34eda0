"""Tensors between pyasc and PyTorch: ``from_torch`` / ``Tensor.to_torch``, which backend runs
pyasc work on CPU torch tensors, and torch tensors as op and kernel arguments.

torch is optional: nothing here imports it until a torch feature is used, and then its absence is
a :class:`~pyasc_core.errors.TorchUnavailableError`. A torch tensor can only exist once torch is
imported, so ``sys.modules`` tells cheaply whether an argument may be one.
"""

from __future__ import annotations

import contextlib
import contextvars
import sys
from collections.abc import Iterator
from typing import Any

from . import dtypes as _dt
from .errors import (
    ArgumentError,
    BackendUnavailableError,
    DtypeError,
    InvalidDeviceError,
    PyascError,
    TorchUnavailableError,
)
from .device_pointer import from_device_pointer
from .interop import from_dlpack
from .selection import resolve_device
from .streams import ExternalStream
from .tensor import Tensor

INSTALL_HINT = "install it with: pip install 'pyasc-runtime[torch]'"
#: the pyasc backends that may run pyasc work on CPU torch tensors
CPU_BACKENDS = ("numpy", "sim")
_cpu_backend: contextvars.ContextVar[str] = contextvars.ContextVar("pyasc_torch_cpu_backend", default="numpy")


def require_torch(what: str) -> Any:
    """The torch module, or a TorchUnavailableError saying that ``what`` needs it."""
    try:
        import torch
    except ImportError:
        raise TorchUnavailableError(f"{what} needs PyTorch, which is not installed; {INSTALL_HINT}") from None
    return torch


def _tensor_class() -> type | None:
    """torch.Tensor when torch is loaded (a stand-in module without it counts as not loaded)."""
    cls = getattr(sys.modules.get("torch"), "Tensor", None)
    return cls if isinstance(cls, type) else None


def is_torch_tensor(obj: Any) -> bool:
    cls = _tensor_class()
    return cls is not None and isinstance(obj, cls)


#: argument types whose instances are never torch tensors, tested by exact type (a subclass may be
#: anything): pyasc tensors, Python scalars, strings and None, the arguments of a kernel launch. None
#: of them overrides ``__class__``, so ``isinstance(a, torch.Tensor)`` is False for each. With torch
#: loaded, that isinstance goes through torch.Tensor's metaclass (~0.1 us an argument) and the test
#: built two generators: ~1 us on every launch, a third of the 100k queued-launch rate.
PLAIN_TYPES = frozenset({Tensor, int, float, bool, complex, str, bytes, type(None)})


def has_torch_tensor(args: tuple, kwargs: dict) -> bool:
    """True when a torch tensor is among the arguments (False at once when torch is not loaded, or
    when every argument is of a plain type: PLAIN_TYPES)."""
    if not kwargs and PLAIN_TYPES.issuperset(map(type, args)):
        return False
    cls = _tensor_class()
    if cls is None:
        return False
    return any(isinstance(a, cls) for a in args) or any(isinstance(v, cls) for v in kwargs.values())


# -- which pyasc backend runs work on CPU torch tensors -------------------------------------------
def _check_cpu_backend(name: Any) -> str:
    if name not in CPU_BACKENDS:
        raise ArgumentError(f"the backend for CPU torch tensors must be one of {', '.join(map(repr, CPU_BACKENDS))}, "
                            f"got {name!r}: 'numpy' runs the op's NumPy reference on the tensor's memory, "
                            "'sim' copies to the simulated NPU and runs the op's Ascend C kernel")
    return name


def get_cpu_backend() -> str:
    """'numpy' (the default: the reference implementation, zero-copy) or 'sim'."""
    return _cpu_backend.get()


def set_cpu_backend(name: str) -> None:
    """Run pyasc ops on CPU torch tensors with backend ``name`` ('numpy' or 'sim') from now on."""
    _cpu_backend.set(_check_cpu_backend(name))


@contextlib.contextmanager
def using_cpu_backend(name: str) -> Iterator[str]:
    """``with pyasc.torch.using_cpu_backend('sim'):`` scoped to this thread/async context."""
    token = _cpu_backend.set(_check_cpu_backend(name))
    try:
        yield name
    finally:
        _cpu_backend.reset(token)


# -- conversion -----------------------------------------------------------------------------------
def torch_dtype(dtype: Any) -> Any:
    """The torch dtype of a pyasc dtype (same names: float32, bfloat16, bool, ...)."""
    torch = require_torch("pyasc.torch dtype conversion")
    return getattr(torch, _dt.dtype_name(_dt.as_dtype(dtype)))


def from_torch(t: Any, device: Any = None) -> Tensor:
    """A pyasc tensor sharing a torch tensor's memory: a CPU tensor zero-copy through DLPack (device
    'numpy'); a torch_npu tensor (device 'npu:N') through its data pointer, device index, strides
    and storage size (``pyasc.from_device_pointer`` on 'npu:N', the same index as ACL numbers it),
    keeping the tensor alive. With ``device``, moved there (a copy unless it is already there).
    The autograd history is dropped (``t.detach()``); writes through the result show in ``t``."""
    torch = require_torch("pyasc.from_torch")
    if not isinstance(t, torch.Tensor):
        raise ArgumentError(f"pyasc.from_torch takes a torch.Tensor, got {type(t).__name__} {t!r:.60}; "
                            "for other DLPack producers use pyasc.from_dlpack")
    kind = torch_device_kind(t.device)
    if kind == "other":
        raise PyascError(
            f"pyasc.from_torch shares CPU and torch_npu ('npu') tensors; this torch tensor is on {t.device}. "
            "Copy it to the host first with t.cpu()"
        )
    t = t.detach()
    if t.is_conj() or t.is_neg():
        t = t.resolve_conj().resolve_neg()
    try:
        torch_name = str(t.dtype).removeprefix("torch.")
        _dt.as_dtype(torch_name)
    except (DtypeError, TypeError):
        raise DtypeError(f"pyasc.from_torch: pyasc has no dtype for torch's {t.dtype}; cast it first, e.g. "
                         "t.to(torch.float32)") from None
    if kind == "npu":
        args = pointer_args(t)
        out = from_device_pointer(args.pop("ptr"), owner=t, device=f"npu:{npu_index(t.device)}", **args)
    else:
        out = from_dlpack(t)
    return out if device is None else out.to(device)


def torch_device_kind(device: Any) -> str:
    """'cpu', 'npu' (torch_npu's device type, PyTorch's PrivateUse1 backend that torch_npu renames
    'npu') or 'other': which path ``from_torch`` takes."""
    if device.type == "cpu":
        return "cpu"
    if device.type == "npu":
        return "npu"
    torch = sys.modules.get("torch")
    name = getattr(getattr(torch, "_C", None), "_get_privateuse1_backend_name", None)
    if name is not None and device.type == name() == "npu":
        return "npu"
    return "other"


def npu_index(device: Any) -> int:
    """torch_npu's device index as pyasc's (both are ACL's numbering); None: torch_npu's current."""
    if device.index is not None:
        return int(device.index)
    return int(_torch_npu("pyasc.from_torch").current_device())


def pointer_args(t: Any) -> dict[str, Any]:
    """What ``pyasc.from_device_pointer`` needs to wrap torch tensor ``t`` in place: its first
    element's address, shape, dtype, strides (in elements) and the bytes of its storage from there."""
    itemsize = t.element_size()
    return {
        "ptr": int(t.data_ptr()),
        "shape": tuple(t.shape),
        "dtype": str(t.dtype).removeprefix("torch."),
        "strides": tuple(t.stride()),
        "nbytes": int(t.untyped_storage().nbytes()) - int(t.storage_offset()) * itemsize,
    }


def shared_torch_view(owner: Any, ptr: int, shape: tuple[int, ...], dtype: Any,
                      strides: tuple[int, ...]) -> Any:
    """A torch tensor over ``owner``'s storage viewing [ptr: shape, strides] as ``dtype``, or None
    when that memory is not inside ``owner``'s storage (``to_torch`` of a tensor ``from_torch``
    made: the same memory, no copy)."""
    torch = sys.modules.get("torch")
    if torch is None or not isinstance(owner, torch.Tensor):
        return None
    storage = owner.untyped_storage()
    tdtype = torch_dtype(dtype)
    itemsize = np_itemsize(dtype)
    start = ptr - int(storage.data_ptr())
    if start < 0 or start % itemsize:
        return None
    from .device_pointer import extent_bytes

    if start + extent_bytes(tuple(shape), tuple(strides), itemsize) > int(storage.nbytes()):
        return None
    out = torch.empty(0, dtype=tdtype, device=owner.device)
    return out.set_(storage, start // itemsize, tuple(shape), tuple(strides))


def np_itemsize(dtype: Any) -> int:
    return _dt.as_dtype(dtype).itemsize


def to_torch(self: Tensor) -> Any:
    """This tensor as a torch tensor. Host backends (``numpy``): a CPU tensor, zero-copy. ``sim``:
    a CPU tensor copied from the simulated device (synchronously: the explicit, documented copy).
    ``npu:N``: a torch_npu tensor on torch's npu:N -- the same memory when this tensor wraps a torch
    tensor's (``from_torch``), else a device-to-device copy into a new torch_npu tensor, queued on
    torch_npu's current stream (torch_npu has no public API to adopt a device pointer). A ``meta``
    tensor gives a torch meta tensor."""
    torch = require_torch("pyasc.Tensor.to_torch")
    if self.device.type == "meta":
        return torch.empty(self.shape, dtype=torch_dtype(self.dtype), device="meta")
    if self.device.type == "npu":
        return _npu_to_torch(self)
    host = self if self.backend.is_host else self.to("numpy")
    return torch.from_dlpack(host)


def _npu_to_torch(self: Tensor) -> Any:
    data = self._data
    block = data.block
    ptr = block.ptr + data.byte_offset
    owner = getattr(block, "owner", None)
    if is_torch_tensor(owner) and torch_device_kind(owner.device) == "npu" and \
            npu_index(owner.device) == (self.device.index or 0):
        view = shared_torch_view(owner, ptr, self.shape, self.dtype, data.strides)
        if view is not None:
            return view
    npu = _torch_npu("pyasc.Tensor.to_torch of an 'npu' tensor")
    torch = require_torch("pyasc.Tensor.to_torch")
    index = self.device.index or 0
    out = torch.empty(self.shape, dtype=torch_dtype(self.dtype), device=f"npu:{index}")
    from .streams import stream as _stream

    from .streams import current_stream as _pyasc_stream

    torch_stream = ExternalStream(int(npu.current_stream(index).npu_stream), f"npu:{index}")
    mine = _pyasc_stream(self.device)
    if mine.handle != torch_stream.handle:
        torch_stream.wait_stream(mine)  # the copy runs after the pyasc work that made this tensor
    with _stream(torch_stream):
        from_torch(out)[...] = self
    return out


Tensor.to_torch = to_torch  # type: ignore[attr-defined]  (tensor.py sits below this module)


def to_pyasc(value: Any, device: Any) -> Any:
    """A torch tensor argument as a pyasc tensor on ``device`` (others unchanged)."""
    if is_torch_tensor(value):
        return from_torch(value, device)
    return value


def outputs_to_torch(out: Any) -> Any:
    """An op's result (a Tensor or a tuple of them) as torch tensors."""
    if isinstance(out, tuple):
        return tuple(to_torch(o) for o in out)
    return to_torch(out)


def call_converted(call: Any, args: tuple, kwargs: dict, device: Any = None) -> Any:
    """``call`` with every torch tensor argument as a pyasc tensor on ``device`` (default: the
    backend for CPU torch tensors), its result back as torch tensors. A result that shares memory
    with an input (a view on the host) is copied, so torch never sees an output alias an input."""
    device = device if device is not None else get_cpu_backend()
    pargs = tuple(to_pyasc(a, device) for a in args)
    pkwargs = {k: to_pyasc(v, device) for k, v in kwargs.items()}
    out = call(*pargs, **pkwargs)
    outs = out if isinstance(out, tuple) else (out,)
    inputs = [a for a in (*pargs, *pkwargs.values()) if isinstance(a, Tensor)]
    fixed = tuple(_unaliased(o, inputs) for o in outs)
    return outputs_to_torch(fixed if isinstance(out, tuple) else fixed[0])


def _unaliased(out: Tensor, inputs: list[Tensor]) -> Tensor:
    if not out.backend.is_host:
        return out
    import numpy as np

    data = out._data
    if any(i.backend.is_host and np.may_share_memory(data, i._data) for i in inputs):
        return out.clone()
    return out


def npu_device_of_args(args: tuple, kwargs: dict) -> Any:
    """The pyasc device ('npu:N') of the torch_npu tensors among the arguments, None when there are
    none (CPU tensors only); tensors on two NPUs are an error, as in torch."""
    cls = _tensor_class()
    found = None
    for v in (*args, *kwargs.values()):
        if cls is not None and isinstance(v, cls) and torch_device_kind(v.device) == "npu":
            dev = f"npu:{npu_index(v.device)}"
            if found is not None and dev != found:
                from .errors import DeviceMismatchError

                raise DeviceMismatchError(f"torch tensors on {found} and {dev} in one pyasc call; move them to one "
                                          "device first (t.to('npu:0'))")
            found = dev
    return found


def torch_device_types() -> tuple[str, ...]:
    """The torch device types pyasc's torch ops get kernels for: 'cpu', and 'npu' once torch_npu is
    imported (it names PyTorch's PrivateUse1 backend 'npu')."""
    torch = require_torch("pyasc.torch")
    return ("cpu", "npu") if torch._C._get_privateuse1_backend_name() == "npu" else ("cpu",)


@contextlib.contextmanager
def on_torch_stream(device: Any) -> Iterator[None]:
    """Inside, pyasc work on ``device`` ('npu:N') is queued on torch_npu's current stream there, in
    order with the torch work that made its inputs and will read its outputs."""
    from .streams import stream as _stream

    with _stream(current_stream(resolve_device(device).index or 0)):
        yield


# -- devices and streams shared with torch_npu -----------------------------------------------------
def _torch_npu(what: str) -> Any:
    torch = require_torch(what)
    npu = getattr(torch, "npu", None)
    if npu is None or not hasattr(npu, "current_stream"):
        raise BackendUnavailableError(f"{what} needs torch_npu (Ascend's PyTorch adapter): install it and "
                                      "`import torch_npu` first")
    return npu


def device_of(obj: Any) -> Any:
    """The pyasc device of a torch tensor or torch device: 'npu:N' for torch_npu's npu:N (both
    number devices as ACL does, after ASCEND_RT_VISIBLE_DEVICES), the backend for CPU tensors
    (:func:`get_cpu_backend`) for 'cpu'."""
    torch = require_torch("pyasc.torch.device_of")
    dev = obj.device if isinstance(obj, torch.Tensor) else torch.device(obj)
    if dev.type == "cpu":
        return resolve_device(get_cpu_backend())
    if dev.type == "npu":
        index = dev.index if dev.index is not None else _torch_npu("pyasc.torch.device_of").current_device()
        return resolve_device(f"npu:{index}")
    raise InvalidDeviceError(f"pyasc.torch.device_of: torch device {dev} has no pyasc device; pyasc runs CPU "
                             "tensors (numpy/sim) and torch_npu's 'npu' tensors")


def current_stream(device: Any = None) -> ExternalStream:
    """torch_npu's current stream on ``device`` (a torch device or index; default its current
    device) as a pyasc stream: ``with pyasc.stream(pyasc.torch.current_stream()):`` queues pyasc
    work after the torch work already on it."""
    npu = _torch_npu("pyasc.torch.current_stream")
    torch = require_torch("pyasc.torch.current_stream")
    if device is None:
        index = npu.current_device()
    elif isinstance(device, int) and not isinstance(device, bool):
        index = device
    else:
        index = torch.device(device).index if torch.device(device).index is not None else npu.current_device()
    return ExternalStream(int(npu.current_stream(index).npu_stream), f"npu:{index}")
