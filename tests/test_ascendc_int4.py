"""int4b_t, packed 4-bit integers, on the simulator (issue 8 point 6): our own kernels in the
style of public quantisation code (backends/sim/kernel_api/tests/kernels/int4_api.cpp) move packed
4-bit data with DataCopy (counts in elements), Cast int4b_t <-> half and view the bytes with
ReinterpretCast<int8_t>; compared with NumPy. Layout: element 2i in the low nibble of byte i."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import pyasc
import pyasc_acl

from ascendc_kernels import load

QK = 64


@pytest.fixture(scope="module")
def kernels():
    return load("int4_api.cpp")


def pack(q: np.ndarray) -> np.ndarray:
    n = (q.astype(np.int8) & 0xF).astype(np.uint8)
    return (n[0::2] | (n[1::2] << 4)).astype(np.uint8)


def unpack(b: np.ndarray) -> np.ndarray:
    lo, hi = (b & 0xF).astype(np.int8), (b >> 4).astype(np.int8)
    out = np.empty(2 * len(b), np.int8)
    out[0::2], out[1::2] = lo, hi
    return np.where(out >= 8, out - 16, out).astype(np.int8)


def test_pack_helpers_round_trip():
    q = np.arange(-8, 8, dtype=np.int8).repeat(2)
    np.testing.assert_array_equal(unpack(pack(q)), q)


def test_dequantise_int4_blocks_with_half_scales(kernels):
    blocks = 3
    rng = np.random.default_rng(1)
    q = rng.integers(-8, 8, blocks * QK).astype(np.int8)
    scale = rng.uniform(0.01, 0.5, blocks).astype(np.float16)
    y = pyasc.zeros(blocks * QK, dtype="float16", device="sim")
    pyasc_acl.launch(kernels.function("dequant_q4"), 1,
                     (pyasc.tensor(pack(q), device="sim"), pyasc.tensor(scale, device="sim"), y, blocks))
    want = (q.astype(np.float16).reshape(blocks, QK) * scale[:, None]).astype(np.float16).ravel()
    np.testing.assert_array_equal(y.numpy(), want)


def test_quantise_half_to_int4_rounds_and_saturates(kernels):
    x = np.linspace(-10, 10, QK).astype(np.float16)
    x[:4] = [0.5, 1.5, -0.5, -2.5]  # ties: CAST_RINT rounds to even
    q = pyasc.zeros(QK // 2, dtype="uint8", device="sim")
    b = pyasc.zeros(QK // 2, dtype="int8", device="sim")
    pyasc_acl.launch(kernels.function("quant_q4"), 1, (pyasc.tensor(x, device="sim"), q, b))
    want = np.clip(np.rint(x.astype(np.float64)), -8, 7).astype(np.int8)
    np.testing.assert_array_equal(unpack(q.numpy()), want)
    np.testing.assert_array_equal(b.numpy().view(np.uint8), pack(want))


def test_int4_cast_to_float_names_the_documented_pairs(tmp_path):
    import pyasc_sim

    src = tmp_path / "int4_float.cpp"
    src.write_text(textwrap.dedent("""
        #include "kernel_operator.h"
        using namespace AscendC;
        extern "C" __global__ __aicore__ void int4_float(GM_ADDR x)
        {
            TPipe pipe;
            TBuf<TPosition::VECCALC> a, b;
            pipe.InitBuffer(a, 256);
            pipe.InitBuffer(b, 256);
            LocalTensor<int4b_t> q = a.Get<int4b_t>();
            LocalTensor<float> f = b.Get<float>();
            Cast(f, q, RoundMode::CAST_NONE, 64);
        }
    """))
    with pytest.raises(pyasc.PyascError) as info:
        pyasc_sim.compile(src, opt="-O0")
    assert "Cast with int4b_t converts int4b_t -> half and half -> int4b_t" in str(info.value)


def test_int4_datacopy_of_a_partial_block_is_reported_in_elements(tmp_path):
    import pyasc_sim

    src = tmp_path / "int4_short.cpp"
    src.write_text(textwrap.dedent("""
        #include "kernel_operator.h"
        using namespace AscendC;
        extern "C" __global__ __aicore__ void int4_short(GM_ADDR x)
        {
            GlobalTensor<int4b_t> g;
            g.SetGlobalBuffer((__gm__ int4b_t *)x, 64);
            TPipe pipe;
            TQue<TPosition::VECIN, 1> q;
            pipe.InitBuffer(q, 1, 32);
            LocalTensor<int4b_t> t = q.AllocTensor<int4b_t>();
            DataCopy(t, g, 32);  // 16 bytes: half a block
            q.FreeTensor(t);
        }
    """))
    kernels = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0"), device="sim")
    stream = pyasc.current_stream("sim")
    x = pyasc.zeros(32, dtype="uint8", device="sim")
    pyasc_acl.launch(kernels.function("int4_short"), 1, (x,), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    assert "DataCopy of 32 int4b_t elements = 16.0 bytes" in info.value.message
    assert "'datacopy-length'" in info.value.message
