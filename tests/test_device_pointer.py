"""Device memory pyasc does not own (issue 15 point 1: pyasc.from_device_pointer, as CuPy's
UnownedMemory): real device pointers from the simulator's aclrtMalloc, wrapped, used by ops and
kernels, bounded exactly by the sanitizer, never freed by pyasc."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

import pyasc
import pyasc_acl
from pyasc_core.registry import backend_for_device
from pyasc_core.selection import resolve_device

from acl_fixtures import use_npu_on_simulator
from ascendc_kernels import load, marked_line


def raw_device(name: str = "sim"):
    """The binding's _acl.Device of ``name``: its malloc is aclrtMalloc itself (no pyasc allocator)."""
    dev = resolve_device(name)
    return backend_for_device(dev).raw_device(dev)


def upload(mem, array: np.ndarray) -> None:
    from pyasc_acl import _acl

    raw_device().memcpy(mem.ptr, mem.size, array.ctypes.data, array.nbytes, _acl.ACL_MEMCPY_HOST_TO_DEVICE)


def download(mem, nbytes: int, dtype) -> np.ndarray:
    from pyasc_acl import _acl

    out = np.empty(nbytes // np.dtype(dtype).itemsize, dtype)
    raw_device().memcpy(out.ctypes.data, out.nbytes, mem.ptr, nbytes, _acl.ACL_MEMCPY_DEVICE_TO_HOST)
    return out


class Owner:
    """Owns aclrtMalloc'd memory (as torch_npu or another library would); pyasc only borrows it."""

    def __init__(self, nbytes: int) -> None:
        self.mem = raw_device().malloc(nbytes)


def test_wrap_run_ops_and_a_kernel_and_see_the_data_in_the_owner_memory():
    owner = Owner(4096)
    x = np.arange(256, dtype=np.float32)
    upload(owner.mem, x)
    t = pyasc.from_device_pointer(owner.mem.ptr, (16, 16), "float32", device="sim", owner=owner)
    assert t.device == pyasc.Device("sim", 0) and t.shape == (16, 16) and t.dtype == np.float32
    np.testing.assert_array_equal(t.numpy(), x.reshape(16, 16))
    # an op reads it, and writes to it land in the owner's memory
    y = pyasc.add(t, t)
    np.testing.assert_array_equal(y.numpy(), 2 * x.reshape(16, 16))
    t[...] = y  # a device-to-device copy into the wrapped memory
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(download(owner.mem, 1024, np.float32), 2 * x)
    # a Kernel launched on it (the built-in softmax kernel through its op, and an Ascend C kernel)
    np.testing.assert_allclose(pyasc.softmax(t).numpy(), pyasc.softmax(y.to("numpy")).numpy(), rtol=1e-6)
    kernels = load("san_tensor.cpp")
    s = pyasc.current_stream("sim")
    pyasc_acl.launch(kernels.function("unsized_store"), 1, (t, 16), stream=s)  # writes 3.0 to 16 floats
    s.synchronize()
    got = download(owner.mem, 1024, np.float32)
    np.testing.assert_array_equal(got[:16], np.full(16, 3.0, np.float32))
    np.testing.assert_array_equal(got[16:], 2 * x[16:])


def test_views_strides_and_an_unowned_memory_record():
    owner = Owner(4096)
    x = np.arange(64, dtype=np.int32)
    upload(owner.mem, x)
    mem = pyasc.UnownedMemory(owner.mem.ptr, 4096, owner, "sim:0")
    col = pyasc.from_device_pointer(mem, (8,), "int32", strides=(8,))  # column 0 of an 8x8 matrix
    np.testing.assert_array_equal(col.numpy(), x.reshape(8, 8)[:, 0])
    assert not col.is_contiguous()
    assert pyasc.add(col, col).numpy().tolist() == (2 * x.reshape(8, 8)[:, 0]).tolist()
    # an address inside the allocation (a view's element 0), given as a device index on a backend
    mid = pyasc.from_device_pointer(owner.mem.ptr + 32 * 4, (4, 8), np.int32, device=0, backend="sim", nbytes=128)
    np.testing.assert_array_equal(mid.numpy(), x[32:].reshape(4, 8))
    np.testing.assert_array_equal(mid[1].numpy(), x[40:48])


def let_go() -> None:
    """empty_cache(): owners no stream still needs are let go (allocations and frees do it too)."""
    gc.collect()
    pyasc.memory.empty_cache("sim")


def test_pyasc_never_frees_it_and_keeps_the_owner_until_its_tensors_are_gone():
    owner = Owner(1024)
    upload(owner.mem, np.ones(256, np.float32))
    ref, mem = weakref.ref(owner), owner.mem
    allocated = pyasc.memory.memory_allocated("sim")
    t = pyasc.from_device_pointer(mem.ptr, (256,), "float32", device="sim", owner=owner)
    assert pyasc.memory.memory_allocated("sim") == allocated  # not pyasc's allocation
    view = t[128:]
    del owner, t
    let_go()
    assert ref() is not None  # the view keeps the owner alive
    assert view.numpy().sum() == 128
    del view
    pyasc.synchronize("sim")
    let_go()
    assert ref() is None
    # pyasc freed nothing: the bytes are intact and the owner's aclrtFree is the first one
    np.testing.assert_array_equal(download(mem, 1024, np.float32), np.ones(256, np.float32))
    mem.free()


def test_the_owner_outlives_queued_work_on_another_stream():
    import struct

    from acl_fixtures import kernel_binary
    from pyasc_acl import _acl

    dev = raw_device()
    wait_flag = dev.load_binary(kernel_binary()).function("wait_flag")
    flag = dev.malloc(4)
    dev.memset(flag.ptr, 4, 0, 4)
    owner = Owner(4096)
    ref = weakref.ref(owner)
    t = pyasc.from_device_pointer(owner.mem.ptr, (1024,), "float32", device="sim", owner=owner)
    s = pyasc.Stream(device="sim")
    dev.launch(wait_flag, 1, struct.pack("<Q", flag.ptr), s.impl.raw, [t._data.block])  # holds s until opened
    del owner, t
    let_go()
    assert ref() is not None  # s still has queued work on the memory: the owner must not free it yet
    one = np.ones(1, np.uint32)
    dev.memcpy(flag.ptr, 4, one.ctypes.data, 4, _acl.ACL_MEMCPY_HOST_TO_DEVICE)
    s.synchronize()
    let_go()
    assert ref() is None


def test_bounds_are_exact_for_a_wrapped_pointer():
    """The sanitizer bounds a kernel by the wrapped tensor (padded as aclrtMalloc documents), not by
    the owner's larger allocation: as for pyasc's own blocks (tests/test_sim_tensor_checks.py)."""
    owner = Owner(8192)
    upload(owner.mem, np.full(2048, 9.0, np.float32))
    n = 64
    z = pyasc.from_device_pointer(owner.mem.ptr, (n,), "float32", device="sim", owner=owner)
    base = owner.mem.ptr
    kernels = load("san_tensor.cpp")
    s = pyasc.current_stream("sim")
    pyasc_acl.launch(kernels.function("unsized_store"), 1, (z, n + 8), stream=s)  # the padded extent: legal
    s.synchronize()
    pyasc_acl.launch(kernels.function("unsized_store"), 1, (z, 4 * n), stream=s)  # 1024 bytes
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        s.synchronize()
    msg = info.value.message
    assert "gm-out-of-tensor" in msg and marked_line("san_tensor.cpp", "gm-out-of-tensor") in msg
    assert f"past the end of the tensor [{base:#x}, {base + 288:#x}) (288 bytes" in msg
    rest = download(owner.mem, 8192, np.float32)
    np.testing.assert_array_equal(rest[n + 8:], np.full(2048 - n - 8, 9.0, np.float32))  # stopped before


def test_the_stream_sanitizer_treats_it_like_any_block():
    owner = Owner(4096)
    t = pyasc.from_device_pointer(owner.mem.ptr, (1024,), "float32", device="sim", owner=owner)
    a, b = pyasc.Stream(device="sim"), pyasc.Stream(device="sim")
    with pyasc.stream(a):
        t[...] = pyasc.ones((1024,), dtype="float32", device="sim")  # a write on a
    with pyasc.stream(b), pytest.raises(pyasc.StreamRaceError):
        pyasc.add(t, t)  # a read on b, unordered after a's write
    a.synchronize()
    with pyasc.stream(b):
        assert pyasc.add(t, t).numpy()[0] == 2.0


def test_on_npu_over_the_simulator_library(monkeypatch):
    use_npu_on_simulator(monkeypatch)
    dev = raw_device("npu")
    mem = dev.malloc(1024)
    t = pyasc.from_device_pointer(mem.ptr, (4,), "float32", device="npu:0", owner=mem)
    t[...] = pyasc.tensor(np.arange(4, dtype=np.float32), device="npu")
    assert pyasc.add(t, t).numpy().tolist() == [0.0, 2.0, 4.0, 6.0]


@pytest.mark.parametrize("kwargs, error, words", [
    ({"ptr": 0}, pyasc.DevicePointerError, ["ptr=0x0", "null"]),
    ({"ptr": "0x10"}, pyasc.ArgumentError, ["ptr must be an int", "str"]),
    ({"nbytes": 100}, pyasc.DevicePointerError, ["100 bytes", "too few", "shape (64,)", "needs 256 bytes",
                                                 "nbytes"]),
    ({"shape": (-1,)}, pyasc.ArgumentError, ["negative", "(-1,)"]),
    ({"strides": (1, 2)}, pyasc.ArgumentError, ["strides (1, 2) do not match shape (64,)"]),
    ({"dtype": "complex64"}, pyasc.DtypeError, ["complex64"]),
    ({"device": "sim:5"}, pyasc.InvalidDeviceError, ["'sim:5'", "sim:0"]),
    ({"device": -1}, pyasc.DevicePointerError, ["device index -1"]),
    ({"device": "numpy"}, pyasc.DevicePointerError, ["'numpy' has no device memory", "'sim' or 'npu'"]),
    ({"offset": 2}, pyasc.DevicePointerError, ["not aligned", "4 bytes"]),
    ({"offset": 1 << 40}, pyasc.DevicePointerError, ["is not device memory pyasc can wrap on sim:0", "inside one live allocation"]),
    ({"host": True}, pyasc.DevicePointerError, ["is not device memory pyasc can wrap on sim:0", "does not lie inside"]),
    ({"nbytes": 1 << 20}, pyasc.DevicePointerError, ["+1048576)", "is not device memory pyasc can wrap on sim:0"]),
])
def test_bad_inputs_name_the_values_and_the_fix(kwargs, error, words):
    owner = Owner(256)
    host = np.zeros(64, np.float32)
    args = {"ptr": owner.mem.ptr, "shape": (64,), "dtype": "float32", "device": "sim"}
    kwargs = dict(kwargs)
    if kwargs.pop("host", False):
        args["ptr"] = host.ctypes.data
    args["ptr"] += kwargs.pop("offset", 0)
    args.update(kwargs)
    with pytest.raises(error) as info:
        pyasc.from_device_pointer(args.pop("ptr"), args.pop("shape"), args.pop("dtype"), **args)
    assert isinstance(info.value, pyasc.PyascError)
    for w in words:
        assert w in str(info.value), f"{w!r} not in {info.value}"


def test_a_freed_allocation_cannot_be_wrapped():
    owner = Owner(256)
    ptr = owner.mem.ptr
    owner.mem.free()  # freeing is the owner's job; wrapping memory it freed is refused on sim
    with pytest.raises(pyasc.DevicePointerError, match="was freed|not device memory pyasc can wrap"):
        pyasc.from_device_pointer(ptr, (64,), "float32", device="sim")


def test_pyasc_own_memory_is_not_wrapped():
    t = pyasc.zeros((64,), dtype="float32", device="sim")
    with pytest.raises(pyasc.DevicePointerError, match="inside pyasc's own device memory.*use the tensor or a view"):
        pyasc.from_device_pointer(t._data.ptr, (64,), "float32", device="sim")


def test_one_base_wrapped_twice_keeps_exact_bounds_until_the_last_wrapper_goes():
    owner = Owner(8192)
    upload(owner.mem, np.zeros(2048, np.float32))
    small = pyasc.from_device_pointer(owner.mem.ptr, (16,), "float32", device="sim", owner=owner)
    big = pyasc.from_device_pointer(owner.mem.ptr, (64,), "float32", device="sim", owner=owner)  # extends it
    kernels = load("san_tensor.cpp")
    s = pyasc.current_stream("sim")
    del small
    gc.collect()
    pyasc_acl.launch(kernels.function("unsized_store"), 1, (big, 72), stream=s)  # 288 bytes: big's extent
    s.synchronize()
    pyasc_acl.launch(kernels.function("unsized_store"), 1, (big, 256), stream=s)  # still bounded by big
    with pytest.raises(pyasc_acl.AclKernelError, match="gm-out-of-tensor"):
        s.synchronize()
    np.testing.assert_array_equal(download(owner.mem, 8192, np.float32)[72:], np.zeros(2048 - 72, np.float32))


def test_overlapping_wraps_of_one_allocation_work_together():
    """from_torch(x) and from_torch(x[256:]) alive at once: nested blocks, no false sanitizer report."""
    owner = Owner(8192)
    outer = pyasc.from_device_pointer(owner.mem.ptr, (1024,), "float32", device="sim", owner=owner)
    inner = pyasc.from_device_pointer(owner.mem.ptr + 1024, (256,), "float32", device="sim", owner=owner)
    outer[...] = pyasc.ones((1024,), dtype="float32", device="sim")
    assert (outer + outer).numpy().sum() == 2048.0 and (inner * 2).numpy().sum() == 512.0
    np.testing.assert_allclose(pyasc.softmax(outer.reshape(4, 256)).numpy().sum(axis=1), np.ones(4), rtol=1e-6)
    outer[...] = pyasc.full((1024,), 2.0, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    assert inner.numpy().tolist() == [2.0] * 256  # one memory
    del inner
    gc.collect()
    assert (outer * 1).numpy().sum() == 2048.0  # the outer wrapper's bounds outlive the inner's
