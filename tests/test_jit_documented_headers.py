"""Documented-names-only mode of the simulator's kernel API headers (-DPYASC_SIM_DOCUMENTED_ONLY=1):
every tutorial's generated source compiles with it, a name the public reference does not document
fails to compile with a message saying why (at the Python line for a Python kernel), and every C++
kernel we own compiles with it."""

from __future__ import annotations

import glob
import os
import runpy
import shutil
import subprocess

import pytest

import pyasc
from pyasc.lang.documented import DOCUMENTED_ONLY_FLAGS, hidden_name_error
from pyasc.lang.errors import UndocumentedNameError
from pyasc.lang.jit import JitFunction

ROOT = os.path.join(os.path.dirname(__file__), os.pardir)
EXAMPLES = os.path.join(ROOT, "examples")
TUTORIALS = sorted(os.path.basename(p) for p in glob.glob(os.path.join(EXAMPLES, "0*.py")))
INCLUDES = ["-I", os.path.join(ROOT, "kernels"), "-I", os.path.join(ROOT, "backends/sim/kernel_api/include"),
            "-I", os.path.join(ROOT, "backends/sim/include")]

UNDOCUMENTED = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    AscendC::GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)x, AscendC::ONE_BLK_SIZE);
}
"""


def _jit_kernels(ns: dict) -> list:
    return [v for v in ns.values() if isinstance(v, JitFunction) and v._kernels]


@pytest.mark.parametrize("name", TUTORIALS)
def test_every_tutorial_compiles_with_the_documented_only_headers(name, monkeypatch):
    monkeypatch.setenv("PYASC_JIT_DOCUMENTED_ONLY", "1")
    ns = runpy.run_path(os.path.join(EXAMPLES, name), run_name="tutorial")
    if "run" in ns:
        ns["run"]()
    compiled = [k for f in _jit_kernels(ns) for entries in f._kernels.values() for _, k in entries]
    assert compiled, f"{name} compiled no Python kernel"
    for k in compiled:  # built (at specialisation) with every undocumented name hidden
        assert k.source.options["extra_flags"] == DOCUMENTED_ONLY_FLAGS
        assert os.path.exists(k.compile("sim"))


def test_an_undocumented_name_fails_under_the_switch_only():
    assert os.path.exists(pyasc.Kernel(UNDOCUMENTED, "k").compile("sim"))  # the full headers have it
    with pytest.raises(pyasc.PyascError) as e:
        pyasc.Kernel(UNDOCUMENTED, "k", extra_flags=DOCUMENTED_ONLY_FLAGS).compile("sim")
    msg = str(e.value)
    assert ":4: error:" in msg.splitlines()[0] and "ONE_BLK_SIZE" in msg.splitlines()[0]
    assert "is not a member of" in msg and "documented-names-only mode" in msg


def test_a_python_kernel_hidden_name_names_the_python_line():
    ns = runpy.run_path(os.path.join(EXAMPLES, "01_vadd.py"), run_name="tutorial")
    text = ns["vadd"].source(ns["x"], ns["y"], ns["z"], 2048, 256)
    assert "AscendC::GetBlockIdx()" in text
    bad = text.replace("AscendC::GetBlockIdx()", "(AscendC::GetBlockIdx() + AscendC::MAX_REPEAT_TIMES * 0)", 1)
    with pytest.raises(pyasc.PyascError) as e:
        pyasc.Kernel(bad, "vadd", extra_flags=DOCUMENTED_ONLY_FLAGS).compile("sim")
    err = hidden_name_error(e.value, "vadd")
    assert isinstance(err, UndocumentedNameError)
    with open(os.path.join(EXAMPLES, "01_vadd.py")) as f:
        line = 1 + next(i for i, ln in enumerate(f) if "asc.get_block_idx()" in ln)
    assert err.filename.endswith("01_vadd.py") and err.lineno == line
    assert str(err).startswith(f"{err.filename}:{line}: vadd uses AscendC::MAX_REPEAT_TIMES")
    assert hidden_name_error(pyasc.PyascError("x.cpp:3: error: expected ';'"), "vadd") is None


@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++")
@pytest.mark.parametrize("path", sorted(glob.glob(os.path.join(ROOT, "kernels", "*.cpp"))),
                         ids=os.path.basename)
def test_our_kernels_compile_with_the_documented_only_headers(path):
    proc = subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", *INCLUDES,
                           "-DPYASC_SIM_DOCUMENTED_ONLY=1", path], capture_output=True, text=True)
    assert proc.returncode == 0 and not proc.stderr, proc.stderr[:2000]
