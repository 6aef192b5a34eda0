"""pyasc.Tensor: an n-dimensional array on a device, with NumPy and DLPack interop.

A tensor is a thin handle: ``_data`` is the backend's storage (a NumPy array on host backends,
a strided DeviceArray view of a device block on ACL backends), ``_device`` the interned Device.
Basic indexing, ``.T``/``transpose`` and ``reshape`` (when strides allow) return views that share
memory with their base on every backend; advanced indexing copies.

This module is the Tensor's data handle only: it imports no layer above the registry. The layers
above add what needs them when they load (pyasc_core's package import loads them all):
``pyasc_core.creation`` the constructor, ``pyasc_core.tensor_ops`` the operators and op methods
(``+``, ``sum``, ``to``, ...), ``pyasc_core.interop`` ``__dlpack__``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import backend as _backend_module
from . import dtypes as _dt
from .device import Device
from .errors import ArgumentError, DtypeError, PyascError
from .host_memory import HOST_MEMORY
from .registry import backend_for_device
from .values import check_array, check_assigned, needs_value_check

_new = object.__new__


class _Owned(int):
    """The host bytes a tensor owns (its ``_owned``), counted in HOST_MEMORY until the tensor (its
    only holder) dies. The release rides on this int, not on a Tensor ``__del__``: tensors that own
    nothing (device tensors, views: a plain 0) pay no finalizer."""

    __slots__ = ()

    def __del__(self) -> None:
        HOST_MEMORY.release(int(self))


class Tensor:
    """An n-dimensional array that lives on one device (``numpy``, ``sim:0``, ``npu:0``, ...)."""

    __slots__ = ("_data", "_device", "_owned", "__weakref__")
    # NumPy defers its binary operators to ours (ndarray + Tensor -> Tensor.__radd__)
    __array_priority__ = 1000

    # -- metadata -----------------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        return self._data.shape

    @property
    def dtype(self) -> np.dtype:
        return self._data.dtype

    @property
    def device(self) -> Device:
        return self._device

    @property
    def ndim(self) -> int:
        return len(self._data.shape)

    @property
    def size(self) -> int:
        return math.prod(self._data.shape)

    @property
    def itemsize(self) -> int:
        return self._data.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self._data.dtype.itemsize

    @property
    def backend(self):
        """The Backend object that owns this tensor's device."""
        return backend_for_device(self._device)

    def __len__(self) -> int:
        if not self._data.shape:
            raise ArgumentError("len() of a 0-d tensor is undefined; use t.item() for its value or t.reshape(1)")
        return self._data.shape[0]

    # -- conversion ---------------------------------------------------------------------------
    def numpy(self) -> np.ndarray:
        """The data as a NumPy array: shared memory on host backends, a synchronous copy otherwise."""
        return self.backend.to_numpy(self._data)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        arr = self.numpy()
        if dtype is not None and np.dtype(dtype) != arr.dtype:
            if copy is False:  # NumPy's protocol: copy=False must not copy
                raise ArgumentError(
                    f"cannot convert a {_dt.dtype_name(arr.dtype)} tensor to NumPy dtype "
                    f"{np.dtype(dtype)} without a copy (copy=False); drop copy=False or ask for "
                    f"dtype {_dt.dtype_name(arr.dtype)}"
                )
            return arr.astype(dtype)
        if copy:
            return arr.copy()
        return arr

    def tolist(self) -> Any:
        return self.numpy().tolist()

    def item(self) -> Any:
        if self.size != 1:
            raise PyascError(
                f"item() needs a tensor with exactly one element, this one has shape {self.shape} "
                f"({self.size} elements); index it first, e.g. t[0].item()"
            )
        return self.numpy().reshape(()).item()

    def __float__(self) -> float:
        return float(self.item())

    def __int__(self) -> int:
        value = self.item()
        if isinstance(value, float) and not np.isfinite(value):
            from .errors import ValueRangeError

            raise ValueRangeError(f"int() of a tensor holding {value!r}: NaN and infinity have no integer value; "
                                  "test with math.isfinite(float(t)) first")
        return int(value)

    def __index__(self) -> int:
        if self.dtype not in _dt.INTEGER:
            raise DtypeError(f"only integer tensors can be used as an index, got {_dt.dtype_name(self.dtype)}")
        return int(self.item())

    def __bool__(self) -> bool:
        if self.size != 1:
            from .errors import ShapeError

            raise ShapeError(
                f"the truth value of a tensor with {self.size} elements is ambiguous; "
                "use .any() or .all() on .numpy(), or compare one element"
            )
        return bool(self.item())

    def __iter__(self):
        if not self._data.shape:
            raise ArgumentError("iteration over a 0-d tensor is undefined; use t.item() for its value or t.reshape(1)")
        for i in range(self._data.shape[0]):
            yield self[i]

    def is_contiguous(self) -> bool:
        """True when the tensor is row-major without gaps (a fresh tensor; not a strided view)."""
        d = self._data
        if type(d) is np.ndarray:
            return bool(d.flags.c_contiguous)
        return bool(getattr(d, "contiguous", True))

    def contiguous(self) -> Tensor:
        """This tensor when contiguous, else a contiguous copy on the same device (as PyTorch)."""
        backend = self.backend
        storage = backend.contiguous(self._data)
        return self if storage is self._data else wrap_storage(storage, self._device, backend)

    # -- DLPack (host-resident tensors only) --------------------------------------------------
    def _host_array(self, what: str) -> np.ndarray:
        if not self.backend.is_host:
            raise PyascError(
                f"{what} needs a host-resident tensor, but this one lives on {self._device}; "
                "copy it first with t.to('numpy')"
            )
        return self._data

    def __dlpack_device__(self) -> tuple[int, int]:
        self._host_array("__dlpack_device__")
        return (1, 0)  # kDLCPU, device 0

    # -- indexing -----------------------------------------------------------------------------
    def __getitem__(self, key: Any) -> Tensor:
        backend = self.backend
        return wrap_storage(backend.getitem(self._data, _index_key(key)), self._device, backend)

    def __setitem__(self, key: Any, value: Any) -> None:
        backend = self.backend
        if isinstance(value, Tensor):
            if value._device is not self._device:
                from .errors import DeviceMismatchError

                raise DeviceMismatchError(
                    f"cannot assign a tensor on {value._device} into a tensor on {self._device}; "
                    f"move it first with value.to({str(self._device)!r})"
                )
            if needs_value_check(value.dtype, self.dtype):
                check_array(value.numpy(), self.dtype, "assigned value")
            value = value._data
        else:
            value = check_assigned(value, self.dtype)
        backend.setitem(self._data, _index_key(key), value)

    # -- repr ---------------------------------------------------------------------------------
    def __repr__(self) -> str:
        name = _dt.dtype_name(self.dtype)
        if self._device.type == "meta":
            return f"tensor(..., shape={self.shape}, dtype={name}, device='meta')"
        body = np.array2string(
            np.asarray(self.numpy()), separator=", ", prefix="tensor(", threshold=200
        )
        return f"tensor({body}, dtype={name}, device='{self._device}')"

    __hash__ = object.__hash__


def _index_key(key: Any) -> Any:
    """Tensors inside an index become NumPy arrays (indexes are host data)."""
    if isinstance(key, Tensor):
        return key.numpy()
    if isinstance(key, tuple):
        return tuple(k.numpy() if isinstance(k, Tensor) else k for k in key)
    return key


def wrap_storage(storage: Any, device: Device, backend: Any = None) -> Tensor:
    """The Tensor over a backend's ``storage`` on ``device``: the only place Tensors are built
    around storage. The backend's ``adopt`` checks limits and says how many host bytes the tensor
    owns; they are counted until it dies."""
    if backend is None:
        backend = backend_for_device(device)
    n = backend.adopt(storage, device)
    t = _new(Tensor)
    t._data = storage
    t._device = device
    if n:
        t._owned = _Owned(n)
        HOST_MEMORY.alloc(n)
    else:
        t._owned = 0
    return t


_backend_module._tensor_factory = wrap_storage  # for the deprecated Backend.wrap


def wrap_host(array: np.ndarray, device: Device) -> Tensor:
    """A Tensor over a host NumPy array (``wrap_storage`` under its older name)."""
    return wrap_storage(array, device)
