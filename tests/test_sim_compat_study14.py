"""Idioms of round 14's public kernels (RecSDK's v220 ln_mul, in_linear_silu_backward and norm_multiply_dropout,
backends/sim/kernel_api/COMPAT.md): the high-level ReduceSum / Max / Min / Mean / Prod with a Pattern::Reduce::AR
or RA pattern over padded and unpadded rows, TQueSync<src, dst> as the only ordering between pipes, DropOut with a
bit and a byte mask, kernel_log.h, ASSERT without its semicolon, the lowercase assert(expr, fmt, ...), and the
Matmul callback type with enAtomic accumulation from several cores. The kernel is our own (kernels/compat/study14_idioms.cpp), compiled once."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_synced, on_sim

SRC = ASCENDC_DIR / "compat/study14_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


def test_pattern_reduce_ar_and_ra(binary):
    rng = np.random.default_rng(14)
    x = rng.uniform(0.5, 1.5, (6, 20)).astype(np.float32)
    out = pyasc.zeros((80,), dtype="float32", device="sim")
    launch_synced(binary.function("study14_pattern_reduce"), 1, (on_sim(x), out))
    got = out.numpy()
    np.testing.assert_allclose(got[0:6], x.sum(axis=1), rtol=1e-6)  # AR over 32-byte padded rows
    np.testing.assert_array_equal(got[8:14], x.max(axis=1))
    np.testing.assert_array_equal(got[16:22], x.min(axis=1))
    np.testing.assert_allclose(got[24:30], x.mean(axis=1), rtol=1e-6)
    np.testing.assert_allclose(got[32:52], x.sum(axis=0), rtol=1e-6)  # RA over contiguous rows
    np.testing.assert_allclose(got[56:76], x[0] * x[1], rtol=1e-6)
    assert not got[6:8].any() and not got[52:56].any()  # nothing written past each result


def test_dropout_bit_and_byte_masks(binary):
    rows, cols, keep = 4, 64, 0.8
    rng = np.random.default_rng(7)
    x = rng.standard_normal((rows, cols)).astype(np.float32)
    keep_bits = rng.random((rows, cols)) < keep
    packed = np.packbits(keep_bits.reshape(-1), bitorder="little")  # bit i of byte j keeps element 8 j + i
    keep_bytes = (rng.random((rows, cols)) < keep).astype(np.uint8) * rng.integers(1, 255, (rows, cols)).astype(np.uint8)
    y_bits = pyasc.zeros((rows * cols,), dtype="float32", device="sim")
    y_bytes = pyasc.zeros((rows * cols,), dtype="float32", device="sim")
    launch_synced(binary.function("study14_dropout"), 1,
                  (on_sim(x), on_sim(packed), on_sim(keep_bytes), y_bits, y_bytes, np.uint32(rows), np.uint32(cols), np.uint32(800)))
    scale = np.float32(1.0) / np.float32(keep)
    np.testing.assert_array_equal(y_bits.numpy().reshape(rows, cols), np.where(keep_bits, x * scale, 0))
    np.testing.assert_array_equal(y_bytes.numpy().reshape(rows, cols), np.where(keep_bytes != 0, x * scale, 0))


def test_dropout_refuses_a_keep_probability_of_zero(binary):
    x = pyasc.zeros((64,), dtype="float32", device="sim")
    with pytest.raises(pyasc.PyascError, match=r"invalid-argument.*DropOut: keepProb 0 is outside \(0, 1\]"):
        launch_synced(binary.function("study14_dropout_bad_keep"), 1, (x,))


def test_matmul_with_the_default_callback_set_and_user_def_info(binary):
    from pyasc_sim import hl_tiling
    m, n, k = 32, 48, 64
    rng = np.random.default_rng(3)
    a = (rng.standard_normal((m, k)) * 0.5).astype(np.float16)
    b = (rng.standard_normal((k, n)) * 0.5).astype(np.float16)
    t = hl_tiling.matmul_tiling(m, n, k, a_dtype="float16", c_dtype="float32")
    c = pyasc.zeros((m * n,), dtype="float32", device="sim")
    flag = pyasc.zeros((8,), dtype="int32", device="sim")
    tiling = on_sim(np.frombuffer(t.to_bytes(), dtype=np.uint8).copy())
    ref = a.astype(np.float32) @ b.astype(np.float32)
    launch_synced(binary.function("study14_matmul_cb"), 1, (on_sim(a), on_sim(b), c, tiling, flag, np.uint32(m), np.uint8(0)))
    np.testing.assert_allclose(c.numpy().reshape(m, n), ref, rtol=1e-5, atol=1e-5)
    assert flag.numpy()[0] == 7  # the declaration after the semicolon-less ASSERT is in scope
    # enAtomic = 1 from 6 concurrent blocks into one C (zeroed): each product is added once, in float, and the
    # overlapping writes are atomic, not a gm-write-overlap
    c6 = pyasc.zeros((m * n,), dtype="float32", device="sim")
    launch_synced(binary.function("study14_matmul_cb"), 6, (on_sim(a), on_sim(b), c6, tiling, flag, np.uint32(m), np.uint8(1)))
    want = np.zeros_like(ref)
    for _ in range(6):
        want = (want + ref).astype(np.float32)
    np.testing.assert_allclose(c6.numpy().reshape(m, n), want, rtol=1e-5, atol=1e-5)


def test_assert_without_semicolon_reports_its_condition(binary):
    x = pyasc.zeros((8,), dtype="int32", device="sim")
    launch_synced(binary.function("study14_assert_fails"), 1, (x, np.uint32(3)))
    assert x.numpy()[0] == 3  # the statement after the ASSERT ran
    with pytest.raises(pyasc.PyascError, match=r'assert.*ASSERT\(n < 4 && "n must stay below 4"\) failed'):
        launch_synced(binary.function("study14_assert_fails"), 1, (x, np.uint32(9)))


def test_lowercase_assert_with_a_format(binary):
    x = pyasc.zeros((8,), dtype="int32", device="sim")
    launch_synced(binary.function("study14_lower_assert"), 1, (x, np.uint32(3)))
    assert x.numpy()[1] == 6
    with pytest.raises(pyasc.PyascError, match=r"assert.*n < 4.*failed: n = 9 must stay below 4"):
        launch_synced(binary.function("study14_lower_assert"), 1, (x, np.uint32(9)))
    with pytest.raises(pyasc.PyascError, match=r"assert.*n != 5.*failed: n is 5"):
        launch_synced(binary.function("study14_lower_assert"), 1, (x, np.uint32(5)))
