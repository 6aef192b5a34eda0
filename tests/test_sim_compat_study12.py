"""Matmul idioms of the round 12 public retrieval kernels (Ascend/IndexSDK, backends/sim/kernel_api/COMPAT.md):
a TSCM queue (user-managed L1) holding an int8 A moved with Nd2Nz, int8 x int8 -> half dequantised by
SetQuantScalar (the scale's top 19 bits, as the documented encoding keeps them), IterateAll<false> +
WaitIterateAll, two Matmul objects registered without tilings, IterateAll into a local LCM tensor with a
SetTail shape (row stride singleCoreN), SetBias refusing an undocumented default bias type, and the system
workspace set from the kernel's ``workspace`` parameter in a -DHAVE_WORKSPACE / op-project build. The kernel is
our own (kernels/compat/study12_matmul_idioms.cpp); one compile for the module."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, marked_line, on_sim
from pyasc_sim import hl_tiling

SRC = "compat/study12_matmul_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def binary():
    return pyasc_acl.Binary(pyasc_sim.compile(ASCENDC_DIR / SRC, opt="-O1", extra_flags=["-DHAVE_WORKSPACE"]),
                            device="sim")


def _tiling(m, n, k, c_dtype):
    t = hl_tiling.matmul_tiling(m, n, k, a_dtype="int8", c_dtype=c_dtype)
    return on_sim(np.frombuffer(t.to_bytes(), dtype=np.uint8).copy()), t


def _scale19(scale: float) -> np.float32:
    """The float the cube unit applies: the scale's bits with the low 13 mantissa bits cleared."""
    bits = np.array([scale], dtype=np.float32).view(np.uint32) & np.uint32(0xFFFFE000)
    return bits.view(np.float32)[0]


@pytest.mark.parametrize("m, n, k, scale", [(16, 64, 64, 0.01), (32, 48, 96, 0.37)])
def test_tscm_int8_dequant_matches_numpy(binary, m, n, k, scale):
    rng = np.random.default_rng(m + n)
    a = rng.integers(-128, 128, (m, k)).astype(np.int8)
    b = rng.integers(-128, 128, (n, k)).astype(np.int8)
    tiling, _ = _tiling(m, n, k, "float16")
    c = pyasc.full((m * n,), -1.0, dtype="float16", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("study12_tscm_dequant"), 1,
                     (on_sim(a), on_sim(b), c, tiling, np.float32(scale)))
    pyasc.synchronize("sim")
    acc = a.astype(np.int64) @ b.astype(np.int64).T
    want = (acc.astype(np.float32) * _scale19(scale)).astype(np.float16)
    np.testing.assert_array_equal(c.numpy().reshape(m, n), want)
    if scale == 0.01:  # the truncated scale is not 0.01f: a result that tells the two apart
        assert not np.array_equal(want, (acc.astype(np.float32) * np.float32(scale)).astype(np.float16))


def test_two_objects_local_tail_and_async_gm(binary):
    m, n, k, tail = 32, 64, 64, 24  # tail rows of 96 bytes: whole 32-byte blocks
    rng = np.random.default_rng(5)
    q = rng.integers(-128, 128, (m, k)).astype(np.int8)
    base = rng.integers(-128, 128, (n, k)).astype(np.int8)
    tsq, tq = _tiling(m, m, k, "int32")
    tip, _ = _tiling(m, n, k, "int32")
    stride = tq.singleCoreN
    sq = pyasc.full((m * stride,), -7, dtype="int32", device="sim")
    ip = pyasc.full((m * n,), -7, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("study12_two_objects"), 1,
                     (on_sim(q), on_sim(base), sq, ip, tsq, tip, np.uint32(tail)))
    pyasc.synchronize("sim")
    q64 = q[:tail].astype(np.int64)
    got_sq = sq.numpy().reshape(m, stride)
    np.testing.assert_array_equal(got_sq[:tail, :tail], q64 @ q64.T)  # the SetTail part, row stride singleCoreN
    np.testing.assert_array_equal(np.diag(got_sq[:tail, :tail]), (q64 * q64).sum(axis=1))
    assert (got_sq[tail:] == -7).all() and (got_sq[:, tail:] == -7).all()  # only the SetTail corner was copied
    got_ip = ip.numpy().reshape(m, n)
    np.testing.assert_array_equal(got_ip[:tail], q64 @ base.astype(np.int64).T)
    assert (got_ip[tail:] == -7).all()


def test_default_bias_type_is_checked_at_set_bias(binary):
    m, n, k = 16, 32, 32
    tiling, _ = _tiling(m, n, k, "float16")
    a = np.ones((m, k), np.int8)
    b = np.ones((n, k), np.int8)
    bias = pyasc.zeros((n,), dtype="float16", device="sim")
    c = pyasc.zeros((m * n,), dtype="float16", device="sim")
    pyasc.synchronize("sim")
    with pytest.raises(pyasc_acl.AclKernelError,
                       match=rf"'dtype-table' failed at {marked_line(SRC, 'default-bias')}: Matmul::SetBias: "
                             r"this Matmul's BIAS_TYPE .* is not a documented bias type"):
        pyasc_acl.launch(binary.function("study12_default_bias_set"), 1, (on_sim(a), on_sim(b), bias, c, tiling))
        pyasc.synchronize("sim")


def test_framework_sets_the_system_workspace(binary):
    """SetSysWorkSpace: with the op-project build or -DHAVE_WORKSPACE "the framework sets it": the kernel
    reads GetSysWorkSpacePtr() == workspace and its user part kSysWorkspaceBytes (16 MiB) further on."""
    out = pyasc.full((8,), -7, dtype="int32", device="sim")
    ws = pyasc.zeros((16 * 1024 * 1024 + 64,), dtype="uint8", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(binary.function("study12_sys_workspace"), 1, (out, ws))
    pyasc.synchronize("sim")
    got = out.numpy()
    assert got[0] == 1 and got[1] == 16 * 1024 * 1024
