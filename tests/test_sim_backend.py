"""The ``sim`` backend as a user sees it: tensors in simulated device memory, copies, kernels
launched from Python, clear errors for ops without kernels, and what ``pyasc info`` reports."""

from __future__ import annotations

import json

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from pyasc_core import cli, plugins
from pyasc_acl import DeviceArray

from acl_fixtures import kernel_binary, use_npu_on_simulator


def test_library_path_and_headers():
    import os

    assert os.path.isfile(pyasc_sim.library_path())
    assert os.path.isfile(os.path.join(pyasc_sim.get_include(), "pyasc_sim", "kernel_abi.h"))


def test_sim_is_the_default_backend_now_it_has_kernels(monkeypatch):
    from pyasc_core import selection
    from pyasc_core.registry import REGISTRY

    monkeypatch.delenv("PYASC_BACKEND", raising=False)
    assert REGISTRY.backend("sim").priority > REGISTRY.backend("numpy").priority
    assert REGISTRY.backend("npu").priority < 0
    assert selection.default_backend_name() == "sim"


def test_tensors_live_in_device_memory():
    t = pyasc.tensor([[1, 2], [3, 4]], dtype="int32", device="sim")
    assert isinstance(t._data, DeviceArray) and t._data.ptr != 0 and t._data.nbytes == 16
    assert t.device == pyasc.Device("sim", 0) and not t.backend.is_host
    np.testing.assert_array_equal(t.numpy(), [[1, 2], [3, 4]])
    assert "device='sim:0'" in repr(t)
    with pytest.raises(pyasc.PyascError, match="host-resident"):
        t.__dlpack__()


def test_to_sim_and_back_with_every_kind_of_copy():
    data = np.linspace(0, 1, 4096, dtype=np.float32)
    host = pyasc.from_numpy(data)
    a = host.to("sim")
    b = host.to("sim", non_blocking=True)
    data[:] = -1  # the non-blocking upload already staged its data in pinned memory
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert a.numpy()[0] == 0.0
    back = b.to("numpy", non_blocking=True)
    pyasc.default_stream("sim").synchronize()
    np.testing.assert_array_equal(back.numpy(), a.numpy())
    assert back.numpy().base is not None  # a view of pinned memory


def test_ops_without_kernels_fail_clearly_and_composites_run():
    from pyasc_core.backend import TensorMeta

    x = pyasc.tensor([1.0, 2.0], device="sim")
    np.testing.assert_allclose(pyasc.pow(x, x).numpy(), [1.0, 4.0])  # every built-in op has a sim kernel
    cube = pyasc.library.define("simtest::cube", "(Tensor x) -> Tensor", meta=lambda x: TensorMeta(x.shape, x.dtype),
                                reference=lambda x: x * x * x)  # a reference, no sim kernel
    with pytest.raises(pyasc.KernelNotFoundError) as info:
        cube(x)
    assert "simtest::cube" in str(info.value) and "'sim'" in str(info.value)

    @pyasc.op
    def twice_sum(a: pyasc.Tensor, b: pyasc.Tensor) -> pyasc.Tensor:
        return (a + b) * 2.0

    np.testing.assert_allclose(twice_sum(pyasc.tensor([1.0], device="numpy"),
                                         pyasc.tensor([2.0], device="numpy")).numpy(), [6.0])
    np.testing.assert_allclose(twice_sum(x, x).numpy(), [4.0, 8.0])  # through the sim's kernels

    @pyasc.op
    def twice_cube(a: pyasc.Tensor) -> pyasc.Tensor:
        return cube(a) * 2.0

    with pytest.raises(pyasc.KernelNotFoundError, match=r"simtest::cube has no kernel for backend 'sim'"):
        twice_cube(x)
    with pytest.raises(pyasc.DeviceMismatchError, match="sim:0"):
        pyasc.add(x, pyasc.tensor([1.0, 2.0], device="numpy"))


def test_launch_api_with_tensors_and_streams():
    binary = pyasc_acl.Binary(kernel_binary(), device="sim")
    fn = binary.function("add_scalar_i32")
    x = pyasc.tensor(np.arange(100, dtype=np.int32), device="sim")
    y = pyasc.empty(100, dtype="int32", device="sim")
    s = pyasc.Stream("sim")
    pyasc_acl.launch(fn, 4, (x, y, 100, -3), stream=s)
    s.synchronize()
    np.testing.assert_array_equal(y.numpy(), np.arange(100) - 3)
    fn(2, x, y._data, 100, 1)  # calling a Function launches it on the current stream
    np.testing.assert_array_equal(y.numpy(), np.arange(100) + 1)
    pyasc_acl.launch(fn, 1, (x, y, 100, 0), host_args=False)  # args through device memory
    np.testing.assert_array_equal(y.numpy(), np.arange(100))
    assert "add_scalar_i32" in repr(fn) and "sim:0" in repr(binary)


def test_launch_argument_errors():
    fn = pyasc_acl.Binary(kernel_binary(), device="sim").function("empty")
    with pytest.raises(pyasc.ArgumentError, match=r"kernel arguments are ints, NumPy float scalars .* device tensors"):
        pyasc_acl.launch(fn, 1, ("1.5",))
    with pytest.raises(pyasc.ArgumentError, match=r"Python float 1\.5.*numpy\.float32\(1\.5\)"):
        pyasc_acl.launch(fn, 1, (1.5,))
    with pytest.raises(pyasc.DeviceMismatchError, match="move it with"):
        pyasc_acl.launch(fn, 1, (pyasc.tensor([1.0], device="numpy"),))
    with pytest.raises(pyasc.ArgumentError, match="num_blocks"):
        pyasc_acl.launch(fn, 0)
    with pytest.raises(pyasc.PyascError, match="not an ACL device"):
        pyasc_acl.Binary(kernel_binary(), device="numpy")
    with pytest.raises(pyasc_acl.AclFileError):
        pyasc_acl.Binary("/nonexistent/kernel.so", device="sim")


def test_kernel_failure_then_device_is_still_usable():
    fn = pyasc_acl.Binary(kernel_binary(), device="sim").function("fail_block1")
    s = pyasc.Stream("sim")
    pyasc_acl.launch(fn, 2, stream=s)
    with pytest.raises(pyasc_acl.AclKernelError, match="block 1: injected failure") as info:
        s.synchronize()
    assert info.value.code == 507015 and info.value.name == "ACL_ERROR_RT_AICORE_EXCEPTION"
    np.testing.assert_array_equal(pyasc.ones(3, device="sim").numpy(), [1, 1, 1])


def _info_json(capsys) -> dict:
    assert cli.main(["info", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_pyasc_info_lists_sim_and_why_npu_is_unavailable(monkeypatch, capsys):
    monkeypatch.delenv("PYASC_ACL_LIBRARY", raising=False)
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    plugins.reset_for_tests()
    try:
        rows = {r["name"]: r for r in _info_json(capsys)["backends"]}
        assert rows["sim"]["available"] and rows["sim"]["devices"] == ["sim:0"]
        assert rows["sim"]["info"]["soc"] == "Ascend910B1"
        npu = rows["npu"]
        assert not npu["available"]
        for piece in ("/usr/local/Ascend/cann/lib64/libascendcl.so",
                      "/usr/local/Ascend/ascend-toolkit/latest/lib64/libascendcl.so",
                      "ASCEND_HOME_PATH", "PYASC_ACL_LIBRARY"):
            assert piece in npu["reason"], piece
        assert cli.main(["info"]) == 0
        assert "PYASC_ACL_LIBRARY" in capsys.readouterr().out
        with pytest.raises(pyasc.BackendUnavailableError, match="libascendcl.so"):
            pyasc.set_backend("npu")
    finally:
        monkeypatch.undo()
        plugins.reset_for_tests()


def test_npu_reason_names_ascend_home_path_and_a_bad_override(monkeypatch, tmp_path):
    from pyasc_acl.loader import locate_acl_library

    monkeypatch.delenv("PYASC_ACL_LIBRARY", raising=False)
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path))
    path, reason = locate_acl_library()
    assert path is None and str(tmp_path / "lib64" / "libascendcl.so") in reason
    monkeypatch.setenv("PYASC_ACL_LIBRARY", str(tmp_path / "nope.so"))
    path, reason = locate_acl_library()
    assert path is None and "PYASC_ACL_LIBRARY=" in reason and "does not exist" in reason


def test_npu_runs_on_the_simulator_library(monkeypatch):
    use_npu_on_simulator(monkeypatch)
    try:
        t = pyasc.tensor([1.0, 2.0], device="npu")
        assert str(t.device) == "npu:0"
        np.testing.assert_array_equal(t.to("numpy").numpy(), [1, 2])
    finally:
        monkeypatch.undo()
        plugins.reset_for_tests()


@pytest.mark.hardware
def test_npu_on_real_hardware():
    from pyasc_core.registry import REGISTRY

    ok, reason = REGISTRY.availability("npu")
    if not ok or "pyasc_acl_sim" in REGISTRY.backend("npu").library().path:
        pytest.skip(f"needs an Ascend NPU with CANN: {reason or 'npu points at the simulator'}")
    t = pyasc.tensor(np.arange(8, dtype=np.float32), device="npu")
    np.testing.assert_array_equal(t.numpy(), np.arange(8))
