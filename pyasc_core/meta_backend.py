"""The ``meta`` backend: tensors with a shape and dtype but no data, as PyTorch's meta device.

Every op runs its meta function, so a whole program can be shape-checked without computing;
composite ops run through their parts. Nothing is allocated, so memory statistics stay zero.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .backend import Backend
from .device import Device
from .errors import IndexingError, PyascError
from .hookspecs import hookimpl
from .host_backend import HostBackend
from .tensor import wrap_storage
from .tensor_meta import TensorMeta


def _shape_of_index(storage: TensorMeta, key: Any) -> TensorMeta:
    # a zero-strided view has the real shape logic of NumPy indexing without any memory
    view = np.broadcast_to(np.empty((), storage.dtype), storage.shape)
    try:
        return TensorMeta(view[key].shape, storage.dtype)
    except IndexError as exc:
        raise IndexingError(f"{exc} (tensor shape {storage.shape})") from None


class MetaBackend(HostBackend):
    name = "meta"
    description = "shapes and dtypes only, no data (runs meta functions)"
    priority = -100
    default_kernel_label = "meta function"
    holds_memory = False  # nothing is allocated: memory statistics stay zero

    def from_numpy(self, array: np.ndarray, device: Device, copy: bool) -> TensorMeta:
        return TensorMeta(array.shape, array.dtype)

    def to_numpy(self, storage: TensorMeta) -> np.ndarray:
        raise PyascError(
            f"a meta tensor (shape {storage.shape}) has no data to read; run on a real backend, "
            "e.g. pyasc.set_backend('numpy')"
        )

    def empty(self, shape: tuple[int, ...], dtype: np.dtype, device: Device) -> TensorMeta:
        return TensorMeta(shape, dtype)

    def full(self, shape: tuple[int, ...], value: Any, dtype: np.dtype, device: Device) -> TensorMeta:
        return TensorMeta(shape, dtype)

    def getitem(self, storage: TensorMeta, key: Any) -> TensorMeta:
        return _shape_of_index(storage, key)

    def setitem(self, storage: TensorMeta, key: Any, value: Any) -> None:
        _shape_of_index(storage, key)

    def default_kernel(self, op: Any) -> Callable[..., Any] | None:
        if op.meta is None:
            return None  # composite: runs through its parts
        device = self._device

        def kernel(meta: Any, *args: Any) -> Any:
            if isinstance(meta, tuple):
                return tuple(wrap_storage(m, device, self) for m in meta)
            return wrap_storage(meta, device, self)

        return kernel


BACKEND = MetaBackend()


@hookimpl
def pyasc_register_backends(register: Callable[[Backend], None]) -> None:
    register(BACKEND)
