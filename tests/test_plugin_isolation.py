"""The plugin layer (issue 12, point 5): one isolating way to call hooks, used by the registry and
the CLI; plugins.py below the registry (a subscribed listener, no import); a conflict fails the
later third-party plugin and rolls it back while every other op keeps working; the ``pyasc::``
namespace reserved for built-ins; typed, documented ``register`` callbacks."""

from __future__ import annotations

import ast
import inspect
import json
import re
import subprocess
import sys
import typing
from pathlib import Path

import numpy as np
import pytest

import pyasc
from pyasc_core import cli, hookspecs, plugins
from pyasc_core.registry import REGISTRY

CORE = Path(plugins.__file__).resolve().parent
SIM = REGISTRY.availability("sim")[0]

REDEFINES_ADD = """
    import pyasc

    @pyasc.hookimpl
    def pyasc_register_ops(register):
        register(pyasc.OpDef("evil::first", "(Tensor x) -> Tensor", meta=lambda x: x,
                             reference=lambda x: x))
        register(pyasc.OpDef("pyasc::add", "(Tensor x, Tensor y) -> Tensor", meta=lambda x, y: x,
                             reference=lambda x, y: x - y))
"""

GOOD = """
    import pyasc

    @pyasc.hookimpl
    def pyasc_register_ops(register):
        register(pyasc.OpDef("good::triple", "(Tensor x) -> Tensor", meta=lambda x: x,
                             reference=lambda x: 3 * x))
"""


@pytest.fixture(autouse=True)
def _numpy_backend():
    pyasc.set_backend("numpy")  # conftest's isolation restores the previous choice


@pytest.fixture
def runtime_plugin():
    """plugins.register(...) for the test; whatever is still registered is removed afterwards."""
    names = []

    def register(obj, name):
        names.append(plugins.register(obj, name))
        return names[-1]

    yield register
    pm = plugins.get_plugin_manager()
    for name in names:
        if pm.get_plugin(name) is not None:
            plugins.unregister(name=name)
        pm.records.pop(name, None)  # a failed one leaves its record


def records():
    return {r.name: r for r in plugins.list_plugins()}


def x3():
    return pyasc.tensor([1.0, 2.0, 3.0])


def everything_else_works():
    t = x3()
    np.testing.assert_array_equal((t * 2.0).numpy(), [2.0, 4.0, 6.0])
    np.testing.assert_array_equal(pyasc.add(t, 1.0).numpy(), [2.0, 3.0, 4.0])
    np.testing.assert_array_equal((t + t).numpy(), [2.0, 4.0, 6.0])
    assert pyasc.exp(pyasc.ones(2, device="meta")).shape == (2,)


def op_pack(ns, op="twice"):
    class Pack:
        @pyasc.hookimpl
        def pyasc_register_ops(self, register):
            register(pyasc.OpDef(f"{ns}::{op}", "(Tensor x) -> Tensor", meta=lambda x: x,
                                 reference=lambda x: 2 * x))

    return Pack()


# ---------------------------------------------------------------------------------------------
# one helper calls the hooks, isolating each plugin
# ---------------------------------------------------------------------------------------------


class Broken:
    def __init__(self, exc):
        self.exc = exc

    @pyasc.hookimpl
    def pyasc_register_commands(self, register):
        register("half-done", "registered before the hook failed", lambda p: None, lambda a: 0)
        raise self.exc


class Odd(BaseException):
    pass


@pytest.mark.parametrize("exc", [RuntimeError("boom"), SystemExit(3), Odd("odd")], ids=repr)
def test_call_hooks_marks_a_broken_plugin_failed_and_runs_the_others(runtime_plugin, exc):
    class Fine:
        @pyasc.hookimpl
        def pyasc_register_commands(self, register):
            register("fine", "works", lambda p: None, lambda a: 0)

    runtime_plugin(Broken(exc), "broken-cmds")
    runtime_plugin(Fine(), "fine-cmds")
    pm = plugins.get_plugin_manager()
    got = []
    with pytest.warns(pyasc.PyascPluginWarning, match=rf"'broken-cmds' .*failed to testing.*{type(exc).__name__}"):
        ok = pm.call_hooks(("pyasc_register_commands",),
                           lambda plugin, hook: lambda *a: got.append((plugin, a[0])), stage="testing")
    assert "fine-cmds" in ok and "broken-cmds" not in ok
    assert ("fine-cmds", "fine") in got
    rec = records()["broken-cmds"]
    assert rec.status == "failed" and rec.error.startswith("testing failed:")
    assert not pm.has_plugin("broken-cmds")  # unregistered: it cannot fail again later
    everything_else_works()


def test_call_hooks_lets_ctrl_c_through(runtime_plugin):
    runtime_plugin(Broken(KeyboardInterrupt()), "ctrl-c")
    with pytest.raises(KeyboardInterrupt):
        plugins.get_plugin_manager().call_hooks(("pyasc_register_commands",), lambda p, h: lambda *a: None)


def test_cli_and_registry_use_the_same_helper(runtime_plugin):
    # a command hook that fails is treated exactly as a registry hook that fails: marked failed,
    # with what it registered before failing rolled back
    runtime_plugin(Broken(ValueError("no commands today")), "broken-cmds")
    with pytest.warns(pyasc.PyascPluginWarning, match="'broken-cmds' .*failed to register its commands"):
        commands = cli.plugin_commands()
    assert "half-done" not in commands
    assert records()["broken-cmds"].status == "failed"
    assert "no commands today" in records()["broken-cmds"].error


def test_no_module_calls_hooks_but_the_plugin_manager():
    """One way to call hooks: nothing outside plugins.py touches ``.hook.`` or the old helpers."""
    offenders = []
    for path in sorted(CORE.rglob("*.py")):
        if path.name == "plugins.py":
            continue
        text = path.read_text()
        for needle in (".hook.", "get_hookimpls", "call_hook(", "isolates("):
            if needle in text:
                offenders.append(f"{path.relative_to(CORE)}: {needle}")
    assert offenders == []
    assert not hasattr(plugins, "call_hook") and not hasattr(plugins, "isolates")


# ---------------------------------------------------------------------------------------------
# plugins.py sits below the registry: it never imports it; the registry subscribes a listener
# ---------------------------------------------------------------------------------------------


def _imports(path: Path) -> set[str]:
    """Every module a file imports, at module level or inside functions (relative ones resolved)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = "pyasc_core." * (node.level > 0) + (node.module or "")
            if node.module is None:
                found.update(f"pyasc_core.{a.name}" for a in node.names)
            else:
                found.add(base)
    return found


def test_plugins_module_never_imports_the_layers_above_it():
    core = {m for m in _imports(CORE / "plugins.py") if m.startswith("pyasc_core")}
    assert core <= {"pyasc_core.hookspecs", "pyasc_core.env", "pyasc_core.errors"}, core
    hooks = {m for m in _imports(CORE / "hookspecs.py") if m.startswith("pyasc_core")}
    assert hooks <= {"pyasc_core.backend", "pyasc_core.opdef"}, hooks  # annotations only
    # the layering contract (tests/test_layering.py) holds it too: plugins sits below registry
    text = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    layers = re.findall(r'^    "([\w |]+)",$', text.split("layers = [", 1)[1].split("]", 1)[0], re.M)
    assert layers.index("plugins") > layers.index("registry") > 0  # listed top to bottom


def test_registry_learns_of_changes_through_its_listener(runtime_plugin):
    assert REGISTRY._on_plugin_change in plugins._LISTENERS
    heard = []

    def listener(event, name):
        heard.append((event, name))

    plugins.subscribe(listener)
    try:
        REGISTRY.ensure()
        version = REGISTRY.version
        runtime_plugin(op_pack("heard"), "heard-pack")
        assert REGISTRY.version > version  # invalidated by the callback, no import of the registry
        np.testing.assert_array_equal(pyasc.ops.heard.twice(x3()).numpy(), [2.0, 4.0, 6.0])
        plugins.unregister(name="heard-pack")
        with pytest.raises(pyasc.UnknownOpError):
            pyasc.ops.heard.twice(x3())
        plugins.list_plugins()
        assert heard == [("registered", "heard-pack"), ("unregistered", "heard-pack"), ("listing", None)]
    finally:
        plugins.unsubscribe(listener)
    plugins.unsubscribe(listener)  # twice is harmless


def test_listener_hears_reset_and_load():
    heard = []
    plugins.subscribe(lambda event, name: heard.append((event, name)))
    listener = plugins._LISTENERS[-1]
    try:
        REGISTRY.ensure()
        plugins.reset_for_tests()
        assert heard == [("reset", None)]
        version = REGISTRY.version
        plugins.get_plugin_manager()
        assert ("registered", "pyasc_core.builtin_ops") in heard and heard[-1] == ("loaded", None)
        assert REGISTRY.version > version
    finally:
        plugins.unsubscribe(listener)
    np.testing.assert_array_equal(pyasc.add(x3(), 1.0).numpy(), [2.0, 3.0, 4.0])


def test_failed_plugin_is_dropped_from_tables_built_earlier(runtime_plugin):
    class TwoHooks:
        @pyasc.hookimpl
        def pyasc_register_ops(self, register):
            register(pyasc.OpDef("twohooks::op", "(Tensor x) -> Tensor", meta=lambda x: x,
                                 reference=lambda x: x))

        @pyasc.hookimpl
        def pyasc_register_commands(self, register):
            raise RuntimeError("commands broken")

    runtime_plugin(TwoHooks(), "two-hooks")
    assert pyasc.get_op("twohooks::op").opdef.source.startswith("module:")
    with pytest.warns(pyasc.PyascPluginWarning, match="'two-hooks'"):
        cli.plugin_commands()
    with pytest.raises(pyasc.UnknownOpError):  # the "failed" event invalidated the registry
        pyasc.get_op("twohooks::op")


# ---------------------------------------------------------------------------------------------
# conflicts: the later third-party plugin fails and is rolled back; every other op keeps working
# ---------------------------------------------------------------------------------------------


def test_pack_redefining_pyasc_add_breaks_nobody(dists):
    """The regression: a pack defining pyasc::add used to make ``tensor * 2.0`` raise for everyone."""
    dists.make("pyasc-evil-pack", "evil_pack", REDEFINES_ADD, entry_name="evil")
    dists.make("pyasc-good-pack", "good_pack", GOOD, entry_name="good")
    dists.reload()
    with pytest.warns(pyasc.PyascPluginWarning) as caught:
        everything_else_works()
    msg = " ".join(str(w.message) for w in caught)
    assert "'evil' (pyasc-evil-pack) failed to register" in msg
    assert "ReservedNamespaceError" in msg and "pyasc::add" in msg and "'mypack::add'" in msg
    rec = records()["evil"]
    assert rec.status == "failed" and "reserved for pyasc's built-in ops" in rec.error
    with pytest.raises(pyasc.UnknownOpError):  # what it registered first is rolled back too
        pyasc.get_op("evil::first")
    assert pyasc.get_op("pyasc::add").opdef.source == "pyasc-runtime"
    np.testing.assert_array_equal(pyasc.ops.good.triple(x3()).numpy(), [3.0, 6.0, 9.0])


def test_pack_redefining_pyasc_add_at_run_time(runtime_plugin):
    class Evil:
        @pyasc.hookimpl
        def pyasc_register_ops(self, register):
            register(pyasc.OpDef("pyasc::add", "(Tensor x, Tensor y) -> Tensor", meta=lambda x, y: x,
                                 reference=lambda x, y: x - y))

    runtime_plugin(Evil(), "evil-rt")
    with pytest.warns(pyasc.PyascPluginWarning, match="'evil-rt'.*pyasc::add"):
        everything_else_works()
    assert records()["evil-rt"].status == "failed"


def test_later_plugin_redefining_an_installed_packs_op_fails(example_pack, runtime_plugin):
    """The real example pack, pip-installed, and a later plugin that defines one of its ops."""
    runtime_plugin(op_pack("rival", "own"), "rival-first")  # an innocent bystander

    class Rival:
        @pyasc.hookimpl
        def pyasc_register_backends(self, register):
            from pyasc_core.reference_backend import ReferenceBackend

            class RivalBackend(ReferenceBackend):
                name, aliases = "rivalbe", ()

                def __init__(self):
                    super().__init__()
                    self._device = pyasc.Device("rivalbe")

            register(RivalBackend())

        @pyasc.hookimpl
        def pyasc_register_ops(self, register):
            register(pyasc.OpDef("rival::other", "(Tensor x) -> Tensor", meta=lambda x: x,
                                 reference=lambda x: x))
            register(pyasc.OpDef("example::hardswish", "(Tensor x) -> Tensor", meta=lambda x: x,
                                 reference=lambda x: x))

    runtime_plugin(Rival(), "rival")
    with pytest.warns(pyasc.PyascPluginWarning) as caught:
        out = pyasc.ops.example.hardswish(pyasc.tensor([3.0]))
    np.testing.assert_allclose(out.numpy(), [3.0])  # the pack's op, not the rival's identity
    msg = " ".join(str(w.message) for w in caught)
    assert "'rival' (module:" in msg and "example::hardswish" in msg and "pyasc-example-pack" in msg
    assert "PYASC_PLUGINS" in msg
    recs = records()
    assert recs["rival"].status == "failed" and recs["example"].status == "loaded"
    for gone in ("rival::other",):  # rolled back whole: its other op and its backend
        with pytest.raises(pyasc.UnknownOpError):
            pyasc.get_op(gone)
    with pytest.raises(pyasc.UnknownBackendError):
        REGISTRY.backend("rivalbe")
    np.testing.assert_array_equal(pyasc.ops.rival.own(x3()).numpy(), [2.0, 4.0, 6.0])
    everything_else_works()


def test_kernel_conflict_fails_the_later_plugin(runtime_plugin):
    class First:
        @pyasc.hookimpl
        def pyasc_register_ops(self, register):
            register(pyasc.OpDef("kc::op", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x))

        @pyasc.hookimpl
        def pyasc_register_kernels(self, register):
            register("kc::op", "numpy", lambda meta, x: pyasc.full(meta.shape, 1.0))

    class Second:
        @pyasc.hookimpl
        def pyasc_register_ops(self, register):
            register(pyasc.OpDef("kc2::op", "(Tensor x) -> Tensor", meta=lambda x: x, reference=lambda x: x))

        @pyasc.hookimpl
        def pyasc_register_kernels(self, register):
            register("kc::op", "reference", lambda meta, x: pyasc.full(meta.shape, 2.0))  # an alias

    runtime_plugin(First(), "kc-first")
    runtime_plugin(Second(), "kc-second")
    with pytest.warns(pyasc.PyascPluginWarning, match=r"'kc-second'.*kernel of kc::op on backend 'numpy'"):
        np.testing.assert_array_equal(pyasc.ops.kc.op(x3()).numpy(), [1.0, 1.0, 1.0])
    assert records()["kc-second"].status == "failed" and records()["kc-first"].status == "loaded"
    with pytest.raises(pyasc.UnknownOpError):
        pyasc.get_op("kc2::op")
    everything_else_works()


@pytest.mark.skipif(not SIM, reason="the simulator is not installed")
def test_builtins_win_a_kernel_conflict(runtime_plugin):
    class Thief:
        @pyasc.hookimpl
        def pyasc_register_kernels(self, register):
            register("pyasc::add", "sim", lambda meta, x, y: None)

    runtime_plugin(Thief(), "kernel-thief")
    with pytest.warns(pyasc.PyascPluginWarning, match=r"'kernel-thief'.*pyasc::add on backend 'sim'"):
        out = pyasc.add(pyasc.tensor([1.0, 2.0], device="sim"), 1.0)
    np.testing.assert_array_equal(out.numpy(), [2.0, 3.0])
    assert REGISTRY.kernels[("pyasc::add", "sim")].source == "pyasc-runtime"


def test_conflict_among_builtins_still_raises(monkeypatch, runtime_plugin):
    # nobody to blame when pyasc's own plugins disagree: an error for everyone, as before
    runtime_plugin(op_pack("dup"), "dup-one")
    runtime_plugin(op_pack("dup"), "dup-two")
    pm = plugins.get_plugin_manager()
    for name in ("dup-one", "dup-two"):
        monkeypatch.setattr(pm.records[name], "kind", "builtin")
    REGISTRY.invalidate()
    with pytest.raises(pyasc.PluginConflictError, match="op dup::twice is defined by both"):
        REGISTRY.ensure()
    monkeypatch.undo()
    REGISTRY.invalidate()


# ---------------------------------------------------------------------------------------------
# the pyasc:: namespace is reserved for built-ins
# ---------------------------------------------------------------------------------------------


def test_reserved_namespace_error_type():
    assert issubclass(pyasc.ReservedNamespaceError, pyasc.OpRegistrationError)
    assert issubclass(pyasc.ReservedNamespaceError, pyasc.PluginConflictError)


@pytest.mark.parametrize("how", ["define", "op", "library"])
def test_user_code_cannot_define_in_pyasc(how):
    with pytest.raises(pyasc.ReservedNamespaceError) as info:
        if how == "define":
            pyasc.library.define("pyasc::mine", "(Tensor x) -> Tensor", meta=lambda x: x,
                                 reference=lambda x: x)
        elif how == "op":
            @pyasc.op("pyasc::mine")
            def mine(x: pyasc.Tensor) -> pyasc.Tensor:
                return x
        else:
            pyasc.library.Library("pyasc")
    msg = str(info.value)
    assert "pyasc::" in msg and "reserved" in msg and "mypack" in msg  # the op and the fix
    with pytest.raises(pyasc.UnknownOpError):
        pyasc.get_op("pyasc::mine")
    everything_else_works()


def test_third_party_may_still_give_builtin_ops_kernels(runtime_plugin):
    from pyasc_core.reference_backend import ReferenceBackend

    class Mine(ReferenceBackend):
        name, aliases = "minebe", ()

        def __init__(self):
            super().__init__()
            self._device = pyasc.Device("minebe")

    class Pack:
        @pyasc.hookimpl
        def pyasc_register_backends(self, register):
            register(Mine())

        @pyasc.hookimpl
        def pyasc_register_kernels(self, register):
            register("pyasc::neg", "minebe", lambda meta, x: pyasc.full(meta.shape, 42.0, device="minebe"))

    runtime_plugin(Pack(), "mine-pack")
    out = pyasc.neg(pyasc.tensor([1.0], device="minebe"))
    np.testing.assert_array_equal(out.numpy(), [42.0])


# ---------------------------------------------------------------------------------------------
# typed, documented register callbacks
# ---------------------------------------------------------------------------------------------

PROTOCOLS = {
    "pyasc_register_backends": hookspecs.RegisterBackend,
    "pyasc_register_ops": hookspecs.RegisterOp,
    "pyasc_register_kernels": hookspecs.RegisterKernel,
    "pyasc_register_commands": hookspecs.RegisterCommand,
}


@pytest.mark.parametrize("hook", sorted(PROTOCOLS))
def test_hookspecs_type_and_document_register(hook):
    spec = getattr(hookspecs, hook)
    proto = PROTOCOLS[hook]
    assert typing.get_origin(proto) is None and proto._is_protocol
    assert inspect.signature(spec).parameters["register"].annotation == proto.__name__
    assert ":param register:" in spec.__doc__ and proto.__name__ in spec.__doc__
    assert "Called" in spec.__doc__  # when, and how often
    assert proto.__call__.__doc__ and len(proto.__call__.__doc__.split()) > 20
    for word in ("register", "raises", "fails", "conflict", "KeyboardInterrupt", "pyasc::"):
        assert word in hookspecs.__doc__, word  # the call contract, errors included


@pytest.mark.parametrize("hook", sorted(PROTOCOLS))
def test_register_callables_match_their_protocol(hook, runtime_plugin):
    """What a hook really receives accepts exactly the Protocol's parameters."""
    seen = {}

    class Spy:
        pass

    def impl(register):
        seen[hook] = register

    setattr(Spy, hook, staticmethod(pyasc.hookimpl(impl)))
    runtime_plugin(Spy(), f"spy-{hook}")
    if hook == "pyasc_register_commands":
        cli.plugin_commands()
    else:
        REGISTRY.ensure()
    got = inspect.signature(seen[hook])
    want = inspect.signature(PROTOCOLS[hook].__call__)
    want = want.replace(parameters=list(want.parameters.values())[1:])  # without self
    assert [(p.name, p.kind, p.default) for p in got.parameters.values()] == [
        (p.name, p.kind, p.default) for p in want.parameters.values()]


def test_plugins_json_after_conflict_has_no_error(dists, capsys):
    dists.make("pyasc-evil-pack", "evil_pack", REDEFINES_ADD, entry_name="evil")
    dists.reload()
    with pytest.warns(pyasc.PyascPluginWarning):
        assert cli.main(["plugins", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["error"] is None
    (evil,) = [p for p in data["plugins"] if p["name"] == "evil"]
    assert evil["status"] == "failed" and "ReservedNamespaceError" in evil["error"]
    assert cli.main(["ops", "--json", "--namespace", "pyasc"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["source"] for r in rows} == {"pyasc-runtime"}
