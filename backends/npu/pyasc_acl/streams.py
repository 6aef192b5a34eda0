"""StreamImpl / EventImpl of the ACL backends, over the binding's Stream and Event."""

from __future__ import annotations

from typing import Any

from pyasc_core import stream_sanitizer as _san
from pyasc_core.backend import EventImpl, StreamImpl


class AclStream(StreamImpl):
    """An ACL stream; ``raw`` is the ``_acl.Stream`` (the GIL is released while it waits)."""

    __slots__ = ("raw", "san")

    def __init__(self, raw: Any, backend: str = "") -> None:
        self.raw = raw
        #: whether the stream sanitizer tracks this stream (pyasc_core.stream_sanitizer)
        self.san = bool(backend) and _san.active(backend)

    @property
    def handle(self) -> int:
        """The aclrtStream as an int (0: the device's default stream)."""
        return int(self.raw.handle)

    def __del__(self) -> None:
        if getattr(self.raw, "is_external", False):
            return  # someone else's stream: its owner drains and destroys it
        # drain queued work here, where the binding releases the GIL, so that the C++ destructor
        # (which runs with the GIL held) finds nothing left to wait for; its errors were (or would
        # have been) reported by the synchronize that the user calls, as for an unsynced stream
        try:
            self.raw.synchronize()
        except Exception:  # noqa: BLE001  (a destructor must not raise)
            pass

    def synchronize(self) -> None:
        self.raw.synchronize()
        if self.san:
            _san.on_stream_sync(self.raw)

    def query(self) -> bool:
        return self.raw.query()

    def wait_event(self, event: EventImpl) -> None:
        self.raw.wait_event(event.raw)  # type: ignore[attr-defined]
        if self.san:
            _san.on_wait(self.raw, event.raw)  # type: ignore[attr-defined]

    def record(self, event: EventImpl) -> None:
        self.raw.record(event.raw)  # type: ignore[attr-defined]
        if self.san:
            _san.on_record(self.raw, event.raw)  # type: ignore[attr-defined]


class AclEvent(EventImpl):
    """An ACL event; timestamps come from the device (simulated time on the simulator)."""

    __slots__ = ("raw", "enable_timing", "san")

    def __init__(self, raw: Any, enable_timing: bool, backend: str = "") -> None:
        self.raw = raw
        self.enable_timing = enable_timing
        self.san = bool(backend) and _san.active(backend)

    def synchronize(self) -> None:
        self.raw.synchronize()
        if self.san:
            _san.on_event_sync(self.raw)
        if self.san:
            _san.on_stream_sync(self.raw)

    def query(self) -> bool:
        return self.raw.query()

    def elapsed_time(self, end: EventImpl) -> float:
        return float(self.raw.elapsed_time(end.raw))  # type: ignore[attr-defined]
