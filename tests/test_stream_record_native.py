"""The stream sanitizer's record loop in C (``_acl.stream_recorder``, issue 13 point 1) against the
Python loop: the same random programs of accesses, events and synchronisations on several streams
give the same records, the same clocks and the same race reports."""

from __future__ import annotations

import copy
import random

import pytest

from pyasc_core import stream_sanitizer as san
from pyasc_core.errors import StreamRaceError

_acl = pytest.importorskip("pyasc_acl._acl")


class _Stream:
    """A stand-in stream: the sanitizer keys streams by identity only."""


def _run(program, streams, events):
    """Replay ``program``; returns the sanitizer's state and the text of each race report."""
    san.reset()
    san._active["sim"] = True
    reports = []
    for step in program:
        kind = step[0]
        if kind == "access":
            _, si, accesses, op = step
            try:
                san.access(streams[si], list(accesses), op)
            except StreamRaceError as exc:
                reports.append(str(exc).replace(hex(id(streams[si])), "S"))
        elif kind == "record":
            san.on_record(streams[step[1]], events[step[2]])
        elif kind == "wait":
            san.on_wait(streams[step[1]], events[step[2]])
        elif kind == "event_sync":
            san.on_event_sync(events[step[1]])
        elif kind == "stream_sync":
            san.on_stream_sync(streams[step[1]])
        elif kind == "device_sync":
            san.on_device_sync()
        elif kind == "alloc":
            san.on_alloc(step[1])
    state = (copy.deepcopy(san._blocks), copy.deepcopy(san._clocks), dict(san._host))
    san.reset()
    return state, reports


def _program(rng: random.Random, n_streams: int, n_steps: int):
    blocks = [0x1000, 0x2000, 0x3000]
    program = []
    for _ in range(n_steps):
        r = rng.random()
        if r < 0.7:
            accesses = []
            for _ in range(rng.randint(0, 3)):
                lo = rng.choice([0, 0, 16, 32])
                hi = lo + rng.choice([16, 32, 64])
                what = rng.choice(["its source", ("tiling" == "x", "its GM argument 0")])
                accesses.append((rng.choice(blocks), lo, hi, rng.random() < 0.4, what))
            program.append(("access", rng.randrange(n_streams), tuple(accesses), f"op{len(program)}"))
        elif r < 0.8:
            program.append(("record", rng.randrange(n_streams), rng.randrange(3)))
        elif r < 0.88:
            program.append(("wait", rng.randrange(n_streams), rng.randrange(3)))
        elif r < 0.91:
            program.append(("event_sync", rng.randrange(3)))
        elif r < 0.94:
            program.append(("stream_sync", rng.randrange(n_streams)))
        elif r < 0.97:
            program.append(("device_sync",))
        else:
            program.append(("alloc", rng.choice(blocks)))
    return program


@pytest.mark.parametrize("seed", range(40))
def test_native_record_matches_the_python_loop(monkeypatch, seed):
    rng = random.Random(seed)
    n_streams = 1 + seed % 3
    program = _program(rng, n_streams, 300)
    streams = [_Stream() for _ in range(n_streams)]
    events = [object() for _ in range(3)]
    monkeypatch.setattr(san, "_MAX_ENTRIES", 4)  # eviction happens in short programs too
    monkeypatch.setattr(san, "_native", None)
    python_state, python_reports = _run(program, streams, events)
    native = _acl.stream_recorder(san._clocks, san._blocks, san._host, san._joined, san._host_gen, 4)
    monkeypatch.setattr(san, "_native", native)
    native_state, native_reports = _run(program, streams, events)
    assert native_reports == python_reports
    assert native_state == python_state
    if n_streams > 1:
        assert python_reports, "a multi-stream program without a race tests little: change the mix"


def test_native_record_hands_unusual_values_to_the_python_loop(monkeypatch):
    """A range that is not a Python int is left to the Python loop, which records it as before."""
    native = _acl.stream_recorder(san._clocks, san._blocks, san._host, san._joined, san._host_gen, 64)
    monkeypatch.setattr(san, "_native", native)
    san.reset()
    s = _Stream()
    san.access(s, [(0x10, 0, 8, True, "a"), (0x20, 0, 8.0, True, "b")], "op")  # prime the clock
    assert native(id(s), [(0x10, 0, 8, True, "a"), (0x20, 0, 8.5, True, "b")], "op") == 1
    san.reset()


def _launch_program(seed: int) -> list[tuple[int, str]]:
    """Random ops, events and synchronisations on three streams through the launch fast path;
    returns (step, error type) of every step the sanitizer refused."""
    import numpy as np

    import pyasc

    rng = random.Random(seed)
    streams = [pyasc.current_stream("sim"), pyasc.Stream("sim"), pyasc.Stream("sim")]
    xs = [pyasc.tensor(np.full(64, i, np.float32), device="sim") for i in range(4)]
    pyasc.synchronize("sim")
    events = []
    refused = []
    for step in range(120):
        r = rng.random()
        s = rng.choice(streams)
        try:
            if r < 0.7:
                i, j, k = rng.randrange(4), rng.randrange(4), rng.randrange(4)
                with pyasc.stream(s):
                    xs[k] = pyasc.add(xs[i], xs[j])
            elif r < 0.82:
                events.append(s.record_event())
            elif r < 0.94 and events:
                s.wait_event(rng.choice(events))
            else:
                s.synchronize()
        except pyasc.StreamRaceError as exc:
            refused.append((step, type(exc).__name__))
    pyasc.synchronize("sim")
    return refused


def test_native_launch_record_refuses_what_the_python_loop_refuses(monkeypatch):
    """The same programs of launches on three streams: the C launch record and the Python loop
    refuse the same steps (every planted race is caught by both)."""
    from pyasc_acl import kernels
    from pyasc_core.registry import REGISTRY

    if not REGISTRY.availability("sim")[0]:
        pytest.skip("needs the simulator")

    for seed in range(6):
        san.reset()
        native = _launch_program(seed)
        calls = []

        def python_only(skey, args, spec, reads):  # the C record declines: the Python loop does all
            calls.append(1)
            return -1

        san.reset()
        real = kernels._launch_record()
        kernels._LAUNCH_RECORD[0] = python_only  # the list the C launchers read at each launch
        try:
            python = _launch_program(seed)
        finally:
            kernels._LAUNCH_RECORD[0] = real
        assert calls, "the launch fast path did not consult the launch record"
        assert native == python
        assert native, f"seed {seed}: no race planted; change the mix"
    san.reset()


def _needs_sim():
    from pyasc_core.registry import REGISTRY

    if not REGISTRY.availability("sim")[0]:
        pytest.skip("needs the simulator")


def test_c_launch_leaves_the_records_to_python_while_the_sanitizer_lock_is_held():
    """The C launch path records without the sanitizer's Python lock (the GIL serialises it): while
    any thread holds that lock (half-way through a Python record) it must not touch the state, so
    the records are then made by the Python side under the lock. The recorder sees who called it."""
    import numpy as np

    import pyasc
    from pyasc_acl import kernels

    _needs_sim()
    san.reset()
    a = pyasc.tensor(np.arange(16, dtype=np.float32), device="sim")
    b = pyasc.tensor(np.ones(16, dtype=np.float32), device="sim")
    pyasc.add(a, b)
    pyasc.synchronize("sim")
    kernels._launch_record()
    real = kernels._LAUNCH_RECORD[0]
    busy_seen = []

    def spy(skey, args, spec, reads):
        busy_seen.append(san._busy[0])
        return real(skey, args, spec, reads)

    kernels._LAUNCH_RECORD[0] = spy
    try:
        out = pyasc.add(a, b)
        assert busy_seen == [0], "the C launch path should record itself when no one holds the lock"
        assert out._data._ptr in san._blocks
        with san._lock:  # as a Python record in progress on this (or another) thread
            out2 = pyasc.add(a, b)
    finally:
        kernels._LAUNCH_RECORD[0] = real
    assert len(busy_seen) == 2 and busy_seen[1] > 0, "with the lock held the records must be made under it"
    assert out2._data._ptr in san._blocks and san._busy[0] == 0
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(out2.numpy(), np.arange(16) + 1)


def test_c_launch_records_from_many_threads_without_the_python_lock():
    """Threads launching on their own streams (with events and synchronizes, which take the Python
    lock, in between) through the C path: no false race report, every result right, and a race
    planted between two of them afterwards is still caught."""
    import threading

    import numpy as np

    import pyasc

    _needs_sim()
    san.reset()
    errors: list[BaseException] = []
    results: dict[int, tuple] = {}

    def worker(k: int) -> None:
        try:
            s = pyasc.Stream("sim")
            x = pyasc.tensor(np.full(64, k, dtype=np.float32), device="sim")
            y = pyasc.tensor(np.ones(64, dtype=np.float32), device="sim")
            pyasc.synchronize("sim")
            with pyasc.stream(s):
                for i in range(300):
                    x = pyasc.add(x, y)
                    if i % 50 == 0:
                        s.wait_event(s.record_event())
                    if i % 97 == 0:
                        s.synchronize()
            s.synchronize()
            results[k] = (s, x)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert san._busy[0] == 0
    for k, (_, x) in results.items():
        np.testing.assert_array_equal(x.numpy(), np.full(64, k + 300, dtype=np.float32))
    # written on one thread's stream, read on another's with nothing ordering them: reported
    (s1, x1), (s2, _) = results[0], results[1]
    with pyasc.stream(s1):
        w = pyasc.add(x1, x1)
    with pyasc.stream(s2), pytest.raises(StreamRaceError):
        pyasc.add(w, w)
    pyasc.synchronize("sim")
    san.reset()
