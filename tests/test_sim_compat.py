"""Public Ascend C idioms compile and run on the simulator (issue 8 points 1-5): SDK header paths and
architecture macros, C++ the NPU compiler accepts, op-project kernels with their host tiling header.
The kernels are our own, in the style of public code (backends/sim/kernel_api/tests/kernels/compat/)."""

from __future__ import annotations

import os

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

COMPAT = ASCENDC_DIR / "compat"
OP = COMPAT / "op_project"
TILING_H = OP / "op_host" / "scale_add_tiling.h"


def sim(array: np.ndarray) -> pyasc.Tensor:
    return pyasc.tensor(array, device="sim")


def run(binary: str, kernel: str, blocks: int, args) -> None:
    pyasc_acl.launch(pyasc_acl.Binary(binary, device="sim").function(kernel), blocks, args)


# ---- point 4: SDK header paths, architecture macros, ASCEND_IS_AIV / AIC -------------------------


@pytest.mark.parametrize("core, vec, cube", [("vec", 1, 0), ("cube", 0, 1), ("mix", 1, 1)])
def test_architecture_macros_follow_the_soc_profile(core, vec, cube):
    out = pyasc.zeros((8,), dtype="int32", device="sim")
    run(pyasc_sim.compile(COMPAT / "arch_macros.cpp", opt="-O1", core=core), "arch_macros", 1, (out,))
    # 910B: __CCE_AICORE__ 220, __NPU_ARCH__ 2201; blocks of a plain launch run on AIV
    assert out.numpy().tolist() == [220, 2201, vec, cube, 1, 0, 220, 1]


def test_arch_defines_reject_unknown_soc_and_core():
    assert "-D__NPU_ARCH__=2201" in pyasc_sim.build.arch_defines("Ascend910B3")
    with pytest.raises(pyasc_sim.KernelBuildError, match="unknown SoC 'Ascend999'.*Ascend910B1"):
        pyasc_sim.compile(COMPAT / "arch_macros.cpp", soc="Ascend999")
    with pytest.raises(pyasc_sim.KernelBuildError, match="core must be one of"):
        pyasc_sim.compile(COMPAT / "arch_macros.cpp", core="gpu")


# ---- point 5: C++ the NPU compiler accepts --------------------------------------------------------


def test_clang_idioms_compile_and_run():
    n = 200
    rng = np.random.default_rng(5)
    x = rng.uniform(-3, 3, n).astype(np.float32)
    y = rng.uniform(-3, 3, n).astype(np.float32)
    z = pyasc.zeros((n + 8,), dtype="float32", device="sim")
    # the kernel exists only with the flag: extra_flags reach the stub generator's preprocessing too
    binary = pyasc_sim.compile(COMPAT / "clang_idioms.cpp", opt="-O1", extra_flags=["-DPYASC_COMPAT_WITH_KERNEL=1"])
    run(binary, "hypot", 1, (sim(x), sim(y), z, n))
    out = z.numpy()
    ref = np.hypot(x, y)
    np.testing.assert_allclose(out[:n], ref, rtol=1e-6)
    np.testing.assert_allclose(out[n], ref.astype(np.float64).sum(), rtol=1e-5)


def test_without_the_flag_the_source_has_no_kernel():
    with pytest.raises(pyasc_sim.KernelBuildError, match="no kernel"):
        pyasc_sim.compile(COMPAT / "clang_idioms.cpp", opt="-O1")


def test_extra_flags_must_be_a_sequence():
    with pytest.raises(pyasc_sim.KernelBuildError, match="extra_flags must be a sequence"):
        pyasc_sim.compile(COMPAT / "clang_idioms.cpp", extra_flags="-DX=1")


# ---- point 1: op-project kernels ------------------------------------------------------------------


def tiling(n: int, tile: int, blocks: int, scale: float, bias: float, ws: int):
    t = pyasc_sim.tiling_struct(TILING_H, totalLength=n, scale=scale, bias=[bias, -1.0], useBias=1,
                                workspaceElems=ws)
    t.block.tileLength = tile
    t.block.tileNum = n // blocks // tile
    return t


def test_tiling_struct_field_table_from_the_compiler():
    lay = pyasc_sim.tiling.layout(TILING_H, op_type="ScaleAdd")
    assert lay.name == "ScaleAddTilingData"
    table = {f.name: (f.offset, f.size, f.count) for f in lay.fields}
    # natural C layout: uint64 workspaceElems aligned to 8 after the uint8 flag
    assert table == {"totalLength": (0, 4, 1), "scale": (4, 4, 1), "bias": (8, 8, 2), "useBias": (16, 1, 1),
                     "workspaceElems": (24, 8, 1), "block": (32, 8, 1)}
    assert lay.size == 40
    t = tiling(1024, 128, 2, 2.0, 0.5, 4)
    raw = bytes(t)
    assert len(raw) == 40
    assert np.frombuffer(raw[:4], np.uint32)[0] == 1024
    assert np.frombuffer(raw[4:8], np.float32)[0] == 2.0
    assert np.frombuffer(raw[36:40], np.uint32)[0] == 4  # block.tileNum
    assert t.bias == [0.5, -1.0] and t.block.tileNum == 4


def test_tiling_struct_array_field_elements_write_through():
    t = pyasc_sim.tiling_struct(TILING_H, bias=[1.0, 2.0])
    t.bias[1] = 7.5  # one element: lands in the struct's bytes (it used to go to a copy and vanish)
    t.bias[-2] = -3.0
    assert t.bias == [-3.0, 7.5] and list(t.bias) == [-3.0, 7.5] and t.bias[0:2] == [-3.0, 7.5]
    assert np.frombuffer(bytes(t)[8:16], np.float32).tolist() == [-3.0, 7.5]
    t.bias[:] = [4.0, 5.0]
    assert np.frombuffer(bytes(t)[8:16], np.float32).tolist() == [4.0, 5.0]
    with pytest.raises(pyasc.PyascError, match=r"bias has 2 elements .*index 2 is out of range; use 0 .. 1"):
        t.bias[2] = 1.0
    with pytest.raises(pyasc.PyascError, match="indexed by an int"):
        t.bias["0"] = 1.0
    with pytest.raises(pyasc.PyascError, match=r"bias\[0\] \(float\) cannot hold 'x'"):
        t.bias[0] = "x"
    with pytest.raises(pyasc.PyascError, match="holds 2 elements, got 1"):
        t.bias[:] = [1.0]
    with pytest.raises(pyasc.PyascError, match="cannot hold 'y'"):
        t.bias[:] = [9.0, "y"]
    assert np.frombuffer(bytes(t)[8:16], np.float32).tolist() == [4.0, 5.0]  # failed writes changed nothing


def test_tiling_struct_errors_name_the_field():
    t = pyasc_sim.tiling_struct(TILING_H)
    with pytest.raises(AttributeError, match="no field 'total'.*totalLength"):
        t.total = 1
    with pytest.raises(ValueError, match="bias holds 2 elements"):
        t.bias = [1.0]
    t.useBias = 1
    with pytest.raises(ValueError, match="useBias.*cannot hold 300"):
        t.useBias = 300
    assert t.useBias == 1  # the failed write left the field as it was
    with pytest.raises(pyasc_sim.KernelBuildError, match="op_type 'Nope' is not registered.*ScaleAdd"):
        pyasc_sim.tiling.layout(TILING_H, op_type="Nope")


@pytest.mark.parametrize("key", [1, 2])
@pytest.mark.parametrize("header", ["file", "dir"])
def test_op_project_kernel_with_host_tiling_header(key, header):
    n, blocks, tile, ws = 2048, 4, 128, 24
    hdr = TILING_H if header == "file" else TILING_H.parent
    binary = pyasc_sim.compile(OP / "op_kernel" / "scale_add.cpp", opt="-O1", tiling_header=hdr, tiling_key=key,
                               dtypes={"x": "float32", "y": "float32", "z": np.float32})
    rng = np.random.default_rng(key)
    x = rng.uniform(-1, 1, n).astype(np.float32)
    y = rng.uniform(-1, 1, n).astype(np.float32)
    z = pyasc.zeros((n,), dtype="float32", device="sim")
    work = pyasc.zeros((pyasc_sim.SYS_WORKSPACE_SIZE // 4 + ws,), dtype="int32", device="sim")
    t = tiling(n, tile, blocks, 3.0, 0.25, ws)
    run(binary, "scale_add", blocks, (sim(x), sim(y), z, work, sim(np.frombuffer(bytes(t), np.uint8).copy())))
    ref = x * np.float32(3) + y + np.float32(0.25) if key == 1 else x * np.float32(3) - y
    np.testing.assert_allclose(z.numpy(), ref, rtol=1e-6, atol=1e-6)
    w = work.numpy()
    assert (w[-ws:] == 7).all() and (w[:-ws] == 0).all()  # InitGlobalMemory after the system workspace


def test_op_project_half_dtype():
    n, blocks, tile = 1024, 2, 256
    binary = pyasc_sim.compile(OP / "op_kernel" / "scale_add.cpp", opt="-O1", tiling_header=TILING_H, tiling_key=2,
                               op_type="ScaleAdd", dtypes={"x": "float16", "y": "float16", "z": "float16"})
    x = np.linspace(-2, 2, n).astype(np.float16)
    y = np.linspace(1, 0, n).astype(np.float16)
    z = pyasc.zeros((n,), dtype="float16", device="sim")
    t = tiling(n, tile, blocks, 2.0, 0.0, 0)
    run(binary, "scale_add", blocks, (sim(x), sim(y), z, sim(np.zeros(8, np.int32)),
                                      sim(np.frombuffer(bytes(t), np.uint8).copy())))
    np.testing.assert_allclose(z.numpy().astype(np.float32), (x * np.float16(2) - y).astype(np.float32), rtol=1e-3)


def test_get_tiling_data_without_header_says_how(tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR w, GM_ADDR tiling) {\n'
                   '    GET_TILING_DATA(t, tiling);\n    (void)t;\n}\n')
    with pytest.raises(pyasc_sim.KernelCompileError, match="compile it with the op's host tiling header"):
        pyasc_sim.compile(src)


def test_register_tiling_default_and_with_struct(tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text('#include "kernel_operator.h"\n'
                   "struct MyTiling { uint32_t a; float b; };\n"
                   'extern "C" __global__ __aicore__ void k(GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling) {\n'
                   "    REGISTER_TILING_DEFAULT(MyTiling);\n"
                   "    GET_TILING_DATA(t, tiling);\n"
                   "    GET_TILING_DATA_WITH_STRUCT(MyTiling, u, tiling);\n"
                   "    AscendC::SetSysWorkspace(workspace);\n"
                   "    AscendC::GlobalTensor<float> o; o.SetGlobalBuffer((__gm__ float *)out, 3);\n"
                   "    o.SetValue(0, t.a * t.b); o.SetValue(1, u.b);\n"
                   "    o.SetValue(2, AscendC::GetSysWorkSpacePtr() == workspace ? 1.0f : 0.0f);\n}\n")
    out = pyasc.zeros((3,), dtype="float32", device="sim")
    raw = np.array([6], np.uint32).tobytes() + np.array([1.5], np.float32).tobytes()
    run(pyasc_sim.compile(src, opt="-O1"), "k", 1, (out, sim(np.zeros(8, np.int32)), sim(np.frombuffer(raw, np.uint8).copy())))
    assert out.numpy().tolist() == [9.0, 1.5, 1.0]


def test_op_project_bad_inputs():
    src = OP / "op_kernel" / "scale_add.cpp"
    with pytest.raises(pyasc_sim.KernelBuildError, match="tiling_header .*nope.h does not exist"):
        pyasc_sim.compile(src, tiling_header=OP / "nope.h")
    with pytest.raises(pyasc_sim.KernelBuildError, match="op_type 'Other' has no REGISTER_TILING_DATA_CLASS"):
        pyasc_sim.compile(src, tiling_header=TILING_H, op_type="Other")
    with pytest.raises(pyasc_sim.KernelBuildError, match="dtype 'complex64' of 'x' has no Ascend C type"):
        pyasc_sim.compile(src, tiling_header=TILING_H, dtypes={"x": "complex64"})
    with pytest.raises(pyasc_sim.KernelBuildError, match="tiling_key must be an integer"):
        pyasc_sim.compile(src, tiling_header=TILING_H, tiling_key=-1)
    with pytest.raises(pyasc_sim.KernelBuildError, match="op_type='ScaleAdd' needs tiling_header"):
        pyasc_sim.compile(src, op_type="ScaleAdd")


# ---- point 2: kernel-launch sources (<<<>>> in host code) -----------------------------------------

LAUNCH_SRC = COMPAT / "launch_scale.cpp"
LAUNCHER_TYPES = ["uint32", "pointer", "pointer", "pointer", "uint32", "float"]


def test_rewrite_launches_skips_comments_and_strings():
    text = ('// a <<<>>> launch (\nk<<<n, nullptr, s>>>(a, b);\nconst char *t = "k<<<1>>>(";\n'
            "k2 <<< 4, nullptr, s >>> (a);\n")
    out, n = pyasc_sim.build.rewrite_launches(text)
    assert n == 2
    assert out.splitlines()[0] == "// a <<<>>> launch ("  # lines keep their numbers
    assert out.splitlines()[1] == '::pyasc_sim::host::launcher(&(k), "k", n, nullptr, s)(a, b);'
    assert '"k<<<1>>>("' in out
    assert out.splitlines()[3].startswith('::pyasc_sim::host::launcher(&(k2), "k2",  4, nullptr, s )(')


def test_host_launcher_runs_from_python():
    binary = pyasc_sim.compile(LAUNCH_SRC, opt="-O1")
    launch = pyasc_sim.host_function(binary, "lscale_do", LAUNCHER_TYPES)
    x = np.arange(256, dtype=np.float32) - 100
    y = pyasc.zeros((256,), dtype="float32", device="sim")
    launch(4, None, sim(x), y, 256, -1.5)  # default stream
    pyasc.synchronize()
    np.testing.assert_array_equal(y.numpy(), x * np.float32(-1.5))


def test_guarded_host_launcher_is_left_out():
    binary = pyasc_sim.compile(LAUNCH_SRC, opt="-O1")
    with pytest.raises(pyasc_sim.KernelBuildError, match="no host function 'lscale_do_guarded'.*ASCENDC_CPU_DEBUG"):
        pyasc_sim.host_function(binary, "lscale_do_guarded", LAUNCHER_TYPES)


MAIN_CPP = r"""
#include <cstdio>
#include <cstdint>
#include <vector>
#include "pyasc/acl_abi.h"
void lscale_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint32_t n, float a);
#define CHECK(x) do { int rc_ = (x); if (rc_ != 0) { std::printf("FAIL %s = %d\n", #x, rc_); return 1; } } while (0)
int main() {
    const uint32_t n = 128;
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    std::vector<float> x(n), y(n);
    for (uint32_t i = 0; i < n; ++i) x[i] = float(i);
    void *dx = nullptr, *dy = nullptr;
    CHECK(aclrtMalloc(&dx, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dy, n * 4, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dx, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE));
    lscale_do(2, stream, (uint8_t *)dx, (uint8_t *)dy, n, 3.0f);
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(y.data(), n * 4, dy, n * 4, ACL_MEMCPY_DEVICE_TO_HOST));
    for (uint32_t i = 0; i < n; ++i) if (y[i] != 3.0f * x[i]) { std::printf("FAIL y[%u]=%g\n", i, y[i]); return 1; }
    aclrtFree(dx); aclrtFree(dy); aclrtDestroyStream(stream); aclrtResetDevice(0); aclFinalize();
    std::printf("OK\n");
    return 0;
}
"""


def test_host_launcher_runs_from_a_cpp_program(tmp_path):
    import subprocess

    binary = pyasc_sim.compile(LAUNCH_SRC, opt="-O1", output=tmp_path / "liblscale.so")
    main = tmp_path / "main.cpp"
    main.write_text(MAIN_CPP)
    lib = pyasc_sim.library_path()
    exe = tmp_path / "main"
    subprocess.run(["g++", "-std=c++17", "-I", pyasc_sim.get_include(), str(main), binary, lib, "-o", str(exe),
                    f"-Wl,-rpath,{tmp_path}:{os.path.dirname(lib)}"], check=True, capture_output=True, text=True)
    proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 0 and proc.stdout.strip() == "OK", proc.stdout + proc.stderr


# ---- point 3: CANN CPU-debug programs (tikicpulib.h, ICPU_RUN_KF) ---------------------------------

CPU_DEBUG = COMPAT / "cpu_debug"


def cpu_debug(tmp_path, *argv, env=None):
    import subprocess
    import sys

    code = "import sys; from pyasc_core.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, "cpu-debug", *argv], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path, env={**os.environ, **(env or {})})


@pytest.mark.parametrize("key, extra", [("1", []), ("2", ["--serial", "--debug"])])
def test_cpu_debug_program_builds_and_runs_unchanged(tmp_path, key, extra):
    proc = cpu_debug(tmp_path, str(CPU_DEBUG / "main.cpp"), str(CPU_DEBUG / "saxpy_kernel.cpp"), *extra, "--", key)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "saxpy OK"


def test_cpu_debug_sanitizer_reports_and_fails(tmp_path):
    # n = 2040 is not a multiple of 8 blocks x 64-element tiles: the last tile of each block reads past
    # its GlobalTensor, which the sanitizer reports with the kernel's line
    proc = cpu_debug(tmp_path, str(CPU_DEBUG / "main.cpp"), str(CPU_DEBUG / "saxpy_kernel.cpp"), "--", "1", "2040")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "kernel saxpy block" in proc.stderr and "gm-out-of-bounds" in proc.stderr
    assert "saxpy_kernel.cpp:" in proc.stderr


def test_cpu_debug_build_keeps_a_debug_executable(tmp_path):
    from pyasc_sim import cpudebug

    exe = cpudebug.build([CPU_DEBUG / "main.cpp", CPU_DEBUG / "saxpy_kernel.cpp"], tmp_path / "saxpy", debug=True)
    import subprocess

    out = subprocess.run(["readelf", "-S", exe], capture_output=True, text=True).stdout
    assert ".debug_info" in out  # -g
    assert cpudebug.run(exe, ["1"], serial=True) == 0
    assert os.path.isfile(cpudebug.cmake_module())


def test_cpu_debug_optimisation_level_follows_opt_then_pyasc_sim_opt(monkeypatch):
    """A CPU-debug build's level: ``opt=``, else PYASC_SIM_OPT when set (the test suite's -O0: about 30% less
    compiler CPU than -O2 for the saxpy program), else -O2; --debug is always -O0 -g. A bad value names its source."""
    from pyasc_sim import KernelBuildError, cpudebug

    monkeypatch.delenv("PYASC_SIM_OPT", raising=False)
    assert cpudebug._opt_flags(False, None) == ["-O2"]
    assert cpudebug._opt_flags(False, "-O1") == ["-O1"]
    assert cpudebug._opt_flags(True, "-O3") == ["-O0", "-g"]
    monkeypatch.setenv("PYASC_SIM_OPT", "-Os")
    assert cpudebug._opt_flags(False, None) == ["-Os"]
    monkeypatch.setenv("PYASC_SIM_OPT", "fast")
    with pytest.raises(KernelBuildError, match="PYASC_SIM_OPT must be a g\\+\\+ optimisation flag .*'fast'"):
        cpudebug.build([CPU_DEBUG / "main.cpp"], "/nonexistent/prog")
    with pytest.raises(KernelBuildError, match="opt must be a g\\+\\+ optimisation flag .*'-O9'"):
        cpudebug.compile_object(CPU_DEBUG / "saxpy_kernel.cpp", "/nonexistent/k.o", opt="-O9")


def test_cpu_debug_objects_are_cached_by_content(tmp_path, monkeypatch):
    """A CPU-debug source's object is kept in the kernel cache (cpudebug_*): the same source, headers and flags
    compile once; a change in a header it includes compiles it again; PYASC_SIM_CPU_DEBUG_CACHE=0 turns it off."""
    import shutil
    import subprocess

    from pyasc_sim import cpudebug

    src = tmp_path / "src"
    src.mkdir()
    for name in ("saxpy_kernel.cpp", "saxpy_tiling.h"):
        shutil.copy(CPU_DEBUG / name, src / name)
    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    compiles = []
    popen = subprocess.Popen

    def counting(cmd, *a, **k):
        if "-c" in cmd and str(src / "saxpy_kernel.cpp") in cmd:
            compiles.append(cmd)
        return popen(cmd, *a, **k)

    monkeypatch.setattr(subprocess, "Popen", counting)
    first = cpudebug.compile_object(src / "saxpy_kernel.cpp", tmp_path / "a.o")
    again = cpudebug.compile_object(src / "saxpy_kernel.cpp", tmp_path / "b.o")
    assert len(compiles) == 1
    assert open(first, "rb").read() == open(again, "rb").read()
    assert [f for f in os.listdir(tmp_path / "cache") if f.startswith("cpudebug_") and f.endswith(".o")]
    with open(src / "saxpy_tiling.h", "a") as f:
        f.write("// changed\n")
    cpudebug.compile_object(src / "saxpy_kernel.cpp", tmp_path / "c.o")
    assert len(compiles) == 2
    monkeypatch.setenv("PYASC_SIM_CPU_DEBUG_CACHE", "0")
    job = cpudebug._Compile(str(src / "saxpy_kernel.cpp"), str(tmp_path / "d.o"), level=["-O0"], include_dirs=[],
                            extra_flags=[], soc=None, cxx="g++")
    assert job.cache_entry is None
    monkeypatch.setenv("PYASC_SIM_CPU_DEBUG_CACHE", "1")
    assert cpudebug._Compile(str(src / "saxpy_kernel.cpp"), str(tmp_path / "d.o"), level=["-O0"], include_dirs=[],
                             extra_flags=[], soc=None, cxx="g++").cache_entry is not None


def test_cpu_debug_compile_error_names_the_line(tmp_path):
    bad = tmp_path / "k.cpp"
    bad.write_text('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) {\n  nope();\n}\n')
    from pyasc_sim import cpudebug

    with pytest.raises(pyasc_sim.KernelCompileError, match=r"k.cpp:3: error"):
        cpudebug.build([CPU_DEBUG / "main.cpp", bad], tmp_path / "x")
    proc = cpu_debug(tmp_path)
    assert proc.returncode == 2 and "give the host main.cpp" in proc.stderr


def test_pyasc_compile_cli_builds_an_op_project_kernel(tmp_path):
    import subprocess
    import sys

    code = "import sys; from pyasc_core.cli import main; sys.exit(main(sys.argv[1:]))"
    out = tmp_path / "scale_add.so"
    proc = subprocess.run([sys.executable, "-c", code, "compile", str(OP / "op_kernel" / "scale_add.cpp"),
                           "--opt=-O1", "--tiling-header", str(TILING_H), "--dtype", "x=float32", "--dtype",
                           "y=float32", "--dtype", "z=float32", "--tiling-key", "1", "-o", str(out)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "kernels: scale_add" in proc.stdout and out.is_file()
    bad = subprocess.run([sys.executable, "-c", code, "compile", str(OP / "op_kernel" / "scale_add.cpp"),
                          "--dtype", "x"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert bad.returncode == 2 and "--dtype takes NAME=DTYPE" in bad.stderr


def test_cpu_debug_cmake_helper_builds_the_program(tmp_path):
    import shutil
    import subprocess
    import sys

    from pyasc_sim import cpudebug

    if shutil.which("cmake") is None:
        pytest.skip("cmake is not installed")
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.18)\nproject(saxpy CXX)\n"
        f'include("{cpudebug.cmake_module()}")\n'
        f'pyasc_cpu_debug_executable(saxpy_dbg "{CPU_DEBUG / "main.cpp"}" "{CPU_DEBUG / "saxpy_kernel.cpp"}" DEBUG)\n'
        f'target_include_directories(saxpy_dbg PRIVATE "{CPU_DEBUG}")\n')
    subprocess.run(["cmake", "-S", str(tmp_path), "-B", str(tmp_path / "b"), f"-DPython3_EXECUTABLE={sys.executable}"],
                   check=True, capture_output=True, timeout=300)
    subprocess.run(["cmake", "--build", str(tmp_path / "b")], check=True, capture_output=True, timeout=300)
    proc = subprocess.run([str(tmp_path / "b" / "saxpy_dbg"), "2"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYASC_SIM_SERIAL": "1"})
    assert proc.returncode == 0 and proc.stdout.strip() == "saxpy OK", proc.stdout + proc.stderr


@pytest.mark.parametrize("extra", [[], ["--serial"]])
def test_cpu_debug_mix_mode_runs_the_aic_and_both_aiv(tmp_path, extra):
    # before: MIX_MODE ran every block as one AIV, so the AIC's flag never came (a deadlock report)
    proc = cpu_debug(tmp_path, str(CPU_DEBUG / "main_mix.cpp"), str(CPU_DEBUG / "mix_kernel.cpp"), *extra, "--", "3")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "mix OK"


def test_cpu_debug_mix_mode_wait_nothing_releases_is_reported_not_hung(tmp_path):
    proc = cpu_debug(tmp_path, str(CPU_DEBUG / "main_mix.cpp"), str(CPU_DEBUG / "mix_kernel.cpp"), "-D",
                     "MIX_FORGET_FLAG", "--", "2")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "cross-core-deadlock" in proc.stderr and "mix_kernel.cpp:" in proc.stderr, proc.stderr
