"""Op-project host tiling headers that include CANN's op-build logging header ``tiling_base/error_log.h``
(vllm-ascend's dsa_local_metadata; also by the names ``error_log.h``, ``error/ops_error.h``, ``log/ops_log.h``):
``pyasc_sim.compile(tiling_header=...)`` includes the header into the kernel build for its BEGIN_TILING_DATA_DEF struct,
so the logging header must exist and its OP_LOG* / OP_CHECK_IF / OP_CHECK_NULL_WITH_CONTEXT macros must compile in
the header's inline host helpers.  Our own op project in that
style, run on sim vs NumPy, and the macros' documented control flow checked in a host program."""

from __future__ import annotations

import subprocess

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

OP = ASCENDC_DIR / "compat" / "op_project_log"
SRC = OP / "op_kernel" / "clamp_range.cpp"
HDR = OP / "op_host" / "clamp_range_tiling.h"


@pytest.fixture(scope="module")
def binary():
    return pyasc_sim.compile(SRC, opt="-O1", tiling_header=HDR, op_type="ClampRange", tiling_key=1)


def test_kernel_with_logging_tiling_header_matches_numpy(binary):
    n = 64
    x = np.random.default_rng(20).integers(-1000, 1000, n).astype(np.int32)
    t = pyasc_sim.tiling_struct(HDR, op_type="ClampRange", totalLength=n, low=-300, high=450)
    y = pyasc.zeros((n,), dtype="int32", device="sim")
    pyasc.synchronize("sim")
    fn = pyasc_acl.Binary(binary, device="sim").function("clamp_range")
    pyasc_acl.launch(fn, 1, (pyasc.tensor(x, device="sim"), y, pyasc.zeros((8,), dtype="int32", device="sim"),
                             pyasc.tensor(np.frombuffer(bytes(t), np.uint8).copy(), device="sim")))
    np.testing.assert_array_equal(y.numpy(), np.clip(x, -300, 450))


def run_host(tmp_path, source: str) -> str:
    """Builds a host program against the simulator's headers (-Wall -Wextra -Werror) and returns what it prints."""
    src, exe = tmp_path / "host.cpp", tmp_path / "host"
    src.write_text(source)
    subprocess.run(["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", pyasc_sim.get_include(), str(src),
                    "-o", str(exe)], check=True)
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout


@pytest.mark.parametrize("spelling", ["tiling_base/error_log.h", "error_log.h", "error/ops_error.h", "log/ops_log.h"])
def test_check_macros_keep_their_control_flow(tmp_path, spelling):
    # host program over the same header, under the names op projects include it by (all but the first forward):
    # OP_CHECK_IF runs its expression when the condition holds, OP_CHECK_NULL_WITH_CONTEXT returns
    # GRAPH_FAILED on a null pointer, logging prints nothing
    out = run_host(
        tmp_path,
        f'#include "{spelling}"\n#include <cstdio>\n'
        "struct Ctx {};\n"
        "static ge::graphStatus f(Ctx *c, int *p, int n) {\n"
        '    OP_LOGD("Op", "n=%d", n);\n    OPS_LOG_E(c, "x %s", "y");\n'
        "    OP_CHECK_NULL_WITH_CONTEXT(c, p);\n"
        '    OP_CHECK_IF(n < 0, OP_LOGE("Op", "negative %d", n), return ge::GRAPH_FAILED);\n'
        '    OP_TILING_CHECK(n > 100, OP_LOGW("Op", "big"), return ge::GRAPH_FAILED);\n'
        "    return ge::GRAPH_SUCCESS;\n}\n"
        "int main() { int v = 1; Ctx c;\n"
        '  std::printf("%u %u %u %u", f(&c, &v, 1), f(&c, nullptr, 1), f(&c, &v, -1), f(&c, &v, 101)); }\n')
    assert out == "0 4294967295 4294967295 4294967295"


def test_ops_spellings_of_the_checks(tmp_path):
    # vllm-ascend's op_host sources (through "error/ops_error.h"): OPS_ERR_IF(cond, log, expr) runs `log; expr;` when
    # cond holds; OPS_LOG_E_IF_NULL(context, ptr, expr) runs expr when ptr is null; OPS_CHECK_NULL_WITH_CONTEXT
    # returns GRAPH_FAILED on a null pointer
    out = run_host(
        tmp_path,
        '#include "error/ops_error.h"\n#include "log/ops_log.h"\n#include <cstdio>\n'
        "struct Ctx {};\n"
        "static int logged = 0;\n"
        "static ge::graphStatus f(Ctx *c, int *p, int *q, int n) {\n"
        "    OPS_CHECK_NULL_WITH_CONTEXT(c, q);\n"
        "    OPS_LOG_E_IF_NULL(c, p, return ge::GRAPH_PARAM_INVALID);\n"
        '    OPS_ERR_IF(n < 0, (++logged, OPS_LOG_E("Op", "negative %d", n)), return ge::GRAPH_FAILED);\n'
        "    return ge::GRAPH_SUCCESS;\n}\n"
        "int main() { int v = 1; Ctx c;\n"
        "  unsigned r[4] = {f(&c, &v, &v, 1), f(&c, nullptr, &v, 1), f(&c, &v, nullptr, 1), f(&c, &v, &v, -1)};\n"
        '  std::printf("%u %u %u %u %d", r[0], r[1], r[2], r[3], logged); }\n')
    assert out == "0 50331649 4294967295 4294967295 1"
