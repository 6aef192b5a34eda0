"""gm-foreign-block in CANN CPU-debug programs (issue 10 point 1, round 15 audit): an AIV_MODE (and
AIC_MODE) ``ICPU_RUN_KF`` launch packs its GmAlloc pointers into an argument blob as the MIX_MODE launch
and the device launch do, so a kernel that computes its way from a tensor it was given into a GmAlloc
block it was not given is an error naming the access and the block, and that block's bytes stay intact;
reaching a block it was given the same way stays clean (no false positive). Before round 15 such a
launch had no blob and was not checked."""

from __future__ import annotations

import os
import subprocess

import pytest

pytest.importorskip("pyasc_sim")

KERNEL = r"""#include "kernel_operator.h"
using namespace AscendC;

// Each block writes 8 floats of 7.0 at x + off, its own 32 bytes: off is the distance to another GmAlloc
// block (a pointer computed from one tensor landing in another's memory, the planted bug when that block
// was not given).
extern "C" __global__ __aicore__ void poke(GM_ADDR x, GM_ADDR y, int64_t off)
{
    (void)y;  // given, so reachable: the "given" run reaches it through x + off
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)(x + off) + GetBlockIdx() * 8, 8);
    for (int32_t i = 0; i < 8; ++i) {
        g.SetValue(i, 7.0f);  // POKE
    }
}
"""

MAIN = r"""#include <cstdint>
#include <cstdio>
#include <cstring>
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void poke(GM_ADDR x, GM_ADDR y, int64_t off);

// Usage: main given|foreign aiv|aic
int32_t main(int32_t argc, char *argv[])
{
    uint8_t *x = (uint8_t *)AscendC::GmAlloc(64);
    uint8_t *y = (uint8_t *)AscendC::GmAlloc(64);
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(64);  // never passed to the kernel
    for (int i = 0; i < 16; ++i) ((float *)z)[i] = 5.0f;
    const bool foreign = argc > 1 && std::strcmp(argv[1], "foreign") == 0;
    const int64_t off = (int64_t)((foreign ? z : y) - x);
    AscendC::SetKernelMode(argc > 2 && std::strcmp(argv[2], "aic") == 0 ? KernelMode::AIC_MODE : KernelMode::AIV_MODE);
    ICPU_RUN_KF(poke, 2, x, y, off);
    std::printf("y0=%g z0=%g\n", ((float *)y)[0], ((float *)z)[0]);
    AscendC::GmFree(x);
    AscendC::GmFree(y);
    AscendC::GmFree(z);
    return 0;
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    from pyasc_sim import cpudebug

    d = tmp_path_factory.mktemp("cpu_debug_foreign")
    (d / "poke.cpp").write_text(KERNEL)
    (d / "main.cpp").write_text(MAIN)
    return cpudebug.build([d / "main.cpp", d / "poke.cpp"], d / "poke"), d / "poke.cpp"


def run(exe, *argv):
    env = {**os.environ, "PYASC_SIM_CPU_DEBUG_CONTINUE": "1", "PYASC_SIM_CHECKS": "1"}
    return subprocess.run([str(exe), *argv], capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.parametrize("mode", ["aiv", "aic"])
def test_a_gmalloc_block_the_kernel_was_not_given_is_a_foreign_block(program, mode):
    exe, src = program
    proc = run(exe, "foreign", mode)
    assert proc.returncode == 0, proc.stdout + proc.stderr  # CONTINUE: the program goes on
    line = next(i for i, t in enumerate(KERNEL.splitlines(), 1) if "// POKE" in t)
    assert f"sanitizer check 'gm-foreign-block' failed at {src}:{line}" in proc.stderr, proc.stderr
    assert "kernel poke block 0:" in proc.stderr and "kernel poke block 1:" in proc.stderr
    assert "which this kernel was not given" in proc.stderr and "device allocation [0x" in proc.stderr
    # checked before the store: the block's bytes stay intact
    assert proc.stdout.strip() == "y0=0 z0=5", proc.stdout


def test_without_continue_the_program_exits_with_status_1(program):
    exe, _src = program
    env = {k: v for k, v in os.environ.items() if k != "PYASC_SIM_CPU_DEBUG_CONTINUE"}
    proc = subprocess.run([str(exe), "foreign", "aiv"], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 1 and "gm-foreign-block" in proc.stderr, proc.stdout + proc.stderr


@pytest.mark.parametrize("mode", ["aiv", "aic"])
def test_a_block_it_was_given_reached_the_same_way_is_clean(program, mode):
    exe, _src = program
    proc = run(exe, "given", mode)
    assert proc.returncode == 0 and proc.stderr == "", proc.stdout + proc.stderr
    assert proc.stdout.strip() == "y0=7 z0=5", proc.stdout


def test_checks_off_reports_nothing(program):
    exe, _src = program
    env = {**os.environ, "PYASC_SIM_CHECKS": "0"}
    proc = subprocess.run([str(exe), "foreign", "aiv"], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0 and "gm-foreign-block" not in proc.stderr, proc.stdout + proc.stderr
    assert proc.stdout.strip() == "y0=0 z0=7", proc.stdout  # unchecked, the wrong store lands
