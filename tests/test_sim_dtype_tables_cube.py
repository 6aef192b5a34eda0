"""Issue 10 point 8 for the cube APIs and the high-level APIs: Mmad, LoadData, Fixpipe, Matmul, SoftMax,
SimpleSoftMax, LayerNorm, Sum, Mean, Sigmoid, Gelu, Silu and Swish refuse element types (or type
combinations) their documented tables do not list for the chosen SoC (kapi/dtype_tables.h, the cube /
high-level block), at compile time where the types are template parameters and at run time where a
run-time field decides (LoadData's ifTranspose, Fixpipe's quantPre); listed combinations compile.

The probes are batched (tests/probes.py): one source per kernel template, SoC and outcome with an entry point per
case; a refused case's error is the one the compiler attributes to its own line (probes.case_error), so a case
that compiles still fails its own test."""
from __future__ import annotations

import os
import re

import pytest

pyasc_sim = pytest.importorskip("pyasc_sim")

from probes import case_error, compile_error_shared, compile_shared, line_of  # noqa: E402

A2 = "Atlas A2 training/inference (__CCE_AICORE__ 220, Ascend910B)"
P310 = "the Atlas inference series AI Core (__CCE_AICORE__ 200, Ascend310P)"
SOCS = {"a2": "Ascend910B1", "310p": "Ascend310P3"}


def _name(*parts) -> str:
    return "_".join(parts)


def _multi(kernel: str, cases, at: str = "") -> str:
    """One source with an entry point per (name, fields) case: ``kernel`` (its first line, ``#include
    "kernel_operator.h"``, once) with the name in place of its kernel's and ``// case [name]`` on the line
    holding ``at`` (default: the line before the closing brace, the call under test)."""
    head, body = kernel.split("\n", 1)
    out = [head]
    for name, fields in cases:
        lines = re.sub(r"void \w+\(", f"void {name}(", body, count=1).rstrip("\n").split("\n")
        i = next(i for i, t in enumerate(lines) if at in t) if at else len(lines) - 2
        lines[i] += f"  // case [{name}]"
        out.append("\n".join(lines) % fields)
    return "\n".join(out) + "\n"


def _compiles(tpf, group: str, soc: str, kernel: str, cases, at: str = "", **options) -> str:
    """The binary of the cases that must compile: one build per run."""
    return compile_shared(tpf, f"{group}_{soc}.cpp", _multi(kernel, cases, at), opt="-O0", soc=soc, **options)[1]


def _refused(tpf, group: str, soc: str, kernel: str, cases, at: str = "", **options) -> tuple:
    """(path, text, KernelCompileError) of the cases that must not compile: one build per worker."""
    text = _multi(kernel, cases, at)
    path, exc = compile_error_shared(tpf, f"{group}_{soc}.cpp", text, opt="-O0", soc=soc, **options)
    return path, text, exc


def _err(probe: tuple, name: str) -> str:
    return case_error(probe, f"// case [{name}]")

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


MMAD_OK = {"a2": [("half", "half", "float"), ("bfloat16_t", "bfloat16_t", "float"), ("float", "float", "float"),
                  ("int8_t", "int8_t", "int32_t")],
           "310p": [("half", "half", "float"), ("half", "half", "half"), ("uint8_t", "int8_t", "int32_t"),
                    ("int8_t", "int8_t", "int32_t")]}
MMAD_BAD = {"a2": [("half", "half", "half"), ("uint8_t", "int8_t", "int32_t"), ("half", "float", "float"),
                   ("int8_t", "int8_t", "float")],
            "310p": [("bfloat16_t", "bfloat16_t", "float"), ("float", "float", "float"), ("int8_t", "int8_t", "float")]}


@pytest.mark.parametrize("soc", ["a2", "310p"])
def test_mmad_takes_the_documented_fm_filter_dst_triples(tmp_path_factory, soc):
    fields = lambda u, s, t: {"U": u, "S": s, "T": t, "V": "float", "CALL": MMAD_CALL}  # noqa: E731
    assert _compiles(tmp_path_factory, "mmad_listed", SOCS[soc], MMAD,
                     [(_name("ok", soc, *c), fields(*c)) for c in MMAD_OK[soc]])
    probe = _refused(tmp_path_factory, "mmad_refused", SOCS[soc], MMAD,
                     [(_name("bad", soc, *c), fields(*c)) for c in MMAD_BAD[soc]])
    for u, s, t in MMAD_BAD[soc]:
        out = _err(probe, _name("bad", soc, u, s, t))  # attributed to the kernel's Mmad line
        assert "pyasc dtype-table: AscendC::Mmad is not documented for this fm type U, filter type S and dst type T on " \
               + (A2 if soc == "a2" else P310) in out, (u, s, t)
        assert "half x half -> float;" in out  # the listed triples
        assert ("bfloat16_t x bfloat16_t -> float;" in out) == (soc == "a2")
        assert ("uint8_t x int8_t -> int32_t;" in out) == (soc == "310p")


def test_mmad_with_a_bias_takes_the_documented_quads_and_none_on_the_inference_series(tmp_path_factory):
    fields = lambda u, s, t, v: {"U": u, "S": s, "T": t, "V": v, "CALL": MMAD_BIAS_CALL}  # noqa: E731
    ok = [("bias_ok", fields("half", "half", "float", "float")), ("bias_i8", fields("int8_t", "int8_t", "int32_t", "int32_t"))]
    assert _compiles(tmp_path_factory, "mmad_bias_listed", "Ascend910B1", MMAD, ok)
    bad = [("bias_bad", fields("half", "half", "float", "half"))]  # bias half: not listed
    out = _err(_refused(tmp_path_factory, "mmad_bias_refused", "Ascend910B1", MMAD, bad), "bias_bad")
    assert "AscendC::Mmad with a bias is not documented for this fm type U, filter type S, bias type V and dst type T" \
           in out and "half x half + float -> float;" in out
    # the inference series AI Core has no Mmad with a bias at all
    out = _err(_refused(tmp_path_factory, "mmad_bias_listed", "Ascend310P3", MMAD, ok[:1]), "bias_ok")
    assert "AscendC::Mmad with a bias is not documented" in out and P310 in out


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


def test_loaddata_refuses_unlisted_element_types_on_atlas_a2(tmp_path_factory):
    ok, bad = ("half", "bfloat16_t", "int8_t", "float", "uint32_t"), ("int64_t", "double")
    assert _compiles(tmp_path_factory, "ld_listed", "Ascend910B1", LOAD,
                     [(f"ld_{t}", {"T": t, "INIT": "(void)g"}) for t in ok])
    probe = _refused(tmp_path_factory, "ld_refused", "Ascend910B1", LOAD,
                     [(f"ld_{t}", {"T": t, "INIT": "(void)g"}) for t in bad])
    for t in bad:
        out = _err(probe, f"ld_{t}")  # attributed to the LoadData line
        assert f"AscendC::LoadData is not documented for this element type T on {A2}" in out
        assert "listed types: uint8_t, int8_t, uint16_t, int16_t, half, bfloat16_t, uint32_t, int32_t, float" in out


LDT = [("half", True), ("int16_t", True), ("bfloat16_t", False)]


@pytest.mark.parametrize("t,listed", LDT)
def test_transposing_loaddata_lists_uint16_int16_half_and_warns_on_bf16(tmp_path_factory, monkeypatch, t, listed):
    # ifTranspose is a run-time field.  The LoadData page lists uint16_t / int16_t / half for the transposing load;
    # the SDK's device code takes any b16 type (round 26, s26b), so bfloat16_t runs, with the warning
    # dtype-unlisted at the LoadData line -- an error under PYASC_SIM_STRICT
    import warnings

    import pyasc
    import pyasc_acl

    cases = [(f"ldt_{c}", {"T": c, "INIT": LOAD_INIT}) for c, _ in LDT]
    path, binary = compile_shared(tmp_path_factory, "ldt.cpp", _multi(LOAD, cases), opt="-O0")
    fn = pyasc_acl.Binary(binary, device="sim").function(f"ldt_{t}")
    stream = pyasc.current_stream("sim")
    x = pyasc.zeros(128, dtype="int32", device="sim")
    where = f"{path.name}:{line_of(_multi(LOAD, cases), f'// case [ldt_{t}]')}"  # the LoadData line
    pyasc.synchronize("sim")
    for transpose in (0, 1):  # without transposition every listed type runs silently
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", pyasc.SanitizerWarning)
            pyasc_acl.launch(fn, 1, (x, transpose), stream=stream)
            stream.synchronize()
        msgs = [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)]
        if listed or not transpose:
            assert msgs == [], msgs
        else:
            assert len(msgs) == 1 and "dtype-unlisted" in msgs[0] and where in msgs[0], msgs
            assert "AscendC::LoadData with ifTranspose = true on element type bfloat16_t" in msgs[0]
            assert "lists uint16_t, int16_t, half for the transposing load" in msgs[0]
    if listed:
        return
    monkeypatch.setenv("PYASC_SIM_STRICT", "1")
    pyasc_acl.launch(fn, 1, (x, 1), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert "sanitizer check 'dtype-unlisted'" in msg and where in msg, msg


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


FIXPIPE_BAD = [("float", "uint16_t"), ("float", "int16_t"), ("int32_t", "double")]


@pytest.mark.parametrize("u,t", FIXPIPE_BAD)
def test_fixpipe_refuses_unlisted_src_dst_types(tmp_path_factory, u, t):
    probe = _refused(tmp_path_factory, "fx_refused", "Ascend910B1", FIXPIPE,
                     [(f"fx_{a}_{b}", {"U": a, "T": b}) for a, b in FIXPIPE_BAD])
    out = _err(probe, f"fx_{u}_{t}")  # attributed to the Fixpipe line
    assert f"AscendC::Fixpipe is not documented for this dst type T / src type U on {A2}" in out
    assert "listed dst types: int8_t, uint8_t, half, bfloat16_t, int32_t, float" in out
    assert "listed src (L0C) types: float, int32_t" in out


def test_fixpipe_is_refused_for_every_type_on_the_inference_series(tmp_path_factory):
    case = [("fx_float_half", {"U": "float", "T": "half"})]
    assert _compiles(tmp_path_factory, "fx_one", "Ascend910B1", FIXPIPE, case)
    out = _err(_refused(tmp_path_factory, "fx_one", "Ascend310P3", FIXPIPE, case), "fx_float_half")
    assert f"AscendC::Fixpipe is not documented for this dst type T / src type U on {P310}" in out
    assert "not_on_this_soc" in out


QUANT = {"NoQuant": 0, "F322F16": 1, "F322BF16": 2, "DEQF16": 3, "VDEQF16": 4, "QF322B8_PRE": 5, "REQ8": 7}


FIXPIPE_RUNS = [
    ("float", "float", "NoQuant", True), ("float", "half", "F322F16", True),
    ("float", "bfloat16_t", "F322BF16", True), ("int32_t", "int32_t", "NoQuant", True),
    ("int32_t", "half", "DEQF16", True),
    ("float", "half", "NoQuant", False), ("float", "bfloat16_t", "F322F16", False),
    ("int32_t", "half", "F322F16", False), ("float", "float", "F322F16", False),
]


@pytest.mark.parametrize("u,t,mode,ok", FIXPIPE_RUNS)
def test_fixpipe_quant_mode_must_convert_src_to_dst(tmp_path_factory, u, t, mode, ok):
    import pyasc
    import pyasc_acl

    cases = [(f"fx_{a}_{b}", {"U": a, "T": b}) for a, b in dict.fromkeys((r[0], r[1]) for r in FIXPIPE_RUNS)]
    path, binary = compile_shared(tmp_path_factory, "fx_runs.cpp", _multi(FIXPIPE, cases), opt="-O0")
    fn = pyasc_acl.Binary(binary, device="sim").function(f"fx_{u}_{t}")
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
    assert f"{path.name}:{line_of(_multi(FIXPIPE, cases), f'// case [fx_{u}_{t}]')}" in msg  # the Fixpipe line


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


MATMUL_OK = {"a2": [("half", "half", "float", "float"), ("bfloat16_t", "bfloat16_t", "float", "bfloat16_t"),
                    ("float", "float", "half", "float"), ("int8_t", "int8_t", "int32_t", "half"),
                    ("half", "half", "half", "half"),
                    # a bias type not listed for (A, B, C) compiles (the NPU compiler builds a Matmul that
                    # declares one and never sets a bias); SetBias refuses it at run time
                    ("int8_t", "int8_t", "float", "int32_t"), ("bfloat16_t", "bfloat16_t", "bfloat16_t", "float")],
             "310p": [("half", "half", "float", "float"), ("half", "int8_t", "float", "float"),
                      ("int8_t", "int8_t", "int32_t", "int8_t"), ("half", "half", "half", "half")]}
MATMUL_BAD = {"a2": [("half", "int8_t", "float", "float"), ("float", "float", "float", "half"),
                     ("half", "half", "float", "int32_t"), ("int8_t", "int8_t", "int32_t", "float")],
              "310p": [("bfloat16_t", "bfloat16_t", "float", "float"), ("float", "float", "float", "float"),
                       ("half", "half", "half", "int32_t")]}


@pytest.mark.parametrize("soc", ["a2", "310p"])
def test_matmul_takes_the_documented_a_b_bias_c_rows(tmp_path_factory, soc):
    fields = lambda a, b, bias, c: {"A": a, "B": b, "C": c, "BIAS": bias}  # noqa: E731
    assert _compiles(tmp_path_factory, "mt_listed", SOCS[soc], MATMUL,
                     [(_name("mt", *r), fields(*r)) for r in MATMUL_OK[soc]], at="// the Matmul line")
    probe = _refused(tmp_path_factory, "mt_refused", SOCS[soc], MATMUL,
                     [(_name("mt", *r), fields(*r)) for r in MATMUL_BAD[soc]], at="// the Matmul line")
    for row in MATMUL_BAD[soc]:
        out = _err(probe, _name("mt", *row))  # attributed to the kernel's Matmul line
        assert "AscendC::Matmul is not documented for these MatmulType element types (A, B, Bias, C) on " + \
               (A2 if soc == "a2" else P310) in out, row
        assert "A half, B half, Bias float, C float;" in out and "BIAS_TYPE defaults to C_TYPE" in out
        assert ("A half, B int8_t, Bias float, C float;" in out) == (soc == "310p")


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


def _hl(types) -> list:
    return [(f"hl_{api}_{t}", {"T": t, "CALL": HL_CALLS[api]}) for api in sorted(HL_CALLS) for t in types]


@pytest.mark.parametrize("api", sorted(HL_CALLS))
def test_high_level_apis_take_half_and_float_on_atlas_a2(tmp_path_factory, api):
    assert _compiles(tmp_path_factory, "hl_listed", "Ascend910B1", HL, _hl(("half", "float")))
    a2 = _refused(tmp_path_factory, "hl_refused", "Ascend910B1", HL, _hl(("int32_t", "bfloat16_t")))
    p310 = _refused(tmp_path_factory, "hl_refused", "Ascend310P3", HL, _hl(("int32_t", "bfloat16_t")))
    for t in ("int32_t", "bfloat16_t"):
        out = _err(a2, f"hl_{api}_{t}")  # attributed to the kernel's call
        assert f"AscendC::{api} is not documented for this element type T on {A2}; listed types: half, float" in out
        assert not UNCHECKED_ON_310P  # (a row left unchecked there would compile: none is)
        # the AI Core rows list half / float too
        assert f"AscendC::{api} is not documented for this element type T on {P310}" in _err(p310, f"hl_{api}_{t}")


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


def test_opt_out_compiles_an_unlisted_cube_combination(tmp_path_factory):
    case = ("bad_a2_half_half_half", {"U": "half", "S": "half", "T": "half", "V": "float", "CALL": MMAD_CALL})
    assert ("half", "half", "half") in MMAD_BAD["a2"]
    assert _err(_refused(tmp_path_factory, "mmad_refused", "Ascend910B1", MMAD,
                         [(_name("bad", "a2", *c), {**case[1], "U": c[0], "S": c[1], "T": c[2]})
                          for c in MMAD_BAD["a2"]]), case[0])
    assert _compiles(tmp_path_factory, "mmad_opt_out", "Ascend910B1", MMAD, [case],
                     extra_flags=["-DPYASC_SIM_NO_DTYPE_TABLES"])
