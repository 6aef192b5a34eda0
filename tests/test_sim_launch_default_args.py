"""``<<<>>>`` launches that leave a kernel's default arguments out (MindSpore Lite's ascend_native encoder kernels,
backends/sim/kernel_api/COMPAT.md "Round 16 (study16c)"): the launch rewrite (pyasc_sim.build.rewrite_launches)
writes the missing defaults out at the call, as the compiler supplies them, and the launchers run on the
simulator with the values the defaults give.  Kernel: kernels/compat/launch_default_args.cpp (our own)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "launch_default_args.cpp"
N = 64


def test_rewrite_writes_out_the_missing_defaults():
    text = ("__global__ __aicore__ void k(GM_ADDR a, int n, bool inc = false, float f = (1.0f, 2.0f)) {}\n"
            "void go(void *s) { k<<<4, nullptr, s>>>(reinterpret_cast<GM_ADDR>(s), 5); k<<<1, nullptr, s>>>(a, 1, true, 4.0f); }\n")
    out, n = pyasc_sim.build.rewrite_launches(text)
    assert n == 2
    assert '"k", 4, nullptr, s)(reinterpret_cast<GM_ADDR>(s), 5, false, (1.0f, 2.0f));' in out
    assert '"k", 1, nullptr, s)(a, 1, true, 4.0f);' in out
    assert out.count("\n") == text.count("\n")


@pytest.fixture(scope="module")
def binary():
    return pyasc_sim.compile(SRC, opt="-O1")


@pytest.mark.parametrize(("launcher", "extra", "want"), [
    ("scale_default", (), 2.0),
    ("scale_factor", (3.5,), 3.5),
    ("scale_all", (0.5, True), -0.5),
    ("scale_all", (0.5, False), 0.5),
])
def test_launchers_run_with_the_default_values(binary, launcher, extra, want):
    types = ["uint32", "pointer", "pointer", "pointer", "uint32", "float", "bool"][:5 + len(extra)]
    f = pyasc_sim.host_function(binary, launcher, types)
    x = np.random.default_rng(len(extra)).standard_normal(2 * N).astype(np.float32)
    y = pyasc.zeros((2 * N,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    f(2, None, pyasc.tensor(x, device="sim"), y, N, *extra)
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x * np.float32(want))
