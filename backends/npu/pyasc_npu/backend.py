"""The device backend over an ACL runtime, shared by ``sim`` (the simulator's library) and ``npu``
(the real libascendcl): tensors in device memory through the caching allocator, copies on the
current stream, streams and events. No op kernels live here: an op without a kernel registered
for the backend raises KernelNotFoundError (no silent fallback)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from pyasc_core import dtypes as _dt
from pyasc_core.backend import MEMORY_STAT_KEYS, Backend, EventImpl, StreamImpl
from pyasc_core.device import Device
from pyasc_core.errors import IndexingError, PyascError, ShapeError
from pyasc_core.registry import backend_for_device

from . import fork, loader
from .storage import DeviceArray
from .streams import AclEvent, AclStream

_U8 = np.dtype(np.uint8)


def _bytes_view(arr: np.ndarray) -> np.ndarray:
    """A flat uint8 view of a C-contiguous array (works for every dtype, bfloat16 included)."""
    return arr.reshape(-1).view(_U8)


def _current_raw_stream(device: Device) -> Any:
    from pyasc_core.streams import current_stream

    return current_stream(device).impl.raw


class AclBackend(Backend):
    """A backend whose device is driven through an ACL library found by ``locate()``."""

    is_host = False
    dtypes = _dt.ANY - {_dt.float64}

    def __init__(self, name: str, *, description: str, priority: int,
                 locate: Callable[[], tuple[str | None, str]]) -> None:
        self.name = name
        self.description = description
        self.priority = priority
        self._locate = locate
        self._lib: Any = None
        self._devices: dict[int, Any] = {}
        self._default_streams: dict[int, AclStream] = {}
        self._lock = threading.Lock()
        fork.track(self)

    # -- availability and devices ------------------------------------------------------------
    def availability(self) -> tuple[bool, str]:
        path, reason = self._locate()
        if path is None:
            return False, reason
        try:
            lib = loader.load(path)
            count = lib.device_count()
        except ImportError as exc:
            return False, f"the ACL binding pyasc_npu._acl is not built ({exc}); reinstall pyasc with 'pip install .'"
        except Exception as exc:  # a library that loads but does not work is unavailable, with why
            return False, f"the ACL library {path} cannot be used: {exc}"
        if count == 0:
            return False, f"the ACL library {path} reports no devices"
        with self._lock:
            if lib is not self._lib:
                self._lib, self._devices, self._default_streams = lib, {}, {}
        return True, ""

    def library(self) -> Any:
        """The loaded ``_acl.Library`` (checks availability first)."""
        if self._lib is None:
            ok, reason = self.availability()
            if not ok:
                from pyasc_core.errors import BackendUnavailableError

                raise BackendUnavailableError(f"backend {self.name!r} is not available: {reason}")
        return self._lib

    def device_count(self) -> int:
        return int(self.library().device_count())

    def device(self, index: int | None = None) -> Device:
        return Device(self.name, 0 if index is None else index)

    def raw_device(self, device: Device) -> Any:
        """The binding's ``_acl.Device`` for ``device`` (context, allocators, default stream).
        Raises ForkedDeviceError in a child forked after the parent opened a device."""
        if fork.stale:
            fork.check(self.name)
        d = self._devices.get(device.index)  # type: ignore[arg-type]
        if d is None:
            from . import _acl

            with self._lock:
                d = self._devices.get(device.index)  # type: ignore[arg-type]
                if d is None:
                    d = self._devices[device.index] = _acl.Device(self.library(), device.index, str(device))  # type: ignore[index]
        return d

    def info(self) -> dict[str, Any]:
        lib = self.library()
        dev = self.raw_device(self.device(0))
        _, total = dev.mem_info()
        return {"library": lib.path, "soc": lib.soc_name(), "device memory": f"{total / 2**30:.1f} GiB"}

    # -- storage -----------------------------------------------------------------------------
    def _alloc(self, shape: tuple[int, ...], dtype: np.dtype, device: Device, stream: Any) -> DeviceArray:
        dtype = np.dtype(dtype)
        n = dtype.itemsize
        for s in shape:
            n *= s
        return DeviceArray(self.raw_device(device).allocate(n, stream), tuple(shape), dtype, device)

    def from_numpy(self, array: np.ndarray, device: Device, copy: bool) -> DeviceArray:
        arr = np.ascontiguousarray(array).reshape(np.shape(array))  # ascontiguousarray makes 0-d arrays 1-d
        stream = _current_raw_stream(device)
        out = self._alloc(arr.shape, arr.dtype, device, stream)
        if out.nbytes:
            self.raw_device(device).copy(out.block, _bytes_view(arr), out.nbytes, stream, True)
        return out

    def to_numpy(self, storage: DeviceArray) -> np.ndarray:
        out = np.empty(storage.shape, storage.dtype)
        if storage.nbytes:
            stream = _current_raw_stream(storage.device)
            self.raw_device(storage.device).copy(_bytes_view(out), storage.block, storage.nbytes, stream, True)
        return out

    def empty(self, shape: tuple[int, ...], dtype: np.dtype, device: Device) -> DeviceArray:
        return self._alloc(shape, dtype, device, _current_raw_stream(device))

    def full(self, shape: tuple[int, ...], value: Any, dtype: np.dtype, device: Device) -> DeviceArray:
        pattern = np.full((), value, dtype).tobytes()  # raises OverflowError for values out of range
        if len(set(pattern)) != 1:
            return self.from_numpy(np.full(shape, value, dtype), device, copy=False)
        stream = _current_raw_stream(device)
        out = self._alloc(shape, dtype, device, stream)
        if out.nbytes:
            self.raw_device(device).fill(out.block, pattern[0], out.nbytes, stream)
        return out

    def getitem(self, storage: DeviceArray, key: Any) -> DeviceArray:
        host = self.to_numpy(storage)
        try:
            out = host[key]
        except IndexError as exc:
            raise IndexingError(f"{exc} (tensor shape {storage.shape})") from None
        return self.from_numpy(np.asarray(out), storage.device, copy=True)

    def setitem(self, storage: DeviceArray, key: Any, value: Any) -> None:
        if isinstance(value, DeviceArray):
            value = self.to_numpy(value)
        host = self.to_numpy(storage)
        try:
            host[key] = value
        except IndexError as exc:
            raise IndexingError(f"{exc} (tensor shape {storage.shape})") from None
        except ValueError as exc:
            raise ShapeError(f"cannot assign: {exc}") from None
        if storage.nbytes:
            stream = _current_raw_stream(storage.device)
            self.raw_device(storage.device).copy(storage.block, _bytes_view(host), storage.nbytes, stream, True)

    def copy_from(self, tensor: Any, device: Device, non_blocking: bool = False) -> Any:
        """Host->device, device->host and same-device copies on the current stream; ``non_blocking``
        copies go through pinned memory and return before the stream ran them. None: not handled."""
        src_dev = tensor._device
        src_backend = backend_for_device(src_dev)
        if device.type == self.name and src_backend.is_host:
            return self.wrap(self._upload(tensor._data, device, non_blocking), device)
        if device.type == self.name and src_dev is device:
            src: DeviceArray = tensor._data
            stream = _current_raw_stream(device)
            out = self._alloc(src.shape, src.dtype, device, stream)
            if out.nbytes:
                self.raw_device(device).copy(out.block, src.block, out.nbytes, stream, not non_blocking)
            return self.wrap(out, device)
        if src_dev.type == self.name and non_blocking:
            dst_backend = backend_for_device(device)
            if dst_backend.is_host:
                arr = self._download_async(tensor._data)
                return dst_backend.wrap(dst_backend.from_numpy(arr, device, copy=False), device)
        return None  # the caller stages through NumPy

    def _upload(self, array: np.ndarray, device: Device, non_blocking: bool) -> DeviceArray:
        if not non_blocking:
            return self.from_numpy(array, device, copy=True)
        arr = np.ascontiguousarray(array).reshape(np.shape(array))  # ascontiguousarray makes 0-d arrays 1-d
        stream = _current_raw_stream(device)
        out = self._alloc(arr.shape, arr.dtype, device, stream)
        if out.nbytes:
            dev = self.raw_device(device)
            pinned = dev.allocate_host(out.nbytes)
            np.frombuffer(pinned, _U8, out.nbytes)[:] = _bytes_view(arr)
            dev.copy(out.block, pinned, out.nbytes, stream)  # pinned is reused only after the copy ran
        return out

    def _download_async(self, storage: DeviceArray) -> np.ndarray:
        """A NumPy array over pinned memory that the current stream fills (valid after synchronize)."""
        if not storage.nbytes:
            return np.empty(storage.shape, storage.dtype)
        dev = self.raw_device(storage.device)
        pinned = dev.allocate_host(storage.nbytes)
        dev.copy(pinned, storage.block, storage.nbytes, _current_raw_stream(storage.device))
        return np.frombuffer(pinned, storage.dtype, storage.size).reshape(storage.shape)

    # -- memory ------------------------------------------------------------------------------
    def memory_stats(self, device: Device) -> dict[str, int]:
        raw = self.raw_device(device).memory_stats()
        out = {k: int(raw[k]) for k in MEMORY_STAT_KEYS}
        out.update((k, int(v)) for k, v in raw.items() if k not in out)
        return out

    def host_memory_stats(self, device: Device) -> dict[str, int]:
        """Statistics of the pinned host pool (same keys)."""
        return dict(self.raw_device(device).host_memory_stats())

    def reset_peak_memory_stats(self, device: Device) -> None:
        self.raw_device(device).reset_peak_memory_stats()

    def empty_cache(self, device: Device) -> None:
        self.raw_device(device).empty_cache()

    def set_memory_limit(self, device: Device, nbytes: int | None) -> None:
        """Cap the bytes the caching allocator may reserve on the device (None: no cap)."""
        self.raw_device(device).set_memory_limit(nbytes)

    def mem_get_info(self, device: Device) -> tuple[int, int]:
        free, total = self.raw_device(device).mem_info()
        return int(free), int(total)

    # -- streams and events ------------------------------------------------------------------
    def create_stream(self, device: Device) -> StreamImpl:
        return AclStream(self.raw_device(device).create_stream())

    def default_stream(self, device: Device) -> StreamImpl:
        if fork.stale:
            fork.check(self.name)
        s = self._default_streams.get(device.index)  # type: ignore[arg-type]
        if s is None:
            s = self._default_streams.setdefault(device.index, AclStream(self.raw_device(device).default_stream))  # type: ignore[arg-type]
        return s

    def create_event(self, device: Device, enable_timing: bool) -> EventImpl:
        return AclEvent(self.raw_device(device).create_event(), enable_timing)

    def synchronize(self, device: Device) -> None:
        self.raw_device(device).synchronize()


def acl_backend_of(device: Any) -> tuple[AclBackend, Device]:
    """The ACL backend and Device for a device spec (None: the current backend); raises if it is
    not an ACL device."""
    from pyasc_core.selection import resolve_device

    dev = resolve_device(device)
    backend = backend_for_device(dev)
    if not isinstance(backend, AclBackend):
        raise PyascError(
            f"{dev} is not an ACL device; kernels run on 'sim' or 'npu' (pass device='sim' or "
            "select one with pyasc.set_backend('sim'))"
        )
    return backend, dev
