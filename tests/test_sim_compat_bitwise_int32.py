"""Level-2 ``And`` / ``Or`` on ``int32_t`` / ``uint32_t`` for Atlas A2 / A3, decided from the public asc-devkit
sources (COMPAT.md, round 25 s25a).

The reference's And / Or pages list int16_t / uint16_t for Atlas A2 / A3 (int32_t and wider only for the Atlas
350). The SDK's C220 implementation of the count form (``dav_c220/kernel_operator_vec_binary_impl.h``) checks the
type only in its debug builds, against int16_t / uint16_t / uint32_t / int32_t, and runs ``vand`` / ``vor`` on the
addresses cast to int16_t in counter mode: count counts 16-bit lanes, so count n covers n / 2 elements of a 4-byte
type; its own ``a & b`` / ``a | b`` on 32-bit tensors pass ``GetSize() * 2``. Public kernels rely on it (vllm-ascend's
categorical_sample tests float bits with ``And(work, bits, work, 2 * n)``). The simulator: the same bits, with the
warning ``dtype-unlisted`` (an error under ``PYASC_SIM_STRICT``). The mask / repeat forms keep the table (the SDK
static_asserts int16_t / uint16_t there). Until round 25 int32_t was a compile error for every form.

Our kernel in that idiom: backends/sim/kernel_api/tests/kernels/compat/bitwise_int32_idioms.cpp."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import pyasc
from ascendc_kernels import launch_failing, launch_synced, load, marked_line, on_sim

SRC = "compat/bitwise_int32_idioms.cpp"
N = 256
EXP, ABS, SIGN = 0x7F800000, 0x7FFFFFFF, np.int32(-2**31)


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def floats() -> np.ndarray:
    x = np.random.default_rng(3).standard_normal(N).astype(np.float32) * 1e3
    x[[5, 77, 200]] = [np.inf, -np.inf, np.nan]
    x[[9, 250]] = [0.0, -0.0]
    x[N - 1] = np.float32(-1.5e-41)  # a denormal with non-zero low-half bits
    return x


def run(binary, lanes: int):
    x = floats()
    y = pyasc.zeros((3 * N,), dtype="int32", device="sim")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", pyasc.SanitizerWarning)
        launch_synced(binary.function("float_bits_i32"), 1, (on_sim(x), y, N, lanes))
    msgs = [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)]
    return x.view(np.int32), y.numpy(), msgs


def test_count_in_16_bit_lanes_covers_the_32_bit_elements_and_warns(binary):
    bits, y, msgs = run(binary, 2 * N)
    np.testing.assert_array_equal(y[:N], bits & EXP)
    np.testing.assert_array_equal(y[N:2 * N], bits | SIGN)
    np.testing.assert_array_equal(y[2 * N:], bits & ABS)  # `&` on int32_t tensors: the whole tensor
    assert len(msgs) == 3 and all("dtype-unlisted" in m for m in msgs), msgs
    for marker, api, t in (("and", "And", "int32_t"), ("or", "Or", "uint32_t"), ("operator", "And", "int32_t")):
        m = [m for m in msgs if marked_line(SRC, marker) in m]
        assert len(m) == 1, msgs
        assert f"AscendC::{api}(dst, src0, src1, count) on element type {t}" in m[0], m[0]
        assert "count counts 16-bit halves: count 512 covers 1024 bytes, 256 elements" in m[0], m[0]
        assert "ReinterpretCast<int16_t>()" in m[0], m[0]


def test_an_odd_count_stops_in_the_middle_of_an_element(binary):
    # count 2 N - 1 lanes: the last element's low half is computed, its high half keeps the tile's 0xFFFF
    bits, y, msgs = run(binary, 2 * N - 1)
    np.testing.assert_array_equal(y[:N - 1], (bits & EXP)[:N - 1])
    np.testing.assert_array_equal(y[N:2 * N - 1], (bits | SIGN)[:N - 1])
    low = int(bits[N - 1]) & 0xFFFF
    assert low != 0
    assert y[N - 1] == np.int32(np.uint32(0xFFFF0000).view(np.int32))  # low half: bits & 0x0000
    assert y[2 * N - 1] == np.uint32(0xFFFF0000 | low).view(np.int32)  # low half: bits | 0x0000
    assert any("count 511 covers 1022 bytes, 255 elements of int32_t and the low half of the next" in m
               for m in msgs), msgs


def test_a_count_of_32_bit_elements_past_the_tile_is_out_of_bounds(binary):
    # count 3 N lanes reads 1.5 N elements of the N-float source tile
    x = floats()
    y = pyasc.zeros((3 * N,), dtype="int32", device="sim")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", pyasc.SanitizerWarning)
        msg = launch_failing(binary.function("float_bits_i32"), 1, (on_sim(x), y, N, 3 * N))
    assert "local-out-of-bounds" in msg and marked_line(SRC, "and") in msg, msg
    assert any("dtype-unlisted" in str(w.message) for w in seen)  # the warning comes with the failure


def test_strict_mode_makes_the_unlisted_type_an_error(binary, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_STRICT", "1")
    x = floats()
    y = pyasc.zeros((3 * N,), dtype="int32", device="sim")
    msg = launch_failing(binary.function("float_bits_i32"), 1, (on_sim(x), y, N, 2 * N))
    assert "dtype-unlisted" in msg and marked_line(SRC, "and") in msg, msg
