"""Issue 10 point 8, fourth batch of the API x dtype tables (kapi/dtype_tables.h): DataCopy (GM -> local),
DataCopyPad, SetAtomicAdd / Max / Min / Type, ScalarCast, Sort, MrgSort (both forms) and ProposalConcat /
ProposalExtract, per SoC family (Atlas A2 = Ascend910B, the Atlas inference series AI Core = Ascend310P).
A listed type compiles, an unlisted one is refused naming the API, the SoC and the listed types; APIs the
reference marks unsupported on a family are refused for every type there (DataCopyPad on Ascend310P when
the call runs, so that kernels reaching it only for unaligned lengths still build). The SetAtomic* rows are
checked when the call runs (CANN's own check is a run-time assertion; the NPU compiler accepts any T)."""
from __future__ import annotations

import os
import re

import pytest

pyasc_sim = pytest.importorskip("pyasc_sim")

KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void dtk(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4096);
    AscendC::LocalTensor<%(T)s> t = buf.Get<%(T)s>(); using P = %(T)s;
    %(CALL)s;
}
"""

A2 = "Atlas A2 training/inference (__CCE_AICORE__ 220, Ascend910B)"
P310 = "the Atlas inference series AI Core (__CCE_AICORE__ 200, Ascend310P)"
SOCS = {"a2": ("Ascend910B1", A2), "310p": ("Ascend310P3", P310)}

GM = "AscendC::GlobalTensor<P> g; g.SetGlobalBuffer((__gm__ P *)x, 512); "
DATACOPY_IN = GM + "AscendC::DataCopy(t, g, 512 / sizeof(P))"
DATACOPY_PAD_OUT = GM + "AscendC::DataCopyExtParams p{1, 64, 0, 0, 0}; AscendC::DataCopyPad(g, t, p)"
SORT = ("AscendC::LocalTensor<uint32_t> o = t[1024].ReinterpretCast<uint32_t>(); AscendC::LocalTensor<P> w = t[1536]; "
        "AscendC::Sort<P, true>(t, t[512], o, w, 1)")
MRGSORT = ("AscendC::MrgSortSrcList<P> l(t[0], t[256]); uint16_t c[4] = {32, 32, 0, 0}; uint32_t n[4]; "
           "AscendC::MrgSort<P>(t[1024], l, c, n, 3, 1)")
MRGSORT_INFO = ("AscendC::MrgSortSrcList<P> l(t[0], t[256], t[512], t[768]); uint16_t c[4] = {32, 32, 32, 32}; "
                "AscendC::MrgSort4Info i(c, false, 15, 1); AscendC::MrgSort(t[1024], l, i)")

# (name in the message, row, call, {soc: (a listed type, an unlisted type, the listed-types text)})
ROWS = [
    ("DataCopy", DATACOPY_IN,
     {"310p": ("half", "bfloat16_t", "int8_t, uint8_t, int16_t, uint16_t, half, int32_t, uint32_t, float, int64_t, "
                                     "uint64_t, double")}),
    ("DataCopyPad", DATACOPY_PAD_OUT,
     {"a2": ("bfloat16_t", "char16_t", "half, bfloat16_t, int16_t, uint16_t, float, int32_t, uint32_t, int8_t, uint8_t, "
                                   "int64_t, uint64_t, double")}),
    ("Sort", SORT, {"a2": ("float", "int16_t", "half, float"), "310p": ("half", "int32_t", "half, float")}),
    ("MrgSort", MRGSORT, {"a2": ("half", "int32_t", "half, float"), "310p": ("float", "int16_t", "half, float")}),
    ("MrgSort (the MrgSort4Info form)", MRGSORT_INFO, {"a2": ("float", "int32_t", "half, float")}),
    ("ProposalConcat", "AscendC::ProposalConcat(t, t[1024], 1, 4)", {"310p": ("half", "int16_t", "half, float")}),
    ("ProposalExtract", "AscendC::ProposalExtract(t[1024], t, 1, 4)", {"310p": ("float", "int32_t", "half, float")}),
]
CASES = [(api, call, soc, *row) for api, call, rows in ROWS for soc, row in rows.items()]
# SetAtomicAdd / Max / Min / Type: CANN checks the type with a run-time assertion (its CPU-debug build) and
# the NPU compiler accepts any T, so the simulator checks these rows when the call runs (public kernels hold
# SetAtomicAdd<uint16_t> in helpers only another SoC calls)
ATOMIC_ROWS = [
    ("SetAtomicAdd", "AscendC::SetAtomicAdd<P>(); AscendC::SetAtomicNone()",
     {"a2": ("bfloat16_t", "uint8_t", "int8_t, int16_t, half, bfloat16_t, int32_t, float"),
      "310p": ("int16_t", "int32_t", "int16_t, half, float")}),
    ("SetAtomicMax", "AscendC::SetAtomicMax<P>(); AscendC::SetAtomicNone()",
     {"a2": ("int8_t", "uint32_t", "int8_t, int16_t, half, bfloat16_t, int32_t, float"),
      "310p": (None, "float", "::pyasc_sim::kapi::dtypes::not_on_this_soc")}),
    ("SetAtomicMin", "AscendC::SetAtomicMin<P>(); AscendC::SetAtomicNone()",
     {"a2": ("half", "uint16_t", "int8_t, int16_t, half, bfloat16_t, int32_t, float"),
      "310p": (None, "half", "::pyasc_sim::kapi::dtypes::not_on_this_soc")}),
    ("SetAtomicType", "AscendC::SetAtomicAdd<float>(); AscendC::SetAtomicType<P>(); AscendC::SetAtomicNone()",
     {"a2": ("int32_t", "double", "int8_t, int16_t, half, bfloat16_t, int32_t, float"),
      "310p": ("half", "int8_t", "int16_t, half, float")}),
]
ATOMIC_CASES = [(api, call, soc, *row) for api, call, rows in ATOMIC_ROWS for soc, row in rows.items()]
#: every atomic probe of a SoC (the listed type where there is one, the unlisted one), one source per SoC
ATOMIC_PROBES = {soc: [p for api, call, s, ok, bad, _l in ATOMIC_CASES if s == soc
                       for p in ([(f"{api}_{s}_ok", ok, call)] if ok is not None else []) + [(f"{api}_{s}_bad", bad, call)]]
                 for soc in ("a2", "310p")}
SPELLED = {"int8_t": "signed char", "uint8_t": "unsigned char", "int16_t": "short int", "uint16_t": "short unsigned int",
           "int32_t": "int", "uint32_t": "unsigned int"}


def _src(tmp_path, name: str, t: str, call: str):
    p = tmp_path / f"{re.sub(r'[^A-Za-z0-9_]', '_', name)}.cpp"
    p.write_text(KERNEL % {"T": t, "CALL": call})
    return p


def _entry(name: str) -> str:
    return "dtk_" + re.sub(r"[^A-Za-z0-9_]", "_", name)


def _multi(cases) -> str:
    """One source with an entry ``_entry(name)`` per (name, T, call); each call line ends ``// case <name>``."""
    body = KERNEL.split("\n", 1)[1].replace("%(CALL)s;", "%(CALL)s;  // case %(NAME)s")
    return '#include "kernel_operator.h"\n' + "".join(
        body.replace("void dtk(", f"void {_entry(n)}(") % {"T": t, "CALL": c, "NAME": n} for n, t, c in cases)


@pytest.fixture(scope="module")
def shared_build(tmp_path_factory):
    """(name, text, **options) -> (path, binary): a multi-entry probe source compiled once per run."""
    from probes import compile_shared

    def get(name, text, **options):
        return compile_shared(tmp_path_factory, name, text, **options)
    return get


#: the listed-type half of every CASES row, one source per SoC
OK_CASES = {soc: [(f"{api}_{s}_ok", ok, call) for api, call, s, ok, _bad, _l in CASES if s == soc] for soc in SOCS}


def _tables() -> str:
    with open(os.path.join(pyasc_sim.get_include(), "pyasc_sim", "kapi", "dtype_tables.h"), encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("api,call,soc,ok,bad,listed", CASES, ids=[f"{c[0].split()[0]}{len(c[0])}-{c[2]}" for c in CASES])
def test_a_listed_type_compiles_and_an_unlisted_one_is_refused(tmp_path, shared_build, api, call, soc, ok, bad, listed):
    name, soc_text = SOCS[soc]
    assert shared_build(f"listed_{soc}.cpp", _multi(OK_CASES[soc]), opt="-O0", soc=name)[1]
    src = _src(tmp_path, f"{api}_{soc}_bad", bad, call)
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(src, opt="-O0", soc=name)
    out = ei.value.output
    assert f"pyasc dtype-table: AscendC::{api} is not documented for this element type T on {soc_text}" in out
    assert f"listed types: {listed} (see pyasc_sim/kapi/dtype_tables.h" in out
    spelled = SPELLED.get(bad, bad)
    assert re.search(r"T = [\w:]*(%s|%s)\b" % (re.escape(bad), re.escape(spelled)), out)  # the note names T
    assert ei.value.file == str(src) and ei.value.line == 7  # the kernel's call, not the header


LACKING = [
    ("MrgSort (the MrgSort4Info form)", MRGSORT_INFO, "310p", ("float", "half")),
    ("ProposalConcat", "AscendC::ProposalConcat(t, t[1024], 1, 4)", "a2", ("half", "float")),
    ("ProposalExtract", "AscendC::ProposalExtract(t[1024], t, 1, 4)", "a2", ("half", "float")),
]


@pytest.mark.parametrize("api,call,soc,types", LACKING)
def test_apis_a_family_lacks_are_refused_for_every_type_there(tmp_path, shared_build, api, call, soc, types):
    # the product tables mark SetAtomicMax/Min and MrgSort(MrgSort4Info) "x" on the Atlas inference series AI
    # Core, ProposalConcat/ProposalExtract "x" on Atlas A2; the other family compiles the same calls (all of
    # them in one source per family)
    name, soc_text = SOCS[soc]
    other = "Ascend310P3" if soc == "a2" else "Ascend910B1"
    probes = [(f"x_{a}_{t}", t, c) for a, c, s, ts in LACKING if s == soc for t in ts]
    assert shared_build(f"lacking_on_{soc}.cpp", _multi(probes), opt="-O0", soc=other)[1]
    for t in types:
        src = _src(tmp_path, f"x_{api}_{t}", t, call)
        with pytest.raises(pyasc_sim.KernelCompileError) as ei:
            pyasc_sim.compile(src, opt="-O0", soc=name)
        assert f"AscendC::{api} is not documented for this element type T on {soc_text}" in ei.value.output
        assert "not_on_this_soc" in ei.value.output and ei.value.line == 7


@pytest.mark.parametrize("api,call,soc,ok,bad,listed", ATOMIC_CASES,
                         ids=[f"{c[0]}-{c[2]}" for c in ATOMIC_CASES])
def test_atomic_element_types_are_checked_when_the_call_runs(shared_build, api, call, soc, ok, bad, listed):
    import numpy as np

    import pyasc
    import pyasc_acl

    name, soc_text = SOCS[soc]
    text = _multi(ATOMIC_PROBES[soc])
    path, binary = shared_build(f"atomic_{soc}.cpp", text, opt="-O0", soc=name)
    binary = pyasc_acl.Binary(binary, device="sim")
    x = pyasc.zeros((128,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    if ok is not None:
        pyasc_acl.launch(binary.function(_entry(f"{api}_{soc}_ok")), 1, (x,))
        pyasc.synchronize("sim")
    # an unlisted type compiles (as on the NPU) and is refused when the call runs, at the kernel's line
    pyasc_acl.launch(binary.function(_entry(f"{api}_{soc}_bad")), 1, (x,))
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        pyasc.synchronize("sim")
    msg = info.value.message
    from probes import line_of

    assert "sanitizer check 'dtype-table'" in msg and f"{path.name}:{line_of(text, f'// case {api}_{soc}_bad')}:" in msg
    assert f"AscendC::{api} is not documented for this element type T on {soc_text}; listed types: {listed}" in msg
    np.testing.assert_array_equal(x.numpy(), np.zeros(128, np.float32))


SCALAR_CAST = "%s v = AscendC::ScalarCast<%s, %s, AscendC::RoundMode::%s>((%s)2.5f); (void)v"
SCALAR_CASES = [
    ("float", "half", "CAST_ODD", True), ("float", "int32_t", "CAST_ROUND", True),
    ("float", "int32_t", "CAST_CEIL", True), ("float", "int32_t", "CAST_FLOOR", True),
    ("float", "int32_t", "CAST_RINT", True),
    ("float", "half", "CAST_RINT", False),  # f322f16 takes CAST_ODD only
    ("float", "int32_t", "CAST_TRUNC", False), ("half", "float", "CAST_NONE", False),
    ("float", "int16_t", "CAST_ROUND", False),
]


def _scalar_probe(src_t, dst_t, mode):
    return (f"sc_{src_t}_{dst_t}_{mode}", "float", SCALAR_CAST % (dst_t, src_t, dst_t, mode, src_t))


@pytest.mark.parametrize("src_t,dst_t,mode,ok", SCALAR_CASES)
def test_scalar_cast_takes_the_documented_pairs_and_round_modes(tmp_path, shared_build, src_t, dst_t, mode, ok):
    listed = _multi([_scalar_probe(*c[:3]) for c in SCALAR_CASES if c[3]])
    for soc, (name, soc_text) in SOCS.items():
        if ok:  # every listed row, in one source per SoC
            assert shared_build(f"scalar_cast_{soc}.cpp", listed, opt="-O0", soc=name)[1], soc
            continue
        n, t, call = _scalar_probe(src_t, dst_t, mode)
        src = _src(tmp_path, n, t, call)
        with pytest.raises(pyasc_sim.KernelCompileError) as ei:
            pyasc_sim.compile(src, opt="-O0", soc=name)
        out = ei.value.output
        assert f"AscendC::ScalarCast is not documented for this (srcT, dstT, roundMode) on {soc_text}" in out
        assert "float->half with CAST_ODD, float->int32_t with CAST_ROUND, CAST_CEIL, CAST_FLOOR or CAST_RINT" in out
        assert ei.value.line == 7
    # the opt-out compiles every row, listed or not
    every = _multi([_scalar_probe(*c[:3]) for c in SCALAR_CASES])
    assert shared_build("scalar_cast_optout.cpp", every, opt="-O0", extra_flags=["-DPYASC_SIM_NO_DTYPE_TABLES"])[1]


def test_no_gap_is_left_on_atlas_a2():
    # DataCopy's Atlas A2 row (5th batch, tests/test_sim_dtype_tables_copy_hl.py) closed the last A2 gap; the
    # list of such gaps is one macro, kept equal to the fallbacks without an A2 row
    text = _tables()
    assert re.search(r'#define PYASC_SIM_NO_ROW_FOR_ATLAS_A2 ""', text)
    a2 = text.partition("#elif __CCE_AICORE__ == 200")[0]
    assert re.search(r"^#define PYASC_SIM_DT_DataCopy ", a2, re.M)


def test_every_new_row_cites_its_page():
    text = _tables()
    for api in ("DataCopy", "DataCopyPad", "SetAtomicAdd", "SetAtomicMax", "SetAtomicMin", "SetAtomicType", "Sort",
                "MrgSort", "MrgSortInfo", "ProposalConcat", "ProposalExtract"):
        rows = re.findall(r"^#define PYASC_SIM_DT_%s (.*)$" % api, text, re.M)
        rows = [r for r in rows if r.strip() != "PYASC_SIM_DT_UNCHECKED"]
        assert rows, api
        for r in rows:
            assert re.search(r"// source: (atlasascendc_api_07_\d+\.html|asc-devkit docs/api/\S+\.md) \(", r), (api, r)
    assert "// source: atlasascendc_api_07_0018.html (ScalarCast)" in text


DATACOPYPAD_KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void pad_io(GM_ADDR x, GM_ADDR y, uint32_t n) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 256 * sizeof(float));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    AscendC::LocalTensor<float> t = q.AllocTensor<float>();
    if (n % 8 == 0) {
        AscendC::DataCopy(t, xg, n);
    } else {
        AscendC::DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(float)), 0, 0, 0};
        AscendC::DataCopyPad(t, xg, p, AscendC::DataCopyPadExtParams<float>{false, 0, 0, 0});  // the pad line
    }
    q.EnQue(t);
    t = q.DeQue<float>();
    AscendC::DataCopy(yg, t, (n + 7) / 8 * 8);
    q.FreeTensor(t);
}
"""


@pytest.mark.parametrize("soc", ["Ascend910B1", "Ascend310P3"])
def test_datacopypad_is_refused_when_it_runs_on_the_inference_series(tmp_path, soc):
    # DataCopyPad's product table marks the Atlas inference series AI Core "x": a kernel that reaches it
    # only for unaligned lengths compiles there and runs aligned lengths; the unaligned call is an error
    import numpy as np

    import pyasc
    import pyasc_acl

    src = tmp_path / "pad_io.cpp"
    src.write_text(DATACOPYPAD_KERNEL)
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0", soc=soc), device="sim").function("pad_io")
    stream = pyasc.current_stream("sim")
    x = pyasc.tensor(np.arange(64, dtype=np.float32), device="sim")
    y = pyasc.zeros(64, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (x, y, 16), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(y.numpy()[:16], np.arange(16, dtype=np.float32))
    pyasc_acl.launch(fn, 1, (x, y, 13), stream=stream)
    if soc == "Ascend910B1":
        stream.synchronize()
        np.testing.assert_array_equal(y.numpy()[:13], np.arange(13, dtype=np.float32))
        return
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    msg = info.value.message
    assert "sanitizer check 'dtype-table'" in msg and "AscendC::DataCopyPad is not available on " + P310 in msg
    assert "pad_io.cpp:14" in msg  # the kernel's DataCopyPad line


ATOMIC_I8_KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void amax_i8(GM_ADDR x, GM_ADDR y) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, 32);
    AscendC::GlobalTensor<int8_t> xg, yg;
    xg.SetGlobalBuffer((__gm__ int8_t *)x + AscendC::GetBlockIdx() * 32, 32);
    yg.SetGlobalBuffer((__gm__ int8_t *)y, 32);
    AscendC::LocalTensor<int8_t> t = q.AllocTensor<int8_t>();
    AscendC::DataCopy(t, xg, 32);
    q.EnQue(t);
    t = q.DeQue<int8_t>();
    AscendC::SetAtomic%(OP)s<int8_t>();
    AscendC::DataCopy(yg, t, 32);
    AscendC::SetAtomicNone();
    q.FreeTensor(t);
}
"""


@pytest.mark.parametrize("op", ["Max", "Min"])
def test_int8_atomic_max_min_run_on_atlas_a2(tmp_path, op):
    # SetAtomicMax / SetAtomicMin list int8_t for Atlas A2 (atlasascendc_api_07_0284 / 0285); the simulator
    # used to refuse int8_t there at run time
    import numpy as np

    import pyasc
    import pyasc_acl

    src = tmp_path / f"amax_i8_{op}.cpp"
    src.write_text(ATOMIC_I8_KERNEL % {"OP": op})
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0"), device="sim").function("amax_i8")
    x = np.random.default_rng(5).integers(-128, 128, (3, 32)).astype(np.int8)
    start = np.zeros(32, np.int8)
    xs = pyasc.tensor(x.ravel(), device="sim")
    y = pyasc.tensor(start, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 3, (xs, y))
    pyasc.synchronize("sim")
    want = (np.maximum if op == "Max" else np.minimum).reduce(np.vstack([start[None], x]), axis=0)
    np.testing.assert_array_equal(y.numpy(), want)


def test_builtin_kernels_have_no_bfloat16_on_the_inference_series():
    # the Atlas inference series lists no bfloat16_t (DataCopy's GM -> local row): the built-in kernels
    # leave their bfloat16 instantiations out there, and keep them on Atlas A2
    import pathlib
    import subprocess

    src = pathlib.Path(__file__).resolve().parents[1] / "kernels" / "binary.cpp"

    def symbols(soc):
        out = subprocess.run(["nm", "-D", "--defined-only", pyasc_sim.compile(src, opt="-O0", soc=soc)],
                             capture_output=True, text=True, check=True).stdout
        return set(re.findall(r"__pyasc_sim_entry_(binary_\w+)$", out, re.M))

    a2, p310 = symbols("Ascend910B1"), symbols("Ascend310P3")
    assert "binary_add_bfloat16" in a2 and "binary_add_bfloat16" not in p310
    assert {s for s in a2 if "bfloat16" not in s} == p310
