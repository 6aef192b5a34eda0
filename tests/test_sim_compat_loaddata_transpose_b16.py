"""The 2D ``LoadData`` with ``ifTranspose = true`` on ``bfloat16_t`` (COMPAT.md, round 26 s26b).

The reference's LoadData page (LoadData2DParams, row ifTranspose) lists uint16_t / int16_t / half for the
transposing L1 -> L0A / L0B load; the SDK's own current page says "b16" and its dav-c220 implementation passes a
bfloat16_t operand unchanged to the transposing load instruction (only uint16_t / int16_t are re-typed as half),
so the NPU compiles the bf16 call and transposes the 16-bit words of each fractal -- as LoadDataWithTranspose
documents for bfloat16_t.  The simulator runs it bit for bit, with the warning ``dtype-unlisted`` at the call (an
error under ``PYASC_SIM_STRICT``); until round 26 it was the run-time error ``dtype-table``, which stopped the
kda-ascendc aclab kernels k2_d3, k2_dots_all, k2_mix2, k2_mix_step and k2_mix_step_wip.

Our kernel in that idiom (kda's d3 = Aqk @ v_new): backends/sim/kernel_api/tests/kernels/compat/
loaddata_transpose_b16_idioms.cpp."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import pyasc
from ascendc_kernels import launch_failing, launch_synced, load, marked_line

SRC = "compat/loaddata_transpose_b16_idioms.cpp"


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def operands(rng, n: int):
    """a [16, 16] and v [16, n] of small multiples of 1/4 (exact in bf16 and half, so are the fp32 products and
    sums), as float32 values."""
    a = rng.integers(-8, 9, (16, 16)).astype(np.float32) / 4
    v = rng.integers(-8, 9, (16, n)).astype(np.float32) / 4
    return a, v


def bf16_bits(x: np.ndarray) -> np.ndarray:
    return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16).view(np.int16)  # exact: no rounding


def run(binary, name: str, a_bits: np.ndarray, v_bits: np.ndarray, n: int):
    y = pyasc.tensor(np.full(16 * n, -7, np.float32), device="sim")  # unwritten elements show
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", pyasc.SanitizerWarning)
        launch_synced(binary.function(name), 1,
                      (pyasc.tensor(a_bits.ravel(), device="sim"), pyasc.tensor(v_bits.ravel(), device="sim"), y, n))
    msgs = [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)]
    return y.numpy().reshape(16, n), msgs


@pytest.mark.parametrize("n", [16, 64, 128])
def test_bf16_transposing_load_computes_the_product_and_warns(binary, n):
    a, v = operands(np.random.default_rng(n), n)
    y, msgs = run(binary, "d3_transposing_load_bf16", bf16_bits(a), bf16_bits(v), n)
    np.testing.assert_array_equal(y, a @ v)  # exact: every product and partial sum is representable
    assert len(msgs) == 1 and "dtype-unlisted" in msgs[0], msgs
    assert marked_line(SRC, "load-transpose") in msgs[0], msgs[0]
    assert "AscendC::LoadData with ifTranspose = true on element type bfloat16_t" in msgs[0]
    assert "lists uint16_t, int16_t, half for the transposing load" in msgs[0]
    assert "ReinterpretCast<half>()" in msgs[0] and "LoadDataWithTranspose" in msgs[0]


def test_half_is_listed_and_moves_the_same_fractals_silently(binary):
    a, v = operands(np.random.default_rng(5), 64)
    y, msgs = run(binary, "d3_transposing_load_half", a.astype(np.float16).view(np.int16),
                  v.astype(np.float16).view(np.int16), 64)
    np.testing.assert_array_equal(y, a @ v)
    assert msgs == []
    yb, _ = run(binary, "d3_transposing_load_bf16", bf16_bits(a), bf16_bits(v), 64)
    np.testing.assert_array_equal(yb, y)  # the bf16 load moves the same 16-bit words: the same product


def test_strict_mode_makes_the_bf16_transposing_load_an_error(binary, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_STRICT", "1")
    a, v = operands(np.random.default_rng(9), 32)
    y = pyasc.zeros((16 * 32,), dtype="float32", device="sim")
    msg = launch_failing(binary.function("d3_transposing_load_bf16"), 1,
                         (pyasc.tensor(bf16_bits(a).ravel(), device="sim"),
                          pyasc.tensor(bf16_bits(v).ravel(), device="sim"), y, 32))
    assert "dtype-unlisted" in msg and marked_line(SRC, "load-transpose") in msg, msg
