"""Fixpipe's scalar quantization modes (DEQF16, QF322B8_PRE, REQ8) scale every L0C element by deqScalar, the
float whose bits sit in deqScalar's low 32 bits (SetFixpipePreQuantFlag page, atlasascendc_api_07_0254), before
the conversion to the GM type; the simulator used to ignore deqScalar.  Each case runs the same Mmad twice,
once with NoQuant (the exact L0C values) and once with the quant mode, and checks the second against the first."""
from __future__ import annotations

import struct

import pytest

pyasc_sim = pytest.importorskip("pyasc_sim")

FIXPIPE = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void fq(GM_ADDR x, GM_ADDR y, uint32_t quant, uint64_t deq, uint32_t relu) {
    using In = std::conditional_t<std::is_same<%(U)s, int32_t>::value, int8_t, half>;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::A2> ba;
    AscendC::TBuf<AscendC::TPosition::B2> bb;
    AscendC::TBuf<AscendC::TPosition::CO1> bc;
    pipe.InitBuffer(ba, 512);
    pipe.InitBuffer(bb, 512);
    pipe.InitBuffer(bc, 16 * 16 * 4);
    AscendC::GlobalTensor<In> gx;
    gx.SetGlobalBuffer((__gm__ In *)x, 1024 / sizeof(In));
    AscendC::GlobalTensor<%(T)s> g;
    g.SetGlobalBuffer((__gm__ %(T)s *)y, 256);
    AscendC::LocalTensor<In> a = ba.Get<In>(), b = bb.Get<In>();
    AscendC::LocalTensor<%(U)s> c = bc.Get<%(U)s>();
    AscendC::LoadData2DParams lp;
    lp.repeatTimes = 1;
    AscendC::LoadData(a, gx, lp);
    AscendC::LoadData(b, gx[512 / sizeof(In)], lp);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::MmadParams mp;
    mp.m = 16;
    mp.n = 16;
    mp.k = 512 / 16 / sizeof(In);
    AscendC::Mmad(c, a, b, mp);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::FixpipeParamsV220 p(16, 16, 16, 16, relu != 0);
    p.quantPre = static_cast<QuantMode_t>(quant);
    p.deqScalar = deq;
    AscendC::Fixpipe(g, c, p);
}
"""
QUANT = {"NoQuant": 0, "DEQF16": 3, "QF322B8_PRE": 5, "REQ8": 7, "F322F16": 1}


def _deq(scale: float) -> int:
    # the documented encoding: the float's bits, sign-extended from int32 to uint64
    return struct.unpack("<i", struct.pack("<f", scale))[0] & 0xFFFFFFFFFFFFFFFF


def _run(tmp_path, u, t, mode, scale, x, relu=False):
    import numpy as np

    import pyasc
    import pyasc_acl

    src = tmp_path / f"fq_{u}_{t}.cpp"
    src.write_text(FIXPIPE % {"U": u, "T": t})
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0"), device="sim").function("fq")
    xs = pyasc.tensor(x, device="sim")
    y = pyasc.zeros(256, dtype={"int32_t": "int32", "float": "float32", "half": "float16", "int8_t": "int8"}[t],
                    device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (xs, y, QUANT[mode], np.uint64(_deq(scale)), int(relu)))
    pyasc.synchronize("sim")
    return y.numpy()


@pytest.mark.parametrize("scale", [0.5, -0.25, 1.0 / 3.0])
def test_deqf16_scales_int32_by_the_scalar(tmp_path, scale):
    import numpy as np

    x = np.random.default_rng(1).integers(-8, 8, 1024).astype(np.int8)
    exact = _run(tmp_path, "int32_t", "int32_t", "NoQuant", 0.0, x)
    assert np.abs(exact).max() > 0
    got = _run(tmp_path, "int32_t", "half", "DEQF16", scale, x)
    want = (exact.astype(np.float64) * np.float64(np.float32(scale))).astype(np.float16)
    np.testing.assert_array_equal(got, want)


def test_req8_scales_and_saturates_to_int8(tmp_path):
    import numpy as np

    x = np.random.default_rng(2).integers(-16, 16, 1024).astype(np.int8)
    exact = _run(tmp_path, "int32_t", "int32_t", "NoQuant", 0.0, x)
    got = _run(tmp_path, "int32_t", "int8_t", "REQ8", 0.75, x)
    want = np.clip(np.rint(exact.astype(np.float64) * 0.75), -128, 127).astype(np.int8)
    assert (np.abs(exact * 0.75) > 127).any()  # some values saturate
    np.testing.assert_array_equal(got, want)


def test_qf322b8_pre_scales_float_and_relu_follows(tmp_path):
    import numpy as np

    x = (np.random.default_rng(3).standard_normal(512) * 2).astype(np.float16)
    exact = _run(tmp_path, "float", "float", "NoQuant", 0.0, x)
    got = _run(tmp_path, "float", "int8_t", "QF322B8_PRE", 4.0, x, relu=True)
    want = np.clip(np.rint(np.maximum(exact.astype(np.float64) * 4.0, 0)), -128, 127).astype(np.int8)
    np.testing.assert_array_equal(got, want)


def test_modes_without_a_scalar_ignore_deqscalar(tmp_path):
    import numpy as np

    x = (np.random.default_rng(4).standard_normal(512)).astype(np.float16)
    exact = _run(tmp_path, "float", "float", "NoQuant", 0.0, x)
    assert np.array_equal(_run(tmp_path, "float", "float", "NoQuant", 8.0, x), exact)
    np.testing.assert_array_equal(_run(tmp_path, "float", "half", "F322F16", 8.0, x), exact.astype(np.float16))
