"""The compare-mask walk of scatter / gather kernels, decided from the public SDK sources (COMPAT.md, round 28
s28a; DrivingSDK's scatter_add_v3.h):

* `AscendCUtils::GetBitSize(byteSize)` (= byteSize * 8), `GetC0Size()` (32), `GetC0Count(dtypeSize)`
  (= 32 / dtypeSize) and `GetDefaultBlockNum()` (8): the SDK's kernel_utils.h class AscendCUtils declares them
  (read in cannmirror/asc-devkit); no reference page documents them, so they stay hidden with
  PYASC_SIM_DOCUMENTED_ONLY like the rest of AscendCUtils.
* `sbitset0(value, bit)` / `sbitset1(value, bit)`: the NPU compiler's scalar builtins that clear / set one bit of a
  64-bit value; the SDK's own code writes `set_ctrl(sbitset1(get_ctrl(), bit))`. A bit outside 0..63 is
  `invalid-argument`.

Our kernel in that idiom: backends/sim/kernel_api/tests/kernels/compat/scalar_bitset_idioms.cpp."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import pyasc
import pyasc_sim
from ascendc_kernels import launch_failing, launch_synced, load, marked_line, on_sim

SRC = "compat/scalar_bitset_idioms.cpp"


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def outputs(n):
    idx = pyasc.full((n,), 7, dtype="int32", device="sim")
    words = pyasc.zeros((n // 64,), dtype="int64", device="sim")  # the uint64_t words, read as their bits
    sizes = pyasc.full((8,), 7, dtype="int32", device="sim")
    return idx, words, sizes


@pytest.mark.parametrize("n, thr", [(64, 0.0), (256, 0.8), (1024, -0.3)])
def test_mask_walk_visits_the_set_bits_lowest_first(binary, n, thr):
    x = np.random.default_rng(n).uniform(-1, 1, n).astype(np.float32)
    x[5] = thr  # GE: the threshold itself is selected
    idx, words, sizes = outputs(n)
    launch_synced(binary.function("bit_walk"), 1, (on_sim(x), idx, words, sizes, n, np.float32(thr), -1))
    sel = np.flatnonzero(x >= np.float32(thr))
    want_idx = np.full(n, -1, np.int32)
    want_idx[:sel.size] = sel
    np.testing.assert_array_equal(idx.numpy(), want_idx)
    bits = (x >= np.float32(thr)).reshape(-1, 64)
    want_words = (bits.astype(np.uint64) << np.arange(64, dtype=np.uint64)).sum(axis=1, dtype=np.uint64)
    np.testing.assert_array_equal(words.numpy().view(np.uint64), want_words)
    np.testing.assert_array_equal(sizes.numpy(), [sel.size, 8, 32, 32, 16, 8, 8, 0])


@pytest.mark.parametrize("bit", [64, 100])
def test_a_bit_outside_the_word_is_invalid_argument(binary, bit):
    x = np.zeros(64, np.float32)
    idx, words, sizes = outputs(64)
    msg = launch_failing(binary.function("bit_walk"), 1, (on_sim(x), idx, words, sizes, 64, np.float32(0), bit))
    assert "invalid-argument" in msg and marked_line(SRC, "bad_bit") in msg, msg
    assert f"sbitset1(0x0, {bit}): the bit position is 0..63" in msg, msg


def test_c0_count_of_a_zero_byte_element_is_invalid_argument(binary):
    x = np.zeros(64, np.float32)
    idx, words, sizes = outputs(64)
    msg = launch_failing(binary.function("bit_walk"), 1, (on_sim(x), idx, words, sizes, 64, np.float32(0), -2))
    assert "invalid-argument" in msg and marked_line(SRC, "c0_zero") in msg, msg
    assert "AscendCUtils::GetC0Count(dtypeSize 0): dtypeSize is sizeof(T)" in msg, msg


def test_ascendc_utils_sizes_are_hidden_in_documented_only_mode(tmp_path):
    src = tmp_path / "undocumented.cpp"
    src.write_text(textwrap.dedent("""\
        #include "kernel_operator.h"
        using namespace AscendC;
        extern "C" __global__ __aicore__ void k(GM_ADDR x)
        {
            uint64_t w = sbitset0(7, 1);  // the compiler builtin stays: it is global, as on the NPU
            int32_t bits = AscendCUtils::GetBitSize(sizeof(uint8_t));
            (void)w; (void)bits;
        }
        """))
    with pytest.raises(pyasc_sim.KernelCompileError) as err:
        pyasc_sim.compile(src, opt="-O1", extra_flags=["-DPYASC_SIM_DOCUMENTED_ONLY=1"])
    text = str(err.value)
    assert "AscendCUtils" in text and "sbitset0" not in text, text
