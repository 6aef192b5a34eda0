"""Member function templates explicitly specialized inside their class (CWG 727: C++ the clang-based NPU
compiler accepts and g++ rejects with "explicit specialization in non-namespace scope"), the Catlass idiom of
NPUKernelBench's level3 GMM answers (backends/sim/kernel_api/COMPAT.md, "Round 19 (study19d)"): our own kernel
(kernel_api/tests/kernels/compat/member_specialization_idioms.cpp) dispatching by `g_coreType` and by element
type through in-class specializations, compared with NumPy; and the source rewrite itself
(pyasc_sim.member_specialization) on the shapes it must and must not touch."""

from __future__ import annotations

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import load
from pyasc_sim import member_specialization as ms

pytestmark = pytest.mark.usefixtures("return_cached_sim_blocks")


@pytest.fixture(scope="module")
def kernels():
    return load("compat/member_specialization_idioms.cpp")


@pytest.mark.parametrize("name,dtype,n,factor", [("member_spec_scale_f32", "float32", 1024, 3.0),
                                                 ("member_spec_scale_f16", "float16", 512, 0.5)])
def test_in_class_specializations_dispatch_as_on_the_npu(kernels, name, dtype, n, factor):
    x = np.linspace(-4, 4, n).astype(dtype)
    y = pyasc.zeros((n,), dtype=dtype, device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(kernels.function(name), 1, (pyasc.tensor(x, device="sim"), y))
    pyasc.synchronize("sim")
    np.testing.assert_array_equal(y.numpy(), (x * np.asarray(factor, dtype)).astype(dtype))


CLASS_SPEC = """
struct K {
    template <int32_t C = g_coreType>
    void run(int p);
    template <>
    void run<AIC>(int p) { f(p); }
    template <class T> T get();
    template <> float get<float>() { return 1.0f; }
};
"""


def test_rewrite_finds_a_class_right_after_a_preprocessor_line():
    out, n = ms.rewrite('#include "parts.h"\n' + CLASS_SPEC.lstrip("\n"))
    assert n == 2
    assert "requires (((C) == (AIC)))" in out


def test_rewrite_turns_in_class_specializations_into_constrained_overloads():
    out, n = ms.rewrite(CLASS_SPEC)
    assert n == 2
    assert "template <int32_t C = g_coreType> requires (((C) == (AIC)))\n    void run(int p) { f(p); }" in out
    assert "template <class T> requires (__is_same(T, float)) float get() { return 1.0f; }" in out
    assert out.count("\n") == CLASS_SPEC.count("\n")  # line numbers kept


@pytest.mark.parametrize("text", [
    "template <class T> void f(T);\ntemplate <> void f<int>(int) {}\n",                  # namespace scope: valid C++
    "template <class T> struct S {};\ntemplate <> struct S<int> { void g(); };\n",        # class specialization
    "struct K {\n  template <> void h<1>() {}\n};\n",                                     # no primary in the class
    "void f() {\n  // template <> void x<1>();\n}\n",                                      # in a comment
])
def test_rewrite_leaves_other_specializations_alone(text):
    assert ms.rewrite(text) == (text, 0)


CLASS_TEMPLATE_SPEC = """
template <class P>
class K {
    template <class T>
    struct LayoutHelper {
        using type = typename T::LayoutIn;
    };
    template <>
    struct LayoutHelper<void> {
        using type = void;
    };
    template <int N, class T = int> struct Pick { static constexpr int v = 0; };
    template <> struct Pick<3, float> : Base { static constexpr int v = 1; };
    template <> struct Pick<4> { };
};
template <> struct Outer<int> {};
"""


def test_rewrite_turns_in_class_class_specializations_into_constrained_partial_specializations():
    out, n = ms.rewrite(CLASS_TEMPLATE_SPEC)
    assert n == 2
    assert ("template <class _pyasc_spec0> requires (__is_same(_pyasc_spec0, void))\n"
            "    struct LayoutHelper<_pyasc_spec0> {") in out
    assert ("template <int _pyasc_spec0, class _pyasc_spec1> requires (((_pyasc_spec0) == (3)) && "
            "__is_same(_pyasc_spec1, float)) struct Pick<_pyasc_spec0, _pyasc_spec1> : Base {") in out
    assert "template <> struct Pick<4> { };" in out  # a defaulted argument left out: left as written
    assert "template <> struct Outer<int> {};" in out  # namespace scope: valid C++, untouched
    assert out.count("\n") == CLASS_TEMPLATE_SPEC.count("\n")
