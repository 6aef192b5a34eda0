"""aclrtGetResInCurrentThread (the cores of one kind the calling thread may use) in the simulated ACL
runtime, and the toolchain's float64_t, as collective libraries use them (memfabric_hybrid's zbal
allgather sizes its launch with the one and switches on the other): a launch source whose host
launcher takes its block count from the runtime copies float64_t / float32_t data, run from a C++
program linked against the simulator library and compared with NumPy."""

from __future__ import annotations

import os
import subprocess

import numpy as np
import pytest

import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "launch_core_count.cpp"

MAIN_CPP = r"""
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <vector>
#include "pyasc/acl_abi.h"
int64_t ccopy_do(void *stream, uint8_t *x, uint8_t *y, uint64_t n, int isDouble);
#define CHECK(x) do { int rc_ = (x); if (rc_ != 0) { std::printf("FAIL %s = %d %s\n", #x, rc_, aclGetRecentErrMsg()); return 1; } } while (0)

template <typename T>
static int copy(aclrtStream stream, const char *name, uint64_t n, int isDouble) {
    std::vector<T> x(n), y(n);
    for (uint64_t i = 0; i < n; ++i) x[i] = T(i) / T(3) - T(1e6);  // the NumPy side computes the same
    void *dx = nullptr, *dy = nullptr;
    CHECK(aclrtMalloc(&dx, n * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dy, n * sizeof(T), ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dx, n * sizeof(T), x.data(), n * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemset(dy, n * sizeof(T), 0, n * sizeof(T)));
    const int64_t blocks = ccopy_do(stream, (uint8_t *)dx, (uint8_t *)dy, n, isDouble);
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(y.data(), n * sizeof(T), dy, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST));
    std::FILE *f = std::fopen(name, "wb");
    std::fwrite(y.data(), sizeof(T), n, f);
    std::fclose(f);
    aclrtFree(dx);
    aclrtFree(dy);
    std::printf("%s blocks=%lld\n", name, (long long)blocks);
    return 0;
}

int main() {
    CHECK(aclInit(nullptr));
    uint32_t v = 0;
    // no device set in this thread yet
    int rc = aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &v);
    std::printf("nodevice rc=%d msg=%s\n", rc, aclGetRecentErrMsg());
    CHECK(aclrtSetDevice(0));
    uint32_t cube = 0, vec = 0;
    CHECK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &cube));
    CHECK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_VECTOR_CORE, &vec));
    std::printf("cube=%u vector=%u\n", cube, vec);
    rc = aclrtGetResInCurrentThread((aclrtDevResLimitType)7, &v);
    std::printf("badtype rc=%d msg=%s\n", rc, aclGetRecentErrMsg());
    rc = aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, nullptr);
    std::printf("nullvalue rc=%d\n", rc);
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    if (copy<double>(stream, "y64.bin", 4099, 1)) return 1;
    if (copy<float>(stream, "y32.bin", 1001, 0)) return 1;
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return 0;
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("thread_res")
    binary = pyasc_sim.compile(SRC, opt="-O1", output=tmp / "libccopy.so")
    main = tmp / "main.cpp"
    main.write_text(MAIN_CPP)
    lib = pyasc_sim.library_path()
    exe = tmp / "main"
    subprocess.run(["g++", "-std=c++17", "-Wall", "-Wextra", "-I", pyasc_sim.get_include(), str(main), binary, lib,
                    "-o", str(exe), f"-Wl,-rpath,{tmp}:{os.path.dirname(lib)}"], check=True, capture_output=True,
                   text=True)
    return exe


# documented core counts of the simulated SoCs (backends/sim/runtime/soc_profile.cpp, design.md)
@pytest.mark.parametrize("soc, cube, vector", [("Ascend910B1", 24, 48), ("Ascend910B3", 20, 40)])
def test_thread_core_counts_size_a_float64_launch(program, tmp_path, soc, cube, vector):
    env = {**os.environ, "PYASC_SIM_SOC": soc, "PYASC_SIM_CHECKS": "1"}
    proc = subprocess.run([str(program)], capture_output=True, text=True, timeout=300, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = dict(line.split(" ", 1) for line in proc.stdout.strip().splitlines())
    assert lines["cube=" + str(cube)] == f"vector={vector}"
    # an unknown type and a NULL value are ACL_ERROR_INVALID_PARAM; without a device, the context error
    assert lines["badtype"].startswith("rc=100000 ") and "resource type 7 is not an aclrtDevResLimitType" in \
        lines["badtype"] and "ACL_RT_DEV_RES_VECTOR_CORE (1)" in lines["badtype"]
    assert lines["nullvalue"] == "rc=100000"
    assert not lines["nodevice"].startswith("rc=0 ") and "call aclrtSetDevice" in lines["nodevice"]
    # one block per vector core, and the copies are exact
    assert lines["y64.bin"] == f"blocks={vector}" and lines["y32.bin"] == f"blocks={vector}"
    x64 = np.arange(4099, dtype=np.float64) / 3 - 1e6
    np.testing.assert_array_equal(np.fromfile(tmp_path / "y64.bin", dtype=np.float64), x64)
    x32 = np.arange(1001, dtype=np.float32) / np.float32(3) - np.float32(1e6)
    np.testing.assert_array_equal(np.fromfile(tmp_path / "y32.bin", dtype=np.float32), x32)


def test_launcher_calling_acl_runs_from_python():
    import pyasc

    binary = pyasc_sim.compile(SRC, opt="-O1")
    launch = pyasc_sim.host_function(binary, "ccopy_do", ["pointer", "pointer", "pointer", "uint64", "int32"])
    x = np.arange(777, dtype=np.float64) * 1.25 - 300.0
    y = pyasc.zeros((777,), dtype="float64", device="sim")
    launch(None, pyasc.tensor(x, device="sim"), y, 777, 1)
    pyasc.synchronize()
    np.testing.assert_array_equal(y.numpy(), x)
