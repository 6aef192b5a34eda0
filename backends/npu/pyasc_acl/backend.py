"""The device backend over an ACL runtime, shared by ``sim`` (the simulator's library) and ``npu``
(the real libascendcl): tensors in device memory through the caching allocator (strided views of
its blocks, as PyTorch's storage), copies on the current stream, streams and events. No op kernels live here: an op without a kernel registered
for the backend raises KernelNotFoundError (the built-in ops' kernels route dtypes the AI Core
lacks to the AI CPU, or to the host fallback PYASC_FALLBACK governs: see pyasc_kernels)."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from pyasc_core import dtypes as _dt
from pyasc_core import stream_sanitizer as _san
from pyasc_core.stream_sanitizer import _active as _san_active
from pyasc_core.stream_sanitizer import _blocks, _op_reads
from pyasc_core import views
from pyasc_core.backend import MEMORY_STAT_KEYS, Backend, EventImpl, StreamImpl
from pyasc_core.device import Device
from pyasc_core.errors import IndexingError, KernelNotFoundError, PyascError, ShapeError
from pyasc_core.registry import backend_for_device
from pyasc_core.streams import _current, _local, current_stream

from . import fork, loader
from .storage import _STRIDES, DeviceArray
from .streams import AclEvent, AclStream

_U8 = np.dtype(np.uint8)
#: bytes a kernel input's first element is aligned to (Ascend C DataCopy's GM alignment)
KERNEL_ALIGN = 32


def _bytes_view(arr: np.ndarray) -> np.ndarray:
    """A flat uint8 view of a C-contiguous array (works for every dtype, bfloat16 included)."""
    return arr.reshape(-1).view(_U8)


def _current_raw_stream(device: Device) -> Any:
    return current_stream(device).impl.raw


#: ``_acl.new_array`` (AclBackend.empty's hot path), bound when the first device is opened
_new_array: Any = None
_Tensor: Any = None  # pyasc_core.tensor.Tensor, bound with it
#: ``_acl.ready_reads`` (adapt_kernel's readiness check and read list in one call), bound with it
_ready_reads: Any = None


class AclBackend(Backend):
    """A backend whose device is driven through an ACL library found by ``locate()``."""

    is_host = False
    #: every dtype is stored (memory is memory); ops without an AI Core kernel run on the AI CPU
    dtypes = _dt.ANY
    #: a device-side strided gather (DeviceArray -> contiguous DeviceArray), set by the plugin that
    #: registers the built-in kernels for this backend (pyasc_kernels); None: gather on the host
    gather: Callable[[DeviceArray], DeviceArray] | None = None

    def __init__(self, name: str, *, description: str, priority: int,
                 locate: Callable[[], tuple[str | None, str]], settings: tuple[str, ...] = (),
                 check_settings: Callable[[], None] | None = None,
                 compile_source: Callable[[Any], str] | None = None) -> None:
        self.name = name
        self.description = description
        self.priority = priority
        self._locate = locate
        #: environment variables the ACL library reads at aclInit (named when it refuses them)
        self.settings = settings
        #: validates those settings before the library is loaded (raises EnvironmentSettingError)
        self._check_settings = check_settings
        #: compiles a pyasc.KernelSource into a binary this backend loads (sim: g++), or None
        self._compile_source = compile_source
        self._lib: Any = None
        self._devices: dict[int, Any] = {}
        self._default_streams: dict[int, AclStream] = {}
        self._lock = threading.Lock()
        fork.track(self)
        self._install_tensor_maker()

    def _install_tensor_maker(self) -> None:
        """``empty_tensor`` as one C call (``_acl.tensor_maker``; this class's method takes every
        call it does not handle), when the binding is built."""
        try:
            from pyasc_core.tensor import Tensor

            from . import _acl
        except ImportError:
            return
        from .storage import _STRIDES

        self.empty_tensor = _acl.tensor_maker((  # type: ignore[method-assign]
            AclBackend.empty_tensor.__get__(self), self, _current, _local, fork.stale, _san_active, self.name,
            _blocks, DeviceArray, Tensor, _STRIDES, np.dtype))

    # -- availability and devices ------------------------------------------------------------
    def availability(self) -> tuple[bool, str]:
        """(False, why) when the ACL library is not installed; BackendConfigError when it is but
        cannot start (a bad setting, a failing aclInit): that is never skipped silently."""
        path, reason = self._locate()
        if path is None:
            return False, reason
        try:
            if self._check_settings is not None:
                self._check_settings()
            lib = loader.load(path)
            count = lib.device_count()
        except ImportError as exc:
            return False, f"the ACL binding pyasc_acl._acl is not built ({exc}); reinstall pyasc with 'pip install .'"
        except Exception as exc:  # installed but unusable: say why and how to get going
            from pyasc_core.errors import BackendConfigError, EnvironmentSettingError

            why = str(exc) if isinstance(exc, EnvironmentSettingError) else f"the ACL library {path} failed: {exc}"
            fix = f"fix or unset the setting ({', '.join(self.settings)})" if self.settings else "fix the cause"
            raise BackendConfigError(
                f"backend {self.name!r} is installed but cannot start: {why.rstrip('.')}. To go on, {fix}, "
                "or choose another backend with PYASC_BACKEND=numpy or pyasc.set_backend('numpy')"
            ) from None
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
                    global _new_array, _Tensor, _ready_reads
                    from pyasc_core.tensor import Tensor

                    _Tensor = Tensor
                    _new_array = _acl.new_array  # empty's hot path (set before any device is listed)
                    _ready_reads = getattr(_acl, "ready_reads", None)  # adapt_kernel's check in C
                    _san.use_native(_acl.stream_recorder)  # the sanitizer's record loop in C
                    d = self._devices[device.index] = _acl.Device(self.library(), device.index, str(device))  # type: ignore[index]
        return d

    def info(self) -> dict[str, Any]:
        lib = self.library()
        dev = self.raw_device(self.device(0))
        _, total = dev.mem_info()
        return {"library": lib.path, "soc": lib.soc_name(), "device memory": f"{total / 2**30:.1f} GiB"}

    # -- storage -----------------------------------------------------------------------------
    def _alloc(self, shape: tuple[int, ...], dtype: np.dtype, device: Device, stream: Any) -> DeviceArray:
        if not isinstance(dtype, np.dtype):
            dtype = np.dtype(dtype)
        n = dtype.itemsize
        for s in shape:
            n *= s
        d = self._devices.get(device.index) if not fork.stale else None
        on = _san_active.get(self.name)
        if on is None:
            on = _san.active(self.name)
        # the block, its address, and the sanitizer's history of that address dropped (on_alloc)
        block, ptr = (d if d is not None else self.raw_device(device)).allocate_fresh(n, stream, _blocks if on else None)
        return DeviceArray.fresh(block, ptr, n, shape if type(shape) is tuple else tuple(shape), dtype, device)

    def wrap_pointer(self, ptr: int, nbytes: int, shape: tuple[int, ...], dtype: np.dtype,
                     strides: tuple[int, ...], device: Device, owner: Any) -> DeviceArray:
        """Storage over device memory pyasc does not own (``pyasc.from_device_pointer``): a block the
        caching allocator never frees, told to the simulated runtime like its own blocks (which
        refuses a range outside one live allocation of ``device``); ``owner`` is kept until the
        block's views are gone and the streams that used it are done."""
        from pyasc_core.errors import DevicePointerError

        stream = _current_raw_stream(device)
        try:
            block = self.raw_device(device).wrap_pointer(ptr, nbytes, stream, owner)
        except ValueError as exc:
            raise DevicePointerError(
                f"from_device_pointer: [{ptr:#x}, +{nbytes}) is not device memory pyasc can wrap on {device}: "
                f"{exc}. Pass an address and size inside one live allocation of {device} that another library "
                "owns (aclrtMalloc's, a torch_npu tensor's data_ptr()), on the device that allocated it; for "
                "pyasc's own memory use the tensor or a view of it") from None
        if _san.active(self.name):
            _san.on_alloc(ptr)  # fresh to the stream sanitizer, as any new block
        return DeviceArray(block, shape, dtype, device, 0, strides)

    def _copy(self, device: Device, dst: Any, src: Any, nbytes: int, stream: Any, synchronize: bool = False,
              dst_offset: int = 0, src_offset: int = 0) -> None:
        """A copy on ``stream``, checked by the stream sanitizer when it is on (external streams
        are not tracked: their owner orders them where pyasc cannot see)."""
        if _san.active(self.name) and not getattr(stream, "is_external", False):
            acc = []
            if type(src).__name__ == "DeviceBlock":
                acc.append((src.ptr, src_offset, src_offset + nbytes, False, "its source"))
            if type(dst).__name__ == "DeviceBlock":
                acc.append((dst.ptr, dst_offset, dst_offset + nbytes, True, "its destination"))
            _san.access(stream, acc, f"a copy of {nbytes} bytes")
            self.raw_device(device).copy(dst, src, nbytes, stream, synchronize, dst_offset=dst_offset,
                                         src_offset=src_offset)
            if synchronize or not (hasattr(src, "ptr") and hasattr(dst, "ptr")):  # pageable host side: waits
                _san.on_stream_sync(stream)
            return
        self.raw_device(device).copy(dst, src, nbytes, stream, synchronize, dst_offset=dst_offset,
                                     src_offset=src_offset)

    def _fill(self, device: Device, dst: Any, value: int, nbytes: int, stream: Any) -> None:
        """A memset on ``stream``, checked by the stream sanitizer when it is on."""
        if _san.active(self.name):
            _san.access(stream, [(dst.ptr, 0, nbytes, True, "its destination")], f"a fill of {nbytes} bytes")
        self.raw_device(device).fill(dst, value, nbytes, stream)

    def from_numpy(self, array: np.ndarray, device: Device, copy: bool) -> DeviceArray:
        arr = np.ascontiguousarray(array).reshape(np.shape(array))  # ascontiguousarray makes 0-d arrays 1-d
        stream = _current_raw_stream(device)
        out = self._alloc(arr.shape, arr.dtype, device, stream)
        if out.nbytes:
            self._copy(device, out.block, _bytes_view(arr), out.nbytes, stream, True)
        return out

    def to_numpy(self, storage: DeviceArray) -> np.ndarray:
        if storage.contiguous:
            out = np.empty(storage.shape, storage.dtype)
            if storage.nbytes:
                stream = _current_raw_stream(storage.device)
                self._copy(storage.device, _bytes_view(out), storage.block, storage.nbytes, stream, True,
                                                     src_offset=storage.byte_offset)
            return out
        if not storage.nbytes:
            return np.empty(storage.shape, storage.dtype)
        lo, hi = views.extent(storage.shape, storage.strides, storage.offset)
        if self.gather is not None and hi - lo > 2 * storage.size:  # sparse: gather on the device first
            return self.to_numpy(self._gather(self.gather, storage))
        buf, start = self._download_extent(storage)
        return np.array(views.over(buf, storage.shape, storage.strides, start))

    def _download_extent(self, storage: DeviceArray) -> tuple[np.ndarray, int]:
        """The elements a strided view spans, in one copy: (1-D host array, index of the view's
        element 0 in it). Views are gathered on the host: ACL copies are contiguous."""
        lo, hi = views.extent(storage.shape, storage.strides, storage.offset)
        buf = np.empty(hi - lo, storage.dtype)
        stream = _current_raw_stream(storage.device)
        self._copy(storage.device, _bytes_view(buf), storage.block, buf.nbytes, stream, True,
                                             src_offset=lo * storage.dtype.itemsize)
        return buf, storage.offset - lo

    def _upload_extent(self, storage: DeviceArray, buf: np.ndarray, start: int) -> None:
        lo = storage.offset - start
        stream = _current_raw_stream(storage.device)
        self._copy(storage.device, storage.block, _bytes_view(buf), buf.nbytes, stream, True,
                                             dst_offset=lo * storage.dtype.itemsize)

    def empty(self, shape: tuple[int, ...], dtype: np.dtype, device: Device) -> DeviceArray:
        stack = _current.get().get(device)  # current_stream(device), inlined (the allocation hot path)
        if stack:
            stream = stack[-1]._impl.raw
        else:
            cache = getattr(_local, "defaults", None)
            s = cache.get(device) if cache is not None else None
            stream = (s if s is not None else current_stream(device))._impl.raw
        d = self._devices.get(device.index)
        strides = _STRIDES.get(shape)
        if d is None or strides is None or fork.stale or not isinstance(dtype, np.dtype):
            return self._alloc(shape, dtype, device, stream)
        on = _san_active.get(self.name)
        if on is None:
            on = _san.active(self.name)
        # a DeviceArray over a cached block in one C call (its bytes from shape and dtype), the
        # sanitizer's history of its address dropped (on_alloc); None: the general allocation
        a = _new_array(d, None, stream, _blocks if on else None, DeviceArray, shape, dtype, device, strides)
        return a if a is not None else self._alloc(shape, dtype, device, stream)

    def empty_tensor(self, shape: tuple[int, ...], dtype: np.dtype, device: Device) -> Any:
        """``wrap_storage(self.empty(shape, dtype, device))`` in one C call when a cached block
        fits (this backend's ``adopt`` owns no host bytes). The fallback of ``_acl.tensor_maker``,
        which takes creation.empty's hot path (see _install_tensor_maker)."""
        stream = _current_raw_stream(device)
        d = self._devices.get(device.index)
        strides = _STRIDES.get(shape)
        if d is not None and strides is not None and not fork.stale and isinstance(dtype, np.dtype):
            on = _san_active.get(self.name)
            if on is None:
                on = _san.active(self.name)
            t = _new_array(d, None, stream, _blocks if on else None, DeviceArray, shape, dtype, device, strides,
                           _Tensor)
            if t is not None:
                return t
        from pyasc_core.tensor import wrap_storage

        return wrap_storage(self.empty(shape, dtype, device), device, self)

    def full(self, shape: tuple[int, ...], value: Any, dtype: np.dtype, device: Device) -> DeviceArray:
        pattern = np.full((), value, dtype).tobytes()  # raises OverflowError for values out of range
        if len(set(pattern)) != 1:
            return self.from_numpy(np.full(shape, value, dtype), device, copy=False)
        stream = _current_raw_stream(device)
        out = self._alloc(shape, dtype, device, stream)
        if out.nbytes:
            self._fill(device, out.block, pattern[0], out.nbytes, stream)
        return out

    def getitem(self, storage: DeviceArray, key: Any) -> DeviceArray:
        """Basic indexing returns a view sharing the block; advanced indexing a copy (as NumPy)."""
        try:
            if views.is_basic_key(key):
                shape, strides, offset = views.basic_index(storage.shape, storage.strides, storage.offset, key)
                return storage.view(shape, strides, offset)
            out = self.to_numpy(storage)[key]
        except IndexError as exc:
            raise IndexingError(f"{exc} (tensor shape {storage.shape})") from None
        return self.from_numpy(np.asarray(out), storage.device, copy=True)

    def setitem(self, storage: DeviceArray, key: Any, value: Any) -> None:
        """Writes through to the block: the span the view covers is read, assigned on the host with
        NumPy's rules, and written back (synchronously, on the current stream)."""
        if isinstance(value, DeviceArray):
            if self._copy_whole(storage, key, value):
                return
            value = self.to_numpy(value)  # a snapshot: overlapping source and target behave as in NumPy
        if not storage.nbytes:
            host = np.empty(storage.shape, storage.dtype)
            buf = None
        elif storage.contiguous:
            buf, start = np.empty(storage.size, storage.dtype), 0
            self._copy(storage.device, _bytes_view(buf), storage.block, storage.nbytes,
                                                 _current_raw_stream(storage.device), True,
                                                 src_offset=storage.byte_offset)
            host = buf.reshape(storage.shape)
        else:
            buf, start = self._download_extent(storage)
            host = views.over(buf, storage.shape, storage.strides, start, writeable=True)
        try:
            host[key] = value
        except IndexError as exc:
            raise IndexingError(f"{exc} (tensor shape {storage.shape})") from None
        except ValueError as exc:
            raise ShapeError(f"cannot assign: {exc}") from None
        if buf is not None:
            self._upload_extent(storage, buf, start)

    def _copy_whole(self, storage: DeviceArray, key: Any, value: DeviceArray) -> bool:
        """``storage[...] = value`` as one device-to-device copy on the current stream when both are
        contiguous, alike, on one device and not partly overlapping; False: not handled."""
        whole = key is Ellipsis or key == () or (isinstance(key, slice) and key == slice(None))
        if not (whole and storage.contiguous and value.contiguous and storage.shape == value.shape
                and storage.dtype == value.dtype and storage.device is value.device
                and storage.nbytes):
            return False
        dst, src = storage.ptr, value.ptr
        if dst != src and dst < src + value.nbytes and src < dst + storage.nbytes:
            return False  # partly overlapping: the snapshot path keeps NumPy's semantics
        self._copy(storage.device, storage.block, value.block, storage.nbytes,
                   _current_raw_stream(storage.device), False, dst_offset=storage.byte_offset,
                   src_offset=value.byte_offset)
        return True

    def contiguous(self, storage: DeviceArray) -> DeviceArray:
        """``storage`` itself when contiguous, else a contiguous copy: gathered on the device by the
        copy kernel when the built-in kernels are installed for this backend, else through the host."""
        if storage.contiguous:
            return storage
        gather = self.gather
        if gather is not None:
            return self._gather(gather, storage)
        return self.from_numpy(self.to_numpy(storage), storage.device, copy=True)

    def adapt_kernel(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        """Kernels see contiguous inputs whose first element is 32-byte aligned (what Ascend C's
        DataCopy expects of GM): other tensor inputs (strided views, views at an odd offset) are
        first copied. Kernels marked ``fn.pyasc_strided_inputs = True`` take views as they are."""
        from pyasc_core.tensor import Tensor, wrap_storage

        if getattr(fn, "pyasc_strided_inputs", False):
            return self._sanitized(fn, Tensor)

        def ready(d: DeviceArray) -> bool:
            return d.contiguous and not (d._ptr + d.offset * d.dtype.itemsize) % KERNEL_ALIGN

        def prepare(a: Any) -> Any:
            if type(a) is Tensor and not ready(a._data):
                return wrap_storage(self._kernel_copy(a._data), a._device, self)
            return a

        def kernel(meta: Any, *args: Any) -> Any:
            for a in args:
                if type(a) is Tensor and not ready(a._data):
                    return fn(meta, *map(prepare, args))
            return fn(meta, *args)

        kernel.__wrapped__ = fn  # type: ignore[attr-defined]
        kernel.__name__ = getattr(fn, "__name__", "kernel")
        kernel.__doc__ = getattr(fn, "__doc__", None)
        slow = self._sanitized(kernel, Tensor)
        name = self.name

        def op_kernel(meta: Any, *args: Any) -> Any:
            """``slow`` in one pass over the arguments when every tensor is ready (the hot path)."""
            on = _san_active.get(name)
            if on is None or fork.stale:
                return slow(meta, *args)
            # all ready and the read list, checked in C (the hot path); None: the loop below decides
            reads = _ready_reads(args, Tensor) if _ready_reads is not None else None
            if reads is None:
                reads = []
                for a in args:
                    if type(a) is Tensor:
                        d = a._data
                        p = d._ptr
                        o = d.offset  # 0 for all but views: no itemsize lookup then
                        if not d.contiguous or (p + o * d.dtype.itemsize if o else p) % KERNEL_ALIGN:
                            return slow(meta, *args)
                        if on and 0 not in d.shape:
                            reads.append(p)
            if not on:
                return fn(meta, *args)
            token = _op_reads.set(reads)  # a short list: `in` is as quick as a set's
            try:
                return fn(meta, *args)
            finally:
                _op_reads.reset(token)

        op_kernel.__wrapped__ = fn  # type: ignore[attr-defined]
        op_kernel.__name__ = kernel.__name__
        op_kernel.__doc__ = kernel.__doc__
        plan_call = getattr(fn, "pyasc_plan_call", None)
        if plan_call is not None:
            op_kernel.pyasc_fast = lambda meta, args: self._fast_kernel(op_kernel, plan_call, meta, args)  # type: ignore[attr-defined]
        return op_kernel

    def _fast_kernel(self, op_kernel: Callable[..., Any], plan_call: Callable[..., Any], meta: Any,
                     args: tuple) -> Callable[..., Any] | None:
        """The dispatcher's hot path for calls like ``op_kernel(meta, *args)`` (same dtypes, shapes,
        device; see OpHandle) in one C call (``_acl.op_plan``): op_kernel's readiness check and read
        list, then the kernel's launch plan (``plan_call(meta, args)``, a pyasc_kernels PlanCall:
        output and launch, the read list passed to the launch instead of through the op-reads
        ContextVar); any other case takes op_kernel. None: no plan for such calls, or no binding."""
        plan = plan_call(meta, args)
        if plan is None or _Tensor is None:
            return None
        from . import _acl

        op_plan = getattr(_acl, "op_plan", None)
        if op_plan is None:
            return None
        return op_plan(len(args), (op_kernel, _san_active, self.name, fork.stale, _Tensor, plan.guards, plan.make,
                                   plan.shape, plan.dtype, plan.device, plan.launch, plan.blocks, plan.tail,
                                   plan.counts, plan.place))

    def _sanitized(self, fn: Callable[..., Any], tensor_type: type) -> Callable[..., Any]:
        """``fn`` telling the stream sanitizer (when on) which blocks the op only reads: its tensor
        inputs (ops do not write their inputs); the launches inside write the rest."""
        name = self.name

        def op_kernel(meta: Any, *args: Any) -> Any:
            if not _san.active(name):
                return fn(meta, *args)
            reads = frozenset([a._data.block.ptr for a in args if type(a) is tensor_type and a._data.nbytes])
            token = _san.enter_op_reads(reads)
            try:
                return fn(meta, *args)
            finally:
                _san.exit_op_reads(token)

        op_kernel.__wrapped__ = fn  # type: ignore[attr-defined]
        op_kernel.__name__ = getattr(fn, "__name__", "kernel")
        op_kernel.__doc__ = getattr(fn, "__doc__", None)
        return op_kernel

    def _gather(self, gather: Callable[[DeviceArray], DeviceArray], storage: DeviceArray) -> DeviceArray:
        """The device-side gather of a view; the stream sanitizer counts its source as read."""
        if not _san.active(self.name):
            return gather(storage)
        with _san.op_reads(frozenset((storage.block.ptr,))):
            return gather(storage)

    def _kernel_copy(self, storage: DeviceArray) -> DeviceArray:
        """A fresh (aligned) contiguous copy of ``storage`` on the device."""
        if not storage.contiguous:
            return self.contiguous(storage)
        stream = _current_raw_stream(storage.device)
        out = self._alloc(storage.shape, storage.dtype, storage.device, stream)
        if out.nbytes:
            self._copy(storage.device, out.block, storage.block, out.nbytes, stream, False,
                                                 src_offset=storage.byte_offset)
        return out

    def copy_from(self, storage: Any, src: Device, device: Device, non_blocking: bool = False) -> Any:
        """Host->device, device->host and same-device copies on the current stream; ``non_blocking``
        copies go through pinned memory and return before the stream ran them. None: not handled."""
        src_dev = src
        src_backend = backend_for_device(src_dev)
        if device.type == self.name and src_backend.is_host:
            return self._upload(storage, device, non_blocking)
        if device.type == self.name and src_dev is device:
            src_arr: DeviceArray = self.contiguous(storage)
            if src_arr is not storage:
                return src_arr  # already a fresh copy
            stream = _current_raw_stream(device)
            out = self._alloc(src_arr.shape, src_arr.dtype, device, stream)
            if out.nbytes:
                self._copy(device, out.block, src_arr.block, out.nbytes, stream, not non_blocking,
                                             src_offset=src_arr.byte_offset)
            return out
        if src_dev.type == self.name and non_blocking:
            dst_backend = backend_for_device(device)
            if dst_backend.is_host and (storage.contiguous or self.gather is not None):
                # a strided view is gathered on the stream first (the temporary block is recorded
                # on the stream by the copy, so it is not reused before the copy ran)
                arr = self._download_async(self.contiguous(storage))
                return dst_backend.from_numpy(arr, device, copy=False)
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
            self._copy(device, out.block, pinned, out.nbytes, stream)  # pinned is reused only after the copy ran
        return out

    def _download_async(self, storage: DeviceArray) -> np.ndarray:
        """A NumPy array over pinned memory that the current stream fills (valid after synchronize)."""
        if not storage.nbytes:
            return np.empty(storage.shape, storage.dtype)
        dev = self.raw_device(storage.device)
        pinned = dev.allocate_host(storage.nbytes)
        self._copy(storage.device, pinned, storage.block, storage.nbytes, _current_raw_stream(storage.device),
                   src_offset=storage.byte_offset)
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
        return AclStream(self.raw_device(device).create_stream(), self.name)

    def external_stream(self, device: Device, handle: int) -> StreamImpl:
        """A stream another library created on this device (torch_npu's, ...), by its aclrtStream.
        The stream sanitizer does not track it: its owner may order or synchronize it where pyasc
        cannot see (a torch_npu synchronize would otherwise look like a race)."""
        return AclStream(self.raw_device(device).external_stream(handle), "")

    def default_stream(self, device: Device) -> StreamImpl:
        if fork.stale:
            fork.check(self.name)
        s = self._default_streams.get(device.index)  # type: ignore[arg-type]
        if s is None:
            s = self._default_streams.setdefault(device.index, AclStream(self.raw_device(device).default_stream, self.name))  # type: ignore[arg-type]
        return s

    def create_event(self, device: Device, enable_timing: bool) -> EventImpl:
        return AclEvent(self.raw_device(device).create_event(), enable_timing, self.name)

    # -- Ascend C kernels (pyasc.Kernel) ---------------------------------------------------
    def compile_kernel(self, source: Any) -> Any:
        """The binary a pack ships for this backend (``binaries={"npu": path}``, or built ahead of
        time next to the source), else the source compiled by ``compile_source`` into the per-user
        cache (sim: g++; npu: CANN's bisheng when installed, see ``cann_compile``)."""
        path = source.binaries.get(self.name)
        if path is None and self._compile_source is not None and (source.text or source.path):
            return self._compile_source(source)
        if path is None:
            raise KernelNotFoundError(
                f"no {self.name} binary for the kernel source {source.path or '<text>'}: pass the binary the "
                f"pack built, pyasc.Kernel(source, name, binaries={{{self.name!r}: 'path/to/kernel.o'}}) (built "
                "with CANN's compiler at the pack's install), or run on 'sim'")
        if not os.path.isfile(path):
            raise KernelNotFoundError(f"the {self.name} kernel binary {path} does not exist; rebuild the pack "
                                      "(its install compiles it) or fix the path in binaries=")
        return path

    def kernel_names(self, artifact: Any) -> list[str]:
        from .signature import read_signatures

        names = list(read_signatures(artifact)) or list(getattr(artifact, "signatures", ()))
        if not names:
            raise KernelNotFoundError(f"the binary {artifact} records no kernel names: name the kernel, "
                                      "pyasc.Kernel(source, 'name')")
        return names

    def load_kernel(self, artifact: Any, name: str, device: Device) -> Any:
        from .kernels import Binary

        fn = Binary(artifact, device=device).function(name)
        if fn.signature is None:  # bisheng's output: the layout pyasc computed from the source
            fn.signature = getattr(artifact, "signatures", {}).get(name)
        # a binary without any signature (a shipped CANN binary, an older one) takes 8 bytes per
        # argument: right for the standard custom-op signature (every parameter a GM address)
        return fn if fn.signature is None else fn.typed()

    def synchronize(self, device: Device) -> None:
        d = self._devices.get(device.index) if not fork.stale else None
        (d if d is not None else self.raw_device(device)).synchronize()
        on = _san_active.get(self.name)
        if on or (on is None and _san.active(self.name)):
            _san.on_device_sync()


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
