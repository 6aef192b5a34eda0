"""AclBackend.empty's one-call hot path (``_acl.new_array``, issue 13 point 1): a DeviceArray over a
cached block with the stream sanitizer's history of the address dropped; None (the general path)
when the cache has no block or an argument is not what it takes."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc_core import stream_sanitizer as san
from pyasc_core.registry import REGISTRY
from pyasc_core.streams import current_stream

# the 96 MiB tensor below goes back to the sim device's cache: return it, so later tests in this process
# (tests/test_npu_allocator.py's reserved-memory bound) do not find 100 MiB reserved that they never used
pytestmark = [pytest.mark.skipif(not REGISTRY.availability("sim")[0], reason="needs the simulator"),
              pytest.mark.usefixtures("return_cached_sim_blocks")]


@pytest.fixture
def sim():
    from pyasc_acl import _acl, storage
    from pyasc_core.registry import backend_for_device

    t = pyasc.empty((4,), device="sim")
    backend = backend_for_device(t.device)
    raw = backend._devices[t.device.index]
    stream = current_stream(t.device)._impl.raw
    return _acl, storage.DeviceArray, raw, stream, t.device


def test_new_array_reuses_a_cached_block_and_forgets_its_history(sim):
    _acl, DeviceArray, raw, stream, device = sim
    a = pyasc.empty((1000,), device="sim")
    ptr = a._data._ptr
    del a  # back to the cache
    history = {ptr: ["an earlier access"], 12345: ["another block"]}
    f32 = np.dtype(np.float32)
    arr = _acl.new_array(raw, 4000, stream, history, DeviceArray, (1000,), f32, device, (1,))
    assert type(arr) is DeviceArray
    assert arr._ptr == ptr == arr.block.ptr and arr._nbytes == arr.nbytes == 4000
    assert (arr.shape, arr.dtype, arr.device, arr.offset, arr.strides, arr.contiguous) == ((1000,), f32, device, 0,
                                                                                          (1,), True)
    assert ptr not in history and 12345 in history
    del arr
    again = _acl.new_array(raw, None, stream, None, DeviceArray, (10, 100), f32, device, (100, 1))
    assert again._nbytes == 4000 and again._ptr == ptr  # bytes from the shape and the dtype


def test_new_array_without_a_cached_block_leaves_it_to_the_general_path(sim):
    _acl, DeviceArray, raw, stream, device = sim
    n = 96 << 20  # larger than anything cached here
    assert _acl.new_array(raw, n, stream, None, DeviceArray, (n // 4,), np.dtype(np.float32), device, (1,)) is None
    t = pyasc.empty((n // 4,), device="sim")  # the general path allocates it
    assert t.shape == (n // 4,)


def test_new_array_declines_arguments_it_does_not_take(sim):
    _acl, DeviceArray, raw, stream, device = sim
    assert _acl.new_array("not a device", 16, stream, None, DeviceArray, (4,), np.dtype(np.float32), device,
                          (1,)) is None
    for shape in ((4, -1), (2**40, 2**40), (4.0,)):  # the general path names a bad shape
        assert _acl.new_array(raw, None, stream, None, DeviceArray, shape, np.dtype(np.float32), device,
                              (1,)) is None
    with pytest.raises(TypeError):
        _acl.new_array(raw, 16, stream)


def test_sanitizer_history_is_dropped_on_reuse_through_empty():
    if not san.active("sim"):
        pytest.skip("the stream sanitizer is off")
    x = pyasc.zeros((256,), device="sim")
    pyasc.synchronize("sim")
    pyasc.add(x, x)  # records accesses of x's block
    ptr = x._data._ptr
    assert ptr in san._blocks
    pyasc.synchronize("sim")
    del x
    y = pyasc.empty((256,), device="sim")
    assert y._data._ptr != ptr or ptr not in san._blocks


def test_empty_tensor_is_what_wrap_storage_makes(sim):
    _acl, DeviceArray, raw, stream, device = sim
    from pyasc_core.registry import backend_for_device
    from pyasc_core.tensor import Tensor

    backend = backend_for_device(device)
    f16 = np.dtype(np.float16)
    t = backend.empty_tensor((3, 5), f16, device)
    assert type(t) is Tensor and t._owned == 0 and t.device is device
    assert (t.shape, t.dtype, t._data.strides, t._data.nbytes) == ((3, 5), f16, (5, 1), 30)
    e = pyasc.empty((3, 5), dtype="float16", device="sim")  # creation.empty takes it
    assert type(e) is Tensor and (e.shape, e.dtype) == ((3, 5), f16)
