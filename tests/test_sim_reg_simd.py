"""Register-based SIMD VFs of the Ascend 950 (AscendC::Reg / its older name MicroAPI): RegTensor, MaskReg,
UpdateMask / CreateMask, VL loads and masked stores, ZEROING / MERGING register arithmetic, started with
VF_CALL<f>(args...) or asc_vf_call<f>(args...). Our own kernels in the style of RecSDK's c310 optimiser kernels
(kernels/compat/reg_simd_optim.cpp), compared with NumPy."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat/reg_simd_optim.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc="Ascend950PR_9599"), device="sim")


def _dev(a):
    return pyasc.tensor(np.ascontiguousarray(a), device="sim")


@pytest.mark.parametrize("length, blocks", [(64, 1), (200, 2), (8, 3), (136, 4)])
def test_adam_rows_match_numpy(binary, length, blocks):
    """UpdateMask walks each row one VL (64 floats) at a time: 200 = 3 full VLs + 8, 8 = a lone tail."""
    rng = np.random.default_rng(length)
    n = length * blocks
    p, m, g = (rng.standard_normal(n).astype(np.float32) for _ in range(3))
    v = rng.random(n).astype(np.float32)
    lr, b1, b2, eps = np.float32(0.01), np.float32(0.9), np.float32(0.999), np.float32(1e-8)
    outs = [pyasc.zeros((n,), dtype="float32", device="sim") for _ in range(3)]
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_adam_rows"), blocks,
                     (_dev(p), _dev(m), _dev(v), _dev(g), *outs, np.uint32(length), lr, b1, b2, eps))
    pyasc.synchronize("sim")
    f = np.float32
    m2 = (m * b1 + g * (f(1) - b1)).astype(np.float32)
    v2 = (v * b2 + (g * g) * (f(1) - b2)).astype(np.float32)
    p2 = p + (-(m2 / (np.sqrt(v2) + eps))) * lr
    np.testing.assert_allclose(outs[1].numpy(), m2, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(outs[2].numpy(), v2, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(outs[0].numpy(), p2, rtol=1e-6, atol=1e-7)
    assert not np.allclose(outs[0].numpy(), p)  # the update moved every row


@pytest.mark.parametrize("length, zcount", [(72, 64), (128, 5), (24, 0)])
def test_mask_patterns_and_merge_modes(binary, length, zcount):
    rng = np.random.default_rng(length + zcount)
    x = (rng.standard_normal(length) * 2).astype(np.float32)
    lo, hi = np.float32(-1.0), np.float32(1.5)
    y = pyasc.zeros((length,), dtype="float32", device="sim")
    z = pyasc.zeros((192,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("reg_patterns"), 1,
                     (_dev(x), y, z, np.uint32(length), np.uint32(zcount), lo, hi))
    pyasc.synchronize("sim")
    want = np.exp(np.clip(x, lo, hi)) * np.float32(2) - x
    idx = np.arange(length) % 64
    want = np.where(idx % 4 == 0, -want, want)  # M4: every 4th element of each VL, MERGING keeps the others
    want = np.where(idx < 8, np.maximum(want, x), want)  # VL8: the lowest 8 elements of each VL
    np.testing.assert_allclose(y.numpy(), want.astype(np.float32), rtol=1e-6, atol=1e-6)
    got = z.numpy().reshape(3, 64)
    xs = np.zeros(64, np.float32)
    xs[:min(zcount, 64)] = x[:min(zcount, 64)]
    on = np.arange(64) < zcount
    np.testing.assert_array_equal(got[0], np.where(on, np.abs(xs), 0))  # ZEROING outside the mask
    np.testing.assert_array_equal(got[1], np.where(on, np.maximum(xs, 0), 0))
    np.testing.assert_allclose(got[2], np.where(on, np.minimum(np.log(np.abs(xs) + 1), np.maximum(xs, 0)), 0),
                               rtol=1e-6, atol=1e-7)


def test_store_outside_ub_is_reported(tmp_path):
    """A store through a pointer that is not UB memory is `local-out-of-bounds`, as the module doc says. Built at
    -O0 on purpose: there the SIMT coverage hook of the build called std::atomic code out of line, which has a hook
    of its own, and recursed until the stack overflowed (round 33; at -O1 the call was inlined)."""
    src = tmp_path / "reg_bad_store.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        "__simd_vf__ inline void StoreVf(__ubuf__ float *dst, uint32_t count) {\n"
        "    AscendC::Reg::RegTensor<float> r;\n"
        "    AscendC::Reg::Duplicate(r, 1.0f);\n"
        "    AscendC::Reg::MaskReg m = AscendC::Reg::UpdateMask<float>(count);\n"
        "    AscendC::Reg::StoreAlign(dst, r, m);\n"
        "}\n"
        'extern "C" __global__ __aicore__ void reg_bad_store(GM_ADDR out) {\n'
        "    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);\n"
        "    asc_vf_call<StoreVf>((__gm__ float *)out, 8u);\n"
        "}\n")
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, soc="Ascend950PR_9599", opt="-O0"), device="sim").function(
        "reg_bad_store")
    out = pyasc.zeros((64,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    with pytest.raises(pyasc_acl.AclKernelError, match="local-out-of-bounds"):
        pyasc_acl.launch(fn, 1, (out,))
        pyasc.synchronize("sim")


@pytest.mark.parametrize("dtype, length, blocks", [("float32", 200, 2), ("float16", 144, 3), ("float16", 16, 1)])
def test_scaled_silu_half_and_float(binary, dtype, length, blocks):
    """UpdateMask<T> with the element type: 64 float or 128 half lanes per VL (144 half = one VL + 16)."""
    rng = np.random.default_rng(length)
    x = (rng.standard_normal(length * blocks) * 3).astype(dtype)
    alpha = np.float32(0.75)
    y = pyasc.zeros((length * blocks,), dtype=dtype, device="sim")
    pyasc.synchronize("sim")
    name = "reg_silu_f32" if dtype == "float32" else "reg_silu_f16"
    pyasc_acl.launch(binary.function(name), blocks, (_dev(x), y, np.uint32(length), alpha))
    pyasc.synchronize("sim")
    xs = x.astype(np.float32) * alpha
    if dtype == "float16":  # each instruction rounds to half, as the register holds half
        xs = xs.astype(np.float16).astype(np.float32)
        want = (xs / (np.exp(-xs).astype(np.float16).astype(np.float32) + 1).astype(np.float16).astype(np.float32))
        np.testing.assert_allclose(y.numpy().astype(np.float32), want, rtol=2e-3, atol=1e-3)
    else:
        np.testing.assert_allclose(y.numpy(), xs / (np.exp(-xs) + 1), rtol=1e-6, atol=1e-6)
