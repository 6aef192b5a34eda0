"""Shape and dtype rules shared by meta functions: broadcasting, axes, matmul, reshape.

Each raises ShapeError with the shapes involved and how to fix them; op packs may use them too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from . import dtypes as _dt
from .tensor_meta import TensorMeta
from .errors import ShapeError


def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy broadcasting of several shapes, with a readable error."""
    ndim = max((len(s) for s in shapes), default=0)
    out = [1] * ndim
    for shape in shapes:
        for i, d in enumerate(shape):
            j = ndim - len(shape) + i
            if d == out[j] or d == 1:
                continue
            if out[j] == 1:
                out[j] = d
                continue
            raise ShapeError(
                f"shapes {' and '.join(str(tuple(s)) for s in shapes)} do not broadcast: dimension "
                f"{j - ndim} is {out[j]} in one and {d} in another (sizes must match or be 1); "
                "reshape one of them, e.g. with .reshape(...)"
            )
    return tuple(out)


def operand_dtype(v: Any) -> Any:
    """A TensorMeta's dtype, or the Python type of a scalar (weak in promotion)."""
    return v.dtype if isinstance(v, TensorMeta) else type(v)


def elementwise(*operands: Any, dtype: np.dtype | None = None) -> TensorMeta:
    """Meta of an elementwise op: broadcast shape, promoted dtype (or ``dtype``)."""
    shapes = [v.shape for v in operands if isinstance(v, TensorMeta)]
    out_dtype = dtype if dtype is not None else _dt.result_type(*(operand_dtype(v) for v in operands))
    return TensorMeta(broadcast_shapes(*shapes), out_dtype)


def normalize_axis(axis: int, ndim: int) -> int:
    if not -max(ndim, 1) <= axis < max(ndim, 1):
        raise ShapeError(
            f"axis {axis} is out of range for a tensor with {ndim} dimension(s); "
            f"use an axis in {-max(ndim, 1)}..{max(ndim, 1) - 1}"
        )
    return axis % max(ndim, 1)


def normalize_axes(axis: Sequence[int] | None, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    axes = tuple(normalize_axis(a, ndim) for a in axis)
    if len(set(axes)) != len(axes):
        raise ShapeError(f"axis {tuple(axis)} repeats an axis; give each axis once")
    return axes


def reduced_shape(shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool) -> tuple[int, ...]:
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


def matmul_shape(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """np.matmul's output shape (1-D operands promoted, batch dims broadcast)."""
    if not a or not b:
        raise ShapeError(f"matmul needs operands with at least 1 dimension, got shapes {a} and {b}")
    a2 = (1,) + a if len(a) == 1 else a
    b2 = b + (1,) if len(b) == 1 else b
    if a2[-1] != b2[-2]:
        raise ShapeError(
            f"matmul shapes {a} and {b} do not fit: the last dimension of the first ({a2[-1]}) must "
            f"equal the {'only' if len(b) == 1 else 'second-to-last'} dimension of the second ({b2[-2]})"
        )
    batch = broadcast_shapes(a2[:-2], b2[:-2])
    out = batch + (a2[-2], b2[-1])
    if len(a) == 1:
        out = out[:-2] + out[-1:]
    if len(b) == 1:
        out = out[:-1]
    return out


def reshape_shape(size: int, old: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...]:
    unknown = [i for i, d in enumerate(shape) if d == -1]
    if len(unknown) > 1:
        raise ShapeError(f"reshape to {shape}: only one dimension may be -1")
    if any(d < -1 for d in shape):
        raise ShapeError(f"reshape to {shape}: dimensions must be >= 0 (or -1 for one inferred dimension)")
    known = 1
    for d in shape:
        if d != -1:
            known *= d
    if unknown:
        if known == 0 or size % known:
            raise ShapeError(
                f"cannot reshape a tensor of shape {old} ({size} elements) to {shape}: the -1 "
                f"dimension must make the element count match, but {size} is not a multiple of "
                f"{known} (the product of the other dimensions)"
            )
        shape = tuple(size // known if d == -1 else d for d in shape)
    elif known != size:
        raise ShapeError(
            f"cannot reshape a tensor of shape {old} ({size} elements) to {shape} ({known} elements); "
            "the number of elements must stay the same"
        )
    return shape
