"""Issue 8 point 9: host tiling helpers of the high-level APIs. The sharedTmpBuffer helpers of
CumSum, AscendQuant, AscendDequant and AscendAntiQuant (GetXxxMaxMinTmpSize / GetXxxTmpBufferFactorSize)
in C++ (tiling/tiling_api.h, run inside a kernel as an op's TilingFunc runs them) and Python
(pyasc_sim.hl_tiling_tmp) report the same sizes; a buffer of the reported minimum works (the API then
works chunk by chunk and still matches NumPy), one byte less is refused by the API naming both sizes.
ConfusionTranspose's NZ scenarios 1-6 match NumPy with a tiling from the C++ or the Python
GetConfusionTransposeTilingInfo. Kernels:
backends/sim/kernel_api/tests/kernels/compat/hl_host_tiling_idioms.cpp, compiled once for the module."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from pyasc_core.errors import ArgumentError, PyascError
from pyasc_sim import hl_tiling_norm
from pyasc_sim import hl_tiling_tmp as tmp

from ascendc_kernels import ASCENDC_DIR, on_sim

SRC = ASCENDC_DIR / "compat" / "hl_host_tiling_idioms.cpp"
F16, F32, BF16 = np.float16, np.float32, ml_dtypes.bfloat16


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def _run(kernels, name, *args):
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, args)
    pyasc.synchronize("sim")


def _refused(kernels, name, *args, api, have, need):
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, args)
    with pytest.raises(pyasc_acl.AclKernelError) as ei:
        pyasc.synchronize("sim")
    msg = str(ei.value)
    assert "local-out-of-bounds" in msg, msg
    assert f"{api}: sharedTmpBuffer holds {have} bytes, less than the {need} bytes" in msg, msg
    assert f"Get{api}MaxMinTmpSize" in msg, msg


def test_cpp_and_python_helpers_report_the_same_sizes(kernels):
    out = pyasc.zeros((32,), dtype="int32", device="sim")
    _run(kernels, "tmp_sizes", out)
    got = [int(v) for v in out.numpy()]
    want = [*tmp.get_cumsum_max_min_tmp_size((8, 64), 2, True),
            *tmp.get_cumsum_max_min_tmp_size((8, 64), 4, False, True),
            *tmp.get_ascend_quant_max_min_tmp_size((1024,), 2),
            *tmp.get_ascend_quant_max_min_tmp_size((2, 40), 4),
            *tmp.get_ascend_dequant_max_min_tmp_size((2, 1024), 4),
            *tmp.get_ascend_antiquant_max_min_tmp_size((64, 512), (1, 512), False, "int8", "bfloat16"),
            *tmp.get_ascend_antiquant_max_min_tmp_size((100,), (1,), True, "int8", "float16"),
            *tmp.get_ascend_quant_tmp_buffer_factor_size(),
            *tmp.get_ascend_dequant_tmp_buffer_factor_size((2, 1024)),
            *tmp.get_ascend_antiquant_tmp_buffer_factor_size((64, 512), (1, 512), False, "int8", "bfloat16"),
            0, 0]  # a CumSum row of 60 halves is not 32-byte aligned: refused, 0 / 0
    assert got[:len(want)] == want
    # the figures themselves: one 32-byte block .. all partial sums (the running row along the first axis);
    # 256 source bytes .. the whole shape
    assert want[:4] == [8 * 64 * 2, 32, 64 * 4, 32]
    assert want[4:8] == [2048, 256, 320, 256]
    assert want[8:14] == [8192, 256, 64 * 512 * 4, 256 * 4, 224, 224]
    assert want[14:20] == [1, 0, 1, 0, 4, 0]


def test_python_helpers_refuse_bad_arguments():
    with pytest.raises(ArgumentError, match=r"2-D src_shape"):
        tmp.get_cumsum_max_min_tmp_size((8, 4, 64), 2)
    with pytest.raises(ArgumentError, match=r"inner \* type_size = 120 bytes must be a multiple of 32"):
        tmp.get_cumsum_max_min_tmp_size((8, 60), 2)
    with pytest.raises(ArgumentError, match="type_size must be 2"):
        tmp.get_ascend_quant_max_min_tmp_size((64,), 1)
    with pytest.raises(ArgumentError, match="type_size must be 4"):
        tmp.get_ascend_dequant_max_min_tmp_size((64,), 2)
    with pytest.raises(ArgumentError, match="output_dtype must be"):
        tmp.get_ascend_antiquant_max_min_tmp_size((64,), (1,), False, "int8", "float32")
    with pytest.raises(PyascError, match="positive ints"):
        tmp.get_ascend_quant_max_min_tmp_size((0, 64), 2)


@pytest.mark.parametrize("last_axis", [1, 0])
def test_cumsum_with_the_minimum_buffer_works_and_one_byte_less_is_refused(kernels, last_axis):
    rows, cols = 6, 32
    x = np.random.default_rng(7).uniform(-4, 4, (rows, cols)).astype(F16)
    mx, mn = tmp.get_cumsum_max_min_tmp_size((rows, cols), 2, bool(last_axis))
    want = x.copy()
    axis = 1 if last_axis else 0
    for c in range(1, want.shape[axis]):  # one half rounding per step, as the API adds
        if axis:
            want[:, c] = (want[:, c - 1].astype(np.float64) + x[:, c].astype(np.float64)).astype(F16)
        else:
            want[c] = (want[c - 1].astype(np.float64) + x[c].astype(np.float64)).astype(F16)
    for size in (mn, mx, 96):  # one block per chunk, one pass, and chunks that straddle the rows
        y = pyasc.zeros((rows, cols), dtype="float16", device="sim")
        last = pyasc.zeros((cols,), dtype="float16", device="sim")
        _run(kernels, "cumsum_tmp_half", on_sim(x), y, last, rows, cols, last_axis, size)
        np.testing.assert_array_equal(y.numpy(), want)
        np.testing.assert_array_equal(last.numpy(), want[-1])
    y = pyasc.zeros((rows, cols), dtype="float16", device="sim")
    _refused(kernels, "cumsum_tmp_half", on_sim(x), y, y, rows, cols, last_axis, mn - 1,
             api="CumSum", have=mn - 1, need=mn)


def test_quant_with_the_minimum_buffer_works_and_one_byte_less_is_refused(kernels):
    count, scale, offset = 224, 3.5, -1.25
    x = np.random.default_rng(8).uniform(-30, 30, count).astype(F32)
    mx, mn = tmp.get_ascend_quant_max_min_tmp_size((count,), 4)
    assert (mx, mn) == (896, 256)  # 64 floats a chunk at the minimum
    h = x.astype(F16)
    step = (h.astype(np.float64) * F16(scale)).astype(F16)
    want = np.clip(np.rint((step.astype(np.float64) + F16(offset)).astype(F16).astype(np.float64)), -128, 127)
    for size in (mn, mx):
        y = pyasc.zeros((count,), dtype="int8", device="sim")
        _run(kernels, "quant_tmp_float", on_sim(x), y, count, scale, offset, size)
        np.testing.assert_array_equal(y.numpy(), want.astype(np.int8))
    y = pyasc.zeros((count,), dtype="int8", device="sim")
    _refused(kernels, "quant_tmp_float", on_sim(x), y, count, scale, offset, mn - 1,
             api="AscendQuant", have=mn - 1, need=mn)


def test_dequant_with_the_minimum_buffer_works_and_one_byte_less_is_refused(kernels):
    m, n, scale = 3, 40, 0.37
    x = np.random.default_rng(9).integers(-5000, 5000, (m, n)).astype(np.int32)
    mx, mn = tmp.get_ascend_dequant_max_min_tmp_size((m, n), 4)
    assert (mx, mn) == (480, 256)
    want = x.astype(F32) * F32(scale)
    for size in (mn, mx):
        y = pyasc.zeros((m, n), dtype="float32", device="sim")
        _run(kernels, "dequant_tmp_float", on_sim(x), y, m, n, scale, size)
        np.testing.assert_array_equal(y.numpy(), want)
    y = pyasc.zeros((m, n), dtype="float32", device="sim")
    _refused(kernels, "dequant_tmp_float", on_sim(x), y, m, n, scale, mn - 1, api="AscendDequant", have=mn - 1,
             need=mn)


def test_antiquant_with_the_minimum_buffer_works_and_one_byte_less_is_refused(kernels):
    count, offset, scale = 512, 3.0, 0.125
    x = np.random.default_rng(10).integers(-128, 128, count).astype(np.int8)
    mx, mn = tmp.get_ascend_antiquant_max_min_tmp_size((count,), (1,), False, "int8", "bfloat16")
    assert (mx, mn) == (2048, 1024)  # 256 int8 elements a chunk, staged as float
    want = ((x.astype(F32) + F32(offset)) * F32(scale)).astype(BF16)
    for size in (mn, mx):
        y = pyasc.zeros((count,), dtype="bfloat16", device="sim")
        _run(kernels, "antiquant_tmp_bf16", on_sim(x), y, count, offset, scale, size)
        np.testing.assert_array_equal(y.numpy(), want)
    y = pyasc.zeros((count,), dtype="bfloat16", device="sim")
    _refused(kernels, "antiquant_tmp_bf16", on_sim(x), y, count, offset, scale, mn - 1, api="AscendAntiQuant",
             have=mn - 1, need=mn)


# ---- ConfusionTranspose NZ scenarios 1-6 ----------------------------------------------------------------------
def _nz(mat):
    """The reference's NZ layout of a [rows, cols] matrix: [ceil(cols/16), rows/16, 16, 16] fractals, the
    padding columns zero (the kernel's output buffer starts zeroed and the API leaves them)."""
    rows, cols = mat.shape
    c16 = -(-cols // 16) * 16
    m = np.zeros((rows, c16), mat.dtype)
    m[:, :cols] = mat
    return m.reshape(rows, c16 // 16, 16).transpose(1, 0, 2).ravel()


def _case(scenario, b, n, s, hn, rng):
    """(src, want) of one scenario: x is the [B, N, S, H/N] view, the [B, S, H] view is its 0213 reshape."""
    x = rng.uniform(-8, 8, (b, n, s, hn)).astype(F16)
    bsh = x.transpose(0, 2, 1, 3).reshape(b, s, n * hn)  # [B, S, H]: element (s, n * H/N + k)
    from_bn = np.concatenate([_nz(x[i, j]) for i in range(b) for j in range(n)])
    from_bsh = np.concatenate([_nz(bsh[i]) for i in range(b)])
    src = from_bsh if scenario in (3, 4) else from_bn
    want = {1: x.transpose(0, 2, 1, 3).ravel(),
            2: np.concatenate([_nz(x[i, :, j, :]) for i in range(b) for j in range(s)]),
            3: from_bn,
            4: x.ravel(),
            5: bsh.ravel(),
            6: from_bsh}[scenario]
    return src, want


@pytest.mark.parametrize("scenario, b, n, s, hn, host", [
    (1, 2, 3, 16, 6, 1), (2, 1, 16, 16, 8, 0), (3, 2, 3, 16, 6, 1), (4, 1, 2, 32, 20, 0), (5, 2, 3, 16, 6, 0),
    (6, 1, 2, 32, 20, 1)])
def test_confusion_transpose_nz_scenarios_match_numpy(kernels, scenario, b, n, s, hn, host):
    src, want = _case(scenario, b, n, s, hn, np.random.default_rng(20 + scenario))
    t = hl_tiling_norm.confusion_transpose_nz_tiling(scenario, b, n, s, hn, "float16")
    y = pyasc.zeros(want.shape, dtype="float16", device="sim")
    tiling_out = pyasc.zeros((18,), dtype="int32", device="sim")
    tiling_in = on_sim(np.frombuffer(t.to_bytes(), dtype=np.int32).copy())
    _run(kernels, "confusion_nz_half", on_sim(src), y, tiling_in, tiling_out, scenario, b, n, s, hn, src.size,
         want.size, host)
    np.testing.assert_array_equal(y.numpy(), want)
    if host:  # the C++ helper fills the same params as the Python one
        assert tiling_out.numpy().tobytes() == t.to_bytes()


def test_confusion_transpose_refuses_a_tiling_of_another_scenario_and_unlisted_types(kernels):
    src, want = _case(1, 1, 2, 16, 16, np.random.default_rng(3))
    t = hl_tiling_norm.confusion_transpose_nz_tiling(5, 1, 2, 16, 16, "float16")
    y = pyasc.zeros(want.shape, dtype="float16", device="sim")
    tiling_in = on_sim(np.frombuffer(t.to_bytes(), dtype=np.int32).copy())
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("confusion_nz_half"), 1,
                     (on_sim(src), y, tiling_in, y, 1, 1, 2, 16, 16, src.size, want.size, 0))
    with pytest.raises(pyasc_acl.AclKernelError, match=r"TransposeType 1 with a tiling made for scenario 5"):
        pyasc.synchronize("sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function("confusion_nz_half"), 1,
                     (on_sim(src), y, tiling_in, y, 8, 1, 2, 16, 16, src.size, want.size, 0))
    with pytest.raises(pyasc_acl.AclKernelError, match=r"TransposeType 8 is not supported by the pyasc simulator"):
        pyasc.synchronize("sim")


def test_confusion_transpose_nz_tiling_refuses_bad_shapes():
    with pytest.raises(ArgumentError, match="s must be a multiple of 16"):
        hl_tiling_norm.confusion_transpose_nz_tiling(1, 1, 2, 20, 16)
    with pytest.raises(ArgumentError, match="scenario 2 needs n a multiple of 16"):
        hl_tiling_norm.confusion_transpose_nz_tiling(2, 1, 3, 16, 16)
    with pytest.raises(ArgumentError, match="scenario must be 1..6"):
        hl_tiling_norm.confusion_transpose_nz_tiling(7, 1, 3, 16, 16)


# ---- Pad / UnPad ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("unpad, h, w, right_pad", [(0, 16, 63, 1), (1, 16, 32, 3)])
def test_pad_unpad_with_the_minimum_buffer_works_and_one_byte_less_is_refused(kernels, unpad, h, w, right_pad):
    x = np.random.default_rng(11).uniform(-8, 8, (h, w)).astype(F16)
    mx, mn = (tmp.get_unpad_max_min_tmp_size if unpad else tmp.get_pad_max_min_tmp_size)((h, w), 2)
    assert (mx, mn) == (h * w * 2 // 32 * 32 + (32 if h * w * 2 % 32 else 0), -(-w * 2 // 32) * 32)
    if unpad:
        want = x[:, : w - right_pad]
    else:
        want = np.full((h, 64), 5, F16)
        want[:, :w] = x
    for size in (mn, mx, 3 * mn):  # a row a chunk, one pass, chunks of 3 rows
        y = pyasc.zeros(want.shape, dtype="float16", device="sim")
        sizes = pyasc.zeros((4,), dtype="int32", device="sim")
        _run(kernels, "pad_tmp_half", on_sim(x), y, sizes, h, w, unpad, right_pad, size)
        np.testing.assert_array_equal(y.numpy(), want)
        assert list(sizes.numpy()) == [mx, mn, h, w]  # C++ GetPad/UnPadMaxMinTmpSize and Pad/UnPadTilingFunc
    y = pyasc.zeros(want.shape, dtype="float16", device="sim")
    sizes = pyasc.zeros((4,), dtype="int32", device="sim")
    _refused(kernels, "pad_tmp_half", on_sim(x), y, sizes, h, w, unpad, right_pad, mn - 1,
             api="UnPad" if unpad else "Pad", have=mn - 1, need=mn)


def test_pad_helpers_refuse_bad_shapes():
    with pytest.raises(ArgumentError, match=r"2-D src_shape \[height, width\]"):
        tmp.get_pad_max_min_tmp_size((16,), 2)
    with pytest.raises(ArgumentError, match="type_size must be 2 or 4"):
        tmp.get_unpad_max_min_tmp_size((16, 32), 1)
