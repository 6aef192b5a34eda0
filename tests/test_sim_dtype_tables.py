"""Issue 10 point 8: an Ascend C API called with an element type its documented table does not
list for the chosen SoC fails to compile (kapi/dtype_tables.h), naming the API, the type, the SoC
and the listed types; listed types compile; -DPYASC_SIM_NO_DTYPE_TABLES opts out.

The probes are batched (tests/probes.py): the cases of a test that must compile are entry points of one source,
and so are the cases that must not; each refused case's error is the one the compiler attributes to its own
line (probes.case_error), so a case that compiles still fails its own test."""
from __future__ import annotations

import os
import re

import pytest

pyasc_sim = pytest.importorskip("pyasc_sim")

from probes import case_error, compile_error_shared, compile_shared, line_of  # noqa: E402

KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void dtk(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    AscendC::LocalTensor<%(T)s> t = buf.Get<%(T)s>();
    %(CALL)s;
}
"""


def _src(tmp_path, name: str, t: str, call: str):
    p = tmp_path / f"{name}.cpp"
    p.write_text(KERNEL % {"T": t, "CALL": call})
    return p


def _entry(name: str, t: str, call: str, kernel: str = KERNEL, fields: dict | None = None) -> str:
    """``kernel`` (its first line dropped) as an entry point ``name`` whose last call line is marked ``// case [name]``."""
    body = kernel.split("\n", 1)[1]
    head, _, sig = body.partition("void ")
    sig = sig.split("(", 1)[1]
    lines = (head + f"void {name}(" + sig).rstrip("\n").split("\n")
    lines[-2] += f"  // case [{name}]"  # the line before the closing brace: the call under test
    return "\n".join(lines) % {"T": t, "CALL": call, **(fields or {})} + "\n"


def _multi(cases, kernel: str = KERNEL) -> str:
    """One source with an entry point per (name, element type, call) case (or (name, fields) for ``kernel``)."""
    return '#include "kernel_operator.h"\n' + "".join(
        _entry(c[0], *c[1:3], kernel=kernel) if kernel is KERNEL else _entry(c[0], "", "", kernel=kernel, fields=c[1])
        for c in cases)


def _compiles(tpf, group: str, soc: str, cases, kernel: str = KERNEL, **options) -> str:
    """The binary of the cases that must compile, one build per run."""
    return compile_shared(tpf, f"{group}_{soc}.cpp", _multi(cases, kernel), opt="-O0", soc=soc, **options)[1]


def _refused(tpf, group: str, soc: str, cases, kernel: str = KERNEL, **options) -> tuple:
    """(path, text, KernelCompileError) of the cases that must not compile, one build per worker."""
    text = _multi(cases, kernel)
    path, exc = compile_error_shared(tpf, f"{group}_{soc}.cpp", text, opt="-O0", soc=soc, **options)
    return path, text, exc


def _err(probe: tuple, name: str) -> str:
    """Case ``name``'s own compile error (its line's diagnostics) in a batched probe."""
    return case_error(probe, f"// case [{name}]")


def _tables() -> str:
    with open(os.path.join(pyasc_sim.get_include(), "pyasc_sim", "kapi", "dtype_tables.h"), encoding="utf-8") as f:
        return f.read()


#: the first tests' refused calls on Atlas A2 (the default SoC), one source
A2_REFUSED = [("bf16_add", "bfloat16_t", "AscendC::Add(t, t, t, 64)"), ("i32_exp", "int32_t", "AscendC::Exp(t, t, 64)"),
              ("i8_reduce_sum", "int8_t", "AscendC::ReduceSum(t, t, t, 64)"),
              ("i8_whole_reduce_max", "int8_t", "AscendC::WholeReduceMax(t, t, 64, 1, 1, 1, 8)"),
              ("i8_muls", "int8_t", "AscendC::Muls(t, t, (int8_t)2, 64)")]


@pytest.fixture(scope="module")
def a2_refused(tmp_path_factory):
    text = _multi(A2_REFUSED)
    path, exc = compile_error_shared(tmp_path_factory, "a2_refused.cpp", text, opt="-O0")  # the default SoC
    return path, text, exc


def test_bfloat16_add_is_a_compile_error_naming_api_type_soc_and_listed_types(a2_refused):
    out = _err(a2_refused, "bf16_add")
    assert "AscendC::Add is not documented for this element type" in out
    assert "bfloat16_t" in out  # the instantiation note names T
    assert "Atlas A2" in out and "__CCE_AICORE__ 220" in out
    assert "listed types: half, int16_t, int32_t, float" in out
    assert "PYASC_SIM_NO_DTYPE_TABLES" in out


def test_int32_exp_is_a_compile_error(a2_refused):
    out = _err(a2_refused, "i32_exp")
    assert "AscendC::Exp is not documented" in out and "listed types: half, float" in out
    assert re.search(r"T = (int|int32_t)\b", out)


@pytest.mark.parametrize("name", ["i8_reduce_sum", "i8_whole_reduce_max", "i8_muls"])
def test_other_unlisted_int8_calls_fail(a2_refused, name):
    assert "pyasc dtype-table" in _err(a2_refused, name)


def test_listed_combinations_compile(tmp_path_factory):
    calls = ["AscendC::Add(t, t, t, 64)", "AscendC::Exp(t, t, 64)", "AscendC::Adds(t, t, 1.0f, 64)",
             "AscendC::ReduceSum(t, t, t, 64)", "AscendC::Duplicate(t, 1.0f, 64)"]
    assert compile_shared(tmp_path_factory, "a2_listed.cpp", _multi([("f32_ok", "float", "; ".join(calls)),
                                                                      ("i32_ok", "int32_t", "AscendC::Add(t, t, t, 64)")]),
                          opt="-O0")[1]


#: unlisted calls the opt-out macro compiles (each test's own case; one source)
OPT_OUT = [("bf16_add", "bfloat16_t", "AscendC::Add(t, t, t, 64)"),
           ("tr_bf16", "bfloat16_t", "AscendC::Transpose(t, t[256])")]
OPT_OUT_CAST = [("cast_i16_i32", {"S": "int16_t", "D": "int32_t", "MODE": "NONE"})]


def _opt_out_compiles(tpf) -> str:
    text = _multi(OPT_OUT) + _multi(OPT_OUT_CAST, CAST_KERNEL).split("\n", 1)[1]
    return compile_shared(tpf, "opt_out.cpp", text, opt="-O0", extra_flags=["-DPYASC_SIM_NO_DTYPE_TABLES"])[1]


def test_opt_out_macro_compiles_the_unlisted_call(tmp_path_factory, a2_refused):
    assert _opt_out_compiles(tmp_path_factory)


def test_every_table_entry_cites_its_source_and_is_checked():
    text = _tables()
    entries = re.findall(r"^#define PYASC_SIM_DT_(\w+) (.*)$", text, re.M)
    # the fallback rows (an API a family's table does not list yet) are not entries
    entries = [(n, r) for n, r in entries if n != "UNCHECKED" and r.strip() != "PYASC_SIM_DT_UNCHECKED"]
    assert len({n for n, _ in entries if n == "Add"}) == 1 and sum(n == "Add" for n, _ in entries) == 2  # two SoC families
    apis = {name: rest for name, rest in entries if name not in ("SOC", "STR", "STR2")}
    assert {"Add", "Exp", "Duplicate", "ReduceSum", "Compare", "Select", "Muls", "Adds"} <= set(apis)
    kapi = os.path.join(pyasc_sim.get_include(), "pyasc_sim", "kapi")
    users = "".join(open(os.path.join(kapi, f), encoding="utf-8").read() for f in os.listdir(kapi) if f != "dtype_tables.h")
    for name, rest in apis.items():
        types, _, source = rest.partition("// source:")
        assert source.strip(), f"table entry {name} cites no source page"
        assert re.search(r"(atlasascendc_api_07_\d+\.html|ascendcopapi page %s\b|asc-devkit docs/api/\S+\.md)" % name,
                         source), (name, source)
        assert types.strip(), f"table entry {name} lists no types"
        # the API's template runs the check: directly, or through the family macro taking NAME
        assert re.search(r"DTYPE_CHECK\(%s, T\)|PYASC_SIM_\w+\(%s," % (name, name), users), name


def test_the_error_points_at_the_kernels_call(tmp_path):
    src = _src(tmp_path, "bf16_where", "bfloat16_t", "AscendC::Add(t, t, t, 64)")
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(src, opt="-O0")
    assert ei.value.file == str(src) and ei.value.line == 7  # the Add line of KERNEL
    assert str(ei.value).startswith(f"{src}:7: error: static assertion failed: pyasc dtype-table: AscendC::Add")


# -- per SoC: the tables follow the SoC the kernel is compiled for -----------------------------------

# the calls that compile for both families, and each family's refused calls: one source each (the same
# entry point, same line, in both: the same kernel compiles for one SoC and not for the other)
BOTH = [("bf16_dup", "bfloat16_t", "AscendC::Duplicate(t, (bfloat16_t)1.0f, 64)"),
        ("shl_i16", "int16_t", "AscendC::ShiftLeft(t, t, (int16_t)1, 64)"),
        ("shr_i16", "int16_t", "AscendC::ShiftRight(t, t, (int16_t)1, 64)")]
P310_REFUSED = [*BOTH, ("p_i8_add", "int8_t", "AscendC::Add(t, t, t, 64)"),
                ("p_and_i32", "int32_t", "AscendC::And(t, t, t, 64)"),
                ("p_bf16_brcb", "bfloat16_t", "AscendC::BrcbRepeatParams p(1, 8); AscendC::Brcb(t, t[512], 1, p)")]


@pytest.fixture(scope="module")
def p310_refused(tmp_path_factory):
    return _refused(tmp_path_factory, "p310_refused", "Ascend310P3", P310_REFUSED)


def test_the_same_kernel_compiles_for_atlas_a2_and_is_refused_for_the_inference_series(tmp_path_factory,
                                                                                       p310_refused):
    # Duplicate lists bfloat16_t for Atlas A2 (910B), not for the Atlas inference series AI Core (310P)
    assert _compiles(tmp_path_factory, "both", "Ascend910B1", BOTH)
    out = _err(p310_refused, "bf16_dup")
    assert "pyasc dtype-table: AscendC::Duplicate is not documented for this element type T on the Atlas " \
           "inference series AI Core (__CCE_AICORE__ 200, Ascend310P)" in out
    assert "listed types: half, int16_t, uint16_t, int32_t, uint32_t, float" in out
    assert p310_refused[1].startswith(_multi(BOTH))  # the same entry points, line for line


def test_inference_series_rows_check_and_unlisted_apis_pass(tmp_path, p310_refused):
    # a row of the 310P table refuses an unlisted type; a listed one compiles
    assert re.search("AscendC::Add is not documented.*Ascend310P", _err(p310_refused, "p_i8_add"))
    assert pyasc_sim.compile(_src(tmp_path, "p_f16", "half", "AscendC::Add(t, t, t, 64); AscendC::Exp(t, t, 64)"),
                             opt="-O0", soc="Ascend310P1")


def test_inference_series_arch_macros():
    flags = pyasc_sim.build.arch_defines("Ascend310P3")
    assert "-D__CCE_AICORE__=200" in flags and "-D__NPU_ARCH__=2002" in flags and "-D__DAV_M200__=1" in flags
    assert not any("C220" in f for f in flags)
    with pytest.raises(pyasc_sim.KernelBuildError, match="Ascend310P3"):
        pyasc_sim.build.arch_defines("Ascend310X")  # the error names the known SoCs


# -- Cast: a table of (source, destination) pairs (issue 11) -----------------------------------------

CAST_KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void ck(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 4096);
    pipe.InitBuffer(b, 4096);
    AscendC::LocalTensor<%(D)s> d = a.Get<%(D)s>();
    AscendC::LocalTensor<%(S)s> s = b.Get<%(S)s>();
    AscendC::Cast(d, s, AscendC::RoundMode::CAST_%(MODE)s, 64);
}
"""


def _cast_case(src: str, dst: str, mode: str = "NONE") -> tuple:
    return f"cast_{src}_{dst}_{mode}", {"S": src, "D": dst, "MODE": mode}


UNDOCUMENTED_CASTS = [("uint8_t", "int32_t"), ("int16_t", "int32_t"), ("int64_t", "half"), ("int8_t", "float"),
                      ("bfloat16_t", "half")]


@pytest.mark.parametrize("src,dst", UNDOCUMENTED_CASTS)
def test_an_undocumented_cast_pair_is_a_compile_error(tmp_path_factory, src, dst):
    probe = _refused(tmp_path_factory, "cast_refused", "Ascend910B1", [_cast_case(*c) for c in UNDOCUMENTED_CASTS],
                     CAST_KERNEL)
    out = _err(probe, _cast_case(src, dst)[0])
    assert "AscendC::Cast is not documented from this source type U to this destination type T" in out
    assert "Atlas A2" in out and "float->int64_t" in out and "int64_t->int32_t" in out  # the listed pairs


def test_documented_cast_pairs_compile_and_other_families_are_unchecked(tmp_path_factory):
    pairs = [("float", "int64_t", "TRUNC"), ("float", "int16_t", "TRUNC"), ("int64_t", "int32_t", "NONE"),
             ("int64_t", "float", "RINT"), ("int32_t", "int64_t", "NONE"), ("int16_t", "float", "NONE")]
    assert _compiles(tmp_path_factory, "cast_listed", "Ascend910B1", [_cast_case(*c) for c in pairs], CAST_KERNEL)
    # the Atlas inference series checks its Cast rows when the call runs (test_sim_dtype_tables_310p_cast.py):
    # an unlisted pair still compiles there
    assert _compiles(tmp_path_factory, "cast_unchecked", "Ascend310P3", [_cast_case("uint8_t", "int32_t")], CAST_KERNEL)
    # and the opt-out macro compiles an unlisted pair (refused above without it)
    assert ("cast_i16_i32", {"S": "int16_t", "D": "int32_t", "MODE": "NONE"}) in OPT_OUT_CAST
    assert _opt_out_compiles(tmp_path_factory)


def test_the_cast_table_matches_the_cast_pair_tests():
    # one list of documented pairs: the table in dtype_tables.h and test_sim_cast_pairs.PAIRS agree
    from test_sim_cast_pairs import PAIRS, TYPES

    names = {"f32": "float", "f16": "half", "bf16": "bfloat16_t", "s64": "int64_t", "s32": "int32_t",
             "s16": "int16_t", "s8": "int8_t", "u8": "uint8_t"}
    assert set(TYPES) == set(names)
    body = re.search(r"#define PYASC_SIM_CAST_PAIRS\(X\)(.*?)\n#endif", _tables(), re.S).group(1)
    table = set(re.findall(r"X\((\w+), (\w+)\)", body))
    assert table == {(names[s], names[d]) for s, d in PAIRS}


# -- the 310P table covers the implemented vector APIs the reference gives an AI Core row for ---------

FILLED = [
    ("Sub", "bfloat16_t", "AscendC::Sub(t, t, t, 64)"),
    ("Mul", "int8_t", "AscendC::Mul(t, t, t, 64)"),
    ("Div", "int32_t", "AscendC::Div(t, t, t, 64)"),
    ("Max", "uint16_t", "AscendC::Max(t, t, t, 64)"),
    ("Min", "bfloat16_t", "AscendC::Min(t, t, t, 64)"),
    ("Ln", "int16_t", "AscendC::Ln(t, t, 64)"),
    ("Abs", "int16_t", "AscendC::Abs(t, t, 64)"),
    ("Sqrt", "int32_t", "AscendC::Sqrt(t, t, 64)"),
    ("Rsqrt", "int32_t", "AscendC::Rsqrt(t, t, 64)"),
    ("Reciprocal", "int16_t", "AscendC::Reciprocal(t, t, 64)"),
    ("Adds", "bfloat16_t", "AscendC::Adds(t, t, (bfloat16_t)1.0f, 64)"),
    ("Muls", "int8_t", "AscendC::Muls(t, t, (int8_t)2, 64)"),
    ("Maxs", "uint32_t", "AscendC::Maxs(t, t, (uint32_t)2, 64)"),
    ("Mins", "uint32_t", "AscendC::Mins(t, t, (uint32_t)2, 64)"),
]
FILLED_ROWS = [(f"p_{api}", t, call) for api, t, call in FILLED]


@pytest.mark.parametrize("api,t,call", FILLED)
def test_inference_series_refuses_unlisted_types_of_every_filled_row(tmp_path_factory, api, t, call):
    out = _err(_refused(tmp_path_factory, "filled_rows", "Ascend310P3", FILLED_ROWS), f"p_{api}")
    assert f"AscendC::{api} is not documented for this element type T on the Atlas inference series" in out


def test_inference_series_listed_types_of_the_filled_rows_compile(tmp_path_factory):
    half = ["AscendC::Sub(t, t, t, 64)", "AscendC::Mul(t, t, t, 64)", "AscendC::Div(t, t, t, 64)",
            "AscendC::Max(t, t, t, 64)", "AscendC::Min(t, t, t, 64)", "AscendC::Ln(t, t, 64)",
            "AscendC::Abs(t, t, 64)", "AscendC::Sqrt(t, t, 64)", "AscendC::Rsqrt(t, t, 64)",
            "AscendC::Reciprocal(t, t, 64)", "AscendC::Adds(t, t, (half)1.0f, 64)",
            "AscendC::Muls(t, t, (half)2.0f, 64)", "AscendC::Maxs(t, t, (half)0.0f, 64)",
            "AscendC::Mins(t, t, (half)0.0f, 64)"]
    i16 = ["AscendC::Sub(t, t, t, 64)", "AscendC::Max(t, t, t, 64)", "AscendC::Adds(t, t, (int16_t)1, 64)",
           "AscendC::Muls(t, t, (int16_t)2, 64)", "AscendC::Mins(t, t, (int16_t)2, 64)"]
    assert _compiles(tmp_path_factory, "filled_listed", "Ascend310P3",
                     [("p_half_ok", "half", "; ".join(half)), ("p_i16_ok", "int16_t", "; ".join(i16))])


def test_the_inference_series_table_has_a_row_for_every_elementwise_api_it_checks_on_atlas_a2():
    text = _tables()
    a2, _, rest = text.partition("#elif __CCE_AICORE__ == 200")
    p310, _, _ = rest.partition("#endif")
    rows = lambda block: set(re.findall(r"^#define PYASC_SIM_DT_(\w+) ", block, re.M)) - {"SOC"}
    # the reductions: the reference pages give no AI Core row (documented in
    # PYASC_SIM_NO_ROW_FOR_INFERENCE_SERIES); Compare/Compares/CompareScalar, Select and LeakyRelu have one
    # since the 5th batch (tests/test_sim_dtype_tables_copy_hl.py)
    assert rows(a2) - rows(p310) == {"ReduceSum", "ReduceMax", "ReduceMin", "WholeReduceSum", "WholeReduceMax",
                                     "WholeReduceMin", "BlockReduceSum", "BlockReduceMax", "BlockReduceMin",
                                     "PairReduceSum"}


CMP_KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void cmp_i32(GM_ADDR x, GM_ADDR z, uint32_t mode) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> a, m;
    pipe.InitBuffer(a, 64 * sizeof(int32_t));
    pipe.InitBuffer(m, 32);
    AscendC::GlobalTensor<int32_t> gx;
    AscendC::GlobalTensor<uint8_t> gz;
    gx.SetGlobalBuffer((__gm__ int32_t *)x, 64);
    gz.SetGlobalBuffer((__gm__ uint8_t *)z, 32);
    AscendC::LocalTensor<int32_t> t = a.Get<int32_t>();
    AscendC::LocalTensor<uint8_t> bits = m.Get<uint8_t>();
    AscendC::DataCopy(t, gx, 64);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Compare(bits, t, t, static_cast<AscendC::CMPMODE>(mode), 64);  // the Compare line
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(gz, bits, 32);
}
"""


def test_int32_compare_takes_eq_and_ne_only(tmp_path):
    # Compare lists int32_t for EQ / NE only on Atlas A2: an ordering mode is reported at run time
    import numpy as np

    import pyasc
    import pyasc_acl

    src = tmp_path / "cmp_i32.cpp"
    src.write_text(CMP_KERNEL)
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0"), device="sim").function("cmp_i32")
    stream = pyasc.current_stream("sim")
    x = pyasc.tensor(np.arange(64, dtype=np.int32), device="sim")
    z = pyasc.zeros(32, dtype="uint8", device="sim")
    modes = {"LT": 0, "GT": 1, "EQ": 2, "LE": 3, "GE": 4, "NE": 5}
    for ok in ("EQ", "NE"):
        pyasc_acl.launch(fn, 1, (x, z, modes[ok]), stream=stream)
        stream.synchronize()
        assert z.numpy()[:8].tolist() == ([255] * 8 if ok == "EQ" else [0] * 8)
    pyasc_acl.launch(fn, 1, (x, z, modes["LT"]), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert "sanitizer check 'unsupported'" in msg and "Compare with int32_t takes CMPMODE::EQ or CMPMODE::NE" in msg
    assert "cmp_i32.cpp:" in msg  # points at the kernel's Compare line


# -- bitwise, shifts and LeakyRelu (issue 10 point 8, second batch) ----------------------------------

BITWISE = [
    # int32_t / uint32_t And / Or: refused in the mask forms (the SDK static_asserts int16_t / uint16_t there); the
    # count form runs on 16-bit lanes with the warning dtype-unlisted (tests/test_sim_compat_bitwise_int32.py)
    ("And", "int32_t", "AscendC::BinaryRepeatParams p; AscendC::And(t, t, t, (uint64_t)64, 1, p)"),
    ("Or", "uint32_t", "AscendC::BinaryRepeatParams p; uint64_t m[2] = {~0ULL, 0}; AscendC::Or(t, t, t, m, 1, p)"),
    ("Not", "int8_t", "AscendC::Not(t, t, 64)"),
    ("ShiftLeft", "uint8_t", "AscendC::ShiftLeft(t, t, (uint8_t)1, 64)"),
    ("ShiftRight", "int8_t", "AscendC::ShiftRight(t, t, (int8_t)1, 64)"),
    ("LeakyRelu", "int16_t", "AscendC::LeakyRelu(t, t, (int16_t)1, 64)"),
    ("BlockReduceSum", "int32_t", "AscendC::BlockReduceSum(t, t, 1, 64, 1, 1, 8)"),
    ("BlockReduceMax", "int16_t", "AscendC::BlockReduceMax(t, t, 1, 64, 1, 1, 8)"),
    ("BlockReduceMin", "bfloat16_t", "AscendC::BlockReduceMin(t, t, 1, 64, 1, 1, 8)"),
    ("PairReduceSum", "int32_t", "AscendC::PairReduceSum(t, t, 1, 64, 1, 1, 8)"),
    ("CompareScalar", "int16_t", "AscendC::UnaryRepeatParams p; "
                                 "AscendC::CompareScalar(t, t, (int16_t)1, AscendC::CMPMODE::EQ, 64, 1, p)"),
    ("Brcb", "int8_t", "AscendC::BrcbRepeatParams p(1, 8); AscendC::Brcb(t, t[1024], 1, p)"),
]


@pytest.mark.parametrize("api,t,call", BITWISE)
def test_unlisted_bitwise_shift_and_leakyrelu_types_fail_on_atlas_a2(tmp_path_factory, api, t, call):
    probe = _refused(tmp_path_factory, "bitwise_refused", "Ascend910B1", [(f"a2_{a}", ty, c) for a, ty, c in BITWISE])
    out = _err(probe, f"a2_{api}")  # attributed to the kernel's call, not the header
    assert f"AscendC::{api} is not documented for this element type T on Atlas A2" in out


def test_listed_bitwise_shift_and_leakyrelu_types_compile(tmp_path_factory, p310_refused):
    i16 = ["AscendC::And(t, t, t, 64)", "AscendC::Or(t, t, t, 64)", "AscendC::Not(t, t, 64)",
           "AscendC::ShiftLeft(t, t, (uint16_t)1, 64)", "AscendC::ShiftRight(t, t, (uint16_t)1, 64)"]
    shifts = ["AscendC::ShiftLeft(t, t, 3, 64)", "AscendC::ShiftRight(t, t, 3, 64)"]
    red = ["AscendC::BlockReduceSum(t, t, 1, 64, 1, 1, 8)", "AscendC::BlockReduceMax(t, t, 1, 64, 1, 1, 8)",
           "AscendC::BlockReduceMin(t, t, 1, 64, 1, 1, 8)", "AscendC::PairReduceSum(t, t, 1, 64, 1, 1, 8)"]
    brcb = "AscendC::BrcbRepeatParams p(1, 8); AscendC::Brcb(t, t[512], 1, p)"
    assert _compiles(tmp_path_factory, "bitwise_listed", "Ascend910B1", [
        ("u16_ok", "uint16_t", "; ".join(i16)), ("i32_ok", "int32_t", "; ".join(shifts)),
        ("f16_ok", "half", "AscendC::LeakyRelu(t, t, (half)0.5f, 64)"), ("f32_red_ok", "float", "; ".join(red)),
        ("bf16_brcb", "bfloat16_t", brcb)])
    assert ("p_bf16_brcb", "bfloat16_t", brcb) in P310_REFUSED
    assert "AscendC::Brcb is not documented" in _err(p310_refused, "p_bf16_brcb")
    # no AI Core row on those pages: unchecked on the inference series; And / Or / Not keep their
    # int16_t/uint16_t rows on the Atlas inference series
    assert _compiles(tmp_path_factory, "bitwise_listed", "Ascend310P3", [
        ("p_i32_red", "int32_t", red[0]), ("p_i16_ok", "int16_t", "; ".join(i16[:3]))])


def test_shifts_are_refused_for_every_type_on_the_inference_series(tmp_path_factory, p310_refused):
    # the ShiftLeft / ShiftRight pages mark the Atlas inference series AI Core unsupported (the same entry points
    # compile for Atlas A2: BOTH)
    for api, name in (("ShiftLeft", "shl_i16"), ("ShiftRight", "shr_i16")):
        assert any(c[0] == name and f"AscendC::{api}(" in c[2] for c in BOTH)
        out = _err(p310_refused, name)
        assert f"AscendC::{api} is not documented for this element type T on the Atlas inference series" in out
        assert "not_on_this_soc" in out
    assert _compiles(tmp_path_factory, "both", "Ascend910B1", BOTH)
    assert "AscendC::And is not documented" in _err(p310_refused, "p_and_i32")


TENSOR_OP_KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void top(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    AscendC::LocalTensor<%(T)s> t = buf.Get<%(T)s>();
    AscendC::Duplicate(t, (%(T)s)1, static_cast<int32_t>(t.GetSize()));  // operators run over the whole tensor
    t = t + t;
    t = t %(OP)s t;
}
"""


@pytest.mark.parametrize("t,op,ok", [("int16_t", "&", True), ("int32_t", "+", True), ("int32_t", "&", "warn"),
                                     ("int32_t", "|", "warn"), ("float", "&", False), ("float", "|", False)])
def test_tensor_bitwise_operators_follow_the_and_or_rows(tmp_path, t, op, ok):
    # `a & b` / `a | b` are And / Or: a float tensor op compiles (the op is chosen at run time) and is refused
    # when the line runs; on int32_t they run as the SDK's operators do (And / Or over 2 x GetSize() 16-bit
    # lanes) with the warning dtype-unlisted; + on int32 (which instantiates the same dispatcher) is unaffected
    import warnings

    import pyasc
    import pyasc_acl

    if op == "+":
        body = TENSOR_OP_KERNEL.replace("    t = t %(OP)s t;\n", "")
    else:
        body = TENSOR_OP_KERNEL
    src = tmp_path / f"top_{t}_{ord(op)}.cpp"
    src.write_text(body % {"T": t, "OP": op})
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0"), device="sim").function("top")
    stream = pyasc.current_stream("sim")
    x = pyasc.zeros(8, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (x,), stream=stream)
    if ok:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", pyasc.SanitizerWarning)
            stream.synchronize()
        msgs = [str(w.message) for w in seen if issubclass(w.category, pyasc.SanitizerWarning)]
        if ok == "warn":
            assert len(msgs) == 1 and "dtype-unlisted" in msgs[0] and f"top_{t}_{ord(op)}.cpp:9" in msgs[0], msgs
            assert "count 2048 covers 4096 bytes, 1024 elements of int32_t" in msgs[0], msgs
        else:
            assert msgs == []
        return
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert "sanitizer check 'dtype-table'" in msg and ("AscendC::And" in msg or "AscendC::Or" in msg)
    assert f"top_{t}_{ord(op)}.cpp:9" in msg


AXPY_KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void ax(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 4096);
    pipe.InitBuffer(b, 4096);
    AscendC::LocalTensor<%(D)s> d = a.Get<%(D)s>();
    AscendC::LocalTensor<%(S)s> s = b.Get<%(S)s>();
    AscendC::Axpy(d, s, (%(S)s)2, 64);
}
"""


AXPY_CASES = [("half", "half", True), ("float", "float", True), ("half", "float", True), ("float", "half", False),
              ("int32_t", "int32_t", False), ("int16_t", "float", False)]


def _axpy(ok: bool) -> list:
    return [(f"axpy_{s}_{d}", {"S": s, "D": d}) for s, d, k in AXPY_CASES if k == ok]


@pytest.mark.parametrize("src,dst,ok", AXPY_CASES)
def test_axpy_takes_the_documented_source_destination_pairs(tmp_path_factory, src, dst, ok):
    if ok:
        assert _compiles(tmp_path_factory, "axpy_listed", "Ascend910B1", _axpy(True), AXPY_KERNEL)
        return
    out = _err(_refused(tmp_path_factory, "axpy_refused", "Ascend910B1", _axpy(False), AXPY_KERNEL), f"axpy_{src}_{dst}")
    assert "AscendC::Axpy is not documented from this source type U to this destination type T" in out
    assert "half->float" in out  # attributed to the Axpy line
    # the inference series AI Core lists the same pairs (test_sim_dtype_tables_310p_cast.py)
    assert _err(_refused(tmp_path_factory, "axpy_refused", "Ascend310P3", _axpy(False), AXPY_KERNEL),
                f"axpy_{src}_{dst}")


# -- fused arithmetic and Unified-Buffer data movement (issue 10 point 8, third batch) ----------------

A2 = "Atlas A2 training/inference (__CCE_AICORE__ 220, Ascend910B)"
P310 = "the Atlas inference series AI Core (__CCE_AICORE__ 200, Ascend310P)"
SOCS = {"a2": ("Ascend910B1", A2), "310p": ("Ascend310P3", P310)}

GATHER = "AscendC::LocalTensor<uint32_t> o = t.ReinterpretCast<uint32_t>(); AscendC::Gather(t, t, o, 0, 8)"
GATHER_MASK = "uint64_t n = 0; AscendC::GatherMask(t, t[512], (uint8_t)1, false, 0, AscendC::GatherMaskParams(), n)"
COPY = "AscendC::CopyRepeatParams p; AscendC::Copy(t, t[512], 64, 1, p)"

# (api, call, {soc: (a listed type, an unlisted type, the listed-types text of the message)})
NEW_ROWS = [
    ("AddRelu", "AscendC::AddRelu(t, t, t, 64)",
     {"a2": ("int16_t", "int32_t", "int16_t, half, float"), "310p": ("half", "int32_t", "int16_t, half, float")}),
    ("SubRelu", "AscendC::SubRelu(t, t, t, 64)",
     {"a2": ("float", "bfloat16_t", "int16_t, half, float"), "310p": ("int16_t", "uint16_t", "int16_t, half, float")}),
    ("MulAddDst", "AscendC::MulAddDst(t, t, t, 64)",
     {"a2": ("float", "int32_t", "half, float"), "310p": ("half", "int16_t", "half, float")}),
    ("FusedMulAdd", "AscendC::FusedMulAdd(t, t, t, 64)",
     {"a2": ("half", "int16_t", "half, float"), "310p": ("float", "int32_t", "half, float")}),
    ("FusedMulAddRelu", "AscendC::FusedMulAddRelu(t, t, t, 64)",
     {"a2": ("float", "bfloat16_t", "half, float"), "310p": ("half", "int16_t", "half, float")}),
    ("Copy", COPY,
     {"a2": ("bfloat16_t", "uint8_t", "uint16_t, int16_t, half, bfloat16_t, uint32_t, int32_t, float")}),
    ("Gather", GATHER,
     {"a2": ("bfloat16_t", "int8_t", "int16_t, uint16_t, int32_t, uint32_t, float, half, bfloat16_t"),
      "310p": ("uint32_t", "bfloat16_t", "int16_t, uint16_t, int32_t, uint32_t, float, half")}),
    ("GatherMask", GATHER_MASK,
     {"a2": ("bfloat16_t", "int8_t", "half, bfloat16_t, uint16_t, int16_t, float, uint32_t, int32_t"),
      "310p": ("int32_t", "bfloat16_t", "half, uint16_t, int16_t, float, uint32_t, int32_t")}),
    ("Sort32", "AscendC::LocalTensor<uint32_t> o = t[1024].ReinterpretCast<uint32_t>(); AscendC::Sort32(t, t[512], o, 1)",
     {"a2": ("half", "int32_t", "half, float")}),
    ("Concat", "AscendC::Concat(t, t[512], t[1024], 1)",
     {"a2": ("float", "int16_t", "half, float"), "310p": ("half", "int32_t", "half, float")}),
    ("CreateVecIndex", "AscendC::CreateVecIndex(t, decltype(t)::PrimType(0), 64)",
     {"a2": ("int32_t", "uint32_t", "int16_t, half, int32_t, float"),
      "310p": ("int16_t", "bfloat16_t", "int16_t, half, int32_t, float")}),
    ("Extract", "AscendC::LocalTensor<uint32_t> o = t[1024].ReinterpretCast<uint32_t>(); AscendC::Extract(t, o, t[512], 1)",
     {"a2": ("float", "int32_t", "half, float"), "310p": ("half", "int16_t", "half, float")}),
    ("ArithProgression", "AscendC::ArithProgression(t, decltype(t)::PrimType(0), decltype(t)::PrimType(1), 64)",
     {"a2": ("int16_t", "uint32_t", "half, float, int16_t, int32_t"),
      "310p": ("float", "bfloat16_t", "half, float, int16_t, int32_t")}),
]
NEW_CASES = [(api, call, soc, *row) for api, call, rows in NEW_ROWS for soc, row in rows.items()]


@pytest.mark.parametrize("api,call,soc,ok,bad,listed", NEW_CASES, ids=[f"{c[0]}-{c[2]}" for c in NEW_CASES])
def test_fused_and_data_movement_rows_refuse_unlisted_types(tmp_path_factory, api, call, soc, ok, bad, listed):
    name, soc_text = SOCS[soc]
    cases = [c for c in NEW_CASES if c[2] == soc]
    assert _compiles(tmp_path_factory, "new_rows_listed", name, [(f"{c[0]}_ok", c[3], c[1]) for c in cases])
    out = _err(_refused(tmp_path_factory, "new_rows_refused", name, [(f"{c[0]}_bad", c[4], c[1]) for c in cases]),
               f"{api}_bad")  # attributed to the kernel's call, not the header
    assert f"AscendC::{api} is not documented for this element type T on {soc_text}" in out
    assert f"listed types: {listed} (see pyasc_sim/kapi/dtype_tables.h" in out
    spelled = {"int8_t": "signed char", "uint8_t": "unsigned char", "int16_t": "short int",
               "uint16_t": "short unsigned int", "int32_t": "int", "uint32_t": "unsigned int"}.get(bad, bad)
    assert re.search(r"T = [\w:]*(%s|%s)\b" % (re.escape(bad), re.escape(spelled)), out)  # the note names T


SORT32 = "AscendC::LocalTensor<uint32_t> o = t[1024].ReinterpretCast<uint32_t>(); AscendC::Sort32(t, t[512], o, 1)"


@pytest.mark.parametrize("api,call,types", [("Copy", COPY, ("float", "half", "int16_t")),
                                            ("Sort32", SORT32, ("float", "half"))])
def test_apis_the_inference_series_lacks_are_refused_for_every_type_there(tmp_path_factory, api, call, types):
    # the Copy and Sort32 pages mark the Atlas inference series AI Core unsupported (the same entry points
    # compile for Atlas A2)
    cases = [(f"p_{api}_{t}", t, call) for t in types]
    assert _compiles(tmp_path_factory, f"lacks_{api}", "Ascend910B1", cases)
    probe = _refused(tmp_path_factory, f"lacks_{api}", "Ascend310P3", cases)
    for t in types:
        out = _err(probe, f"p_{api}_{t}")
        assert f"AscendC::{api} is not documented for this element type T on {P310}" in out
        assert "not_on_this_soc" in out


def test_transpose_compiles_bfloat16_and_refuses_other_sizes(tmp_path_factory):
    # the table lists uint16_t / int16_t / half, but the SDK checks it only with a CPU-debug assertion and the
    # device build transposes 16-bit words whatever T is (asc-devkit kernel_operator_vec_transpose_intf_impl.h):
    # bfloat16_t compiles (the run-time warning dtype-unlisted: tests/test_sim_compat_transpose_divceil.py);
    # a 4-byte type stays a compile error (the instruction would shuffle its 16-bit halves)
    for name in ("Ascend910B1", "Ascend310P3"):
        assert _compiles(tmp_path_factory, "transpose_b16", name,
                         [(f"tr_{t}", t, "AscendC::Transpose(t, t[256])") for t in ("half", "bfloat16_t", "uint16_t")])
    out = _err(_refused(tmp_path_factory, "transpose_b32", "Ascend910B1",
                        [("tr_float", "float", "AscendC::Transpose(t, t[256])")]), "tr_float")
    assert "Transpose(dst, src) transposes a 16x16 matrix of 2-byte elements" in out
    assert ("tr_bf16", "bfloat16_t", "AscendC::Transpose(t, t[256])") in OPT_OUT
    assert _opt_out_compiles(tmp_path_factory)


GM_PATTERN = ("AscendC::LocalTensor<%s> m = t[1024].ReinterpretCast<%s>(); uint64_t n = 0; "
              "AscendC::GatherMask(t, t[512], m, false, 0, AscendC::GatherMaskParams(), n)")


GM_CASES = [("half", "uint16_t", True), ("int16_t", "uint16_t", True), ("float", "uint32_t", True),
            ("int32_t", "uint32_t", True), ("float", "uint16_t", False), ("half", "uint32_t", False),
            ("half", "uint8_t", False)]


@pytest.mark.parametrize("t,u,ok", GM_CASES)
def test_gather_mask_pattern_type_follows_the_element_size(tmp_path_factory, t, u, ok):
    cases = [(f"gm_{a}_{b}", a, GM_PATTERN % (b, b)) for a, b, k in GM_CASES if k == ok]
    for soc in ("Ascend910B1", "Ascend310P3"):
        if ok:
            assert _compiles(tmp_path_factory, "gm_pattern_listed", soc, cases)
            continue
        out = _err(_refused(tmp_path_factory, "gm_pattern_refused", soc, cases), f"gm_{t}_{u}")
        assert "AscendC::GatherMask takes a src1Pattern tensor of uint16_t for 16-bit elements" in out


def _rows(block: str) -> set:
    return set(re.findall(r"^#define PYASC_SIM_DT_(\w+) ", block, re.M)) - {"SOC"}


def test_every_checked_api_has_an_atlas_a2_row():
    # an API whose template runs PYASC_SIM_DTYPE_CHECK falls back to "unchecked" when a family has no
    # row; on Atlas A2 (the default SoC) none may be left without one
    text = _tables()
    fallbacks = set(re.findall(r"^#ifndef PYASC_SIM_DT_(\w+)\n#define PYASC_SIM_DT_\1 PYASC_SIM_DT_UNCHECKED", text, re.M))
    a2 = _rows(text.partition("#elif __CCE_AICORE__ == 200")[0])
    # ... except the documented gaps (PYASC_SIM_NO_ROW_FOR_ATLAS_A2: no A2 row could be read in full)
    a2_gaps = set(re.search(r'#define PYASC_SIM_NO_ROW_FOR_ATLAS_A2 "(.*)"', text).group(1).split())
    assert fallbacks - a2 == a2_gaps
    assert {"AddRelu", "SubRelu", "MulAddDst", "FusedMulAdd", "FusedMulAddRelu", "Copy", "Gather", "GatherMask",
            "Transpose", "Sort32", "Concat", "CreateVecIndex", "Extract", "ArithProgression"} <= a2


def test_the_inference_series_gaps_are_listed_in_one_place():
    text = _tables()
    a2, _, rest = text.partition("#elif __CCE_AICORE__ == 200")
    p310 = rest.partition("#endif")[0]
    listed = re.search(r"#define PYASC_SIM_NO_ROW_FOR_INFERENCE_SERIES\s*\\\n((?:\s*\".*\"\s*\\?\n)+)", text).group(1)
    gaps = set(" ".join(re.findall(r"\"(.*?)\"", listed)).split())
    # the element-type tables: every Atlas A2 row has an inference-series row or is a listed gap
    assert _rows(a2) - _rows(p310) == gaps
    # the pair tables: Cast (checked when the call runs there) and Axpy have rows for both families
    assert "Cast" not in gaps and "Axpy" not in gaps
    assert re.search(r"#if __CCE_AICORE__ == 220\n#define PYASC_SIM_CAST_PAIRS", text)
    assert re.search(r"#if __CCE_AICORE__ == 200\n#define PYASC_SIM_CAST_ROWS_AT_RUN", text)
    assert re.search(r"#if __CCE_AICORE__ == 220\n#define PYASC_SIM_AXPY_PAIRS", text)
    assert re.search(r"#elif __CCE_AICORE__ == 200\n(//.*\n)*#define PYASC_SIM_AXPY_PAIRS", text)
