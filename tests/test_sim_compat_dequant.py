"""The DEQSCALE and CmpMask registers and the converting arithmetic (issue 8 point 6, the rest of the
documented basic vector API): SetDeqScale with CastDeq / CastDequant (per tensor and per 16-set
vector, halfBlock placement, int32 -> half) and AddDeqRelu; AddReluCast, SubReluCast, MulCast;
Compare without dst, GetCmpMask, SetCmpMask and Select without a mask; GetAccVal /
GetReduceRepeatSumSpr -- run on the simulator against NumPy, with the register misuse the sanitizer
reports and the per-SoC type pairs the compile step refuses.
Kernels: backends/sim/kernel_api/tests/kernels/compat/dequant_cmpmask.cpp (ours, in the public style)."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim

from ascendc_kernels import ASCENDC_DIR, f32_arg, on_sim

SRC = ASCENDC_DIR / "compat" / "dequant_cmpmask.cpp"
N = 256


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def _run(fn, args, blocks=1):
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, blocks, args)
    pyasc.synchronize("sim")


def _sat_rint(x, lo, hi):
    return np.clip(np.rint(x), lo, hi)


def test_relu_cast_and_mul_cast_round_to_nearest_even_and_saturate(kernels):
    rng = np.random.default_rng(11)
    a = (rng.integers(-400, 400, N) / 4).astype(np.float16)  # quarters: sums and products tie often
    b = (rng.integers(-400, 400, N) / 4).astype(np.float16)
    c = rng.uniform(-50, 50, N).astype(np.float32)
    d = rng.uniform(-50, 50, N).astype(np.float32)
    c[:4] = [1e6, 70000.0, 65519.0, 2.5]  # past half's range: saturates to 65504
    d[:4] = [0.0, 0.0, 0.0, 0.0]
    y_add = pyasc.zeros((N,), dtype="int8", device="sim")
    y_sub = pyasc.zeros((N,), dtype="float16", device="sim")
    y_mul = pyasc.zeros((N,), dtype="uint8", device="sim")
    _run(kernels.function("relu_mul_cast"), (on_sim(a), on_sim(b), on_sim(c), on_sim(d), y_add, y_sub, y_mul))
    s = np.maximum((a + b).astype(np.float32), 0)  # the sum in half, then relu
    np.testing.assert_array_equal(y_add.numpy(), _sat_rint(s, -128, 127).astype(np.int8))
    r = np.maximum(c - d, 0).astype(np.float64)
    want_sub = np.clip(r, -65504, 65504).astype(np.float16)
    np.testing.assert_array_equal(y_sub.numpy(), want_sub)
    assert y_sub.numpy()[0] == np.float16(65504) and y_sub.numpy()[1] == np.float16(65504)
    p = (a * b).astype(np.float32)  # the product in half
    np.testing.assert_array_equal(y_mul.numpy(), _sat_rint(p, 0, 255).astype(np.uint8))


def _scale_1_8_10(s: float) -> np.float64:
    """The float scale as the hardware reads it: sign, 8 exponent and 10 mantissa bits."""
    bits = np.array([s], dtype=np.float32).view(np.uint32) & np.uint32(0xFFFFE000)
    return np.float64(bits.view(np.float32)[0])


def _placed(values: np.ndarray, fill: int, upper: bool, dtype) -> np.ndarray:
    out = np.full(2 * values.size, fill, dtype=dtype)
    i = np.arange(values.size)
    out[(i // 16) * 32 + (16 if upper else 0) + i % 16] = values
    return out


@pytest.mark.parametrize("scale, offset", [(0.5, 3), (0.75, -5), (1.0 / 3.0, 0)])
def test_cast_deq_per_tensor_places_results_in_the_half_block_it_is_told(kernels, scale, offset):
    x = np.random.default_rng(12).integers(-400, 400, N).astype(np.int16)
    y = on_sim(np.full(2 * N, 85, dtype=np.int8))
    y2 = on_sim(np.full(2 * N, -7, dtype=np.int8))
    _run(kernels.function("cast_deq_tensor"), (on_sim(x), y, y2, f32_arg(scale), offset))
    v = _sat_rint(x.astype(np.float64) * _scale_1_8_10(scale) + offset, -128, 127).astype(np.int8)
    np.testing.assert_array_equal(y.numpy(), _placed(v, 85, True, np.int8))
    np.testing.assert_array_equal(y2.numpy(), _placed(v, -7, False, np.int8))


def test_cast_dequant_vector_mode_uses_set_i_mod_16_of_the_vdeq_tensor(kernels):
    x = np.random.default_rng(13).integers(-50, 400, N).astype(np.int16)
    scales = (np.arange(16) + 1).astype(np.float32) * np.float32(0.25)
    offsets = (np.arange(16) - 8).astype(np.int32)
    y = on_sim(np.full(2 * N, 200, dtype=np.uint8))
    _run(kernels.function("cast_deq_vector"), (on_sim(x), y, on_sim(scales), on_sim(offsets)))
    j = np.arange(N) % 16
    v = _sat_rint(x.astype(np.float64) * scales[j] + offsets[j], 0, 255).astype(np.uint8)
    np.testing.assert_array_equal(y.numpy(), _placed(v, 200, True, np.uint8))


def test_int32_to_half_dequant_and_add_deq_relu_use_the_half_scale(kernels):
    rng = np.random.default_rng(14)
    a = rng.integers(-5000, 5000, N).astype(np.int32)
    b = rng.integers(-5000, 5000, N).astype(np.int32)
    yc = pyasc.zeros((N,), dtype="float16", device="sim")
    yr = pyasc.zeros((N,), dtype="float16", device="sim")
    _run(kernels.function("deq_s32"), (on_sim(a), on_sim(b), yc, yr, f32_arg(0.1)))
    sc = np.float64(np.float16(0.1))
    np.testing.assert_array_equal(yc.numpy(), (a * sc).astype(np.float16))
    np.testing.assert_array_equal(yr.numpy(), np.maximum(((a.astype(np.int64) + b) * sc).astype(np.float16), 0))


def test_compare_register_get_cmp_mask_and_the_select_forms_without_a_mask(kernels):
    rng = np.random.default_rng(15)
    a = rng.uniform(-10, 10, 64).astype(np.float32)
    b = rng.uniform(-10, 10, 64).astype(np.float32)
    sel = rng.integers(0, 256, 32).astype(np.uint8)
    bits = on_sim(np.full(32, 0xEE, dtype=np.uint8))
    y = pyasc.zeros((64,), dtype="float32", device="sim")
    z = pyasc.zeros((64,), dtype="float32", device="sim")
    w = pyasc.zeros((64,), dtype="float32", device="sim")
    _run(kernels.function("cmp_select"), (on_sim(a), on_sim(b), on_sim(sel), bits, y, z, w))
    want_bits = np.zeros(16, dtype=np.uint8)
    want_bits[:8] = np.packbits(a < b, bitorder="little")
    np.testing.assert_array_equal(bits.numpy()[:16], want_bits)
    np.testing.assert_array_equal(y.numpy(), np.where(a < b, a, b))
    sel_bits = np.unpackbits(sel[:8], bitorder="little").astype(bool)
    np.testing.assert_array_equal(z.numpy(), np.where(sel_bits, a, np.float32(1.5)))
    np.testing.assert_array_equal(w.numpy(), np.where(sel_bits, a, b))


def test_get_acc_val_returns_the_last_reduce_sum(kernels):
    x = np.random.default_rng(16).uniform(-1, 1, N).astype(np.float32)
    y = pyasc.zeros((8,), dtype="float32", device="sim")
    _run(kernels.function("acc_val"), (on_sim(x), y, 200))
    np.testing.assert_allclose(y.numpy()[:2], [x[:200].sum()] * 2, rtol=1e-5)
    assert y.numpy()[0] == y.numpy()[1]


@pytest.mark.parametrize("which, check, words", [
    (0, "deq-scale", "was last set by nothing"),
    (1, "deq-scale", "signMode is false but dst is int8_t"),
    (2, "vector-register", "GetCmpMask reads the CmpMask register"),
    (3, "vector-register", "GetAccVal reads the ReduceSum result register"),
    (4, "local-out-of-bounds", "which is not the address of 8 bytes in this block's UB"),
])
def test_register_misuse_is_reported_with_its_line(kernels, which, check, words):
    x = on_sim(np.zeros(N, dtype=np.int16))
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("register_misuse"), 1, (x, which))
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        pyasc.synchronize("sim")
    msg = str(info.value)
    assert f"sanitizer check '{check}' failed" in msg and "dequant_cmpmask.cpp" in msg, msg
    assert words in msg, msg


_PAIR_KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void bad_pairs(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4096);
    LocalTensor<float> f = b.Get<float>();
    LocalTensor<int8_t> i8 = b.Get<int8_t>();
    LocalTensor<half> h = b.Get<half>();
    LocalTensor<int32_t> i32 = b.Get<int32_t>();
    %s
}
"""


@pytest.mark.parametrize("soc, call, refused", [
    ("Ascend910B1", "AddReluCast(i8, f, f, 64);", "AscendC::AddReluCast: this (dst, src) type pair"),
    ("Ascend910B1", "MulCast(i8, f, f, 64);", "AscendC::MulCast: this (dst, src) type pair"),
    ("Ascend310P3", "SetDeqScale(half(1.0f)); CastDequant<half, int32_t>(h, i32, 64);",
     "AscendC::CastDequant: this (dst, src) type pair"),
    ("Ascend310P3", "ReduceSum<float>(f, f, f, 64); (void)GetAccVal<float>();",
     "GetAccVal / GetReduceRepeatSumSpr is not documented for the Atlas inference series"),
])
def test_undocumented_type_pairs_and_socs_fail_to_compile(tmp_path, soc, call, refused):
    src = tmp_path / "bad_pairs.cpp"
    src.write_text(textwrap.dedent(_PAIR_KERNEL % call))
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(src, opt="-O0", soc=soc)
    assert refused in info.value.output, info.value.output[-2000:]
