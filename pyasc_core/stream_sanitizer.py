"""Cross-stream race detection (as PyTorch's CUDA stream sanitizer): each stream carries a vector
clock; events record it, ``wait_event`` and host synchronisation join it; each device block keeps
its last writes and the reads since, with their byte ranges. Work enqueued on stream S that writes
bytes another stream T accessed (or reads bytes T wrote) without an event/wait/synchronize ordering
T's access before it raises :class:`StreamRaceError` before the work is enqueued.

On by default on ``sim`` (when ``PYASC_SIM_CHECKS`` is on), off on ``npu``; ``PYASC_STREAM_SANITIZER``
=1/0 forces it. Backends call the ``on_*`` hooks only when :func:`active` says so (no cost when off)."""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Collection, Iterator
from typing import Any

from .env import env_flag
from .errors import StreamRaceError

ENV = "PYASC_STREAM_SANITIZER"
_MAX_ENTRIES = 64  # accesses kept per block (oldest dropped: a missed report, never a false one)

_rlock = threading.RLock()
#: how many times the lock below is held (nested holds count): the C launch path
#: (pyasc_acl's ``_acl.launcher``) records without the lock, holding the GIL throughout, and leaves
#: the records to the Python side (which takes the lock) while it is non-zero
_busy = [0]


class _StateLock:
    """The lock of this module's state, counting its holders in ``_busy``: every reader and writer of
    the state other than the C launch path holds it. The count changes only while the lock is held,
    and the C path runs without releasing the GIL, so it never sees a holder half-way through."""

    __slots__ = ()

    def __enter__(self) -> None:
        _rlock.acquire()
        _busy[0] += 1

    def __exit__(self, *exc: Any) -> None:
        _busy[0] -= 1
        _rlock.release()


_lock = _StateLock()
_active: dict[str, bool] = {}
_clocks: dict[int, dict[int, int]] = {}   # stream key -> vector clock {stream key: clock}
_labels: dict[int, str] = {}
_events: dict[int, dict[int, int]] = {}   # event key -> the clock recorded
_host: dict[int, int] = {}                # what the host has waited for
_blocks: dict[int, list[tuple[int, int, int, int, bool, str]]] = {}  # block -> (stream, clock, lo, hi, write, op)
_host_gen = [0]                           # bumped when _host grows: a stream clock joins it again
_joined: dict[int, int] = {}              # stream key -> the _host_gen its clock last joined
#: blocks the op being run only reads (its inputs; set by the backend around an op's kernel)
_op_reads: contextvars.ContextVar[Collection[int] | None] = contextvars.ContextVar("pyasc_stream_reads",
                                                                                 default=None)


#: the access loop in C over this module's state (installed by a backend: :func:`use_native`)
_native: Any = None


def use_native(factory: Any) -> None:
    """Run :func:`access`'s check-and-record loop through ``factory(clocks, blocks, host, joined,
    host_gen, max_entries)`` (pyasc_acl's ``_acl.stream_recorder``): the same records, made without
    the interpreter on the launch hot path. It stops at any access it cannot decide (a possible
    race, an unusual value) and this module's loop goes on from there, so reports are unchanged."""
    global _native
    if _native is None:
        _native = factory(_clocks, _blocks, _host, _joined, _host_gen, _MAX_ENTRIES)


def active(backend: str) -> bool:
    """Whether the sanitizer runs for ``backend`` (validated env switch, cached; see :func:`reset`)."""
    on = _active.get(backend)
    if on is None:
        default = backend == "sim" and env_flag("PYASC_SIM_CHECKS", default=True)
        on = _active[backend] = env_flag(ENV, default=default)
    return on


def reset() -> None:
    """Forget the cached switch and all history (tests; after changing the environment)."""
    with _lock:
        _active.clear(); _clocks.clear(); _events.clear(); _host.clear(); _blocks.clear(); _joined.clear()
        _host_gen[0] += 1


def name_stream(stream: Any, label: str) -> None:
    _labels[id(stream)] = label


def _label(key: int) -> str:
    return _labels.get(key) or f"stream {key:#x}"


def _clock(key: int) -> dict[int, int]:
    vc = _clocks.get(key)
    if vc is None:
        vc = _clocks[key] = {key: 1}
        if key not in _labels:
            _labels[key] = f"stream #{len(_labels) + 1}"
    if _host and _joined.get(key) != _host_gen[0]:  # what the host waited for, once per change
        for k, c in _host.items():
            if vc.get(k, 0) < c:
                vc[k] = c
        _joined[key] = _host_gen[0]
    return vc


@contextlib.contextmanager
def op_reads(blocks: frozenset[int]) -> Iterator[None]:
    """Inside (an op's kernel): launches only read ``blocks`` (the op's inputs); the other block
    arguments are its outputs and temporaries. Outside an op every GM argument may be written."""
    tok = _op_reads.set(blocks)
    try:
        yield
    finally:
        _op_reads.reset(tok)


def enter_op_reads(blocks: frozenset[int]) -> Any:
    """:func:`op_reads` without the context manager (the op hot path): returns the token for
    :func:`exit_op_reads`."""
    return _op_reads.set(blocks)


def exit_op_reads(token: Any) -> None:
    _op_reads.reset(token)


def read_only_blocks() -> Collection[int] | None:
    return _op_reads.get()


def access(stream: Any, accesses: list[tuple[int, int, int, bool, str]], op: str) -> None:
    """Check, then record, ``accesses`` = [(block key, lo, hi, write, what)] of ``op`` on ``stream``
    (``what``: a text, or a launch's (flag, label) made into one only for a report).
    Raises StreamRaceError naming both streams, the range and both operations on a conflict."""
    skey = id(stream)
    with _lock:
        if _native is not None:
            start = _native(skey, accesses, op)
            if start == len(accesses):  # all checked and recorded, the clock advanced
                return
            if start > 0:
                accesses = accesses[start:]
        vc = _clocks.get(skey)
        if vc is None or (_host and _joined.get(skey) != _host_gen[0]):
            vc = _clock(skey)
        now = vc[skey]
        get = _blocks.get
        for block, lo, hi, write, what in accesses:
            entries = get(block)
            if entries is None:  # a fresh block (or one never seen)
                _blocks[block] = [(skey, now, lo, hi, write, op)]
                continue
            if len(entries) == 1:  # the common case: one earlier access, maybe this stream's
                e = entries[0]
                if e[0] == skey and lo <= e[2] and e[3] <= hi and (write or not e[4]):
                    entries[0] = (skey, now, lo, hi, write, op)  # covers it (what the filter below does)
                    continue
            if entries:
                for s, c, elo, ehi, ewrite, eop in entries:
                    if s != skey and (write or ewrite) and elo < hi and lo < ehi and vc.get(s, 0) < c:
                        kinds = ("writes" if write else "reads", "wrote" if ewrite else "read")
                        if type(what) is tuple:  # (flag, label) of a launch argument: its text now
                            what = f"{what[1]} ({hi - lo} bytes)"
                        raise StreamRaceError(
                            f"cross-stream race: {op} on {_label(skey)} {kinds[0]} {what} (device bytes "
                            f"{block + max(lo, elo):#x}..{block + min(hi, ehi):#x}), which {eop} on "
                            f"{_label(s)} {kinds[1]} with nothing ordering the two (no event recorded on "
                            f"{_label(s)} after it and waited for on {_label(skey)}, no synchronize). Fix: "
                            f"ev = {_label(s)}.record_event(); {_label(skey)}.wait_event(ev) (or "
                            "wait_stream / synchronize) before enqueueing it; switch this check off with "
                            f"{ENV}=0")
            if not entries:
                _blocks[block] = [(skey, now, lo, hi, write, op)]
                continue
            e = entries[-1]
            if not write and e[0] == skey and not e[4] and lo <= e[2] and e[3] <= hi:
                # a read covering this stream's last read: replace it (older same-stream reads the
                # filter below would drop are ordered before it, so keeping them reports nothing new)
                entries[-1] = (skey, now, lo, hi, write, op)
                continue
            if write:  # earlier accesses it covers are ordered before it (else we raised)
                entries[:] = [e for e in entries if not (lo <= e[2] and e[3] <= hi)]
            else:
                entries[:] = [e for e in entries if not (e[0] == skey and not e[4] and lo <= e[2] and e[3] <= hi)]
            entries.append((skey, now, lo, hi, write, op))
            if len(entries) > _MAX_ENTRIES:
                del entries[0]
        vc[skey] = now + 1


def on_alloc(block: int) -> None:
    """A block handed out by the allocator: its history is gone (the allocator orders reuse)."""
    _blocks.pop(block, None)


def on_record(stream: Any, event: Any) -> None:
    with _lock:
        vc = _clock(id(stream))
        _events[id(event)] = dict(vc)
        vc[id(stream)] += 1


def on_wait(stream: Any, event: Any) -> None:
    with _lock:
        ev = _events.get(id(event))
        if ev:
            _join(_clock(id(stream)), ev)


def on_event_sync(event: Any) -> None:
    with _lock:
        ev = _events.get(id(event))
        if ev:
            _join(_host, ev)


def on_stream_sync(stream: Any) -> None:
    with _lock:
        vc = _clock(id(stream))
        _join(_host, {id(stream): vc[id(stream)] - 1})


def on_device_sync() -> None:
    with _lock:
        grew = False
        for key, vc in _clocks.items():
            c = vc[key] - 1
            if _host.get(key, 0) < c:
                _host[key] = c
                grew = True
        if grew:
            _host_gen[0] += 1


def _join(into: dict[int, int], other: dict[int, int]) -> None:
    for k, c in other.items():
        if into.get(k, 0) < c:
            into[k] = c
            if into is _host:
                _host_gen[0] += 1
