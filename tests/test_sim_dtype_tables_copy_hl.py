"""Issue 10 point 8, fifth batch of the API x dtype tables (kapi/dtype_tables.h): DataCopy on Atlas A2 and its
local -> GM and local -> local forms (both families), the Nd2NzParams form's own list, and the high-level
Tanh, FasterGelu, SwiGLU, RmsNorm and TopK (both families; RmsNorm's and TopK's Atlas inference series rows
since the 6th batch), Broadcast (Atlas A2; unchecked on the Atlas inference series, whose row the stored pages
do not give), and the Atlas inference series rows of LeakyRelu,
Compare, Compares / CompareScalar and Select.  A listed type compiles, an unlisted one is
refused at compile time naming the API, the SoC and the listed types, at the kernel's call line."""
from __future__ import annotations

import os
import re

import pytest

pyasc_sim = pytest.importorskip("pyasc_sim")

KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void dtk(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    AscendC::LocalTensor<%(T)s> t = buf.Get<%(T)s>(); using P = %(T)s; constexpr uint32_t K = 1024 / sizeof(P);
    %(CALL)s;
}
"""

A2 = "Atlas A2 training/inference (__CCE_AICORE__ 220, Ascend910B)"
P310 = "the Atlas inference series AI Core (__CCE_AICORE__ 200, Ascend310P)"
SOCS = {"a2": ("Ascend910B1", A2), "310p": ("Ascend310P3", P310)}

DC_A2 = ("int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float, int64_t, uint64_t, "
         "double")
DC_310P = "int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float, int64_t, uint64_t, double"
ND2NZ_A2 = "int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float"
ND2NZ_310P = "int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float"

GM = "AscendC::GlobalTensor<P> g; g.SetGlobalBuffer((__gm__ P *)x, 4096 / sizeof(P)); "
PARAMS = "AscendC::DataCopyParams p(2, 4, 1, 1); "
TOPK = ("AscendC::TopkTiling tt{}; AscendC::TopKInfo ki{1, 32, 32}; "
        "AscendC::TopK<P>(t[K], t[2 * K].ReinterpretCast<int32_t>(), t, t[3 * K].ReinterpretCast<int32_t>(), "
        "t[4 * K].ReinterpretCast<bool>(), 8, tt, ki)")

# (name in the message, call, {soc: (a listed type, an unlisted type, the listed-types text)})
ROWS = [
    ("DataCopy", GM + "AscendC::DataCopy(t, g, 512 / sizeof(P))",
     {"a2": ("bfloat16_t", "char16_t", DC_A2), "310p": ("double", "bfloat16_t", DC_310P)}),
    ("DataCopy", GM + "AscendC::DataCopy(g, t, 512 / sizeof(P))",  # UB -> GM
     {"a2": ("int64_t", "char16_t", DC_A2), "310p": ("half", "bfloat16_t", DC_310P)}),
    ("DataCopy", "AscendC::DataCopy(t[K], t, 512 / sizeof(P))",  # UB -> UB
     {"a2": ("bfloat16_t", "char16_t", DC_A2), "310p": ("uint64_t", "bfloat16_t", DC_310P)}),
    ("DataCopy", GM + PARAMS + "AscendC::DataCopy(t, g, p)",
     {"a2": ("uint8_t", "char16_t", DC_A2), "310p": ("int8_t", "bfloat16_t", DC_310P)}),
    ("DataCopy", GM + PARAMS + "AscendC::DataCopy(g, t, p)",
     {"a2": ("double", "char16_t", DC_A2), "310p": ("float", "bfloat16_t", DC_310P)}),
    ("DataCopy", PARAMS + "AscendC::DataCopy(t[K], t, p)",
     {"a2": ("uint32_t", "char16_t", DC_A2), "310p": ("int32_t", "bfloat16_t", DC_310P)}),
    ("DataCopy (the Nd2NzParams form)",
     GM + "AscendC::Nd2NzParams p{1, 2, 16, 0, 16, 2, 1, 0}; AscendC::DataCopy(t, g, p)",
     {"a2": ("bfloat16_t", "int64_t", ND2NZ_A2), "310p": ("half", "double", ND2NZ_310P)}),
    ("Tanh", "AscendC::Tanh(t[K], t, 64)",
     {"a2": ("half", "bfloat16_t", "half, float"), "310p": ("float", "int32_t", "half, float")}),
    ("FasterGelu", "AscendC::FasterGelu(t[K], t, 64)",
     {"a2": ("float", "int16_t", "half, float"), "310p": ("half", "bfloat16_t", "half, float")}),
    ("SwiGLU", "AscendC::SwiGLU(t[2 * K], t, t[K], 1.0f, 64)",
     {"a2": ("half", "int32_t", "half, float"), "310p": ("float", "int16_t", "half, float")}),
    ("RmsNorm", "RmsNormTiling tl{}; tl.bLength = 1; tl.sLength = 1; tl.hLength = 32; "
                "AscendC::RmsNorm(t[2 * K], t, t[K], (P)0, tl)",
     {"a2": ("float", "int16_t", "half, float"), "310p": ("half", "int32_t", "half, float")}),
    ("Broadcast", "uint32_t ds[2] = {4, 16}; uint32_t ss[2] = {4, 1}; AscendC::Broadcast<P, 2, 1>(t[K], t, ds, ss)",
     # int16_t / int32_t run with the warning dtype-unlisted on Atlas A2 (round 27, s27a: the SDK moves 2- and
     # 4-byte elements as they are); an 8-byte type stays refused
     {"a2": ("int8_t", "int64_t", "int8_t, uint8_t, half, float")}),
    ("TopK", TOPK, {"a2": ("half", "bfloat16_t", "half, float"), "310p": ("float", "int32_t", "half, float")}),
    # the Atlas inference series rows of LeakyRelu, Compare, Compares / CompareScalar and Select (the A2 rows
    # are tested in tests/test_sim_dtype_tables.py)
    ("LeakyRelu", "AscendC::LeakyRelu(t[K], t, (P)0, 64)", {"310p": ("half", "int16_t", "half, float")}),
    ("Compare", "AscendC::Compare(t[K].ReinterpretCast<uint8_t>(), t, t[2 * K], AscendC::CMPMODE::EQ, 64)",
     {"310p": ("float", "int32_t", "half, float")}),
    ("Compares", "AscendC::Compares(t[K].ReinterpretCast<uint8_t>(), t, (P)0, AscendC::CMPMODE::LT, 64)",
     {"310p": ("half", "int32_t", "half, float")}),
    ("CompareScalar", "AscendC::UnaryRepeatParams p; "
                      "AscendC::CompareScalar(t[K].ReinterpretCast<uint8_t>(), t, (P)1, AscendC::CMPMODE::EQ, 64, 1, p)",
     {"310p": ("float", "int16_t", "half, float")}),
    ("Select", "AscendC::Select(t[2 * K], t[K].ReinterpretCast<uint8_t>(), t, t[3 * K], "
               "AscendC::SELMODE::VSEL_TENSOR_TENSOR_MODE, 64)",
     {"310p": ("half", "int32_t", "half, float")}),
]
CASES = [(api, call, soc, *row) for api, call, rows in ROWS for soc, row in rows.items()]
SPELLED = {"int8_t": "signed char", "uint8_t": "unsigned char", "int16_t": "short int", "uint16_t": "short unsigned int",
           "int32_t": "int", "uint32_t": "unsigned int", "int64_t": "long int", "uint64_t": "long unsigned int"}

# One kernel holds every case of a SoC, each in its own block with its own element type (one compile per
# SoC and direction: the compiler reports every failed instantiation, one static_assert each).
BATCH = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void dtk(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
%s}
"""
BLOCK = ("    {  // case %(I)d\n"
         "        using P = %(T)s; constexpr uint32_t K = 1024 / sizeof(P); AscendC::LocalTensor<P> t = buf.Get<P>();\n"
         "        %(CALL)s;\n"
         "    }\n")


def _src(tmp_path, name: str, t: str, call: str):
    p = tmp_path / f"{re.sub(r'[^A-Za-z0-9_]', '_', name)}.cpp"
    p.write_text(KERNEL % {"T": t, "CALL": call})
    return p


def _batch(tmp_path, name: str, cases, which: int):
    p = tmp_path / f"{name}.cpp"
    p.write_text(BATCH % "".join(BLOCK % {"I": i, "T": c[which], "CALL": c[1]} for i, c in enumerate(cases)))
    return p


def _tables() -> str:
    with open(os.path.join(pyasc_sim.get_include(), "pyasc_sim", "kapi", "dtype_tables.h"), encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("soc", ["a2", "310p"])
def test_listed_types_compile_and_unlisted_ones_are_refused(tmp_path, soc):
    name, soc_text = SOCS[soc]
    cases = [c for c in CASES if c[2] == soc]
    assert pyasc_sim.compile(_batch(tmp_path, f"ok_{soc}", cases, 3), opt="-O0", soc=name)
    src = _batch(tmp_path, f"bad_{soc}", cases, 4)
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(src, opt="-O0", soc=name)
    out = ei.value.output
    # every case is refused once, by its own row, with the unlisted type named
    assert out.count("static assertion failed: pyasc dtype-table:") == len(cases)
    for api, _, _, _, bad, listed in cases:
        assert (f"pyasc dtype-table: AscendC::{api} is not documented for this element type T on {soc_text}; "
                f"listed types: {listed} (see pyasc_sim/kapi/dtype_tables.h") in out, api
        spelled = SPELLED.get(bad, bad)
        assert re.search(r"T = [\w:]*(%s|%s)\b" % (re.escape(bad), re.escape(spelled)), out), (api, bad)
    # the opt-out compiles the same kernel (less TopK, whose family-wide half / float check stays)
    rest = _batch(tmp_path, f"optout_{soc}", [c for c in cases if c[0] != "TopK"], 4)
    assert pyasc_sim.compile(rest, opt="-O0", soc=name, extra_flags=["-DPYASC_SIM_NO_DTYPE_TABLES"])


@pytest.mark.parametrize("case", [0, 1])  # DataCopy UB -> GM and the Nd2Nz form, Atlas A2
def test_the_error_points_at_the_kernels_call(tmp_path, case):
    api, call, _, _, bad, _ = [c for c in CASES if c[2] == "a2"][1 if case == 0 else 6]
    src = _src(tmp_path, f"where_{case}", bad, call)
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(src, opt="-O0", soc="Ascend910B1")
    assert f"AscendC::{api} is not documented" in ei.value.output
    assert ei.value.file == str(src) and ei.value.line == 7  # the kernel's call, not the header


@pytest.mark.parametrize("api,call,t", [
    ("Broadcast", ROWS[11][1], "int64_t"),
])
def test_rows_the_pages_do_not_give_stay_unchecked_on_the_inference_series(tmp_path, api, call, t):
    # refused on Atlas A2 (above); the Atlas inference series has no readable row: not checked there
    src = _src(tmp_path, f"unchecked_{api}", t, call)
    assert pyasc_sim.compile(src, opt="-O0", soc="Ascend310P3")
    with pytest.raises(pyasc_sim.KernelCompileError):
        pyasc_sim.compile(src, opt="-O0", soc="Ascend910B1")


def test_topk_is_refused_by_its_row_on_the_inference_series_too(tmp_path):
    # the 6th batch gave TopK its Atlas inference series row (half, float); it fires before the family-wide check
    src = _src(tmp_path, "topk_i16", "int16_t", TOPK)
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(src, opt="-O0", soc="Ascend310P3")
    assert f"pyasc dtype-table: AscendC::TopK is not documented for this element type T on {P310}" in ei.value.output
    assert "listed types: half, float" in ei.value.output and ei.value.line == 7


def test_no_gap_left_on_atlas_a2_and_every_new_row_cites_its_page():
    text = _tables()
    assert re.search(r'#define PYASC_SIM_NO_ROW_FOR_ATLAS_A2 ""', text)
    for api in ("DataCopy", "DataCopyNd2Nz", "Tanh", "FasterGelu", "SwiGLU", "RmsNorm", "Broadcast", "TopK", "LeakyRelu",
                "Compare", "Compares", "CompareScalar", "Select"):
        rows = re.findall(r"^#define PYASC_SIM_DT_%s (.*)$" % api, text, re.M)
        rows = [r for r in rows if r.strip() != "PYASC_SIM_DT_UNCHECKED"]
        assert rows, api
        assert any(re.search(r"// source: asc-devkit docs/api/\S+\.md \(", r) for r in rows), api
        for r in rows:
            assert re.search(r"// source: (atlasascendc_api_07_\d+\.html|asc-devkit docs/api/\S+\.md) \(", r), (api, r)


BF16_COPY = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void bf16_copy(GM_ADDR x, GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> qi;
    AscendC::TQue<AscendC::QuePosition::VECOUT, 1> qo;
    pipe.InitBuffer(qi, 1, 256 * sizeof(bfloat16_t));
    pipe.InitBuffer(qo, 1, 256 * sizeof(bfloat16_t));
    AscendC::GlobalTensor<bfloat16_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ bfloat16_t *)x, 256);
    yg.SetGlobalBuffer((__gm__ bfloat16_t *)y, 256);
    AscendC::LocalTensor<bfloat16_t> a = qi.AllocTensor<bfloat16_t>();
    AscendC::DataCopy(a, xg, 256);
    qi.EnQue(a);
    a = qi.DeQue<bfloat16_t>();
    AscendC::LocalTensor<bfloat16_t> b = qo.AllocTensor<bfloat16_t>();
    AscendC::DataCopy(b, a, AscendC::DataCopyParams(2, 8, 0, 0));
    qo.EnQue(b);
    qi.FreeTensor(a);
    b = qo.DeQue<bfloat16_t>();
    AscendC::DataCopy(yg, b, 256);
    qo.FreeTensor(b);
}
"""


def test_bfloat16_datacopy_moves_the_bits_on_atlas_a2(tmp_path):
    # bfloat16_t is on DataCopy's Atlas A2 list for every direction: GM -> UB -> UB -> GM keeps every bit
    import ml_dtypes
    import numpy as np

    import pyasc
    import pyasc_acl

    src = tmp_path / "bf16_copy.cpp"
    src.write_text(BF16_COPY)
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0", soc="Ascend910B1"), device="sim").function("bf16_copy")
    x = np.random.default_rng(3).standard_normal(256).astype(ml_dtypes.bfloat16)
    xs = pyasc.tensor(x, device="sim")
    y = pyasc.zeros(256, dtype="bfloat16", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (xs, y))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy().view(np.uint16), x.view(np.uint16))
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:  # not on the inference series' list
        pyasc_sim.compile(src, opt="-O0", soc="Ascend310P3")
    assert f"AscendC::DataCopy is not documented for this element type T on {P310}" in ei.value.output
