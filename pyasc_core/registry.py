"""The registry: backends, ops and kernels read from the plugin hooks into plain dispatch tables.

Hooks run only when the registry is rebuilt (after something registers: the plugin manager tells
the registry through the listener it subscribes); the hot path reads
``REGISTRY.table[(op, backend)]``, a plain callable.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from . import plugins as _plugins
from .backend import Backend
from .contributions import collect
from .device import Device
from .errors import (
    BackendConfigError,
    BackendUnavailableError,
    OpRegistrationError,
    UnknownBackendError,
    UnknownOpError,
    did_you_mean,
)
from .opdef import KernelDef, OpDef


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

    def _on_plugin_change(self, event: str, name: str | None) -> None:
        """The listener the registry subscribes with the plugin manager (which cannot import it)."""
        if event == "listing":  # read the hooks now, so that plugins failing to register show up
            self.ensure()
            return
        if event == "reset":  # backends probe again (e.g. after PYASC_ACL_LIBRARY changed)
            self.forget_availability()
        self.invalidate()

    # -- building ---------------------------------------------------------------------------
    def _rebuild(self) -> None:
        got = collect(_plugins.get_plugin_manager())
        backends, sources, aliases, ops, kernels = got.backends, got.sources, got.aliases, got.ops, got.kernels
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
_plugins.subscribe(REGISTRY._on_plugin_change)


def backend_for_device(device: Device) -> Backend:
    """The backend that owns ``device`` (hot enough to avoid a rebuild check when built)."""
    b = REGISTRY.backends.get(device.type)
    if b is None:
        REGISTRY.ensure()
        b = REGISTRY.backend(device.type)
    return b
