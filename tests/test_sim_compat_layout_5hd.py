"""TransDataTo5HD (NCHW -> NC1HWC0 and block transposes, the three documented address forms) and
GetSystemCycle on the simulator, against NumPy (issue 8 point 6, the rest of the documented basic API).
Kernels: backends/sim/kernel_api/tests/kernels/compat/layout_5hd_idioms.cpp (ours, in the public style)."""
from __future__ import annotations

import textwrap

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim

from ascendc_kernels import ASCENDC_DIR, launch_synced

SRC = ASCENDC_DIR / "compat" / "layout_5hd_idioms.cpp"


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


_run = launch_synced


@pytest.mark.parametrize("n,c,h,w", [(1, 16, 4, 4), (2, 32, 16, 16), (1, 48, 2, 8)])
def test_nchw_to_nc1hwc0_with_address_lists(kernels, n, c, h, w):
    x = np.random.default_rng(c + h).standard_normal((n, c, h, w)).astype(np.float16)
    y = pyasc.zeros((n * c * h * w,), dtype="float16", device="sim")
    _run(kernels.function("nchw_to_5hd"), 1, (pyasc.tensor(x.ravel(), device="sim"), y, n, c, h * w))
    want = x.reshape(n, c // 16, 16, h, w).transpose(0, 1, 3, 4, 2)
    np.testing.assert_array_equal(y.numpy().reshape(want.shape), want)


def test_b16_block_transpose_with_the_local_tensor_list_form(kernels):
    x = np.arange(256, dtype=np.float16).reshape(16, 16)
    y = pyasc.zeros((256,), dtype="float16", device="sim")
    _run(kernels.function("transpose_b16"), 1, (pyasc.tensor(x.ravel(), device="sim"), y))
    np.testing.assert_array_equal(y.numpy().reshape(16, 16), x.T)


def test_b32_makes_two_blocks_per_source_column_with_the_address_tensor_form(kernels):
    x = np.arange(128, dtype=np.float32).reshape(16, 8)  # 16 source blocks of 8 floats
    y = pyasc.zeros((128,), dtype="float32", device="sim")
    _run(kernels.function("transpose_b32"), 1, (pyasc.tensor(x.ravel(), device="sim"), y))
    got = y.numpy().reshape(16, 8)
    for j in range(8):  # dst block 2j: column j of sources 0-7, block 2j+1: of sources 8-15
        np.testing.assert_array_equal(got[2 * j], x[:8, j])
        np.testing.assert_array_equal(got[2 * j + 1], x[8:, j])


@pytest.mark.parametrize("src_high,dst_high", [(0, 0), (1, 1), (1, 0), (0, 1)])
def test_b8_moves_half_blocks_and_keeps_the_other_half(kernels, src_high, dst_high):
    # The documented example: 16 blocks of 32 int8 values, rows 0..127 repeating every 4 blocks.
    x = (np.arange(16 * 32) % 128).astype(np.int8).reshape(16, 32)
    init = np.full((16, 32), -7, dtype=np.int8)
    y = pyasc.zeros((512,), dtype="int8", device="sim")
    _run(kernels.function("transpose_b8"), 1, (pyasc.tensor(x.ravel(), device="sim"),
                                                pyasc.tensor(init.ravel(), device="sim"), y, src_high, dst_high))
    got = y.numpy().reshape(16, 32)
    want = init.copy()
    for i in range(16):
        want[i, 16 * dst_high:16 * dst_high + 16] = x[:, i + 16 * src_high]
    np.testing.assert_array_equal(got, want)
    if src_high and dst_high:  # the page's printed result: row 0 high half 16 48 80 112 ...
        assert got[0, 16:20].tolist() == [16, 48, 80, 112]


def test_an_address_outside_the_unified_buffer_is_reported(kernels):
    x = pyasc.zeros((256,), dtype="float16", device="sim")
    y = pyasc.zeros((256,), dtype="float16", device="sim")
    with pytest.raises(pyasc.PyascError) as info:
        _run(kernels.function("transpose_gm_address"), 1, (x, y))
    msg = str(info.value)
    assert "local-out-of-bounds" in msg and "srcList[3]" in msg and "Unified Buffer" in msg, msg


def test_get_system_cycle_measures_fenced_vector_work_in_50mhz_ticks(kernels):
    out = pyasc.zeros((2,), dtype="int64", device="sim")
    _run(kernels.function("measure_cycles"), 1, (out, 0))
    idle = out.numpy().copy()
    _run(kernels.function("measure_cycles"), 1, (out, 200))
    busy = out.numpy().copy()
    assert idle[0] >= 0 and idle[1] >= 0 and idle[1] <= 2
    # 200 Adds of 2048 floats (32 repeats each) cost far more than the empty fenced interval, and
    # the count grows with the work.
    assert busy[0] > 20 * max(idle[0], 1), (idle, busy)
    _run(kernels.function("measure_cycles"), 1, (out, 400))
    assert out.numpy()[0] > 1.5 * busy[0]


def _compile_snippet(tmp_path, body: str, soc: str):
    src = tmp_path / "snippet.cpp"
    src.write_text(textwrap.dedent("""
        #include "kernel_operator.h"
        using namespace AscendC;
        extern "C" __global__ __aicore__ void snippet(GM_ADDR x)
        {
            TPipe pipe;
            TBuf<TPosition::VECCALC> b;
            pipe.InitBuffer(b, 2048);
        """) + textwrap.dedent(body) + "\n}\n")
    return pyasc_sim.compile(src, opt="-O0", soc=soc)


def test_get_system_cycle_is_refused_on_the_inference_series(tmp_path):
    body = "int64_t t = GetSystemCycle(); (void)t;"
    _compile_snippet(tmp_path, body, "Ascend910B1")
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        _compile_snippet(tmp_path, body, "Ascend310P3")
    assert "GetSystemCycle is not documented for the Atlas inference series" in info.value.output


def test_trans_data_to_5hd_rejects_bfloat16_on_the_simulated_socs(tmp_path):
    body = """
        LocalTensor<bfloat16_t> t = b.Get<bfloat16_t>();
        LocalTensor<bfloat16_t> d[16], s[16];
        for (int i = 0; i < 16; i++) { d[i] = t[16 * i]; s[i] = t[256 + 16 * i]; }
        TransDataTo5HD<bfloat16_t>(d, s, TransDataTo5HDParams());
    """
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        _compile_snippet(tmp_path, body, "Ascend910B1")
    assert "AscendC::TransDataTo5HD is not documented for this element type" in info.value.output


def _bilinear_reference(s0, s1, off, init, mask, repeat_mode):
    out = init.astype(np.float32).copy()
    blocks = s0.reshape(-1, 16).astype(np.float32)
    for v in range(2):
        acc = np.zeros((8, 16), dtype=np.float32)
        for h in range(2):
            i = v * 2 + h
            for k in range(8):
                w = np.float32(s1[8 * i + k] if repeat_mode else s1[i])
                p = (blocks[off[8 * i + k] // 32] * w).astype(np.float16).astype(np.float32)
                acc[k] = p if h == 0 else (acc[k] + p).astype(np.float16).astype(np.float32)
        lanes = np.arange(128) < mask
        seg = out[128 * v:128 * v + 128]
        seg[lanes] = acc.ravel()[lanes]
    return out.astype(np.float16)


@pytest.mark.parametrize("mask,repeat_mode", [(128, 0), (-1, 0), (100, 0), (128, 1)])
def test_bilinear_interpolation_gathers_scales_and_accumulates(kernels, mask, repeat_mode):
    s0 = np.arange(1, 513, dtype=np.float16)
    s1 = np.arange(2, 34, dtype=np.float16) / np.float16(4)
    off = (np.arange(32) * 32).astype(np.uint32)
    if repeat_mode:
        off = np.random.default_rng(4).permutation(32).astype(np.uint32) * 32
    init = np.full(256, -3, dtype=np.float16)
    d = pyasc.tensor(init, device="sim")
    _run(kernels.function("bilinear"), 1, (pyasc.tensor(s0, device="sim"), pyasc.tensor(s1, device="sim"),
                                          pyasc.tensor(off.view(np.int32), device="sim"), d, mask, repeat_mode))
    want = _bilinear_reference(s0, s1, off, init, 128 if mask < 0 else mask, repeat_mode)
    np.testing.assert_array_equal(d.numpy(), want)


def test_bilinear_interpolation_matches_the_documented_example(kernels):
    s0 = np.arange(1, 513, dtype=np.float16)
    s1 = np.concatenate([np.arange(2, 18), np.zeros(16)]).astype(np.float16)
    off = (np.arange(32) * 32).astype(np.uint32)
    d = pyasc.zeros((256,), dtype="float16", device="sim")
    _run(kernels.function("bilinear"), 1, (pyasc.tensor(s0, device="sim"), pyasc.tensor(s1, device="sim"),
                                          pyasc.tensor(off.view(np.int32), device="sim"), d, 128, 0))
    got = d.numpy()
    assert got[:4].tolist() == [389, 394, 399, 404] and got[-1] == 4096
