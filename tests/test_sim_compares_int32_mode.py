"""Issue 10 point 8: Compares and CompareScalar list int32_t on Atlas A2 for CMPMODE::EQ only (asc-devkit
Compares.md, 数据类型: "int32_t（只支持CMPMODE::EQ）"), half / float for every mode; the Atlas inference series
AI Core lists half / float only.  The mode is a run-time argument, so an unlisted mode on int32_t is a run-time
'unsupported' error naming the API, the type, the mode, the SoC and the fix, at the kernel's call line."""
from __future__ import annotations

import numpy as np
import pytest

pyasc_sim = pytest.importorskip("pyasc_sim")
pyasc_acl = pytest.importorskip("pyasc_acl")

import pyasc  # noqa: E402

A2 = "Atlas A2 training/inference (__CCE_AICORE__ 220, Ascend910B)"
MODES = {"LT": 0, "GT": 1, "EQ": 2, "LE": 3, "GE": 4, "NE": 5}
FORMS = {0: "Compares", 1: "CompareScalar", 2: "CompareScalar"}  # count, count, mask / repeat form

KERNEL = """#include "kernel_operator.h"
using T = %(T)s;
extern "C" __global__ __aicore__ void cmps(GM_ADDR x, GM_ADDR z, uint32_t mode, uint32_t form) {
    constexpr uint32_t N = 256 / sizeof(T);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> a, m;
    pipe.InitBuffer(a, 256);
    pipe.InitBuffer(m, 32);
    AscendC::GlobalTensor<T> gx;
    AscendC::GlobalTensor<uint8_t> gz;
    gx.SetGlobalBuffer((__gm__ T *)x, N);
    gz.SetGlobalBuffer((__gm__ uint8_t *)z, 32);
    AscendC::LocalTensor<T> t = a.Get<T>();
    AscendC::LocalTensor<uint8_t> bits = m.Get<uint8_t>();
    AscendC::Duplicate(bits.ReinterpretCast<uint16_t>(), (uint16_t)0, 16);
    AscendC::DataCopy(t, gx, N);
    AscendC::PipeBarrier<PIPE_ALL>();
    const AscendC::CMPMODE cm = static_cast<AscendC::CMPMODE>(mode);
    AscendC::UnaryRepeatParams p;
    if (form == 0) {
        AscendC::Compares(bits, t, (T)5, cm, N);  // the Compares line
    } else if (form == 1) {
        AscendC::CompareScalar(bits, t, (T)5, cm, N);  // the CompareScalar count line
    } else {
        AscendC::CompareScalar(bits, t, (T)5, cm, (uint64_t)N, 1, p);  // the CompareScalar mask line
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gz, bits, 32);
}
"""

OPS = {"LT": np.less, "GT": np.greater, "EQ": np.equal, "LE": np.less_equal, "GE": np.greater_equal,
       "NE": np.not_equal}


def _fn(tmp_path, t: str, soc: str | None = None):
    src = tmp_path / f"cmps_{t}.cpp"
    src.write_text(KERNEL % {"T": t})
    kw = {"soc": soc} if soc else {}
    return pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0", **kw), device="sim").function("cmps")


def _run(fn, x: np.ndarray, mode: str, form: int) -> np.ndarray:
    stream = pyasc.current_stream("sim")
    gx = pyasc.tensor(x, device="sim")
    z = pyasc.zeros(32, dtype="uint8", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (gx, z, MODES[mode], form), stream=stream)
    stream.synchronize()
    return np.unpackbits(z.numpy(), bitorder="little")[: x.size].astype(bool)


def _x(dtype) -> np.ndarray:
    return (np.arange(256 // np.dtype(dtype).itemsize) % 11).astype(dtype)  # 5 appears, below and above


@pytest.mark.parametrize("form", sorted(FORMS))
def test_int32_eq_is_listed_on_a2(tmp_path, form):
    x = _x(np.int32)
    np.testing.assert_array_equal(_run(_fn(tmp_path, "int32_t"), x, "EQ", form), x == 5)


@pytest.mark.parametrize("form", sorted(FORMS))
@pytest.mark.parametrize("mode", ["NE", "LT", "GE"])
def test_int32_other_modes_are_refused_on_a2(tmp_path, form, mode):
    fn = _fn(tmp_path, "int32_t")
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        _run(fn, _x(np.int32), mode, form)
    msg = info.value.message
    api = FORMS[form]
    assert "sanitizer check 'unsupported'" in msg
    assert f"{api} with int32_t takes CMPMODE::EQ only on {A2} (mode CMPMODE::{mode})" in msg
    assert "Cast the int32 operand(s) to float" in msg
    assert "cmps_int32_t.cpp:" in msg  # the kernel's call line, not the header's


@pytest.mark.parametrize("soc", [None, "Ascend310P3"])
@pytest.mark.parametrize("form", sorted(FORMS))
def test_float_takes_every_mode_on_both_socs(tmp_path, soc, form):
    fn = _fn(tmp_path, "float", soc)
    x = _x(np.float32)
    for mode, op in OPS.items():
        np.testing.assert_array_equal(_run(fn, x, mode, form), op(x, 5), err_msg=f"{FORMS[form]} {mode}")


def test_int32_is_unlisted_on_the_inference_series(tmp_path):
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        _fn(tmp_path, "int32_t", "Ascend310P3")
    out = ei.value.output
    assert "AscendC::Compares is not documented for this element type" in out
    assert "AscendC::CompareScalar is not documented for this element type" in out
    assert "listed types: half, float" in out


def test_opt_out_runs_the_unlisted_mode(tmp_path):
    src = tmp_path / "cmps_optout.cpp"
    src.write_text(KERNEL % {"T": "int32_t"})
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0", extra_flags=["-DPYASC_SIM_NO_DTYPE_TABLES"]),
                          device="sim").function("cmps")
    x = _x(np.int32)
    np.testing.assert_array_equal(_run(fn, x, "LT", 0), x < 5)
