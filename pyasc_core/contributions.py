"""What the plugins register, merged into conflict-free tables for the registry to dispatch on.

The registry hooks run through the plugin manager's one isolating helper. Contributions merge
built-ins first, then in registration order. A third-party contribution that conflicts with what
is already merged (a backend name or alias, an op, an (op, backend) kernel) or gives a kernel for
an op nobody defines fails its plugin (the later one) and is rolled back whole, so every other op
keeps working; the ``pyasc::`` namespace is refused to third-party plugins outright.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import attrs

from .backend import Backend
from .errors import (
    OpRegistrationError,
    PluginConflictError,
    PyascPluginWarning,
    ReservedNamespaceError,
    did_you_mean,
)
from .opdef import KernelDef, OpDef

HOOK_ORDER = ("pyasc_register_backends", "pyasc_register_ops", "pyasc_register_kernels")
#: the op namespace of pyasc's built-in ops; nobody else may define ops in it
RESERVED_NAMESPACE = "pyasc"
_FIX = "uninstall one of them, or choose plugins with PYASC_PLUGINS"


@attrs.define
class Contribution:
    """What one plugin's hooks registered during one rebuild."""

    plugin: str
    source: str
    builtin: bool
    backends: list[Backend] = attrs.Factory(list)
    ops: list[OpDef] = attrs.Factory(list)
    kernels: list[KernelDef] = attrs.Factory(list)

    def who(self) -> str:
        return self.source if self.source == self.plugin else f"{self.source} (plugin {self.plugin!r})"


@attrs.define
class Tables:
    """The merged registrations: backends by name (with their sources and every alias), ops, kernels."""

    backends: dict[str, Backend] = attrs.Factory(dict)
    sources: dict[str, str] = attrs.Factory(dict)
    aliases: dict[str, str] = attrs.Factory(dict)
    ops: dict[str, OpDef] = attrs.Factory(dict)
    kernels: dict[tuple[str, str], KernelDef] = attrs.Factory(dict)


class _Refused(Exception):
    """A contribution that cannot be merged (the later party of a conflict)."""

    def __init__(self, contribution: Contribution, error: Exception) -> None:
        super().__init__(str(error))
        self.contribution, self.error = contribution, error


def reserved_namespace_error(name: str, who: str) -> ReservedNamespaceError:
    short = name.split("::", 1)[-1]
    return ReservedNamespaceError(
        f"op {name}: the '{RESERVED_NAMESPACE}::' namespace is reserved for pyasc's built-in ops "
        f"(pyasc-runtime), so "
        f"{who} cannot define it. Use your own namespace, e.g. 'mypack::{short}' (a kernel of a "
        f"built-in op for your own backend is fine: register it with pyasc_register_kernels or "
        f"pyasc.library.impl)"
    )


def collect(pm: Any) -> Tables:
    """Call the registry hooks of every plugin of ``pm`` and merge what they register."""
    found: dict[str, Contribution] = {}

    def register_for(plugin: str, hookname: str) -> Callable[..., None]:
        c = found.get(plugin)
        if c is None:
            c = found[plugin] = Contribution(plugin, pm.source_of(plugin), pm.is_builtin(plugin))
        return _ADDERS[hookname](c)

    contributions = [found[name] for name in pm.call_hooks(HOOK_ORDER, register_for) if name in found]
    while True:
        try:
            tables = _merge(contributions)
        except _Refused as refused:
            if refused.contribution.builtin:  # pyasc's own plugins disagree: nobody to blame
                raise refused.error from None
            pm.mark_failed(refused.contribution.plugin, "register", refused.error)
            contributions = [c for c in contributions if c is not refused.contribution]
            continue
        _warn_unknown_backends(tables)
        return tables


def _add_backend(c: Contribution) -> Callable[[Any], None]:
    def register(backend: Backend) -> None:
        if not isinstance(backend, Backend):
            raise OpRegistrationError(f"expected a Backend instance, got {backend!r}")
        c.backends.append(backend)

    return register


def _add_op(c: Contribution) -> Callable[[OpDef], None]:
    def register(op: OpDef) -> None:
        if not isinstance(op, OpDef):
            raise OpRegistrationError(f"pyasc_register_ops expects OpDef objects, got {op!r}")
        if op.namespace == RESERVED_NAMESPACE and not c.builtin:
            raise reserved_namespace_error(op.name, c.who())
        if op.source is None:
            op.source = c.source
        c.ops.append(op)

    return register


def _add_kernel(c: Contribution) -> Callable[..., None]:
    def register(op: str, backend: str, fn: Callable[..., Any], *, source: str | None = None) -> None:
        if not callable(fn):
            raise OpRegistrationError(f"kernel for {op} on {backend} is not callable: {fn!r}")
        c.kernels.append(KernelDef(op, backend, fn, source or c.source))

    return register


_ADDERS = {
    "pyasc_register_backends": _add_backend,
    "pyasc_register_ops": _add_op,
    "pyasc_register_kernels": _add_kernel,
}


def _merge(contributions: list[Contribution]) -> Tables:
    """The tables of ``contributions`` (in their order), or _Refused for the first one that conflicts."""
    t = Tables()
    backend_owner: dict[str, Contribution] = {}
    for c in contributions:
        for b in c.backends:
            for nm in (b.name, *b.aliases):
                prev = backend_owner.get(nm)
                if prev is not None:
                    raise _Refused(c, PluginConflictError(
                        f"backend name {nm!r} is registered by both {prev.who()} and {c.who()}; "
                        f"the later one is skipped. Fix: rename the backend, or {_FIX}"
                    ))
                backend_owner[nm] = c
                t.aliases[nm] = b.name
            t.backends[b.name] = b
            t.sources[b.name] = c.source
    op_owner: dict[str, Contribution] = {}
    for c in contributions:
        for op in c.ops:
            prev = op_owner.get(op.name)
            if prev is not None:
                raise _Refused(c, PluginConflictError(
                    f"op {op.name} is defined by both {prev.who()} and {c.who()}; the later one is "
                    f"skipped, every other op keeps working. Fix: {_FIX} (namespaces keep packs apart)"
                ))
            op_owner[op.name] = c
            t.ops[op.name] = op
    kernel_owner: dict[tuple[str, str], Contribution] = {}
    for c in contributions:
        for k in c.kernels:
            bname = t.aliases.get(k.backend, k.backend)
            if k.op not in t.ops:
                error = OpRegistrationError(
                    f"{k.source} registers a kernel for unknown op {k.op!r} on {k.backend!r}."
                    f"{did_you_mean(k.op, t.ops)}"
                )
                if c.builtin:  # e.g. a runtime kernel whose op pack is gone: skip just the kernel
                    warnings.warn(f"{error} The kernel is unused.", PyascPluginWarning, stacklevel=4)
                    continue
                raise _Refused(c, error)
            prev = kernel_owner.get((k.op, bname))
            if prev is not None:
                raise _Refused(c, PluginConflictError(
                    f"the kernel of {k.op} on backend {bname!r} is registered by both {prev.who()} and "
                    f"{c.who()}; the later one is skipped. Fix: {_FIX}"
                ))
            kernel_owner[(k.op, bname)] = c
            t.kernels[(k.op, bname)] = k
    return t


def _warn_unknown_backends(t: Tables) -> None:
    for (op, bname), k in t.kernels.items():
        if bname not in t.backends:  # a typo would otherwise leave the kernel unused, silently
            warnings.warn(
                f"{k.source} registers a kernel of {op} for backend {k.backend!r}, which no "
                f"plugin provides.{did_you_mean(k.backend, t.aliases)} Known backends: "
                f"{', '.join(sorted(t.backends))}. The kernel is unused.",
                PyascPluginWarning,
                stacklevel=4,
            )
