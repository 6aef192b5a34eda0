"""Counts the host memory owned by live tensors of host backends (the reference backend's stats)."""

from __future__ import annotations


class HostMemoryCounter:
    """Bytes and allocations of tensor storage, with PyTorch-style current/peak/total figures."""

    __slots__ = ("current", "peak", "allocated", "freed", "count", "count_peak", "count_total")

    def __init__(self) -> None:
        self.current = self.peak = self.allocated = self.freed = 0
        self.count = self.count_peak = self.count_total = 0

    def alloc(self, nbytes: int) -> None:
        self.current += nbytes
        self.allocated += nbytes
        self.count += 1
        self.count_total += 1
        if self.current > self.peak:
            self.peak = self.current
        if self.count > self.count_peak:
            self.count_peak = self.count

    def release(self, nbytes: int) -> None:
        self.current -= nbytes
        self.freed += nbytes
        self.count -= 1

    def reset_peak(self) -> None:
        self.peak = self.current
        self.count_peak = self.count


HOST_MEMORY = HostMemoryCounter()
