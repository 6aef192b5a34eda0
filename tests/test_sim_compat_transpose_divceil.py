"""Two SDK facts public kernels rely on, decided from the public asc-devkit sources (COMPAT.md, round 24 s24a).

* The common 16 x 16 ``Transpose(dst, src)`` on ``bfloat16_t``: the reference's Transpose page lists
  uint16_t / int16_t / half for that form, but the SDK checks the list only with ``ASCENDC_ASSERT`` (an
  abort in its CPU-debug build, nothing in the device build) and the device implementation casts both
  addresses to ``uint16_t`` for ``vtranspose``. So the NPU compiles the bf16 call and transposes the
  bits; the simulator runs it the same, with the warning ``dtype-unlisted`` (an error under
  ``PYASC_SIM_STRICT``, as the SDK's CPU-debug abort). Until round 24 it was a compile error.
* ``AscendC::DivCeil(uint32_t a, uint32_t b)`` = (a + b - 1) / b, a non-template constexpr function of
  the SDK's kernel-side headers, which kernels call unqualified under ``using namespace AscendC``; a
  kernel's own global ``template <typename T> T DivCeil(T, T)`` stays the better match for other
  argument types. Until round 24 it was not declared.

Our kernel in those idioms: backends/sim/kernel_api/tests/kernels/compat/transpose_divceil_idioms.cpp."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import pyasc
from ascendc_kernels import launch_failing, launch_synced, load, marked_line

SRC = "compat/transpose_divceil_idioms.cpp"


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def bf16_bits(rng, tiles: int) -> np.ndarray:
    """bf16 bit patterns of random floats (the upper halves of float32 values), as int16 (pyasc has no uint16)."""
    f = rng.standard_normal(tiles * 256).astype(np.float32) * 8
    return (f.view(np.uint32) >> 16).astype(np.uint16).view(np.int16)


def run_transpose(binary, name: str, x: np.ndarray, tiles: int):
    y = pyasc.zeros((tiles * 256,), dtype="int16", device="sim")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", pyasc.SanitizerWarning)
        launch_synced(binary.function(name), 1, (pyasc.tensor(x, device="sim"), y, tiles))
    msgs = [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)]
    return y.numpy(), msgs


def transposed(x: np.ndarray, tiles: int) -> np.ndarray:
    return x.reshape(tiles, 16, 16).transpose(0, 2, 1).reshape(-1)


@pytest.mark.parametrize("tiles", [1, 3])
def test_bf16_transpose_moves_the_bits_and_warns(binary, tiles):
    x = bf16_bits(np.random.default_rng(tiles), tiles)
    y, msgs = run_transpose(binary, "transpose_bf16_tiles", x, tiles)
    np.testing.assert_array_equal(y, transposed(x, tiles))  # bit for bit
    unlisted = [m for m in msgs if "dtype-unlisted" in m]
    assert unlisted and len(unlisted) == len(msgs), msgs
    assert all(marked_line(SRC, "transpose") in m for m in unlisted), unlisted
    assert "AscendC::Transpose(dst, src) on element type bfloat16_t" in unlisted[0], unlisted[0]
    assert "lists uint16_t, int16_t and half" in unlisted[0] and "ReinterpretCast<uint16_t>()" in unlisted[0]


def test_a_listed_type_transposes_without_a_warning(binary):
    x = (np.arange(2 * 256, dtype=np.uint16) * 131).view(np.int16)  # the same bits as the kernel's uint16_t
    y, msgs = run_transpose(binary, "transpose_u16_tiles", x, 2)
    np.testing.assert_array_equal(y, transposed(x, 2))
    assert msgs == []


def test_strict_mode_makes_the_unlisted_type_an_error(binary, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_STRICT", "1")
    x = bf16_bits(np.random.default_rng(7), 1)
    y = pyasc.zeros((256,), dtype="int16", device="sim")
    msg = launch_failing(binary.function("transpose_bf16_tiles"), 1, (pyasc.tensor(x, device="sim"), y, 1))
    assert "dtype-unlisted" in msg and marked_line(SRC, "transpose") in msg, msg


def div_ceil(binary, total, tile, big_total, big_tile, zero=0):
    out = pyasc.zeros((4,), dtype="int64", device="sim")
    launch_synced(binary.function("div_ceil_values"), 1, (out, total, tile, big_total, big_tile, zero))
    return out.numpy().tolist()


@pytest.mark.parametrize("total,tile", [(1000, 256), (1024, 256), (1, 7), (0, 5)])
def test_div_ceil_is_the_ceiling_division(binary, total, tile):
    got = div_ceil(binary, total, tile, 3 * 10**9 + 1, 3)
    assert got[0] == -(-total // tile) and got[1] == 4
    assert got[2] == 10**9 + 1  # the kernel's own int64_t template: no truncation


def test_a_kernels_own_template_keeps_64_bit_calls_and_the_sdk_one_converts(binary):
    big = (1 << 32) + 10
    got = div_ceil(binary, 9, 4, big, 0)
    assert got[0] == 3
    assert got[2] == 0 and got[3] == -1  # the kernel's template (its zero-divisor guard), not AscendC::DivCeil
    # the qualified AscendC::DivCeil(uint32_t, uint32_t): 64-bit arguments wrap to 32 bits as in the SDK
    got = div_ceil(binary, 9, 4, big, 4)
    assert got[2] == -(-big // 4) and got[3] == (10 + 3) // 4


def test_a_zero_divisor_is_a_clear_error(binary):
    out = pyasc.zeros((4,), dtype="int64", device="sim")
    msg = launch_failing(binary.function("div_ceil_values"), 1, (out, 9, 4, 10, 3, 1))
    assert "invalid-argument" in msg and marked_line(SRC, "div-ceil-zero") in msg, msg
    assert "AscendC::DivCeil(9, 0): the divisor is 0" in msg and "pass a non-zero divisor" in msg, msg
