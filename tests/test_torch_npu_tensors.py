"""torch_npu tensors in pyasc (issue 15 point 1, the NPU part): ``from_torch`` of an 'npu' tensor
wraps its data pointer, device index, strides and storage size with ``pyasc.from_device_pointer``
and keeps it alive; ``Tensor.to_torch`` of an npu tensor gives back torch_npu memory.

torch_npu needs an Ascend NPU, so here: the glue's decisions on real torch CPU tensors (which
pointer, strides and size it would wrap, which path a device takes, the shared view it gives back),
the wrapping itself on the simulator (tests/test_device_pointer.py), the clear error without
torch_npu; the end-to-end test is marked hardware and skipped without torch_npu."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc.torch  # noqa: F401  (pyasc.torch.using_cpu_backend, current_stream)
from pyasc_core import torch_tensors as tt

from acl_fixtures import use_npu_on_simulator

torch = pytest.importorskip("torch")


def test_pointer_args_of_a_strided_view_with_a_storage_offset():
    base = torch.arange(48, dtype=torch.float32).reshape(6, 8)
    view = base[1:, 2:].t()  # storage offset 10, strides (1, 8), not contiguous
    args = tt.pointer_args(view)
    assert args["ptr"] == base.data_ptr() + 10 * 4
    assert args["shape"] == (6, 5) and args["strides"] == (1, 8) and args["dtype"] == "float32"
    assert args["nbytes"] == (48 - 10) * 4  # the storage from the view's element 0 to its end
    # what pyasc would wrap is the same elements torch sees
    flat = base.numpy().reshape(-1)
    got = np.lib.stride_tricks.as_strided(flat[10:], args["shape"], [s * 4 for s in args["strides"]])
    np.testing.assert_array_equal(got, view.numpy())


def test_pointer_args_bfloat16_and_expanded():
    x = torch.ones(4, dtype=torch.bfloat16).expand(3, 4)
    args = tt.pointer_args(x)
    assert args["dtype"] == "bfloat16" and args["strides"] == (0, 1) and args["nbytes"] == 8
    from pyasc_core.device_pointer import extent_bytes

    assert extent_bytes(args["shape"], args["strides"], 2) == 8  # fits: from_device_pointer accepts it


def test_which_path_a_torch_device_takes():
    assert tt.torch_device_kind(torch.device("cpu")) == "cpu"
    assert tt.torch_device_kind(torch.device("meta")) == "other"
    # PrivateUse1 is torch_npu's device only once torch_npu renamed it 'npu'
    name = torch._C._get_privateuse1_backend_name()
    expected = "npu" if name == "npu" else "other"
    assert tt.torch_device_kind(torch.device(name)) == expected
    with pytest.raises(pyasc.PyascError, match="on meta.*t.cpu"):
        pyasc.from_torch(torch.ones(2, device="meta"))


def test_npu_index_is_torch_npus_index():
    name = torch._C._get_privateuse1_backend_name()
    assert tt.npu_index(torch.device(name, 3)) == 3  # npu:3 in torch_npu is npu:3 in pyasc (ACL's numbering)
    if not hasattr(torch, "npu"):  # no index: torch_npu's current device, which needs torch_npu
        with pytest.raises(pyasc.BackendUnavailableError, match="torch_npu"):
            tt.npu_index(torch.device(name))


def test_shared_torch_view_is_the_owners_memory():
    owner = torch.arange(64, dtype=torch.int32)
    ptr = owner.data_ptr() + 8 * 4
    v = tt.shared_torch_view(owner, ptr, (4, 2), np.dtype(np.int32), (4, 1))
    assert v is not None and v.device == owner.device
    np.testing.assert_array_equal(v.numpy(), owner.numpy()[8:].reshape(-1)[:16].reshape(4, 4)[:, :2])
    v[0, 0] = -7  # the same memory
    assert owner[8].item() == -7
    # reinterpreting the bytes as another dtype of the same storage works too
    f = tt.shared_torch_view(owner, owner.data_ptr(), (2,), np.dtype(np.float32), (1,))
    assert f.dtype == torch.float32 and f.untyped_storage().data_ptr() == owner.untyped_storage().data_ptr()
    # memory outside the owner's storage is not shared (to_torch copies instead)
    assert tt.shared_torch_view(owner, owner.data_ptr() + 60 * 4, (8,), np.dtype(np.int32), (1,)) is None
    assert tt.shared_torch_view(owner, owner.data_ptr() - 4, (1,), np.dtype(np.int32), (1,)) is None
    assert tt.shared_torch_view(object(), owner.data_ptr(), (1,), np.dtype(np.int32), (1,)) is None


def test_to_torch_of_an_npu_tensor_without_torch_npu_is_a_clear_error(monkeypatch):
    if hasattr(torch, "npu"):
        pytest.skip("torch_npu is installed: see the hardware test")
    use_npu_on_simulator(monkeypatch)
    t = pyasc.ones((3,), dtype="float32", device="npu:0")
    with pytest.raises(pyasc.BackendUnavailableError, match="to_torch of an 'npu' tensor needs torch_npu.*import torch_npu"):
        t.to_torch()
    # sim tensors still convert by the documented copy to a CPU tensor
    s = pyasc.ones((3,), dtype="float32", device="sim").to_torch()
    assert s.device.type == "cpu" and s.tolist() == [1.0, 1.0, 1.0]


def test_ops_and_kernels_route_by_the_torch_tensors_device():
    x = torch.ones(3)
    assert tt.npu_device_of_args((x, 2.0), {"y": x}) is None  # CPU tensors: the CPU backend
    assert tt.npu_device_of_args((), {}) is None
    # torch ops get an 'npu' kernel only once torch_npu has named PrivateUse1 'npu'
    expected = ("cpu", "npu") if torch._C._get_privateuse1_backend_name() == "npu" else ("cpu",)
    assert tt.torch_device_types() == expected
    # CPU torch tensors still run zero-copy on numpy / copied through sim
    assert pyasc.add(x, x).tolist() == [2.0, 2.0, 2.0]
    with pyasc.torch.using_cpu_backend("sim"):
        assert pyasc.add(x, x).tolist() == [2.0, 2.0, 2.0]


@pytest.mark.hardware
def test_torch_npu_tensors_are_shared_both_ways():
    if not hasattr(torch, "npu"):
        pytest.skip("needs torch_npu and an Ascend NPU (torch.npu is absent)")
    x = torch.arange(12, dtype=torch.float32, device="npu:0").reshape(3, 4)
    p = pyasc.from_torch(x)
    assert str(p.device) == "npu:0" and p.shape == (3, 4)
    p[...] = pyasc.full((3, 4), 2.0, dtype="float32", device="npu:0")
    torch.npu.synchronize()
    assert x.sum().item() == 24.0  # the write went to torch's memory
    back = (p[1:]).to_torch()
    assert back.device == x.device and back.data_ptr() == x[1:].data_ptr()  # the same memory
    fresh = pyasc.ones((2,), dtype="float32", device="npu:0").to_torch()  # a device-to-device copy
    assert fresh.device == x.device and fresh.cpu().tolist() == [1.0, 1.0]
    with pyasc.stream(pyasc.torch.current_stream()):
        y = pyasc.add(p, p)
    assert y.to_torch().cpu().tolist() == (2 * x).cpu().tolist()
    # ops on torch_npu tensors run on npu:0 in place, on torch_npu's current stream, and return them
    z = pyasc.add(x, x)
    assert z.device == x.device and z.cpu().tolist() == (2 * x).cpu().tolist()
    leaky = pyasc.torch.register("pyasc::leaky_relu")
    assert leaky(x - 5).device == x.device
    # a kernel launched with a torch_npu tensor writes its memory in place, on torch's stream
    from ascendc_kernels import ASCENDC_DIR

    k = pyasc.Kernel(ASCENDC_DIR / "san_tensor.cpp", "unsized_store")
    y = torch.zeros(64, dtype=torch.float32, device="npu:0")
    k[1](y, 64)
    torch.npu.synchronize()
    assert y.cpu().tolist() == [3.0] * 64
