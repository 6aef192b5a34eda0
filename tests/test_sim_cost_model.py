"""The simulator's cost model as a user sees it: timing events recorded on a stream around kernel
launches report the simulated device time of the launch (launch overhead + per wave of blocks the
slowest block's estimated cycles / clock). Simulated time is deterministic, so the tests compare
times and ratios exactly or tightly; nothing here measures wall-clock time.

Kernels: backends/sim/kernel_api/tests/kernels/cost.cpp (spin: the same work in every block; idle) and vadd.cpp."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc

from ascendc_kernels import load, timed_launch

TILE, ROUNDS = 2048, 200  # spin: per block 200 x 8 KiB through UB, about 60 us of device time


@pytest.fixture(scope="module")
def cost():
    return load("cost.cpp")


@pytest.fixture(scope="module")
def cores(cost) -> int:
    """Vector cores of the simulated SoC (48 on the default Ascend910B1): blocks per wave."""
    n = cost.backend.raw_device(cost.device).device_info(201)  # ACL_DEV_ATTR_VECTOR_CORE_NUM
    assert n >= 24
    return n


@pytest.fixture(scope="module")
def vadd():
    return load("vadd.cpp").function("vadd_float")


@pytest.fixture
def stream():
    # the current stream, where pyasc.ones / zeros / full also run: launches see their data
    return pyasc.current_stream("sim")


@pytest.fixture(scope="module")
def spin_buffers(cores):
    blocks = 2 * cores + 1
    x = pyasc.full((TILE * blocks,), 0.5, dtype="float32", device="sim")
    z = pyasc.zeros(TILE * blocks, dtype="float32", device="sim")
    return x, z


def test_events_around_a_launch_report_simulated_device_time(cost, stream, spin_buffers):
    x, z = spin_buffers
    idle = timed_launch(cost.function("idle"), 1, (x,), stream)
    assert idle > 0
    spin = timed_launch(cost.function("spin"), 4, (x, z, TILE, ROUNDS), stream)
    assert spin > 10 * idle
    # deterministic: the same launch costs the same again
    assert timed_launch(cost.function("spin"), 4, (x, z, TILE, ROUNDS), stream) == spin
    # events with nothing between them: no device time passes
    a, b = pyasc.Event(enable_timing=True, device="sim"), pyasc.Event(enable_timing=True, device="sim")
    a.record(stream)
    b.record(stream)
    assert a.elapsed_time(b) == 0.0
    np.testing.assert_array_equal(z.numpy()[: 4 * TILE], 0.5 * ROUNDS)  # the kernel really ran


def test_four_times_the_data_takes_about_four_times_longer(cost, vadd, stream):
    n = 48 * 1024
    x = pyasc.ones(4 * n, dtype="float32", device="sim")
    z = pyasc.zeros(4 * n, dtype="float32", device="sim")
    fixed = timed_launch(cost.function("idle"), 1, (x,), stream)  # launch overhead + block start
    small = timed_launch(vadd, 8, (x, x, z, n, 2048), stream)
    large = timed_launch(vadd, 8, (x, x, z, 4 * n, 2048), stream)
    assert large > small
    # 3.5 rather than 4: a block's time is the makespan of its pipelined timeline, whose fill and
    # drain (the first tile's copy-in, the last tile's compute and copy-out, overlapped by nothing)
    # are a per-block constant the idle kernel does not have (3 tiles per block here vs 12)
    assert 3.4 < (large - fixed) / (small - fixed) < 4.1
    np.testing.assert_array_equal(z.numpy(), 2.0)


def test_more_blocks_for_the_same_data_take_less_time_up_to_the_core_count(vadd, stream, cores):
    n = cores * 4096
    x = pyasc.ones(n, dtype="float32", device="sim")
    z = pyasc.zeros(n, dtype="float32", device="sim")
    counts = [1, 2, 4, 8, 16, 24, cores]
    times = [timed_launch(vadd, b, (x, x, z, n, 2048), stream) for b in counts]
    assert all(a > b for a, b in zip(times, times[1:])), dict(zip(counts, times))
    assert times[0] / times[-1] > 10
    # beyond the core count the extra blocks only add waves: no faster than one full wave
    assert timed_launch(vadd, 2 * cores, (x, x, z, n, 2048), stream) >= times[-1]


def test_blocks_beyond_the_core_count_run_in_waves(cost, stream, spin_buffers, cores):
    x, z = spin_buffers
    spin = cost.function("spin")
    t = {b: timed_launch(spin, b, (x, z, TILE, ROUNDS), stream) for b in (1, 24, cores, cores + 1, 2 * cores + 1)}
    # equal work per block: one wave costs the same whatever the number of blocks in it
    assert t[1] == t[24] == t[cores]
    # one more block than cores: a second wave, about twice as long (plus one launch overhead)
    assert 1.9 < t[cores + 1] / t[cores] < 2.0
    # every further wave adds the same time
    assert t[2 * cores + 1] - t[cores + 1] == pytest.approx(t[cores + 1] - t[cores], rel=1e-9)
    np.testing.assert_array_equal(z.numpy(), 0.5 * ROUNDS)


def test_simulated_time_does_not_depend_on_the_checks_switch(cost, vadd, stream, spin_buffers, cores, monkeypatch):
    x, z = spin_buffers
    n = 4097
    xs = pyasc.ones(n, dtype="float32", device="sim")
    zs = pyasc.zeros(n, dtype="float32", device="sim")

    def measure() -> list[float]:
        return [timed_launch(vadd, 8, (xs, xs, zs, n, 256), stream),
                timed_launch(cost.function("spin"), cores + 3, (x, z, TILE, ROUNDS), stream)]

    monkeypatch.setenv("PYASC_SIM_CHECKS", "1")
    on = measure()
    monkeypatch.setenv("PYASC_SIM_CHECKS", "0")
    assert measure() == on
