"""The dispatcher's cached hot path of an op (issue 13 point 1): after the first call of a form, a
kernel that offers one (``pyasc_fast``; on sim the elementwise glue's launch plans, run in one C call
by ``_acl.op_plan``) takes calls of that form. It must behave exactly as the layered path: the same
results, the stream sanitizer seeing the op's reads as reads and its output as a write, the
placement counter, the current stream, and every case it does not handle (a view input, the
sanitizer switched, kernels cleared, the glue's launch replaced) taken by the layered path."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
from pyasc_core import placement, stream_sanitizer
from pyasc_core.registry import REGISTRY


pytestmark = pytest.mark.skipif(not REGISTRY.availability("sim")[0], reason="the sim backend is not available")

N = 64


def _pair():
    x = np.arange(N, dtype=np.float32)
    return x, pyasc.tensor(x, device="sim"), pyasc.tensor(np.full(N, 2, np.float32), device="sim")


def _entry(handle, *args):
    return handle._cache[handle._keyfn(args)][1]


def _warm(handle, *args):
    """Two calls: the first is checked and cached, after it the form's fast path is cached."""
    handle(*args)
    handle(*args)
    pyasc.synchronize("sim")


def test_a_repeated_form_takes_the_fast_path_with_the_same_results_and_counts():
    x, a, b = _pair()
    _warm(pyasc.add, a, b)
    kernel = _entry(pyasc.add, a, b)
    assert kernel is not REGISTRY.table[("pyasc::add", "sim")]  # the form's own hot path
    before = placement.COUNTS[placement.AICORE]
    outs = [pyasc.add(a, b) for _ in range(3)]
    assert placement.COUNTS[placement.AICORE] == before + 3
    assert len({id(o) for o in outs}) == 3
    for o in outs:
        np.testing.assert_array_equal(o.numpy(), x + 2)
    _warm(pyasc.exp, a)
    np.testing.assert_allclose(pyasc.exp(a).numpy(), np.exp(x), rtol=1e-6)


def test_the_fast_path_reads_its_inputs_and_writes_its_output_for_the_sanitizer(fill):
    x, a, b = _pair()
    _warm(pyasc.add, a, b)
    s1, s2 = pyasc.Stream("sim"), pyasc.Stream("sim")
    with pyasc.stream(s1):
        pyasc.add(a, b)
    with pyasc.stream(s2):
        out = pyasc.add(a, b)  # both only read a and b: clean
    # a write of an input on one stream while the other stream's read is unordered: a race
    with pytest.raises(pyasc.StreamRaceError, match="read"):
        fill(a, 1, s1)
    pyasc.synchronize("sim")
    assert stream_sanitizer.active("sim")
    # a write on one stream, then the fast path reading it on another without a wait: a race
    fill(b, 0, s1, sleep_us=20000)
    with pytest.raises(pyasc.StreamRaceError, match="add"), pyasc.stream(s2):
        pyasc.add(a, b)
    pyasc.synchronize("sim")
    # the output is written: filling it on another stream before the add ran is a race
    with pyasc.stream(s1):
        y = pyasc.add(a, b)
    with pytest.raises(pyasc.StreamRaceError, match="writes"):
        fill(y, 0, s2)
    pyasc.synchronize("sim")
    del out


def test_the_fast_path_launches_on_the_current_stream():
    x, a, b = _pair()
    _warm(pyasc.add, a, b)
    s = pyasc.Stream("sim")
    with pyasc.stream(s):
        out = pyasc.add(a, b)
    s.synchronize()
    np.testing.assert_array_equal(out.numpy(), x + 2)


def test_a_view_input_takes_the_layered_path():
    x, a, b = _pair()
    big = pyasc.tensor(np.arange(N + 1, dtype=np.float32), device="sim")
    _warm(pyasc.add, a, b)
    v = big[1:]  # same dtype and shape, at a 4-byte offset: the kernel needs an aligned copy
    np.testing.assert_array_equal(pyasc.add(v, b).numpy(), np.arange(1, N + 1, dtype=np.float32) + 2)


def test_sanitizer_off_and_on_again(monkeypatch, fill):
    x, a, b = _pair()
    _warm(pyasc.add, a, b)
    monkeypatch.setenv("PYASC_STREAM_SANITIZER", "0")
    stream_sanitizer.reset()
    assert not stream_sanitizer.active("sim")
    np.testing.assert_array_equal(pyasc.add(a, b).numpy(), x + 2)
    monkeypatch.delenv("PYASC_STREAM_SANITIZER")
    stream_sanitizer.reset()
    s1, s2 = pyasc.Stream("sim"), pyasc.Stream("sim")
    fill(a, 0, s1, sleep_us=20000)
    with pytest.raises(pyasc.StreamRaceError), pyasc.stream(s2):
        pyasc.add(a, b)
    pyasc.synchronize("sim")


def test_cleared_kernels_and_a_replaced_launch_take_the_layered_path(monkeypatch):
    from pyasc_kernels import _runtime as rt

    x, a, b = _pair()
    _warm(pyasc.add, a, b)
    rt.KERNELS.clear()  # the plan's kernel is dropped: the guard sends the call the long way
    np.testing.assert_array_equal(pyasc.add(a, b).numpy(), x + 2)
    _warm(pyasc.add, a, b)
    seen = []
    real = rt.launch

    def spy(device, family, name, *args):
        seen.append(name)
        return real(device, family, name, *args)

    monkeypatch.setattr(rt, "launch", spy)
    np.testing.assert_array_equal(pyasc.add(a, b).numpy(), x + 2)
    assert seen == ["binary_add_float32"]


def test_the_c_hot_paths_follow_a_changed_tensor_class(monkeypatch):
    """The C hot paths read Tensor's and DeviceArray's __slots__ directly (backends/npu/src/slots.h);
    a class changed after they cached the slot offsets is looked up again, and the results stay right."""
    from pyasc_acl.storage import DeviceArray
    from pyasc_core.tensor import Tensor

    x, a, b = _pair()
    _warm(pyasc.add, a, b)
    monkeypatch.setattr(Tensor, "_pyasc_probe", 1, raising=False)  # new type versions
    monkeypatch.setattr(DeviceArray, "_pyasc_probe", 2, raising=False)
    out = pyasc.add(a, b)
    assert type(out) is Tensor and out._data.contiguous and out._device is a._device
    np.testing.assert_array_equal(out.numpy(), x + 2)
    e = pyasc.empty((N,), device="sim")
    assert e.shape == (N,) and e._data.offset == 0
