"""Every Python construct a kernel cannot use is a pyasc.lang.CompileError at the file:line of the
statement, naming the construct (one test per construct); and the supported subset translates."""

from __future__ import annotations

import inspect

import pytest

import pyasc
import pyasc.lang as asc

FILE = inspect.getsourcefile(lambda: 0)


def bad_line(fn) -> int:
    lines, first = inspect.getsourcelines(fn.fn)
    return first + next(i for i, ln in enumerate(lines) if "# BAD" in ln)


@pyasc.jit
def k_list(x: asc.GlobalAddress, n: int):
    a = [1, 2]  # BAD


@pyasc.jit
def k_dict(x: asc.GlobalAddress, n: int):
    a = {1: 2}  # BAD


@pyasc.jit
def k_comprehension(x: asc.GlobalAddress, n: int):
    a = [i for i in range(n)]  # BAD


@pyasc.jit
def k_lambda(x: asc.GlobalAddress, n: int):
    f = lambda v: v  # BAD  # noqa: E731


@pyasc.jit
def k_fstring(x: asc.GlobalAddress, n: int):
    s = f"{n}"  # BAD


@pyasc.jit
def k_string(x: asc.GlobalAddress, n: int):
    s = "text"  # BAD


@pyasc.jit
def k_try(x: asc.GlobalAddress, n: int):
    try:  # BAD
        n = 1
    except Exception:
        pass


@pyasc.jit
def k_with(x: asc.GlobalAddress, n: int):
    with open("f"):  # BAD
        pass


@pyasc.jit
def k_raise(x: asc.GlobalAddress, n: int):
    raise ValueError()  # BAD


@pyasc.jit
def k_assert(x: asc.GlobalAddress, n: int):
    assert n > 0  # BAD


@pyasc.jit
def k_nested_def(x: asc.GlobalAddress, n: int):
    def inner():  # BAD
        pass


@pyasc.jit
def k_import(x: asc.GlobalAddress, n: int):
    import os  # BAD  # noqa: F401


@pyasc.jit
def k_pow(x: asc.GlobalAddress, n: int):
    m = n ** 2  # BAD


@pyasc.jit
def k_is(x: asc.GlobalAddress, n: int):
    b = n is None  # BAD


@pyasc.jit
def k_for_list(x: asc.GlobalAddress, n: int):
    for i in (1, 2):  # BAD
        pass


@pyasc.jit
def k_for_else(x: asc.GlobalAddress, n: int):
    for i in range(n):  # BAD
        pass
    else:
        pass


@pyasc.jit
def k_python_call(x: asc.GlobalAddress, n: int):
    print(n)  # BAD


@pyasc.jit
def k_index(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, n)
    v = g[3]  # BAD


@pyasc.jit
def k_step_slice(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, n)
    v = g[0:8:2]  # BAD


@pyasc.jit
def k_starred(x: asc.GlobalAddress, n: int):
    a, *b = n, n, n  # BAD


@pyasc.jit
def k_walrus(x: asc.GlobalAddress, n: int):
    if (m := n) > 0:  # BAD
        pass


@pyasc.jit
def k_type_change(x: asc.GlobalAddress, n: int):
    m = 1
    m = 0.5  # BAD


@pyasc.jit
def k_undefined(x: asc.GlobalAddress, n: int):
    m = nothing_here  # BAD  # noqa: F821


@pyasc.jit
def k_no_method(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, n)
    g.frobnicate()  # BAD


@pyasc.jit
def k_tensor_arith(x: asc.GlobalAddress, n: int):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, n)
    h = g * 2  # BAD


@pyasc.jit
def k_recursive(x: asc.GlobalAddress, n: int):
    k_recursive(x, n)  # BAD


CASES = [
    (k_list, "a list literal"), (k_dict, "a dict literal"), (k_comprehension, "a list comprehension"),
    (k_lambda, "a lambda"), (k_fstring, "an f-string"), (k_string, "the constant 'text'"),
    (k_try, "try/except"), (k_with, "a with statement"), (k_raise, "raise"), (k_assert, "assert"),
    (k_nested_def, "a nested function"), (k_import, "import"), (k_pow, "the operator Pow"),
    (k_is, "the comparison Is"), (k_for_list, "a for loop over something other than range"),
    (k_for_else, "for ... else"), (k_python_call, "calling print"),
    (k_index, r"a tensor subscript other than x\[offset:\]"), (k_step_slice, r"a tensor subscript other than"),
    (k_starred, "unpacking into something other than names"),
    (k_walrus, r"an assignment expression \(:=\)"), (k_type_change, "keeps one type"),
    (k_undefined, "name 'nothing_here' is not defined"), (k_no_method, "has no method 'frobnicate'"),
    (k_tensor_arith, "arithmetic takes numbers"), (k_recursive, "recursion is not supported"),
]


@pytest.mark.parametrize("fn, construct", CASES, ids=[c[0].__name__ for c in CASES])
def test_unsupported_construct_is_a_compile_error_at_its_line(fn, construct):
    with pytest.raises(asc.CompileError, match=construct) as err:
        fn.source(asc.float32, 8)
    assert err.value.filename == FILE and err.value.lineno == bad_line(fn), str(err.value)
    assert str(err.value).startswith(f"{FILE}:{bad_line(fn)}: ")


@pyasc.jit
def helper_scale(v, k: int):
    if v > k:
        return v * 2
    elif v == k:
        return v
    return v + k


@pyasc.jit
def k_supported(x: asc.GlobalAddress, n: int, tile: asc.constexpr):
    g = asc.GlobalTensor()
    g.set_global_buffer(x, n)
    a, b = n, tile
    a, b = b, a
    total = 0
    i = 0
    while i < n and not i > 100:
        total += helper_scale(i, tile) % 7
        i += 1
    for j in range(n - 1, -1, -2):
        total -= j // 2 if j > 3 else j
    h = g[a * 2:]
    f = float(total) / 3
    half_n = n / 2
    return


def test_the_supported_subset_translates():
    src = k_supported.source(asc.float16, 8, 64)
    assert "AscendC::GlobalTensor<half> g;" in src
    assert "int32_t _t1 = n;" in src and "a = _t2;" in src          # tuple unpacking, both sides first
    assert "while (i < n && !(i > 100)) {" in src
    assert "total -= j > 3 ? j / 2 : j;" in src
    assert "} else if (v == k) {" in src
    assert "__aicore__ inline int32_t helper_scale(int32_t v, int32_t k)" in src  # a helper, return type inferred
    assert "total += helper_scale(i, 64) % 7;" in src                  # the constexpr tile is baked in
    assert "for (int32_t j = n - 1; j > -1; j += -2) {" in src
    assert "AscendC::GlobalTensor<half> h = g[a * 2];" in src
    assert "float half_n = static_cast<float>(n) / 2;" in src
    assert src.count("#line") >= 15
    assert k_supported.source(asc.float16, 8, 32) != src              # another constexpr: another source


def test_launch_argument_errors():
    with pytest.raises(pyasc.ArgumentError, match="takes 3 arguments"):
        k_supported.source(asc.float16, 8)
    with pytest.raises(pyasc.ArgumentError, match=r"x is an asc.GlobalAddress: pass a tensor, got int"):
        k_supported.source(1, 8, 64)
    with pytest.raises(asc.CompileError, match=r"launch it as k_list\[blocks\]"):
        k_list(1, 2)


@pyasc.jit
def k_folding(x: asc.GlobalAddress, n: int):
    a = -7 // 2
    b = -7 % 2
    c = 7 / 2
    d = (n + 1) * (n - 1) - (n - (1 - n))


def test_constants_fold_as_the_kernel_computes_them():
    src = k_folding.source(asc.float32, 8)
    assert "int32_t a = -3;" in src and "int32_t b = -1;" in src     # C++: toward zero
    assert "float c = 3.5f;" in src
    assert "int32_t d = (n + 1) * (n - 1) - (n - (1 - n));" in src   # parentheses only where needed


@pyasc.jit
def twin(v):
    return v + 1


_twin_first = twin


@pyasc.jit
def twin(v):  # noqa: F811  (another helper of the same name)
    return v * 2


@pyasc.jit
def k_twins(x: asc.GlobalAddress, n: int):
    m = _twin_first(n) + twin(n)
    f = twin(0.5)


def test_helpers_get_one_cpp_function_per_specialisation():
    src = k_twins.source(asc.float32, 8)
    assert "__aicore__ inline int32_t twin(int32_t v)" in src
    assert "__aicore__ inline int32_t twin_1(int32_t v)" in src      # the other helper named twin
    assert "__aicore__ inline float twin_2(float v)" in src          # twin for a float argument
    assert "int32_t m = twin(n) + twin_1(n);" in src and "float f = twin_2(0.5f);" in src


@pyasc.jit
def k_templates(x: asc.GlobalAddress, n: int):
    h = asc.scalar_cast(asc.float32, asc.float16, asc.RoundMode.CAST_RINT, 0.5)
    m = asc.get_sort_len(asc.float32, n)
    asc.cross_core_set_flag(0, asc.PIPE_MTE3, 1)


def test_template_arguments_and_their_result_types():
    src = k_templates.source(asc.float32, 8)
    assert "half h = AscendC::ScalarCast<float, half, AscendC::RoundMode::CAST_RINT>(0.5f);" in src
    assert "uint32_t m = AscendC::GetSortLen<float>(n);" in src
    assert "AscendC::CrossCoreSetFlag<0, PIPE_MTE3>(1);" in src
