"""Values going into tensors of a given dtype (``tensor``, ``full``, ``arange``, ``t[i] = v``).

The rule: a value that an integer tensor cannot hold (NaN, +-inf, a number outside the dtype's
range) raises ValueRangeError instead of becoming an arbitrary integer; fractions are truncated
toward zero (as in NumPy and PyTorch). ``None``, strings and complex numbers never go into a
tensor. Converting on purpose is ``astype``, whose float-to-int rule is documented.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from . import dtypes as _dt
from .errors import DtypeError, ValueRangeError


_BOUNDS: dict[np.dtype, tuple[int, int]] = {dt: (int(np.iinfo(dt).min), int(np.iinfo(dt).max)) for dt in _dt.INTEGER}


def _fix(dt: np.dtype) -> str:
    name = _dt.dtype_name(dt)
    return (
        f"use a value in its range or a wider dtype (e.g. dtype='int64' or 'float32'), or convert "
        f"on purpose with .astype('{name}') on a floating tensor, which saturates (NaN -> 0, out of "
        "range -> the dtype's min/max)"
    )


def _out_of_range(what: str, value: Any, dt: np.dtype) -> ValueRangeError:
    info = np.iinfo(dt)
    why = "it has no integer value" if isinstance(value, float) and not np.isfinite(value) else (
        f"{_dt.dtype_name(dt)} holds {info.min}..{info.max}")
    return ValueRangeError(f"{what} {value!r} does not fit in dtype {_dt.dtype_name(dt)} ({why}); {_fix(dt)}")


def _not_a_number(what: str, value: Any, dt: np.dtype) -> DtypeError:
    hint = " (assign value.real for the real part)" if isinstance(value, (complex, np.complexfloating)) else ""
    return DtypeError(
        f"{what}: cannot store {type(value).__name__} {value!r:.60} in a {_dt.dtype_name(dt)} tensor; "
        f"give a number, a bool, or an array/tensor of numbers{hint}"
    )


def check_scalar(value: Any, dt: np.dtype, what: str) -> None:
    """Raise unless the scalar ``value`` can be stored in a tensor of dtype ``dt`` as it is."""
    if isinstance(value, np.generic):
        if isinstance(value, np.complexfloating):
            raise _not_a_number(what, value, dt)
        if isinstance(value, (np.bool_, np.integer, np.floating)) or value.dtype == _dt.bfloat16:
            value = value.item()
    if isinstance(value, bool):
        return
    if isinstance(value, numbers.Integral):
        bounds = _BOUNDS.get(dt)
        if bounds is not None and not bounds[0] <= int(value) <= bounds[1]:
            raise _out_of_range(what, int(value), dt)
        return
    if isinstance(value, numbers.Real):
        bounds = _BOUNDS.get(dt)
        if bounds is not None:
            f = float(value)
            if not (math.isfinite(f) and bounds[0] <= math.trunc(f) <= bounds[1]):
                raise _out_of_range(what, f, dt)
        return
    raise _not_a_number(what, value, dt)


def check_array(arr: np.ndarray, dt: np.dtype, what: str) -> None:
    """Raise unless converting ``arr`` to dtype ``dt`` keeps every value (no NaN, inf or
    out-of-range number becomes an integer)."""
    src = arr.dtype
    if dt not in _dt.INTEGER or arr.size == 0 or src == np.bool_:
        return
    info = np.iinfo(dt)
    if src in _dt.INTEGER:
        if np.can_cast(src, dt):
            return
        lo, hi = arr.min(), arr.max()
        if lo < info.min:
            raise _out_of_range(what, int(lo), dt)
        if hi > info.max:
            raise _out_of_range(what, int(hi), dt)
        return
    if src in _dt.FLOATING or src.kind == "f":
        f = arr.astype(np.float64, copy=False)
        t = np.trunc(f)
        bad = ~(np.isfinite(f) & (t >= info.min) & (t < float(info.max) + 1))
        if bad.any():
            raise _out_of_range(what, float(f[bad].flat[0]), dt)


def check_assigned(value: Any, dt: np.dtype, what: str = "assigned value") -> Any:
    """The value to store for ``t[key] = value`` into a tensor of dtype ``dt``: scalars as they
    are, other data as a NumPy array. Raises DtypeError for None, strings and complex numbers and
    ValueRangeError for values an integer tensor cannot hold."""
    if value is None or isinstance(value, (bool, numbers.Number, np.generic, str, bytes)):
        check_scalar(value, dt, what)
        return value
    arr = value if isinstance(value, np.ndarray) else np.asarray(value)
    if arr.dtype == object or (arr.dtype.kind in "USVcO" and arr.dtype != _dt.bfloat16):
        raise DtypeError(
            f"{what}: cannot store data of NumPy dtype {arr.dtype} ({type(value).__name__}) in a "
            f"{_dt.dtype_name(dt)} tensor; give numbers, bools or arrays of a supported dtype"
        )
    check_array(arr, dt, what)
    return arr


def needs_value_check(src: np.dtype, dt: np.dtype) -> bool:
    """Whether converting dtype ``src`` to ``dt`` can meet a value ``dt`` cannot hold."""
    return dt in _dt.INTEGER and src != np.bool_ and not np.can_cast(src, dt)


#: the most bytes one tensor may span (what a signed 64-bit size and NumPy can address)
MAX_NBYTES = 2**63 - 1


def check_nbytes(shape: tuple[int, ...], dt: np.dtype) -> int:
    """The byte size of a ``shape`` tensor of dtype ``dt``; ShapeError when no device could ever
    address it (a real but too large size is the backend's OutOfMemoryError)."""
    n = dt.itemsize if isinstance(dt, np.dtype) else np.dtype(dt).itemsize
    for d in shape:
        n *= d
    if n > MAX_NBYTES:
        from .errors import ShapeError

        raise ShapeError(
            f"shape {tuple(shape)} of dtype {_dt.dtype_name(dt)} needs {n} bytes, more than any device "
            f"can address (at most 2**63 - 1); use a smaller shape"
        )
    return n
