"""The stream sanitizer (issue 10 point 4): work on two streams touching the same device bytes,
one writing, with no event/wait/synchronize between them raises pyasc.StreamRaceError at enqueue
time, naming both streams, the bytes and both operations; ordered work is clean. On by default on
sim, off on npu unless PYASC_STREAM_SANITIZER=1; the switch is validated."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc_core import stream_sanitizer


pytestmark = pytest.mark.skipif(not pyasc.is_available("sim") if hasattr(pyasc, "is_available") else False,
                                reason="needs the simulator")


def _tensor(n=64):
    return pyasc.tensor(np.zeros(n, np.float32), device="sim")


def test_write_then_read_on_another_stream_without_wait_is_an_error(fill):
    a, b = pyasc.Stream("sim"), pyasc.Stream("sim")
    x = _tensor()
    fill(x, 1, a, sleep_us=20000)
    with pytest.raises(pyasc.StreamRaceError) as err, pyasc.stream(b):
        pyasc.add(x, x)
    msg = str(err.value)
    assert "slow_fill" in msg and "add" in msg and "reads" in msg and "wrote" in msg
    assert "wait_event" in msg and "PYASC_STREAM_SANITIZER=0" in msg
    a.synchronize()


def test_write_then_read_with_event_record_and_wait_is_clean(fill):
    a, b = pyasc.Stream("sim"), pyasc.Stream("sim")
    x = _tensor()
    fill(x, 0, a, sleep_us=20000)
    b.wait_event(a.record_event())
    with pyasc.stream(b):
        y = pyasc.add(x, x)
    b.synchronize()
    assert (y.numpy() == 0).all()


def test_two_writes_on_two_streams_is_an_error(fill):
    a, b = pyasc.Stream("sim"), pyasc.Stream("sim")
    x = _tensor()
    fill(x, 1, a, sleep_us=20000)
    with pytest.raises(pyasc.StreamRaceError, match=r"writes .* wrote"):
        fill(x, 2, b)
    a.synchronize()


@pytest.mark.parametrize("how", ["stream", "event", "device"])
def test_synchronize_in_between_is_clean(fill, how):
    a, b = pyasc.Stream("sim"), pyasc.Stream("sim")
    x = _tensor()
    fill(x, 1, a, sleep_us=1000)
    if how == "stream":
        a.synchronize()
    elif how == "event":
        a.record_event().synchronize()
    else:
        pyasc.synchronize("sim")
    fill(x, 2, b)
    b.synchronize()
    assert (x.numpy().view(np.uint8) == 2).all()


def test_reads_on_two_streams_are_clean(fill):
    a, b = pyasc.Stream("sim"), pyasc.Stream("sim")
    x = _tensor()
    with pyasc.stream(a):
        pyasc.add(x, x)
    with pyasc.stream(b):
        pyasc.add(x, x)  # an op's inputs are only read
    pyasc.synchronize("sim")


def test_wait_stream_orders_and_a_later_write_on_the_first_stream_races(fill):
    a, b = pyasc.Stream("sim"), pyasc.Stream("sim")
    x = _tensor()
    fill(x, 1, a, sleep_us=1000)
    b.wait_stream(a)
    with pyasc.stream(b):
        pyasc.add(x, x)  # ordered after the fill
    with pytest.raises(pyasc.StreamRaceError, match="reads|read"):
        fill(x, 3, a)  # a write-after-read: b's read is not ordered before it
    pyasc.synchronize("sim")


def test_allocator_reuse_across_streams_is_clean():
    """A block freed after use on one stream and handed out on another (record_stream semantics
    of the caching allocator) starts a fresh history."""
    a, b = pyasc.Stream("sim"), pyasc.Stream("sim")
    with pyasc.stream(a):
        x = _tensor(1 << 12)
        y = pyasc.add(x, x)
        del y
    with pyasc.stream(b):
        for _ in range(4):
            z = pyasc.add(x.to("sim"), x.to("sim"))
    pyasc.synchronize("sim")
    assert z.shape == (1 << 12,)


def test_switch_is_validated_and_off_switch_works(monkeypatch, fill):
    monkeypatch.setenv("PYASC_STREAM_SANITIZER", "maybe")
    stream_sanitizer.reset()
    with pytest.raises(pyasc.EnvironmentSettingError, match="PYASC_STREAM_SANITIZER='maybe'"):
        stream_sanitizer.active("sim")
    monkeypatch.setenv("PYASC_STREAM_SANITIZER", "0")
    stream_sanitizer.reset()
    assert not stream_sanitizer.active("sim")
    monkeypatch.setenv("PYASC_STREAM_SANITIZER", "1")
    stream_sanitizer.reset()
    assert stream_sanitizer.active("npu")
    monkeypatch.delenv("PYASC_STREAM_SANITIZER")
    stream_sanitizer.reset()
    assert stream_sanitizer.active("sim") and not stream_sanitizer.active("npu")
    monkeypatch.setenv("PYASC_SIM_CHECKS", "0")
    stream_sanitizer.reset()
    assert not stream_sanitizer.active("sim")
    monkeypatch.delenv("PYASC_SIM_CHECKS")
    stream_sanitizer.reset()


def test_strided_views_read_on_two_streams_are_clean():
    """The device-side gather of a strided view reads its source: two streams may both read it."""
    a, b = pyasc.Stream("sim"), pyasc.Stream("sim")
    x = pyasc.tensor(np.arange(64, dtype=np.float32).reshape(8, 8), device="sim")
    with pyasc.stream(a):
        ya = pyasc.add(x.T, x.T)
    with pyasc.stream(b):
        yb = pyasc.add(x.T, x.T)
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(ya.numpy(), yb.numpy())


def test_copy_between_streams_is_checked():
    """A copy to the host on another stream reads bytes a kernel there may still be writing."""
    a, b = pyasc.Stream("sim"), pyasc.Stream("sim")
    x = _tensor()
    with pyasc.stream(a):
        y = pyasc.add(x, x)
    with pytest.raises(pyasc.StreamRaceError, match="copy"), pyasc.stream(b):
        y.numpy()
    pyasc.synchronize("sim")
