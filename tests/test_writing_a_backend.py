"""docs/writing-a-backend.md: its example backend is complete (registered and run here as written),
the page fits on a screen, and the Backend SPI's defaults and deprecated wrap behave as it says."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import numpy as np
import pytest

import pyasc
from pyasc_core import plugins
from pyasc_core.backend import MEMORY_STAT_KEYS, Backend
from pyasc_core.device import Device
from pyasc_core.tensor import Tensor, wrap_storage

PAGE = Path(__file__).resolve().parents[1] / "docs" / "writing-a-backend.md"


@pytest.fixture
def toy(tmp_path):
    """The page's example, written to a module, imported and registered as a runtime plugin."""
    (code,) = re.findall(r"```python\n(.*?)```", PAGE.read_text(), re.S)
    path = tmp_path / "toy_backend.py"
    path.write_text(code)
    spec = importlib.util.spec_from_file_location("toy_backend", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["toy_backend"] = module
    spec.loader.exec_module(module)
    name = plugins.register(module, "toy-backend")
    try:
        yield module
    finally:
        plugins.unregister(name=name)
        sys.modules.pop("toy_backend", None)


def test_the_page_fits_on_a_screen():
    assert len(PAGE.read_text().splitlines()) <= 70


def test_the_example_backend_runs_an_op(toy):
    x = pyasc.tensor([1.0, 2.0, 3.0], device="toy")
    assert str(x.device) == "toy" and type(x._data) is np.ndarray  # storage, wrapped by the core
    y = x + 1
    assert str(y.device) == "toy" and y.dtype == pyasc.float32
    np.testing.assert_array_equal(y.numpy(), [2.0, 3.0, 4.0])
    np.testing.assert_array_equal((x + x)[1:].numpy(), [4.0, 6.0])
    x[0] = 5.0
    np.testing.assert_array_equal(x.to("numpy").numpy(), [5.0, 2.0, 3.0])


def test_the_example_backend_gets_streams_memory_and_errors_from_its_base(toy):
    x = pyasc.tensor([1.0, 2.0], device="toy")
    with pytest.raises(pyasc.KernelNotFoundError, match="pyasc::mul has no kernel for backend 'toy'"):
        x * 2.0
    with pytest.raises(pyasc.PyascError, match="device 'toy:1' does not exist"):
        pyasc.tensor([1.0], device="toy:1")
    s = pyasc.Stream(device="toy")
    start, end = pyasc.Event(enable_timing=True, device="toy"), pyasc.Event(enable_timing=True, device="toy")
    start.record(s)
    with pyasc.stream(s):
        x + 1
    end.record(s)
    s.synchronize()
    assert s.query() and end.query() and start.elapsed_time(end) >= 0.0
    stats = pyasc.memory.memory_stats("toy")
    assert set(MEMORY_STAT_KEYS) <= set(stats) and stats["allocated_bytes.all.current"] >= x.nbytes


class _Bare(Backend):
    name = "bare"


def test_required_methods_name_the_backend_and_optional_ones_have_defaults():
    b = _Bare()
    dev = Device("bare")
    with pytest.raises(NotImplementedError, match="backend 'bare' does not implement from_numpy"):
        b.from_numpy(np.zeros(2), dev, copy=True)
    with pytest.raises(NotImplementedError, match="create_stream"):
        b.create_stream(dev)
    storage = np.zeros(2)
    assert b.copy_from(storage, dev, dev) is None  # declared, not found by getattr
    assert b.adopt(storage, dev) == 0 and b.contiguous(storage) is storage
    assert b.default_kernel(object()) is None and b.adapt_kernel(len) is len


def test_backend_wrap_still_works_but_warns_and_the_core_builds_tensors():
    from pyasc_core.registry import backend_for_device

    dev = Device("numpy")
    backend = backend_for_device(dev)
    with pytest.warns(DeprecationWarning, match="wrap_storage"):
        t = backend.wrap(np.arange(3.0), dev)
    assert type(t) is Tensor and t.tolist() == [0.0, 1.0, 2.0]
    u = wrap_storage(np.arange(2.0), dev)
    assert type(u) is Tensor and u._owned == 16  # the host bytes adopt() reported are counted
