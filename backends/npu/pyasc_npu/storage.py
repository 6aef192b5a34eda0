"""The storage of a tensor on an ACL device: a caching-allocator block with a shape and dtype."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import fork as _fork


class DeviceArray:
    """Device memory of one tensor. ``block`` (an ``_acl.DeviceBlock``) returns to the caching
    allocator when the last reference goes; ``ptr`` is its device address. In a child forked after
    the parent opened the device, ``block`` raises ForkedDeviceError: the memory is the parent's."""

    __slots__ = ("_block", "shape", "dtype", "device")

    def __init__(self, block: Any, shape: tuple[int, ...], dtype: np.dtype, device: Any) -> None:
        self._block = block
        self.shape = shape
        self.dtype = dtype
        self.device = device

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
    def ptr(self) -> int:
        return self.block.ptr

    def __repr__(self) -> str:
        if _fork.stale.get(self.device.type):
            return f"<DeviceArray {self.dtype.name}{list(self.shape)} on {self.device}, inherited through fork(): unusable>"
        return f"<DeviceArray {self.dtype.name}{list(self.shape)} on {self.device} at {self.ptr:#x}>"
