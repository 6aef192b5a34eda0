"""Streams and events with CuPy/PyTorch names: ``Stream``, ``Event``, ``stream(s)``, a current
stream per device, ``synchronize``. Backends supply the StreamImpl/EventImpl.

The current stream lives in a :class:`contextvars.ContextVar`: each thread starts with the default
stream, and each asyncio task sees only the streams its own ``with pyasc.stream(s):`` blocks made
current (a task copies its creator's context when it is created)."""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Iterator
from typing import Any

from .backend import StreamImpl
from .device import Device
from .errors import ArgumentError, BackendError, PyascError
from .registry import backend_for_device
from .selection import resolve_device

_local = threading.local()  # per-thread cache of the default Stream objects
#: device -> tuple of the streams made current by enclosing ``with`` blocks (innermost last); the
#: mapping is never mutated in place, so contexts copied by asyncio tasks stay independent
_current: contextvars.ContextVar[dict[Device, tuple[Stream, ...]]] = contextvars.ContextVar(
    "pyasc_current_streams", default={}
)


class Stream:
    """An in-order queue of work on one device. ``with s:`` makes it current in this thread."""

    def __init__(self, device: Any = None, *, _impl: StreamImpl | None = None) -> None:
        self.device: Device = resolve_device(device)
        self._impl = _impl if _impl is not None else backend_for_device(self.device).create_stream(self.device)

    @property
    def impl(self) -> StreamImpl:
        """The backend's stream object (for backends and kernels)."""
        return self._impl

    @property
    def handle(self) -> int:
        """The native stream handle (an ``aclrtStream`` as an int, 0 for the default stream), to
        hand this stream to another library (torch_npu, a C++ extension)."""
        try:
            return int(self._impl.handle)
        except NotImplementedError:
            raise BackendError(f"streams of {self.device} have no native handle (only ACL backends such as "
                               "'sim' and 'npu' have them)") from None

    @classmethod
    def from_handle(cls, handle: int, device: Any = None) -> Stream:
        """The stream another library owns, by its native handle (as ``pyasc.ExternalStream``)."""
        return ExternalStream(handle, device)

    def synchronize(self) -> None:
        """Block until all work queued on this stream has finished."""
        self._impl.synchronize()

    def query(self) -> bool:
        """True when all queued work has finished."""
        return self._impl.query()

    def wait_event(self, event: Event) -> None:
        """Later work on this stream waits until ``event`` has been reached."""
        _expect(event, Event, "Stream.wait_event")
        _same_device(self.device, event.device, "wait_event")
        event._check_recorded("wait_event")
        self._impl.wait_event(event._impl)

    def wait_stream(self, stream: Stream) -> None:
        """Later work on this stream waits for everything queued so far on ``stream``."""
        _expect(stream, Stream, "Stream.wait_stream")
        self.wait_event(stream.record_event())

    def record_event(self, event: Event | None = None) -> Event:
        """Record ``event`` (a new one if None) at the current end of this stream."""
        _expect(event, Event, "Stream.record_event", none_ok=True)
        event = event if event is not None else Event(device=self.device)
        event.record(self)
        return event

    def __enter__(self) -> Stream:
        stacks = dict(_current.get())
        stacks[self.device] = stacks.get(self.device, ()) + (self,)
        _current.set(stacks)
        return self

    def __exit__(self, *exc: Any) -> None:
        stacks = dict(_current.get())
        stack = stacks.get(self.device, ())
        # the innermost entry of this stream in this context (normally the last one)
        for i in range(len(stack) - 1, -1, -1):
            if stack[i] is self:
                stacks[self.device] = stack[:i] + stack[i + 1:]
                break
        _current.set(stacks)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Stream) and other._impl is self._impl

    def __hash__(self) -> int:
        return id(self._impl)

    def __repr__(self) -> str:
        return f"<pyasc.Stream on {self.device} at {id(self._impl):#x}>"


class ExternalStream(Stream):
    """A stream created and owned by someone else (as ``cupy.cuda.ExternalStream``): pyasc queues
    work on it and never destroys it; ``handle`` is its ``aclrtStream`` as an int, e.g. torch_npu's
    ``torch.npu.current_stream().npu_stream``. The owner must keep it alive while pyasc uses it."""

    def __init__(self, handle: int, device: Any = None) -> None:
        if not isinstance(handle, int) or isinstance(handle, bool) or not 0 <= handle < 2**64:
            raise ArgumentError(f"ExternalStream(handle={handle!r:.60}): a handle is a native stream pointer as a "
                                "non-negative int (e.g. torch.npu.current_stream().npu_stream)")
        dev = resolve_device(device)
        try:
            impl = backend_for_device(dev).external_stream(dev, handle)
        except NotImplementedError:
            raise BackendError(f"ExternalStream: {dev} has no native streams to wrap; use an ACL device such as "
                               "'sim:0' or 'npu:0'") from None
        super().__init__(dev, _impl=impl)

    def __repr__(self) -> str:
        return f"<pyasc.ExternalStream {self.handle:#x} on {self.device}>"


class Event:
    """A marker in a stream; with ``enable_timing=True`` it measures time between two records."""

    def __init__(self, enable_timing: bool = False, device: Any = None) -> None:
        self.device: Device = resolve_device(device)
        self.enable_timing = bool(enable_timing)
        self._impl = backend_for_device(self.device).create_event(self.device, self.enable_timing)
        self._recorded = False

    def record(self, stream: Stream | None = None) -> None:
        _expect(stream, Stream, "Event.record", none_ok=True)
        stream = stream if stream is not None else current_stream(self.device)
        _same_device(stream.device, self.device, "record")
        stream._impl.record(self._impl)
        self._recorded = True

    def synchronize(self) -> None:
        self._check_recorded("synchronize")
        self._impl.synchronize()

    def query(self) -> bool:
        return (not self._recorded) or self._impl.query()

    def wait(self, stream: Stream | None = None) -> None:
        _expect(stream, Stream, "Event.wait", none_ok=True)
        (stream if stream is not None else current_stream(self.device)).wait_event(self)

    def elapsed_time(self, end: Event) -> float:
        """Milliseconds between this event and ``end`` (both recorded, both with timing)."""
        _expect(end, Event, "Event.elapsed_time")
        if not (self.enable_timing and end.enable_timing):
            raise PyascError(
                "elapsed_time needs events created with enable_timing=True "
                f"(start: {self.enable_timing}, end: {end.enable_timing})"
            )
        self._check_recorded("elapsed_time")
        end._check_recorded("elapsed_time")
        _same_device(self.device, end.device, "elapsed_time")
        end.synchronize()
        return self._impl.elapsed_time(end._impl)

    def _check_recorded(self, what: str) -> None:
        if not self._recorded:
            raise PyascError(f"Event.{what}: the event has not been recorded yet; call event.record() first")

    def __repr__(self) -> str:
        return f"<pyasc.Event on {self.device} timing={self.enable_timing} recorded={self._recorded}>"


def _expect(obj: Any, cls: type, what: str, none_ok: bool = False) -> None:
    """An ArgumentError naming the value unless ``obj`` is a ``cls`` (or None where allowed)."""
    if not (isinstance(obj, cls) or (none_ok and obj is None)):
        raise ArgumentError(f"{what} takes a pyasc.{cls.__name__}{' or None' if none_ok else ''}, got "
                            f"{type(obj).__name__} {obj!r:.60}")


def _same_device(a: Device, b: Device, what: str) -> None:
    if a is not b:
        raise PyascError(f"{what}: the stream is on {a} but the event is on {b}; use objects of one device")


def default_stream(device: Any = None) -> Stream:
    """The device's default stream."""
    dev = resolve_device(device)
    cache = getattr(_local, "defaults", None)
    if cache is None:
        cache = _local.defaults = {}
    s = cache.get(dev)
    if s is None:
        s = cache[dev] = Stream(dev, _impl=backend_for_device(dev).default_stream(dev))
    return s


def current_stream(device: Any = None) -> Stream:
    """The stream work goes to in this context (thread or asyncio task): the innermost
    ``with stream(...)``, else the default."""
    if type(device) is Device:  # the launch hot path: a tensor's device, resolved when it was made
        stack = _current.get().get(device)
        if stack:
            return stack[-1]
        cache = getattr(_local, "defaults", None)
        s = cache.get(device) if cache is not None else None
        if s is not None:
            return s
    dev = resolve_device(device)
    stack = _current.get().get(dev)
    return stack[-1] if stack else default_stream(dev)


@contextlib.contextmanager
def stream(s: Stream | None) -> Iterator[Stream | None]:
    """``with pyasc.stream(s):`` makes ``s`` the current stream of its device (None: no change)."""
    if s is None:
        yield None
        return
    if not isinstance(s, Stream):
        from .errors import ArgumentError

        raise ArgumentError(f"pyasc.stream() takes a pyasc.Stream or None, got {type(s).__name__} {s!r}")
    with s:
        yield s


def synchronize(device: Any = None) -> None:
    """Wait for all work on the device (all streams)."""
    dev = resolve_device(device)
    backend_for_device(dev).synchronize(dev)
