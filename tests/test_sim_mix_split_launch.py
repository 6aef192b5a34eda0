"""Mixed cube/vector kernels split with ``#if defined(__DAV_C220_CUBE__)`` / ``#elif
defined(__DAV_C220_VEC__)`` (issue 8 points 2, 3, 8) built once per core kind on the two paths that
used to compile them once: a kernel-launch source's host launchers (``kernel<T><<<...>>>`` on a
template kernel, and ``kernel<<<...>>>`` on an extern "C" one) and a CANN CPU-debug program
(``ICPU_RUN_KF`` in ``MIX_MODE`` / ``AIV_MODE`` / ``AIC_MODE``, its ``-O0 -g`` build and serial mode).
Each AI Core is one AIC running the cube pass and two AIV running the vector pass (MIX_AIC_1_2). Our
own kernels in public style: kernels/compat/mix_split_launch.cpp, cpu_debug/mix_split_kernel.cpp."""

from __future__ import annotations

import os
import subprocess

import numpy as np
import pytest

import pyasc
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR
from pyasc_sim import mix_build

SRC = ASCENDC_DIR / "compat" / "mix_split_launch.cpp"
CPU_DEBUG = ASCENDC_DIR / "compat" / "cpu_debug"
TYPES = ["uint32", "pointer", "pointer", "pointer", "pointer", "pointer", "float"]
CHUNK = 64
BASE = 1.5


@pytest.fixture(scope="module")
def binary():
    return pyasc_sim.compile(SRC, opt="-O1")


def _expected_info(groups: int) -> np.ndarray:
    """{cube macro, vector macro, ASCEND_IS_AIC, PassTag} per core: the AIC its cube pass, the AIV theirs."""
    rows = np.array([[1, 0, 1, 100], [0, 1, 0, 200], [0, 1, 0, 200]], dtype=np.int32)
    return np.tile(rows, (groups, 1)).reshape(groups, 3, 4)


def _run(binary, launcher: str, dtype, groups: int):
    x = (np.arange(groups * 2 * CHUNK) % 97 - 40).astype(dtype)
    y = pyasc.zeros(x.shape, dtype=np.dtype(dtype).name, device="sim")
    ws = pyasc.zeros((groups * 16,), dtype="float32", device="sim")
    info = pyasc.full((groups * 3 * 16,), -1, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_sim.host_function(binary, launcher, TYPES)(groups, None, pyasc.tensor(x, device="sim"), y, ws, info, BASE)
    pyasc.synchronize()
    scale = (BASE + np.arange(groups, dtype=np.float32)).repeat(2 * CHUNK)
    want = (x.astype(np.float32) * scale).astype(dtype) if dtype == np.float16 else x * scale.astype(dtype)
    np.testing.assert_array_equal(y.numpy(), want)
    rows = info.numpy().reshape(groups, 3, 16)
    np.testing.assert_array_equal(rows[:, :, :4], _expected_info(groups))
    assert (rows[:, :, 4:] == -1).all()


@pytest.mark.parametrize("launcher,dtype,groups", [("mix_launch_float", np.float32, 3),
                                                   ("mix_launch_half", np.float16, 2)])
def test_template_kernel_launch_runs_each_pass_on_its_core(binary, launcher, dtype, groups):
    # before: the template instance's entry ran the cube pass on every core, so the AIV never scaled
    _run(binary, launcher, dtype, groups)


def test_extern_c_kernel_launch_runs_each_pass_on_its_core(binary):
    _run(binary, "mix_launch_c_do", np.float32, 2)


def test_generic_core_macros_are_per_core_kind_too(binary):
    info = pyasc.full((2 * 3 * 16,), -1, dtype="int32", device="sim")
    pyasc.synchronize("sim")
    pyasc_sim.host_function(binary, "mix_dav_do", ["uint32", "pointer", "pointer"])(2, None, info)
    pyasc.synchronize()
    rows = info.numpy().reshape(2, 3, 16)[:, :, :2]
    np.testing.assert_array_equal(rows, np.tile([[1, 0], [0, 1], [0, 1]], (2, 1)).reshape(2, 3, 2))
    vec = pyasc_sim.build.arch_defines("Ascend910B1", "vec")
    assert "-D__DAV_VEC__=1" in vec and "-D__DAV_CUBE__=1" not in vec
    mixed = "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);"
    assert mix_build.wanted(vec, mixed, [b"#if defined(__DAV_CUBE__)\n#elif defined(__DAV_VEC__)\n#endif\n"])
    aic = mix_build.pass_flags(pyasc_sim.build.arch_defines("Ascend910B1", "mix"), "aic")
    assert "-D__DAV_CUBE__=1" in aic and "-D__DAV_VEC__=1" not in aic


def test_a_vector_only_template_launch_runs_only_its_vector_pass(binary):
    # before: its <<<>>> instance started on the cube pass (only extern "C" kernels were checked)
    blocks = 2
    out_np = np.full((blocks * 16,), -1, np.int32)
    out_np[8::16] = 0
    out = pyasc.tensor(out_np, device="sim")
    pyasc.synchronize("sim")
    pyasc_sim.host_function(binary, "vec_only_do", ["uint32", "pointer", "pointer"])(blocks, None, out)
    pyasc.synchronize()
    rows = out.numpy().reshape(blocks, 16)
    assert rows[:, :4].tolist() == [[0, 1, 200, 2]] * blocks and rows[:, 8].tolist() == [1] * blocks


def test_the_vector_pass_copies_are_not_host_functions(binary):
    out = subprocess.run(["nm", "-D", "--defined-only", binary], capture_output=True, text=True, check=True).stdout
    assert ".pyasc_aiv" in out  # the binary holds the vector pass's renamed launcher too
    pyasc_sim.host_function(binary, "mix_launch_float", TYPES)  # and the name still finds one function


MAIN_CPP = r"""
#include <cstdio>
#include <cstdint>
#include <vector>
#include "pyasc/acl_abi.h"
void mix_launch_float(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *ws, uint8_t *info, float base);
#define CHECK(x) do { int rc_ = (x); if (rc_ != 0) { std::printf("FAIL %s = %d\n", #x, rc_); return 1; } } while (0)
int main() {
    const uint32_t groups = 2, n = groups * 128;
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    std::vector<float> x(n), y(n);
    for (uint32_t i = 0; i < n; ++i) x[i] = float(i) - 7.0f;
    void *dx = nullptr, *dy = nullptr, *ws = nullptr, *info = nullptr;
    CHECK(aclrtMalloc(&dx, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dy, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&ws, groups * 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&info, groups * 3 * 64, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    mix_launch_float(groups, stream, (uint8_t *)dx, (uint8_t *)dy, (uint8_t *)ws, (uint8_t *)info, 4.0f);
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(y.data(), n * 4, dy, n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < n; ++i) {
        const float want = (4.0f + float(i / 128)) * x[i];
        if (y[i] != want) { std::printf("FAIL y[%u]=%g want %g\n", i, y[i], want); return 1; }
    }
    aclrtFree(dx); aclrtFree(dy); aclrtFree(ws); aclrtFree(info);
    aclrtDestroyStream(stream); aclrtResetDevice(0); aclFinalize();
    std::printf("OK\n");
    return 0;
}
"""


def test_template_kernel_launch_from_a_cpp_program(binary, tmp_path):
    lib_dir = tmp_path / "lib"
    so = pyasc_sim.compile(SRC, opt="-O1", output=lib_dir / "libmixlaunch.so")  # the cached binary, copied
    main = tmp_path / "main.cpp"
    main.write_text(MAIN_CPP)
    lib = pyasc_sim.library_path()
    exe = tmp_path / "main"
    subprocess.run(["g++", "-std=c++17", "-I", pyasc_sim.get_include(), str(main), so, lib, "-o", str(exe),
                    f"-Wl,-rpath,{lib_dir}:{os.path.dirname(lib)}"], check=True, capture_output=True, text=True)
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == "OK", proc.stdout + proc.stderr


# ---- CPU-debug programs ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cpu_debug_exe(tmp_path_factory):
    from pyasc_sim import cpudebug

    out = tmp_path_factory.mktemp("mix_split_cpu_debug") / "mix_split"
    # the debug build (-O0 -g), as `pyasc cpu-debug --debug` makes it
    return cpudebug.build([CPU_DEBUG / "main_mix_split.cpp", CPU_DEBUG / "mix_split_kernel.cpp"], out, debug=True)


@pytest.mark.parametrize("serial", [False, True])
def test_cpu_debug_program_runs_each_pass_on_its_core(cpu_debug_exe, serial):
    # before: one compile with the vector macro, so the AIC ran the vector pass too and waited for its
    # own flag (cross-core-deadlock, exit status 1)
    env = {**os.environ, **({"PYASC_SIM_SERIAL": "1"} if serial else {})}
    proc = subprocess.run([cpu_debug_exe, "3"], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0 and proc.stdout.strip() == "mix split OK", proc.stdout + proc.stderr


def test_cpu_debug_split_build_keeps_debug_info_of_both_passes(cpu_debug_exe):
    syms = subprocess.run(["nm", cpu_debug_exe], capture_output=True, text=True, check=True).stdout
    assert " T mix_split_scale\n" in syms and "mix_split_scale.pyasc_aiv" in syms
    lines = subprocess.run(["readelf", "--debug-dump=decodedline", cpu_debug_exe], capture_output=True,
                           text=True).stdout
    assert "mix_split_kernel.cpp" in lines  # gdb can break on the kernel's lines (in either pass)


def test_cpu_debug_object_of_a_plain_source_is_one_compile(tmp_path):
    from pyasc_sim import cpudebug

    obj = cpudebug.compile_object(CPU_DEBUG / "mix_kernel.cpp", tmp_path / "mix_kernel.o")  # runtime branches only
    syms = subprocess.run(["nm", obj], capture_output=True, text=True, check=True).stdout
    assert "mix_scale" in syms and ".pyasc_aiv" not in syms


def test_cpu_debug_cmake_helper_builds_the_split_source_per_core_kind(tmp_path):
    import shutil
    import sys

    from pyasc_sim import cpudebug

    if shutil.which("cmake") is None:
        pytest.skip("cmake is not installed")
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.18)\nproject(mix_split CXX)\n"
        f'include("{cpudebug.cmake_module()}")\n'
        f'pyasc_cpu_debug_executable(mix_dbg "{CPU_DEBUG / "main_mix_split.cpp"}" '
        f'"{CPU_DEBUG / "mix_split_kernel.cpp"}" DEBUG)\n')
    subprocess.run(["cmake", "-S", str(tmp_path), "-B", str(tmp_path / "b"), f"-DPython3_EXECUTABLE={sys.executable}"],
                   check=True, capture_output=True, timeout=300)
    build = subprocess.run(["cmake", "--build", str(tmp_path / "b")], capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout + build.stderr
    assert "once per core kind" in build.stdout  # the kernel source went through python -m pyasc_sim.cpudebug
    proc = subprocess.run([str(tmp_path / "b" / "mix_dbg"), "2"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYASC_SIM_SERIAL": "1"})
    assert proc.returncode == 0 and proc.stdout.strip() == "mix split OK", proc.stdout + proc.stderr


def test_cpu_debug_error_in_the_vector_pass_names_its_line(tmp_path):
    from pyasc_sim import cpudebug

    src = tmp_path / "bad_vec.cpp"
    src.write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void bad(GM_ADDR x) {\n'
        "    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);\n"
        "#if defined(__DAV_C220_CUBE__)\n"
        "    (void)x;\n"
        "#elif defined(__DAV_C220_VEC__)\n"
        "    undeclared_in_the_vector_half(x);\n"
        "#endif\n"
        "}\n")
    with pytest.raises(pyasc_sim.KernelCompileError, match=r"bad_vec\.cpp:7: error:.*undeclared_in_the_vector_half"):
        cpudebug.compile_object(src, tmp_path / "bad.o", debug=True)
    with pytest.raises(pyasc_sim.KernelBuildError, match=r"nosuch\.cpp does not exist"):
        cpudebug.compile_object(tmp_path / "nosuch.cpp", tmp_path / "x.o")
