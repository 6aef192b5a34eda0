"""pyasc.Tensor: an n-dimensional array on a device, with NumPy and DLPack interop.

A tensor is a thin handle: ``_data`` is the backend's storage (a NumPy array on host backends,
a strided DeviceArray view of a device block on ACL backends), ``_device`` the interned Device.
Basic indexing, ``.T``/``transpose`` and ``reshape`` (when strides allow) return views that share
memory with their base on every backend; advanced indexing copies. Every operator goes through
the op registry.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import dtypes as _dt
from .device import Device
from .errors import ArgumentError, DtypeError, PyascError
from .host_memory import HOST_MEMORY

_new = object.__new__


class Tensor:
    """An n-dimensional array that lives on one device (``numpy``, ``sim:0``, ``npu:0``, ...)."""

    __slots__ = ("_data", "_device", "_owned", "__weakref__")
    # NumPy defers its binary operators to ours (ndarray + Tensor -> Tensor.__radd__)
    __array_priority__ = 1000

    def __new__(cls, data: Any = None, dtype: Any = None, device: Any = None) -> Tensor:
        from .creation import tensor

        return tensor(data, dtype=dtype, device=device)

    def __del__(self) -> None:
        owned = self._owned
        if owned:
            HOST_MEMORY.release(owned)

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
        from .registry import backend_for_device

        return backend_for_device(self._device)

    def __len__(self) -> int:
        if not self._data.shape:
            raise TypeError("len() of a 0-d tensor")
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
        return int(self.item())

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
            raise TypeError("iteration over a 0-d tensor")
        for i in range(self._data.shape[0]):
            yield self[i]

    def to(self, *args: Any, non_blocking: bool = False, copy: bool = False) -> Tensor:
        """Move to a device and/or cast: ``t.to("sim")``, ``t.to(pyasc.float16)``, ``t.to("sim", "float16")``."""
        from .creation import move_to
        from .selection import resolve_device

        target_device = None
        target_dtype = None
        for arg in args:
            if arg is None:  # t.to(None) changes nothing, as in PyTorch
                continue
            if isinstance(arg, Device):
                target_device = arg
            elif isinstance(arg, str) and arg not in _dt._NAMES:
                target_device = resolve_device(arg)
            else:
                target_dtype = _dt.as_dtype(arg)
        out = self
        if target_device is not None and target_device is not self._device:
            out = move_to(out, target_device, non_blocking=non_blocking)
            copy = False
        if target_dtype is not None and target_dtype != out.dtype:
            out = _cast(out, target_dtype)
            copy = False
        if copy:
            out = move_to(out, out._device, non_blocking=non_blocking, force_copy=True)
        return out

    def astype(self, dtype: Any) -> Tensor:
        return _cast(self, _dt.as_dtype(dtype))

    def clone(self) -> Tensor:
        return self.to(copy=True)

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
        return self if storage is self._data else backend.wrap(storage, self._device)

    # -- DLPack (host-resident tensors only) --------------------------------------------------
    def _host_array(self, what: str) -> np.ndarray:
        if not self.backend.is_host:
            raise PyascError(
                f"{what} needs a host-resident tensor, but this one lives on {self._device}; "
                "copy it first with t.to('numpy')"
            )
        return self._data

    def __dlpack__(self, *, stream: Any = None, max_version: tuple[int, int] | None = None,
                   dl_device: Any = None, copy: bool | None = None) -> Any:
        from .interop import to_dlpack

        return to_dlpack(self._host_array("__dlpack__"), max_version=max_version,
                         dl_device=dl_device, copy=copy)

    def __dlpack_device__(self) -> tuple[int, int]:
        self._host_array("__dlpack_device__")
        return (1, 0)  # kDLCPU, device 0

    # -- indexing -----------------------------------------------------------------------------
    def __getitem__(self, key: Any) -> Tensor:
        backend = self.backend
        return backend.wrap(backend.getitem(self._data, _index_key(key)), self._device)

    def __setitem__(self, key: Any, value: Any) -> None:
        backend = self.backend
        if isinstance(value, Tensor):
            if value._device is not self._device:
                from .errors import DeviceMismatchError

                raise DeviceMismatchError(
                    f"cannot assign a tensor on {value._device} into a tensor on {self._device}; "
                    f"move it first with value.to({str(self._device)!r})"
                )
            value = value._data
        elif not isinstance(value, (bool, int, float, np.ndarray)):
            value = np.asarray(value)
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

    # -- shape helpers ------------------------------------------------------------------------
    def reshape(self, *shape: Any) -> Tensor:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return _reshape(self, shape)

    def transpose(self, *axes: Any) -> Tensor:
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return _transpose(self, axes or None)

    @property
    def T(self) -> Tensor:
        return _transpose(self, None)

    def sum(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _sum(self, axis, keepdims)

    def mean(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _mean(self, axis, keepdims)

    def max(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _max(self, axis, keepdims)

    def min(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _min(self, axis, keepdims)

    def abs(self) -> Tensor:
        return _abs(self)

    def exp(self) -> Tensor:
        return _exp(self)

    def log(self) -> Tensor:
        return _log(self)

    def sqrt(self) -> Tensor:
        return _sqrt(self)

    def softmax(self, axis: int = -1) -> Tensor:
        return _softmax(self, axis)

    def matmul(self, other: Tensor) -> Tensor:
        return _matmul(self, other)

    # -- operators ----------------------------------------------------------------------------
    def __add__(self, other: Any) -> Tensor:
        return _add(self, _operand(other, self))

    def __radd__(self, other: Any) -> Tensor:
        return _add(_operand(other, self), self)

    def __sub__(self, other: Any) -> Tensor:
        return _sub(self, _operand(other, self))

    def __rsub__(self, other: Any) -> Tensor:
        return _sub(_operand(other, self), self)

    def __mul__(self, other: Any) -> Tensor:
        return _mul(self, _operand(other, self))

    def __rmul__(self, other: Any) -> Tensor:
        return _mul(_operand(other, self), self)

    def __truediv__(self, other: Any) -> Tensor:
        return _div(self, _operand(other, self))

    def __rtruediv__(self, other: Any) -> Tensor:
        return _div(_operand(other, self), self)

    def __pow__(self, other: Any) -> Tensor:
        return _pow(self, _operand(other, self))

    def __rpow__(self, other: Any) -> Tensor:
        return _pow(_operand(other, self), self)

    def __matmul__(self, other: Any) -> Tensor:
        return _matmul(self, _operand(other, self))

    def __rmatmul__(self, other: Any) -> Tensor:
        return _matmul(_operand(other, self), self)

    def __neg__(self) -> Tensor:
        return _neg(self)

    def __pos__(self) -> Tensor:
        return self

    def __abs__(self) -> Tensor:
        return _abs(self)

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return _eq(self, _operand(other, self))

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return _ne(self, _operand(other, self))

    def __lt__(self, other: Any) -> Tensor:
        return _lt(self, _operand(other, self))

    def __le__(self, other: Any) -> Tensor:
        return _le(self, _operand(other, self))

    def __gt__(self, other: Any) -> Tensor:
        return _gt(self, _operand(other, self))

    def __ge__(self, other: Any) -> Tensor:
        return _ge(self, _operand(other, self))


def _operand(value: Any, like: Tensor) -> Any:
    """Operator operands: scalars stay scalars (weak dtype); NumPy arrays join like's device."""
    if isinstance(value, np.ndarray):
        from .creation import asarray

        return asarray(value, device=like._device)
    return value


def _index_key(key: Any) -> Any:
    """Tensors inside an index become NumPy arrays (indexes are host data)."""
    if isinstance(key, Tensor):
        return key.numpy()
    if isinstance(key, tuple):
        return tuple(k.numpy() if isinstance(k, Tensor) else k for k in key)
    return key


def wrap_host(array: np.ndarray, device: Device) -> Tensor:
    """A Tensor over a host NumPy array; counts the bytes when the array owns its memory."""
    t = _new(Tensor)
    t._data = array
    t._device = device
    if array.base is None:
        n = array.nbytes
        t._owned = n
        HOST_MEMORY.alloc(n)
    else:
        t._owned = 0
    return t


def wrap_storage(storage: Any, device: Device) -> Tensor:
    """A Tensor over a device backend's storage object (the backend accounts for its memory)."""
    t = _new(Tensor)
    t._data = storage
    t._device = device
    t._owned = 0
    return t


# Operators dispatch through these handles (bound lazily to the registry by name).
from .dispatch import handle as OpHandle  # noqa: E402

_add = OpHandle("pyasc::add")
_sub = OpHandle("pyasc::sub")
_mul = OpHandle("pyasc::mul")
_div = OpHandle("pyasc::div")
_pow = OpHandle("pyasc::pow")
_matmul = OpHandle("pyasc::matmul")
_neg = OpHandle("pyasc::neg")
_abs = OpHandle("pyasc::abs")
_exp = OpHandle("pyasc::exp")
_log = OpHandle("pyasc::log")
_sqrt = OpHandle("pyasc::sqrt")
_eq = OpHandle("pyasc::eq")
_ne = OpHandle("pyasc::ne")
_lt = OpHandle("pyasc::lt")
_le = OpHandle("pyasc::le")
_gt = OpHandle("pyasc::gt")
_ge = OpHandle("pyasc::ge")
_sum = OpHandle("pyasc::sum")
_mean = OpHandle("pyasc::mean")
_max = OpHandle("pyasc::max")
_min = OpHandle("pyasc::min")
_softmax = OpHandle("pyasc::softmax")
_reshape = OpHandle("pyasc::reshape")
_transpose = OpHandle("pyasc::transpose")
_cast_op = OpHandle("pyasc::cast")


def _cast(t: Tensor, dtype: np.dtype) -> Tensor:
    return _cast_op(t, dtype)
