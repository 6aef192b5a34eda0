"""The ``numpy`` backend (alias ``reference``): the golden model every other backend is checked against.

Tensors are NumPy arrays in host memory. Each op runs its NumPy reference implementation, in
float32 for float16/bfloat16 inputs, and the result is cast back to the dtype the meta function
declared.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np

from . import dtypes as _dt
from . import views
from .backend import MEMORY_STAT_KEYS, Backend, EventImpl, StreamImpl, TensorMeta
from .device import Device
from .errors import ArgumentError, IndexingError, OutOfMemoryError, PyascError, ReferenceMismatchError
from .hookspecs import hookimpl
from .host_memory import HOST_MEMORY
from .host_streams import HostEvent, HostStream
from .tensor import Tensor, wrap_host

_F16 = _dt.float16
_BF16 = _dt.bfloat16
_F32 = np.dtype(np.float32)
#: ops whose result is a view of their input where NumPy's is (transpose always, reshape when the
#: strides allow), on every backend
VIEW_OPS = frozenset({"pyasc::transpose", "pyasc::reshape"})


def _upcast(a: Any) -> Any:
    """Tensor -> its array, float16/bfloat16 widened to float32; other values unchanged."""
    if isinstance(a, Tensor):
        d = a._data
        dt = d.dtype
        if dt is _F16 or dt is _BF16:  # tensors hold native, canonical dtype objects
            return d.astype(_F32)
        return d
    return a


def _overflow(op: str, exc: OverflowError) -> ArgumentError:
    """NumPy refuses a Python int that does not fit the tensor's integer dtype: say so and how to fix."""
    return ArgumentError(
        f"{op}: {exc}; a Python scalar must fit the integer dtype of the tensor it meets. "
        "Cast the tensor to a wider dtype first, e.g. x.astype('int64')"
    )


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


class ReferenceBackend(Backend):
    name = "numpy"
    aliases = ("reference",)
    description = "NumPy reference implementations on the host (the golden model)"
    is_host = True
    priority = 0
    default_kernel_label = "reference"

    def __init__(self) -> None:
        self._device = Device("numpy")
        self._limit: int | None = None
        self._num_ooms = 0
        self._default_stream = HostStream()

    def device(self, index: int | None = None) -> Device:
        if index not in (None, 0):
            raise PyascError(f"the numpy backend has one device; got index {index}. Use 'numpy'.")
        return self._device

    def info(self) -> dict[str, Any]:
        return {"numpy": np.__version__, "host memory": f"{_physical_memory() / 2**30:.1f} GiB"}

    # -- storage -----------------------------------------------------------------------------
    def wrap(self, storage: np.ndarray, device: Device) -> Tensor:
        if self._limit is not None and storage.base is None:
            self._check_limit(storage.nbytes)
        return wrap_host(storage, device)

    def from_numpy(self, array: np.ndarray, device: Device, copy: bool) -> np.ndarray:
        if copy:
            return np.array(array, copy=True, order="C")
        return array.view()  # shares the caller's memory, which pyasc does not count as its own

    def to_numpy(self, storage: np.ndarray) -> np.ndarray:
        return storage

    def empty(self, shape: tuple[int, ...], dtype: np.dtype, device: Device) -> np.ndarray:
        return np.empty(shape, dtype)

    def full(self, shape: tuple[int, ...], value: Any, dtype: np.dtype, device: Device) -> np.ndarray:
        return np.full(shape, value, dtype)

    def getitem(self, storage: np.ndarray, key: Any) -> np.ndarray:
        try:
            out = storage[key]
            if type(out) is not np.ndarray:
                # an int per axis: a 0-d view (as PyTorch; NumPy would give a detached scalar),
                # a copy for advanced keys (0-d index arrays)
                out = storage[views.full_int_key(key)] if views.is_basic_key(key) else np.asarray(out)
        except IndexError as exc:
            raise IndexingError(f"{exc} (tensor shape {storage.shape})") from None
        return out

    def contiguous(self, storage: np.ndarray) -> np.ndarray:
        return storage if storage.flags.c_contiguous else storage.copy(order="C")

    def setitem(self, storage: np.ndarray, key: Any, value: Any) -> None:
        if not storage.flags.writeable:
            raise PyascError(
                f"cannot assign into a read-only tensor (shape {storage.shape}): it shares memory "
                "with a read-only buffer (e.g. from from_dlpack); make a writable copy with t.clone()"
            )
        try:
            storage[key] = value
        except IndexError as exc:
            raise IndexingError(f"{exc} (tensor shape {storage.shape})") from None
        except ValueError as exc:
            from .errors import ShapeError

            raise ShapeError(f"cannot assign: {exc}") from None

    # -- kernels -----------------------------------------------------------------------------
    def default_kernel(self, op: Any) -> Callable[..., Any] | None:
        if op.reference is None:
            return None
        ref = op.caller(op.reference)
        name = op.name
        device = self._device
        wrap = self.wrap
        nret = len(op.schema.returns)

        if name in VIEW_OPS:  # views of the input's memory: no float32 round trip
            def view_kernel(meta: TensorMeta, x: Tensor, arg: Any) -> Tensor:
                res = ref(x._data, arg)
                if res.shape != meta.shape:
                    raise ReferenceMismatchError(
                        f"the reference of {name} returned shape {res.shape}, but its meta function "
                        f"declared {meta.shape}; fix one of them"
                    )
                return wrap(res, device)

            return view_kernel

        def finish(res: Any, meta: TensorMeta) -> Tensor:
            if type(res) is not np.ndarray:
                res = np.asarray(res)
            if res.dtype is not meta.dtype and res.dtype != meta.dtype:
                res = res.astype(meta.dtype)
            if res.shape != meta.shape:
                raise ReferenceMismatchError(
                    f"the reference of {name} returned shape {res.shape}, but its meta function "
                    f"declared {meta.shape}; fix one of them"
                )
            return wrap(res, device)

        if nret == 1 and len(op.schema.params) == 2 and self._limit is None:
            # the hot binary path, inlined: this is most of an op's per-call cost
            alloc = HOST_MEMORY.alloc
            new = object.__new__

            def kernel2(meta: TensorMeta, a: Any, b: Any) -> Tensor:
                if type(a) is Tensor:
                    a = a._data
                    d = a.dtype
                    if d is _F16 or d is _BF16:
                        a = a.astype(_F32)
                if type(b) is Tensor:
                    b = b._data
                    d = b.dtype
                    if d is _F16 or d is _BF16:
                        b = b.astype(_F32)
                try:
                    res = ref(a, b)
                except OverflowError as exc:
                    raise _overflow(name, exc) from None
                if type(res) is not np.ndarray:
                    res = np.asarray(res)
                if res.dtype is not meta.dtype:
                    res = res.astype(meta.dtype, copy=False)
                if res.shape != meta.shape:
                    return finish(res, meta)  # raises the mismatch error
                t = new(Tensor)
                t._data = res
                t._device = device
                if res.base is None:
                    n = t._owned = res.nbytes
                    alloc(n)
                else:
                    t._owned = 0
                return t

            return kernel2
        if nret == 1 and len(op.schema.params) == 1:
            def kernel1(meta: TensorMeta, a: Any) -> Tensor:
                try:
                    return finish(ref(_upcast(a)), meta)
                except OverflowError as exc:
                    raise _overflow(name, exc) from None

            return kernel1

        def kernel(meta: Any, *args: Any) -> Any:
            try:
                res = ref(*[_upcast(a) for a in args])
            except OverflowError as exc:
                raise _overflow(name, exc) from None
            if nret == 1:
                return finish(res, meta)
            return tuple(finish(r, m) for r, m in zip(res, meta))

        return kernel

    # -- memory ------------------------------------------------------------------------------
    def _check_limit(self, nbytes: int) -> None:
        limit = self._limit
        assert limit is not None
        if HOST_MEMORY.current + nbytes > limit:
            self._num_ooms += 1
            raise OutOfMemoryError(
                f"numpy backend: allocating {nbytes} bytes would exceed the memory limit of {limit} "
                f"bytes (allocated {HOST_MEMORY.current}, reserved {HOST_MEMORY.current}, free "
                f"{max(limit - HOST_MEMORY.current, 0)}, total {limit}); free tensors you no longer "
                "need or raise the limit with pyasc.memory.set_memory_limit(...)"
            )

    def memory_stats(self, device: Device) -> dict[str, int]:
        m = HOST_MEMORY
        values = {
            "allocated_bytes.all.current": m.current,
            "allocated_bytes.all.peak": m.peak,
            "allocated_bytes.all.allocated": m.allocated,
            "allocated_bytes.all.freed": m.freed,
            # no caching on the host: reserved equals allocated
            "reserved_bytes.all.current": m.current,
            "reserved_bytes.all.peak": m.peak,
            "reserved_bytes.all.allocated": m.allocated,
            "reserved_bytes.all.freed": m.freed,
            "active_bytes.all.current": m.current,
            "active_bytes.all.peak": m.peak,
            "allocation.all.current": m.count,
            "allocation.all.peak": m.count_peak,
            "allocation.all.allocated": m.count_total,
            "allocation.all.freed": m.count_total - m.count,
            "num_alloc_retries": 0,
            "num_ooms": self._num_ooms,
        }
        assert tuple(values) == MEMORY_STAT_KEYS
        return values

    def reset_peak_memory_stats(self, device: Device) -> None:
        HOST_MEMORY.reset_peak()

    def set_memory_limit(self, device: Device, nbytes: int | None) -> None:
        if (self._limit is None) != (nbytes is None):
            from .registry import REGISTRY

            REGISTRY.invalidate()  # kernels are specialised on whether a limit is checked
        self._limit = nbytes

    def mem_get_info(self, device: Device) -> tuple[int, int]:
        total = self._limit if self._limit is not None else _physical_memory()
        if self._limit is not None:
            return max(total - HOST_MEMORY.current, 0), total
        try:
            free = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
        except (ValueError, OSError, AttributeError):
            free = 0
        return free, total

    # -- streams -----------------------------------------------------------------------------
    def create_stream(self, device: Device) -> StreamImpl:
        return HostStream()

    def default_stream(self, device: Device) -> StreamImpl:
        return self._default_stream

    def create_event(self, device: Device, enable_timing: bool) -> EventImpl:
        return HostEvent(enable_timing)


BACKEND = ReferenceBackend()


@hookimpl
def pyasc_register_backends(register: Callable[[Backend], None]) -> None:
    register(BACKEND)
