"""Removable registrations (issue 12, point 5): ``pyasc.library.Library("ns")`` as torch.library's
``Library``: define, impl (a decorator returning the function), op, remove() and the
context-manager form; the module-level define/impl keep working as before."""

from __future__ import annotations

import json

import numpy as np
import pytest

import pyasc
from pyasc_core import cli
from pyasc_core.library import PLUGIN as RUNTIME_LIBRARY
from pyasc_core.registry import REGISTRY

THIS = f"module:{__name__}"


@pytest.fixture(autouse=True)
def _numpy_backend():
    pyasc.set_backend("numpy")  # conftest's isolation restores the previous choice


def scale_meta(x, s):
    return x


def scale_ref(x, s):
    return x * s


def x2():
    return pyasc.tensor([1.0, 2.0])


def cli_ops(capsys, namespace):
    assert cli.main(["ops", "--json", "--namespace", namespace]) == 0
    return [r["op"] for r in json.loads(capsys.readouterr().out)]


def test_define_impl_remove(capsys):
    lib = pyasc.library.Library("scopelib")
    scale = lib.define("scale", "(Tensor x, *, float s=2.0) -> Tensor", meta=scale_meta, reference=scale_ref)
    assert scale is pyasc.ops.scopelib.scale is pyasc.get_op("scopelib::scale")
    assert scale.opdef.source == THIS

    def kernel(meta, x, s):
        return pyasc.full(meta.shape, 100.0 * s)

    assert lib.impl("scale", "numpy", kernel) is kernel
    np.testing.assert_array_equal(scale(x2(), s=3.0).numpy(), [300.0, 300.0])
    assert "scopelib::scale" in REGISTRY.ops and ("scopelib::scale", "numpy") in REGISTRY.kernels
    assert dir(pyasc.ops.scopelib) == ["scale"]
    assert cli_ops(capsys, "scopelib") == ["scopelib::scale"]
    assert "1 ops, 1 kernels" in repr(lib)

    lib.remove()
    REGISTRY.ensure()  # (the tables are rebuilt lazily, as after any registration)
    assert "scopelib::scale" not in REGISTRY.ops and ("scopelib::scale", "numpy") not in REGISTRY.kernels
    assert dir(pyasc.ops.scopelib) == []
    assert not hasattr(pyasc.ops.scopelib, "scale")
    assert cli_ops(capsys, "scopelib") == []
    with pytest.raises(pyasc.UnknownOpError, match="scopelib::scale"):
        scale(x2())  # a handle held from before sees the removal too
    assert "removed" in repr(lib)
    lib.remove()  # twice is harmless
    with pytest.raises(pyasc.OpRegistrationError, match=r"Library\('scopelib'\) was removed; create a new"):
        lib.define("again", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x)
    # the namespace can be used again
    again = pyasc.library.Library("scopelib")
    again.define("scale", "(Tensor x, *, float s=2.0) -> Tensor", meta=scale_meta, reference=lambda x, s: x + s)
    np.testing.assert_array_equal(pyasc.ops.scopelib.scale(x2()).numpy(), [3.0, 4.0])
    again.remove()


def test_impl_decorator_returns_the_function():
    lib = pyasc.library.Library("decolib")
    lib.define("decolib::neg2", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: -2 * x)

    @lib.impl("neg2", "numpy")
    def neg2_numpy(meta, x):
        """My kernel."""
        return pyasc.tensor(-2.0 * x.numpy() + 0.5)

    assert callable(neg2_numpy) and neg2_numpy.__name__ == "neg2_numpy" and neg2_numpy.__doc__ == "My kernel."
    np.testing.assert_array_equal(pyasc.ops.decolib.neg2(x2()).numpy(), [-1.5, -3.5])
    assert REGISTRY.table[("decolib::neg2", "numpy")] is neg2_numpy

    # the module-level impl too (unchanged behaviour)
    pyasc.library.define("decolib2::id", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x)

    @pyasc.library.impl("decolib2::id", "numpy")
    def id_numpy(meta, x):
        return pyasc.full(meta.shape, 9.0)

    assert id_numpy.__name__ == "id_numpy"
    np.testing.assert_array_equal(pyasc.ops.decolib2.id(x2()).numpy(), [9.0, 9.0])
    lib.remove()
    # only what the library registered is gone
    np.testing.assert_array_equal(pyasc.ops.decolib2.id(x2()).numpy(), [9.0, 9.0])
    with pytest.raises(pyasc.UnknownOpError):
        pyasc.ops.decolib.neg2(x2())


def test_context_manager_and_composites():
    with pyasc.library.Library("ctxlib") as lib:
        @lib.op
        def plus_one(x: pyasc.Tensor) -> pyasc.Tensor:
            return x + 1.0

        @lib.op(name="twice")
        def double(x: pyasc.Tensor) -> pyasc.Tensor:
            return x * 2.0

        assert plus_one is pyasc.ops.ctxlib.plus_one
        np.testing.assert_array_equal(pyasc.ops.ctxlib.twice(plus_one(x2())).numpy(), [4.0, 6.0])
        assert sorted(dir(pyasc.ops.ctxlib)) == ["plus_one", "twice"]
    assert dir(pyasc.ops.ctxlib) == []
    with pytest.raises(pyasc.UnknownOpError):
        plus_one(x2())


def test_context_manager_removes_on_error():
    with pytest.raises(ZeroDivisionError):
        with pyasc.library.Library("errlib") as lib:
            lib.define("id", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x)
            1 / 0
    assert "errlib::id" not in RUNTIME_LIBRARY.ops
    with pytest.raises(pyasc.UnknownOpError):
        pyasc.get_op("errlib::id")


def test_remove_takes_the_kernels_of_its_ops_and_its_kernels_of_other_ops():
    pyasc.library.define("keep::op", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x)
    lib = pyasc.library.Library("kernlib")
    lib.define("op", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x)
    lib.impl("keep::op", "numpy", lambda meta, x: pyasc.full(meta.shape, 5.0))  # another namespace's op
    pyasc.library.impl("kernlib::op", "numpy", lambda meta, x: pyasc.full(meta.shape, 6.0))  # not via lib
    np.testing.assert_array_equal(pyasc.ops.keep.op(x2()).numpy(), [5.0, 5.0])
    np.testing.assert_array_equal(pyasc.ops.kernlib.op(x2()).numpy(), [6.0, 6.0])
    lib.remove()
    assert ("keep::op", "numpy") not in RUNTIME_LIBRARY.kernels
    assert ("kernlib::op", "numpy") not in RUNTIME_LIBRARY.kernels  # it could not run without its op
    np.testing.assert_array_equal(pyasc.ops.keep.op(x2()).numpy(), [1.0, 2.0])  # back to its reference


def test_remove_leaves_a_later_replacement_alone():
    lib = pyasc.library.Library("replib")
    lib.define("op", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x)
    # the same module redefines it at module level (allowed: same source replaces)
    pyasc.library.define("replib::op", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x * 4)
    lib.remove()
    np.testing.assert_array_equal(pyasc.ops.replib.op(x2()).numpy(), [4.0, 8.0])


@pytest.mark.parametrize("ns, needle", [
    ("pyasc", "reserved for pyasc's built-in ops"),
    ("my lib", "must be an identifier"),
    ("a::b", "must be an identifier"),
    (3, "must be an identifier"),
])
def test_bad_namespaces(ns, needle):
    with pytest.raises(pyasc.OpRegistrationError, match=needle):
        pyasc.library.Library(ns)


def test_bad_names_in_a_library():
    lib = pyasc.library.Library("namelib")
    with pytest.raises(pyasc.OpRegistrationError, match=r"Library\('namelib'\) defines ops in namespace "
                                                         r"'namelib' only, not 'other::op'"):
        lib.define("other::op", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x)
    with pytest.raises(pyasc.OpRegistrationError, match="namespace::name"):
        lib.define("bad name", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x)
    with pytest.raises(pyasc.OpRegistrationError, match="an op name must be a string"):
        lib.impl(42, "numpy", lambda meta, x: x)
    with pytest.raises(pyasc.UnknownOpError, match="namelib::nothing"):
        lib.impl("nothing", "numpy", lambda meta, x: x)
    with pytest.raises(pyasc.OpRegistrationError, match="defines ops in namespace 'namelib' only"):
        lib.op(name="pyasc::sneaky")(lambda x: x)
    assert "0 ops, 0 kernels" in repr(lib)  # nothing was recorded
    lib.remove()


def test_conflicts_between_libraries_of_different_modules():
    lib = pyasc.library.Library("conflib")
    lib.define("op", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x)
    other = {"pyasc": pyasc}
    with pytest.raises(pyasc.PluginConflictError, match=f"op conflib::op is already defined by {THIS}"):
        exec(compile("pyasc.library.Library('conflib').define('op', '(Tensor x) -> Tensor', "
                     "meta=lambda x: x, reference=lambda x: x)", "<other>", "exec"),
             {"__name__": "other_module", **other})
    lib.remove()
    # after removal the other module may define it
    exec(compile("lib = pyasc.library.Library('conflib'); lib.define('op', '(Tensor x) -> Tensor', "
                 "meta=lambda x: x, reference=lambda x: x * 3)", "<other>", "exec"),
         {"__name__": "other_module", **other})
    np.testing.assert_array_equal(pyasc.ops.conflib.op(x2()).numpy(), [3.0, 6.0])
    assert pyasc.get_op("conflib::op").opdef.source == "module:other_module"
