"""One module, three configurations: numpy, sim, and npu on the simulator's ACL library.

The same user code -- tensors, copies, memory statistics, streams and events -- runs unchanged on
each; ops compute on numpy and on sim (its Ascend C kernels) and, on npu without CANN-built
kernels, take the host fallback (a one-time FallbackWarning; KernelNotFoundError when
PYASC_FALLBACK / set_fallback says 'error').
"""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc_core.backend import MEMORY_STAT_KEYS

from acl_fixtures import config  # noqa: F401  (the parametrized fixture)

DEVICE_BACKENDS = ("sim", "npu")


def test_backend_is_available_and_reported(config):
    from pyasc_core.registry import REGISTRY

    assert REGISTRY.availability(config) == (True, "")
    dev = pyasc.Stream(config).device
    assert dev.type == config
    if config != "numpy":
        assert str(dev) == f"{config}:0"
        import pyasc_sim

        info = REGISTRY.backend(config).info()
        assert info["soc"] == "Ascend910B1"
        assert info["library"] == pyasc_sim.library_path()  # npu runs on the simulator's library


@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16", "int8", "int16", "int32", "int64", "uint8", "bool",
                                   "float64"])
def test_round_trip_every_dtype(config, dtype):
    data = (np.arange(24) % 5).reshape(2, 3, 4).astype(pyasc.dtype(dtype))
    t = pyasc.tensor(data, device=config)
    assert t.device.type == config and t.dtype == data.dtype and t.shape == (2, 3, 4)
    np.testing.assert_array_equal(t.numpy(), data)
    np.testing.assert_array_equal(np.asarray(t), data)


def test_float64_is_stored_everywhere(config):
    # issue 11: memory is memory; every dtype is stored on every backend
    t = pyasc.tensor([1.0, 2.5], dtype="float64", device=config)
    assert t.dtype == np.float64 and t.numpy().tolist() == [1.0, 2.5]


def test_creation_functions(config):
    np.testing.assert_array_equal(pyasc.zeros(2, 3, device=config).numpy(), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(pyasc.ones(4, dtype="int32", device=config).numpy(), np.ones(4, np.int32))
    np.testing.assert_array_equal(pyasc.full((3,), 2.5, device=config).numpy(), np.full(3, 2.5, np.float32))
    np.testing.assert_array_equal(pyasc.full((2,), -1, dtype="int16", device=config).numpy(), [-1, -1])
    np.testing.assert_array_equal(pyasc.arange(5, device=config).numpy(), np.arange(5))
    assert pyasc.empty(7, device=config).shape == (7,)
    assert pyasc.zeros(0, device=config).numpy().shape == (0,)
    with pytest.raises(pyasc.ArgumentError, match="does not fit"):
        pyasc.full((2,), 300, dtype="int8", device=config)


def test_indexing_copies_through_the_host(config):
    t = pyasc.tensor(np.arange(12, dtype=np.float32).reshape(3, 4), device=config)
    np.testing.assert_array_equal(t[1].numpy(), [4, 5, 6, 7])
    np.testing.assert_array_equal(t[:, 1:3].numpy(), [[1, 2], [5, 6], [9, 10]])
    t[0, 0] = 100.0
    t[2] = pyasc.tensor([7.0, 7.0, 7.0, 7.0], device=config)
    np.testing.assert_array_equal(t.numpy()[0, 0], 100.0)
    np.testing.assert_array_equal(t.numpy()[2], [7, 7, 7, 7])
    with pytest.raises(pyasc.IndexingError):
        t[5]


def test_moving_between_host_and_device(config):
    host = pyasc.tensor([1.0, 2.0, 3.0], device="numpy")
    moved = host.to(config)
    assert moved.device.type == config
    back = moved.to("numpy")
    assert back.device.type == "numpy"
    np.testing.assert_array_equal(back.numpy(), [1, 2, 3])
    clone = moved.clone()
    assert clone.device is moved.device
    np.testing.assert_array_equal(clone.numpy(), [1, 2, 3])


def test_non_blocking_copies(config):
    data = np.arange(1000, dtype=np.float32)
    s = pyasc.Stream(config)
    with pyasc.stream(s):
        dev = pyasc.tensor(data, device="numpy").to(config, non_blocking=True)
        host = dev.to("numpy", non_blocking=True)
    s.synchronize()
    np.testing.assert_array_equal(host.numpy(), data)


def test_ops_compute_on_numpy_and_need_kernels_on_devices(config):
    x = pyasc.tensor([1.0, 2.0, 3.0], device=config)
    if config in ("numpy", "sim"):  # sim runs the built-in ops through its Ascend C kernels
        np.testing.assert_allclose((x + x).numpy(), [2, 4, 6])
        if config == "sim":
            np.testing.assert_allclose((x ** x).numpy(), [1, 4, 27])
        return
    from pyasc_core import placement

    try:
        pyasc.set_fallback("error")
        with pytest.raises(pyasc.KernelNotFoundError, match=r"pyasc::add has no npu kernel .*set_fallback is 'error'"):
            x + x
        pyasc.set_fallback("warn")
        with pytest.warns(pyasc.FallbackWarning, match="pyasc::exp runs on the host on npu"):
            np.testing.assert_allclose(pyasc.exp(x).numpy(), np.exp([1.0, 2.0, 3.0]), rtol=1e-6)
        out = x + x
        assert out.device.type == "npu" and out.numpy().tolist() == [2.0, 4.0, 6.0]
    finally:
        placement._mode = None


def test_memory_statistics(config):
    import gc

    gc.collect()
    pyasc.memory.empty_cache(config)
    before = pyasc.memory.memory_allocated(config)
    stats = pyasc.memory.memory_stats(config)
    assert set(MEMORY_STAT_KEYS) <= set(stats)
    t = pyasc.empty(1024, device=config)
    assert pyasc.memory.memory_allocated(config) >= before + 4096
    assert pyasc.memory.memory_reserved(config) >= pyasc.memory.memory_allocated(config)
    assert pyasc.memory.max_memory_allocated(config) >= before + 4096
    del t
    gc.collect()
    assert pyasc.memory.memory_allocated(config) == before
    pyasc.memory.reset_peak_memory_stats(config)
    assert pyasc.memory.max_memory_allocated(config) == before
    free, total = pyasc.memory.mem_get_info(config)
    assert 0 <= free <= total and total > 0
    assert "allocated memory" in pyasc.memory.memory_summary(config)
    pyasc.memory.empty_cache(config)


def test_memory_limit_out_of_memory_then_usable(config):
    pyasc.memory.set_memory_limit(1 << 20, config)
    try:
        with pytest.raises(pyasc.OutOfMemoryError) as info:
            pyasc.empty(2 << 20, dtype="uint8", device=config)
        text = str(info.value)
        for word in ("allocated", "reserved", "free", "total"):
            assert word in text
    finally:
        pyasc.memory.set_memory_limit(None, config)
    np.testing.assert_array_equal(pyasc.ones(4, device=config).numpy(), np.ones(4))


def test_streams_and_events(config):
    s = pyasc.Stream(config)
    assert pyasc.current_stream(config) == pyasc.default_stream(config)
    with pyasc.stream(s):
        assert pyasc.current_stream(config) == s
        t = pyasc.ones(256, device=config)
        start = pyasc.Event(enable_timing=True, device=config)
        end = pyasc.Event(enable_timing=True, device=config)
        start.record()
        u = pyasc.zeros(256, device=config)
        end.record()
    assert pyasc.current_stream(config) == pyasc.default_stream(config)
    end.synchronize()
    assert end.query() and s.query()
    assert start.elapsed_time(end) >= 0.0
    other = pyasc.Stream(config)
    other.wait_event(end)
    other.wait_stream(s)
    other.synchronize()
    s.synchronize()
    pyasc.synchronize(config)
    np.testing.assert_array_equal(t.numpy() + u.numpy(), np.ones(256))


@pytest.mark.parametrize("config", DEVICE_BACKENDS, indirect=True)  # kernels need an ACL device
def test_stream_query_follows_a_blocked_kernel(config):
    """pyasc.Stream.query(): False while a kernel waits on a device flag, True once it has run."""
    import pyasc_acl
    from pyasc_acl import _acl

    from acl_fixtures import kernel_binary

    binary = pyasc_acl.Binary(kernel_binary(), device=config)
    wait_flag = binary.function("wait_flag")
    raw = binary.backend.raw_device(binary.device)
    flag = raw.malloc(4)

    def release():  # a plain copy, ordered by no stream
        raw.memcpy(flag.ptr, 4, np.ones(1, np.uint32).ctypes.data, 4, _acl.ACL_MEMCPY_HOST_TO_DEVICE)

    for s in (pyasc.Stream(config), pyasc.default_stream(config)):
        raw.memset(flag.ptr, 4, 0, 4)
        assert s.query() is True
        pyasc_acl.launch(wait_flag, 1, (flag.ptr,), stream=s)
        try:
            assert s.query() is False and s.query() is False
        finally:
            release()
        s.synchronize()
        assert s.query() is True
