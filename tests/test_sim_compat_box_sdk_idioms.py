"""SDK names and element types of box / point-cloud kernels, decided from the public SDK sources (COMPAT.md,
round 27 s27a; DrivingSDK's boxes_operator_utils.h and cylinder_query.cpp):

* `PI`: the SDK declares `constexpr float PI` (pi) in an unnamed namespace inside AscendC in its Lgamma
  implementation (lgamma_common_utils.h, __CCE_AICORE__ 200 / 220), which kernel_operator.h reaches through
  kernel_operator_intf.h -> lib/math/lgamma.h (CANN 8.1.RC1). Hidden with PYASC_SIM_DOCUMENTED_ONLY (no reference
  page documents it).
* `BroadCast<int32_t, 2, axis>`: the Broadcast page lists int8_t / uint8_t / half / float for Atlas A2; the SDK's
  A2 implementation checks no element type and moves 2- and 4-byte elements as they are (Brcb / Copy /
  GatherMask): the warning dtype-unlisted, an error under PYASC_SIM_STRICT; 8-byte types stay a compile error.
* Level-2 `And` on uint8_t: the page lists int16_t / uint16_t; the SDK's C220 count form runs vand on 16-bit lanes
  whatever the type, so count n covers 2 n bytes: the warning dtype-unlisted.

Our kernel in that idiom: backends/sim/kernel_api/tests/kernels/compat/box_sdk_idioms.cpp."""

from __future__ import annotations

import textwrap
import warnings

import numpy as np
import pytest

import pyasc
import pyasc_sim
from ascendc_kernels import launch_failing, launch_synced, load, marked_line, on_sim

SRC = "compat/box_sdk_idioms.cpp"
ROWS = 16


@pytest.fixture(scope="module")
def binary():
    return load(SRC)


def inputs():
    rng = np.random.default_rng(11)
    x = rng.uniform(-2, 2, ROWS * 8).astype(np.float32)
    counts = rng.integers(-5, 1000, ROWS).astype(np.int32)
    return x, counts


def run(binary):
    x, counts = inputs()
    angles = pyasc.zeros((ROWS * 8,), dtype="float32", device="sim")
    idx = pyasc.zeros((2 * ROWS * 8,), dtype="int32", device="sim")
    inside = pyasc.full((ROWS * 8,), -1.0, dtype="float32", device="sim")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always", pyasc.SanitizerWarning)
        launch_synced(binary.function("box_idioms"), 1,
                      (on_sim(x), on_sim(counts), angles, idx, inside, ROWS, np.float32(-0.5), np.float32(0.75)))
    msgs = [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)]
    return x, counts, angles.numpy(), idx.numpy(), inside.numpy(), msgs


def test_pi_broadcast_int32_and_byte_masks_compute_as_on_the_npu(binary):
    x, counts, angles, idx, inside, msgs = run(binary)
    np.testing.assert_array_equal(angles, x * -np.float32(np.pi))  # PI is pi as a float
    np.testing.assert_array_equal(idx[:ROWS * 8].reshape(ROWS, 8), np.repeat(counts[:, None], 8, axis=1))
    np.testing.assert_array_equal(idx[ROWS * 8:].reshape(ROWS, 8), np.tile(counts[:8], (ROWS, 1)))
    np.testing.assert_array_equal(inside, ((x > -0.5) & (x < 0.75)).astype(np.float32))
    assert len(msgs) == 3 and all("dtype-unlisted" in m for m in msgs), msgs
    for marker in ("brc_last", "brc_first"):
        m = [m for m in msgs if marked_line(SRC, marker) in m]
        assert len(m) == 1 and "AscendC::Broadcast on element type int32_t" in m[0], msgs
    m = [m for m in msgs if marked_line(SRC, "and_bytes") in m]
    assert len(m) == 1, msgs
    assert "AscendC::And(dst, src0, src1, count) on element type uint8_t" in m[0], m[0]
    assert f"count {ROWS} covers {2 * ROWS} bytes" in m[0], m[0]


def test_strict_mode_makes_the_unlisted_broadcast_type_an_error(binary, monkeypatch):
    monkeypatch.setenv("PYASC_SIM_STRICT", "1")
    x, counts = inputs()
    idx = pyasc.zeros((2 * ROWS * 8,), dtype="int32", device="sim")
    scratch = [pyasc.zeros((ROWS * 8,), dtype="float32", device="sim") for _ in range(2)]
    msg = launch_failing(binary.function("box_idioms"), 1,
                         (on_sim(x), on_sim(counts), scratch[0], idx, scratch[1], ROWS, np.float32(0), np.float32(1)))
    assert "dtype-unlisted" in msg and marked_line(SRC, "brc_last") in msg, msg


def test_pi_is_hidden_in_documented_only_mode_and_8_byte_broadcast_stays_an_error(tmp_path):
    src = tmp_path / "undocumented.cpp"
    src.write_text(textwrap.dedent("""\
        #include "kernel_operator.h"
        using namespace AscendC;
        extern "C" __global__ __aicore__ void k(GM_ADDR x)
        {
            TPipe pipe;
            TBuf<TPosition::VECCALC> buf;
            pipe.InitBuffer(buf, 1024);
            LocalTensor<int64_t> t = buf.Get<int64_t>();
            uint32_t dst[2] = {8, 8};
            uint32_t src[2] = {8, 1};
            Broadcast<int64_t, 2, 1>(t[64], t, dst, src);
            LocalTensor<float> f = buf.Get<float>();
            Muls(f, f, PI, 8);
        }
        """))
    with pytest.raises(pyasc_sim.KernelCompileError) as err:
        pyasc_sim.compile(src, opt="-O1", extra_flags=["-DPYASC_SIM_DOCUMENTED_ONLY=1"])
    text = str(err.value)
    assert "PI’ was not declared" in text or "'PI' was not declared" in text, text
    assert "AscendC::Broadcast is not documented for this element type" in text, text
