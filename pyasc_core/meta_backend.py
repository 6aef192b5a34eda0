"""The ``meta`` backend: tensors with a shape and dtype but no data, as PyTorch's meta device.

Every op runs its meta function, so a whole program can be shape-checked without computing;
composite ops run through their parts. Nothing is allocated, so memory statistics stay zero.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .backend import MEMORY_STAT_KEYS, Backend, EventImpl, StreamImpl, TensorMeta
from .device import Device
from .errors import IndexingError, PyascError
from .hookspecs import hookimpl
from .host_streams import HostEvent, HostStream


def _shape_of_index(storage: TensorMeta, key: Any) -> TensorMeta:
    # a zero-strided view has the real shape logic of NumPy indexing without any memory
    view = np.broadcast_to(np.empty((), storage.dtype), storage.shape)
    try:
        return TensorMeta(view[key].shape, storage.dtype)
    except IndexError as exc:
        raise IndexingError(f"{exc} (tensor shape {storage.shape})") from None


class MetaBackend(Backend):
    name = "meta"
    description = "shapes and dtypes only, no data (runs meta functions)"
    priority = -100
    default_kernel_label = "meta function"

    def __init__(self) -> None:
        self._device = Device("meta")

    def device(self, index: int | None = None) -> Device:
        if index not in (None, 0):
            raise PyascError(f"the meta backend has one device; got index {index}. Use 'meta'.")
        return self._device

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
        wrap = self.wrap

        def kernel(meta: Any, *args: Any) -> Any:
            if isinstance(meta, tuple):
                return tuple(wrap(m, device) for m in meta)
            return wrap(meta, device)

        return kernel

    def memory_stats(self, device: Device) -> dict[str, int]:
        return dict.fromkeys(MEMORY_STAT_KEYS, 0)

    def reset_peak_memory_stats(self, device: Device) -> None:
        pass

    def set_memory_limit(self, device: Device, nbytes: int | None) -> None:
        pass  # meta tensors use no memory

    def mem_get_info(self, device: Device) -> tuple[int, int]:
        return 0, 0

    def create_stream(self, device: Device) -> StreamImpl:
        return HostStream()

    def create_event(self, device: Device, enable_timing: bool) -> EventImpl:
        return HostEvent(enable_timing)


BACKEND = MetaBackend()


@hookimpl
def pyasc_register_backends(register: Callable[[Backend], None]) -> None:
    register(BACKEND)
