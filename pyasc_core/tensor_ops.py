"""pyasc.Tensor's operators and op methods (``+``, ``==``, ``sum``, ``reshape``, ``to``, ...): they
call ops through dispatch, and tensor.py sits below dispatch, so they live here and are attached
to pyasc.Tensor when this module loads (the pyasc_core package loads it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as _dt
from .creation import asarray, move_to
from .device import Device
from .dispatch import handle
from .selection import resolve_device
from .tensor import Tensor


_add = handle("pyasc::add")
_sub = handle("pyasc::sub")
_mul = handle("pyasc::mul")
_div = handle("pyasc::div")
_pow = handle("pyasc::pow")
_matmul = handle("pyasc::matmul")
_neg = handle("pyasc::neg")
_abs = handle("pyasc::abs")
_exp = handle("pyasc::exp")
_log = handle("pyasc::log")
_sqrt = handle("pyasc::sqrt")
_eq = handle("pyasc::eq")
_ne = handle("pyasc::ne")
_lt = handle("pyasc::lt")
_le = handle("pyasc::le")
_gt = handle("pyasc::gt")
_ge = handle("pyasc::ge")
_sum = handle("pyasc::sum")
_mean = handle("pyasc::mean")
_max = handle("pyasc::max")
_min = handle("pyasc::min")
_softmax = handle("pyasc::softmax")
_reshape = handle("pyasc::reshape")
_transpose = handle("pyasc::transpose")
_cast_op = handle("pyasc::cast")


def _cast(t: Tensor, dtype: np.dtype) -> Tensor:
    return _cast_op(t, dtype)


def _operand(value: Any, like: Tensor) -> Any:
    """Operator operands: scalars stay scalars (weak dtype); NumPy arrays join like's device."""
    if isinstance(value, np.ndarray):
        return asarray(value, device=like._device)
    return value


class _TensorOps:
    """The methods attached to pyasc.Tensor (see above)."""

    def to(self, *args: Any, non_blocking: bool = False, copy: bool = False) -> Tensor:
        """Move to a device and/or cast: ``t.to("sim")``, ``t.to(pyasc.float16)``, ``t.to("sim", "float16")``."""
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


for _name, _member in vars(_TensorOps).items():
    if _name not in ("__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__hash__",
                     "__firstlineno__", "__static_attributes__"):
        if callable(_member):
            _member.__qualname__ = f"Tensor.{_name}"
        setattr(Tensor, _name, _member)
del _name, _member
