"""``<<<>>>`` launches whose kernel name is pasted inside a macro body (``copy_##TYPE##_##SLOT<<<...>>>(...)``, as
kvcache-ops' load_and_reshape_flash.cpp) and launches of a globally qualified kernel (``::kernel<<<...>>>`` from
a namespace whose host function has the kernel's name, as LMCache-Ascend's block mover): the launch rewrite
(pyasc_sim.build.rewrite_launches) keeps the pasting and names the entry by stringizing the pasted token, and the
host launchers run on the simulator; so does a name made by a function-like macro (``NAME(T, S)<<<...>>>``), and
ASCENDC_REPORT_NOT_SUPPORT reports on stderr (backends/sim/kernel_api/COMPAT.md, round 21 s21f).
Kernel: kernels/compat/launch_pasted_names.cpp (our own)."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR

SRC = ASCENDC_DIR / "compat" / "launch_pasted_names.cpp"
N = 64


def test_rewrite_keeps_the_pasting_and_the_global_qualifier():
    text = ("#define CALL(T, S) \\\n    copy_##T##_##S<<<b, nullptr, s>>>(x, y);\n"
            "namespace ns { void go(void *s) { ::k<<<2, nullptr, s>>>(a); } }\n")
    out, n = pyasc_sim.build.rewrite_launches(text)
    assert n == 2
    assert ("::pyasc_sim::host::launcher(&(copy_##T##_##S), PYASC_SIM_LAUNCH_NAME(copy_##T##_##S), "
            "b, nullptr, s)(x, y);") in out
    assert '::pyasc_sim::host::launcher(&(::k), "k", 2, nullptr, s)(a);' in out
    assert out.count("\n") == text.count("\n")


def test_rewrite_leaves_shifts_alone():
    out, n = pyasc_sim.build.rewrite_launches("int f(int a) { return a <<< 1; }\n")
    assert n == 0


@pytest.fixture(scope="module")
def binary():
    return pyasc_sim.compile(SRC, opt="-O1")


@pytest.mark.parametrize(("type_id", "dtype"), [(0, "float16"), (1, "float32"), (2, "int32")])
def test_pasted_launch_runs_the_kernel_of_its_type(binary, type_id, dtype):
    f = pyasc_sim.host_function(binary, "add_one", ["int32", "uint32", "pointer", "pointer", "pointer", "uint32"])
    rng = np.random.default_rng(type_id)
    x = (rng.integers(-50, 50, 3 * N) if dtype == "int32" else rng.standard_normal(3 * N)).astype(dtype)
    y = pyasc.zeros((3 * N,), dtype=dtype, device="sim")
    pyasc.synchronize("sim")
    f(type_id, 3, None, pyasc.tensor(x, device="sim"), y, N)
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x + np.array(1, dtype=dtype))


def test_macro_made_name_launches_and_not_supported_is_reported(binary, capfd):
    f = pyasc_sim.host_function(binary, "add_one_named", ["int32", "uint32", "pointer", "pointer", "pointer", "uint32"])
    x = np.random.default_rng(3).standard_normal(2 * N).astype(np.float32)
    y = pyasc.zeros((2 * N,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    f(1, 2, None, pyasc.tensor(x, device="sim"), y, N)
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), x + np.float32(1))
    z = pyasc.zeros((2 * N,), dtype="float32", device="sim")
    f(7, 2, None, pyasc.tensor(x, device="sim"), z, N)
    pyasc.synchronize("sim")
    assert "not supported: type 7 is not supported." in capfd.readouterr().err
    np.testing.assert_array_equal(z.numpy(), np.zeros(2 * N, np.float32))


def test_rewrite_of_a_macro_made_name():
    out, n = pyasc_sim.build.rewrite_launches("    NAME(T, S)<<<b, nullptr, s>>>(x);\n")
    assert n == 1
    assert "::pyasc_sim::host::launcher(&(NAME(T,S)), PYASC_SIM_LAUNCH_NAME(NAME(T,S)), b, nullptr, s)(x);" in out


def test_globally_qualified_launch_from_a_namesake_host_function(binary):
    f = pyasc_sim.host_function(binary, "lib::twice", ["uint32", "pointer", "pointer", "pointer", "uint32"])
    x = np.random.default_rng(7).standard_normal(2 * N).astype(np.float32)
    y = pyasc.zeros((2 * N,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    f(2, None, pyasc.tensor(x, device="sim"), y, N)
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), 2 * x)
