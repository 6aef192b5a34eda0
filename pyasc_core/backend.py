"""The backend SPI: what a backend plugin implements so tensors, ops, memory and streams work on it.

A backend is registered through the ``pyasc_register_backends`` hook (built-in and third-party
alike). Tensors hold a backend *storage* object that has at least ``.shape`` and ``.dtype``; it
may be a strided view of memory another tensor also uses (basic indexing, transpose and reshape
return views on every built-in backend, as NumPy and PyTorch do).
"""

from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from .device import Device
from .dtypes import ANY


class StreamImpl:
    """A backend's stream. Work submitted on one stream runs in order."""

    def synchronize(self) -> None:
        raise NotImplementedError

    def query(self) -> bool:
        """True when all work submitted so far has finished."""
        raise NotImplementedError

    def wait_event(self, event: EventImpl) -> None:
        """Make later work on this stream wait until ``event`` has been reached."""
        raise NotImplementedError

    def record(self, event: EventImpl) -> None:
        raise NotImplementedError


class EventImpl:
    """A backend's event: a marker in a stream, optionally with a timestamp."""

    def synchronize(self) -> None:
        raise NotImplementedError

    def query(self) -> bool:
        raise NotImplementedError

    def elapsed_time(self, end: EventImpl) -> float:
        """Milliseconds from this event to ``end``."""
        raise NotImplementedError


class Backend:
    """Base class of backends. Subclasses override what their device needs."""

    #: registry name, as used in ``pyasc.set_backend(name)`` and device strings
    name: str = ""
    aliases: tuple[str, ...] = ()
    description: str = ""
    #: storage is a NumPy array in host memory (zero-copy NumPy/DLPack interop)
    is_host: bool = False
    #: dtypes tensors may have on this backend
    dtypes: frozenset[np.dtype] = ANY
    #: preference when choosing the default backend (highest available wins)
    priority: int = 0
    #: what ``pyasc ops`` calls the kernels ``default_kernel`` supplies (e.g. "reference")
    default_kernel_label: str = "default"

    # -- availability and devices ------------------------------------------------------------
    def availability(self) -> tuple[bool, str]:
        """(available, reason-if-not). Called once and cached by the registry."""
        return True, ""

    def device_count(self) -> int:
        return 1

    def device(self, index: int | None = None) -> Device:
        """The canonical Device for ``index`` (None: the current device)."""
        return Device(self.name, 0 if index is None else index)

    def info(self) -> dict[str, Any]:
        """Facts shown by ``pyasc info``."""
        return {}

    # -- storage ---------------------------------------------------------------------------
    def from_numpy(self, array: np.ndarray, device: Device, copy: bool) -> Any:
        raise NotImplementedError

    def to_numpy(self, storage: Any) -> np.ndarray:
        raise NotImplementedError

    def empty(self, shape: tuple[int, ...], dtype: np.dtype, device: Device) -> Any:
        raise NotImplementedError

    def full(self, shape: tuple[int, ...], value: Any, dtype: np.dtype, device: Device) -> Any:
        """Storage filled with ``value`` (backends may override with a device-side fill)."""
        return self.from_numpy(np.full(shape, value, dtype), device, copy=False)

    def wrap(self, storage: Any, device: Device) -> Any:
        """The Tensor over ``storage`` (host backends count owned host memory)."""
        from .tensor import wrap_storage

        return wrap_storage(storage, device)

    def getitem(self, storage: Any, key: Any) -> Any:
        """``storage[key]``: a view sharing memory for basic keys (ints, slices, None, Ellipsis),
        a copy for advanced ones (bool masks, integer arrays), as NumPy."""
        raise NotImplementedError

    def setitem(self, storage: Any, key: Any, value: Any) -> None:
        """Assign into ``storage`` in place (writes through to whatever it is a view of)."""
        raise NotImplementedError

    def contiguous(self, storage: Any) -> Any:
        """``storage`` when it is row-major without gaps, else a contiguous copy."""
        return storage

    def adapt_kernel(self, fn: Callable) -> Callable:
        """The callable stored for a kernel registered for this backend (e.g. one that makes strided
        inputs contiguous first); the kernel itself by default."""
        return fn

    def default_kernel(self, op: Any) -> Callable | None:
        """A kernel for ``op`` when none was registered for this backend (e.g. the reference)."""
        return None

    # -- memory ----------------------------------------------------------------------------
    def memory_stats(self, device: Device) -> dict[str, int]:
        raise NotImplementedError

    def reset_peak_memory_stats(self, device: Device) -> None:
        raise NotImplementedError

    def empty_cache(self, device: Device) -> None:
        pass

    def set_memory_limit(self, device: Device, nbytes: int | None) -> None:
        raise NotImplementedError

    def mem_get_info(self, device: Device) -> tuple[int, int]:
        """(free, total) bytes of the device."""
        raise NotImplementedError

    # -- streams and events ----------------------------------------------------------------
    def create_stream(self, device: Device) -> StreamImpl:
        raise NotImplementedError

    def default_stream(self, device: Device) -> StreamImpl:
        """The device's default stream (created once)."""
        cache = self.__dict__.setdefault("_default_streams", {})
        if device not in cache:
            cache[device] = self.create_stream(device)
        return cache[device]

    def create_event(self, device: Device, enable_timing: bool) -> EventImpl:
        raise NotImplementedError

    def synchronize(self, device: Device) -> None:
        pass


class TensorMeta:
    """Shape and dtype of a tensor with no data: what meta functions take and return."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape: tuple[int, ...], dtype: np.dtype) -> None:
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TensorMeta)
            and self.shape == other.shape
            and self.dtype == other.dtype
        )

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype))

    def __repr__(self) -> str:
        from .dtypes import dtype_name

        return f"TensorMeta(shape={self.shape}, dtype={dtype_name(self.dtype)})"


#: PyTorch's memory_stats key names, reported by every backend
MEMORY_STAT_KEYS = (
    "allocated_bytes.all.current",
    "allocated_bytes.all.peak",
    "allocated_bytes.all.allocated",
    "allocated_bytes.all.freed",
    "reserved_bytes.all.current",
    "reserved_bytes.all.peak",
    "reserved_bytes.all.allocated",
    "reserved_bytes.all.freed",
    "active_bytes.all.current",
    "active_bytes.all.peak",
    "allocation.all.current",
    "allocation.all.peak",
    "allocation.all.allocated",
    "allocation.all.freed",
    "num_alloc_retries",
    "num_ooms",
)
