"""Issue 10 point 8 for the cube APIs and the high-level APIs: Mmad, LoadData, Fixpipe, Matmul, SoftMax,
SimpleSoftMax, LayerNorm, Sum, Mean, Sigmoid, Gelu, Silu and Swish refuse element types (or type
combinations) their documented tables do not list for the chosen SoC (kapi/dtype_tables.h, the cube /
high-level block), at compile time where the types are template parameters and at run time where a
run-time field decides (LoadData's ifTranspose, Fixpipe's quantPre); listed combinations compile."""
from __future__ import annotations

import os
import re

import pytest

pyasc_sim = pytest.importorskip("pyasc_sim")

A2 = "Atlas A2 training/inference (__CCE_AICORE__ 220, Ascend910B)"
P310 = "the Atlas inference series AI Core (__CCE_AICORE__ 200, Ascend310P)"
SOCS = {"a2": "Ascend910B1", "310p": "Ascend310P3"}

MMAD = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void mm(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::A2> ba;
    AscendC::TBuf<AscendC::TPosition::B2> bb;
    AscendC::TBuf<AscendC::TPosition::CO1> bc;
    AscendC::TBuf<AscendC::TPosition::C2> bz;
    pipe.InitBuffer(ba, 4096);
    pipe.InitBuffer(bb, 4096);
    pipe.InitBuffer(bc, 4096);
    pipe.InitBuffer(bz, 1024);
    AscendC::LocalTensor<%(U)s> a = ba.Get<%(U)s>();
    AscendC::LocalTensor<%(S)s> b = bb.Get<%(S)s>();
    AscendC::LocalTensor<%(T)s> c = bc.Get<%(T)s>();
    AscendC::LocalTensor<%(V)s> z = bz.Get<%(V)s>();
    AscendC::MmadParams p;
    (void)z;
    %(CALL)s;
}
"""
MMAD_CALL = "AscendC::Mmad(c, a, b, p)"
MMAD_BIAS_CALL = "AscendC::Mmad(c, a, b, z, p)"


def _mmad(tmp_path, name, u, s, t, v="float", call=MMAD_CALL):
    p = tmp_path / f"{name}.cpp"
    p.write_text(MMAD % {"U": u, "S": s, "T": t, "V": v, "CALL": call})
    return p


MMAD_OK = {"a2": [("half", "half", "float"), ("bfloat16_t", "bfloat16_t", "float"), ("float", "float", "float"),
                  ("int8_t", "int8_t", "int32_t")],
           "310p": [("half", "half", "float"), ("half", "half", "half"), ("uint8_t", "int8_t", "int32_t"),
                    ("int8_t", "int8_t", "int32_t")]}
MMAD_BAD = {"a2": [("half", "half", "half"), ("uint8_t", "int8_t", "int32_t"), ("half", "float", "float"),
                   ("int8_t", "int8_t", "float")],
            "310p": [("bfloat16_t", "bfloat16_t", "float"), ("float", "float", "float"), ("int8_t", "int8_t", "float")]}


@pytest.mark.parametrize("soc", ["a2", "310p"])
def test_mmad_takes_the_documented_fm_filter_dst_triples(tmp_path, soc):
    for u, s, t in MMAD_OK[soc]:
        assert pyasc_sim.compile(_mmad(tmp_path, f"ok_{soc}_{u}_{s}_{t}", u, s, t), opt="-O0", soc=SOCS[soc]), (u, s, t)
    for u, s, t in MMAD_BAD[soc]:
        src = _mmad(tmp_path, f"bad_{soc}_{u}_{s}_{t}", u, s, t)
        with pytest.raises(pyasc_sim.KernelCompileError) as ei:
            pyasc_sim.compile(src, opt="-O0", soc=SOCS[soc])
        out = ei.value.output
        assert "pyasc dtype-table: AscendC::Mmad is not documented for this fm type U, filter type S and dst type T on " \
               + (A2 if soc == "a2" else P310) in out, (u, s, t)
        assert "half x half -> float;" in out  # the listed triples
        assert ("bfloat16_t x bfloat16_t -> float;" in out) == (soc == "a2")
        assert ("uint8_t x int8_t -> int32_t;" in out) == (soc == "310p")
        assert ei.value.file == str(src) and ei.value.line == 18  # the kernel's Mmad line


def test_mmad_with_a_bias_takes_the_documented_quads_and_none_on_the_inference_series(tmp_path):
    ok = _mmad(tmp_path, "bias_ok", "half", "half", "float", "float", MMAD_BIAS_CALL)
    assert pyasc_sim.compile(ok, opt="-O0", soc="Ascend910B1")
    assert pyasc_sim.compile(_mmad(tmp_path, "bias_i8", "int8_t", "int8_t", "int32_t", "int32_t", MMAD_BIAS_CALL),
                             opt="-O0", soc="Ascend910B1")
    bad = _mmad(tmp_path, "bias_bad", "half", "half", "float", "half", MMAD_BIAS_CALL)  # bias half: not listed
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(bad, opt="-O0", soc="Ascend910B1")
    assert "AscendC::Mmad with a bias is not documented for this fm type U, filter type S, bias type V and dst type T" \
           in ei.value.output and "half x half + float -> float;" in ei.value.output
    # the inference series AI Core has no Mmad with a bias at all
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(ok, opt="-O0", soc="Ascend310P3")
    assert "AscendC::Mmad with a bias is not documented" in ei.value.output and P310 in ei.value.output


LOAD = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void ld(GM_ADDR x, uint32_t transpose) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::A1> b1;
    AscendC::TBuf<AscendC::TPosition::A2> b2;
    pipe.InitBuffer(b1, 1024);
    pipe.InitBuffer(b2, 1024);
    AscendC::LocalTensor<%(T)s> s = b1.Get<%(T)s>();
    AscendC::LocalTensor<%(T)s> d = b2.Get<%(T)s>();
    AscendC::GlobalTensor<%(T)s> g;
    g.SetGlobalBuffer((__gm__ %(T)s *)x, 512 / sizeof(%(T)s));
    %(INIT)s;
    AscendC::LoadData2DParams p;
    p.repeatTimes = 1;
    p.ifTranspose = transpose != 0;
    AscendC::LoadData(d, s, p);  // the LoadData line
}
"""
LOAD_INIT = "AscendC::DataCopy(s, g, 512 / sizeof(decltype(g)::PrimType)); AscendC::PipeBarrier<PIPE_ALL>()"


def test_loaddata_refuses_unlisted_element_types_on_atlas_a2(tmp_path):
    for t in ("half", "bfloat16_t", "int8_t", "float", "uint32_t"):
        p = tmp_path / f"ld_{t}.cpp"
        p.write_text(LOAD % {"T": t, "INIT": "(void)g"})
        assert pyasc_sim.compile(p, opt="-O0", soc="Ascend910B1"), t
    for t in ("int64_t", "double"):
        p = tmp_path / f"ld_{t}.cpp"
        p.write_text(LOAD % {"T": t, "INIT": "(void)g"})
        with pytest.raises(pyasc_sim.KernelCompileError) as ei:
            pyasc_sim.compile(p, opt="-O0", soc="Ascend910B1")
        assert f"AscendC::LoadData is not documented for this element type T on {A2}" in ei.value.output
        assert "listed types: uint8_t, int8_t, uint16_t, int16_t, half, bfloat16_t, uint32_t, int32_t, float" \
               in ei.value.output
        assert ei.value.line == 16


@pytest.mark.parametrize("t,ok", [("half", True), ("int16_t", True), ("bfloat16_t", False)])
def test_transposing_loaddata_takes_uint16_int16_half_only(tmp_path, t, ok):
    # ifTranspose is a run-time field: bfloat16_t compiles and is refused when the transposing load runs
    import pyasc
    import pyasc_acl

    p = tmp_path / f"ldt_{t}.cpp"
    p.write_text(LOAD % {"T": t, "INIT": LOAD_INIT})
    fn = pyasc_acl.Binary(pyasc_sim.compile(p, opt="-O0"), device="sim").function("ld")
    stream = pyasc.current_stream("sim")
    x = pyasc.zeros(128, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (x, 0), stream=stream)  # no transposition: every listed type runs
    stream.synchronize()
    pyasc_acl.launch(fn, 1, (x, 1), stream=stream)
    if ok:
        stream.synchronize()
        return
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert "sanitizer check 'dtype-table'" in msg
    assert "AscendC::LoadData with ifTranspose = true is not documented for this element type" in msg
    assert "listed types: uint16_t, int16_t, half" in msg and f"ldt_{t}.cpp:16" in msg


FIXPIPE = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void fx(GM_ADDR x, GM_ADDR y, uint32_t quant) {
    using In = std::conditional_t<std::is_same<%(U)s, int32_t>::value, int8_t, half>;
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::A2> ba;
    AscendC::TBuf<AscendC::TPosition::B2> bb;
    AscendC::TBuf<AscendC::TPosition::CO1> bc;
    pipe.InitBuffer(ba, 512);
    pipe.InitBuffer(bb, 512);
    pipe.InitBuffer(bc, 16 * 16 * 4);
    AscendC::GlobalTensor<In> gx;
    gx.SetGlobalBuffer((__gm__ In *)x, 512 / sizeof(In));
    AscendC::GlobalTensor<%(T)s> g;
    g.SetGlobalBuffer((__gm__ %(T)s *)y, 256);
    AscendC::LocalTensor<In> a = ba.Get<In>(), b = bb.Get<In>();
    AscendC::LocalTensor<%(U)s> c = bc.Get<%(U)s>();
    AscendC::LoadData2DParams lp;
    lp.repeatTimes = 1;
    AscendC::LoadData(a, gx, lp);
    AscendC::LoadData(b, gx, lp);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::MmadParams mp;
    mp.m = 16;
    mp.n = 16;
    mp.k = 512 / 16 / sizeof(In);
    AscendC::Mmad(c, a, b, mp);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::FixpipeParamsV220 p(16, 16, 16, 16, false);
    p.quantPre = static_cast<QuantMode_t>(quant);
    AscendC::Fixpipe(g, c, p);  // the Fixpipe line
}
"""


def _fixpipe(tmp_path, u, t):
    p = tmp_path / f"fx_{u}_{t}.cpp"
    p.write_text(FIXPIPE % {"U": u, "T": t})
    return p


@pytest.mark.parametrize("u,t", [("float", "uint16_t"), ("float", "int16_t"), ("int32_t", "double")])
def test_fixpipe_refuses_unlisted_src_dst_types(tmp_path, u, t):
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(_fixpipe(tmp_path, u, t), opt="-O0", soc="Ascend910B1")
    out = ei.value.output
    assert f"AscendC::Fixpipe is not documented for this dst type T / src type U on {A2}" in out
    assert "listed dst types: int8_t, uint8_t, half, bfloat16_t, int32_t, float" in out
    assert "listed src (L0C) types: float, int32_t" in out and ei.value.line == 30


def test_fixpipe_is_refused_for_every_type_on_the_inference_series(tmp_path):
    src = _fixpipe(tmp_path, "float", "half")
    assert pyasc_sim.compile(src, opt="-O0", soc="Ascend910B1")
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(src, opt="-O0", soc="Ascend310P3")
    assert f"AscendC::Fixpipe is not documented for this dst type T / src type U on {P310}" in ei.value.output
    assert "not_on_this_soc" in ei.value.output


QUANT = {"NoQuant": 0, "F322F16": 1, "F322BF16": 2, "DEQF16": 3, "VDEQF16": 4, "QF322B8_PRE": 5, "REQ8": 7}


@pytest.mark.parametrize("u,t,mode,ok", [
    ("float", "float", "NoQuant", True), ("float", "half", "F322F16", True),
    ("float", "bfloat16_t", "F322BF16", True), ("int32_t", "int32_t", "NoQuant", True),
    ("int32_t", "half", "DEQF16", True),
    ("float", "half", "NoQuant", False), ("float", "bfloat16_t", "F322F16", False),
    ("int32_t", "half", "F322F16", False), ("float", "float", "F322F16", False),
])
def test_fixpipe_quant_mode_must_convert_src_to_dst(tmp_path, u, t, mode, ok):
    import pyasc
    import pyasc_acl

    fn = pyasc_acl.Binary(pyasc_sim.compile(_fixpipe(tmp_path, u, t), opt="-O0"), device="sim").function("fx")
    stream = pyasc.current_stream("sim")
    x = pyasc.zeros(256, dtype="float16", device="sim")
    y = pyasc.zeros(256, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (x, y, QUANT[mode]), stream=stream)
    if ok:
        stream.synchronize()
        return
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert "sanitizer check 'dtype-table'" in msg
    assert f"AscendC::Fixpipe with quantPre = QuantMode_t::{mode} does not convert" in msg
    assert f"fx_{u}_{t}.cpp:30" in msg


MATMUL = """#include "kernel_operator.h"
#include "lib/matmul_intf.h"
extern "C" __global__ __aicore__ void mt(GM_ADDR x) {
    using A = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, %(A)s>;
    using B = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, %(B)s>;
    using C = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, %(C)s>;
    using Bias = AscendC::MatmulType<AscendC::TPosition::GM, CubeFormat::ND, %(BIAS)s>;
    AscendC::Matmul<A, B, C, Bias> mm;  // the Matmul line
    (void)mm;
}
"""


def _matmul(tmp_path, a, b, bias, c):
    p = tmp_path / f"mt_{a}_{b}_{bias}_{c}.cpp"
    p.write_text(MATMUL % {"A": a, "B": b, "C": c, "BIAS": bias})
    return p


MATMUL_OK = {"a2": [("half", "half", "float", "float"), ("bfloat16_t", "bfloat16_t", "float", "bfloat16_t"),
                    ("float", "float", "half", "float"), ("int8_t", "int8_t", "int32_t", "half"),
                    ("half", "half", "half", "half")],
             "310p": [("half", "half", "float", "float"), ("half", "int8_t", "float", "float"),
                      ("int8_t", "int8_t", "int32_t", "int8_t")]}
MATMUL_BAD = {"a2": [("half", "int8_t", "float", "float"), ("float", "float", "float", "half"),
                     ("half", "half", "float", "int32_t"), ("int8_t", "int8_t", "float", "int32_t")],
              "310p": [("bfloat16_t", "bfloat16_t", "float", "float"), ("float", "float", "float", "float"),
                       ("half", "half", "half", "half")]}


@pytest.mark.parametrize("soc", ["a2", "310p"])
def test_matmul_takes_the_documented_a_b_bias_c_rows(tmp_path, soc):
    for row in MATMUL_OK[soc]:
        assert pyasc_sim.compile(_matmul(tmp_path, *row), opt="-O0", soc=SOCS[soc]), row
    for row in MATMUL_BAD[soc]:
        src = _matmul(tmp_path, *row)
        with pytest.raises(pyasc_sim.KernelCompileError) as ei:
            pyasc_sim.compile(src, opt="-O0", soc=SOCS[soc])
        out = ei.value.output
        assert "AscendC::Matmul is not documented for these MatmulType element types (A, B, Bias, C) on " + \
               (A2 if soc == "a2" else P310) in out, row
        assert "A half, B half, Bias float, C float;" in out and "BIAS_TYPE defaults to C_TYPE" in out
        assert ("A half, B int8_t, Bias float, C float;" in out) == (soc == "310p")
        assert ei.value.file == str(src) and ei.value.line == 8


HL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void hl(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 8192);
    AscendC::LocalTensor<%(T)s> t = buf.Get<%(T)s>();
    %(CALL)s;
}
"""
HL_CALLS = {
    "SoftMax": "SoftMaxTiling tl; AscendC::SoftMaxShapeInfo si{8, 16, 8, 16}; "
               "AscendC::SoftMax(t, t[256], t[512], t[1024], tl, si)",
    "Sum": "AscendC::SumParams sp{1, 16, 16}; AscendC::Sum(t, t[256], sp)",
    "Mean": "AscendC::MeanParams mp{1, 16, 16}; AscendC::Mean(t, t[256], mp)",
    "Sigmoid": "AscendC::Sigmoid(t, t[256], 64)",
    "SimpleSoftMax": "SoftMaxTiling tl; AscendC::SoftMaxShapeInfo si{8, 16, 8, 16}; "
                     "AscendC::SimpleSoftMax(t, t[256], t[512], t[1024], tl, si)",
    "LayerNorm": "LayerNormTiling lt; AscendC::LayerNorm(t, t[256], t[512], t[1024], t[1536], t[1792], "
                 "decltype(t)::PrimType(0), lt)",
    "Gelu": "AscendC::Gelu(t, t[256], 64)",
    "Silu": "AscendC::Silu(t, t[256], 64)",
    "Swish": "AscendC::Swish(t, t[256], 64, decltype(t)::PrimType(1))",
}
UNCHECKED_ON_310P: set[str] = set()  # SimpleSoftMax got its Atlas inference series row in the 6th batch


@pytest.mark.parametrize("api", sorted(HL_CALLS))
def test_high_level_apis_take_half_and_float_on_atlas_a2(tmp_path, api):
    for t in ("half", "float"):
        p = tmp_path / f"hl_{api}_{t}.cpp"
        p.write_text(HL % {"T": t, "CALL": HL_CALLS[api]})
        assert pyasc_sim.compile(p, opt="-O0", soc="Ascend910B1"), (api, t)
    for t in ("int32_t", "bfloat16_t"):
        p = tmp_path / f"hl_{api}_{t}.cpp"
        p.write_text(HL % {"T": t, "CALL": HL_CALLS[api]})
        with pytest.raises(pyasc_sim.KernelCompileError) as ei:
            pyasc_sim.compile(p, opt="-O0", soc="Ascend910B1")
        assert f"AscendC::{api} is not documented for this element type T on {A2}; listed types: half, float" \
               in ei.value.output
        assert ei.value.line == 7
        if api in UNCHECKED_ON_310P:
            assert pyasc_sim.compile(p, opt="-O0", soc="Ascend310P3"), (api, t)
            continue
        with pytest.raises(pyasc_sim.KernelCompileError) as ei:  # the AI Core rows list half / float too
            pyasc_sim.compile(p, opt="-O0", soc="Ascend310P3")
        assert f"AscendC::{api} is not documented for this element type T on {P310}" in ei.value.output


def test_the_cube_block_cites_its_pages_and_covers_both_families():
    with open(os.path.join(pyasc_sim.get_include(), "pyasc_sim", "kapi", "dtype_tables.h"), encoding="utf-8") as f:
        text = f.read()
    block = text.partition("// ==== cube APIs and high-level APIs")[2].partition("// ==== end of the cube")[0]
    a2, _, rest = block.partition("#elif __CCE_AICORE__ == 200")
    p310 = rest.partition("#endif")[0]
    for macro in ("PYASC_SIM_MMAD_TRIPLES", "PYASC_SIM_MMAD_BIAS_QUADS", "PYASC_SIM_FIXPIPE_DST", "PYASC_SIM_MATMUL_QUADS"):
        assert f"#define {macro}" in a2 and f"#define {macro}" in p310, macro
    rows_a2 = dict(re.findall(r"^#define PYASC_SIM_DT_(\w+) (.*)$", a2, re.M))
    rows_310 = dict(re.findall(r"^#define PYASC_SIM_DT_(\w+) (.*)$", p310, re.M))
    assert set(rows_a2) == set(rows_310) == {"LoadData", "SoftMax", "SimpleSoftMax", "LayerNorm", "Sum", "Mean",
                                             "Sigmoid", "Gelu", "Silu", "Swish", "Tanh", "FasterGelu", "SwiGLU",
                                             "RmsNorm", "Broadcast", "TopK"}
    gaps = {"LoadData", "Broadcast"}
    for name, rest in list(rows_a2.items()) + [(n, r) for n, r in rows_310.items() if n not in gaps]:
        assert re.search(r"// source: (ascendcopapi page %s\b|atlasascendc_api_07_\d+\.html \(%s\b|asc-devkit "
                         r"docs/api/\S*\b%s\.md \()" % (name, name, name), rest), name
    # the gaps are spelled out, never guessed
    assert all(rows_310[n].strip() == "PYASC_SIM_DT_UNCHECKED" for n in gaps)
    assert "LoadData: the stored Load2D pages list no Atlas inference series AI Core types" in p310
    # every combination table cites its page
    for page in ("atlasascendc_api_07_0249.html (Mmad)", "atlasascendc_api_07_0251.html (Fixpipe)",
                 "ascendcopapi page Matmul", "ascendcopapi page LoadData (Load2D, ifTranspose)"):
        assert f"source: {page}" in block, page


def test_opt_out_compiles_an_unlisted_cube_combination(tmp_path):
    src = _mmad(tmp_path, "optout", "half", "half", "half")
    with pytest.raises(pyasc_sim.KernelCompileError):
        pyasc_sim.compile(src, opt="-O0", soc="Ascend910B1")
    assert pyasc_sim.compile(src, opt="-O0", soc="Ascend910B1", extra_flags=["-DPYASC_SIM_NO_DTYPE_TABLES"])
