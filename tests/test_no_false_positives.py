"""Issue 10 acceptance, no false positives: every Ascend C kernel source pyasc owns compiles with
every check on (pipe-race included, the API x dtype tables of the default SoC) and its sample
runs report nothing.

* compile-clean: each source below, parametrised (a new source under one of the kernel
  directories is picked up, and one this list cannot compile fails here, naming the file);
* runs: the built-in kernels' (kernels/) sample runs are tests/test_sim_ops.py's every op x dtype
  check, which fails on an error row and on a sanitizer warning; the test kernels' runs are the
  tests that launch them, under pyproject's ``filterwarnings`` making pyasc.SanitizerWarning an
  error outside ``pytest.warns`` (so a stray warning fails the test that caused it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pyasc_sim = pytest.importorskip("pyasc_sim")

ROOT = Path(__file__).resolve().parent.parent
KERNELS = ROOT / "kernels"
TEST_KERNELS = ROOT / "backends" / "sim" / "kernel_api" / "tests" / "kernels"
PLUGINS = ROOT / "plugins"
COMPAT = TEST_KERNELS / "compat"
OP_PROJECT = COMPAT / "op_project"

#: sources that are not a kernel translation unit of their own (a host program)
NOT_KERNELS = {COMPAT / "cpu_debug" / "main.cpp": "the CPU-debug sample's host program (ICPU_RUN_KF)",
               COMPAT / "cpu_debug" / "main_mix.cpp": "the CPU-debug MIX_MODE sample's host program",
               COMPAT / "cpu_debug" / "main_mix_split.cpp": "the CPU-debug host program of the split mixed kernel"}

#: how the tests compile a source that needs more than the defaults
COMPILE_ARGS = {
    COMPAT / "clang_idioms.cpp": {"extra_flags": ["-DPYASC_COMPAT_WITH_KERNEL=1"]},
    OP_PROJECT / "op_kernel" / "scale_add.cpp": {"tiling_header": OP_PROJECT / "op_host" / "scale_add_tiling.h",
                                                 "tiling_key": 1,
                                                 "dtypes": {"x": "float32", "y": "float32", "z": "float32"}},
    COMPAT / "op_project_tpl" / "op_kernel" / "tpl_scale.cpp": {"tpl_args": {"D_T_X": 1, "TILE_NUM": 8, "RELU": 1}},
    COMPAT / "op_project_preproc" / "op_kernel" / "key_dtype_select.cpp": {
        "tiling_header": COMPAT / "op_project_preproc" / "op_host" / "key_dtype_select_tiling.h",
        "tiling_key": 1000000000000101012, "dtypes": {"x": "float16", "y": "float16"}},
    COMPAT / "op_project_registry" / "op_kernel" / "row_norm.cpp": {
        "tiling_header": COMPAT / "op_project_registry" / "op_host" / "row_norm_tiling.h"},
    COMPAT / "op_project_host" / "op_kernel" / "host_tiled_axpy.cpp": {
        "tiling_header": COMPAT / "op_project_host" / "op_host" / "host_tiled_axpy_tiling.h",
        "op_type": "HostTiledAxpy", "dtypes": {"x": "float16", "y": "float16", "z": "float16"}},
    COMPAT / "op_project_log" / "op_kernel" / "clamp_range.cpp": {
        "tiling_header": COMPAT / "op_project_log" / "op_host" / "clamp_range_tiling.h", "op_type": "ClampRange",
        "tiling_key": 1},
    COMPAT / "op_project_study15b" / "op_kernel" / "mm_blocked.cpp": {
        "tiling_header": COMPAT / "op_project_study15b" / "op_host" / "mm_blocked_tiling.h"},
    COMPAT / "op_project_tpl_sdk_path" / "op_kernel" / "scaled_relu.cpp": {
        "tiling_header": COMPAT / "op_project_tpl_sdk_path" / "op_host" / "scaled_relu_tiling.h", "tiling_key": 1},
    COMPAT / "op_project_tpl_tiling_struct" / "op_kernel" / "shifted_abs.cpp": {"tpl_args": {"MODE": 2}},
    # APIs of the Atlas inference series AI Core only (the reference marks Atlas A2 x)
    COMPAT / "proposal_sort_310p.cpp": {"soc": "Ascend310P3"},
    COMPAT / "scatter_310p.cpp": {"soc": "Ascend310P3"},
    # vector kernels of the Atlas 350 / Ascend 950 (its larger UB, its 950-only APIs)
    COMPAT / "ascend950_vec.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "reg_simd_convert.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "reg_simd_select.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "reg_simd_log.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "reg_unalign_squeeze.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "ascend950_api.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "ascend950_simt.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "reg_interleave_idioms.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "fmod_shift_idioms.cpp": {"soc": "Ascend950PR_9599"},  # its Reg kernels are the 950's (Fmod is on both)
    COMPAT / "ascend950_simt_api.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "ascend950_simt_ldg.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "simt_lockstep.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "simt_team_vote.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "simt_visited_bitmap.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "simt_vf_template.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "reg_simd_optim.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "topk_radix_config.cpp": {"soc": "Ascend950PR_9599"},
    # round 15 (study15a): DataCopyPad PaddingMode::Compact and the Simt warp reductions are the 950's;
    # the op project whose kernel writes GET_TILING_DATA without its semicolon
    COMPAT / "study15a_padmode.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "study15a_warp_reduce.cpp": {"soc": "Ascend950PR_9599"},
    COMPAT / "study15a_op" / "op_kernel" / "scale_rows.cpp": {
        "tiling_header": COMPAT / "study15a_op" / "op_host" / "scale_rows_tiling.h"},
    # `if constexpr (g_coreType == AIV)`: a constant only in the per-core-kind MixCore build
    COMPAT / "mix_undeclared_constexpr.cpp": {"core": "mix"},
    # a member template defaulted to g_coreType (Catlass's dispatch): likewise
    COMPAT / "mix_undeclared_member_default.cpp": {"core": "mix"},
    COMPAT / "mix_undeclared_copy_only.cpp": {"core": "mix"},  # g_coreType a constant per core kind
}


def opt_for(source: Path) -> str:
    """The optimisation level a source is built with here. The test kernels: -O1 with checks, the build
    tests/ascendc_kernels.kernel_path makes of them, so in a full run the tests that launch a kernel and this one
    share one cached binary. The built-in and plugin kernels: -O0, the cheapest build (no test builds them so
    through pyasc_sim.compile; the installed ones come from CMake): the checks this test is about, the dtype
    tables' static assertions, are decided while templates are instantiated, at any -O level."""
    return "-O1" if TEST_KERNELS in source.parents else "-O0"


def _sources() -> list[Path]:
    found = sorted(KERNELS.glob("*.cpp")) + sorted(TEST_KERNELS.rglob("*.cpp"))
    found += sorted(p for p in PLUGINS.rglob("*.cpp") if "kernels" in p.parts)
    return [p for p in found if p not in NOT_KERNELS]


SOURCES = _sources()


def test_every_kernel_directory_is_covered():
    names = {p.relative_to(ROOT).as_posix() for p in SOURCES}
    assert {"kernels/binary.cpp", "kernels/matmul.cpp", "backends/sim/kernel_api/tests/kernels/races.cpp",
            "backends/sim/kernel_api/tests/kernels/compat/study_idioms.cpp",
            "plugins/pyasc-example-pack/src/pyasc_example_pack/kernels/leaky_relu.cpp"} <= names
    assert all(p.is_file() for p in NOT_KERNELS) and all(p.is_file() for p in COMPILE_ARGS)


@pytest.mark.parametrize("source", SOURCES, ids=[p.relative_to(ROOT).as_posix() for p in SOURCES])
def test_compiles_with_every_check_on(source):
    # checks=True (the default) is the sanitizer's build; pipe-race and the dtype tables are on
    # in it unless a kernel opts out, which none of ours does
    assert "PYASC_SIM_RACECHECK" not in source.read_text(encoding="utf-8"), f"{source} opts out of pipe-race"
    assert "PYASC_SIM_NO_DTYPE_TABLES" not in source.read_text(encoding="utf-8")
    path = pyasc_sim.compile(source, opt=opt_for(source), checks=True, **COMPILE_ARGS.get(source, {}))
    assert Path(path).is_file()


def test_sanitizer_warnings_fail_the_tests_that_cause_them():
    import tomllib

    with open(ROOT / "pyproject.toml", "rb") as f:
        filters = tomllib.load(f)["tool"]["pytest"]["ini_options"]["filterwarnings"]
    assert "error::pyasc_core.errors.SanitizerWarning" in filters
