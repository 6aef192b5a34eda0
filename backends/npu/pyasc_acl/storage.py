"""The storage of a tensor on an ACL device: a strided view (offset, shape, strides, in elements)
of a caching-allocator block, as a PyTorch tensor over its storage. Views share the block, which
stays allocated while any of them lives."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from pyasc_core.views import contiguous_strides, is_contiguous

from . import fork as _fork


_new = object.__new__
#: shape -> its contiguous strides (DeviceArray.fresh)
_STRIDES: dict[tuple[int, ...], tuple[int, ...]] = {}


class DeviceArray:
    """Device memory of one tensor. ``block`` (an ``_acl.DeviceBlock``) returns to the caching
    allocator when the last reference goes; ``ptr`` is the device address of element 0 of the
    view. ``contiguous``: row-major without gaps (kernels take such arrays as they are). In a child
    forked after the parent opened the device, ``block`` raises ForkedDeviceError: the memory is
    the parent's."""

    #: ``_ptr`` / ``_nbytes``: the block's address and size, read once (the launch hot path)
    __slots__ = ("_block", "shape", "dtype", "device", "offset", "strides", "contiguous", "_ptr", "_nbytes")

    def __init__(self, block: Any, shape: tuple[int, ...], dtype: np.dtype, device: Any,
                 offset: int = 0, strides: tuple[int, ...] | None = None) -> None:
        self._block = block
        self._ptr = block.ptr
        self._nbytes = block.nbytes
        self.shape = shape
        self.dtype = dtype
        self.device = device
        self.offset = offset
        if strides is None:
            self.strides = contiguous_strides(shape)
            self.contiguous = True
        else:
            self.strides = tuple(strides)
            self.contiguous = is_contiguous(shape, self.strides)

    @classmethod
    def fresh(cls, block: Any, ptr: int, nbytes: int, shape: tuple[int, ...], dtype: np.dtype,
              device: Any) -> DeviceArray:
        """A new contiguous array over all of ``block`` (at ``ptr``, ``nbytes`` long; the allocation
        hot path: strides cached per shape, no checks)."""
        a = _new(cls)
        a._block = block
        a._ptr = ptr
        a._nbytes = nbytes
        a.shape = shape
        a.dtype = dtype
        a.device = device
        a.offset = 0
        strides = _STRIDES.get(shape)
        if strides is None:
            if len(_STRIDES) > 1024:
                _STRIDES.clear()
            strides = _STRIDES[shape] = contiguous_strides(shape)
        a.strides = strides
        a.contiguous = True
        return a

    @property
    def block(self) -> Any:
        if _fork.stale:
            _fork.check(self.device.type)
        return self._block

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def byte_offset(self) -> int:
        return self.offset * self.dtype.itemsize

    @property
    def ptr(self) -> int:
        return self.block.ptr + self.byte_offset

    def view(self, shape: tuple[int, ...], strides: tuple[int, ...] | None, offset: int) -> DeviceArray:
        """Another view of the same block."""
        return DeviceArray(self.block, tuple(shape), self.dtype, self.device, offset, strides)

    def __repr__(self) -> str:
        extra = "" if self.contiguous and not self.offset else f" offset {self.offset} strides {list(self.strides)}"
        if _fork.stale.get(self.device.type):
            return (f"<DeviceArray {self.dtype.name}{list(self.shape)}{extra} on {self.device}, "
                    "inherited through fork(): unusable>")
        return f"<DeviceArray {self.dtype.name}{list(self.shape)}{extra} on {self.device} at {self.ptr:#x}>"
