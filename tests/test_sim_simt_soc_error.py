"""SIMT code built for a SoC without SIMT (an Atlas A2 such as the default Ascend910B1) fails with
pyasc_sim.build.SimtUnavailableError naming the SIMT API, the SoC and the soc= value that has SIMT (the Ascend 950),
with the kernel's file:line -- from pyasc_sim.compile, the CPU-debug build and the CLI -- instead of g++'s bare
"'__sync_workitems' was not declared in this scope"; the same source still builds and runs for the Ascend 950."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from pyasc_sim import cpudebug, simt_soc
from pyasc_sim.build import KernelCompileError, SimtUnavailableError

# IndexSDK-cagra-style SIMT code with no `#if __CCE_AICORE__ == 310` guard: a VF that sums a warp's values
# with the builtin __reduce_add after a __sync_workitems() barrier
KERNEL = """#include "kernel_operator.h"
#include "simt_api/asc_simt.h"
using namespace AscendC;
#define DI __forceinline__[aicore]
DI float twice(float v) { return v + v; }

__simt_vf__ __aicore__ LAUNCH_BOUND(64) inline void WarpSumVf(__gm__ float *x, __gm__ float *y, uint32_t n)
{
    const uint32_t t = threadIdx.x;
    const float v = t < n ? twice(x[t]) : 0.0f;
    __sync_workitems();
    y[t] = __reduce_add(v);
}

extern "C" __global__ __aicore__ void warp_sum(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    asc_vf_call<WarpSumVf>(dim3{64, 1, 1}, (__gm__ float *)x, (__gm__ float *)y, n);
}
"""


@pytest.fixture()
def src(tmp_path):
    path = tmp_path / "warp_sum.cpp"
    path.write_text(KERNEL)
    return path


def _check_error(exc: SimtUnavailableError, path, soc: str) -> None:
    assert isinstance(exc, KernelCompileError) and isinstance(exc, pyasc.PyascError)
    assert exc.api == "__simt_vf__" and exc.soc == soc
    assert exc.file == str(path) and exc.line == 7  # the VF's declaration, the first SIMT name g++ reports
    first = str(exc).splitlines()[0]
    assert first.startswith(f"{path}:7: error: __simt_vf__ is a SIMT API")
    assert "Ascend 950" in first and "dav-c310" in first and soc in first
    assert 'soc="Ascend950PR_9599"' in first and "--soc Ascend950PR_9599" in first
    assert "was not declared" in str(exc) or "does not name a type" in str(exc)  # g++'s own output is kept


@pytest.mark.parametrize("soc", ["Ascend910B1", "Ascend910B3", "Ascend310P1"])
def test_compile_names_the_simt_api_and_the_soc(src, soc):
    with pytest.raises(SimtUnavailableError) as info:
        pyasc_sim.compile(src, soc=soc)
    _check_error(info.value, src, soc)


def test_default_soc_from_the_environment(src, monkeypatch):
    monkeypatch.delenv("PYASC_SIM_SOC", raising=False)
    with pytest.raises(SimtUnavailableError) as info:
        pyasc_sim.compile(src)
    _check_error(info.value, src, "Ascend910B1")


def test_same_source_runs_on_the_950(src):
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O1", soc="Ascend950PR_9599"), device="sim").function("warp_sum")
    x = np.arange(50, dtype=np.float32) * 0.5
    y = pyasc.zeros((64,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (pyasc.tensor(np.pad(x, (0, 14)), device="sim"), y, np.uint32(50)))
    pyasc.synchronize("sim")
    want = np.array([2 * x[:32].sum(), 2 * x[32:].sum()], np.float32)
    np.testing.assert_allclose(y.numpy().reshape(2, 32), np.repeat(want[:, None], 32, 1), rtol=1e-6)


@pytest.mark.parametrize("call, api", [
    ("__sync_workitems();", "__sync_workitems"),
    ("p[0] = __reduce_max(p[0]);", "__reduce_max"),
    ("AscendC::Simt::ThreadBarrier();", "Simt::ThreadBarrier"),
    ("Simt::VF_CALL<nullptr>(Simt::Dim3{1, 1, 1});", "Simt::VF_CALL"),
    ("p[0] = static_cast<float>(threadIdx.x);", "threadIdx"),
    ("atomicOr((uint32_t *)p, 1u);", "atomicOr"),
])
def test_each_kind_of_simt_name(tmp_path, call, api):
    path = tmp_path / "k.cpp"
    path.write_text('#include "kernel_operator.h"\nusing namespace AscendC;\n'
                    'extern "C" __global__ __aicore__ void k(GM_ADDR x)\n{\n    float *p = (float *)x;\n'
                    f"    {call}\n}}\n")
    with pytest.raises(SimtUnavailableError) as info:
        pyasc_sim.compile(path, soc="Ascend910B1")
    assert info.value.api == api and info.value.line == 6
    assert str(info.value).startswith(f"{path}:6: error: {api} is a SIMT API")


def test_other_compile_errors_are_unchanged(tmp_path):
    path = tmp_path / "k.cpp"
    path.write_text('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x)\n{\n'
                    "    not_a_simt_name(x);\n}\n")
    with pytest.raises(KernelCompileError) as info:
        pyasc_sim.compile(path)
    assert not isinstance(info.value, SimtUnavailableError)
    assert "not_a_simt_name" in str(info.value).splitlines()[0]


def test_cpu_debug_build(src, tmp_path):
    main = tmp_path / "main.cpp"
    main.write_text('#include "tikicpulib.h"\nint main() { return 0; }\n')
    with pytest.raises(SimtUnavailableError) as info:
        cpudebug.build([main, src], tmp_path / "prog")
    _check_error(info.value, src, "Ascend910B1")


def test_cli_reports_it(src):
    proc = subprocess.run([sys.executable, "-m", "pyasc_core.cli", "compile", str(src), "--soc", "Ascend910B2"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert f"{src}:7: error: __simt_vf__ is a SIMT API" in proc.stderr
    assert "--soc Ascend950PR_9599" in proc.stderr and "Ascend910B2" in proc.stderr


def test_find_on_both_quote_styles():
    for q, e in (("'", "'"), ("\u2018", "\u2019")):
        out = (f"k.cpp: In function {q}void k(){e}:\nk.cpp:9:5: error: {q}Simt{e} has not been declared\n"
               "    9 |     Simt::WarpShflSync(v, 0);\n      |     ^~~~\n")
        assert simt_soc.find(out) == simt_soc.SimtUse("Simt::WarpShflSync", "k.cpp", 9)
    assert simt_soc.find("k.cpp:3:1: error: 'foo' was not declared in this scope\n") is None


def test_every_simt_name_is_in_the_simt_headers():
    """Each name of simt_soc.SIMT_NAMES appears in the SIMT headers (kapi/simt*.h, whose declarations are all inside
    `#if __CCE_AICORE__ == 310`), so the list names APIs of the 950 build, not arbitrary identifiers."""
    from pathlib import Path

    kapi = Path(pyasc_sim.get_include()) / "pyasc_sim" / "kapi"
    headers = sorted(kapi.glob("simt*.h"))
    text = "\n".join(p.read_text() for p in headers)
    for p in headers:  # every SIMT header declares its names for the 950 build only
        assert "#if __CCE_AICORE__ == 310" in p.read_text(), p.name
    for name in simt_soc.SIMT_NAMES:
        assert re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text), name
