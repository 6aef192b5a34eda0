"""Streams and events for backends that compute synchronously on the host (numpy, meta).

Work is finished when the call returns, so a stream is always idle; events keep wall-clock
timestamps so ``elapsed_time`` measures host time between two records.
"""

from __future__ import annotations

import time

from .backend import EventImpl, StreamImpl


class HostEvent(EventImpl):
    def __init__(self, enable_timing: bool) -> None:
        self.enable_timing = enable_timing
        self.timestamp_ns: int | None = None

    def synchronize(self) -> None:
        pass

    def query(self) -> bool:
        return True

    def elapsed_time(self, end: EventImpl) -> float:
        assert isinstance(end, HostEvent) and self.timestamp_ns is not None and end.timestamp_ns is not None
        return (end.timestamp_ns - self.timestamp_ns) / 1e6


class HostStream(StreamImpl):
    def synchronize(self) -> None:
        pass

    def query(self) -> bool:
        return True

    def wait_event(self, event: EventImpl) -> None:
        pass  # everything before the event has already run

    def record(self, event: EventImpl) -> None:
        assert isinstance(event, HostEvent)
        event.timestamp_ns = time.perf_counter_ns()
