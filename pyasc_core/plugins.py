"""The plugin manager: built-ins, entry-point plugins (group ``pyasc``) and runtime registrations.

Like pytest: built-in plugins are registered through the same hooks as third-party ones, and a
plugin that fails to import or register is reported (a warning, and ``pyasc plugins``) while the
rest load (whatever it raises, ``SystemExit`` included; only ``KeyboardInterrupt`` goes through).
``PYASC_DISABLE_PLUGIN_AUTOLOAD=1`` skips entry points (a value other than 1/0, true/false,
yes/no, on/off raises); ``PYASC_PLUGINS=a,b`` loads
only the named ones (entry-point or distribution names), even when autoload is disabled.
Entry points of pyasc's own distribution (its sim and npu backends) always load.

Hooks are called through one helper, :meth:`PyascPluginManager.call_hooks`, which isolates each
plugin. This module sits below the registry and never imports it: the registry (or anything else)
learns about plugin changes through a listener given to :func:`subscribe`.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import os
import re
import threading
import traceback
import warnings
from collections.abc import Callable, Sequence
from itertools import count
from typing import Any, Literal, Protocol

import attrs
import pluggy

from . import hookspecs
from .env import env_flag
from .errors import PluginConflictError, PluginError, PluginHookError, PyascPluginWarning, did_you_mean

ENTRY_POINT_GROUP = "pyasc"
OWN_DISTRIBUTION = "pyasc-runtime"
BUILTIN_MODULES = (
    "pyasc_core.reference_backend",
    "pyasc_core.meta_backend",
    "pyasc_core.builtin_ops",
    "pyasc_core.library",
)


@attrs.define
class PluginRecord:
    """What ``pyasc plugins`` shows about one plugin."""

    name: str
    dist: str
    version: str
    kind: str  # "builtin" | "entrypoint" | "runtime"
    status: str  # "loaded" | "failed" | "skipped"
    module: str = ""
    error: str = ""

    def as_dict(self) -> dict[str, str]:
        return attrs.asdict(self)


def _normalize(name: str) -> str:
    """Distribution and entry-point names compare like PyPI's (PEP 503): case, '-', '_', '.' fold."""
    return re.sub(r"[-_.]+", "-", name.strip()).lower()


def _isolates(exc: BaseException) -> bool:
    """True for what a broken plugin may raise and pyasc contains (everything, ``sys.exit()``
    included, but ``KeyboardInterrupt``: the user's Ctrl-C must still stop the program)."""
    return not isinstance(exc, KeyboardInterrupt)


def _call_impl(impl: Any, register: Any) -> None:
    """Run one hook implementation with its ``register`` callable. A hook that returns values
    instead of registering them would otherwise contribute nothing, silently: that is an error."""
    kwargs = {"register": register} if "register" in impl.argnames else {}
    result = impl.function(**kwargs)
    if result is not None:
        raise PluginHookError(
            f"its hook {impl.function.__name__} returned {type(result).__name__} {result!r:.80} instead "
            f"of registering it; pyasc ignores return values: call register(...) for each item "
            f"(e.g. 'for item in items: register(item)') and return nothing"
        )


#: what a listener hears: a plugin was registered, unregistered or marked failed (``name`` set);
#: the manager finished loading, was reset (tests), or its records are about to be listed
#: (``name`` None; a listener that reads hooks lazily, like the registry, reads them now)
PluginEvent = Literal["registered", "unregistered", "failed", "loaded", "reset", "listing"]


class PluginListener(Protocol):
    """A callback subscribed with :func:`subscribe`."""

    def __call__(self, event: PluginEvent, name: str | None) -> None: ...


_LISTENERS: list[PluginListener] = []


def subscribe(listener: PluginListener) -> None:
    """Call ``listener(event, name)`` on every plugin change (kept across :func:`reset_for_tests`)."""
    if listener not in _LISTENERS:
        _LISTENERS.append(listener)


def unsubscribe(listener: PluginListener) -> None:
    """Stop calling a listener given to :func:`subscribe` (unknown ones are ignored)."""
    if listener in _LISTENERS:
        _LISTENERS.remove(listener)


def _notify(event: PluginEvent, name: str | None = None) -> None:
    for listener in list(_LISTENERS):
        listener(event, name)


def _own_version() -> str:
    try:
        return importlib.metadata.version(OWN_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"


class PyascPluginManager(pluggy.PluginManager):
    """pluggy's manager plus provenance records, robust entry-point loading, the one isolating
    way to call hooks (:meth:`call_hooks`) and change notifications (:func:`subscribe`)."""

    def __init__(self) -> None:
        super().__init__("pyasc")
        self.add_hookspecs(hookspecs)
        self.records: dict[str, PluginRecord] = {}
        self._seq: dict[str, int] = {}  # registration order: the later plugin loses a conflict
        self._counter = count()

    def register(self, plugin: Any, name: str | None = None, *, dist: str | None = None,
                 version: str = "", kind: str = "runtime") -> str | None:
        try:
            registered = super().register(plugin, name)
        except (ValueError, pluggy.PluginValidationError) as exc:  # name taken, bad hookimpl, ...
            lines = str(exc.args[0] if exc.args else exc).splitlines() or [type(exc).__name__]
            # pluggy's "already registered" message goes on to dump every plugin: keep its first line
            detail = lines[0] if isinstance(exc, ValueError) else "; ".join(lines)
            raise PluginError(f"cannot register plugin {name or plugin!r}: {detail}") from None
        if registered is not None:
            unknown = sorted(
                hc.name for hc in self.get_hookcallers(plugin) or ()
                if not hc.has_spec()
                and any(i.plugin is plugin and not i.optionalhook for i in hc.get_hookimpls())
            )
            if unknown:  # a misspelt hook would silently do nothing (pytest refuses these too)
                super().unregister(plugin, registered)
                known = [n for n in dir(hookspecs) if n.startswith("pyasc_")]
                raise PluginError(
                    f"plugin {registered!r} implements unknown hook(s) {', '.join(unknown)}; pyasc's "
                    f"hooks are {', '.join(known)}.{did_you_mean(unknown[0], known)}"
                )
            module = getattr(plugin, "__name__", type(plugin).__name__)
            self.records[registered] = PluginRecord(
                registered, dist or f"module:{module}", version, kind, "loaded", module
            )
            self._seq[registered] = next(self._counter)
            _notify("registered", registered)
        return registered

    def unregister(self, plugin: Any = None, name: str | None = None) -> Any:
        if name is None:
            name = self.get_name(plugin)
        out = super().unregister(plugin, name)
        self.records.pop(name, None)
        self._seq.pop(name, None)
        _notify("unregistered", name)
        return out

    def source_of(self, plugin_name: str) -> str:
        """Who a plugin's registrations are credited to: its distribution (or ``module:...``)."""
        rec = self.records.get(plugin_name)
        return rec.dist if rec else plugin_name

    def is_builtin(self, plugin_name: str) -> bool:
        """Whether the plugin is part of pyasc itself (built-ins win every conflict)."""
        rec = self.records.get(plugin_name)
        return rec is not None and rec.kind == "builtin"

    def call_order(self, plugin_name: str) -> tuple[bool, int]:
        """Sort key of the plugins whose hooks are called: built-ins first, then by registration."""
        return (not self.is_builtin(plugin_name), self._seq.get(plugin_name, 1 << 62))

    def call_hooks(self, hooknames: Sequence[str],
                   register_for: Callable[[str, str], Callable[..., None]], *,
                   stage: str = "register") -> list[str]:
        """Call every plugin's implementations of ``hooknames``, isolated plugin by plugin.

        Plugins run in :meth:`call_order`; each runs its hooks in the order of ``hooknames``, the
        hook ``h`` of plugin ``p`` getting ``register=register_for(p, h)``. A plugin whose hook
        raises (anything but ``KeyboardInterrupt``), or returns values instead of registering
        them, is marked failed (:meth:`mark_failed`, a warning naming ``stage``) and the next
        plugin runs. Returns the names of the plugins whose hooks all ran, in call order; the
        caller drops whatever the others registered.
        """
        per_plugin: dict[str, list[tuple[int, Any]]] = {}
        for order, hookname in enumerate(hooknames):
            for impl in getattr(self.hook, hookname).get_hookimpls():
                per_plugin.setdefault(impl.plugin_name, []).append((order, impl))
        ok: list[str] = []
        for name in sorted(per_plugin, key=self.call_order):
            try:
                for order, impl in sorted(per_plugin[name], key=lambda pair: pair[0]):
                    _call_impl(impl, register_for(name, hooknames[order]))
            except BaseException as exc:  # sys.exit() in a plugin hook is contained too
                if not _isolates(exc):
                    raise
                self.mark_failed(name, stage, exc)
                continue
            ok.append(name)
        return ok

    def mark_failed(self, name: str, stage: str, exc: BaseException, *, dist: str = "",
                    version: str = "", kind: str = "entrypoint", module: str = "") -> None:
        """Record and warn about a broken plugin; unregister it so the rest keep working."""
        detail = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        rec = self.records.get(name)
        if rec is None:
            rec = PluginRecord(name, dist or name, version, kind, "failed", module)
            self.records[name] = rec
        rec.status = "failed"
        rec.error = f"{stage} failed: {detail}"
        plugin = self.get_plugin(name)
        if plugin is not None:
            super().unregister(plugin, name)
            self._seq.pop(name, None)
        _notify("failed", name)
        warnings.warn(
            f"pyasc plugin {name!r} ({rec.dist}) failed to {stage} and was skipped: {detail}. "
            "Run 'pyasc plugins' for details; set PYASC_PLUGINS to choose plugins explicitly.",
            PyascPluginWarning,
            stacklevel=3,
        )

    def load_builtins(self) -> None:
        version = _own_version()
        for modname in BUILTIN_MODULES:
            module = importlib.import_module(modname)
            plugin = getattr(module, "PLUGIN", module)
            self.register(plugin, modname, dist=OWN_DISTRIBUTION, version=version, kind="builtin")

    def load_entrypoints(self) -> None:
        """Load the ``pyasc`` entry points, honouring the environment switches."""
        allow_env = os.environ.get("PYASC_PLUGINS", "")
        allow = {_normalize(a) for a in allow_env.split(",") if a.strip()}
        matched: set[str] = set()
        autoload = not env_flag("PYASC_DISABLE_PLUGIN_AUTOLOAD")
        seen: set[tuple[str, str]] = set()
        for ep in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            dist = ep.dist.name if ep.dist is not None else "?"
            version = ep.dist.version if ep.dist is not None else ""
            if (ep.name, ep.value) in seen:
                continue
            seen.add((ep.name, ep.value))
            taken = self.records.get(ep.name) if self.has_plugin(ep.name) else None
            wanted_as = {_normalize(ep.name), _normalize(dist)} & allow
            matched |= wanted_as
            if dist == OWN_DISTRIBUTION:  # pyasc's own backends are built-ins, like pytest's
                if taken is None:
                    self._load_entrypoint(ep, dist, version, kind="builtin")
                continue
            wanted = bool(wanted_as)
            reason = ""
            if allow and not wanted:
                reason = "not in PYASC_PLUGINS"
            elif not autoload and not wanted:
                reason = "PYASC_DISABLE_PLUGIN_AUTOLOAD is set"
            if taken is not None:
                if not reason and taken.dist != dist:  # never drop a wanted plugin silently
                    self.mark_failed(f"{ep.name} ({dist})", "load", PluginConflictError(
                        f"its entry-point name {ep.name!r} (group {ENTRY_POINT_GROUP!r}) is already "
                        f"taken by {taken.dist}; rename one of the entry points, or choose one "
                        "distribution with PYASC_PLUGINS"
                    ), dist=dist, version=version, module=ep.value)
                continue
            if reason:
                self.records[ep.name] = PluginRecord(
                    ep.name, dist, version, "entrypoint", "skipped", ep.value, reason
                )
                continue
            self._load_entrypoint(ep, dist, version, kind="entrypoint")
        for name in sorted(allow - matched):
            warnings.warn(
                f"PYASC_PLUGINS names {name!r}, but no installed plugin has that entry-point or "
                "distribution name; see 'pyasc plugins' for the installed ones",
                PyascPluginWarning,
                stacklevel=3,
            )

    def _load_entrypoint(self, ep: Any, dist: str, version: str, kind: str) -> None:
        try:
            obj = ep.load()
        except BaseException as exc:  # a broken plugin must not break pyasc, even with sys.exit()
            if not _isolates(exc):
                raise
            self.mark_failed(ep.name, "import", exc, dist=dist, version=version, kind=kind, module=ep.value)
            return
        try:
            plugin = getattr(obj, "PLUGIN", obj)
            self.register(plugin, ep.name, dist=dist, version=version, kind=kind)
        except BaseException as exc:
            if not _isolates(exc):
                raise
            self.mark_failed(ep.name, "register", exc, dist=dist, version=version, kind=kind, module=ep.value)


_PM: PyascPluginManager | None = None
_PM_LOCK = threading.RLock()


def get_plugin_manager() -> PyascPluginManager:
    """The process-wide plugin manager, created (and plugins loaded) on first use."""
    global _PM
    if _PM is None:
        with _PM_LOCK:
            if _PM is None:
                pm = PyascPluginManager()
                pm.load_builtins()
                pm.load_entrypoints()
                _PM = pm
                _notify("loaded")
    return _PM


def register(plugin: Any, name: str | None = None) -> str | None:
    """Register a plugin object (module or instance with hookimpls) at run time."""
    if name is not None and not isinstance(name, str):
        raise PluginError(f"a plugin name must be a string, got {type(name).__name__} {name!r}")
    pm = get_plugin_manager()
    registered = pm.register(plugin, name, kind="runtime")
    if registered is not None and not pm.get_hookcallers(plugin):  # it would do nothing, silently
        pm.unregister(plugin, registered)
        known = ", ".join(n for n in dir(hookspecs) if n.startswith("pyasc_"))
        raise PluginError(
            f"{type(plugin).__name__} {plugin!r:.60} implements none of pyasc's hooks ({known}); "
            "register a module or object whose hook functions are decorated with @pyasc.hookimpl"
        )
    return registered


def unregister(plugin: Any = None, name: str | None = None) -> Any:
    """Remove a plugin registered with :func:`register` (by object or by name)."""
    pm = get_plugin_manager()
    known = pm.get_plugin(name) is not None if name is not None else pm.is_registered(plugin)
    if not known:
        names = sorted(n for n, r in pm.records.items() if r.status == "loaded")
        raise PluginError(
            f"no plugin {name if name is not None else plugin!r} is registered; registered: {', '.join(names)}"
        )
    return pm.unregister(plugin, name)


def list_plugins() -> list[PluginRecord]:
    """Every plugin pyasc knows of, loaded, failed or skipped (listeners such as the registry
    call the hooks first, so that a plugin that fails to register shows as failed)."""
    pm = get_plugin_manager()
    try:
        _notify("listing")
    except Exception:  # a conflict among built-ins is shown by the caller; the records still help
        pass
    return list(pm.records.values())


def reset_for_tests() -> None:
    """Forget the plugin manager so the next use reloads plugins (reads the environment again)."""
    global _PM
    with _PM_LOCK:
        _PM = None
    _notify("reset")  # the registry forgets its tables and backend probes (PYASC_ACL_LIBRARY, ...)
