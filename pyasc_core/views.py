"""Strided-view arithmetic shared by the device backends: a view is (offset, shape, strides) in
elements over one storage, as in NumPy and PyTorch.

Basic indexing (ints, slices with any step, None, Ellipsis), transpose and a reshape that needs no
copy produce views; advanced indexing (bool masks, integer arrays, 0-d arrays) copies, as NumPy.
Index arithmetic is NumPy's own, run on a zero-size stand-in that is never read.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.lib.stride_tricks import as_strided

_STANDIN = np.zeros(1, np.uint8)  # itemsize 1: byte strides of the stand-in are element strides
_STANDIN_ADDR = _STANDIN.__array_interface__["data"][0]


def contiguous_strides(shape: Sequence[int]) -> tuple[int, ...]:
    """Row-major (C) strides of ``shape``, in elements."""
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= max(int(s), 1)
    return tuple(strides[::-1])


def is_contiguous(shape: Sequence[int], strides: Sequence[int]) -> bool:
    """True when (shape, strides) walks memory in row-major order without gaps (size-1 axes and
    empty tensors ignore strides, as in NumPy's flags)."""
    if any(s == 0 for s in shape):
        return True
    acc = 1
    for s, st in zip(reversed(shape), reversed(strides)):
        if s != 1 and st != acc:
            return False
        acc *= s
    return True


def is_basic_key(key: Any) -> bool:
    """True for keys NumPy answers with a view: ints, slices, None and Ellipsis (bools and arrays,
    0-d ones included, are advanced indexing and copy)."""
    items = key if isinstance(key, tuple) else (key,)
    for k in items:
        if k is None or k is Ellipsis or isinstance(k, slice):
            continue
        if isinstance(k, (bool, np.bool_)) or not isinstance(k, (int, np.integer)):
            return False
    return True


def full_int_key(key: Any) -> tuple:
    """The key as a tuple that indexes to an array even when every axis gets an int (NumPy would
    return a scalar): a trailing Ellipsis, unless the key has one."""
    items = key if isinstance(key, tuple) else (key,)
    if any(k is Ellipsis for k in items):
        return items
    return (*items, Ellipsis)


def basic_index(shape: Sequence[int], strides: Sequence[int], offset: int,
                key: Any) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """(shape, strides, offset) of ``view[key]`` for a basic key (see is_basic_key). Raises
    IndexError as NumPy does for an out-of-range index or too many indices."""
    standin = as_strided(_STANDIN, shape=tuple(shape), strides=tuple(strides), writeable=False)
    out = standin[full_int_key(key)]
    delta = out.__array_interface__["data"][0] - _STANDIN_ADDR
    return tuple(out.shape), tuple(out.strides), offset + delta


def permute(shape: Sequence[int], strides: Sequence[int],
            axes: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(shape[a] for a in axes), tuple(strides[a] for a in axes)


def nocopy_reshape(shape: Sequence[int], strides: Sequence[int],
                   new_shape: Sequence[int]) -> tuple[int, ...] | None:
    """Strides that show (shape, strides) as ``new_shape`` without moving data, or None when
    the data must be copied (NumPy's rule: each group of old axes that new axes split or merge
    must be contiguous within itself)."""
    new_shape = tuple(int(s) for s in new_shape)
    if math.prod(shape) == 0 or is_contiguous(shape, strides):
        return contiguous_strides(new_shape)
    old = [(int(s), int(st)) for s, st in zip(shape, strides) if s != 1]
    out: list[int] = [0] * len(new_shape)
    i = j = 0  # next old axis, next new axis
    while i < len(old) or j < len(new_shape):
        if j < len(new_shape) and new_shape[j] == 1:
            out[j] = 1
            j += 1
            continue
        if i >= len(old) or j >= len(new_shape):
            return None
        oi, nj = i + 1, j + 1
        op, np_ = old[i][0], new_shape[j]
        while op != np_:
            if op < np_:
                if oi >= len(old):
                    return None
                op *= old[oi][0]
                oi += 1
            else:
                if nj >= len(new_shape):
                    return None
                np_ *= new_shape[nj]
                nj += 1
        for k in range(i, oi - 1):  # the old group must be contiguous within itself
            if old[k][1] != old[k + 1][1] * old[k + 1][0]:
                return None
        acc = old[oi - 1][1]
        for k in range(nj - 1, j - 1, -1):
            out[k] = acc
            acc *= new_shape[k]
        i, j = oi, nj
    return tuple(out)


def extent(shape: Sequence[int], strides: Sequence[int], offset: int) -> tuple[int, int]:
    """[lo, hi): the element range of the storage a non-empty view touches."""
    lo = hi = offset
    for s, st in zip(shape, strides):
        if st < 0:
            lo += (s - 1) * st
        else:
            hi += (s - 1) * st
    return lo, hi + 1


def over(buffer: np.ndarray, shape: Sequence[int], strides: Sequence[int], start: int,
         writeable: bool = False) -> np.ndarray:
    """A NumPy view of ``buffer`` (a 1-D array of the view's dtype holding its extent) with
    element ``start`` as the view's first element."""
    item = buffer.dtype.itemsize
    return as_strided(buffer[start:], shape=tuple(shape), strides=tuple(st * item for st in strides),
                      writeable=writeable)
