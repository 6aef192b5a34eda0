"""Execution spaces (backends/sim/kernel_api/COMPAT.md, "Round 21 (s21d)"): a host helper of a shared header and an
`__aicore__` helper of the kernel with the same name and parameter types, both visible at the kernel's call through
`using namespace` (sgl-kernel-npu's zccl kernels). The NPU compiler can call only the `__aicore__` one from the
kernel; g++ saw an ambiguous call. The build makes the host twin a defaulted function template in its private copy
(pyasc_sim.execution_space). Our own kernel, compared with NumPy; the rewrite's rules on strings."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR
from pyasc_sim import execution_space

SRC = ASCENDC_DIR / "compat" / "execution_space_twins.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")

HEADER = """namespace demo {
inline uint32_t Scale(Kind kind, const float *p = nullptr) { return 1; }
constexpr uint32_t Fixed(int v) { return v; }
template <typename T> inline T Twice(T v) { return v + v; }
}
struct S { inline uint32_t Scale(Kind kind, const float *p) { return 2; } };
"""
KERNEL = """using namespace demo;
__aicore__ inline uint32_t Scale(Kind k, const float *)
{
    return 3;
}
__aicore__ inline uint32_t Fixed(int v) { return v; }
__aicore__ inline float Twice(float v) { return v; }
"""


def test_only_namespace_scope_host_twins_of_aicore_functions_are_rewritten():
    sigs = execution_space.device_signatures([KERNEL, HEADER])
    assert sigs == {("Scale", "Kind, const float *")}  # constexpr, template and member functions are no twins
    out, n = execution_space.rewrite(HEADER, sigs)
    assert n == 1
    assert out.splitlines()[1] == ("template <class = void> inline uint32_t Scale(Kind kind, const float *p = nullptr) "
                                   "{ return 1; }")
    assert out.splitlines()[2:] == HEADER.splitlines()[2:]
    assert execution_space.rewrite(KERNEL, sigs) == (KERNEL, 0)  # the __aicore__ one is kept as written
    assert execution_space.device_signatures([HEADER]) == frozenset()


def _run(binary_path, kind):
    b = pyasc_acl.Binary(binary_path, device="sim")
    x = np.random.default_rng(21).uniform(-2, 2, 256).astype(np.float32)
    y = pyasc.zeros((256,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(b.function("execution_space_twins"), 1,
                     (pyasc.tensor(x, device="sim"), y, np.uint32(256), np.int32(kind)))
    pyasc.synchronize("sim")
    return x, y.numpy()


@pytest.mark.parametrize("kind, per_block", [(0, 32), (1, 16), (2, 8)])
def test_kernel_calls_its_aicore_helper_not_the_host_twin(kind, per_block):
    x, y = _run(pyasc_sim.compile(SRC, opt="-O1"), kind)
    np.testing.assert_array_equal(y, x * np.float32(per_block))  # the host twin would give 1 / 2 / 4


def test_host_twin_found_through_an_include_directory(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "data_kind.h").write_text((SRC.parent / "execution_space_twins" / "data_kind.h").read_text())
    src = tmp_path / "twins_via_include_dir.cpp"
    src.write_text(SRC.read_text().replace('"execution_space_twins/data_kind.h"', '"data_kind.h"'))
    x, y = _run(pyasc_sim.compile(src, opt="-O1", extra_flags=[f"-I{inc}"]), 1)
    np.testing.assert_array_equal(y, x * np.float32(16))
