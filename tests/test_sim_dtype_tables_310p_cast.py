"""Issue 10 point 8, sixth batch of the API x dtype tables (kapi/dtype_tables.h): Cast and Axpy on the Atlas
inference series AI Core (Ascend310P), and the DataCopyEnhancedParams local -> local form. Axpy's (src, dst)
pairs are checked when the kernel compiles; Cast's (src, dst) pairs and the RoundModes each pair takes are
checked when the call runs (CANN's own check there is a run-time assertion, and kernels keep other families'
conversions in code this one never runs): an unlisted pair or mode is an error `dtype-table` at the kernel's
Cast line naming the API, the types, the mode, the SoC and the fix. Atlas A2 keeps its compile-time pair table
and checks its pairs' RoundModes when the call runs. The built-in kernels only convert through
listed rows there (float -> half with CAST_NONE, int16 -> float exactly through half), with the same bits as the
Atlas A2 build."""
from __future__ import annotations

import os
import re

import numpy as np
import pytest

pyasc_sim = pytest.importorskip("pyasc_sim")

import pyasc  # noqa: E402
import pyasc_acl  # noqa: E402
from probes import compile_shared, line_of  # noqa: E402

A2 = "Atlas A2 training/inference (__CCE_AICORE__ 220, Ascend910B)"
P310 = "the Atlas inference series AI Core (__CCE_AICORE__ 200, Ascend310P)"

CAST_ENTRY = """extern "C" __global__ __aicore__ void %(NAME)s(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 4096);
    pipe.InitBuffer(b, 4096);
    AscendC::LocalTensor<%(D)s> d = a.Get<%(D)s>();
    AscendC::LocalTensor<%(S)s> s = b.Get<%(S)s>(); AscendC::Duplicate(s, (%(S)s)3, 64); AscendC::SetDeqScale((half)1.0);
    AscendC::Cast(d, s, AscendC::RoundMode::CAST_%(MODE)s, 64);  // cast %(NAME)s
}
"""

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

LISTED_310P = [("half", "float", "NONE"), ("float", "half", "NONE"), ("float", "half", "ODD"),
               ("float", "int32_t", "TRUNC"), ("float", "int32_t", "FLOOR"), ("half", "int32_t", "ROUND"),
               ("half", "int16_t", "RINT"), ("int32_t", "float", "NONE"), ("int16_t", "half", "NONE"),
               ("int32_t", "int16_t", "NONE")]
UNLISTED_PAIRS_310P = [("int16_t", "float"), ("float", "int16_t"), ("int32_t", "int64_t"), ("float", "float"),
                       ("half", "half")]
UNLISTED_MODES_310P = [
    ("float", "half", "RINT", "CAST_NONE, CAST_ODD"),
    ("float", "half", "TRUNC", "CAST_NONE, CAST_ODD"),
    ("half", "int16_t", "NONE", "CAST_RINT"),
    ("half", "int8_t", "RINT", "CAST_NONE, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC"),
    ("float", "int32_t", "NONE", "CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC"),
    ("half", "float", "FLOOR", "CAST_NONE"),
]
UNLISTED_MODES_A2 = [
    ("half", "int32_t", "NONE", "CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC"),
    ("float", "bfloat16_t", "NONE", "CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC"),
    ("half", "float", "TRUNC", "CAST_NONE"),
    ("int32_t", "int64_t", "RINT", "CAST_NONE"),
]
#: every (src, dst, mode) a test runs, per SoC: one probe source per SoC, one entry point each
CAST_CASES = {
    "Ascend310P3": [*LISTED_310P, *((s, d, "NONE") for s, d in UNLISTED_PAIRS_310P),
                    *((s, d, m) for s, d, m, _ in UNLISTED_MODES_310P), ("int32_t", "half", "TRUNC")],
    "Ascend910B1": [("float", "half", "RINT"), ("int32_t", "half", "FLOOR"), ("half", "half", "TRUNC"),
                    ("int16_t", "float", "NONE"), *((s, d, m) for s, d, m, _ in UNLISTED_MODES_A2)],
}


def _tables() -> str:
    with open(os.path.join(pyasc_sim.get_include(), "pyasc_sim", "kapi", "dtype_tables.h"), encoding="utf-8") as f:
        return f.read()


def _entry(src: str, dst: str, mode: str) -> str:
    return f"ck_{src}_{dst}_{mode}"


def _cast_source(soc: str) -> str:
    cases = dict.fromkeys(CAST_CASES[soc])  # in order, once each
    return '#include "kernel_operator.h"\n' + "".join(
        CAST_ENTRY % {"NAME": _entry(s, d, m), "S": s, "D": d, "MODE": m} for s, d, m in cases)


@pytest.fixture(scope="module")
def cast_probes(tmp_path_factory):
    """soc -> (source path, source text, binary): every Cast case of this file in one build per SoC."""
    out = {}

    def get(soc):
        if soc not in out:
            text = _cast_source(soc)
            path, binary = compile_shared(tmp_path_factory, f"cast_probes_{soc}.cpp", text, opt="-O0", soc=soc)
            out[soc] = (path, text, pyasc_acl.Binary(binary, device="sim"))
        return out[soc]
    return get


def _run_cast(cast_probes, src: str, dst: str, mode: str, soc: str = "Ascend310P3") -> str | None:
    """None when the Cast ran clean, else the kernel error's message."""
    path, text, binary = cast_probes(soc)
    name = _entry(src, dst, mode)
    fn = binary.function(name)
    x = pyasc.zeros((16,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (x,))
    try:
        pyasc.synchronize("sim")
    except pyasc_acl.AclKernelError as e:
        assert f"{path.name}:{line_of(text, f'// cast {name}')}" in e.message, e.message  # the kernel's Cast line
        return e.message
    return None


# -- Axpy: compile time -----------------------------------------------------------------------------

def test_axpy_listed_pairs_compile_on_the_inference_series(tmp_path):
    body = AXPY_KERNEL.split("\n", 1)[1]
    text = '#include "kernel_operator.h"\n' + "".join(
        body.replace("void ax(", f"void ax_{s}_{d}(") % {"S": s, "D": d}
        for s, d in [("half", "half"), ("float", "float"), ("half", "float")])
    p = tmp_path / "axpy_listed.cpp"
    p.write_text(text)
    assert pyasc_sim.compile(p, opt="-O0", soc="Ascend310P3")


@pytest.mark.parametrize("src,dst", [("float", "half"), ("int32_t", "int32_t"), ("int16_t", "int16_t")])
def test_unlisted_axpy_pairs_are_refused_on_the_inference_series(tmp_path, src, dst):
    p = tmp_path / f"axpy_{src}_{dst}.cpp"
    p.write_text(AXPY_KERNEL % {"S": src, "D": dst})
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(p, opt="-O0", soc="Ascend310P3")
    out = ei.value.output
    assert f"AscendC::Axpy is not documented from this source type U to this destination type T on {P310}" in out
    assert "half->half half->float" not in out and "half->float" in out and "float->float" in out
    assert ei.value.line == 9  # the Axpy line


# -- Cast: when the call runs ------------------------------------------------------------------------

@pytest.mark.parametrize("src,dst,mode", LISTED_310P)
def test_listed_cast_rows_run_on_the_inference_series(cast_probes, src, dst, mode):
    assert _run_cast(cast_probes, src, dst, mode) is None


@pytest.mark.parametrize("src,dst", UNLISTED_PAIRS_310P)
def test_an_unlisted_cast_pair_is_refused_when_it_runs(cast_probes, src, dst):
    msg = _run_cast(cast_probes, src, dst, "NONE")
    assert msg is not None and "sanitizer check 'dtype-table'" in msg
    assert f"pyasc dtype-table: AscendC::Cast is not documented from {src} to {dst} on {P310}" in msg
    assert "listed pairs (src->dst): int8_t->half uint8_t->half int16_t->half" in msg and "float->int32_t" in msg
    assert "fix: convert through listed pairs" in msg


@pytest.mark.parametrize("src,dst,mode,listed", UNLISTED_MODES_310P)
def test_an_unlisted_round_mode_is_refused_when_it_runs(cast_probes, src, dst, mode, listed):
    msg = _run_cast(cast_probes, src, dst, mode)
    assert msg is not None and "sanitizer check 'dtype-table'" in msg
    assert (f"pyasc dtype-table: AscendC::Cast from {src} to {dst} does not take CAST_{mode} on {P310}; "
            f"listed round modes for this pair: {listed} (fix: pass a listed RoundMode") in msg


def test_int32_to_half_takes_any_mode_and_atlas_a2_keeps_its_own_rows(cast_probes):
    # int32_t -> half: the page says roundMode has no effect (the scale comes from SetDeqScale, which the
    # kernel sets: reading DEQSCALE unset is a `deq-scale` error, tests/test_sim_deq_relu_fidelity.py)
    assert _run_cast(cast_probes, "int32_t", "half", "TRUNC") is None
    # float -> half with CAST_RINT is listed for Atlas A2 (and refused on the inference series above)
    assert _run_cast(cast_probes, "float", "half", "RINT", soc="Ascend910B1") is None
    assert _run_cast(cast_probes, "int32_t", "half", "FLOOR", soc="Ascend910B1") is None  # any mode there too
    # half -> half is not in the Atlas A2 mode table: the simulator's own pair, any rounding mode
    assert _run_cast(cast_probes, "half", "half", "TRUNC", soc="Ascend910B1") is None
    # int16_t -> float is an Atlas A2 pair
    assert _run_cast(cast_probes, "int16_t", "float", "NONE", soc="Ascend910B1") is None


@pytest.mark.parametrize("src,dst,mode,listed", UNLISTED_MODES_A2)
def test_atlas_a2_checks_the_round_modes_of_its_pairs_when_the_call_runs(cast_probes, src, dst, mode, listed):
    msg = _run_cast(cast_probes, src, dst, mode, soc="Ascend910B1")
    assert msg is not None and "sanitizer check 'dtype-table'" in msg
    assert (f"pyasc dtype-table: AscendC::Cast from {src} to {dst} does not take CAST_{mode} on {A2}; "
            f"listed round modes for this pair: {listed} (fix: pass a listed RoundMode") in msg


def test_the_opt_out_macro_runs_an_unlisted_cast(tmp_path):
    p = tmp_path / "ck_optout.cpp"
    p.write_text('#include "kernel_operator.h"\n' + CAST_ENTRY % {"NAME": "ck", "S": "float", "D": "half", "MODE": "RINT"})
    fn = pyasc_acl.Binary(pyasc_sim.compile(p, opt="-O0", soc="Ascend310P3",
                                            extra_flags=["-DPYASC_SIM_NO_DTYPE_TABLES"]), device="sim").function("ck")
    x = pyasc.zeros((16,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (x,))
    pyasc.synchronize("sim")


def test_the_rows_cite_their_page_and_the_gap_list_shrank():
    text = _tables()
    block = re.search(r"// ---- Cast on the Atlas inference series AI Core.*?\n#endif", text, re.S).group(0)
    assert "source: asc-devkit docs/api/SIMD-API/" in block and "Cast.md" in block
    rows = [r for r in re.findall(r"X\((\w+), (\w+), ", block) if r != ("src", "dst")]
    assert len(rows) == 13 and ("float", "int32_t") in rows and ("float", "int64_t") not in rows
    axpy = re.search(r"#elif __CCE_AICORE__ == 200\n(//.*\n)*#define PYASC_SIM_AXPY_PAIRS", text)
    assert axpy and "Axpy.md" in axpy.group(0)
    gaps = re.search(r"#define PYASC_SIM_NO_ROW_FOR_INFERENCE_SERIES\s*\\\n((?:\s*\".*\"\s*\\?\n)+)", text).group(1)
    assert "Cast" not in gaps and "Axpy" not in gaps


# -- the built-in kernels on the inference series ------------------------------------------------------

@pytest.fixture(scope="module")
def p310_cast_dir(tmp_path_factory):
    from kernel_sets import build_kernel_dir

    return build_kernel_dir(tmp_path_factory.mktemp("k310p_cast"), ("cast",), "Ascend310P3")


@pytest.mark.parametrize("src,dst", [("int16", "float32"), ("int16", "int8"), ("int16", "bool"),
                                     ("int32", "int8"), ("float32", "float16"), ("int8", "int16")])
def test_builtin_casts_on_310p_use_listed_rows_and_match_a2(p310_cast_dir, monkeypatch, src, dst):
    from kernel_sets import run_with_kernels

    rng = np.random.default_rng(7)
    n = 1000
    if src == "float32":
        a = rng.standard_normal(n).astype(np.float32) * 1000
    else:
        info = np.iinfo(src)
        a = rng.integers(info.min, info.max, n, endpoint=True).astype(src)
        a[:6] = [info.min, info.max, 0, -1, 255, -256] if info.min < -256 else a[:6]

    def fn():
        t = pyasc.tensor(a, device="sim")
        pyasc.synchronize("sim")
        return t.astype(dst).numpy()

    p310 = run_with_kernels(p310_cast_dir, fn, monkeypatch)
    a2 = run_with_kernels(None, fn, monkeypatch)
    assert p310.dtype == a2.dtype
    np.testing.assert_array_equal(p310.view(np.uint8), a2.view(np.uint8))
    np.testing.assert_array_equal(p310, a.astype(dst))


# -- DataCopy with DataCopyEnhancedParams, local -> local ------------------------------------------------

ENHANCED_KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void enh(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::CO1, 1> q1;
    AscendC::TQue<AscendC::TPosition::CO2, 1> q2;
    pipe.InitBuffer(q1, 1, 4096);
    pipe.InitBuffer(q2, 1, 4096);
    AscendC::LocalTensor<%(T)s> c1 = q1.AllocTensor<%(T)s>(); AscendC::LocalTensor<%(T)s> c2 = q2.AllocTensor<%(T)s>();
    AscendC::DataCopyEnhancedParams ep; ep.blockMode = AscendC::BlockMode::BLOCK_MODE_MATRIX;
    AscendC::DataCopy(c2, c1, AscendC::DataCopyParams{1, 1, 0, 0}, ep);
}
"""


def _enhanced(tmp_path, t: str):
    p = tmp_path / f"enh_{t}.cpp"
    p.write_text(ENHANCED_KERNEL % {"T": t})
    return p


def test_enhanced_co1_to_co2_copy_takes_its_table_when_it_runs_on_the_inference_series(tmp_path):
    # int16_t is a DataCopy type (it compiles) but not one of the CO1 -> CO2 path's (表7: half, float, int32_t,
    # uint32_t): refused when the call runs, at the DataCopy line, before any byte moves; the listed types
    # (float, int32_t) compile in the same source
    body = ENHANCED_KERNEL.split("\n", 1)[1]
    text = '#include "kernel_operator.h"\n' + "".join(
        body.replace("void enh(", f"void enh_{t}(").replace("ep);", f"ep);  // copy {t}") % {"T": t}
        for t in ("int16_t", "float", "int32_t"))
    p = tmp_path / "enh_types.cpp"
    p.write_text(text)
    fn = pyasc_acl.Binary(pyasc_sim.compile(p, opt="-O0", soc="Ascend310P3"), device="sim").function("enh_int16_t")
    x = pyasc.zeros((16,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (x,))
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        pyasc.synchronize("sim")
    msg = info.value.message
    assert "sanitizer check 'dtype-table'" in msg and f"enh_types.cpp:{line_of(text, '// copy int16_t')}" in msg
    assert (f"pyasc dtype-table: AscendC::DataCopy (DataCopyEnhancedParams, CO1 -> CO2) is not documented for "
            f"element type int16_t on {P310}; listed types: half, float, int32_t, uint32_t (fix: use a listed type")\
        in msg
    # Atlas A2 has no such path to check
    assert pyasc_sim.compile(_enhanced(tmp_path, "int16_t"), opt="-O0", soc="Ascend910B1")


def test_enhanced_local_copy_takes_the_datacopy_row_when_it_compiles(tmp_path):
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(_enhanced(tmp_path, "bfloat16_t"), opt="-O0", soc="Ascend310P3")
    out = ei.value.output
    assert ("pyasc dtype-table: AscendC::DataCopy (the DataCopyEnhancedParams local -> local form) is not documented "
            f"for this element type T on {P310}") in out
    assert ei.value.line == 10
