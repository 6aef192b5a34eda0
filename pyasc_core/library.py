"""Defining ops and kernels from Python code at run time (``pyasc.library``), in torch.library's spirit.

What user code defines here is served to the registry through the same hooks as every plugin:
this module's ``PLUGIN`` is a built-in plugin whose hook implementations yield those definitions.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from . import dtypes as _dt
from .errors import OpRegistrationError, PluginConflictError, UnknownOpError, did_you_mean
from .hookspecs import hookimpl
from .opdef import KernelDef, OpDef, check_op_name
from .registry import REGISTRY
from .binding import schema_from_signature
from .dispatch import OpHandle


class RuntimeLibrary:
    """Ops and kernels defined by user code; a plugin like any other."""

    def __init__(self) -> None:
        self.ops: dict[str, OpDef] = {}
        self.kernels: dict[tuple[str, str], KernelDef] = {}

    @hookimpl
    def pyasc_register_ops(self, register: Callable[[OpDef], None]) -> None:
        for op in self.ops.values():
            register(op)

    @hookimpl
    def pyasc_register_kernels(self, register: Callable[..., None]) -> None:
        for k in self.kernels.values():
            register(k.op, k.backend, k.fn, source=k.source)

    def add_op(self, op: OpDef) -> None:
        REGISTRY.ensure()
        existing = REGISTRY.ops.get(op.name)
        if existing is not None and existing.source != op.source:
            raise PluginConflictError(
                f"op {op.name} is already defined by {existing.source}; {op.source} cannot define it "
                "again. Choose another name (namespaces keep packs apart)."
            )
        self.ops[op.name] = op
        REGISTRY.invalidate()

    def add_kernel(self, k: KernelDef) -> None:
        REGISTRY.ensure()
        if k.op not in REGISTRY.ops:  # refuse now, rather than break every later registry rebuild
            raise UnknownOpError(
                f"cannot register a kernel for {k.op!r} on {k.backend!r}: no op of that name is "
                f"defined.{did_you_mean(k.op, REGISTRY.ops)} Define it first with "
                "pyasc.library.define(...) or install the op pack that provides it"
            )
        existing = REGISTRY.kernels.get((k.op, k.backend))
        if existing is not None and existing.source != k.source:
            raise PluginConflictError(
                f"the kernel of {k.op} on {k.backend!r} is already registered by {existing.source}; "
                f"{k.source} cannot register another"
            )
        self.kernels[(k.op, k.backend)] = k
        REGISTRY.invalidate()

    def remove(self, name: str) -> None:
        """Forget an op (and its kernels) defined at run time."""
        self.ops.pop(name, None)
        for key in [k for k in self.kernels if k[0] == name]:
            del self.kernels[key]
        REGISTRY.invalidate()


PLUGIN = RuntimeLibrary()


def _caller_source(depth: int = 2) -> str:
    return f"module:{sys._getframe(depth).f_globals.get('__name__', '?')}"


def define(name: str, schema: str, *, meta: Callable[..., Any], reference: Callable[..., Any],
           dtypes: Any = _dt.ANY, doc: str = "", mutates: tuple[str, ...] = (),
           sample_inputs: Callable[..., Any] | None = None, special_values: bool = True,
           bench_inputs: Callable[..., Any] | None = None, flops: Callable[..., Any] | None = None,
           torch: str | Callable[..., Any] | None = None) -> Any:
    """Define an op from Python: ``define("mypack::scale", "(Tensor x, *, float s) -> Tensor", ...)``.

    The optional facts land on the op's record (OpDef) as for a built-in op: ``sample_inputs``
    and ``special_values`` (what ``pyasc check`` runs), ``bench_inputs`` and ``flops`` (what
    ``pyasc bench`` times) and ``torch`` (its torch equivalent).
    """
    from .dispatch import get_op

    op = OpDef(name, schema, dtypes=dtypes, meta=meta, reference=reference, doc=doc,
               mutates=mutates, source=_caller_source(), sample_inputs=sample_inputs,
               special_values=special_values, bench_inputs=bench_inputs, flops=flops, torch=torch)
    PLUGIN.add_op(op)
    return get_op(name)


def impl(name: str, backend: str, fn: Callable[..., Any] | None = None) -> Any:
    """Register ``fn(out_meta, *args)`` as the kernel of op ``name`` on ``backend`` (or decorate)."""
    check_op_name(name)
    source = _caller_source()

    def deco(f: Callable[..., Any]) -> Callable[..., Any]:
        PLUGIN.add_kernel(KernelDef(name, backend, f, source))
        return f

    return deco if fn is None else deco(fn)


def _default_namespace(fn: Callable[..., Any]) -> str:
    module = getattr(fn, "__module__", None) or "user"
    top = module.split(".")[0]
    if top == "__main__":
        return "user"
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in top)


def op(fn: Callable[..., Any] | None = None, *, name: str | None = None,
       dtypes: Any = _dt.ANY, doc: str | None = None) -> Any:
    """Define a composite op from a Python function over other ops; it runs on every backend.

    The schema comes from the annotations (pyasc.Tensor, int, float, bool, str); the name defaults
    to ``<top-level module>::<function name>`` (``user::`` for ``__main__``).
    """

    if isinstance(fn, str):  # @pyasc.op("mypack::name")
        name, fn = fn, None
    if fn is not None and not callable(fn):
        raise OpRegistrationError(
            f"pyasc.op decorates a function (or takes its name: @pyasc.op('mypack::name')), got "
            f"{type(fn).__name__} {fn!r:.60}"
        )

    def deco(f: Callable[..., Any]) -> Any:
        from .dispatch import get_op

        opname = name or f"{_default_namespace(f)}::{f.__name__}"
        opdef = OpDef(opname, schema_from_signature(f), dtypes=dtypes, composite=f,
                      doc=doc if doc is not None else (f.__doc__ or ""),
                      source=f"module:{getattr(f, '__module__', '?')}")
        PLUGIN.add_op(opdef)
        return get_op(opname)

    return deco if fn is None else deco(fn)


def _register_kernel(self: OpHandle, backend: str, fn: Callable[..., Any] | None = None) -> Any:
    """Register a kernel for this op on ``backend`` (decorator or direct call)."""
    return impl(self.name, backend, fn)


OpHandle.register_kernel = _register_kernel  # dispatch sits below this module: attached from here
