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

A2 = "Atlas A2 training/inference (__CCE_AICORE__ 220, Ascend910B)"
P310 = "the Atlas inference series AI Core (__CCE_AICORE__ 200, Ascend310P)"

CAST_KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void ck(GM_ADDR x) {
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> a, b;
    pipe.InitBuffer(a, 4096);
    pipe.InitBuffer(b, 4096);
    AscendC::LocalTensor<%(D)s> d = a.Get<%(D)s>();
    AscendC::LocalTensor<%(S)s> s = b.Get<%(S)s>(); AscendC::Duplicate(s, (%(S)s)3, 64); AscendC::SetDeqScale((half)1.0);
    AscendC::Cast(d, s, AscendC::RoundMode::CAST_%(MODE)s, 64);
}
"""
CAST_LINE = 9

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


def _tables() -> str:
    with open(os.path.join(pyasc_sim.get_include(), "pyasc_sim", "kapi", "dtype_tables.h"), encoding="utf-8") as f:
        return f.read()


def _cast_fn(tmp_path, src: str, dst: str, mode: str, soc: str):
    p = tmp_path / f"ck_{src}_{dst}_{mode}_{soc}.cpp"
    p.write_text(CAST_KERNEL % {"S": src, "D": dst, "MODE": mode})
    return p, pyasc_acl.Binary(pyasc_sim.compile(p, opt="-O0", soc=soc), device="sim").function("ck")


def _run_cast(tmp_path, src: str, dst: str, mode: str, soc: str = "Ascend310P3") -> str | None:
    """None when the Cast ran clean, else the kernel error's message."""
    path, fn = _cast_fn(tmp_path, src, dst, mode, soc)
    x = pyasc.zeros((16,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (x,))
    try:
        pyasc.synchronize("sim")
    except pyasc_acl.AclKernelError as e:
        assert f"{path.name}:{CAST_LINE}" in e.message, e.message  # the kernel's Cast line
        return e.message
    return None


# -- Axpy: compile time -----------------------------------------------------------------------------

@pytest.mark.parametrize("src,dst,ok", [("half", "half", True), ("float", "float", True), ("half", "float", True),
                                        ("float", "half", False), ("int32_t", "int32_t", False),
                                        ("int16_t", "int16_t", False)])
def test_axpy_pairs_are_checked_on_the_inference_series(tmp_path, src, dst, ok):
    p = tmp_path / f"axpy_{src}_{dst}.cpp"
    p.write_text(AXPY_KERNEL % {"S": src, "D": dst})
    if ok:
        assert pyasc_sim.compile(p, opt="-O0", soc="Ascend310P3")
        return
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(p, opt="-O0", soc="Ascend310P3")
    out = ei.value.output
    assert f"AscendC::Axpy is not documented from this source type U to this destination type T on {P310}" in out
    assert "half->half half->float" not in out and "half->float" in out and "float->float" in out
    assert ei.value.line == 9  # the Axpy line


# -- Cast: when the call runs ------------------------------------------------------------------------

@pytest.mark.parametrize("src,dst,mode", [("half", "float", "NONE"), ("float", "half", "NONE"),
                                          ("float", "half", "ODD"), ("float", "int32_t", "TRUNC"),
                                          ("float", "int32_t", "FLOOR"), ("half", "int32_t", "ROUND"),
                                          ("half", "int16_t", "RINT"), ("int32_t", "float", "NONE"),
                                          ("int16_t", "half", "NONE"), ("int32_t", "int16_t", "NONE")])
def test_listed_cast_rows_run_on_the_inference_series(tmp_path, src, dst, mode):
    assert _run_cast(tmp_path, src, dst, mode) is None


@pytest.mark.parametrize("src,dst", [("int16_t", "float"), ("float", "int16_t"), ("int32_t", "int64_t"),
                                     ("float", "float"), ("half", "half")])
def test_an_unlisted_cast_pair_is_refused_when_it_runs(tmp_path, src, dst):
    msg = _run_cast(tmp_path, src, dst, "NONE")
    assert msg is not None and "sanitizer check 'dtype-table'" in msg
    assert f"pyasc dtype-table: AscendC::Cast is not documented from {src} to {dst} on {P310}" in msg
    assert "listed pairs (src->dst): int8_t->half uint8_t->half int16_t->half" in msg and "float->int32_t" in msg
    assert "fix: convert through listed pairs" in msg


@pytest.mark.parametrize("src,dst,mode,listed", [
    ("float", "half", "RINT", "CAST_NONE, CAST_ODD"),
    ("float", "half", "TRUNC", "CAST_NONE, CAST_ODD"),
    ("half", "int16_t", "NONE", "CAST_RINT"),
    ("half", "int8_t", "RINT", "CAST_NONE, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC"),
    ("float", "int32_t", "NONE", "CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC"),
    ("half", "float", "FLOOR", "CAST_NONE"),
])
def test_an_unlisted_round_mode_is_refused_when_it_runs(tmp_path, src, dst, mode, listed):
    msg = _run_cast(tmp_path, src, dst, mode)
    assert msg is not None and "sanitizer check 'dtype-table'" in msg
    assert (f"pyasc dtype-table: AscendC::Cast from {src} to {dst} does not take CAST_{mode} on {P310}; "
            f"listed round modes for this pair: {listed} (fix: pass a listed RoundMode") in msg


def test_int32_to_half_takes_any_mode_and_atlas_a2_keeps_its_own_rows(tmp_path):
    # int32_t -> half: the page says roundMode has no effect (the scale comes from SetDeqScale, which the
    # kernel sets: reading DEQSCALE unset is a `deq-scale` error, tests/test_sim_deq_relu_fidelity.py)
    assert _run_cast(tmp_path, "int32_t", "half", "TRUNC") is None
    # float -> half with CAST_RINT is listed for Atlas A2 (and refused on the inference series above)
    assert _run_cast(tmp_path, "float", "half", "RINT", soc="Ascend910B1") is None
    assert _run_cast(tmp_path, "int32_t", "half", "FLOOR", soc="Ascend910B1") is None  # any mode there too
    # half -> half is not in the Atlas A2 mode table: the simulator's own pair, any rounding mode
    assert _run_cast(tmp_path, "half", "half", "TRUNC", soc="Ascend910B1") is None
    # int16_t -> float is an Atlas A2 pair
    assert _run_cast(tmp_path, "int16_t", "float", "NONE", soc="Ascend910B1") is None


@pytest.mark.parametrize("src,dst,mode,listed", [
    ("half", "int32_t", "NONE", "CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC"),
    ("float", "bfloat16_t", "NONE", "CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC"),
    ("half", "float", "TRUNC", "CAST_NONE"),
    ("int32_t", "int64_t", "RINT", "CAST_NONE"),
])
def test_atlas_a2_checks_the_round_modes_of_its_pairs_when_the_call_runs(tmp_path, src, dst, mode, listed):
    msg = _run_cast(tmp_path, src, dst, mode, soc="Ascend910B1")
    assert msg is not None and "sanitizer check 'dtype-table'" in msg
    assert (f"pyasc dtype-table: AscendC::Cast from {src} to {dst} does not take CAST_{mode} on {A2}; "
            f"listed round modes for this pair: {listed} (fix: pass a listed RoundMode") in msg


def test_the_opt_out_macro_runs_an_unlisted_cast(tmp_path):
    p = tmp_path / "ck_optout.cpp"
    p.write_text(CAST_KERNEL % {"S": "float", "D": "half", "MODE": "RINT"})
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
    # uint32_t): refused when the call runs, at the DataCopy line, before any byte moves
    fn = pyasc_acl.Binary(pyasc_sim.compile(_enhanced(tmp_path, "int16_t"), opt="-O0", soc="Ascend310P3"),
                          device="sim").function("enh")
    x = pyasc.zeros((16,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (x,))
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        pyasc.synchronize("sim")
    msg = info.value.message
    assert "sanitizer check 'dtype-table'" in msg and "enh_int16_t.cpp:10" in msg
    assert (f"pyasc dtype-table: AscendC::DataCopy (DataCopyEnhancedParams, CO1 -> CO2) is not documented for "
            f"element type int16_t on {P310}; listed types: half, float, int32_t, uint32_t (fix: use a listed type")\
        in msg
    # listed types compile for both families; Atlas A2 has no such path to check
    for t in ("float", "int32_t"):
        assert pyasc_sim.compile(_enhanced(tmp_path, t), opt="-O0", soc="Ascend310P3")
    assert pyasc_sim.compile(_enhanced(tmp_path, "int16_t"), opt="-O0", soc="Ascend910B1")


def test_enhanced_local_copy_takes_the_datacopy_row_when_it_compiles(tmp_path):
    with pytest.raises(pyasc_sim.KernelCompileError) as ei:
        pyasc_sim.compile(_enhanced(tmp_path, "bfloat16_t"), opt="-O0", soc="Ascend310P3")
    out = ei.value.output
    assert ("pyasc dtype-table: AscendC::DataCopy (the DataCopyEnhancedParams local -> local form) is not documented "
            f"for this element type T on {P310}") in out
    assert ei.value.line == 10
