"""Issue 8 point 4 / issue 10 point 8: the high-level APIs CumSum, Pad / UnPad, AscendQuant,
AscendDequant and AscendAntiQuant as public kernels call them (SDK paths lib/math/cumsum.h,
lib/pad/pad.h, lib/quantization/ascend_*quant.h), each compared with NumPy rounding as the reference
describes; bad shapes are kernel errors naming the values; unlisted element types are refused at
compile time (dtype-table). Kernels: backends/sim/kernel_api/tests/kernels/compat/hl_quant_pad_idioms.cpp
(ours, in the public style), compiled once for the module."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from pyasc_core.errors import ArgumentError
from pyasc_sim import hl_tiling

from ascendc_kernels import ASCENDC_DIR, f32_arg, on_sim

SRC = ASCENDC_DIR / "compat" / "hl_quant_pad_idioms.cpp"
F16, F32, BF16 = np.float16, np.float32, ml_dtypes.bfloat16


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def _run(kernels, name, *args):
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, args)
    pyasc.synchronize("sim")


def _tiling(t):
    return on_sim(np.frombuffer(t.to_bytes(), dtype=np.int32).copy())


# ---- CumSum ------------------------------------------------------------------------------------------------
def test_cumsum_last_axis_half_rounds_each_partial_sum_once(kernels):
    rows, cols = 4, 64
    x = np.random.default_rng(1).uniform(-4, 4, (rows, cols)).astype(F16)
    y = pyasc.zeros((rows, cols), dtype="float16", device="sim")
    last = pyasc.zeros((cols,), dtype="float16", device="sim")
    _run(kernels, "cumsum_last_axis_half", on_sim(x), y, last, rows, cols)
    want = x.copy()
    for c in range(1, cols):  # y[:, c] = half(y[:, c - 1] + x[:, c]), one rounding per step
        want[:, c] = (want[:, c - 1].astype(np.float64) + x[:, c].astype(np.float64)).astype(F16)
    np.testing.assert_array_equal(y.numpy(), want)
    np.testing.assert_array_equal(last.numpy(), want[-1])
    # and it is a cumulative sum, not something else that rounds the same way
    np.testing.assert_allclose(want.astype(np.float64), np.cumsum(x.astype(np.float64), axis=1), atol=0.25)


def test_cumsum_first_axis_float_in_place(kernels):
    rows, cols = 6, 16
    x = np.random.default_rng(2).uniform(-1, 1, (rows, cols)).astype(F32)
    y = pyasc.zeros((rows, cols), dtype="float32", device="sim")
    _run(kernels, "cumsum_first_axis_float", on_sim(x), y, rows, cols)
    np.testing.assert_array_equal(y.numpy(), np.cumsum(x, axis=0, dtype=F32))


def test_cumsum_unaligned_inner_axis_is_a_kernel_error(kernels):
    x = pyasc.zeros((2 * 12,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("cumsum_first_axis_float"), 1, (x, x, 2, 12))
    with pytest.raises(pyasc_acl.AclKernelError, match=r"CumSum: cumSumInfo \{outter 2, inner 12\}.*multiple of 32"):
        pyasc.synchronize("sim")


# ---- Pad / UnPad -------------------------------------------------------------------------------------------
def test_pad_half_widens_unaligned_rows_to_32_bytes(kernels):
    h, w = 16, 63  # the reference's scenario 1: 63 halves -> 64, one column of padValue
    x = np.random.default_rng(3).uniform(-8, 8, (h, w)).astype(F16)
    t = hl_tiling.pad_tiling(h, w, dtype="float16")
    y = pyasc.zeros((h, 64), dtype="float16", device="sim")
    _run(kernels, "pad_half", on_sim(x), y, _tiling(t), 1, 7)
    want = np.full((h, 64), 7, F16)
    want[:, :w] = x
    np.testing.assert_array_equal(y.numpy(), want)


def test_pad_float_refills_the_redundant_columns_of_an_aligned_width(kernels):
    h, w, valid = 8, 16, 13  # scenario 2: 16 floats of which 13 are valid; the last 3 get padValue
    x = np.random.default_rng(4).uniform(-8, 8, (h, w)).astype(F32)
    t = hl_tiling.pad_tiling(h, w, valid, dtype="float32")
    y = pyasc.zeros((h, w), dtype="float32", device="sim")
    _run(kernels, "pad_float", on_sim(x), y, _tiling(t), 3, 100)
    want = np.full((h, w), 100, F32)
    want[:, :valid] = x[:, :valid]
    np.testing.assert_array_equal(y.numpy(), want)


def test_pad_with_a_right_pad_that_misses_the_alignment_is_a_kernel_error(kernels):
    t = hl_tiling.pad_tiling(16, 63, dtype="float16")
    x = pyasc.zeros((16 * 64,), dtype="float16", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("pad_half"), 1, (x, x, _tiling(t), 2, 0))
    with pytest.raises(pyasc_acl.AclKernelError, match=r"Pad: tiling \{srcHeight 16, srcWidth 63, srcOriWidth 63\}, "
                                                       r"padParams.rightPad 2.*fix: set rightPad = 1"):
        pyasc.synchronize("sim")


@pytest.mark.parametrize("name, dtype, h, w, rp", [("unpad_half", F16, 16, 32, 3), ("unpad_float", F32, 8, 16, 1)])
def test_unpad_drops_the_right_columns(kernels, name, dtype, h, w, rp):
    x = np.random.default_rng(5).uniform(-8, 8, (h, w)).astype(dtype)
    t = hl_tiling.unpad_tiling(h, w, dtype=np.dtype(dtype).name)
    y = pyasc.zeros((h, w - rp), dtype=np.dtype(dtype).name, device="sim")
    _run(kernels, name, on_sim(x), y, _tiling(t), rp)
    np.testing.assert_array_equal(y.numpy(), x[:, : w - rp])


def test_pad_tiling_helpers_refuse_bad_shapes():
    with pytest.raises(ArgumentError, match="already 32-byte aligned"):
        hl_tiling.pad_tiling(4, 16, dtype="float16")
    with pytest.raises(ArgumentError, match="ori_width \\(20\\) must not exceed width \\(16\\)"):
        hl_tiling.pad_tiling(4, 16, 20, dtype="float16")
    with pytest.raises(ArgumentError, match="must be a multiple of 32"):
        hl_tiling.unpad_tiling(4, 15, dtype="float32")
    with pytest.raises(ArgumentError, match="int8"):
        hl_tiling.unpad_tiling(4, 32, dtype="int8")
    assert len(hl_tiling.pad_tiling(2, 63).to_bytes()) == 26 * 4
    assert len(hl_tiling.unpad_tiling(2, 64).to_bytes()) == 8 * 4


# ---- AscendQuant -------------------------------------------------------------------------------------------
def _quant_ref(x, scale, offset):
    """half pipeline: x, scale, offset to half; x * scale and + offset rounded to half; half-to-even to int8."""
    xs = x.astype(F16).astype(np.float64)
    prod = (xs * np.asarray(scale, F16).astype(np.float64)).astype(F16).astype(np.float64)
    v = (prod + np.asarray(offset, F16).astype(np.float64)).astype(F16).astype(np.float64)
    return np.clip(np.rint(v), -128, 127).astype(np.int8)


def test_quant_per_tensor_half_rounds_half_to_even_and_saturates(kernels):
    n = 256
    x = np.random.default_rng(6).uniform(-40, 40, n).astype(F16)
    x[:8] = [0.25, 0.75, 1.25, -0.25, -1.25, 100, -100, 3.25]  # x * 2 ties go to even; out of range saturates
    y = pyasc.zeros((n,), dtype="int8", device="sim")
    _run(kernels, "quant_per_tensor_half", on_sim(x), y, n, f32_arg(2.0), f32_arg(0.0))
    got = y.numpy()
    np.testing.assert_array_equal(got, _quant_ref(x, 2.0, 0.0))
    np.testing.assert_array_equal(got[:8], [0, 2, 2, 0, -2, 127, -128, 6])


def test_quant_per_channel_float(kernels):
    m, n = 4, 64
    rng = np.random.default_rng(7)
    x = rng.uniform(-3, 3, (m, n)).astype(F32)
    scale = rng.uniform(0.5, 20, n).astype(F32)
    offset = rng.uniform(-5, 5, n).astype(F32)
    y = pyasc.zeros((m, n), dtype="int8", device="sim")
    _run(kernels, "quant_per_channel_float", on_sim(x), on_sim(scale), on_sim(offset), y, m, n)
    np.testing.assert_array_equal(y.numpy(), _quant_ref(x, scale[None, :], offset[None, :]))


# ---- AscendDequant -----------------------------------------------------------------------------------------
def test_dequant_uint64_scale_to_half_rows(kernels):
    m, n, cal = 4, 8, 6
    rng = np.random.default_rng(8)
    x = rng.integers(-5000, 5000, (m, n)).astype(np.int32)
    scale = rng.uniform(0.001, 0.1, n).astype(F32)
    deq = scale.view(np.uint32).astype(np.int64)  # the float's bits in the low 32 bits of each uint64
    y = pyasc.zeros((m, 16), dtype="float16", device="sim")  # 8 halves padded to 32 bytes: 16 per row
    _run(kernels, "dequant_u64_half", on_sim(x), on_sim(deq), y, m, n, cal)
    got = y.numpy()
    np.testing.assert_array_equal(got[:, :cal], (x[:, :cal].astype(F32) * scale[None, :cal]).astype(F16))
    assert not got[:, cal:].any()  # columns past calCount are left as they were


def test_dequant_scalar_scale_to_bfloat16_single_row_mode(kernels):
    # {1, 32, 16} with DEQUANT_WITH_SINGLE_ROW: 16 is a multiple of 32 / sizeof(bf16) and divides 32,
    # so it runs as {2, 16, 16}
    x = np.random.default_rng(9).integers(-(2 ** 20), 2 ** 20, 32).astype(np.int32)
    y = pyasc.zeros((32,), dtype="bfloat16", device="sim")
    _run(kernels, "dequant_scalar_bf16", on_sim(x), y, 1, 32, 16, f32_arg(0.37))
    np.testing.assert_array_equal(y.numpy(), (x.astype(F32) * F32(0.37)).astype(BF16))


def test_dequant_count_form_recycles_the_scales(kernels):
    count, k = 64, 8
    rng = np.random.default_rng(10)
    x = rng.integers(-(2 ** 30), 2 ** 30, count).astype(np.int32)  # int32 -> float rounds (RINT)
    scale = rng.uniform(-2, 2, k).astype(F32)
    y = pyasc.zeros((count,), dtype="float32", device="sim")
    _run(kernels, "dequant_count_float", on_sim(x), on_sim(scale), y, count, k)
    np.testing.assert_array_equal(y.numpy(), x.astype(F32) * np.tile(scale, count // k))


def test_dequant_count_not_a_multiple_of_the_scales_is_a_kernel_error(kernels):
    x = pyasc.zeros((64,), dtype="int32", device="sim")
    s = pyasc.zeros((24,), dtype="float32", device="sim")
    y = pyasc.zeros((64,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("dequant_count_float"), 1, (x, s, y, 64, 24))
    with pytest.raises(pyasc_acl.AclKernelError, match="AscendDequant: calCount 64 .* multiple of deqScale's 24"):
        pyasc.synchronize("sim")


# ---- AscendAntiQuant ---------------------------------------------------------------------------------------
def test_antiquant_per_channel_half_groups_rows(kernels):
    K, N, groups = 4, 64, 2
    rng = np.random.default_rng(11)
    x = rng.integers(-128, 128, (K, N)).astype(np.int8)
    off = rng.uniform(-3, 3, (groups, N)).astype(F16)
    sc = rng.uniform(-0.2, 0.2, (groups, N)).astype(F16)
    y = pyasc.zeros((K, N), dtype="float16", device="sim")
    _run(kernels, "antiquant_channel_half", on_sim(x), on_sim(off), on_sim(sc), y, K, N, groups)
    g = np.arange(K) // (K // groups)
    added = (x.astype(np.float64) + off[g].astype(np.float64)).astype(F16)
    want = (added.astype(np.float64) * sc[g].astype(np.float64)).astype(F16)
    np.testing.assert_array_equal(y.numpy(), want)


def test_antiquant_transposed_bfloat16_computes_in_float(kernels):
    K, N, groups = 64, 8, 2
    rng = np.random.default_rng(12)
    x = rng.integers(-128, 128, (N, K)).astype(np.int8)
    off = rng.uniform(-3, 3, (N, groups)).astype(BF16)
    sc = rng.uniform(-0.2, 0.2, (N, groups)).astype(BF16)
    y = pyasc.zeros((N, K), dtype="bfloat16", device="sim")
    _run(kernels, "antiquant_transposed_bf16", on_sim(x), on_sim(off), on_sim(sc), y, K, N, groups)
    g = np.arange(K) // (K // groups)
    want = ((x.astype(F32) + off[:, g].astype(F32)) * sc[:, g].astype(F32)).astype(BF16)
    np.testing.assert_array_equal(y.numpy(), want)


def test_antiquant_per_tensor_half(kernels):
    n = 256
    x = np.arange(-128, 128, dtype=np.int8)
    y = pyasc.zeros((n,), dtype="float16", device="sim")
    _run(kernels, "antiquant_tensor_half", on_sim(x), y, n, f32_arg(1.5), f32_arg(0.1))
    o, s = F16(1.5), F16(0.1)
    want = ((x.astype(np.float64) + np.float64(o)).astype(F16).astype(np.float64) * np.float64(s)).astype(F16)
    np.testing.assert_array_equal(y.numpy(), want)


# ---- dtype tables: unlisted element types are refused at compile time -----------------------------------------
REFUSED = """#include "kernel_operator.h"
#include "lib/math/cumsum.h"
#include "lib/pad/pad.h"
#include "lib/quantization/ascend_quant.h"
#include "lib/quantization/ascend_dequant.h"
#include "lib/quantization/ascend_antiquant.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void refused(GM_ADDR x) {
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    LocalTensor<int32_t> i32 = buf.Get<int32_t>(64);
    LocalTensor<int8_t> i8 = buf.Get<int8_t>(256);
    LocalTensor<float> f32 = buf.Get<float>(64);
    LocalTensor<half> f16 = buf.Get<half>(64);
    CumSum<int32_t>(i32, i32, i32, CumSumInfo{1, 64});
    PadParams pp; PadTiling pt; Pad(i8, i8, pp, pt);
    AscendQuant<int32_t>(i8, i32, 1.0f, 0.0f, 64);
    AscendDequant<int8_t, float>(i8, i32, f32, 64);
    AscendAntiQuant<int8_t, float, false>(f32, i8, 1.0f, 2.0f, 4);
    AscendAntiQuant<half, half, false>(f16, f16, half(1), half(2), 4);
}
"""


def test_unlisted_element_types_are_refused_at_compile_time(tmp_path):
    src = tmp_path / "refused.cpp"
    src.write_text(REFUSED)
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(src, opt="-O0")
    out = ei.value.output
    for api, listed in [("AscendC::CumSum is not documented", "listed types: half, float"),
                        ("AscendC::Pad is not documented", "listed types: int16_t, uint16_t, half, int32_t, uint32_t, float"),
                        ("AscendC::AscendQuant is not documented", "listed types: half, float"),
                        ("AscendC::AscendDequant (dstT, the dst element type) is not documented",
                         "listed types: half, float, bfloat16_t"),
                        ("AscendC::AscendAntiQuant (OutputDataType) is not documented", "listed types: half, bfloat16_t"),
                        ("AscendC::AscendAntiQuant (InputDataType) is not documented", "listed types: int8_t")]:
        assert api in out, api
        assert listed in out, listed
    assert "pyasc dtype-table" in out and "Atlas A2" in out


def test_the_inference_series_refuses_bfloat16_antiquant(tmp_path):
    src = tmp_path / "antiquant_bf16_310p.cpp"
    src.write_text('#include "kernel_operator.h"\n#include "lib/quantization/ascend_antiquant.h"\n'
                   'using namespace AscendC;\n'
                   'extern "C" __global__ __aicore__ void aq(GM_ADDR x) {\n'
                   '    TPipe pipe; TBuf<TPosition::VECCALC> buf; pipe.InitBuffer(buf, 4096);\n'
                   '    LocalTensor<int8_t> i8 = buf.Get<int8_t>(256);\n'
                   '    LocalTensor<bfloat16_t> bf = buf.Get<bfloat16_t>(256);\n'
                   '    AscendAntiQuant<int8_t, bfloat16_t, false>(bf, i8, bfloat16_t(1.0f), bfloat16_t(2.0f), 4);\n'
                   '}\n')
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(src, opt="-O0", soc="Ascend310P3")
    out = ei.value.output
    assert "AscendC::AscendAntiQuant (OutputDataType) is not documented" in out
    assert "Atlas inference series" in out and "listed types: half" in out


# The Ascend 950 and Atlas inference-series rows (round 13): one refusal probe per SoC, each compiled once.
_HEAD = ('#include "kernel_operator.h"\n#include "lib/math/cumsum.h"\n#include "lib/pad/pad.h"\n'
         '#include "lib/quantization/ascend_quant.h"\n#include "lib/quantization/ascend_dequant.h"\n'
         '#include "lib/quantization/ascend_antiquant.h"\nusing namespace AscendC;\n'
         'extern "C" __global__ __aicore__ void probe(GM_ADDR x) {\n'
         '    TPipe pipe; TBuf<TPosition::VECCALC> buf; pipe.InitBuffer(buf, 8192);\n'
         '    LocalTensor<int32_t> i32 = buf.Get<int32_t>(64); LocalTensor<int8_t> i8 = buf.Get<int8_t>(256);\n'
         '    LocalTensor<float> f32 = buf.Get<float>(64); LocalTensor<half> f16 = buf.Get<half>(64);\n'
         '    LocalTensor<bfloat16_t> bf = buf.Get<bfloat16_t>(64); LocalTensor<uint64_t> u64 = buf.Get<uint64_t>(8);\n')


def test_the_950_rows_refuse_unlisted_types(tmp_path):
    src = tmp_path / "refused_950.cpp"
    src.write_text(_HEAD + '    CumSum<int32_t>(i32, i32, i32, CumSumInfo{1, 64});\n'
                   '    UnPadParams up; UnPadTiling ut; UnPad(i8, i8, up, ut);\n'
                   '    AscendQuant<int32_t>(i8, i32, 1.0f, 0.0f, 64);\n'
                   '    AscendDequant<int8_t, float>(i8, i32, f32, 64);\n'
                   '    AscendDequant<half, half>(f16, i32, half(1), DequantParams{1, 8, 8});\n'
                   '    AscendAntiQuant<int8_t, float, false>(f32, i8, 1.0f, 2.0f, 4);\n}\n')
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(src, opt="-O0", soc="Ascend950PR_9599")
    out = ei.value.output
    for api, listed in [("AscendC::CumSum is not documented", "listed types: half, float"),
                        ("AscendC::UnPad is not documented", "listed types: int16_t, uint16_t, half, int32_t, uint32_t, float"),
                        ("AscendC::AscendQuant is not documented", "listed types: half, float"),
                        ("AscendC::AscendDequant (dstT, the dst element type) is not documented",
                         "listed types: half, bfloat16_t, float"),
                        ("AscendC::AscendDequant (scaleT of a scalar deqScale) is not documented",
                         "listed types: bfloat16_t, float"),
                        ("AscendC::AscendAntiQuant (OutputDataType) is not documented", "listed types: half, bfloat16_t")]:
        assert api in out, api
        assert listed in out, listed
    assert "Ascend 950" in out


def test_the_inference_series_dequant_rows(tmp_path):
    # listed there: dstT half / float, a uint64_t / float deqScale tensor, a float scalar
    ok = tmp_path / "dequant_310p_ok.cpp"
    ok.write_text(_HEAD + '    AscendDequant<half, uint64_t>(f16, i32, u64, DequantParams{1, 8, 8});\n'
                  '    AscendDequant<float, float>(f32, i32, 2.0f, DequantParams{1, 8, 8});\n}\n')
    pyasc_sim.compile(ok, opt="-O0", soc="Ascend310P3")
    bad = tmp_path / "dequant_310p_bad.cpp"
    bad.write_text(_HEAD + '    AscendDequant<bfloat16_t, float>(bf, i32, f32, DequantParams{1, 8, 8});\n'
                   '    AscendDequant<float, bfloat16_t>(f32, i32, bfloat16_t(1.0f), DequantParams{1, 8, 8});\n}\n')
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(bad, opt="-O0", soc="Ascend310P3")
    out = ei.value.output
    assert "AscendC::AscendDequant (dstT, the dst element type) is not documented" in out
    assert "listed types: half, float" in out
    assert "AscendC::AscendDequant (scaleT of a scalar deqScale) is not documented" in out
    assert "Atlas inference series" in out
