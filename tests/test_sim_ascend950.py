"""The Atlas 350 / Ascend 950 SoC profile (soc="Ascend950PR_9599"): vector kernels built for it see
the architecture macros public 950 code tests (__CCE_AICORE__ 310, __NPU_ARCH__ 3510, __DAV_C310__ /
__DAV_C310_VEC__) and its 248 KiB Unified Buffer, run on the simulator and match NumPy; the device
profile of that name reports its core counts; cube / mixed builds for it are refused clearly."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR, launch_synced

SOC = "Ascend950PR_9599"
SRC = ASCENDC_DIR / "compat" / "ascend950_vec.cpp"


def binary(soc: str | None = SOC):
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1", soc=soc), device="sim")


def test_arch_macros_are_the_documented_ones():
    out = pyasc.zeros((6,), dtype="int32", device="sim")
    launch_synced(binary().function("a950_arch"), 1, (out,))
    # __CCE_AICORE__, __NPU_ARCH__, __DAV_C310__, __DAV_C310_VEC__, any __DAV_C220_*__, the 3510 path
    assert out.numpy().tolist() == [310, 3510, 1, 1, 0, 3510]
    flags = pyasc_sim.build.arch_defines(SOC)
    assert "-D__NPU_ARCH__=3510" in flags and "-D__CCE_AICORE__=310" in flags
    assert not any("C220" in f for f in flags)


def test_a_vector_kernel_built_for_950_matches_numpy_with_its_larger_ub():
    rng = np.random.default_rng(950)
    blocks, n = 3, 16384 + 40  # two tiles per block, the second a short one
    x = rng.standard_normal(blocks * n).astype(np.float32)
    y = rng.standard_normal(blocks * n).astype(np.float32)
    gx, gy = pyasc.tensor(x, device="sim"), pyasc.tensor(y, device="sim")
    gz = pyasc.zeros(blocks * n, dtype="float32", device="sim")
    launch_synced(binary().function("a950_add"), blocks, (gx, gy, gz, n))
    np.testing.assert_array_equal(gz.numpy(), x + y)


def test_the_same_tiles_overflow_an_atlas_a2_ub():
    # 224 KiB of buffers: fits the 950's 248 KiB, not the 910B's 192 KiB
    gx = pyasc.zeros(16384, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    fn = binary("Ascend910B1").function("a950_add")
    stream = pyasc.current_stream("sim")
    pyasc_acl.launch(fn, 1, (gx, gx, gx, 16384), stream=stream)
    with pytest.raises(pyasc_acl.AclKernelError) as info:
        stream.synchronize()
    assert "InitBuffer" in info.value.message or "UB" in info.value.message, info.value.message


@pytest.mark.parametrize("core", ["cube", "mix"])
def test_cube_builds_for_950_are_refused_naming_the_fix(core):
    with pytest.raises(pyasc_sim.KernelBuildError, match=r"core='%s' for Ascend950PR_9599.*vector \(AIV\) kernels only"
                       % core):
        pyasc_sim.compile(SRC, opt="-O1", soc=SOC, core=core)


CHILD = r"""
import json, sys
import pyasc_acl
binary = pyasc_acl.Binary(sys.argv[1], device="sim")
raw = binary.backend.raw_device(binary.device)
print(json.dumps({"vec": raw.device_info(201), "cube": raw.device_info(102)}))
"""


def test_device_profile_of_that_name_has_the_950_core_counts(tmp_path):
    env = dict(os.environ, PYASC_SIM_SOC=SOC)
    path = pyasc_sim.compile(SRC, opt="-O1", soc=SOC)
    done = subprocess.run([sys.executable, "-c", CHILD, path], env=env, capture_output=True, text=True, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == {"vec": 64, "cube": 32}
