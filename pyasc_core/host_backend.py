"""HostBackend: the base of backends that compute synchronously on the host (numpy, meta).

It gives them what they share: one device, host streams and events (work is finished when a call
returns), and memory statistics over the host bytes their tensors own, with an optional limit and
an out-of-memory error that states the figures. Subclasses add storage and kernels.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

from .backend import MEMORY_STAT_KEYS, Backend, EventImpl, StreamImpl
from .device import Device
from .errors import OutOfMemoryError, PyascError
from .host_memory import HOST_MEMORY
from .host_streams import HostEvent, HostStream


def nbytes_of(shape: tuple[int, ...], dtype: Any) -> int:
    n = np.dtype(dtype).itemsize
    for d in shape:
        n *= int(d)
    return n


def fmt_bytes(n: int) -> str:
    v, unit = float(n), "B"
    for unit in ("B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if v < 1024 or unit == "EiB":
            break
        v /= 1024
    return f"{n} bytes" if unit == "B" else f"{v:.2f} {unit} ({n} bytes)"


def physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


class HostBackend(Backend):
    """A one-device backend on the host with host streams/events and host memory statistics."""

    #: storage owns host memory (counted in memory_stats); False: no data at all (meta)
    holds_memory: bool = True

    def __init__(self) -> None:
        self._device = Device(self.name)
        self._limit: int | None = None
        self._num_ooms = 0
        self._default_stream = HostStream()

    # -- devices ---------------------------------------------------------------------------
    def device(self, index: int | None = None) -> Device:
        if index not in (None, 0):
            raise PyascError(
                f"the {self.name} backend has one device; got index {index}. Use {self.name!r}."
            )
        return self._device

    # -- storage accounting ----------------------------------------------------------------
    def adopt(self, storage: Any, device: Device) -> int:
        if not self.holds_memory or storage.base is not None:
            return 0  # a view: its base owns the memory
        n = storage.nbytes
        if self._limit is not None:
            self._check_limit(n)
        return n

    def _check_limit(self, nbytes: int) -> None:
        limit = self._limit
        assert limit is not None
        if HOST_MEMORY.current + nbytes > limit:
            self._num_ooms += 1
            raise OutOfMemoryError(
                f"{self.name} backend: allocating {nbytes} bytes would exceed the memory limit of "
                f"{limit} bytes (allocated {HOST_MEMORY.current}, reserved {HOST_MEMORY.current}, "
                f"free {max(limit - HOST_MEMORY.current, 0)}, total {limit}); free tensors you no "
                "longer need or raise the limit with pyasc.memory.set_memory_limit(...)"
            )

    def host_oom(self, what: str, nbytes: int, exc: BaseException) -> BaseException:
        """NumPy could not allocate ``nbytes`` for ``what``: OutOfMemoryError with the figures and
        the fix. A ValueError is NumPy's "array is too big" only for sizes beyond the address
        space; any other one is returned unchanged for the caller to raise."""
        if isinstance(exc, ValueError) and nbytes <= sys.maxsize:
            return exc
        self._num_ooms += 1
        free, total = self.mem_get_info(self._device)
        return OutOfMemoryError(
            f"{self.name} backend out of memory: {what} needs {fmt_bytes(nbytes)} of host memory "
            f"and NumPy could not allocate it ({exc}); {fmt_bytes(HOST_MEMORY.current)} held by "
            f"live tensors, host free {fmt_bytes(free)} of {fmt_bytes(total)} total. Use smaller "
            "tensors or free tensors you no longer need (del them)"
        )

    # -- memory ----------------------------------------------------------------------------
    def memory_stats(self, device: Device) -> dict[str, int]:
        if not self.holds_memory:
            return dict.fromkeys(MEMORY_STAT_KEYS, 0)
        m = HOST_MEMORY
        values = {
            "allocated_bytes.all.current": m.current,
            "allocated_bytes.all.peak": m.peak,
            "allocated_bytes.all.allocated": m.allocated,
            "allocated_bytes.all.freed": m.freed,
            # no caching on the host: reserved equals allocated
            "reserved_bytes.all.current": m.current,
            "reserved_bytes.all.peak": m.peak,
            "reserved_bytes.all.allocated": m.allocated,
            "reserved_bytes.all.freed": m.freed,
            "active_bytes.all.current": m.current,
            "active_bytes.all.peak": m.peak,
            "allocation.all.current": m.count,
            "allocation.all.peak": m.count_peak,
            "allocation.all.allocated": m.count_total,
            "allocation.all.freed": m.count_total - m.count,
            "num_alloc_retries": 0,
            "num_ooms": self._num_ooms,
            "num_deferred_releases": 0,  # host memory is freed at once: nothing is ever deferred
        }
        assert tuple(values) == MEMORY_STAT_KEYS
        return values

    def reset_peak_memory_stats(self, device: Device) -> None:
        if self.holds_memory:
            HOST_MEMORY.reset_peak()

    def set_memory_limit(self, device: Device, nbytes: int | None) -> None:
        if self.holds_memory:
            self._limit = nbytes

    def mem_get_info(self, device: Device) -> tuple[int, int]:
        if not self.holds_memory:
            return 0, 0
        if self._limit is not None:
            return max(self._limit - HOST_MEMORY.current, 0), self._limit
        try:
            free = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_AVPHYS_PAGES")
        except (ValueError, OSError, AttributeError):
            free = 0
        return free, physical_memory()

    # -- streams and events ----------------------------------------------------------------
    def create_stream(self, device: Device) -> StreamImpl:
        return HostStream()

    def default_stream(self, device: Device) -> StreamImpl:
        return self._default_stream

    def create_event(self, device: Device, enable_timing: bool) -> EventImpl:
        return HostEvent(enable_timing)
