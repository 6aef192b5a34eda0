"""A class whose only constructor is `X() = default;` is an aggregate in the NPU compiler's C++17 and not in
C++20 (P1008), which the simulator builds with: the build blanks that declaration in its private copy
(pyasc_sim.cxx17_aggregates), so Catlass-style `funcs[i] = {this, i};` compiles as on the NPU
(NPUKernelBench level3 GroupedMatmulSliceMPerTokenDequant; backends/sim/kernel_api/COMPAT.md, round 20).
Our own kernel compared with NumPy, and what the rewrite leaves alone."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
import pyasc_sim
from ascendc_kernels import ASCENDC_DIR
from pyasc_sim import cxx17_aggregates

SRC = ASCENDC_DIR / "compat" / "cxx17_aggregate_idioms.cpp"

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


def test_lone_defaulted_constructor_is_blanked_with_its_specifiers():
    src = ("struct F {\n    CATLASS_DEVICE\n    F() = default;\n    int *p{nullptr};\n    unsigned s;\n};\n"
           "template <class K> struct G { __aicore__ inline G() noexcept = default; K *k; };\n")
    out, n = cxx17_aggregates.rewrite(src)
    assert n == 2
    assert len(out) == len(src) and out.count("\n") == src.count("\n")
    assert "default" not in out and "CATLASS_DEVICE" not in out and "__aicore__" not in out
    assert "int *p{nullptr};" in out and "K *k;" in out


@pytest.mark.parametrize("src", [
    "struct F { F() = default; F(int v) : x(v) {} int x; };",          # another constructor
    "struct F { F() = default; static F Make() { return F(); } int x; };",  # names itself in a call
    "class F { F() = default; int x; };",                               # private
    "struct F { private: F() = default; public: int x; };",             # private
    "struct F : B { using B::B; F() = default; };",                    # inherited constructors
    "struct F<int> { F() = default; };",                                # a specialization's head: left alone
    "struct F { struct G { }; G() = default; };",                       # not F's constructor
    "// F() = default;\nstruct F { };",                                 # in a comment
    "#define MK(T) T() = default;\nstruct F { int x; };",               # outside a class body
])
def test_what_is_left_alone(src):
    assert cxx17_aggregates.rewrite(src) == (src, 0)


def test_directive_lines_and_access_labels_stay():
    src = "struct F {\n#if 1\n    F() = default;\n#endif\npublic:\n    F2() = default;\n    int x;\n};\n"
    out, n = cxx17_aggregates.rewrite(src)
    assert n == 1 and "#if 1" in out and "#endif" in out and "public:" in out and "F2() = default;" in out


def test_brace_assigned_callbacks_match_numpy():
    assert cxx17_aggregates.uses_lone_defaulted_constructor([SRC.read_text()])
    b = pyasc_acl.Binary(pyasc_sim.compile(SRC, opt="-O1"), device="sim")
    n = 37
    x = np.linspace(-4, 4, n).astype(np.float32)
    y = pyasc.zeros((n,), dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(b.function("cxx17_aggregate"), 1,
                     (pyasc.tensor(x, device="sim"), y, np.uint32(n), np.float32(1.5)))
    stage = (np.arange(n) % 2).astype(np.float32)
    np.testing.assert_array_equal(y.numpy(), x * np.float32(1.5) + stage + np.float32(2))
