"""TensorMeta: the shape and dtype of a tensor without its data (what meta functions see)."""

from __future__ import annotations

import math

import numpy as np

from .dtypes import dtype_name


class TensorMeta:
    """Shape and dtype of a tensor with no data: what meta functions take and return."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape: tuple[int, ...], dtype: np.dtype) -> None:
        self.shape = tuple(int(s) for s in shape)
        self.dtype = np.dtype(dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TensorMeta)
            and self.shape == other.shape
            and self.dtype == other.dtype
        )

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype))

    def __repr__(self) -> str:
        return f"TensorMeta(shape={self.shape}, dtype={dtype_name(self.dtype)})"
