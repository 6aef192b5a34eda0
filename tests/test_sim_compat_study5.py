"""Fixes from the fifth public-kernel study (backends/sim/kernel_api/COMPAT.md, issue 8's measure
of done): the static-tensor constructor LocalTensor<T>(TPosition, addr, tileSize) (vector tensors
in UB and cube operands in L0A / L0B), its alignment and bounds checks, and a host launcher with
no kernel arguments called from Python before any tensor exists. The kernels are our own, in the
style of the public kernels studied (kernels/compat/static_tensor_idioms.cpp)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "static_tensor_idioms.cpp"
UB_BYTES = 196608  # Ascend910B1 (the default SoC profile)


@pytest.fixture(scope="module")
def kernels():
    return pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")


pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def test_static_vector_tensors_match_numpy(kernels):
    blocks, n = 3, 64
    x = np.random.default_rng(51).uniform(-8, 8, blocks * n).astype(np.float32)
    y = pyasc.zeros((blocks * n,), dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("static_axpb"), blocks, (pyasc.tensor(x, device="sim"), y, n, 1.5, -2.0))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x * np.float32(1.5) - np.float32(2.0))


def test_static_l0a_l0b_operands_feed_mmad(kernels):
    rng = np.random.default_rng(52)
    a = rng.uniform(-1, 1, (16, 32)).astype(np.float16)
    b = rng.uniform(-1, 1, (16, 32)).astype(np.float16)
    c = pyasc.zeros((16 * 16,), dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("static_mmad"), 1,
                     (pyasc.tensor(a.ravel(), device="sim"), pyasc.tensor(b.ravel(), device="sim"), c))
    pyasc.synchronize("sim")
    want = a.astype(np.float32) @ b.astype(np.float32).T
    np.testing.assert_allclose(c.numpy().reshape(16, 16), want, rtol=1e-5, atol=1e-5)


def test_static_tensor_at_an_aligned_address(kernels):
    y = pyasc.zeros((64,), dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("static_at"), 1, (y, UB_BYTES - 256, 64))  # the last 256 bytes
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), np.full(64, 3.0, dtype=np.float32))


@pytest.mark.parametrize(("addr", "check", "detail"), [
    (16, "ub-alignment", "addr 16, tileSize 64\\): addr must be 32-byte aligned"),
    (UB_BYTES - 128, "local-out-of-bounds",
     f"addr {UB_BYTES - 128}, tileSize 64\\): {UB_BYTES + 128} bytes end past the {UB_BYTES}-byte memory \\(UB\\)"),
])
def test_static_tensor_outside_the_rules_is_reported(kernels, addr, check, detail):
    y = pyasc.zeros((64,), dtype="float32", device="sim")
    pyasc_acl.launch(kernels.function("static_at"), 1, (y, addr, 64))
    with pytest.raises(pyasc_acl.AclKernelError, match=f"'{check}' failed at .*static_tensor_idioms.cpp:\\d+: "
                                                        f"LocalTensor\\(TPosition::VECCALC, {detail}"):
        pyasc.synchronize("sim")


def test_argumentless_host_launcher_runs_before_any_tensor(tmp_path):
    """greet_do(blocks, nullptr) from a fresh process: the launcher opens nothing itself, so the
    simulated device must be opened for it (a host program's aclInit), and every block prints."""
    code = textwrap.dedent(f"""
        import pyasc, pyasc_sim
        launch = pyasc_sim.host_function(pyasc_sim.compile({str(SRC)!r}, opt="-O1"), "greet_do",
                                         ["uint32", "pointer"])
        launch(3, None)
        pyasc.synchronize("sim")
        print("HOST-DONE", flush=True)
    """)
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    for b in range(3):
        assert f"greet from block {b} of 3\n" in out.stdout, out.stdout
    assert "HOST-DONE" in out.stdout


def test_argumentless_kernel_and_launch_compile_without_warnings():
    """A kernel with no parameters and its <<<>>> launch with no arguments (public hello-world
    sources) compile warning-free: the launch stub and the launcher packing touch no unused
    argument table."""
    assert pyasc_sim.compile(SRC, opt="-O1", extra_flags=["-Wall", "-Wextra", "-Werror"])
