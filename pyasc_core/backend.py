"""The backend SPI: what a backend plugin implements so tensors, ops, memory and streams work on it.

A backend is registered through the ``pyasc_register_backends`` hook (built-in and third-party
alike). Tensors hold a backend *storage* object that has at least ``.shape`` and ``.dtype``; it
may be a strided view of memory another tensor also uses (basic indexing, transpose and reshape
return views on every built-in backend, as NumPy and PyTorch do). Backends create and return
storage only; the core builds the Tensors around it. Backends that compute on the host derive
from ``pyasc_core.host_backend.HostBackend``. See docs/writing-a-backend.md.
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

import numpy as np

from .device import Device
from .dtypes import ANY
from .errors import KernelNotFoundError
from .tensor_meta import TensorMeta  # noqa: F401  (its historical home: pyasc.TensorMeta)


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

    @property
    def handle(self) -> int:
        """The native stream handle (an ``aclrtStream`` as an int) for other libraries; backends
        without native streams leave it unimplemented."""
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
    """A backend: storage, kernels and devices. Subclasses implement the methods marked *required*
    (the storage five, memory statistics, streams and events); every other method has the default
    shown here. Backends deal in storage objects only: the core builds the Tensors around them."""

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

    # -- devices ---------------------------------------------------------------------------
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

    def synchronize(self, device: Device) -> None:
        """Wait for all work queued on ``device``."""

    # -- storage ---------------------------------------------------------------------------
    def from_numpy(self, array: np.ndarray, device: Device, copy: bool) -> Any:
        """*Required.* Storage holding ``array`` (sharing its memory when ``copy`` is false and
        the backend can)."""
        raise NotImplementedError(f"backend {self.name!r} does not implement from_numpy")

    def to_numpy(self, storage: Any) -> np.ndarray:
        """*Required.* The storage's data as a NumPy array."""
        raise NotImplementedError(f"backend {self.name!r} does not implement to_numpy")

    def empty(self, shape: tuple[int, ...], dtype: np.dtype, device: Device) -> Any:
        """*Required.* Uninitialised storage."""
        raise NotImplementedError(f"backend {self.name!r} does not implement empty")

    def getitem(self, storage: Any, key: Any) -> Any:
        """*Required.* ``storage[key]``: a view sharing memory for basic keys (ints, slices, None,
        Ellipsis), a copy for advanced ones (bool masks, integer arrays), as NumPy."""
        raise NotImplementedError(f"backend {self.name!r} does not implement getitem")

    def setitem(self, storage: Any, key: Any, value: Any) -> None:
        """*Required.* Assign into ``storage`` in place (writes through to whatever it is a view of)."""
        raise NotImplementedError(f"backend {self.name!r} does not implement setitem")

    def full(self, shape: tuple[int, ...], value: Any, dtype: np.dtype, device: Device) -> Any:
        """Storage filled with ``value`` (backends may override with a device-side fill)."""
        return self.from_numpy(np.full(shape, value, dtype), device, copy=False)

    def contiguous(self, storage: Any) -> Any:
        """``storage`` when it is row-major without gaps, else a contiguous copy."""
        return storage

    def adopt(self, storage: Any, device: Device) -> int:
        """Called when the core wraps new ``storage`` in a Tensor: check limits (raise
        OutOfMemoryError) and return the host bytes the tensor owns, which the core counts in host
        memory statistics until the tensor dies. Device backends account for their own memory: 0."""
        return 0

    def copy_from(self, storage: Any, src: Device, device: Device, non_blocking: bool = False) -> Any:
        """Storage on ``device`` (this backend's or another's) holding a copy of ``storage`` from
        ``src``, or None when this backend has no faster way than staging through NumPy.
        ``move_to`` asks the destination's backend first, then the source's."""
        return None

    # -- kernels ---------------------------------------------------------------------------
    def adapt_kernel(self, fn: Callable) -> Callable:
        """The callable stored for a kernel registered for this backend (e.g. one that makes strided
        inputs contiguous first); the kernel itself by default."""
        return fn

    def default_kernel(self, op: Any) -> Callable | None:
        """A kernel for ``op`` when none was registered for this backend (e.g. the reference)."""
        return None

    # -- Ascend C kernels (pyasc.Kernel) ---------------------------------------------------
    def compile_kernel(self, source: Any) -> Any:
        """Build a ``pyasc.KernelSource`` (``.text``, ``.path``, ``.options``, ``.binaries``,
        ``.structs``) for this backend; returns what :meth:`load_kernel` takes (e.g. a binary's path).
        Called once per source and backend. By default a backend runs no Ascend C kernels."""
        raise KernelNotFoundError(
            f"backend {self.name!r} does not run Ascend C kernels (pyasc.Kernel); launch them on 'sim' or "
            "'npu', or register a Python kernel for this backend with pyasc.library.impl")

    def kernel_names(self, artifact: Any) -> list[str]:
        """The kernels in a :meth:`compile_kernel` artifact."""
        raise KernelNotFoundError(f"backend {self.name!r} does not run Ascend C kernels (pyasc.Kernel)")

    def load_kernel(self, artifact: Any, name: str, device: Device) -> Any:
        """Kernel ``name`` of ``artifact`` loaded on ``device`` (once per device): a callable
        ``fn(num_blocks, *args, stream=None)`` that packs the arguments by ``fn.signature`` and
        enqueues the launch on ``stream`` (default: the device's current stream)."""
        raise KernelNotFoundError(f"backend {self.name!r} does not run Ascend C kernels (pyasc.Kernel)")

    # -- memory ----------------------------------------------------------------------------
    def memory_stats(self, device: Device) -> dict[str, int]:
        """*Required.* Statistics under ``MEMORY_STAT_KEYS`` (extra keys allowed)."""
        raise NotImplementedError(f"backend {self.name!r} does not implement memory_stats")

    def reset_peak_memory_stats(self, device: Device) -> None:
        """*Required.* Reset the ``.peak`` figures to the current ones."""
        raise NotImplementedError(f"backend {self.name!r} does not implement reset_peak_memory_stats")

    def set_memory_limit(self, device: Device, nbytes: int | None) -> None:
        """*Required.* Cap the bytes tensors may hold on ``device`` (None: no cap)."""
        raise NotImplementedError(f"backend {self.name!r} does not implement set_memory_limit")

    def mem_get_info(self, device: Device) -> tuple[int, int]:
        """*Required.* (free, total) bytes of the device."""
        raise NotImplementedError(f"backend {self.name!r} does not implement mem_get_info")

    def empty_cache(self, device: Device) -> None:
        """Return cached free memory to the device (nothing to do without a cache)."""

    # -- streams and events ----------------------------------------------------------------
    def create_stream(self, device: Device) -> StreamImpl:
        """*Required.* A new stream on ``device``."""
        raise NotImplementedError(f"backend {self.name!r} does not implement create_stream")

    def create_event(self, device: Device, enable_timing: bool) -> EventImpl:
        """*Required.* A new event on ``device``."""
        raise NotImplementedError(f"backend {self.name!r} does not implement create_event")

    def external_stream(self, device: Device, handle: int) -> StreamImpl:
        """A StreamImpl over a native stream someone else owns (``pyasc.ExternalStream``); used,
        never destroyed. Backends without native streams leave it unimplemented."""
        raise NotImplementedError(f"backend {self.name!r} has no native stream handles")

    def wrap_pointer(self, ptr: int, nbytes: int, shape: tuple[int, ...], dtype: np.dtype,
                     strides: tuple[int, ...], device: Device, owner: Any) -> Any:
        """Storage over ``nbytes`` of device memory at ``ptr`` that someone else owns
        (``pyasc.from_device_pointer``; strides in elements, ``owner`` kept alive, never freed).
        Backends without device memory leave it unimplemented (the core then refuses)."""
        raise NotImplementedError(f"backend {self.name!r} has no device pointers")

    def default_stream(self, device: Device) -> StreamImpl:
        """The device's default stream (created once)."""
        cache = self.__dict__.setdefault("_default_streams", {})
        if device not in cache:
            cache[device] = self.create_stream(device)
        return cache[device]

    # -- deprecated ------------------------------------------------------------------------
    def wrap(self, storage: Any, device: Device) -> Any:
        """Deprecated: the core builds Tensors around storage (``pyasc_core.tensor.wrap_storage``);
        backends return storage."""
        warnings.warn(
            "Backend.wrap(storage, device) is deprecated: backends return storage and the core "
            "builds the Tensor; use pyasc_core.tensor.wrap_storage(storage, device)",
            DeprecationWarning, stacklevel=2,
        )
        assert _tensor_factory is not None, "pyasc_core.tensor sets the factory when it loads"
        return _tensor_factory(storage, device, self)


#: pyasc_core.tensor.wrap_storage, set by pyasc_core.tensor when it loads (for the deprecated
#: Backend.wrap only: this module sits below Tensor)
_tensor_factory: Callable[[Any, Device, Backend], Any] | None = None


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
    "num_deferred_releases",  # empty_cache kept a free segment that queued work could still touch
)
