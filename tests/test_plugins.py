"""Plugin loading through the ``pyasc`` entry-point group: good, broken and conflicting plugins,
the environment switches, run-time registration, and the real example op pack installed by pip."""

from __future__ import annotations

import json
import math
import warnings

import ml_dtypes
import numpy as np
import pytest

import pyasc
from pyasc_core import cli, plugins
from pyasc_core.registry import REGISTRY

F16 = np.dtype(np.float16)
F32 = np.dtype(np.float32)

GOOD = """
    import numpy as np
    import pyasc

    @pyasc.hookimpl
    def pyasc_register_ops(register):
        register(pyasc.OpDef("{ns}::triple", "(Tensor x) -> Tensor", meta=lambda x: x,
                             reference=lambda x: 3 * x))
"""

BROKEN_IMPORT = """
    import pyasc
    import pyasc_no_such_dependency_xyz
"""

BROKEN_HOOK = """
    import pyasc

    @pyasc.hookimpl
    def pyasc_register_ops(register):
        register(pyasc.OpDef("broken::first", "(Tensor x) -> Tensor", meta=lambda x: x,
                             reference=lambda x: x))
        raise RuntimeError("boom while registering")
"""

BAD_HOOK_SIGNATURE = """
    import pyasc

    @pyasc.hookimpl
    def pyasc_register_ops(register, extra):
        pass
"""

SHARED_OP = """
    import pyasc

    @pyasc.hookimpl
    def pyasc_register_ops(register):
        register(pyasc.OpDef("shared::op", "(Tensor x) -> Tensor", meta=lambda x: x,
                             reference=lambda x: x + {value}))
"""

BACKEND = """
    import pyasc
    from pyasc_core.reference_backend import ReferenceBackend

    class MyBackend(ReferenceBackend):
        name = {name!r}
        aliases = {aliases!r}

        def __init__(self):
            super().__init__()
            self._device = pyasc.Device({name!r})

    @pyasc.hookimpl
    def pyasc_register_backends(register):
        register(MyBackend())
"""


@pytest.fixture(autouse=True)
def _numpy_backend():
    """These tests are about the reference backend, whatever the default backend is."""
    pyasc.set_backend("numpy")  # conftest's isolation restores the previous choice


def record(name):
    found = {r.name: r for r in plugins.list_plugins()}
    assert name in found, f"no plugin record {name!r}; have {sorted(found)}"
    return found[name]


def x3():
    return pyasc.tensor([1.0, 2.0, 3.0])


def builtins_work():
    np.testing.assert_array_equal(pyasc.add(x3(), 1.0).numpy(), [2.0, 3.0, 4.0])
    assert set(plugins.BUILTIN_MODULES) <= {r.name for r in plugins.list_plugins() if r.status == "loaded"}


# ---------------------------------------------------------------------------------------------
# good and broken third-party plugins
# ---------------------------------------------------------------------------------------------


def test_good_third_party_plugin(dists):
    dists.make("pyasc-good-pack", "good_pack", GOOD.format(ns="good"), entry_name="good", version="2.5")
    dists.reload()
    np.testing.assert_array_equal(pyasc.ops.good.triple(x3()).numpy(), [3.0, 6.0, 9.0])
    assert pyasc.ops.good.triple(pyasc.ones(4, device="meta")).shape == (4,)
    rec = record("good")
    assert (rec.dist, rec.version, rec.kind, rec.status, rec.module, rec.error) == (
        "pyasc-good-pack", "2.5", "entrypoint", "loaded", "good_pack", "")
    assert pyasc.get_op("good::triple").opdef.source == "pyasc-good-pack"
    builtins_work()


def test_plugin_that_fails_to_import(dists):
    dists.make("pyasc-broken-import", "broken_import", BROKEN_IMPORT, entry_name="broken")
    dists.make("pyasc-good-pack", "good_pack", GOOD.format(ns="good"), entry_name="good")
    dists.reload()
    with pytest.warns(pyasc.PyascPluginWarning) as caught:
        recs = {r.name: r for r in plugins.list_plugins()}
    text = " ".join(str(w.message) for w in caught)
    assert "'broken'" in text and "pyasc-broken-import" in text and "import" in text
    assert "pyasc_no_such_dependency_xyz" in text and "pyasc plugins" in text
    rec = recs["broken"]
    assert rec.status == "failed" and rec.dist == "pyasc-broken-import" and rec.kind == "entrypoint"
    assert rec.error.startswith("import failed: ModuleNotFoundError")
    assert "pyasc_no_such_dependency_xyz" in rec.error
    assert recs["good"].status == "loaded"
    np.testing.assert_array_equal(pyasc.ops.good.triple(x3()).numpy(), [3.0, 6.0, 9.0])
    builtins_work()


def test_plugin_whose_hook_raises_while_registering(dists):
    dists.make("pyasc-broken-hook", "broken_hook", BROKEN_HOOK, entry_name="broken")
    dists.make("pyasc-good-pack", "good_pack", GOOD.format(ns="good"), entry_name="good")
    dists.reload()
    with pytest.warns(pyasc.PyascPluginWarning, match=r"'broken' \(pyasc-broken-hook\) failed to register"):
        np.testing.assert_array_equal(pyasc.ops.good.triple(x3()).numpy(), [3.0, 6.0, 9.0])
    rec = record("broken")
    assert rec.status == "failed"
    assert rec.error == "register failed: RuntimeError: boom while registering"
    # what it registered before failing is dropped too
    with pytest.raises(pyasc.UnknownOpError):
        pyasc.get_op("broken::first")
    builtins_work()


def test_plugin_with_an_invalid_hook_signature(dists):
    dists.make("pyasc-bad-signature", "bad_signature", BAD_HOOK_SIGNATURE, entry_name="badsig")
    dists.reload()
    with pytest.warns(pyasc.PyascPluginWarning, match="'badsig'"):
        rec = record("badsig")
    assert rec.status == "failed" and rec.error.startswith("register failed:")
    assert "extra" in rec.error
    builtins_work()


# ---------------------------------------------------------------------------------------------
# conflicts
# ---------------------------------------------------------------------------------------------


def _loser_of(*names):
    """The one of two conflicting plugins that was marked failed (the later one), and the winner."""
    recs = {n: record(n) for n in names}
    failed = [n for n in names if recs[n].status == "failed"]
    assert len(failed) == 1, {n: (r.status, r.error) for n, r in recs.items()}
    (winner,) = set(names) - set(failed)
    assert recs[winner].status == "loaded"
    return recs[failed[0]], recs[winner]


def test_two_distributions_defining_one_op(dists):
    # the later plugin fails; the earlier one and every other op keep working (no error for all)
    dists.make("pyasc-pack-a", "pack_a", SHARED_OP.format(value=1), entry_name="a")
    dists.make("pyasc-pack-b", "pack_b", SHARED_OP.format(value=2), entry_name="b")
    dists.reload()
    with pytest.warns(pyasc.PyascPluginWarning) as caught:
        np.testing.assert_array_equal(pyasc.add(x3(), 1.0).numpy(), [2.0, 3.0, 4.0])
    loser, winner = _loser_of("a", "b")
    msg = " ".join(str(w.message) for w in caught)
    assert f"{loser.name!r} ({loser.dist}) failed to register" in msg
    assert "shared::op" in msg and "pyasc-pack-a" in msg and "pyasc-pack-b" in msg
    assert "PYASC_PLUGINS" in msg  # how to resolve it
    assert "PluginConflictError" in loser.error and winner.dist in loser.error
    value = 1 if winner.dist == "pyasc-pack-a" else 2
    np.testing.assert_array_equal(pyasc.ops.shared.op(x3()).numpy(), np.array([1.0, 2.0, 3.0]) + value)
    assert pyasc.get_op("shared::op").opdef.source == winner.dist
    builtins_work()
    # choosing one of them resolves the conflict
    dists.reload(PYASC_PLUGINS="pyasc-pack-b")
    with warnings.catch_warnings():
        warnings.simplefilter("error", pyasc.PyascPluginWarning)
        np.testing.assert_array_equal(pyasc.ops.shared.op(x3()).numpy(), [3.0, 4.0, 5.0])
    assert record("a").status == "skipped"


def test_two_backends_with_one_name(dists):
    dists.make("pyasc-backend-one", "backend_one", BACKEND.format(name="twin", aliases=()), entry_name="one")
    dists.make("pyasc-backend-two", "backend_two", BACKEND.format(name="twin", aliases=()), entry_name="two")
    dists.reload()
    with pytest.warns(pyasc.PyascPluginWarning) as caught:
        REGISTRY.ensure()
    msg = " ".join(str(w.message) for w in caught)
    assert "'twin'" in msg and "pyasc-backend-one" in msg and "pyasc-backend-two" in msg
    loser, winner = _loser_of("one", "two")
    assert "backend name 'twin'" in loser.error
    assert REGISTRY.backend_sources["twin"] == winner.dist
    np.testing.assert_array_equal(pyasc.mul(pyasc.tensor([1.0, 2.0], device="twin"), 2.0).numpy(), [2.0, 4.0])
    builtins_work()


def test_backend_alias_clashing_with_a_builtin_name(dists):
    # built-ins always win, whatever the order: the thief fails, 'reference' stays numpy's
    dists.make("pyasc-alias-thief", "alias_thief", BACKEND.format(name="other", aliases=("reference",)),
               entry_name="thief")
    dists.reload()
    with pytest.warns(pyasc.PyascPluginWarning) as caught:
        pyasc.set_backend("numpy")
    msg = " ".join(str(w.message) for w in caught)
    assert "'thief' (pyasc-alias-thief) failed to register" in msg
    assert "'reference'" in msg and "pyasc-runtime" in msg
    assert record("thief").status == "failed"
    assert REGISTRY.backend("reference").name == "numpy"
    with pytest.raises(pyasc.UnknownBackendError):
        REGISTRY.backend("other")  # rolled back whole, not just the clashing alias
    builtins_work()


def test_third_party_backend_works(dists):
    dists.make("pyasc-backend-one", "backend_one", BACKEND.format(name="hostcopy", aliases=("hc",)),
               entry_name="one")
    dists.reload()
    t = pyasc.tensor([1.0, 2.0], device="hc")
    assert t.device == pyasc.Device("hostcopy")
    out = pyasc.mul(t, 2.0)  # the subclass's default kernels: the references
    assert out.device == pyasc.Device("hostcopy")
    np.testing.assert_array_equal(out.numpy(), [2.0, 4.0])


# ---------------------------------------------------------------------------------------------
# environment switches
# ---------------------------------------------------------------------------------------------


def test_autoload_disabled(dists):
    dists.make("pyasc-good-pack", "good_pack", GOOD.format(ns="good"), entry_name="good")
    dists.make("pyasc-broken-import", "broken_import", BROKEN_IMPORT, entry_name="broken")
    dists.reload(PYASC_DISABLE_PLUGIN_AUTOLOAD="1")
    with warnings.catch_warnings():
        warnings.simplefilter("error", pyasc.PyascPluginWarning)  # the broken one is not even imported
        recs = {r.name: r for r in plugins.list_plugins()}
    for name in ("good", "broken"):
        assert recs[name].status == "skipped"
        assert recs[name].error == "PYASC_DISABLE_PLUGIN_AUTOLOAD is set"
    with pytest.raises(pyasc.UnknownOpError):
        pyasc.get_op("good::triple")
    builtins_work()


def test_autoload_switch_only_counts_when_truthy(dists):
    dists.make("pyasc-good-pack", "good_pack", GOOD.format(ns="good"), entry_name="good")
    dists.reload(PYASC_DISABLE_PLUGIN_AUTOLOAD="0")
    assert record("good").status == "loaded"
    dists.reload(PYASC_DISABLE_PLUGIN_AUTOLOAD="true")
    assert record("good").status == "skipped"


@pytest.mark.parametrize("allow", ["alpha", "pyasc-alpha-pack", " alpha , unrelated "])
def test_allowlist(dists, allow):
    dists.make("pyasc-alpha-pack", "alpha_pack", GOOD.format(ns="alpha"), entry_name="alpha")
    dists.make("pyasc-beta-pack", "beta_pack", GOOD.format(ns="beta"), entry_name="beta")
    dists.make("pyasc-broken-import", "broken_import", BROKEN_IMPORT, entry_name="broken")
    dists.reload(PYASC_PLUGINS=allow)
    # the broken plugin is not imported (no warning for it); a name matching nothing is warned about
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        recs = {r.name: r for r in plugins.list_plugins()}
    messages = [str(w.message) for w in caught if issubclass(w.category, pyasc.PyascPluginWarning)]
    if "unrelated" in allow:
        assert len(messages) == 1 and "PYASC_PLUGINS names 'unrelated'" in messages[0]
    else:
        assert messages == []
    assert recs["alpha"].status == "loaded"
    assert (recs["beta"].status, recs["beta"].error) == ("skipped", "not in PYASC_PLUGINS")
    assert recs["broken"].status == "skipped"
    np.testing.assert_array_equal(pyasc.ops.alpha.triple(x3()).numpy(), [3.0, 6.0, 9.0])
    with pytest.raises(pyasc.UnknownOpError):
        pyasc.get_op("beta::triple")
    builtins_work()


@pytest.mark.parametrize("allow", ["beta", "pyasc-beta-pack"])
def test_allowlist_works_with_autoload_disabled(dists, allow):
    dists.make("pyasc-alpha-pack", "alpha_pack", GOOD.format(ns="alpha"), entry_name="alpha")
    dists.make("pyasc-beta-pack", "beta_pack", GOOD.format(ns="beta"), entry_name="beta")
    dists.reload(PYASC_PLUGINS=allow, PYASC_DISABLE_PLUGIN_AUTOLOAD="1")
    assert record("beta").status == "loaded"
    assert record("alpha").status == "skipped"
    np.testing.assert_array_equal(pyasc.ops.beta.triple(x3()).numpy(), [3.0, 6.0, 9.0])


# ---------------------------------------------------------------------------------------------
# registering at run time
# ---------------------------------------------------------------------------------------------


def test_register_at_run_time():
    class Pack:
        @pyasc.hookimpl
        def pyasc_register_ops(self, register):
            register(pyasc.OpDef("rt::inc", "(Tensor x, *, float by=1.0) -> Tensor", meta=lambda x, by: x,
                                 reference=lambda x, by: x + by))

        @pyasc.hookimpl
        def pyasc_register_kernels(self, register):
            register("rt::inc", "meta", lambda meta, x, by: pyasc.empty(meta.shape, device="meta"))

    name = plugins.register(Pack(), "runtime-pack")
    try:
        assert name == "runtime-pack"
        np.testing.assert_array_equal(pyasc.ops.rt.inc(x3(), by=0.5).numpy(), [1.5, 2.5, 3.5])
        assert pyasc.ops.rt.inc(pyasc.ones(2, device="meta")).shape == (2,)
        rec = record("runtime-pack")
        assert (rec.kind, rec.status) == ("runtime", "loaded")
        assert REGISTRY.kernels[("rt::inc", "meta")].source == rec.dist
    finally:
        plugins.unregister(name="runtime-pack")
    with pytest.raises(pyasc.UnknownOpError):
        pyasc.ops.rt.inc(x3())
    assert "runtime-pack" not in {r.name for r in plugins.list_plugins()}


def test_run_time_plugin_that_raises_is_reported_and_dropped():
    class Faulty:
        @pyasc.hookimpl
        def pyasc_register_ops(self, register):
            register("not an OpDef")

    plugins.register(Faulty(), "faulty")
    try:
        with pytest.warns(pyasc.PyascPluginWarning, match="'faulty'"):
            np.testing.assert_array_equal(pyasc.add(x3(), 1.0).numpy(), [2.0, 3.0, 4.0])
        rec = record("faulty")
        assert rec.status == "failed" and "expects OpDef objects" in rec.error
    finally:
        plugins.reset_for_tests()


# ---------------------------------------------------------------------------------------------
# the example op pack, installed for real
# ---------------------------------------------------------------------------------------------

EX_FLOATS = [F32, F16, np.dtype(ml_dtypes.bfloat16), np.dtype(np.float64)]
EX_TOL = {F32: 1e-5, F16: 2e-3, np.dtype(ml_dtypes.bfloat16): 1.6e-2, np.dtype(np.float64): 1e-12}


def ex_data(shape, dtype, seed):
    return np.random.default_rng(seed).uniform(-5, 5, shape).astype(dtype)


def close(out, expected, dtype):
    assert out.dtype == dtype and out.shape == np.shape(expected)
    np.testing.assert_allclose(out.numpy().astype(np.float64), expected, rtol=EX_TOL[dtype],
                               atol=EX_TOL[dtype])


def test_example_pack_is_loaded(example_pack):
    rec = record("example")
    assert (rec.dist, rec.version, rec.kind, rec.status) == ("pyasc-example-pack", "0.1.0", "entrypoint", "loaded")
    assert sorted(dir(pyasc.ops.example)) == ["hardswish", "leaky_relu", "mish", "scaled_add", "swiglu"]
    import pyasc_example_pack

    assert str(example_pack) in pyasc_example_pack.__file__  # the pip-installed copy


@pytest.mark.parametrize("dtype", EX_FLOATS, ids=str)
def test_example_hardswish(example_pack, dtype):
    x = np.concatenate([ex_data((10,), dtype, 1), np.array([-3.0, 0.0, 3.0, -6, 6]).astype(dtype)])
    v = x.astype(np.float64)
    expected = v * np.minimum(np.maximum(v + 3.0, 0.0), 6.0) / 6.0
    close(pyasc.ops.example.hardswish(pyasc.tensor(x, dtype=dtype)), expected, dtype)


def test_example_leaky_relu_with_attribute(example_pack):
    x = np.array([-2.0, -0.5, 0.0, 1.5], F32)
    leaky = pyasc.ops.example.leaky_relu
    close(leaky(pyasc.tensor(x)), [-0.02, -0.005, 0.0, 1.5], F32)
    close(leaky(pyasc.tensor(x), negative_slope=0.2), [-0.4, -0.1, 0.0, 1.5], F32)
    close(leaky(pyasc.tensor(x), negative_slope=1), x.astype(np.float64), F32)
    with pytest.raises(pyasc.ArgumentError, match="example::leaky_relu takes at most 1 positional"):
        leaky(pyasc.tensor(x), 0.2)
    with pytest.raises(pyasc.ArgumentError, match="'negative_slope' must be float, got str"):
        leaky(pyasc.tensor(x), negative_slope="0.2")
    assert leaky(pyasc.ones((2, 3), device="meta"), negative_slope=0.3).shape == (2, 3)


def test_example_scaled_add_broadcasts(example_pack):
    x = ex_data((2, 1, 3), F32, 2)
    y = ex_data((4, 3), F32, 3)
    sa = pyasc.ops.example.scaled_add
    close(sa(pyasc.tensor(x), pyasc.tensor(y), alpha=0.5), x.astype(np.float64) + 0.5 * y.astype(np.float64), F32)
    close(sa(pyasc.tensor(x), pyasc.tensor(y)), x.astype(np.float64) + y.astype(np.float64), F32)
    with pytest.raises(pyasc.ShapeError, match="example::scaled_add"):
        sa(pyasc.tensor(x), pyasc.tensor(ex_data((5,), F32, 4)))
    with pytest.raises(pyasc.DtypeError, match="example::scaled_add argument 'y' has dtype int64"):
        sa(pyasc.tensor(x), pyasc.tensor([1, 2, 3]))


@pytest.mark.parametrize("dtype", [F32, F16], ids=str)
def test_example_composites(example_pack, dtype):
    x = ex_data((3, 4), dtype, 5)
    g = ex_data((3, 4), dtype, 6)
    v, gv = x.astype(np.float64), g.astype(np.float64)
    mish = v * np.tanh(np.log1p(np.exp(v)))
    swiglu = v * gv / (1.0 + np.exp(-gv))
    # composites run op by op, so half inputs round after every step: a looser tolerance
    tol = 1e-5 if dtype == F32 else 1e-2
    out = pyasc.ops.example.mish(pyasc.tensor(x, dtype=dtype))
    assert out.dtype == dtype
    np.testing.assert_allclose(out.numpy().astype(np.float64), mish, rtol=tol, atol=tol)
    out = pyasc.ops.example.swiglu(pyasc.tensor(x, dtype=dtype), pyasc.tensor(g, dtype=dtype))
    assert out.dtype == dtype
    np.testing.assert_allclose(out.numpy().astype(np.float64), swiglu, rtol=tol, atol=tol)
    assert math.isclose(float(pyasc.ops.example.mish(pyasc.tensor(1.0)).item()), 0.8650983882673103,
                        rel_tol=1e-6)


def test_example_composites_on_meta(example_pack):
    m = pyasc.ops.example.mish(pyasc.ones((2, 5), dtype="float16", device="meta"))
    assert (m.device, m.shape, m.dtype) == (pyasc.Device("meta"), (2, 5), F16)
    s = pyasc.ops.example.swiglu(pyasc.ones((2, 5), device="meta"), pyasc.ones((5,), device="meta"))
    assert (s.device, s.shape) == (pyasc.Device("meta"), (2, 5))
    with pytest.raises(pyasc.DtypeError, match="example::mish argument 'x' has dtype int64"):
        pyasc.ops.example.mish(pyasc.ones(3, dtype="int64", device="meta"))


def test_pyasc_plugins_lists_the_example_pack(example_pack, capsys):
    assert cli.main(["plugins", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["error"] is None
    (ex,) = [p for p in data["plugins"] if p["name"] == "example"]
    assert ex == {"name": "example", "dist": "pyasc-example-pack", "version": "0.1.0", "kind": "entrypoint",
                  "status": "loaded", "module": "pyasc_example_pack.plugin", "error": ""}
    assert cli.main(["plugins"]) == 0
    out = capsys.readouterr().out
    assert "example" in out and "pyasc-example-pack" in out and "loaded" in out
    assert "pyasc_core.builtin_ops" not in out  # built-ins only with --all
    assert cli.main(["ops", "--json", "--namespace", "example"]) == 0
    rows = {r["op"]: r for r in json.loads(capsys.readouterr().out)}
    assert sorted(rows) == ["example::hardswish", "example::leaky_relu", "example::mish",
                            "example::scaled_add", "example::swiglu"]
    assert rows["example::mish"]["composite"] is True
    # (device backends that are installed show up too; the host ones are always there)
    assert {b: rows["example::mish"]["backends"][b] for b in ("meta", "numpy")} == {
        "meta": "composite", "numpy": "composite"}
    assert {b: rows["example::hardswish"]["backends"][b] for b in ("meta", "numpy")} == {
        "meta": "meta function", "numpy": "reference"}
    assert rows["example::hardswish"]["dtypes"] == ["float16", "bfloat16", "float32", "float64"]
    assert rows["example::hardswish"]["source"] == "pyasc-example-pack"


def test_kernel_pack_whose_op_pack_is_missing(dists):
    # a kernel for an op nobody defines (here: its op pack failed to import) is a failed
    # registration of that plugin, not a reason to break every op
    dists.make("pyasc-ops-pack", "ops_pack", BROKEN_IMPORT, entry_name="opspack")
    dists.make("pyasc-kernels-pack", "kernels_pack", """
        import pyasc

        @pyasc.hookimpl
        def pyasc_register_kernels(register):
            register("opspack::fast", "numpy", lambda meta, x: x)
    """, entry_name="kernels")
    dists.make("pyasc-good-pack", "good_pack", GOOD.format(ns="good"), entry_name="good")
    dists.reload()
    with pytest.warns(pyasc.PyascPluginWarning) as caught:
        np.testing.assert_array_equal(pyasc.ops.good.triple(x3()).numpy(), [3.0, 6.0, 9.0])
    assert any("'kernels' (pyasc-kernels-pack) failed to register" in str(w.message) for w in caught)
    rec = record("kernels")
    assert rec.status == "failed"
    assert "pyasc-kernels-pack registers a kernel for unknown op 'opspack::fast'" in rec.error
    assert record("opspack").status == "failed"
    builtins_work()


def test_two_distributions_with_one_entry_point_name(dists):
    dists.make("pyasc-one", "mod_one", GOOD.format(ns="one"), entry_name="pack")
    dists.make("pyasc-two", "mod_two", GOOD.format(ns="two"), entry_name="pack")
    dists.reload()
    with pytest.warns(pyasc.PyascPluginWarning, match="already taken by pyasc-"):
        recs = {r.name: r for r in plugins.list_plugins() if r.kind != "builtin"}
    # which one wins depends on the order on sys.path; the other is reported, never dropped silently
    assert set(recs) in ({"pack", "pack (pyasc-one)"}, {"pack", "pack (pyasc-two)"})
    winner = recs["pack"]
    loser = recs[f"pack ({'pyasc-one' if winner.dist == 'pyasc-two' else 'pyasc-two'})"]
    assert winner.status == "loaded" and loser.status == "failed"
    assert loser.error.startswith("load failed: ")
    assert "PluginConflictError: its entry-point name 'pack'" in loser.error
    assert winner.dist in loser.error
    builtins_work()
    # choosing one distribution settles it without a warning
    for chosen in ("pyasc-one", "pyasc-two"):
        dists.reload(PYASC_PLUGINS=chosen)
        with warnings.catch_warnings():
            warnings.simplefilter("error", pyasc.PyascPluginWarning)
            assert record("pack").dist == chosen and record("pack").status == "loaded"
        ns = chosen.split("-")[1]
        np.testing.assert_array_equal(getattr(pyasc.ops, ns).triple(x3()).numpy(), [3.0, 6.0, 9.0])


def test_register_at_run_time_refuses_duplicates_and_unknown_hooks():
    class Pack:
        @pyasc.hookimpl
        def pyasc_register_ops(self, register):
            pass

    pack = Pack()
    plugins.register(pack, "dup-pack")
    try:
        with pytest.raises(pyasc.PluginError, match=r"cannot register plugin 'dup-pack': Plugin name already"):
            plugins.register(Pack(), "dup-pack")
        with pytest.raises(pyasc.PluginError, match=r"cannot register plugin 'other': .*different name"):
            plugins.register(pack, "other")
    finally:
        plugins.unregister(name="dup-pack")

    class Typo:
        @pyasc.hookimpl
        def pyasc_register_opz(self, register):
            pass

    with pytest.raises(pyasc.PluginError) as info:
        plugins.register(Typo(), "typo")
    msg = str(info.value)
    assert "'typo'" in msg and "unknown hook(s) pyasc_register_opz" in msg
    assert "Did you mean 'pyasc_register_ops'?" in msg
    assert not plugins.get_plugin_manager().has_plugin("typo")

    class BadArgs:
        @pyasc.hookimpl
        def pyasc_register_ops(self, reg):
            pass

    with pytest.raises(pyasc.PluginError, match=r"'bad-args'.*\{'reg'\}"):
        plugins.register(BadArgs(), "bad-args")
    builtins_work()


def test_entry_point_plugin_with_a_misspelt_hook(dists):
    dists.make("pyasc-typo-pack", "typo_pack", """
        import pyasc

        @pyasc.hookimpl
        def pyasc_register_kernel(register):
            pass
    """, entry_name="typo")
    dists.make("pyasc-good-pack", "good_pack", GOOD.format(ns="good"), entry_name="good")
    dists.reload()
    with pytest.warns(pyasc.PyascPluginWarning, match="'typo' .*pyasc_register_kernel"):
        rec = record("typo")
    assert rec.status == "failed" and "unknown hook(s) pyasc_register_kernel" in rec.error
    assert "Did you mean 'pyasc_register_kernels'?" in rec.error
    np.testing.assert_array_equal(pyasc.ops.good.triple(x3()).numpy(), [3.0, 6.0, 9.0])


def test_entry_point_module_exposing_a_plugin_object(dists):
    dists.make("pyasc-object-pack", "object_pack", """
        import pyasc

        class Pack:
            @pyasc.hookimpl
            def pyasc_register_ops(self, register):
                register(pyasc.OpDef("obj::neg2", "(Tensor x) -> Tensor", meta=lambda x: x,
                                     reference=lambda x: -2 * x))

        PLUGIN = Pack()
    """, entry_name="objpack")
    dists.reload()
    np.testing.assert_array_equal(pyasc.ops.obj.neg2(x3()).numpy(), [-2.0, -4.0, -6.0])
    assert record("objpack").status == "loaded"


# -- allowlist names: normalised like PyPI's, and unmatched names are reported -----------------

GOOD_PLUGIN_SOURCE = """
import pyasc

@pyasc.hookimpl
def pyasc_register_ops(register):
    register(pyasc.OpDef("normpack::twice", "(Tensor x) -> Tensor",
                         meta=lambda x: x, reference=lambda x: x * 2))
"""


def test_allowlist_matches_distribution_names_like_pypi(dists):
    dists.make("Norm-Pack", "norm_pack_mod", GOOD_PLUGIN_SOURCE, entry_name="normpack")
    dists.reload(PYASC_PLUGINS="norm_pack")  # '_' vs '-' and case fold, as PEP 503 says
    from pyasc_core.plugins import list_plugins

    rec = {p.name: p for p in list_plugins()}["normpack"]
    assert rec.status == "loaded"
    out = pyasc.ops.normpack.twice(pyasc.tensor([1.0, 2.0], device="numpy"))
    assert out.numpy().tolist() == [2.0, 4.0]


def test_allowlist_name_matching_nothing_warns(dists):
    dists.make("norm-pack", "norm_pack_mod2", GOOD_PLUGIN_SOURCE, entry_name="normpack")
    with pytest.warns(pyasc.PyascPluginWarning, match="PYASC_PLUGINS names 'nrompack'"):
        dists.reload(PYASC_PLUGINS="nrompack")
        from pyasc_core.plugins import list_plugins

        rec = {p.name: p for p in list_plugins()}["normpack"]
    assert rec.status == "skipped" and rec.error == "not in PYASC_PLUGINS"


def test_the_example_pack_s_own_tests_pass_on_sim(example_pack_site, tmp_path):
    """The pack's own tests (the pyasc_ops marker, check_op against NumPy with the pack's list of
    missing kernels) pass on sim with the pack installed (run outside the checkout, in a child)."""
    import os
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("pyasc_sim")
    tests = Path(__file__).resolve().parent.parent / "plugins" / "pyasc-example-pack" / "tests"
    shutil.copytree(tests, tmp_path / "tests")
    env = {**os.environ, "PYTHONPATH": str(example_pack_site)}
    env.pop("PYASC_PLUGINS", None)
    env.pop("PYASC_DISABLE_PLUGIN_AUTOLOAD", None)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--pyasc-backend", "sim",
                           "tests"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "6 passed" in proc.stdout
