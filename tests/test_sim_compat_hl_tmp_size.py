"""Issue 8 point 9: the sharedTmpBuffer host helpers of CumSum, AscendQuant, AscendDequant and
AscendAntiQuant (GetXxxMaxMinTmpSize / GetXxxTmpBufferFactorSize) in C++ (tiling/tiling_api.h, run
inside a kernel as an op's TilingFunc runs them) and Python (pyasc_sim.hl_tiling_tmp) report the same
sizes; a buffer of the reported minimum works (the API then works chunk by chunk and still matches
NumPy), one byte less is refused by the API naming both sizes. Kernels:
backends/sim/kernel_api/tests/kernels/compat/hl_tmp_size_idioms.cpp, compiled once for the module."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from pyasc_core.errors import ArgumentError, PyascError
from pyasc_sim import hl_tiling_tmp as tmp

from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "hl_tmp_size_idioms.cpp"
F16, F32, BF16 = np.float16, np.float32, ml_dtypes.bfloat16


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def _dev(a):
    return pyasc.tensor(np.ascontiguousarray(a), device="sim")


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
    out = pyasc.zeros((32,), dtype="uint32", device="sim")
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
    # the figures themselves: one row .. all rows of partial sums; 256 source bytes .. the whole shape
    assert want[:4] == [8 * 64 * 2, 64 * 2, 64 * 4, 64 * 4]
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
    for size in (mn, mx, 4 * mn):  # one row per chunk, one pass, and a chunk that does not divide the rows
        y = pyasc.zeros((rows, cols), dtype="float16", device="sim")
        last = pyasc.zeros((cols,), dtype="float16", device="sim")
        _run(kernels, "cumsum_tmp_half", _dev(x), y, last, rows, cols, last_axis, size)
        np.testing.assert_array_equal(y.numpy(), want)
        np.testing.assert_array_equal(last.numpy(), want[-1])
    y = pyasc.zeros((rows, cols), dtype="float16", device="sim")
    _refused(kernels, "cumsum_tmp_half", _dev(x), y, y, rows, cols, last_axis, mn - 1,
             api="CumSum", have=mn - 1, need=mn)


def test_quant_with_the_minimum_buffer_works_and_one_byte_less_is_refused(kernels):
    count, scale, offset = 200, 3.5, -1.25
    x = np.random.default_rng(8).uniform(-30, 30, count).astype(F32)
    mx, mn = tmp.get_ascend_quant_max_min_tmp_size((count,), 4)
    assert (mx, mn) == (800, 256)  # 64 floats a chunk at the minimum
    h = x.astype(F16)
    step = (h.astype(np.float64) * F16(scale)).astype(F16)
    want = np.clip(np.rint((step.astype(np.float64) + F16(offset)).astype(F16).astype(np.float64)), -128, 127)
    for size in (mn, mx):
        y = pyasc.zeros((count,), dtype="int8", device="sim")
        _run(kernels, "quant_tmp_float", _dev(x), y, count, scale, offset, size)
        np.testing.assert_array_equal(y.numpy(), want.astype(np.int8))
    y = pyasc.zeros((count,), dtype="int8", device="sim")
    _refused(kernels, "quant_tmp_float", _dev(x), y, count, scale, offset, mn - 1,
             api="AscendQuant", have=mn - 1, need=mn)


def test_dequant_with_the_minimum_buffer_works_and_one_byte_less_is_refused(kernels):
    m, n, scale = 3, 40, 0.37
    x = np.random.default_rng(9).integers(-5000, 5000, (m, n)).astype(np.int32)
    mx, mn = tmp.get_ascend_dequant_max_min_tmp_size((m, n), 4)
    assert (mx, mn) == (480, 256)
    want = x.astype(F32) * F32(scale)
    for size in (mn, mx):
        y = pyasc.zeros((m, n), dtype="float32", device="sim")
        _run(kernels, "dequant_tmp_float", _dev(x), y, m, n, scale, size)
        np.testing.assert_array_equal(y.numpy(), want)
    y = pyasc.zeros((m, n), dtype="float32", device="sim")
    _refused(kernels, "dequant_tmp_float", _dev(x), y, m, n, scale, mn - 1, api="AscendDequant", have=mn - 1,
             need=mn)


def test_antiquant_with_the_minimum_buffer_works_and_one_byte_less_is_refused(kernels):
    count, offset, scale = 512, 3.0, 0.125
    x = np.random.default_rng(10).integers(-128, 128, count).astype(np.int8)
    mx, mn = tmp.get_ascend_antiquant_max_min_tmp_size((count,), (1,), False, "int8", "bfloat16")
    assert (mx, mn) == (2048, 1024)  # 256 int8 elements a chunk, staged as float
    want = ((x.astype(F32) + F32(offset)) * F32(scale)).astype(BF16)
    for size in (mn, mx):
        y = pyasc.zeros((count,), dtype="bfloat16", device="sim")
        _run(kernels, "antiquant_tmp_bf16", _dev(x), y, count, offset, scale, size)
        np.testing.assert_array_equal(y.numpy(), want)
    y = pyasc.zeros((count,), dtype="bfloat16", device="sim")
    _refused(kernels, "antiquant_tmp_bf16", _dev(x), y, count, offset, scale, mn - 1, api="AscendAntiQuant",
             have=mn - 1, need=mn)
