"""Creating tensors: from data (tensor, asarray, from_numpy), filled (empty, zeros, ones, full),
ranges (arange), the ``*_like`` forms, and moving between devices."""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import dtypes as _dt
from .backend import Backend
from .device import Device
from .errors import ArgumentError, DtypeError, PyascError, ShapeError
from .registry import REGISTRY, backend_for_device
from .selection import resolve_device
from .tensor import Tensor, wrap_storage
from .values import MAX_NBYTES, check_array, check_nbytes, check_scalar

_new = object.__new__


def _check_backend_dtype(dt: np.dtype, device: Device) -> Any:
    backend = backend_for_device(device)
    if dt not in backend.dtypes:
        allowed = ", ".join(_dt.dtype_name(d) for d in _dt.ALL_DTYPES if d in backend.dtypes)
        raise DtypeError(
            f"dtype {_dt.dtype_name(dt)} is not supported on {device}; supported there: {allowed}. "
            "Cast first, e.g. .astype('float32')"
        )
    return backend


def _data_to_numpy(data: Any, dtype: Any) -> np.ndarray:
    """NumPy array for Python/NumPy data with pyasc's dtype rules (Python floats -> float32)."""
    want = _dt.as_dtype(dtype) if dtype is not None else None
    try:
        arr = np.asarray(data)
    except ValueError as exc:
        raise ShapeError(f"cannot make a tensor from this data: {exc} (rows must have equal lengths)") from None
    if arr.dtype == object or arr.dtype.kind in "USVOc" and arr.dtype != _dt.bfloat16:
        raise DtypeError(
            f"cannot make a tensor from data of NumPy dtype {arr.dtype} ({type(data).__name__}); "
            "give numbers, bools or arrays of a supported dtype"
        )
    if not arr.dtype.isnative:
        arr = arr.astype(arr.dtype.newbyteorder("="))
    if want is None:
        if not isinstance(data, np.ndarray) and arr.dtype == np.float64 and not hasattr(data, "__array__"):
            want = _dt.DEFAULT_FLOAT
        else:
            want = _dt.as_dtype(arr.dtype)
    if arr.dtype != want:
        check_array(arr, want, "tensor() value")
        arr = arr.astype(want)
    return arr


def tensor(data: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """A new tensor holding a copy of ``data`` (lists, scalars, NumPy arrays, tensors)."""
    if isinstance(data, Tensor):
        data = data.numpy()
    arr = _data_to_numpy(data, dtype)
    dev = resolve_device(device)
    backend = _check_backend_dtype(arr.dtype, dev)
    return wrap_storage(backend.from_numpy(arr, dev, copy=True), dev, backend)


def asarray(data: Any, dtype: Any = None, device: Any = None, copy: bool | None = None) -> Tensor:
    """Like ``tensor`` but shares memory when it can (``copy=False`` demands that it does)."""
    if isinstance(data, Tensor):
        out = data
        if device is not None:
            out = out.to(resolve_device(device))
        if dtype is not None:
            out = out.to(_dt.as_dtype(dtype))
        if copy:
            out = out.clone() if out is data else out
        elif copy is False and out is not data:
            raise PyascError("asarray(copy=False) cannot avoid a copy here (device or dtype change)")
        return out
    dev = resolve_device(device)
    backend = backend_for_device(dev)
    arr = _data_to_numpy(data, dtype)
    _check_backend_dtype(arr.dtype, dev)
    shares = isinstance(data, np.ndarray) and arr is data
    if copy is False and not (backend.is_host and shares):
        raise PyascError(
            f"asarray(copy=False) cannot share this data's memory on {dev}; drop copy=False to allow a copy"
        )
    return wrap_storage(backend.from_numpy(arr, dev, copy=bool(copy) or not shares), dev, backend)


def from_numpy(array: np.ndarray, device: Any = None) -> Tensor:
    """A tensor over a NumPy array: shared memory on host backends, a copy on device backends."""
    if not isinstance(array, np.ndarray):
        raise ArgumentError(f"from_numpy expects a numpy.ndarray, got {type(array).__name__}; use pyasc.tensor(...)")
    dt = _dt.as_dtype(array.dtype)
    dev = resolve_device(device)
    backend = _check_backend_dtype(dt, dev)
    return wrap_storage(backend.from_numpy(array, dev, copy=not backend.is_host), dev, backend)


def _shape(shape: Any) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)) and not isinstance(shape, bool):
        shape = (shape,)
    if not isinstance(shape, Sequence) or not all(
        isinstance(d, (int, np.integer)) and not isinstance(d, bool) for d in shape
    ):
        raise ArgumentError(f"a shape must be an int or a sequence of ints, got {shape!r}")
    out = tuple(int(d) for d in shape)
    if any(d < 0 for d in out):
        raise ShapeError(f"shape {out} has a negative dimension; dimensions must be >= 0")
    return out


def _shape_args(shape: tuple[Any, ...]) -> tuple[int, ...]:
    if len(shape) == 1 and type(shape[0]) is tuple:
        s = shape[0]
        if all(type(d) is int and d >= 0 for d in s):  # the common form: a tuple of Python ints
            return s
    if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
        return _shape(shape[0])
    return _shape(shape)


#: (device spec, dtype spec) -> (dtype, Device, backend, registry version): a repeated
#: ``empty(shape, device="sim")`` skips parsing, resolving and checking what it already checked
_RESOLVED: dict[Any, tuple[np.dtype, Device, Any, int, bool, Any]] = {}


#: device spec -> its _RESOLVED entry for the default dtype: ``empty(shape, device=...)`` without a
#: dtype finds it by the (string) spec alone, without building and hashing a (device, dtype) key
_DEFAULT_DTYPE: dict[Any, tuple[np.dtype, Device, Any, int, bool, Any]] = {}


def _resolve(dtype: Any, device: Any) -> tuple[np.dtype, Device, Any]:
    """(dtype, Device, backend) for creation, checked (cached for string and Device specs)."""
    key = None
    if (type(device) is str or type(device) is Device) and dtype is not None:
        key = (device, dtype)
        try:
            hit = _RESOLVED.get(key)
        except TypeError:  # an unhashable dtype spec: the checked path says what is wrong
            hit, key = None, None
        if hit is not None and hit[3] == REGISTRY.version:
            return hit[0], hit[1], hit[2]
    dt = _dt.as_dtype(dtype)
    dev = resolve_device(device)
    backend = _check_backend_dtype(dt, dev)
    if key is not None:
        if len(_RESOLVED) > 256:
            _RESOLVED.clear()
        # the backend's adopt is the base one (checks nothing, owns no host bytes); then its
        # optional ``empty_tensor`` (an empty Tensor in one call, as wrap_storage makes it) or None
        plain = type(backend).adopt is Backend.adopt
        _RESOLVED[key] = (dt, dev, backend, REGISTRY.version, plain,
                          getattr(backend, "empty_tensor", None) if plain else None)
    return dt, dev, backend


def _filled(shape: tuple[int, ...], value: Any, dtype: Any, device: Any) -> Tensor:
    if dtype is not None:
        dt, dev, backend = _resolve(dtype, device)
    else:
        dt = _dt.infer_dtype(value) or _dt.DEFAULT_FLOAT
        dev = resolve_device(device)
        backend = _check_backend_dtype(dt, dev)
    if dev.type != "meta":  # meta tensors hold no data, so any size is fine there
        check_nbytes(shape, dt)
    if value is None:
        return wrap_storage(backend.empty(shape, dt, dev), dev, backend)
    check_scalar(value, dt, "fill value")
    try:
        storage = backend.full(shape, value, dt, dev)
    except OverflowError:
        raise ArgumentError(
            f"fill value {value!r} does not fit in dtype {_dt.dtype_name(dt)}; use a value in "
            "its range or a wider dtype, e.g. dtype='int64' or 'float32'"
        ) from None
    return wrap_storage(storage, dev, backend)


def empty(*shape: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """An uninitialised tensor (float32 unless ``dtype`` says otherwise)."""
    dims = shape[0] if len(shape) == 1 and type(shape[0]) is tuple else shape
    n = 1
    for d in dims:  # the common form (Python ints >= 0), checked and sized in one pass
        if type(d) is not int or d < 0:
            break
        n *= d
    else:
        if type(device) is str or type(device) is Device:
            try:  # no dtype (the common call): keyed by the device spec alone, no (device, dtype) key hashed
                hit = _DEFAULT_DTYPE.get(device) if dtype is None else _RESOLVED.get((device, dtype or _dt.DEFAULT_FLOAT))
            except TypeError:  # an unhashable dtype spec: _resolve says what is wrong
                hit = None
        else:
            hit = None
        if hit is not None and hit[3] == REGISTRY.version:  # _resolve's cache, inlined
            dt, dev, backend = hit[0], hit[1], hit[2]
            if hit[4] and n * dt.itemsize <= MAX_NBYTES:  # wrap_storage, inlined: adopt owns nothing
                if hit[5] is not None:
                    return hit[5](dims, dt, dev)
                t = _new(Tensor)
                t._data = backend.empty(dims, dt, dev)
                t._device = dev
                t._owned = 0
                return t
        else:
            spec = dtype or _dt.DEFAULT_FLOAT
            dt, dev, backend = _resolve(spec, device)
            if dtype is None and (type(device) is str or type(device) is Device):
                entry = _RESOLVED.get((device, spec))
                if entry is not None:
                    if len(_DEFAULT_DTYPE) > 256:
                        _DEFAULT_DTYPE.clear()
                    _DEFAULT_DTYPE[device] = entry
        if n * dt.itemsize <= MAX_NBYTES:
            return wrap_storage(backend.empty(dims, dt, dev), dev, backend)
    shape = _shape_args(shape)
    dt, dev, backend = _resolve(dtype or _dt.DEFAULT_FLOAT, device)  # _filled without a value, inlined
    if dev.type != "meta":
        check_nbytes(shape, dt)
    return wrap_storage(backend.empty(shape, dt, dev), dev, backend)


def _bind_native_empty() -> Any:
    """``empty`` as one C call (pyasc_core._native.empty, issue 13): the call above for a cached
    (device, dtype) with an ``empty_tensor`` maker, without this module's interpreter frame; every
    other call is the Python ``empty`` above. The Python function when the extension is not built."""
    try:  # by name: import-linter cannot see a compiled module (see dispatch.py)
        native = importlib.import_module(f"{__package__}._native")
        native.empty_setup(empty, _DEFAULT_DTYPE, _RESOLVED, REGISTRY, Device, MAX_NBYTES)
        fast = native.empty
    except (ImportError, AttributeError):
        return empty
    fast.__module__ = __name__
    return fast


_python_empty = empty
empty = _bind_native_empty()  # noqa: F811  (the same function, its common call in C)


def zeros(*shape: Any, dtype: Any = None, device: Any = None) -> Tensor:
    return _filled(_shape_args(shape), 0, dtype or _dt.DEFAULT_FLOAT, device)


def ones(*shape: Any, dtype: Any = None, device: Any = None) -> Tensor:
    return _filled(_shape_args(shape), 1, dtype or _dt.DEFAULT_FLOAT, device)


def full(shape: Any, fill_value: Any, dtype: Any = None, device: Any = None) -> Tensor:
    """A tensor filled with ``fill_value``; the dtype follows the value (float -> float32) if not given."""
    fill_value = _fill_value("full", fill_value)
    return _filled(_shape(shape), fill_value, dtype, device)


def _fill_value(fn: str, fill_value: Any) -> Any:
    if not isinstance(fill_value, (bool, int, float, np.number, np.bool_)) or isinstance(
        fill_value, np.complexfloating
    ):
        raise ArgumentError(
            f"{fn}() needs a number or bool as fill_value, got {type(fill_value).__name__} "
            f"{fill_value!r}; pass e.g. 0, 1.5 or True"
        )
    if isinstance(fill_value, (np.number, np.bool_)):
        fill_value = fill_value.item()
    return fill_value


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None, device: Any = None) -> Tensor:
    """Evenly spaced values in [start, stop); float32 if any bound is a float, else int64."""
    if stop is None:
        start, stop = 0, start
    for nm, v in (("start", start), ("stop", stop), ("step", step)):
        if not isinstance(v, (int, float, np.number)) or isinstance(v, bool):
            raise ArgumentError(f"arange() {nm} must be a number, got {type(v).__name__} {v!r}")
    if step == 0:
        raise ArgumentError("arange() step must not be 0; use a positive or negative step")
    for nm, v in (("start", start), ("stop", stop), ("step", step)):
        if isinstance(v, (float, np.floating)) and not np.isfinite(v):
            raise ArgumentError(f"arange() {nm} must be finite, got {v!r}")
    if dtype is None:
        dtype = _dt.DEFAULT_FLOAT if any(isinstance(v, (float, np.floating)) for v in (start, stop, step)) else _dt.DEFAULT_INT
    dt = _dt.as_dtype(dtype)
    try:
        arr = np.arange(start, stop, step, dtype=np.float64 if dt in _dt.FLOATING else None)
    except (ValueError, OverflowError, MemoryError) as exc:
        raise ArgumentError(
            f"arange({start!r}, {stop!r}, {step!r}) cannot be made: {exc}; use fewer elements "
            "(a larger step or a shorter range)"
        ) from None
    if arr.dtype == object:  # NumPy falls back to Python ints beyond int64
        raise ArgumentError(
            f"arange({start!r}, {stop!r}, {step!r}) cannot be made: its values do not fit in "
            f"{_dt.dtype_name(dt)}; use bounds within the dtype's range or a floating dtype"
        )
    if arr.size:  # the range is monotonic: its ends are its extremes
        check_array(arr[[0, -1]], dt, f"arange({start!r}, {stop!r}, {step!r}) value")
    arr = arr.astype(dt)
    return tensor(arr, device=device)


def _like(t: Tensor, value: Any, dtype: Any, device: Any) -> Tensor:
    if not isinstance(t, Tensor):
        raise ArgumentError(f"*_like functions take a pyasc.Tensor, got {type(t).__name__}")
    return _filled(t.shape, value, dtype if dtype is not None else t.dtype,
                   device if device is not None else t.device)


def empty_like(t: Tensor, dtype: Any = None, device: Any = None) -> Tensor:
    return _like(t, None, dtype, device)


def zeros_like(t: Tensor, dtype: Any = None, device: Any = None) -> Tensor:
    return _like(t, 0, dtype, device)


def ones_like(t: Tensor, dtype: Any = None, device: Any = None) -> Tensor:
    return _like(t, 1, dtype, device)


def full_like(t: Tensor, fill_value: Any, dtype: Any = None, device: Any = None) -> Tensor:
    return _like(t, _fill_value("full_like", fill_value), dtype, device)


def move_to(t: Tensor, device: Device, *, non_blocking: bool = False, force_copy: bool = False) -> Tensor:
    """Copy ``t`` to ``device`` (synchronously; device backends may use ``non_blocking``)."""
    if device is t._device and not force_copy:
        return t
    src = backend_for_device(t._device)
    dst = _check_backend_dtype(t.dtype, device)
    # the destination backend first, then the source (device -> host copies are the source's)
    for backend in (dst, src) if src is not dst else (dst,):
        got = backend.copy_from(t._data, t._device, device, non_blocking=non_blocking)
        if got is not None:
            return wrap_storage(got, device, dst)
    arr = src.to_numpy(t._data)
    return wrap_storage(dst.from_numpy(arr, device, copy=True), device, dst)


def _construct(cls: type, data: Any = None, dtype: Any = None, device: Any = None) -> Tensor:
    """``pyasc.Tensor(data, dtype, device)``: the same as ``pyasc.tensor(...)``."""
    return tensor(data, dtype=dtype, device=device)


Tensor.__new__ = _construct  # type: ignore[method-assign]  (tensor.py sits below this module)
