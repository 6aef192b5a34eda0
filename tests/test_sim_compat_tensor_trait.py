"""TensorTrait tensors on the simulator (reference pages TensorTrait简介, MakeTensorTrait, Layout简介,
LocalTensor构造函数): LocalTensor<TensorTrait<T, pos, Layout>>(addr) static tensors with the documented
alignment / bounds rules, TensorTrait tensors from a TQue / TBuf, GlobalTensor<TensorTrait<T>>, and the
APIs taking them all-TensorTrait. The kernels are our own (kernels/compat/tensor_trait_idioms.cpp)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "tensor_trait_idioms.cpp"
UB_BYTES = 196608  # Ascend910B1 (the default SoC profile)


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def test_static_trait_tensors_match_numpy(kernels):
    blocks, n = 3, 256
    x = np.random.default_rng(61).uniform(-8, 8, blocks * n).astype(np.float32)
    y = pyasc.zeros((blocks * n,), dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("trait_axpb"), blocks, (pyasc.tensor(x, device="sim"), y, 1.5, -2.0))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x * np.float32(1.5) - np.float32(2.0))


def test_queue_trait_tensors_match_numpy(kernels):
    blocks, n = 2, 128
    rng = np.random.default_rng(62)
    x = rng.uniform(-2, 2, blocks * n).astype(np.float16)
    yv = rng.uniform(-2, 2, blocks * n).astype(np.float16)
    z = pyasc.zeros((blocks * n,), dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("trait_queue"), blocks,
                     (pyasc.tensor(x, device="sim"), pyasc.tensor(yv, device="sim"), z, n))
    pyasc.synchronize("sim")
    want = (np.exp(x.astype(np.float32)).astype(np.float16) + yv).astype(np.float32)
    np.testing.assert_allclose(z.numpy(), want, rtol=2e-3, atol=2e-3)


def test_static_trait_tensor_at_the_end_of_the_ub_and_its_layout(kernels):
    y = pyasc.zeros((64,), dtype="float32", device="sim")
    meta = pyasc.zeros((2,), dtype="int32", device="sim")
    pyasc_acl.launch(kernels.function("trait_at"), 1, (y, meta, UB_BYTES - 256))  # the last 256 bytes
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), np.full(64, 3.0, dtype=np.float32))
    # shape 64 from Std::get<0>(GetLayout().GetShape()); stride 1 + 100 for is_tensorTrait<CalcTrait>
    np.testing.assert_array_equal(meta.numpy(), np.array([64, 101], dtype=np.int32))


@pytest.mark.parametrize(("addr", "check", "detail"), [
    (16, "ub-alignment", "addr 16\\): addr must be 32-byte aligned"),
    (UB_BYTES - 128, "local-out-of-bounds",
     f"addr {UB_BYTES - 128}\\): 64 elements of 4 bytes end at byte {UB_BYTES + 128}, past the {UB_BYTES}-byte UB"),
    (UB_BYTES, "local-out-of-bounds", f"addr {UB_BYTES}\\): 64 elements"),
])
def test_static_trait_tensor_outside_the_rules_is_reported(kernels, addr, check, detail):
    y = pyasc.zeros((64,), dtype="float32", device="sim")
    meta = pyasc.zeros((2,), dtype="int32", device="sim")
    pyasc_acl.launch(kernels.function("trait_at"), 1, (y, meta, addr))
    with pytest.raises(pyasc_acl.AclKernelError,
                       match=f"'{check}' failed at .*tensor_trait_idioms.cpp:\\d+: "
                             f"LocalTensor<TensorTrait<T, VECCALC>>\\({detail}"):
        pyasc.synchronize("sim")


def test_mixing_trait_and_plain_tensors_does_not_compile(tmp_path):
    """One API call takes TensorTrait tensors only or plain tensors only (the reference's constraint)."""
    src = tmp_path / "mixed.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        "using namespace AscendC;\n"
        'extern "C" __global__ __aicore__ void mixed(GM_ADDR x) {\n'
        "    GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float *)x, 64);\n"
        "    LocalTensor<TensorTrait<float, TPosition::VECIN, Layout<Shape<Std::integral_constant<uint32_t, 64>>,\n"
        "        Stride<Std::integral_constant<uint32_t, 1>>>>> t(0);\n"
        "    DataCopy(t, g, 64);\n"
        "}\n")
    with pytest.raises(pyasc.PyascError, match="DataCopy"):
        pyasc_sim.compile(src, opt="-O0")
