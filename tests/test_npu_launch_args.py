"""Scalar kernel arguments of ``pyasc_acl.launch``. A binary with a signature table (every binary
pyasc builds) lays them out by type: a float parameter its 4 IEEE bytes at a 4-aligned offset, a
double 8 bytes, an int32 4; an int is the parameter's bits, a NumPy scalar its own bytes, a Python
float is converted to the parameter's type. Without a table (the first ABI) each takes an 8-byte
slot and a bare Python float, whose width is unknown, is refused with the fix."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from pyasc_acl.kernels import pack_args

# a kernel with float, double and int parameters (the simulator's launch stubs take no half
# parameter; its packing is checked on the blob); it writes what it received as doubles
SOURCE = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void echo_scalars(GM_ADDR out, float f, double d, int32_t i, float g) {
    GlobalTensor<double> o;
    o.SetGlobalBuffer(reinterpret_cast<__gm__ double *>(out), 4);
    o.SetValue(0, static_cast<double>(f));
    o.SetValue(1, d);
    o.SetValue(2, static_cast<double>(i));
    o.SetValue(3, static_cast<double>(g));
}
"""


@pytest.fixture(scope="module")
def echo():
    return pyasc_acl.Binary(pyasc_sim.compile(SOURCE), device="sim").function("echo_scalars")


def test_numpy_float_scalars_are_packed_by_their_width():
    blob, blocks = pack_args((np.float32(1.5), np.float64(-2.25), np.float16(0.5), np.int32(-7)), None)
    assert blocks == []
    assert len(blob) == 32
    assert blob[0:8] == struct.pack("<f", 1.5) + bytes(4)
    assert blob[8:16] == struct.pack("<d", -2.25)
    assert blob[16:24] == np.float16(0.5).tobytes() + bytes(6)
    assert blob[24:32] == struct.pack("<q", -7)
    bf = np.array(3.0, dtype=pyasc.bfloat16)[()]
    assert pack_args((bf,), None)[0] == np.array(3.0, dtype=pyasc.bfloat16).tobytes() + bytes(6)


def test_kernel_receives_numpy_scalars(echo):
    out = pyasc.empty(4, dtype="int64", device="sim")  # 4 doubles (float64 tensors are host-only)
    pyasc_acl.launch(echo, 1, (out, np.float32(0.1), np.float64(0.1), np.int64(-42), np.float32(-np.inf)))
    got = out.numpy().view(np.float64)
    assert got[0] == float(np.float32(0.1)) and got[0] != 0.1  # float32 bits, not a double's
    assert got[1] == 0.1
    assert got[2] == -42.0 and got[3] == -np.inf


def test_python_float_is_refused_without_a_signature_with_the_fix():
    with pytest.raises(pyasc.PyascError, match=r"argument 1 is the Python float 0\.25.*numpy\.float32\(0\.25\).*"
                                               r"numpy\.float64\(0\.25\)"):
        pack_args((0, 0.25, np.float64(1), 1, np.float32(1)), None)
    with pytest.raises(pyasc.PyascError, match=r"argument 4 is the Python float 2\.0"):
        pack_args((0, np.float32(1), np.float64(1), 1, 2.0), None)


def test_python_float_is_converted_by_the_signature(echo):
    assert [(p.type, p.offset) for p in echo.signature.params] == [
        ("GM_ADDR", 0), ("float", 8), ("double", 16), ("int32_t", 24), ("float", 28)]
    out = pyasc.empty(4, dtype="int64", device="sim")  # 4 doubles (float64 tensors are host-only)
    pyasc_acl.launch(echo, 1, (out, 0.25, 0.1, -3, 2.0))
    assert out.numpy().view(np.float64).tolist() == [0.25, 0.1, -3.0, 2.0]
    with pytest.raises(pyasc.ArgumentError, match=r"argument 2 'd' \(double, 8 bytes\) got the float32 scalar"):
        pyasc_acl.launch(echo, 1, (out, 0.25, np.float32(0.1), -3, 2.0))


@pytest.mark.skipif(np.dtype(np.longdouble).itemsize <= 8, reason="long double is a double here")
def test_wider_floats_do_not_fit_a_slot():
    with pytest.raises(pyasc.ArgumentError, match=r"argument 0 .* is 16 bytes.*at most 8 bytes"):
        pack_args((np.longdouble(1.0),), None)


def test_first_abi_slot_blobs_still_work_for_scalar_kernels():
    """A caller that packs 8 bytes per argument (the first ABI) still launches a kernel whose
    parameters are scalars and GM addresses: a blob of exactly 8 * n bytes is read as slots."""
    fn = pyasc_acl.Binary(pyasc_sim.compile(SOURCE), device="sim").function("echo_scalars")
    assert fn.signature.size == 32
    fn.signature = None  # pack as the first ABI did: 40 bytes
    out = pyasc.empty(4, dtype="int64", device="sim")
    pyasc_acl.launch(fn, 1, (out, np.float32(0.5), np.float64(0.1), np.int64(-42), np.float32(-np.inf)))
    assert out.numpy().view(np.float64).tolist() == [0.5, 0.1, -42.0, -np.inf]
