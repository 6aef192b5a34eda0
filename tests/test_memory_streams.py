"""pyasc.memory on the numpy backend (PyTorch's statistics, limits, OOM) and streams/events
(current stream per thread, records, waits, timing)."""

from __future__ import annotations

import gc
import threading
import time

import numpy as np
import pytest
from numpy.testing import assert_array_equal

import pyasc
from pyasc_core.backend import MEMORY_STAT_KEYS

# these tests are about host (numpy-backend) tensors; the default backend is sim when available
pytestmark = pytest.mark.usefixtures("numpy_backend")

mem = pyasc.memory


@pytest.fixture
def baseline() -> int:
    """Bytes held before the test body, with any garbage from earlier tests collected."""
    gc.collect()
    return mem.memory_allocated()


# ---------------------------------------------------------------------------------------------
# memory_allocated and friends
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dtype", "itemsize"),
    [("bool", 1), ("uint8", 1), ("int8", 1), ("int16", 2), ("int32", 4), ("int64", 8),
     ("float16", 2), ("bfloat16", 2), ("float32", 4), ("float64", 8)],
)
def test_allocated_grows_and_returns(baseline, dtype, itemsize):
    count = mem.memory_stats()["allocation.all.current"]
    t = pyasc.zeros(1000, dtype=dtype)
    assert mem.memory_allocated() == baseline + 1000 * itemsize
    assert mem.memory_stats()["allocation.all.current"] == count + 1
    del t
    gc.collect()
    assert mem.memory_allocated() == baseline
    assert mem.memory_stats()["allocation.all.current"] == count


def test_every_creation_path_is_counted(baseline):
    made = [
        pyasc.tensor([1.0] * 10),                   # 40
        pyasc.empty(10, dtype="int64"),             # 80
        pyasc.ones(5, dtype="int16"),               # 10
        pyasc.full((2, 2), 7),                      # 32
        pyasc.arange(4),                            # 32
        pyasc.asarray(np.zeros(3), copy=True),      # 24
    ]
    assert mem.memory_allocated() == baseline + 40 + 80 + 10 + 32 + 32 + 24
    del made
    gc.collect()
    assert mem.memory_allocated() == baseline


def test_op_results_are_counted_and_freed(baseline):
    a = pyasc.ones(256)
    b = pyasc.ones(256)
    assert mem.memory_allocated() == baseline + 2048
    c = a + b
    assert mem.memory_allocated() == baseline + 3072
    d = (a * 2.0).sum()
    assert mem.memory_allocated() == baseline + 3072 + 4  # the temporary a*2 is already freed
    del a, b, c, d
    gc.collect()
    assert mem.memory_allocated() == baseline


def test_views_and_shared_arrays_are_not_counted(baseline):
    t = pyasc.zeros(100)
    after = mem.memory_allocated()
    assert after == baseline + 400
    views = [t[::2], t[10:20], t.reshape(10, 10), t[None]]
    external = np.zeros(1000, np.float32)
    shared = [pyasc.from_numpy(external), pyasc.asarray(external), pyasc.from_dlpack(external)]
    assert mem.memory_allocated() == after
    del views, shared, t
    gc.collect()
    assert mem.memory_allocated() == baseline


def test_totals_allocated_and_freed(baseline):
    s0 = mem.memory_stats()
    t = pyasc.zeros(250)  # 1000 bytes
    del t
    gc.collect()
    s1 = mem.memory_stats()
    assert s1["allocated_bytes.all.allocated"] - s0["allocated_bytes.all.allocated"] == 1000
    assert s1["allocated_bytes.all.freed"] - s0["allocated_bytes.all.freed"] == 1000
    assert s1["allocation.all.allocated"] - s0["allocation.all.allocated"] == 1
    assert s1["allocation.all.freed"] - s0["allocation.all.freed"] == 1


def test_peak_and_reset_peak(baseline):
    mem.reset_peak_memory_stats()
    assert mem.max_memory_allocated() == baseline
    big = pyasc.zeros(10_000)
    peak = mem.max_memory_allocated()
    assert peak == baseline + 40_000
    del big
    gc.collect()
    assert mem.memory_allocated() == baseline
    assert mem.max_memory_allocated() == peak  # the peak remembers
    assert mem.max_memory_reserved() >= peak
    mem.reset_peak_memory_stats()
    assert mem.max_memory_allocated() == baseline
    assert mem.memory_stats()["allocation.all.peak"] == mem.memory_stats()["allocation.all.current"]


def test_memory_stats_has_pytorchs_keys():
    stats = mem.memory_stats()
    assert tuple(stats) == MEMORY_STAT_KEYS
    assert all(type(v) is int and v >= 0 for v in stats.values())
    for key in ("allocated_bytes.all.current", "allocated_bytes.all.peak", "reserved_bytes.all.current",
                "allocation.all.current", "num_ooms", "num_alloc_retries", "active_bytes.all.peak"):
        assert key in stats
    assert stats["allocated_bytes.all.peak"] >= stats["allocated_bytes.all.current"]
    assert mem.memory_reserved() >= mem.memory_allocated()
    assert mem.memory_stats("numpy") == mem.memory_stats("reference")
    stats["allocated_bytes.all.current"] = -1  # a copy: the caller cannot corrupt the counters
    assert mem.memory_allocated() >= 0


def test_meta_device_memory_is_all_zero():
    stats = mem.memory_stats("meta")
    assert tuple(stats) == MEMORY_STAT_KEYS and set(stats.values()) == {0}
    assert mem.mem_get_info("meta") == (0, 0)
    with pyasc.using_backend("meta"):
        pyasc.ones(1000)
        assert mem.memory_allocated() == 0
        mem.set_memory_limit(1)  # accepted, nothing to limit
        pyasc.ones(1000)


def test_memory_summary_is_a_readable_table(baseline):
    keep = pyasc.zeros(2048)  # 8 KiB
    text = mem.memory_summary()
    assert isinstance(text, str)
    assert "pyasc memory summary: numpy" in text
    for row in ("allocated memory", "reserved memory", "allocations"):
        assert row in text
    for col in ("current", "peak", "total allocated", "total freed"):
        assert col in text
    assert "KiB" in text and "device free" in text
    assert "\x1b[" not in text  # no terminal escapes
    assert "pyasc memory summary: meta" in mem.memory_summary("meta")
    del keep


def test_mem_get_info_and_empty_cache():
    free, total = mem.mem_get_info()
    assert isinstance(free, int) and isinstance(total, int)
    assert 0 <= free <= total and total > 0
    mem.empty_cache()  # nothing is cached on the host: a no-op that must not fail
    assert mem.mem_get_info("reference")[1] == total


# ---------------------------------------------------------------------------------------------
# set_memory_limit and OutOfMemoryError
# ---------------------------------------------------------------------------------------------


def test_memory_limit_raises_out_of_memory_and_stays_usable(baseline):
    limit = baseline + 4096
    ooms = mem.memory_stats()["num_ooms"]
    mem.set_memory_limit(limit)
    assert mem.mem_get_info() == (4096, limit)
    small = pyasc.ones(100)  # 400 bytes fit
    assert small.tolist() == [1.0] * 100
    with pytest.raises(pyasc.OutOfMemoryError) as exc:
        pyasc.zeros(10_000)
    msg = str(exc.value)
    assert "allocating 40000 bytes" in msg
    assert f"memory limit of {limit} bytes" in msg
    assert f"allocated {baseline + 400}" in msg and "free " in msg
    assert "set_memory_limit" in msg and "free tensors" in msg
    assert isinstance(exc.value, MemoryError)
    assert mem.memory_allocated() == baseline + 400  # the failed allocation left nothing behind
    assert mem.memory_stats()["num_ooms"] == ooms + 1
    # pyasc still works under the limit, including ops
    assert (small + 1.0).tolist() == [2.0] * 100
    mem.set_memory_limit(None)
    big = pyasc.zeros(10_000)
    assert big.shape == (10_000,)
    assert_array_equal((big + 1.0).numpy()[:3], [1.0, 1.0, 1.0])
    free, total = mem.mem_get_info()
    assert total != limit


def test_memory_limit_applies_to_op_results(baseline):
    a = pyasc.ones(2000)
    b = pyasc.ones(2000)
    mem.set_memory_limit(mem.memory_allocated() + 1000)
    for op in (lambda: a + b, lambda: a * 2.0, lambda: -a, lambda: a.astype("float64"),
               lambda: pyasc.tensor(np.zeros(2000))):
        with pytest.raises(pyasc.OutOfMemoryError, match="allocating"):
            op()
    assert a.tolist()[:2] == [1.0, 1.0] and b.tolist()[:2] == [1.0, 1.0]  # inputs untouched
    mem.set_memory_limit(None)
    assert (a + b).numpy()[0] == 2.0


def test_memory_limit_can_change_while_set(baseline):
    mem.set_memory_limit(baseline + 100)
    with pytest.raises(pyasc.OutOfMemoryError):
        pyasc.zeros(100)
    mem.set_memory_limit(baseline + 1000)
    assert pyasc.zeros(100).shape == (100,)
    mem.set_memory_limit(0)
    with pytest.raises(pyasc.OutOfMemoryError, match="memory limit of 0 bytes"):
        pyasc.zeros(1)


@pytest.mark.parametrize("bad", [-1, 1.5, True, "10"], ids=repr)
def test_set_memory_limit_bad_values(bad):
    with pytest.raises(pyasc.ArgumentError, match=f"byte count >= 0 or None, got {bad!r}"):
        mem.set_memory_limit(bad)


# ---------------------------------------------------------------------------------------------
# Streams
# ---------------------------------------------------------------------------------------------


def test_default_and_current_stream():
    d = pyasc.default_stream()
    assert isinstance(d, pyasc.Stream)
    assert d.device is pyasc.Device("numpy")
    assert pyasc.current_stream() == d
    assert pyasc.default_stream("reference") == d
    assert d.query() is True
    d.synchronize()
    assert "numpy" in repr(d)


def test_new_streams_are_distinct():
    s1, s2 = pyasc.Stream(), pyasc.Stream()
    d = pyasc.default_stream()
    assert s1 != s2 and s1 != d and s1 == s1
    assert len({s1, s2, d, s1}) == 3
    assert s1.device is pyasc.Device("numpy")
    assert pyasc.Stream(device="meta").device is pyasc.Device("meta")


def test_with_stream_changes_and_restores_current():
    s1, s2 = pyasc.Stream(), pyasc.Stream()
    d = pyasc.current_stream()
    with pyasc.stream(s1) as got:
        assert got is s1
        assert pyasc.current_stream() is s1
        with s2:
            assert pyasc.current_stream() is s2
        assert pyasc.current_stream() is s1
    assert pyasc.current_stream() == d
    with pyasc.stream(None):
        assert pyasc.current_stream() == d


def test_with_stream_restores_after_an_exception():
    s = pyasc.Stream()
    d = pyasc.current_stream()
    with pytest.raises(KeyError):
        with pyasc.stream(s):
            raise KeyError("boom")
    assert pyasc.current_stream() == d


def test_current_stream_is_per_device():
    s = pyasc.Stream()
    with pyasc.stream(s):
        assert pyasc.current_stream("numpy") is s
        assert pyasc.current_stream("meta") != s
        assert pyasc.current_stream("meta").device is pyasc.Device("meta")


def test_current_stream_is_per_thread():
    s = pyasc.Stream()
    seen: dict[str, object] = {}

    def worker():
        with pyasc.using_backend("numpy"):  # a new thread starts from the default backend (sim)
            seen["current"] = pyasc.current_stream()
            seen["default"] = pyasc.default_stream()
            mine = pyasc.Stream()
            with pyasc.stream(mine):
                seen["inside"] = pyasc.current_stream() is mine
                time.sleep(0.01)

    with pyasc.stream(s):
        th = threading.Thread(target=worker)
        th.start()
        th.join()
        assert pyasc.current_stream() is s  # the thread's own `with` did not leak here
    assert seen["current"] == seen["default"] == pyasc.default_stream()
    assert seen["current"] != s
    assert seen["inside"] is True


def test_current_stream_is_per_asyncio_task():
    # the current stream is a ContextVar: two tasks that interleave inside their own
    # `with pyasc.stream(...)` blocks never see each other's stream
    import asyncio

    s1, s2 = pyasc.Stream(), pyasc.Stream()
    d = pyasc.current_stream()
    seen: dict[str, list[bool]] = {"a": [], "b": []}

    async def task(name: str, mine: pyasc.Stream, other_entered: asyncio.Event, entered: asyncio.Event):
        with pyasc.stream(mine):
            entered.set()
            await other_entered.wait()  # both tasks are now inside their `with`
            for _ in range(5):
                seen[name].append(pyasc.current_stream() is mine)
                await asyncio.sleep(0)
        seen[name].append(pyasc.current_stream() == d)

    async def main():
        ea, eb = asyncio.Event(), asyncio.Event()
        await asyncio.gather(task("a", s1, eb, ea), task("b", s2, ea, eb))
        return pyasc.current_stream()

    after = asyncio.run(main())
    assert seen["a"] == [True] * 6 and seen["b"] == [True] * 6
    assert after == d and pyasc.current_stream() == d


def test_wait_stream_and_wait_event():
    s1, s2 = pyasc.Stream(), pyasc.Stream()
    s1.wait_stream(s2)
    e = s2.record_event()
    assert isinstance(e, pyasc.Event) and e.query() is True
    s1.wait_event(e)
    e.wait(s1)
    with pyasc.stream(s1):
        e.wait()  # on the current stream
    s1.synchronize()
    pyasc.synchronize()
    assert s1.query() and s2.query()


# ---------------------------------------------------------------------------------------------
# Events
# ---------------------------------------------------------------------------------------------


def test_event_record_query_synchronize():
    e = pyasc.Event()
    assert e.query() is True  # nothing to wait for yet
    assert "recorded=False" in repr(e)
    e.record()
    assert e.query() is True
    e.synchronize()
    assert "recorded=True" in repr(e) and "numpy" in repr(e)
    s = pyasc.Stream()
    e.record(s)
    assert s.record_event(e) is e


def test_elapsed_time_orders_with_sleep():
    start = pyasc.Event(enable_timing=True)
    mid = pyasc.Event(enable_timing=True)
    end = pyasc.Event(enable_timing=True)
    start.record()
    time.sleep(0.002)
    mid.record()
    time.sleep(0.002)
    end.record()
    first = start.elapsed_time(mid)
    total = start.elapsed_time(end)
    assert isinstance(first, float)
    assert 0.0 <= first <= total
    assert mid.elapsed_time(end) >= 0.0
    assert start.elapsed_time(start) == 0.0


def test_elapsed_time_on_a_stream():
    s = pyasc.Stream()
    a = pyasc.Event(enable_timing=True)
    b = pyasc.Event(enable_timing=True)
    with pyasc.stream(s):
        a.record()
        pyasc.ones(1000) * 2.0
        b.record()
    assert a.elapsed_time(b) >= 0.0


@pytest.mark.parametrize(("start_timing", "end_timing"), [(False, True), (True, False), (False, False)])
def test_elapsed_time_needs_timing(start_timing, end_timing):
    a = pyasc.Event(enable_timing=start_timing)
    b = pyasc.Event(enable_timing=end_timing)
    a.record()
    b.record()
    with pytest.raises(pyasc.PyascError) as exc:
        a.elapsed_time(b)
    msg = str(exc.value)
    assert "enable_timing=True" in msg
    assert f"(start: {start_timing}, end: {end_timing})" in msg


@pytest.mark.parametrize("which", ["start", "end"])
def test_elapsed_time_before_record(which):
    a = pyasc.Event(enable_timing=True)
    b = pyasc.Event(enable_timing=True)
    (b if which == "start" else a).record()
    with pytest.raises(pyasc.PyascError, match="Event.elapsed_time: the event has not been recorded yet; call event.record\\(\\) first"):
        a.elapsed_time(b)


def test_unrecorded_event_errors():
    e = pyasc.Event()
    with pytest.raises(pyasc.PyascError, match="Event.synchronize: the event has not been recorded yet"):
        e.synchronize()
    with pytest.raises(pyasc.PyascError, match="Event.wait_event: the event has not been recorded yet"):
        pyasc.Stream().wait_event(e)


def test_stream_and_event_on_different_devices():
    e = pyasc.Event()
    e.record()
    with pytest.raises(pyasc.PyascError, match="wait_event: the stream is on meta but the event is on numpy"):
        pyasc.Stream("meta").wait_event(e)
    with pytest.raises(pyasc.PyascError, match="record: the stream is on numpy but the event is on meta"):
        pyasc.Event(device="meta").record(pyasc.Stream())
    m = pyasc.Event(enable_timing=True, device="meta")
    m.record()
    n = pyasc.Event(enable_timing=True)
    n.record()
    with pytest.raises(pyasc.PyascError, match="elapsed_time: .*meta.*numpy|elapsed_time: .*numpy.*meta"):
        n.elapsed_time(m)
