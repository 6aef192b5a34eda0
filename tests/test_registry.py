"""The op registry: schemas, OpDef validation, pyasc.library, @pyasc.op, dispatch and its cache."""

from __future__ import annotations

import types

import numpy as np
import pytest

import pyasc
from pyasc_core import plugins
from pyasc_core.backend import TensorMeta
from pyasc_core.library import PLUGIN as RUNTIME_LIBRARY
from pyasc_core.reference_backend import ReferenceBackend
from pyasc_core.registry import REGISTRY
from pyasc_core.schema import Schema

F32 = np.dtype(np.float32)
I32 = np.dtype(np.int32)
I64 = np.dtype(np.int64)
THIS = f"module:{__name__}"
NAMESPACE = __name__.split(".")[0]


@pytest.fixture(autouse=True)
def _numpy_backend():
    """These tests are about the reference backend, whatever the default backend is."""
    pyasc.set_backend("numpy")  # conftest's isolation restores the previous choice


def same_meta(x, *args, **kwargs):
    return x


def from_module(module_name: str, source: str, **names):
    """Run ``source`` as the body of a module called ``module_name`` (so pyasc sees that caller)."""
    module = types.ModuleType(module_name)
    module.__dict__.update(pyasc=pyasc, np=np, **names)
    exec(compile(source, f"<{module_name}>", "exec"), module.__dict__)
    return module


@pytest.fixture
def runtime_plugin():
    """Register plugin objects at run time; unregister them afterwards."""
    registered = []

    def register(obj, name=None):
        got = plugins.register(obj, name)
        registered.append(got)
        return got

    yield register
    for name in registered:
        if plugins.get_plugin_manager().get_plugin(name) is not None:
            plugins.unregister(name=name)


# ---------------------------------------------------------------------------------------------
# schemas
# ---------------------------------------------------------------------------------------------


def test_schema_parse_all_parameter_kinds():
    s = Schema.parse(
        "(Tensor x, Tensor? w=None, Tensor|Scalar y=1.0, *, int[]? axis=None, float eps=1e-05, "
        "bool keepdims=False, str mode='a', dtype dt='float32', int n=3) -> Tensor"
    )
    got = [(p.name, p.type, p.default if not p.required else "<required>", p.kw_only) for p in s.params]
    assert got == [
        ("x", "Tensor", "<required>", False),
        ("w", "Tensor?", None, False),
        ("y", "Tensor|Scalar", 1.0, False),
        ("axis", "int[]?", None, True),
        ("eps", "float", 1e-05, True),
        ("keepdims", "bool", False, True),
        ("mode", "str", "a", True),
        ("dt", "dtype", "float32", True),
        ("n", "int", 3, True),
    ]
    assert [p.name for p in s.inputs] == ["x", "w", "y"]
    assert [p.name for p in s.attributes] == ["axis", "eps", "keepdims", "mode", "dt", "n"]
    assert s.returns == ("Tensor",)
    assert Schema.parse(str(s)) == s  # str() round-trips


def test_schema_parse_variants():
    s = Schema.parse("mypack::f(Tensor a, Tensor b) -> (Tensor, Tensor)")
    assert s.returns == ("Tensor", "Tensor")
    assert str(s) == "(Tensor a, Tensor b) -> (Tensor, Tensor)"
    s = Schema.parse("  ( Tensor x ,  int[] shape=[1, -1] )  ->  Tensor ")
    assert s.params[1].default == (1, -1)  # list defaults become tuples
    assert str(Schema.parse("(Tensor x, *, int a) -> Tensor")) == "(Tensor x, *, int a) -> Tensor"


@pytest.mark.parametrize(
    "text,needle",
    [("(Tensor x", "cannot parse schema"),
     ("Tensor x -> Tensor", "cannot parse schema"),
     ("(Tensor x)", "cannot parse schema"),
     ("(Tensor x, Tensor x) -> Tensor", "'x' appears twice"),
     ("(Foo x) -> Tensor", "unknown type 'Foo'"),
     ("(Tensor[] xs) -> Tensor", "unknown type 'Tensor[]'"),
     ("(int a) -> Tensor", "no tensor input"),
     ("() -> Tensor", "no tensor input"),
     ("(Tensor x) -> int", "must return Tensor"),
     ("(Tensor x) -> ()", "must return Tensor"),
     ("(Tensor x, int a=foo) -> Tensor", "not a Python literal"),
     ("(Tensor x, 1abc) -> Tensor", "cannot parse parameter '1abc'"),
     ("(Tensor x, int) -> Tensor", "cannot parse parameter 'int'")],
)
def test_schema_parse_errors(text, needle):
    with pytest.raises(pyasc.OpRegistrationError) as info:
        Schema.parse(text)
    assert needle in str(info.value)


@pytest.mark.parametrize("bad", [42, None, b"(Tensor x) -> Tensor"])
def test_schema_must_be_a_string(bad):
    with pytest.raises(pyasc.OpRegistrationError, match="schema must be a string"):
        Schema.parse(bad)
    with pytest.raises(pyasc.OpRegistrationError):
        pyasc.OpDef("t::bad", bad, meta=same_meta, reference=lambda x: x)


# ---------------------------------------------------------------------------------------------
# OpDef validation
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["add", "::add", "ns::", "a::b::c", "1ns::x", "ns::x-y", "", "ns:x", 42, None])
def test_opdef_name_needs_a_namespace(name):
    with pytest.raises(pyasc.OpRegistrationError) as info:
        pyasc.OpDef(name, "(Tensor x) -> Tensor", meta=same_meta, reference=lambda x: x)
    assert "namespace::name" in str(info.value) and repr(name) in str(info.value)


def test_opdef_needs_meta_and_reference_or_a_composite():
    for kwargs in ({"meta": same_meta}, {"reference": lambda x: x}, {}):
        with pytest.raises(pyasc.OpRegistrationError, match="t::half.*meta function and a NumPy reference"):
            pyasc.OpDef("t::half", "(Tensor x) -> Tensor", **kwargs)
    op = pyasc.OpDef("t::comp", "(Tensor x) -> Tensor", composite=lambda x: x)
    assert op.is_composite and op.namespace == "t" and op.short_name == "comp"


def test_opdef_dtypes():
    with pytest.raises(pyasc.OpRegistrationError, match="names 'y', which is not a tensor input"):
        pyasc.OpDef("t::d", "(Tensor x) -> Tensor", dtypes={"y": ["float32"]}, meta=same_meta,
                    reference=lambda x: x)
    op = pyasc.OpDef("t::d", "(Tensor x, Tensor? m=None) -> Tensor",
                     dtypes={"m": [pyasc.bool], "*": ["float32", pyasc.float16]},
                     meta=same_meta, reference=lambda x, m: x)
    assert op.allowed_dtypes("x") == {pyasc.float32, pyasc.float16}
    assert op.allowed_dtypes("m") == {pyasc.bool}
    assert op.all_dtypes == {pyasc.float32, pyasc.float16, pyasc.bool}
    assert isinstance(op.schema, Schema)
    one = pyasc.OpDef("t::one", "(Tensor x) -> Tensor", dtypes="float16", meta=same_meta,
                      reference=lambda x: x)
    assert one.allowed_dtypes("x") == {pyasc.float16}
    assert pyasc.OpDef("t::one", "(Tensor x) -> Tensor", dtypes=pyasc.int8, meta=same_meta,
                       reference=lambda x: x).allowed_dtypes("x") == {pyasc.int8}


@pytest.mark.parametrize("dtypes,needle", [(["float32", "complex64"], "'complex64'"),
                                           ({"x": [np.complex64]}, "complex64"),
                                           ([object()], "object"),
                                           (3, "int")])
def test_opdef_unsupported_dtypes(dtypes, needle):
    with pytest.raises(pyasc.OpRegistrationError) as info:
        pyasc.OpDef("t::cplx", "(Tensor x) -> Tensor", dtypes=dtypes, meta=same_meta, reference=lambda x: x)
    msg = str(info.value)
    assert msg.startswith("op t::cplx: dtypes") and needle in msg


# ---------------------------------------------------------------------------------------------
# pyasc.library.define / impl
# ---------------------------------------------------------------------------------------------


def _define_scale(name="t::scale"):
    return pyasc.library.define(
        name, "(Tensor x, *, float s=2.0) -> Tensor", dtypes=[pyasc.float32, pyasc.float64],
        meta=lambda x, s: TensorMeta(x.shape, x.dtype), reference=lambda x, s: x * s,
        doc="x * s")


def test_define_runs_the_reference_and_checks_arguments():
    scale = _define_scale()
    assert scale is pyasc.get_op("t::scale") is pyasc.ops.t.scale
    x = pyasc.tensor([1.0, 2.0])
    np.testing.assert_array_equal(scale(x).numpy(), [2.0, 4.0])
    np.testing.assert_array_equal(scale(x, s=3).numpy(), [3.0, 6.0])
    assert scale(x).dtype == F32
    with pytest.raises(pyasc.DtypeError, match=r"t::scale argument 'x' has dtype int64"):
        scale(pyasc.tensor([1, 2]))
    with pytest.raises(pyasc.ArgumentError, match=r"t::scale takes at most 1 positional"):
        scale(x, 3.0)
    meta = scale(pyasc.ones((2, 5), device="meta"), s=0.5)
    assert meta.device == pyasc.Device("meta") and meta.shape == (2, 5)
    assert "x * s" in scale.__doc__ and "(Tensor x, *, float s=2.0) -> Tensor" in scale.__doc__
    assert scale.opdef.source == THIS


def test_impl_kernel_overrides_the_reference_on_numpy():
    scale = _define_scale()
    x = pyasc.tensor([1.0, 2.0])
    np.testing.assert_array_equal(scale(x).numpy(), [2.0, 4.0])
    seen = []

    @pyasc.library.impl("t::scale", "numpy")
    def kernel(meta, x, s):
        seen.append((meta, s))
        return pyasc.tensor(x.numpy() * s + 100.0, dtype=meta.dtype)

    np.testing.assert_array_equal(scale(x, s=3).numpy(), [103.0, 106.0])
    assert seen == [(TensorMeta((2,), F32), 3.0)]
    assert type(seen[0][1]) is float  # attributes arrive normalised to their schema type
    assert REGISTRY.table[("t::scale", "numpy")] is kernel
    assert REGISTRY.kernels[("t::scale", "numpy")].source == THIS
    # other backends keep their default (the meta backend runs the meta function)
    assert scale(pyasc.ones(3, device="meta")).shape == (3,)
    assert len(seen) == 1


def test_register_kernel_through_the_handle_and_the_reference_alias():
    scale = _define_scale()
    scale.register_kernel("reference", lambda meta, x, s: pyasc.full(meta.shape, -1.0))
    np.testing.assert_array_equal(scale(pyasc.tensor([5.0, 6.0])).numpy(), [-1.0, -1.0])


def test_impl_for_an_unknown_op_fails_clearly_and_breaks_nothing():
    _define_scale()
    with pytest.raises(pyasc.UnknownOpError) as info:
        pyasc.library.impl("t::scal", "numpy", lambda meta, x, s: x)
    msg = str(info.value)
    assert "'t::scal'" in msg and "'numpy'" in msg and "Did you mean 't::scale'?" in msg
    assert "pyasc.library.define" in msg
    with pytest.raises(pyasc.UnknownOpError):
        pyasc.library.impl("nowhere::op", "numpy")(lambda meta, x: x)
    with pytest.raises(pyasc.OpRegistrationError, match="namespace::name"):
        pyasc.library.impl("scale", "numpy", lambda meta, x: x)
    # nothing was recorded: every op still dispatches
    np.testing.assert_array_equal(pyasc.add(pyasc.tensor([1.0]), 1.0).numpy(), [2.0])
    np.testing.assert_array_equal(pyasc.ops.t.scale(pyasc.tensor([1.0])).numpy(), [2.0])


def test_redefining_an_op_from_another_module_conflicts():
    _define_scale()
    with pytest.raises(pyasc.PluginConflictError) as info:
        from_module("other_pack.ops", "pyasc.library.define('t::scale', '(Tensor x) -> Tensor', "
                    "meta=lambda x: x, reference=lambda x: x)")
    msg = str(info.value)
    assert "t::scale" in msg and THIS in msg and "module:other_pack.ops" in msg
    # the first definition still stands
    np.testing.assert_array_equal(pyasc.ops.t.scale(pyasc.tensor([1.0])).numpy(), [2.0])


def test_redefining_a_builtin_op_conflicts_with_pyasc_runtime():
    with pytest.raises(pyasc.PluginConflictError) as info:
        pyasc.library.define("pyasc::add", "(Tensor x, Tensor y) -> Tensor", meta=same_meta,
                             reference=lambda x, y: x - y)
    assert "pyasc::add" in str(info.value) and "pyasc-runtime" in str(info.value)
    np.testing.assert_array_equal(pyasc.add(pyasc.tensor([1.0]), 1.0).numpy(), [2.0])


def test_redefining_from_the_same_module_replaces_the_op():
    scale = _define_scale()
    np.testing.assert_array_equal(scale(pyasc.tensor([1.0])).numpy(), [2.0])
    pyasc.library.define("t::scale", "(Tensor x, *, float s=2.0) -> Tensor", meta=same_meta,
                         reference=lambda x, s: x + s)
    np.testing.assert_array_equal(scale(pyasc.tensor([1.0])).numpy(), [3.0])


def test_kernel_from_another_module_conflicts():
    _define_scale()
    pyasc.library.impl("t::scale", "numpy", lambda meta, x, s: x)
    with pytest.raises(pyasc.PluginConflictError) as info:
        from_module("other_pack.kernels",
                    "pyasc.library.impl('t::scale', 'numpy', lambda meta, x, s: x)")
    msg = str(info.value)
    assert "t::scale" in msg and THIS in msg and "module:other_pack.kernels" in msg


def test_multi_output_op():
    def meta(x):
        return TensorMeta(x.shape, x.dtype), TensorMeta(x.shape, np.dtype(np.bool_))

    op = pyasc.library.define("t::split_sign", "(Tensor x) -> (Tensor, Tensor)", meta=meta,
                              reference=lambda x: (np.abs(x), x < 0))
    mag, neg = op(pyasc.tensor([-1.5, 2.0]))
    np.testing.assert_array_equal(mag.numpy(), [1.5, 2.0])
    np.testing.assert_array_equal(neg.numpy(), [True, False])
    assert (mag.dtype, neg.dtype) == (F32, np.dtype(np.bool_))
    m1, m2 = op(pyasc.ones((2, 3), device="meta"))
    assert (m1.shape, m2.dtype) == ((2, 3), np.dtype(np.bool_))


# ---------------------------------------------------------------------------------------------
# @pyasc.op composites
# ---------------------------------------------------------------------------------------------


def test_composite_with_attributes_kw_only_params_and_optional_tensors():
    @pyasc.op
    def affine(x: pyasc.Tensor, w: pyasc.Tensor | None = None, *, scale: float = 2.0,
               shift: int = 0, relu: bool = False) -> pyasc.Tensor:
        y = x * scale + shift
        if w is not None:
            y = y * w
        return pyasc.relu(y) if relu else y

    assert affine.name == f"{NAMESPACE}::affine"
    assert str(affine.schema) == (
        "(Tensor x, Tensor? w=None, *, float scale=2.0, int shift=0, bool relu=False) -> Tensor"
    )
    x = pyasc.tensor([-1.0, 2.0])
    w = pyasc.tensor([3.0, 4.0])
    np.testing.assert_array_equal(affine(x).numpy(), [-2.0, 4.0])
    np.testing.assert_array_equal(affine(x, w).numpy(), [-6.0, 16.0])
    np.testing.assert_array_equal(affine(x, None, scale=1, shift=1).numpy(), [0.0, 3.0])
    np.testing.assert_array_equal(affine(x, w=w, relu=True).numpy(), [0.0, 16.0])
    with pytest.raises(pyasc.ArgumentError, match=r"affine argument 'shift' must be int, got float 0.5"):
        affine(x, shift=0.5)
    with pytest.raises(pyasc.ArgumentError, match=r"affine argument 'relu' must be bool"):
        affine(x, relu=1)
    with pytest.raises(pyasc.ArgumentError, match=r"unknown argument 'shfit'.*Did you mean 'shift'"):
        affine(x, shfit=1)
    with pytest.raises(pyasc.ArgumentError, match=r"at most 2 positional"):
        affine(x, w, 3.0)
    with pytest.raises(pyasc.ArgumentError, match=r"argument 'w' must be a pyasc.Tensor"):
        affine(x, [1.0, 2.0])
    # composites run on every backend, here through the parts' meta functions
    m = affine(pyasc.ones((4, 2), device="meta"), pyasc.ones(2, device="meta"), relu=True)
    assert m.device == pyasc.Device("meta") and m.shape == (4, 2)


def test_composite_names_scalars_and_doc():
    @pyasc.op("mine::axpy")
    def axpy(a: float, x: pyasc.Tensor, y: pyasc.Tensor | float) -> pyasc.Tensor:
        """a * x + y"""
        return x * a + y

    assert axpy is pyasc.ops.mine.axpy
    assert str(axpy.schema) == "(float a, Tensor x, Tensor|Scalar y) -> Tensor"
    np.testing.assert_array_equal(axpy(2.0, pyasc.tensor([1.0, 2.0]), 1.0).numpy(), [3.0, 5.0])
    assert "a * x + y" in axpy.__doc__
    assert axpy.opdef.source == THIS and axpy.opdef.is_composite

    @pyasc.op(name="mine::double", dtypes=[pyasc.float32])
    def double(x):
        return x + x

    np.testing.assert_array_equal(double(pyasc.tensor([1.5])).numpy(), [3.0])
    with pytest.raises(pyasc.DtypeError, match="mine::double argument 'x' has dtype int64"):
        double(pyasc.tensor([1]))


def test_composite_signatures_that_cannot_be_schemas():
    with pytest.raises(pyasc.OpRegistrationError, match=r"annotation .*list.* of parameter 'x'"):
        @pyasc.op
        def bad(x: list) -> pyasc.Tensor:
            return x

    with pytest.raises(pyasc.OpRegistrationError, match=r"\*args/\*\*kwargs"):
        @pyasc.op
        def bad2(x: pyasc.Tensor, *rest: pyasc.Tensor) -> pyasc.Tensor:
            return x


# ---------------------------------------------------------------------------------------------
# dispatch and its per-signature cache
# ---------------------------------------------------------------------------------------------


def test_dispatch_cache_serves_each_signature_its_own_result():
    rng = np.random.default_rng(0)
    calls = []
    for shape in [(3,), (2, 3), (3,), (4, 1), (2, 3)]:
        for dtype in (np.float32, np.int32, np.float32):
            a = (rng.random(shape) * 10).astype(dtype)
            calls.append(a)
    for a in calls * 2:
        t = pyasc.tensor(a, dtype=a.dtype)
        out = pyasc.add(t, t)
        assert out.shape == a.shape and out.dtype == a.dtype
        np.testing.assert_array_equal(out.numpy(), a + a)
        out = pyasc.add(t, 2)
        assert out.dtype == a.dtype
        np.testing.assert_array_equal(out.numpy(), a + 2)
        out = pyasc.add(t, 2.5)
        assert out.dtype == F32
        np.testing.assert_allclose(out.numpy(), a + np.float32(2.5), rtol=1e-6)
        out = pyasc.add(True, t)
        assert out.dtype == a.dtype


def test_dispatch_cache_with_attribute_values():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    t = pyasc.tensor(x)
    for _ in range(3):
        for axis in (0, 1, 2, -1, (0, 2), None):
            for keepdims in (False, True):
                out = pyasc.sum(t, axis, keepdims)  # positional: the generic cached key
                np.testing.assert_array_equal(
                    out.numpy(), x.sum(axis=axis if axis is None or isinstance(axis, tuple) else (axis,),
                                       keepdims=keepdims))
        for dtype, want in ((pyasc.int32, I32), ("float16", np.dtype(np.float16)), (pyasc.int64, I64)):
            assert pyasc.cast(t, dtype).dtype == want
        np.testing.assert_allclose(pyasc.softmax(t, 0).numpy().sum(axis=0), np.ones((3, 4)), rtol=1e-6)
        np.testing.assert_allclose(pyasc.softmax(t, 2).numpy().sum(axis=2), np.ones((2, 3)), rtol=1e-6)


def test_cached_call_still_rejects_a_keyword_only_attribute_given_positionally():
    scale = _define_scale()
    x = pyasc.tensor([1.0, 2.0])
    for _ in range(2):
        np.testing.assert_array_equal(scale(x, s=3.0).numpy(), [3.0, 6.0])
        np.testing.assert_array_equal(scale(x).numpy(), [2.0, 4.0])
        with pytest.raises(pyasc.ArgumentError, match=r"t::scale takes at most 1 positional"):
            scale(x, 3.0)
        with pytest.raises(pyasc.ArgumentError, match=r"t::scale takes at most 1 positional"):
            scale(x, 2.0)
    y = pyasc.ones((2, 4))
    pyasc.layer_norm(y)
    pyasc.layer_norm(y, eps=1e-5)
    with pytest.raises(pyasc.ArgumentError, match=r"pyasc::layer_norm takes at most 3 positional"):
        pyasc.layer_norm(y, None, None, 1e-5)


def test_cached_call_still_checks_the_elements_of_a_tuple_attribute():
    t = pyasc.tensor(np.ones((2, 3), np.float32))
    for _ in range(2):
        np.testing.assert_array_equal(pyasc.sum(t, (1,), False).numpy(), [3.0, 3.0])
        with pytest.raises(pyasc.ArgumentError, match=r"'axis' must be int\[\]\?, got tuple \(1.0,\)"):
            pyasc.sum(t, (1.0,), False)
        with pytest.raises(pyasc.ArgumentError, match=r"got tuple \(True,\)"):
            pyasc.sum(t, (True,), False)
        np.testing.assert_array_equal(pyasc.sum(t, (np.int64(0),), False).numpy(), [2.0, 2.0, 2.0])


def test_registering_a_kernel_later_invalidates_the_cached_dispatch():
    scale = _define_scale()
    x = pyasc.tensor([1.0, 2.0])
    for _ in range(3):  # warm the cache (positional call of the hot path)
        np.testing.assert_array_equal(scale(x).numpy(), [2.0, 4.0])
    version = REGISTRY.version
    pyasc.library.impl("t::scale", "numpy", lambda meta, x, s: pyasc.full(meta.shape, 7.0))
    assert REGISTRY.version > version
    np.testing.assert_array_equal(scale(x).numpy(), [7.0, 7.0])
    # and forgetting the kernel restores the reference
    del RUNTIME_LIBRARY.kernels[("t::scale", "numpy")]
    REGISTRY.invalidate()
    np.testing.assert_array_equal(scale(x).numpy(), [2.0, 4.0])


def test_table_is_rebuilt_when_something_registers(runtime_plugin):
    x = pyasc.tensor([1.0, 2.0])
    pyasc.exp(x)
    REGISTRY.ensure()
    table = REGISTRY.table
    assert callable(table[("pyasc::exp", "numpy")])
    assert ("pyasc::exp", "meta") in table

    class Extra:
        @pyasc.hookimpl
        def pyasc_register_ops(self, register):
            register(pyasc.OpDef("extra::twice", "(Tensor x) -> Tensor", meta=same_meta,
                                 reference=lambda x: 2 * x))

    runtime_plugin(Extra(), "extra-plugin")
    np.testing.assert_array_equal(pyasc.ops.extra.twice(x).numpy(), [2.0, 4.0])
    assert REGISTRY.table is not table
    assert ("extra::twice", "numpy") in REGISTRY.table and ("extra::twice", "numpy") not in table
    plugins.unregister(name="extra-plugin")
    with pytest.raises(pyasc.UnknownOpError):
        pyasc.ops.extra.twice(x)


# ---------------------------------------------------------------------------------------------
# meta/reference contract violations
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "meta,needle",
    [(lambda x: x.shape, "returned (2,)"),
     (lambda x: None, "returned None"),
     (lambda x: (x, x), "returned (TensorMeta"),
     (lambda x: np.zeros(2), "returned array")],
)
def test_meta_returning_a_wrong_type(meta, needle):
    op = pyasc.library.define("t::badmeta", "(Tensor x) -> Tensor", meta=meta, reference=lambda x: x)
    with pytest.raises(pyasc.OpRegistrationError) as info:
        op(pyasc.tensor([1.0, 2.0]))
    msg = str(info.value)
    assert "meta function of t::badmeta" in msg and needle in msg and "must return a TensorMeta" in msg


def test_multi_output_meta_returning_one_meta():
    op = pyasc.library.define("t::two", "(Tensor x) -> (Tensor, Tensor)", meta=same_meta,
                              reference=lambda x: (x, x))
    with pytest.raises(pyasc.OpRegistrationError, match="must return a tuple of 2 TensorMeta"):
        op(pyasc.tensor([1.0]))


@pytest.mark.parametrize("arity", [1, 2, 3])
def test_reference_disagreeing_with_its_meta_shape(arity):
    names = ", ".join(f"Tensor x{i}" for i in range(arity))
    op = pyasc.library.define(
        f"t::mismatch{arity}", f"({names}) -> Tensor", meta=lambda *a: a[0],
        reference=lambda *a: np.concatenate([a[0], a[0]]))
    args = [pyasc.tensor([1.0, 2.0])] * arity
    with pytest.raises(pyasc.ReferenceMismatchError) as info:
        op(*args)
    msg = str(info.value)
    assert f"t::mismatch{arity}" in msg and "(4,)" in msg and "(2,)" in msg
    with pytest.raises(pyasc.ReferenceMismatchError):  # also from the cached path
        op(*args)


def test_reference_dtype_is_cast_to_the_meta_dtype():
    op = pyasc.library.define("t::as_f64", "(Tensor x) -> Tensor",
                              meta=lambda x: TensorMeta(x.shape, np.float16),
                              reference=lambda x: x.astype(np.float64) / 3)
    out = op(pyasc.tensor([1.0, 2.0]))
    assert out.dtype == np.float16
    np.testing.assert_allclose(out.numpy().astype(np.float64), [1 / 3, 2 / 3], rtol=1e-3)


# ---------------------------------------------------------------------------------------------
# backends without kernels
# ---------------------------------------------------------------------------------------------


class NoKernelBackend(ReferenceBackend):
    """Host storage like the numpy backend, but no default kernels."""

    name = "nokernel"
    aliases = ()
    description = "test backend without kernels"

    def __init__(self):
        super().__init__()
        self._device = pyasc.Device("nokernel")

    def default_kernel(self, op):
        return None


class BackendPlugin:
    def __init__(self, backend):
        self.backend = backend

    @pyasc.hookimpl
    def pyasc_register_backends(self, register):
        register(self.backend)


def test_kernel_not_found(runtime_plugin):
    runtime_plugin(BackendPlugin(NoKernelBackend()), "nokernel-plugin")
    x = pyasc.tensor([1.0, 2.0], device="nokernel")
    assert x.device == pyasc.Device("nokernel")
    with pytest.raises(pyasc.KernelNotFoundError) as info:
        pyasc.exp(x)
    msg = str(info.value)
    assert "pyasc::exp" in msg and "'nokernel'" in msg
    have = msg.split("it has kernels for: ")[1].split(".")[0].split(", ")
    assert {"meta", "numpy"} <= set(have) and "nokernel" not in have  # the backends that do
    assert "pyasc.library.impl('pyasc::exp', 'nokernel')" in msg
    assert msg.endswith("move the inputs with .to('numpy')")  # not to 'meta', which has no data
    assert isinstance(info.value, NotImplementedError)
    np.testing.assert_array_equal(x.numpy(), [1.0, 2.0])

    # a registered kernel makes the op work there
    pyasc.library.impl("pyasc::exp", "nokernel",
                       lambda meta, x: pyasc.tensor(np.exp(x.numpy()), device="nokernel"))
    out = pyasc.exp(x)
    assert out.device == pyasc.Device("nokernel")
    np.testing.assert_allclose(out.numpy(), np.exp([1.0, 2.0]), rtol=1e-6)


def test_composite_on_a_backend_without_kernels_needs_its_parts(runtime_plugin):
    runtime_plugin(BackendPlugin(NoKernelBackend()), "nokernel-plugin")

    @pyasc.op("t::plus_one")
    def plus_one(x: pyasc.Tensor) -> pyasc.Tensor:
        return x + 1.0

    x = pyasc.tensor([1.0], device="nokernel")
    with pytest.raises(pyasc.KernelNotFoundError, match="pyasc::add has no kernel for backend 'nokernel'"):
        plus_one(x)
    pyasc.library.impl("pyasc::add", "nokernel", lambda meta, a, b: pyasc.tensor(
        np.add(a.numpy(), b), dtype=meta.dtype, device="nokernel"))
    np.testing.assert_array_equal(plus_one(x).numpy(), [2.0])


# ---------------------------------------------------------------------------------------------
# the hot path never calls a hook
# ---------------------------------------------------------------------------------------------


def test_hot_path_calls_no_hook(runtime_plugin, monkeypatch):
    counts = {"ops": 0, "kernels": 0}

    class Counter:
        @pyasc.hookimpl
        def pyasc_register_ops(self, register):
            counts["ops"] += 1

        @pyasc.hookimpl
        def pyasc_register_kernels(self, register):
            counts["kernels"] += 1

    @pyasc.op("t::comp")
    def comp(x: pyasc.Tensor, *, k: float = 1.0) -> pyasc.Tensor:
        return x * k

    runtime_plugin(Counter(), "counter")
    x = pyasc.tensor([1.0, 2.0, 3.0])
    ints = pyasc.tensor([1, 2])
    pyasc.add(x, x)
    assert counts == {"ops": 1, "kernels": 1}  # the rebuild after registering read the hooks once
    version = REGISTRY.version

    def no_plugin_manager():
        raise AssertionError("the plugin manager was consulted on the hot path")

    monkeypatch.setattr(plugins, "get_plugin_manager", no_plugin_manager)
    for i in range(1000):
        pyasc.add(x, x)
        pyasc.mul(x, 2.0)
        pyasc.sum(x, axis=0, keepdims=bool(i % 2))
        pyasc.exp(x)
        pyasc.div(ints, 3)
        comp(x, k=2.0)
        x + 1.0
    monkeypatch.undo()
    assert counts == {"ops": 1, "kernels": 1}
    assert REGISTRY.version == version


def test_kernel_for_unknown_backend_warns_with_did_you_mean():
    pyasc.library.define("tr::ident", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x)
    pyasc.library.impl("tr::ident", "numpyy", lambda meta, x: x)
    with pytest.warns(pyasc.PyascPluginWarning, match=r"backend 'numpyy', which no plugin provides\. Did you mean 'numpy'\?"):
        pyasc.ops.tr.ident(pyasc.tensor([1.0], device="numpy"))


def test_composite_must_return_a_tensor():
    @pyasc.op(name="tr::not_a_tensor")
    def bad(x: pyasc.Tensor) -> pyasc.Tensor:
        return x.numpy()

    with pytest.raises(pyasc.OpRegistrationError, match="composite op tr::not_a_tensor returned ndarray"):
        bad(pyasc.tensor([1.0, 2.0], device="numpy"))


@pytest.mark.parametrize("schema, fragment", [
    ("(Tensor x, int k=1.5) -> Tensor", "default of 'k'"),
    ("(Tensor x, int k=None) -> Tensor", "make the type optional"),
    ("(Tensor x, bool flag=1) -> Tensor", "default of 'flag'"),
])
def test_schema_defaults_must_fit_their_type(schema, fragment):
    from pyasc_core.schema import Schema

    with pytest.raises(pyasc.OpRegistrationError, match=fragment):
        Schema.parse(schema)


def test_schema_defaults_are_normalised():
    from pyasc_core.schema import Schema

    s = Schema.parse("(Tensor x, *, float eps=1, int[] axes=[0, 1]) -> Tensor")
    assert [p.default for p in s.params[1:]] == [1.0, (0, 1)]
    assert type(s.params[1].default) is float
