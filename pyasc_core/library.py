"""Defining ops and kernels from Python code at run time (``pyasc.library``), in torch.library's spirit.

What user code defines here is served to the registry through the same hooks as every plugin:
this module's ``PLUGIN`` is a built-in plugin whose hook implementations yield those definitions.
``define``/``impl``/``op`` register for good; a :class:`Library` scope registers removably.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from typing import Any

from . import dtypes as _dt
from .contributions import RESERVED_NAMESPACE, reserved_namespace_error
from .errors import (
    OpRegistrationError,
    PluginConflictError,
    ReservedNamespaceError,
    UnknownOpError,
    did_you_mean,
)
from .hookspecs import RegisterKernel, RegisterOp, hookimpl
from .opdef import KernelDef, OpDef, check_op_name
from .registry import REGISTRY
from .binding import schema_from_signature
from .dispatch import OpHandle, get_op

_NAMESPACE_RE = re.compile(r"^[A-Za-z_]\w*$")


class RuntimeLibrary:
    """Ops and kernels defined by user code; a plugin like any other."""

    def __init__(self) -> None:
        self.ops: dict[str, OpDef] = {}
        self.kernels: dict[tuple[str, str], KernelDef] = {}

    @hookimpl
    def pyasc_register_ops(self, register: RegisterOp) -> None:
        for op in self.ops.values():
            register(op)

    @hookimpl
    def pyasc_register_kernels(self, register: RegisterKernel) -> None:
        for k in self.kernels.values():
            register(k.op, k.backend, k.fn, source=k.source)

    def add_op(self, op: OpDef) -> None:
        if op.namespace == RESERVED_NAMESPACE:
            raise reserved_namespace_error(op.name, str(op.source))
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
        existing = REGISTRY.kernels.get((k.op, REGISTRY.aliases.get(k.backend, k.backend)))
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

    def discard(self, ops: Iterable[OpDef], kernels: Iterable[KernelDef]) -> None:
        """Forget exactly these definitions (those since replaced stay), and every runtime kernel
        of the ops removed (they could not run without their op)."""
        gone = set()
        for op in ops:
            if self.ops.get(op.name) is op:
                del self.ops[op.name]
                gone.add(op.name)
        for k in kernels:
            if self.kernels.get((k.op, k.backend)) is k:
                del self.kernels[(k.op, k.backend)]
        for key in [key for key in self.kernels if key[0] in gone]:
            del self.kernels[key]
        REGISTRY.invalidate()


PLUGIN = RuntimeLibrary()


def _caller_source(depth: int = 2) -> str:
    return f"module:{sys._getframe(depth).f_globals.get('__name__', '?')}"


def _add_op(op: OpDef) -> Any:
    """Serve ``op`` through :data:`PLUGIN`; its handle (``pyasc.ops.<ns>.<name>``)."""
    PLUGIN.add_op(op)
    return get_op(op.name)


def define(name: str, schema: str, *, meta: Callable[..., Any], reference: Callable[..., Any],
           dtypes: Any = _dt.ANY, doc: str = "", mutates: tuple[str, ...] = (),
           sample_inputs: Callable[..., Any] | None = None, special_values: bool = True,
           bench_inputs: Callable[..., Any] | None = None, flops: Callable[..., Any] | None = None,
           torch: str | Callable[..., Any] | None = None, attr_values: Any = None) -> Any:
    """Define an op from Python: ``define("mypack::scale", "(Tensor x, *, float s) -> Tensor", ...)``.

    The optional facts land on the op's record (OpDef) as for a built-in op: ``sample_inputs``
    and ``special_values`` (what ``pyasc check`` runs), ``bench_inputs`` and ``flops`` (what
    ``pyasc bench`` times), ``torch`` (its torch equivalent) and ``attr_values`` (attribute values
    ``pyasc check`` samples besides the default and the type's own). The op stays for the life of the
    process; a :class:`Library` scope defines removably."""
    return _add_op(OpDef(name, schema, dtypes=dtypes, meta=meta, reference=reference, doc=doc,
                         mutates=mutates, source=_caller_source(), sample_inputs=sample_inputs,
                         special_values=special_values, bench_inputs=bench_inputs, flops=flops,
                         torch=torch, attr_values=attr_values or {}))


def _kernel_decorator(name: str, backend: str, source: str,
                      added: list[KernelDef] | None = None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    check_op_name(name)

    def deco(f: Callable[..., Any]) -> Callable[..., Any]:
        k = KernelDef(name, backend, f, source)
        PLUGIN.add_kernel(k)
        if added is not None:
            added.append(k)
        return f  # the decorated function stays the user's function

    return deco


def _kernel_impl(name: str, backend: str, fn: Callable[..., Any] | None, kernel: Any, tiling: Any,
                 dtypes: Any, source: str, added: list[KernelDef] | None) -> Any:
    """impl()'s work: register ``fn``, or the launcher of ``kernel`` with the host ``tiling``
    function (given, or the decorated function)."""
    deco = _kernel_decorator(name, backend, source, added)
    if kernel is None:
        if tiling is not None or dtypes is not None:
            raise OpRegistrationError(f"impl({name!r}, {backend!r}): tiling= and dtypes= go with kernel=, "
                                      "the Ascend C kernel (pyasc.Kernel) they launch")
        return deco if fn is None else deco(fn)
    from .kernel_op import kernel_launcher

    if fn is not None and tiling is not None:
        raise OpRegistrationError(f"impl({name!r}, {backend!r}, kernel=...): give the host tiling function "
                                  "once, as tiling= or as the decorated function")
    if fn is None and tiling is None:  # decorator form: decorates the host tiling function
        def deco_tiling(f: Callable[..., Any]) -> Callable[..., Any]:
            deco(kernel_launcher(name, kernel, f, dtypes))
            return f

        return deco_tiling
    launcher = kernel_launcher(name, kernel, tiling if tiling is not None else fn, dtypes)
    deco(launcher)
    return launcher if fn is None else fn


def from_kernel(name: str, kernel: Any, tiling: Callable[..., Any], dtypes: Any = None) -> Callable[..., Any]:
    """The kernel function :func:`impl` registers for ``kernel=``/``tiling=``/``dtypes=``, for an op
    pack's ``pyasc_register_kernels`` hook: ``register(op, "sim", from_kernel(op, k, tiling))``."""
    from .kernel_op import kernel_launcher

    return kernel_launcher(check_op_name(name), kernel, tiling, dtypes)


def impl(name: str, backend: str, fn: Callable[..., Any] | None = None, *, kernel: Any = None,
         tiling: Callable[..., Any] | None = None, dtypes: Any = None) -> Any:
    """Register ``fn(out_meta, *args)`` as the kernel of op ``name`` on ``backend``; without
    ``fn``, a decorator that registers the function and returns it unchanged.

    With ``kernel=`` (a ``pyasc.Kernel``, or {dtype: Kernel} for one kernel per dtype) pyasc
    writes the kernel function: outputs allocated from the meta function, inputs made contiguous,
    nothing launched when every output is empty, the host ``tiling(*args)`` function called (it
    returns the block count, or ``(blocks, tiling_struct, *scalars)``), and the kernel launched on
    the current stream as ``k[blocks](*inputs, *outputs, *scalars, [workspace=0,] tiling)``.
    ``dtypes`` limits the input dtypes it takes. The decorator form decorates the tiling function
    (returned unchanged)."""
    return _kernel_impl(name, backend, fn, kernel, tiling, dtypes, _caller_source(), None)


def _default_namespace(fn: Callable[..., Any]) -> str:
    module = getattr(fn, "__module__", None) or "user"
    top = module.split(".")[0]
    if top == "__main__":
        return "user"
    return "".join(ch if ch.isalnum() or ch == "_" else "_" for ch in top)


def _composite_decorator(fn: Any, name: str | None, dtypes: Any, doc: str | None, *,
                         namespace: Callable[[Callable[..., Any]], str] = _default_namespace,
                         added: list[OpDef] | None = None, what: str = "pyasc.op") -> Any:
    if isinstance(fn, str):  # @pyasc.op("mypack::name")
        name, fn = fn, None
    if fn is not None and not callable(fn):
        raise OpRegistrationError(
            f"{what} decorates a function (or takes its name: @{what}('mypack::name')), got "
            f"{type(fn).__name__} {fn!r:.60}"
        )

    def deco(f: Callable[..., Any]) -> Any:
        opname = name or f"{namespace(f)}::{f.__name__}"
        opdef = OpDef(opname, schema_from_signature(f), dtypes=dtypes, composite=f,
                      doc=doc if doc is not None else (f.__doc__ or ""),
                      source=f"module:{getattr(f, '__module__', '?')}")
        out = _add_op(opdef)
        if added is not None:
            added.append(opdef)
        return out

    return deco if fn is None else deco(fn)


def op(fn: Callable[..., Any] | None = None, *, name: str | None = None,
       dtypes: Any = _dt.ANY, doc: str | None = None) -> Any:
    """Define a composite op from a Python function over other ops; it runs on every backend.

    The schema comes from the annotations (pyasc.Tensor, int, float, bool, str); the name defaults
    to ``<top-level module>::<function name>`` (``user::`` for ``__main__``).
    """
    return _composite_decorator(fn, name, dtypes, doc)


class Library:
    """A removable scope of op and kernel registrations in namespace ``ns`` (as torch.library's
    ``Library``)::

        lib = pyasc.library.Library("mylib")
        lib.define("scale", "(Tensor x, *, float s=2.0) -> Tensor", meta=..., reference=...)

        @lib.impl("scale", "sim")           # returns the function unchanged
        def scale_sim(out_meta, x, s): ...

        lib.remove()  # mylib::scale and its kernels are gone (pyasc.ops.mylib, 'pyasc ops')

    ``with pyasc.library.Library("tmp") as lib:`` removes on leaving the block. Bare op names
    take the library's namespace; ``define`` and ``op`` stay in it, while ``impl`` may also
    register kernels of other namespaces' ops (e.g. ``pyasc::exp`` on your own backend).
    Unlike torch, dropping the object does not remove anything: only :meth:`remove` does.
    """

    def __init__(self, ns: str) -> None:
        if not isinstance(ns, str) or not _NAMESPACE_RE.match(ns):
            raise OpRegistrationError(
                f"a Library namespace must be an identifier such as 'mylib', got "
                f"{type(ns).__name__} {ns!r}"
            )
        if ns == RESERVED_NAMESPACE:
            raise ReservedNamespaceError(
                f"Library({ns!r}): the '{ns}::' namespace is reserved for pyasc's built-in ops; use "
                f"your own, e.g. pyasc.library.Library('mypack') (a kernel of a built-in op for your "
                f"own backend is fine: pyasc.library.impl('{ns}::exp', 'mybackend', fn))"
            )
        self.ns = ns
        self._ops: list[OpDef] = []
        self._kernels: list[KernelDef] = []
        self._removed = False

    def __repr__(self) -> str:
        state = "removed" if self._removed else f"{len(self._ops)} ops, {len(self._kernels)} kernels"
        return f"<pyasc.library.Library {self.ns!r}: {state}>"

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.remove()

    def _name(self, name: str, own: bool) -> str:
        """``name`` qualified with the library's namespace (``own``: it must be that namespace)."""
        self._check_live()
        if not isinstance(name, str):
            raise OpRegistrationError(
                f"an op name must be a string such as 'scale' or '{self.ns}::scale', got "
                f"{type(name).__name__} {name!r}"
            )
        full = check_op_name(name if "::" in name else f"{self.ns}::{name}")
        ns, short = full.split("::", 1)
        if own and ns != self.ns:
            raise OpRegistrationError(
                f"Library({self.ns!r}) defines ops in namespace {self.ns!r} only, not {full!r}: name it "
                f"{short!r} (becomes '{self.ns}::{short}'), or use pyasc.library.Library({ns!r})"
            )
        return full

    def _check_live(self) -> None:
        if self._removed:
            raise OpRegistrationError(
                f"Library({self.ns!r}) was removed; create a new pyasc.library.Library({self.ns!r}) "
                "to register again"
            )

    def define(self, name: str, schema: str, *, meta: Callable[..., Any], reference: Callable[..., Any],
               dtypes: Any = _dt.ANY, doc: str = "", mutates: tuple[str, ...] = (),
               **facts: Any) -> Any:
        """:func:`define` in this scope (the same optional facts: ``sample_inputs``, ``bench_inputs``,
        ``torch``, ...); ``name`` may omit the namespace. Returns the op's handle."""
        op = OpDef(self._name(name, own=True), schema, dtypes=dtypes, meta=meta, reference=reference,
                   doc=doc, mutates=mutates, source=_caller_source(), **facts)
        out = _add_op(op)
        self._ops.append(op)
        return out

    def impl(self, name: str, backend: str, fn: Callable[..., Any] | None = None, *, kernel: Any = None,
             tiling: Callable[..., Any] | None = None, dtypes: Any = None) -> Any:
        """:func:`impl` in this scope: registers ``fn`` (returned unchanged), or decorates; with
        ``kernel=``/``tiling=``/``dtypes=`` as :func:`impl` does."""
        return _kernel_impl(self._name(name, own=False), backend, fn, kernel, tiling, dtypes,
                            _caller_source(), self._kernels)

    def op(self, fn: Callable[..., Any] | None = None, *, name: str | None = None,
           dtypes: Any = _dt.ANY, doc: str | None = None) -> Any:
        """:func:`op` in this scope: the composite is named ``<ns>::<function name>`` by default."""
        self._check_live()
        if isinstance(fn, str):
            name, fn = fn, None
        full = None if name is None else self._name(name, own=True)
        return _composite_decorator(fn, full, dtypes, doc, namespace=lambda _f: self.ns,
                                    added=self._ops, what="Library.op")

    def remove(self) -> None:
        """Remove every op and kernel this library registered (and runtime kernels of its ops).
        Calling it again does nothing."""
        if self._removed:
            return
        self._removed = True
        PLUGIN.discard(self._ops, self._kernels)
        self._ops, self._kernels = [], []


def _register_kernel(self: OpHandle, backend: str, fn: Callable[..., Any] | None = None) -> Any:
    """Register a kernel for this op on ``backend`` (decorator or direct call)."""
    return impl(self.name, backend, fn)


OpHandle.register_kernel = _register_kernel  # dispatch sits below this module: attached from here
