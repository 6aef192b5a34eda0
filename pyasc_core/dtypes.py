"""The dtypes pyasc knows, how to name them, and the type-promotion rules.

A pyasc dtype *is* a NumPy dtype object (bfloat16 comes from ml_dtypes), so tensors convert to
and from NumPy without translation. Promotion follows PyTorch: tensors of one category promote
among themselves, Python scalars are "weak" and only lift the category.
"""

from __future__ import annotations

import functools

import ml_dtypes
import numpy as np

from .errors import DtypeError, did_you_mean

bool_ = np.dtype(np.bool_)
uint8 = np.dtype(np.uint8)
int8 = np.dtype(np.int8)
int16 = np.dtype(np.int16)
int32 = np.dtype(np.int32)
int64 = np.dtype(np.int64)
float16 = np.dtype(np.float16)
bfloat16 = np.dtype(ml_dtypes.bfloat16)
float32 = np.dtype(np.float32)
float64 = np.dtype(np.float64)

ALL_DTYPES: tuple[np.dtype, ...] = (
    bool_, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64,
)
FLOATING = frozenset({float16, bfloat16, float32, float64})
HALF = frozenset({float16, bfloat16})
INTEGER = frozenset({uint8, int8, int16, int32, int64})
SIGNED = frozenset({int8, int16, int32, int64, float16, bfloat16, float32, float64})
NUMERIC = FLOATING | INTEGER
ANY = frozenset(ALL_DTYPES)

DEFAULT_FLOAT = float32
DEFAULT_INT = int64

_NAMES: dict[str, np.dtype] = {
    "bool": bool_, "bool_": bool_, "uint8": uint8, "int8": int8, "int16": int16,
    "int32": int32, "int64": int64, "float16": float16, "half": float16,
    "bfloat16": bfloat16, "float32": float32, "float": float32, "float64": float64,
    "double": float64,
}


def dtype_name(dt: np.dtype) -> str:
    """The short name pyasc prints for a dtype ('bool' rather than NumPy's 'bool_')."""
    return "bool" if dt == bool_ else dt.name


def as_dtype(value: object) -> np.dtype:
    """Normalise a dtype given as a pyasc/NumPy dtype, a scalar type or a name; reject the rest."""
    if isinstance(value, np.dtype) and value in ANY:
        return value
    if isinstance(value, str):
        found = _NAMES.get(value)
        if found is None:
            raise DtypeError(
                f"unknown dtype name {value!r}; pyasc supports "
                f"{', '.join(dtype_name(d) for d in ALL_DTYPES)}.{did_you_mean(value, _NAMES)}"
            )
        return found
    if value is None:  # NumPy reads None as float64; pyasc asks for a dtype
        raise DtypeError(
            f"a dtype is needed, got None; use one of {', '.join(dtype_name(d) for d in ALL_DTYPES)}"
        )
    if value is bool:
        return bool_
    if value is int:
        return DEFAULT_INT
    if value is float:
        return DEFAULT_FLOAT
    try:
        dt = np.dtype(value)  # type: ignore[call-overload]
    except TypeError:
        dt = None
    if dt is not None and dt in ANY:
        return dt
    if dt is not None and not dt.isnative and dt.newbyteorder("=") in ANY:
        raise DtypeError(
            f"dtype {dt.newbyteorder('=').name} in non-native byte order ({dt.str!r}) is not "
            "supported by pyasc; convert first, e.g. arr.astype(arr.dtype.newbyteorder('='))"
        )
    shown = dt.name if dt is not None else repr(value)
    raise DtypeError(
        f"dtype {shown} is not supported by pyasc; use one of "
        f"{', '.join(dtype_name(d) for d in ALL_DTYPES)} (cast first, e.g. .astype('float32'))"
    )


def _category(dt: np.dtype) -> int:
    if dt == bool_:
        return 0
    if dt in INTEGER:
        return 1
    return 2


_SCALAR_CATEGORY = {bool: 0, int: 1, float: 2}


@functools.lru_cache(maxsize=None)
def _promote_pair(a: np.dtype, b: np.dtype) -> np.dtype:
    if a == b:
        return a
    ca, cb = _category(a), _category(b)
    if ca != cb:
        return a if ca > cb else b
    if ca == 2:
        if {a, b} == HALF:
            return float32
        return a if a.itemsize >= b.itemsize else b
    # integers: a signed/unsigned mix needs a signed type that holds both
    if a == uint8 or b == uint8:
        other = b if a == uint8 else a
        return int16 if other == int8 else other
    return a if a.itemsize >= b.itemsize else b


@functools.lru_cache(maxsize=4096)
def result_type(*operands: np.dtype | type) -> np.dtype:
    """The dtype an elementwise op returns for tensor dtypes and Python scalar types (weak)."""
    result: np.dtype | None = None
    scalar_cat = -1
    for op in operands:
        if op in _SCALAR_CATEGORY and not isinstance(op, np.dtype):
            scalar_cat = max(scalar_cat, _SCALAR_CATEGORY[op])
        else:  # a dtype, or a dtype-like (np.float32, 'int8'); DtypeError for anything else
            op = as_dtype(op)
            result = op if result is None else _promote_pair(result, op)
    if result is None:
        return (bool_, DEFAULT_INT, DEFAULT_FLOAT)[scalar_cat]
    if scalar_cat > _category(result):
        return (bool_, DEFAULT_INT, DEFAULT_FLOAT)[scalar_cat]
    return result


def infer_dtype(data: object) -> np.dtype | None:
    """The dtype pyasc gives Python data with no dtype: float32 for floats, int64 for ints."""
    if isinstance(data, bool):
        return bool_
    if isinstance(data, int):
        return DEFAULT_INT
    if isinstance(data, float):
        return DEFAULT_FLOAT
    return None
