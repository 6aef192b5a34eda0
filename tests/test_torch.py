"""The PyTorch bridge: torch tensors in pyasc ops and kernel launches, from_torch / to_torch,
pyasc ops as torch custom ops (opcheck), their autograd (gradcheck), torch.compile, and the
clear error when torch is absent. CI installs the CPU build of torch (the README's test line)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pyasc
import pyasc.torch as pt
from pyasc_core.torch_grads import FORMULAS

torch = pytest.importorskip("torch")  # CI installs it ('.[test,torch]'): these run there

# -- 1. tensors -------------------------------------------------------------------------------------


def test_from_torch_shares_memory_and_to_torch_round_trips():
    x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
    p = pyasc.from_torch(x)
    assert p.device.type == "numpy" and p.shape == (2, 3) and p.dtype == pyasc.float32
    p[0, 0] = 42.0  # zero-copy: the write shows in the torch tensor
    assert x[0, 0].item() == 42.0
    back = p.to_torch()
    assert back.data_ptr() == x.data_ptr()


def test_from_torch_views_bfloat16_and_bool():
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4)[:, ::2]
    np.testing.assert_array_equal(pyasc.from_torch(x).numpy(), x.numpy())
    b = torch.tensor([1.5, -2.0], dtype=torch.bfloat16)
    assert pyasc.from_torch(b).dtype == pyasc.bfloat16
    assert torch.equal(pyasc.from_torch(b).to_torch(), b)
    m = torch.tensor([True, False])
    assert pyasc.from_torch(m).tolist() == [True, False]


def test_sim_tensor_to_torch_is_an_explicit_copy():
    pytest.importorskip("pyasc_sim")
    s = pyasc.tensor([[1.0, 2.0], [3.0, 4.0]], device="sim")
    t = s.to_torch()
    assert t.device.type == "cpu" and torch.equal(t, torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    t[0, 0] = 9.0  # a copy: the sim tensor is unchanged
    assert s.numpy()[0, 0] == 1.0
    assert pyasc.from_torch(t, device="sim").device.type == "sim"


def test_meta_tensor_to_torch_is_a_torch_meta_tensor():
    m = pyasc.empty((2, 5), dtype="float16", device="meta").to_torch()
    assert m.device.type == "meta" and m.shape == (2, 5) and m.dtype == torch.float16


def test_from_torch_errors():
    with pytest.raises(pyasc.ArgumentError, match="from_dlpack"):
        pyasc.from_torch(np.ones(3))
    with pytest.raises(pyasc.DtypeError, match="complex64"):
        pyasc.from_torch(torch.ones(2, dtype=torch.complex64))
    with pytest.raises(pyasc.PyascError, match=r"meta.*\.cpu\(\)"):
        pyasc.from_torch(torch.ones(2, device="meta"))


def test_ops_take_torch_tensors_and_return_torch_tensors():
    x = torch.randn(4, 5)
    y = torch.randn(4, 5)
    out = pyasc.add(x, y)
    assert isinstance(out, torch.Tensor)
    torch.testing.assert_close(out, x + y)
    torch.testing.assert_close(pyasc.mul(x, 2.0), x * 2.0)
    torch.testing.assert_close(pyasc.softmax(x, axis=0), torch.softmax(x, 0))
    torch.testing.assert_close(pyasc.sum(x, axis=1, keepdims=True), x.sum(1, keepdim=True))
    assert pyasc.cast(x, pyasc.float16).dtype == torch.float16
    assert pyasc.cast(x, torch.int32).dtype == torch.int32


def test_ops_on_torch_tensors_run_on_sim_when_selected():
    pytest.importorskip("pyasc_sim")
    x = torch.linspace(-3, 3, 64)
    assert pt.get_cpu_backend() == "numpy"
    with pt.using_cpu_backend("sim"):
        assert pt.get_cpu_backend() == "sim"
        out = pyasc.exp(x)
    assert pt.get_cpu_backend() == "numpy"
    torch.testing.assert_close(out, x.exp())
    with pytest.raises(pyasc.ArgumentError, match="'numpy', 'sim'"):
        pt.set_cpu_backend("npu:0")


KERNEL = textwrap.dedent("""\
    #include "kernel_operator.h"
    using namespace AscendC;
    // y[i] = x[i] * alpha over n floats, block 0 only
    extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, uint32_t n, float alpha) {
        if (GetBlockIdx() != 0) return;
        GlobalTensor<float> xg, yg;
        xg.SetGlobalBuffer((__gm__ float *)x, n);
        yg.SetGlobalBuffer((__gm__ float *)y, n);
        for (uint32_t i = 0; i < n; ++i) yg.SetValue(i, xg.GetValue(i) * alpha);
    }
""")


def test_kernel_launch_takes_torch_tensors():
    pytest.importorskip("pyasc_sim")
    k = pyasc.Kernel(KERNEL, "scale")
    x = torch.arange(16, dtype=torch.float32)
    y = torch.zeros(16)
    k[1](x, y, 16, 0.5)  # copied to the sim device, launched, copied back
    torch.testing.assert_close(y, x * 0.5)


# -- 2. torch custom ops ----------------------------------------------------------------------------


def test_register_returns_a_torch_op_reachable_through_torch_ops():
    op = pt.register("pyasc::exp")
    assert pt.register("pyasc::exp") is op
    x = torch.randn(3)
    torch.testing.assert_close(op(x), x.exp())
    torch.testing.assert_close(torch.ops.pyasc.exp(x), x.exp())
    everything = pt.register("pyasc")
    assert {"add", "softmax", "matmul", "layer_norm"} <= set(everything)
    torch.testing.assert_close(torch.ops.pyasc.layer_norm(x.reshape(1, 3), eps=1e-5),
                               torch.nn.functional.layer_norm(x.reshape(1, 3), (3,)))


def test_register_errors():
    with pytest.raises(pyasc.UnknownOpError, match="nosuchns"):
        pt.register("nosuchns")
    with pytest.raises(pyasc.UnknownOpError):
        pt.register("pyasc::no_such_op")
    with pytest.raises(pyasc.ArgumentError, match="ns::name"):
        pt.register("")
    with pytest.raises(pyasc.ArgumentError, match="callables"):
        pt.register_autograd("pyasc::exp", 3)


def test_an_op_without_a_torch_schema_still_takes_torch_tensors():
    with pyasc.library.Library("t15sch") as lib:  # removed again at the end
        lib.define("as_type", "(Tensor x, dtype dtype='float16') -> Tensor",
                   meta=lambda x, dtype: pyasc.TensorMeta(x.shape, dtype), reference=lambda x, dtype: x.astype(dtype))
        with pytest.raises(pyasc.OpRegistrationError, match="default None"):
            pt.register("t15sch::as_type")
        out = pyasc.ops.t15sch.as_type(torch.ones(3))  # converted and run directly (no autograd)
        assert isinstance(out, torch.Tensor) and out.dtype == torch.float16


def test_fake_implementation_comes_from_the_meta_function():
    from torch._subclasses.fake_tensor import FakeTensorMode

    op = pt.register("pyasc::matmul")
    with FakeTensorMode():
        a = torch.empty(2, 7, 3)
        b = torch.empty(3, 5)
        out = op(a, b)
    assert out.shape == (2, 7, 5) and out.dtype == torch.float32
    with FakeTensorMode(), pytest.raises(pyasc.ShapeError):
        op(torch.empty(2, 3), torch.empty(4, 5))  # the pyasc meta function's own error


OPCHECK = [
    ("pyasc::add", lambda: (torch.randn(3, 4), torch.randn(4)), {}),
    ("pyasc::mul", lambda: (torch.randn(2, 3), torch.randn(2, 3)), {}),
    ("pyasc::exp", lambda: (torch.randn(5),), {}),
    ("pyasc::softmax", lambda: (torch.randn(3, 4),), {"axis": 0}),
    ("pyasc::sum", lambda: (torch.randn(3, 4),), {"axis": [1], "keepdims": True}),
    ("pyasc::matmul", lambda: (torch.randn(3, 4), torch.randn(4, 2)), {}),
    ("pyasc::transpose", lambda: (torch.randn(3, 4),), {}),
    ("pyasc::layer_norm", lambda: (torch.randn(2, 4), torch.randn(4), torch.randn(4)), {"eps": 1e-5}),
]


@pytest.mark.parametrize("name,make,kwargs", OPCHECK, ids=[c[0] for c in OPCHECK])
def test_opcheck_passes_on_builtins(name, make, kwargs):
    op = pt.register(name)
    args = make()
    torch.library.opcheck(op, args, kwargs)
    if name not in FORMULAS:  # no backward: opcheck's autograd tests would rightly fail
        return
    grad_args = tuple(a.clone().requires_grad_(a.is_floating_point()) for a in args)
    torch.library.opcheck(op, grad_args, kwargs)


def test_opcheck_on_sim():
    pytest.importorskip("pyasc_sim")
    with pt.using_cpu_backend("sim"):
        torch.library.opcheck(pt.register("pyasc::add"), (torch.randn(3, 4), torch.randn(3, 4)))


def test_example_pack_op_as_a_torch_op(example_pack):
    op = pt.register("example::leaky_relu")
    x = torch.randn(4, 6)
    torch.testing.assert_close(op(x, negative_slope=0.2), torch.nn.functional.leaky_relu(x, 0.2))
    torch.library.opcheck(op, (x,), {"negative_slope": 0.2})


# -- 3. autograd ------------------------------------------------------------------------------------

GRADCHECK = [
    ("add", (torch.randn(3, 4), torch.randn(4)), {}),
    ("sub", (torch.randn(3, 1), torch.randn(3, 4)), {}),
    ("mul", (torch.randn(3, 4), torch.randn(3, 4)), {}),
    ("div", (torch.randn(3, 4), torch.rand(3, 4) + 0.5), {}),
    ("exp", (torch.randn(5),), {}),
    ("log", (torch.rand(5) + 0.5,), {}),
    ("sqrt", (torch.rand(5) + 0.5,), {}),
    ("rsqrt", (torch.rand(5) + 0.5,), {}),
    ("tanh", (torch.randn(5),), {}),
    ("sigmoid", (torch.randn(5),), {}),
    ("silu", (torch.randn(5),), {}),
    ("neg", (torch.randn(5),), {}),
    ("relu", (torch.randn(6) + torch.tensor([0.5, -0.5] * 3),), {}),
    ("abs", (torch.randn(6) + torch.tensor([0.5, -0.5] * 3),), {}),
    ("softmax", (torch.randn(3, 4),), {"axis": 0}),
    ("log_softmax", (torch.randn(3, 4),), {"axis": -1}),
    ("sum", (torch.randn(3, 4),), {"axis": [0]}),
    ("sum", (torch.randn(3, 4),), {}),
    ("mean", (torch.randn(3, 4),), {"axis": [1], "keepdims": True}),
    ("matmul", (torch.randn(2, 3, 4), torch.randn(4, 5)), {}),
    ("matmul", (torch.randn(4), torch.randn(4, 5)), {}),
    ("transpose", (torch.randn(2, 3, 4),), {"axes": [2, 0, 1]}),
    ("reshape", (torch.randn(2, 6),), {"shape": [3, 4]}),
]


@pytest.mark.parametrize("name,args,kwargs", GRADCHECK, ids=[c[0] for c in GRADCHECK])
def test_gradcheck_builtins_float64(name, args, kwargs):
    op = pt.register(f"pyasc::{name}")
    inputs = tuple(a.double().requires_grad_() for a in args)
    assert torch.autograd.gradcheck(lambda *xs: op(*xs, **kwargs), inputs)


def test_pyasc_ops_on_torch_tensors_are_differentiable():
    x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    y = pyasc.mul(pyasc.exp(x), 3.0).sum()
    y.backward()
    torch.testing.assert_close(x.grad, 3.0 * x.detach().exp())


def test_user_declared_backward_with_pyasc_ops():
    ns = "t15grad"
    lib = pyasc.library.Library(ns)
    lib.define("cube", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x * x * x)

    def setup(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return pyasc.mul(g, pyasc.mul(pyasc.mul(x, x), 3.0))

    pt.register_autograd(f"{ns}::cube", backward, setup_context=setup)
    op = pt.register(f"{ns}::cube")
    x = torch.randn(5, dtype=torch.float64, requires_grad=True)
    try:
        assert torch.autograd.gradcheck(op, (x,))
        torch.library.opcheck(op, (x,))
    finally:
        lib.remove()
    with pyasc.library.Library(ns) as again:  # the same name with another schema: torch cannot redefine it
        again.define("cube", "(Tensor x, *, float k=1.0) -> Tensor", meta=lambda x, k: x, reference=lambda x, k: x)
        with pytest.raises(pyasc.OpRegistrationError, match="cannot be redefined"):
            pt.register(f"{ns}::cube")


def test_example_pack_op_declares_its_backward(example_pack):
    op = pt.register("example::leaky_relu")
    x = (torch.randn(4, 6, dtype=torch.float64) + torch.tensor([0.5, -0.5] * 3, dtype=torch.float64))
    assert torch.autograd.gradcheck(lambda t: op(t, negative_slope=0.2), (x.requires_grad_(),))


def test_opdef_autograd_must_be_callables():
    with pytest.raises(pyasc.OpRegistrationError, match="setup_context"):
        pyasc.OpDef("t15bad::f", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x, autograd=(1, 2))


# -- 5. acceptance: a small model trains through pyasc ops, and torch.compile traces it ------------


class _Net(torch.nn.Module):
    def __init__(self, leaky_relu, softmax):
        super().__init__()
        self.linear = torch.nn.Linear(8, 5, dtype=torch.float64)
        self.leaky_relu, self.softmax = leaky_relu, softmax

    def forward(self, x):
        return self.softmax(self.leaky_relu(self.linear(x), negative_slope=0.1), axis=-1)


def _torch_softmax(x, axis):
    return torch.softmax(x, dim=axis)


def test_model_trains_with_grads_matching_pure_torch_and_compiles(example_pack):
    import copy

    leaky, softmax = pt.register("example::leaky_relu"), pt.register("pyasc::softmax")
    torch.manual_seed(0)
    ref = _Net(torch.nn.functional.leaky_relu, _torch_softmax)
    mine = copy.deepcopy(ref)
    mine.leaky_relu, mine.softmax = leaky, softmax
    opt_ref = torch.optim.SGD(ref.parameters(), lr=0.5)
    opt_mine = torch.optim.SGD(mine.parameters(), lr=0.5)
    x = torch.randn(16, 8, dtype=torch.float64)
    target = torch.randint(0, 5, (16,))
    losses = []
    for _ in range(4):
        for model, opt in ((ref, opt_ref), (mine, opt_mine)):
            opt.zero_grad()
            loss = torch.nn.functional.nll_loss(torch.log(model(x)), target)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        for p_ref, p_mine in zip(ref.parameters(), mine.parameters()):
            torch.testing.assert_close(p_mine.grad, p_ref.grad)
            torch.testing.assert_close(p_mine, p_ref)
    assert losses[-1] < losses[0]  # it learns

    explained = torch._dynamo.explain(mine)(x)
    assert explained.graph_break_count == 0 and explained.graph_count == 1
    compiled = torch.compile(mine, fullgraph=True, backend="aot_eager")  # forward and backward traced
    out = compiled(x)
    torch.testing.assert_close(out, ref(x))
    loss = torch.nn.functional.nll_loss(torch.log(out), target)
    loss.backward()


# -- torch absent -----------------------------------------------------------------------------------


def test_without_torch_every_torch_feature_says_how_to_install_it():
    code = textwrap.dedent("""\
        import sys
        sys.modules["torch"] = None  # import torch raises ImportError, as when it is not installed
        import numpy as np
        import pyasc, pyasc.torch as pt
        assert pyasc.add(pyasc.tensor([1.0], device="numpy"), 1.0).tolist() == [2.0]  # pyasc alone works
        for call in (lambda: pt.register("pyasc::add"), lambda: pyasc.from_torch(np.ones(2)),
                     lambda: pyasc.tensor([1.0], device="numpy").to_torch()):
            try:
                call()
            except pyasc.TorchUnavailableError as exc:
                assert "pip install 'pyasc-runtime[torch]'" in str(exc), exc
            else:
                raise AssertionError("no TorchUnavailableError")
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


# -- 4. streams and devices -------------------------------------------------------------------------


def test_external_stream_wraps_a_native_handle_and_never_owns_it():
    pytest.importorskip("pyasc_sim")
    owner = pyasc.Stream("sim")
    h = owner.handle
    assert isinstance(h, int) and h != 0
    assert pyasc.default_stream("sim").handle == 0
    ext = pyasc.Stream.from_handle(h, device="sim")
    assert isinstance(ext, pyasc.ExternalStream) and ext.handle == h and ext.device == owner.device
    x = pyasc.ones(1024, device="sim")
    pyasc.synchronize("sim")
    with pyasc.stream(ext):
        y = x * 3.0  # queued on the owner's stream
    owner.synchronize()
    assert y.numpy().sum() == 3072.0
    del ext  # dropping the wrapper leaves the owner's stream alive and usable
    with pyasc.stream(owner):
        z = x + 1.0
    owner.synchronize()
    assert z.numpy()[0] == 2.0


def test_stream_handle_errors():
    with pytest.raises(pyasc.ArgumentError, match="non-negative int"):
        pyasc.ExternalStream(-1, device="sim")
    with pytest.raises(pyasc.ArgumentError, match="non-negative int"):
        pyasc.ExternalStream("0x10", device="sim")
    with pytest.raises(pyasc.BackendError, match="no native"):
        pyasc.ExternalStream(16, device="numpy")
    with pytest.raises(pyasc.BackendError, match="no native handle"):
        pyasc.Stream("numpy").handle  # noqa: B018


def test_device_of_maps_torch_devices():
    assert str(pt.device_of(torch.ones(1))) == "numpy"
    with pt.using_cpu_backend("sim"):
        assert pt.device_of("cpu").type == "sim"
    with pytest.raises(pyasc.InvalidDeviceError, match="meta"):
        pt.device_of("meta")


def test_torch_npu_helpers_need_torch_npu():
    if hasattr(torch, "npu"):
        pytest.skip("torch_npu is installed: see the hardware test")
    with pytest.raises(pyasc.BackendUnavailableError, match="torch_npu"):
        pt.current_stream()


@pytest.mark.hardware
def test_torch_npu_stream_and_device_indices_match():
    if not hasattr(torch, "npu"):
        pytest.skip("needs torch_npu and an Ascend NPU (torch.npu is absent)")
    s = pt.current_stream()
    assert s.handle == torch.npu.current_stream().npu_stream
    assert s.device.index == torch.npu.current_device()
    assert str(pt.device_of(torch.ones(1, device="npu:0"))) == "npu:0"
