"""The NPU compiler's attribute list `[host, aicore]` (Catlass-style `#define CATLASS_HOST_DEVICE __forceinline__
[host, aicore]`, as NPUKernelBench's level3 answers write it; backends/sim/kernel_api/COMPAT.md, round 20): the build
spells it `__aicore__` for g++ like `[aicore]` (pyasc_sim.bisheng_syntax). Our own kernel, compared with NumPy; and a
mixed build whose two passes both fail with a long error report ends with the compile error instead of hanging."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR
from pyasc_sim import bisheng_syntax

SRC = ASCENDC_DIR / "compat" / "host_aicore_attribute_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def test_host_aicore_list_is_rewritten_where_a_function_specifier_stands():
    src = ("#define HD __forceinline__ [host, aicore]\nconstexpr [aicore, host] int h();\n"
           "__forceinline__[host,aicore] void f();\nx = table[host, aicore];\n")
    out, n = bisheng_syntax.rewrite(src)
    assert n == 3
    assert out.splitlines() == ["#define HD __forceinline__ __aicore__", "constexpr __aicore__ int h();",
                                "__forceinline__ __aicore__ void f();", "x = table[host, aicore];"]
    assert bisheng_syntax.uses_aicore_attribute(["#define HD __forceinline__ [host, aicore]"])
    assert not bisheng_syntax.uses_aicore_attribute(["x = table[host, aicore];"])


def test_host_and_device_helpers_run():
    b = pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")
    x = np.random.default_rng(4).uniform(-2, 2, 1024).astype(np.float32)
    y = pyasc.zeros((1024,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(b.function("host_aicore_axpb"), 1,
                     (pyasc.tensor(x, device="sim"), y, np.int32(1024), np.float32(3.0), np.float32(0.5)))
    pyasc.synchronize("sim")
    np.testing.assert_allclose(y.numpy(), x * np.float32(8) + np.float32(0.5), rtol=0, atol=0)  # RoundUp<8>(3) = 8


MANY_ERRORS = "\n".join(f"    undeclared_helper_{i}(x);" for i in range(600))


def test_mixed_build_with_long_error_reports_in_both_passes_fails_instead_of_hanging(tmp_path):
    src = tmp_path / "broken_mix.cpp"
    src.write_text('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void broken(GM_ADDR x)\n{\n'
                   + MANY_ERRORS + "\n}\n")
    code = ("import pyasc_sim, sys\n"
            "try:\n"
            f"    pyasc_sim.compile({str(src)!r}, core='mix', opt='-O0')\n"
            "except pyasc_sim.build.KernelCompileError as e:\n"
            "    print('COMPILE-ERROR', 'undeclared_helper_0' in str(e))\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=900,
                          env={**__import__("os").environ, "PYASC_CACHE_DIR": str(tmp_path / "cache")})
    assert "COMPILE-ERROR True" in proc.stdout, proc.stdout + proc.stderr
