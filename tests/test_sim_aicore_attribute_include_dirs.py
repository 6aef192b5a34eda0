"""The NPU compiler's `[aicore]` function attribute in headers found through include directories (`-I`), and in CANN
CPU-debug programs (pyasc_sim.cpudebug / `pyasc cpu-debug` and the CMake helper): every header the source reaches --
quoted or in angle brackets, nested, through `..` -- is compiled from a rewritten private copy (with #line naming the
original), the user's files are never changed, a diagnostic names the original file and line, and a change in an
include-directory header misses the kernel cache. Our own kernels in the style of public SIMT code (IndexSDK's
`#define DI __forceinline__[aicore]` in a shared header), compared with the values NumPy / plain arithmetic give."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from pyasc_sim import cpudebug
from pyasc_sim.build import KernelCompileError

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")

# inc/ops/scale.h (found through -I inc, in angle brackets) includes ../../common/attr.h (outside inc)
SCALE_H = """#pragma once
#include "kernel_operator.h"
#include "../../common/attr.h"
template <typename T>
static inline [aicore] T scale_add(T v, T s) { return add_one(v * s) - 1 + OFFSET; }
"""
ATTR_H = """#pragma once
#define DI inline [aicore]
#ifndef OFFSET
#define OFFSET 0
#endif
template <typename T>
DI T add_one(T v) { return v + 1; }
"""
KERNEL = """#include "kernel_operator.h"
#include <ops/scale.h>
using namespace AscendC;
// y[i] = x[i] * s + OFFSET for i < n (one block, scalar GM accesses)
extern "C" __global__ __aicore__ void scale_k(GM_ADDR x, GM_ADDR y, int32_t s, uint32_t n)
{
    GlobalTensor<int32_t> gx, gy;
    gx.SetGlobalBuffer((__gm__ int32_t *)x, n);
    gy.SetGlobalBuffer((__gm__ int32_t *)y, n);
    for (uint32_t i = 0; i < n; ++i) {
        gy.SetValue(i, scale_add<int32_t>(gx.GetValue(i), s));
    }
}
"""


@pytest.fixture()
def project(tmp_path):
    (tmp_path / "inc" / "ops").mkdir(parents=True)
    (tmp_path / "common").mkdir()
    (tmp_path / "src").mkdir()
    (tmp_path / "inc" / "ops" / "scale.h").write_text(SCALE_H)
    (tmp_path / "common" / "attr.h").write_text(ATTR_H)
    (tmp_path / "src" / "scale.cpp").write_text(KERNEL)
    return tmp_path


def _run(path, x, s):
    fn = pyasc_acl.Binary(path, device="sim").function("scale_k")
    y = pyasc.zeros(x.shape, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (pyasc.tensor(x, device="sim"), y, np.int32(s), np.uint32(x.size)))
    pyasc.synchronize("sim")
    return y.numpy()


@pytest.mark.parametrize("form", ["-I{}", "-I {}"])
def test_header_in_an_include_dir_is_rewritten(project, form):
    x = np.arange(-20, 44, dtype=np.int32)
    flags = form.format(project / "inc").split(" ", 1) if " " in form else [form.format(project / "inc")]
    path = pyasc_sim.compile(project / "src" / "scale.cpp", opt="-O1", extra_flags=flags)
    np.testing.assert_array_equal(_run(path, x, 3), x * 3)
    # the user's files are never changed
    assert (project / "inc" / "ops" / "scale.h").read_text() == SCALE_H
    assert (project / "common" / "attr.h").read_text() == ATTR_H


def test_a_changed_include_dir_header_misses_the_cache(project):
    x = np.arange(8, dtype=np.int32)
    flags = [f"-I{project / 'inc'}"]
    first = pyasc_sim.compile(project / "src" / "scale.cpp", opt="-O1", extra_flags=flags)
    np.testing.assert_array_equal(_run(first, x, 2), x * 2)
    (project / "common" / "attr.h").write_text(ATTR_H.replace("#define OFFSET 0", "#define OFFSET 100"))
    second = pyasc_sim.compile(project / "src" / "scale.cpp", opt="-O1", extra_flags=flags)
    assert second != first
    np.testing.assert_array_equal(_run(second, x, 2), x * 2 + 100)


def test_diagnostics_name_the_original_header(project):
    (project / "common" / "attr.h").write_text(ATTR_H + "DI int broken() { return undeclared_thing; }\n")
    with pytest.raises(KernelCompileError) as info:
        pyasc_sim.compile(project / "src" / "scale.cpp", opt="-O1", extra_flags=[f"-I{project / 'inc'}"])
    assert info.value.file == str(project / "common" / "attr.h") and info.value.line == 8
    assert "aicore_tree" not in str(info.value).splitlines()[0]


MAIN = r"""#include <cstdint>
#include <cstdio>
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void scale_k(GM_ADDR x, GM_ADDR y, int32_t s, uint32_t n);

int32_t main()
{
    const uint32_t n = 40;
    int32_t *x = (int32_t *)AscendC::GmAlloc(n * sizeof(int32_t));
    int32_t *y = (int32_t *)AscendC::GmAlloc(n * sizeof(int32_t));
    for (uint32_t i = 0; i < n; ++i) x[i] = (int32_t)i - 7;
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(scale_k, 1, (GM_ADDR)x, (GM_ADDR)y, 5, n);
    int bad = 0;
    for (uint32_t i = 0; i < n; ++i) bad += y[i] != ((int32_t)i - 7) * 5;
    std::printf(bad == 0 ? "scale OK\n" : "scale BAD %d\n", bad);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    return bad == 0 ? 0 : 1;
}
"""


def test_cpu_debug_program_with_aicore_headers(project):
    (project / "src" / "main.cpp").write_text(MAIN)
    exe = cpudebug.build([project / "src" / "main.cpp", project / "src" / "scale.cpp"], project / "prog",
                         include_dirs=[project / "inc"], debug=True)
    proc = subprocess.run([exe], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stdout.strip() == "scale OK", proc.stdout + proc.stderr
    assert (project / "inc" / "ops" / "scale.h").read_text() == SCALE_H
    # the debug line tables name the user's files (the private copies' #line), for gdb
    lines = subprocess.run(["readelf", "--debug-dump=line", exe], capture_output=True, text=True).stdout
    assert "attr.h" in lines and str(project / "common") in lines


def test_pyasc_cpu_debug_cli(project):
    (project / "src" / "main.cpp").write_text(MAIN)
    code = "import sys; from pyasc_core.cli import main; sys.exit(main(sys.argv[1:]))"
    proc = subprocess.run([sys.executable, "-c", code, "cpu-debug", str(project / "src" / "main.cpp"),
                           str(project / "src" / "scale.cpp"), "-I", str(project / "inc")],
                          capture_output=True, text=True, timeout=600, cwd=project)
    assert proc.returncode == 0 and "scale OK" in proc.stdout, proc.stdout + proc.stderr


def test_cmake_helper_with_aicore_headers(project):
    if shutil.which("cmake") is None:
        pytest.skip("cmake is not installed")
    (project / "src" / "main.cpp").write_text(MAIN)
    (project / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.18)\nproject(scale CXX)\n"
        f'include("{cpudebug.cmake_module()}")\n'
        "pyasc_cpu_debug_executable(scale src/main.cpp src/scale.cpp INCLUDE_DIRECTORIES inc)\n")
    subprocess.run(["cmake", "-S", str(project), "-B", str(project / "b"), f"-DPython3_EXECUTABLE={sys.executable}"],
                   check=True, capture_output=True, timeout=300)
    build = subprocess.run(["cmake", "--build", str(project / "b"), "--verbose"], capture_output=True, text=True,
                           timeout=600)
    assert build.returncode == 0, build.stdout + build.stderr
    assert "pyasc_sim.cpudebug" in build.stdout  # the [aicore] source went through the rewriting build
    proc = subprocess.run([str(project / "b" / "scale")], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYASC_SIM_SERIAL": "1"})
    assert proc.returncode == 0 and proc.stdout.strip() == "scale OK", proc.stdout + proc.stderr
    assert (project / "common" / "attr.h").read_text() == ATTR_H


def test_pyasc_compile_cli_include_dir(project):
    code = "import sys; from pyasc_core.cli import main; sys.exit(main(sys.argv[1:]))"
    out = project / "scale.so"
    proc = subprocess.run([sys.executable, "-c", code, "compile", str(project / "src" / "scale.cpp"), "--opt=-O1",
                           "-I", str(project / "inc"), "-o", str(out)], capture_output=True, text=True, timeout=600,
                          cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert "kernels: scale_k" in proc.stdout and out.is_file()
    x = np.arange(-3, 29, dtype=np.int32)
    np.testing.assert_array_equal(_run(str(out), x, -2), x * -2)
