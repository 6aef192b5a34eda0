"""Calling an op: bind and check the arguments, run the meta function, pick the kernel, run it.

Checks and meta results are cached per argument signature (devices, dtypes, shapes, scalar types,
attribute values), so a repeated call costs a key build, one dict lookup and the kernel itself.
"""

from __future__ import annotations

import importlib
from typing import Any

from .binding import bind
from .dtype_advice import cast_hint
from .dtypes import dtype_name
from .errors import (
    ArgumentError,
    DeviceMismatchError,
    DtypeError,
    KernelNotFoundError,
    OpRegistrationError,
    PyascError,
    UnknownOpError,
)
from .registry import REGISTRY
from .tensor import Tensor
from .tensor_meta import TensorMeta

_CACHE_LIMIT = 2048
_SCALARS = (bool, int, float)

try:  # OpHandle's call in C for cached call forms (its Python method _call takes every other call)
    # The compiled extension pyasc_core._native imports no Python module (setup() is handed the registry and
    # the types), so it is a leaf below every layer; by name, because import-linter cannot see a compiled
    # module and would read `from . import _native` as an import of the pyasc_core package (and its __init__).
    _native = importlib.import_module(f"{__package__}._native")
    _CallBase = _native.OpCall
    _op_call_setup = _native.op_call_setup
except (ImportError, AttributeError):  # the extension is not built: the call is _call itself
    _CallBase = object  # type: ignore[assignment,misc]
    _op_call_setup = None
#: calls with foreign tensors (torch) go here: ``foreign_call(handle, args, kwargs)`` returns the
#: result or NotImplemented (no foreign tensor). Set by pyasc_core.torch_ops, which sits above.
foreign_call: Any = None


def _key1(args: tuple) -> Any:
    (a,) = args  # a wrong arity raises ValueError: the caller takes the checked path
    if type(a) is Tensor:
        d = a._data
        return (a._device, d.dtype, d.shape)
    return None


def _key2(args: tuple) -> Any:
    a, b = args
    ta, tb = type(a), type(b)
    if ta is Tensor:
        d = a._data
        if tb is Tensor:
            e = b._data
            return (a._device, d.dtype, d.shape, b._device, e.dtype, e.shape)
        if tb in _SCALARS:
            return (a._device, d.dtype, d.shape, tb)
    elif ta in _SCALARS and tb is Tensor:
        e = b._data
        return (ta, b._device, e.dtype, e.shape)
    return None


def _value_key(a: Any, is_input: bool) -> Any:
    """Key of one argument: a tensor's device/dtype/shape, a scalar input's type, an attribute's
    type and value (a tuple's element types too: (1,) == (1.0,) == (True,) in Python)."""
    t = type(a)
    if t is Tensor:
        d = a._data
        return (a._device, d.dtype, d.shape)
    if is_input:
        if t in _SCALARS or a is None:
            return t
        raise TypeError  # an unusual input type: take the checked path
    if t is tuple:
        return (t, a, tuple(map(type, a)))
    return (t, a)


def _make_keyfn(kinds: tuple[bool, ...]) -> Any:
    """Key of an all-positional call (fast paths for one and two inputs). A call that leaves trailing
    parameters at their defaults (``pyasc.sum(x)``) has a key too: the given arguments' keys (a tuple
    as long as the call, so it differs from every call passing more), the defaults being fixed."""
    if kinds == (True,):
        return _key1
    if kinds == (True, True):
        return _key2
    n = len(kinds)

    def keyfn(args: tuple) -> Any:
        if len(args) > n:
            return None
        return tuple(_value_key(a, k) for a, k in zip(args, kinds))

    return keyfn


def _make_kwkeyfn(kinds: tuple[bool, ...], names: tuple[str, ...]) -> Any:
    """Key of a call with keyword arguments: the positional part, then (name, key) per keyword."""
    is_input = dict(zip(names, kinds))

    def kwkeyfn(args: tuple, kwargs: dict) -> Any:
        if len(args) > len(kinds):
            return None
        pos = tuple(_value_key(a, k) for a, k in zip(args, kinds))
        return (pos, tuple((k, _value_key(v, is_input[k])) for k, v in kwargs.items()))

    return kwkeyfn


def _make_fill(op: Any, args: tuple, kwargs: dict, values: list[Any]) -> Any:
    """How to turn a call of this form into the kernel's normalised arguments, or None when the
    positional arguments already are exactly those (the hot path passes them straight through).

    Attribute values are fixed by the cache key, so their normalised forms are stored; inputs
    (tensors, scalars) are taken from each call."""
    if not kwargs and len(args) == len(values) and all(a is v for a, v in zip(args, values)):
        return None
    template = list(values)
    sources: list[tuple[int, bool, Any]] = []
    for i, p in enumerate(op.schema.params):
        if not p.is_input:
            continue
        if i < len(args):
            sources.append((i, True, i))
        elif p.name in kwargs:
            sources.append((i, False, p.name))
        else:
            continue  # an input left at its default keeps it
        template[i] = None  # never keep a call's tensors alive in the cache

    def fill(call_args: tuple, call_kwargs: dict) -> list[Any]:
        vals = template[:]
        for i, positional, where in sources:
            vals[i] = call_args[where] if positional else call_kwargs[where]
        return vals

    return fill


class OpHandle(_CallBase):
    """The callable for one op (``pyasc.add``, ``pyasc.ops.mypack.gelu``), bound to the registry by name."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._version = -1
        self._op: Any = None
        self._cache: dict[Any, tuple[Any, Any, Any]] = {}
        self._keyfn: Any = None
        self._kwkeyfn: Any = None

    # -- binding to the registry --------------------------------------------------------------
    def _refresh(self) -> None:
        REGISTRY.ensure()
        op = REGISTRY.op(self.name)
        self._op = op
        self._cache = {}
        kinds = tuple(p.is_input for p in op.schema.params)
        self._keyfn = _make_keyfn(kinds)
        self._kwkeyfn = _make_kwkeyfn(kinds, tuple(p.name for p in op.schema.params))
        self._version = REGISTRY.version
        if _CallBase is not object:  # the C call: same cache, keys as _key1 / _key2 make them
            self._bind_fast(self._cache, self._version, 1 if self._keyfn is _key1 else 2 if self._keyfn is _key2 else 0)

    @property
    def opdef(self):
        if self._version != REGISTRY.version:
            self._refresh()
        return self._op

    @property
    def schema(self):
        return self.opdef.schema

    @property
    def __doc__(self) -> str:  # type: ignore[override]
        try:
            op = self.opdef
        except PyascError:
            return f"op {self.name} (not registered)"
        return f"{op.name}{op.schema}\n\n{op.doc}"

    def __repr__(self) -> str:
        return f"<pyasc op {self.name}>"

    # -- calling ----------------------------------------------------------------------------
    # ``handle(*args, **kwargs)``: OpCall's call in C runs a cached form (see pyasc_core/native/op_call.cpp)
    # and hands every other call to _call, the same steps in Python
    def _call(self, *args: Any, **kwargs: Any) -> Any:
        if self._version != REGISTRY.version:
            return self._call_checked(args, kwargs)
        try:
            key = self._kwkeyfn(args, kwargs) if kwargs else self._keyfn(args)
            meta, kernel, fill = self._cache[key]
        except (KeyError, TypeError, ValueError):  # new signature, unhashable value, other arity
            return self._call_checked(args, kwargs)
        if fill is None:
            return kernel(meta, *args)
        return kernel(meta, *fill(args, kwargs))

    if _CallBase is object:
        __call__ = _call

    def _call_checked(self, args: tuple, kwargs: dict) -> Any:
        if foreign_call is not None:  # torch tensors in, torch tensors out (pyasc_core.torch_ops)
            out = foreign_call(self, args, kwargs)
            if out is not NotImplemented:
                return out
        if self._version != REGISTRY.version:
            self._refresh()
        op = self._op
        values = bind(op.schema, op.name, args, kwargs)
        device = self._check_inputs(op, values)
        meta_out = None if op.composite is not None else self._run_meta(op, values)
        kernel = REGISTRY.table.get((op.name, device.type))
        if kernel is None:
            have = sorted(b for (o, b) in REGISTRY.table if o == op.name)
            # suggest a backend with data: moving to 'meta' would not compute anything
            target = "numpy" if "numpy" in have else next((b for b in have if b != "meta"), "numpy")
            raise KernelNotFoundError(
                f"{op.name} has no kernel for backend {device.type!r} (its tensors are on {device}); "
                f"it has kernels for: {', '.join(have) or 'no backend'}. Register one with "
                f"pyasc.library.impl({op.name!r}, {device.type!r}) or move the inputs with "
                f".to({target!r})"
            )
        fill: Any = False
        try:  # remember this call's form: the next one like it skips binding, checks and meta
            key = self._kwkeyfn(args, kwargs) if kwargs else self._keyfn(args)
            if key is not None:
                if len(self._cache) >= _CACHE_LIMIT:
                    self._cache.clear()
                fill = _make_fill(op, args, kwargs, values)
                self._cache[key] = (meta_out, kernel, fill)
        except TypeError:
            pass
        out = kernel(meta_out, *values)
        if fill is None:
            self._fast_path(key, meta_out, kernel, args)
        return out

    def _fast_path(self, key: Any, meta: Any, kernel: Any, args: tuple) -> None:
        """Cache the kernel's own hot path for calls of this form, when it offers one: a kernel's
        ``pyasc_fast(meta, args)`` returns ``fast(meta, *args)``, which behaves exactly as
        ``kernel(meta, *args)`` for every call of the form (``args``: the call just made, after
        which plans and caches are warm), or None. The cache entry must still be this call's."""
        make = getattr(kernel, "pyasc_fast", None)
        if make is None:
            return
        fast = make(meta, args)
        entry = self._cache.get(key)
        if fast is not None and entry is not None and entry[1] is kernel and entry[2] is None:
            self._cache[key] = (meta, fast, None)

    @staticmethod
    def _check_inputs(op: Any, values: list[Any]) -> Any:
        device = None
        first = ""
        for p, v in zip(op.schema.params, values):
            if not isinstance(v, Tensor):
                continue
            if device is None:
                device, first = v._device, p.name
            elif v._device is not device:
                raise DeviceMismatchError(
                    f"{op.name} got tensors on different devices: {first!r} on {device} and "
                    f"{p.name!r} on {v._device}; move them to one device first, e.g. "
                    f"{p.name}.to({str(device)!r})"
                )
            allowed = op.allowed_dtypes(p.name)
            if v._data.dtype not in allowed:
                names = ", ".join(sorted(dtype_name(d) for d in allowed))
                hint = cast_hint(op.name, v._device.type, v._data.dtype, allowed, var=p.name)
                raise DtypeError(
                    f"{op.name} argument {p.name!r} has dtype {dtype_name(v._data.dtype)}, which "
                    f"it does not accept; allowed: {names}. {hint[0].upper()}{hint[1:]}"
                )
        if device is None:
            raise ArgumentError(
                f"{op.name} needs at least one pyasc.Tensor argument, got only "
                f"{', '.join(type(v).__name__ for v in values)}; wrap data with pyasc.tensor(...)"
            )
        return device

    @staticmethod
    def _run_meta(op: Any, values: list[Any]) -> Any:
        metas = [TensorMeta(v._data.shape, v._data.dtype) if isinstance(v, Tensor) else v for v in values]
        try:
            out = op.caller(op.meta)(*metas)
        except PyascError as exc:
            msg = str(exc)
            if not msg.startswith(op.name):
                msg = f"{op.name}: {msg}"
            raise type(exc)(f"{msg} [called as {_describe_call(op, metas)}]") from None
        n = len(op.schema.returns)
        if n == 1 and isinstance(out, TensorMeta):
            return out
        if n > 1 and isinstance(out, tuple) and len(out) == n and all(isinstance(m, TensorMeta) for m in out):
            return out
        raise OpRegistrationError(
            f"the meta function of {op.name} returned {out!r}; it must return "
            f"{'a TensorMeta' if n == 1 else f'a tuple of {n} TensorMeta'}"
        )


def _describe_call(op: Any, values: list[Any]) -> str:
    """``pyasc::add(x=float32[2, 3], y=2.5)``: which argument had which value, for error messages."""
    parts = []
    for p, v in zip(op.schema.params, values):
        if isinstance(v, TensorMeta):
            shown = f"{dtype_name(v.dtype)}[{', '.join(map(str, v.shape))}]"
        else:
            shown = repr(v)
        parts.append(f"{p.name}={shown}")
    return f"{op.name}({', '.join(parts)})"


def composite_kernel(op: Any) -> Any:
    """The kernel of a composite op on a backend without its own: the op's Python function,
    whose result must be the Tensor(s) the schema returns (the registry builds it through
    ``REGISTRY.composite_kernel``, set below)."""
    call = op.caller(op.composite)
    n = len(op.schema.returns)

    def composite(_meta: Any, *args: Any) -> Any:
        out = call(*args)
        if (isinstance(out, Tensor) and n == 1) or (
            isinstance(out, tuple) and len(out) == n > 1 and all(isinstance(o, Tensor) for o in out)
        ):
            return out
        raise OpRegistrationError(
            f"the composite op {op.name} returned {type(out).__name__} {out!r:.60}; it must return "
            f"{'a pyasc.Tensor' if n == 1 else f'a tuple of {n} pyasc.Tensors'}"
        )

    return composite


REGISTRY.composite_kernel = composite_kernel


class _UnknownOpAttribute(UnknownOpError, AttributeError):
    """An unknown op looked up as an attribute (``pyasc.ops.ns.name``): hasattr() and getattr() work."""


_HANDLES: dict[str, OpHandle] = {}
if _op_call_setup is not None:
    _op_call_setup(REGISTRY, Tensor, _SCALARS)


def handle(name: str) -> OpHandle:
    """The shared handle of op ``name`` (bound lazily: the op need not be registered yet)."""
    h = _HANDLES.get(name)
    if h is None:
        h = _HANDLES.setdefault(name, OpHandle(name))
    return h


def get_op(name: str) -> OpHandle:
    """The shared handle of op ``name`` ('pyasc::' is implied without a namespace); checks it exists."""
    if not isinstance(name, str):
        REGISTRY.op(name)  # raises UnknownOpError naming the value
    if "::" not in name:
        name = f"pyasc::{name}"
    REGISTRY.op(name)
    return handle(name)


class _Namespace:
    """``pyasc.ops.<namespace>``: attribute access to the ops of one namespace."""

    def __init__(self, namespace: str) -> None:
        self._ns = namespace

    def __getattr__(self, name: str) -> OpHandle:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return get_op(f"{self._ns}::{name}")
        except UnknownOpError as exc:
            raise _UnknownOpAttribute(str(exc)) from None

    def __dir__(self) -> list[str]:
        REGISTRY.ensure()
        return sorted(op.short_name for op in REGISTRY.ops.values() if op.namespace == self._ns)

    def __repr__(self) -> str:
        return f"<pyasc ops namespace {self._ns!r}>"


class OpsRoot:
    """``pyasc.ops``: every registered op as ``pyasc.ops.<namespace>.<name>``."""

    def __getattr__(self, namespace: str) -> _Namespace:
        if namespace.startswith("__"):
            raise AttributeError(namespace)
        return _Namespace(namespace)

    def __dir__(self) -> list[str]:
        REGISTRY.ensure()
        return sorted({op.namespace for op in REGISTRY.ops.values()})

    def __iter__(self):
        REGISTRY.ensure()
        return iter(sorted(REGISTRY.ops))


ops = OpsRoot()
