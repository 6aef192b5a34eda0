"""The registry: backends, ops and kernels read from the plugin hooks into plain dispatch tables.

Hooks run only when the registry is rebuilt (after something registers); the hot path reads
``REGISTRY.table[(op, backend)]``, a plain callable.
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Callable
from typing import Any

import attrs

from .backend import Backend
from .device import Device
from .errors import (
    PyascPluginWarning,
    BackendConfigError,
    BackendUnavailableError,
    OpRegistrationError,
    PluginConflictError,
    UnknownBackendError,
    UnknownOpError,
    did_you_mean,
)
from .opdef import KernelDef, OpDef

HOOK_ORDER = ("pyasc_register_backends", "pyasc_register_ops", "pyasc_register_kernels")


@attrs.define
class _Contribution:
    plugin: str
    source: str
    backends: list[Backend] = attrs.Factory(list)
    ops: list[OpDef] = attrs.Factory(list)
    kernels: list[KernelDef] = attrs.Factory(list)


class Registry:
    """Dispatch tables rebuilt from the plugin manager whenever it changes."""

    def __init__(self) -> None:
        self.version = 0
        self._built_version = -1
        self._lock = threading.RLock()
        self.ops: dict[str, OpDef] = {}
        self.kernels: dict[tuple[str, str], KernelDef] = {}
        self.backends: dict[str, Backend] = {}
        self.backend_sources: dict[str, str] = {}
        self.aliases: dict[str, str] = {}
        self.table: dict[tuple[str, str], Callable[..., Any]] = {}
        self._availability: dict[str, tuple[bool, str]] = {}
        #: backends installed but misconfigured (their availability() raised BackendConfigError)
        self._config_errors: dict[str, str] = {}
        #: builds the kernel of a composite op (op -> callable); set by pyasc_core.dispatch, which
        #: knows what an op must return (the registry sits below Tensor and cannot check it)
        self.composite_kernel: Callable[[OpDef], Callable[..., Any]] | None = None

    def invalidate(self) -> None:
        with self._lock:
            self.version += 1

    def forget_availability(self) -> None:
        """Drop the cached availability of every backend (the next query probes again)."""
        with self._lock:
            self._availability = {}
            self._config_errors = {}

    def ensure(self) -> None:
        if self._built_version != self.version:
            with self._lock:
                if self._built_version != self.version:
                    self._rebuild()

    # -- building ---------------------------------------------------------------------------
    def _collect(self) -> list[_Contribution]:
        from .plugins import call_hook, get_plugin_manager, isolates

        pm = get_plugin_manager()
        per_plugin: dict[str, list[tuple[int, Any]]] = {}
        for order, hookname in enumerate(HOOK_ORDER):
            for impl in getattr(pm.hook, hookname).get_hookimpls():
                per_plugin.setdefault(impl.plugin_name, []).append((order, impl))
        out: list[_Contribution] = []
        for pname, impls in per_plugin.items():
            c = _Contribution(pname, pm.source_of(pname))
            adders = (self._adder(c.backends, Backend), self._op_adder(c), self._kernel_adder(c))
            try:
                for order, impl in sorted(impls, key=lambda x: x[0]):
                    call_hook(impl, adders[order])
            except BaseException as exc:  # sys.exit() in a plugin hook is contained too
                if not isolates(exc):
                    raise
                pm.mark_failed(pname, "register", exc)
                continue
            out.append(c)
        return out

    @staticmethod
    def _adder(into: list, cls: type) -> Callable[[Any], None]:
        def register(obj: Any) -> None:
            if not isinstance(obj, cls):
                raise OpRegistrationError(f"expected a {cls.__name__} instance, got {obj!r}")
            into.append(obj)

        return register

    @staticmethod
    def _op_adder(c: _Contribution) -> Callable[[OpDef], None]:
        def register(op: OpDef) -> None:
            if not isinstance(op, OpDef):
                raise OpRegistrationError(f"pyasc_register_ops expects OpDef objects, got {op!r}")
            if op.source is None:
                op.source = c.source
            c.ops.append(op)

        return register

    @staticmethod
    def _kernel_adder(c: _Contribution) -> Callable[..., None]:
        def register(op: str, backend: str, fn: Callable[..., Any], *, source: str | None = None) -> None:
            if not callable(fn):
                raise OpRegistrationError(f"kernel for {op} on {backend} is not callable: {fn!r}")
            c.kernels.append(KernelDef(op, backend, fn, source or c.source))

        return register

    @staticmethod
    def _drop_dangling_kernels(contributions: list[_Contribution]) -> list[_Contribution]:
        """A plugin with a kernel for an op nobody defines (e.g. its op pack failed to load) failed
        to register: report it and carry on without it, as for any other broken plugin."""
        from .plugins import get_plugin_manager

        while True:
            names = {op.name for c in contributions for op in c.ops}
            bad = next(((c, k) for c in contributions for k in c.kernels if k.op not in names), None)
            if bad is None:
                return contributions
            c, k = bad
            get_plugin_manager().mark_failed(c.plugin, "register", OpRegistrationError(
                f"{k.source} registers a kernel for unknown op {k.op!r} on {k.backend!r}."
                f"{did_you_mean(k.op, names)}"
            ))
            contributions = [other for other in contributions if other is not c]

    def _rebuild(self) -> None:
        contributions = self._drop_dangling_kernels(self._collect())
        backends: dict[str, Backend] = {}
        sources: dict[str, str] = {}
        aliases: dict[str, str] = {}
        ops: dict[str, OpDef] = {}
        kernels: dict[tuple[str, str], KernelDef] = {}
        for c in contributions:
            for b in c.backends:
                for nm in (b.name, *b.aliases):
                    owner = aliases.get(nm)
                    if owner is not None:
                        raise PluginConflictError(
                            f"backend name {nm!r} is registered by both {sources[owner]} and {c.source}; "
                            "uninstall one of them or pick plugins with PYASC_PLUGINS"
                        )
                    aliases[nm] = b.name
                backends[b.name] = b
                sources[b.name] = c.source
        for c in contributions:
            for op in c.ops:
                prev = ops.get(op.name)
                if prev is not None:
                    raise PluginConflictError(
                        f"op {op.name} is defined by both {prev.source} and {op.source}; "
                        "uninstall one of them or pick plugins with PYASC_PLUGINS"
                    )
                ops[op.name] = op
        for c in contributions:
            for k in c.kernels:
                bname = aliases.get(k.backend, k.backend)
                if k.op not in ops:
                    raise OpRegistrationError(
                        f"{k.source} registers a kernel for unknown op {k.op!r} on {bname!r}"
                        f"{did_you_mean(k.op, ops)}"
                    )
                prev_k = kernels.get((k.op, bname))
                if prev_k is not None:
                    raise PluginConflictError(
                        f"the kernel of {k.op} on backend {bname!r} is registered by both "
                        f"{prev_k.source} and {k.source}; uninstall one of them or pick plugins "
                        "with PYASC_PLUGINS"
                    )
                kernels[(k.op, bname)] = k
                if bname not in backends:  # a typo would otherwise leave the kernel unused, silently
                    warnings.warn(
                        f"{k.source} registers a kernel of {k.op} for backend {k.backend!r}, which no "
                        f"plugin provides.{did_you_mean(k.backend, aliases)} Known backends: "
                        f"{', '.join(sorted(backends))}. The kernel is unused.",
                        PyascPluginWarning,
                        stacklevel=2,
                    )
        table: dict[tuple[str, str], Callable[..., Any]] = {}
        for name, op in ops.items():
            for bname, backend in backends.items():
                fn = _resolve_kernel(op, backend, kernels.get((name, bname)), self.composite_kernel)
                if fn is not None:
                    table[(name, bname)] = fn
        self.backends, self.backend_sources, self.aliases = backends, sources, aliases
        self.ops, self.kernels, self.table = ops, kernels, table
        self._availability = {
            k: v for k, v in self._availability.items() if k in backends
        }
        self._config_errors = {k: v for k, v in self._config_errors.items() if k in backends}
        self._built_version = self.version

    # -- queries ----------------------------------------------------------------------------
    def op(self, name: str) -> OpDef:
        self.ensure()
        if not isinstance(name, str):
            raise UnknownOpError(
                f"an op name must be a string such as 'pyasc::add' or 'mypack::gelu', got "
                f"{type(name).__name__} {name!r} (list the ops with 'pyasc ops')"
            )
        op = self.ops.get(name)
        if op is None:
            if "::" not in name and f"pyasc::{name}" in self.ops:
                return self.ops[f"pyasc::{name}"]
            raise UnknownOpError(
                f"no op named {name!r} is registered.{did_you_mean(name, self.ops)} "
                "(list them with 'pyasc ops'; op packs must be installed to define theirs)"
            )
        return op

    def backend(self, name: str) -> Backend:
        """A registered backend by name or alias (available or not)."""
        self.ensure()
        if not isinstance(name, str):
            raise UnknownBackendError(
                f"a backend name must be a string such as 'numpy' or 'sim', got {type(name).__name__} "
                f"{name!r}. Known backends: {', '.join(sorted(self.backends))}"
            )
        real = self.aliases.get(name)
        if real is None:
            raise UnknownBackendError(
                f"unknown backend {name!r}.{did_you_mean(name, self.aliases)} "
                f"Known backends: {self.describe_backends()}"
            )
        return self.backends[real]

    def availability(self, name: str) -> tuple[bool, str]:
        backend = self.backend(name)
        got = self._availability.get(backend.name)
        if got is None:
            try:
                got = backend.availability()
            except BackendConfigError as exc:  # installed, but its settings are wrong: never skipped
                got = (False, str(exc))
                self._config_errors[backend.name] = str(exc)
            except Exception as exc:  # a probe that crashes means unavailable, with the reason
                got = (False, f"availability check failed: {exc}")
            self._availability[backend.name] = got
        return got

    def config_error(self, name: str) -> BackendConfigError | None:
        """The error of a backend that is installed but misconfigured (None when it is not)."""
        backend = self.backend(name)
        self.availability(backend.name)
        text = self._config_errors.get(backend.name)
        return None if text is None else BackendConfigError(text)

    def available_backend(self, name: str) -> Backend:
        backend = self.backend(name)
        ok, reason = self.availability(name)
        if not ok:
            err = self.config_error(name)
            if err is not None:
                raise err
            raise BackendUnavailableError(
                f"backend {backend.name!r} is not available: {reason}. "
                f"Known backends: {self.describe_backends()}"
            )
        return backend

    def describe_backends(self) -> str:
        parts = []
        for bname in sorted(self.backends):
            ok, reason = self.availability(bname)
            parts.append(f"{bname} (available)" if ok else f"{bname} (unavailable: {reason})")
        return "; ".join(parts)


def _resolve_kernel(op: OpDef, backend: Backend, k: KernelDef | None,
                    composite: Callable[[OpDef], Callable[..., Any]] | None) -> Callable[..., Any] | None:
    if k is not None:
        return backend.adapt_kernel(k.fn)
    fn = backend.default_kernel(op)
    if fn is not None:
        return fn
    if op.composite is not None and composite is not None:
        return composite(op)
    return None


REGISTRY = Registry()


def backend_for_device(device: Device) -> Backend:
    """The backend that owns ``device`` (hot enough to avoid a rebuild check when built)."""
    b = REGISTRY.backends.get(device.type)
    if b is None:
        REGISTRY.ensure()
        b = REGISTRY.backend(device.type)
    return b
