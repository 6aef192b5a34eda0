"""Device memory pyasc does not own, as a Tensor (CuPy's ``UnownedMemory`` + ``MemoryPointer``):
``from_device_pointer`` wraps an address another library allocated (aclrtMalloc, torch_npu, ...).

pyasc never frees it; ``owner`` (any object, e.g. the tensor that owns the memory) is kept alive
while pyasc's tensor lives and until the streams that used the memory have finished that work.
Freeing the memory stays the owner's job."""

from __future__ import annotations

import math
from typing import Any

import attrs

from . import dtypes as _dt
from .errors import ArgumentError, DevicePointerError, DtypeError
from .registry import backend_for_device
from .selection import resolve_device
from .tensor import Tensor, wrap_storage


@attrs.frozen
class UnownedMemory:
    """``ptr`` .. ``ptr + size`` bytes of device memory on ``device`` that ``owner`` frees (CuPy's
    ``cupy.cuda.UnownedMemory``); pass it to :func:`from_device_pointer` in place of an address."""

    ptr: int
    size: int
    owner: Any = None
    device: Any = None


def _int(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            return int(value.__index__())  # NumPy integers, ...
        except (AttributeError, TypeError):
            raise ArgumentError(f"from_device_pointer: {name} must be an int, got {type(value).__name__} "
                                f"{value!r:.60}") from None
    return value


def _dims(name: str, values: Any) -> tuple[int, ...]:
    if isinstance(values, int) and not isinstance(values, bool):
        values = (values,)
    try:
        dims = tuple(_int(name, v) for v in values)
    except TypeError:
        raise ArgumentError(f"from_device_pointer: {name} must be a tuple of ints, got {values!r:.60}") from None
    if any(d < 0 for d in dims):
        raise ArgumentError(f"from_device_pointer: {name} {dims} has a negative entry; sizes and strides "
                            "(in elements) are >= 0 here (wrap the lowest address and index the tensor)")
    return dims


def extent_bytes(shape: tuple[int, ...], strides: tuple[int, ...], itemsize: int) -> int:
    """Bytes a strided view spans from element 0 (0 for an empty tensor)."""
    if 0 in shape:
        return 0
    return (sum((n - 1) * s for n, s in zip(shape, strides)) + 1) * itemsize


def from_device_pointer(ptr: Any, shape: Any, dtype: Any, *, strides: Any = None, nbytes: int | None = None,
                        device: Any = None, backend: str | None = None, owner: Any = None) -> Tensor:
    """A Tensor over device memory at address ``ptr`` that pyasc does not own.

    ``strides`` are in elements (as ``Tensor.strides`` and torch; default row-major); ``nbytes``
    is the size of the memory at ``ptr`` (default: what ``shape``/``strides`` span). ``device`` is
    a device ('sim:0', 'npu:1', a pyasc.Device) or an index on ``backend`` (default the current
    backend). ``ptr`` may also be an :class:`UnownedMemory`. pyasc never frees the memory: the
    allocator, streams and both sanitizers treat it like any block, and ``owner`` is kept until
    the tensor (and its views) are gone and their queued work is done. On ``sim`` the runtime
    checks that the range lies inside one live device allocation of that device (on ``npu`` ACL
    offers no such check: a wrong address faults in the kernel); pyasc's own memory is refused."""
    if isinstance(ptr, UnownedMemory):
        mem = ptr
        if nbytes is not None and nbytes != mem.size:
            raise ArgumentError(f"from_device_pointer: nbytes={nbytes} contradicts the UnownedMemory's size "
                                f"{mem.size}; leave nbytes out")
        ptr, nbytes = mem.ptr, mem.size
        owner = mem.owner if owner is None else owner
        device = mem.device if device is None else device
    ptr = _int("ptr", ptr)
    if ptr <= 0:
        raise DevicePointerError(f"from_device_pointer: ptr={ptr:#x} is not a device address (null or negative); "
                                 "pass the address the allocator returned (e.g. aclrtMalloc's, or t.data_ptr())")
    shape = _dims("shape", shape)
    try:
        dt = _dt.as_dtype(dtype)
    except (DtypeError, TypeError) as exc:
        raise DtypeError(f"from_device_pointer: {exc}") from None
    itemsize = dt.itemsize
    if strides is None:
        from .views import contiguous_strides

        strides = contiguous_strides(shape)
    else:
        strides = _dims("strides", strides)
        if len(strides) != len(shape):
            raise ArgumentError(f"from_device_pointer: strides {strides} do not match shape {shape} "
                                f"({len(strides)} vs {len(shape)} dimensions); give one stride per dimension")
    need = extent_bytes(shape, strides, itemsize)
    if nbytes is None:
        nbytes = need
    nbytes = _int("nbytes", nbytes)
    if nbytes < need:
        raise DevicePointerError(
            f"from_device_pointer: {nbytes} bytes at {ptr:#x} are too few for shape {shape} of "
            f"{_dt.dtype_name(dt)} with strides {strides} (needs {need} bytes = {math.prod(shape)} elements x "
            f"{itemsize}); pass the memory's real size as nbytes, or a smaller shape")
    if ptr % itemsize:
        raise DevicePointerError(f"from_device_pointer: ptr={ptr:#x} is not aligned to {_dt.dtype_name(dt)}'s "
                                 f"{itemsize} bytes; pass an address that is a multiple of {itemsize}")
    dev = _device(device, backend)
    impl = backend_for_device(dev)
    try:
        if impl.is_host:
            raise NotImplementedError
        storage = impl.wrap_pointer(ptr, nbytes, shape, dt, strides, dev, owner)
    except NotImplementedError:
        raise DevicePointerError(f"from_device_pointer: backend {impl.name!r} has no device memory to wrap; "
                                 "use 'sim' or 'npu' (host arrays: pyasc.from_numpy / pyasc.from_dlpack)") from None
    return wrap_storage(storage, dev, impl)


def _device(device: Any, backend: str | None) -> Any:
    if isinstance(device, int) and not isinstance(device, bool):
        if device < 0:
            raise DevicePointerError(f"from_device_pointer: device index {device} is negative; use 0, 1, ...")
        if backend is None:
            return resolve_device(resolve_device(None).type + f":{device}")
        return resolve_device(f"{backend}:{device}")
    if backend is not None:
        if device is not None:
            raise ArgumentError(f"from_device_pointer: give device={device!r} or backend={backend!r}, not both "
                                "(or device as an index on backend)")
        return resolve_device(f"{backend}:0")
    return resolve_device(device)
