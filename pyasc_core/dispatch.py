"""Calling an op: bind and check the arguments, run the meta function, pick the kernel, run it.
This module also gives pyasc.Tensor its operators and op methods (``+``, ``sum``, ``to``, ...).

Checks and meta results are cached per argument signature (devices, dtypes, shapes, scalar types,
attribute values), so a repeated call costs a key build, one dict lookup and the kernel itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from . import dtypes as _dt
from .binding import bind
from .creation import asarray, move_to
from .device import Device
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
from .selection import resolve_device
from .tensor import Tensor
from .tensor_meta import TensorMeta

_CACHE_LIMIT = 2048
_SCALARS = (bool, int, float)


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
    """Key of an all-positional call (fast paths for one and two inputs)."""
    if kinds == (True,):
        return _key1
    if kinds == (True, True):
        return _key2
    n = len(kinds)

    def keyfn(args: tuple) -> Any:
        if len(args) != n:
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


class OpHandle:
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
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
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

    def _call_checked(self, args: tuple, kwargs: dict) -> Any:
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
        try:  # remember this call's form: the next one like it skips binding, checks and meta
            key = self._kwkeyfn(args, kwargs) if kwargs else self._keyfn(args)
            if key is not None:
                if len(self._cache) >= _CACHE_LIMIT:
                    self._cache.clear()
                self._cache[key] = (meta_out, kernel, _make_fill(op, args, kwargs, values))
        except TypeError:
            pass
        return kernel(meta_out, *values)

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
                raise DtypeError(
                    f"{op.name} argument {p.name!r} has dtype {dtype_name(v._data.dtype)}, which "
                    f"it does not accept; allowed: {names}. Cast it first, e.g. "
                    f"{p.name}.astype({sorted(dtype_name(d) for d in allowed)[-1]!r})"
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


# -- the Tensor's operators and op methods ----------------------------------------------------
# They call ops, and tensor.py sits below this module, so they are defined here and attached to
# pyasc.Tensor when dispatch loads.

_add = handle("pyasc::add")
_sub = handle("pyasc::sub")
_mul = handle("pyasc::mul")
_div = handle("pyasc::div")
_pow = handle("pyasc::pow")
_matmul = handle("pyasc::matmul")
_neg = handle("pyasc::neg")
_abs = handle("pyasc::abs")
_exp = handle("pyasc::exp")
_log = handle("pyasc::log")
_sqrt = handle("pyasc::sqrt")
_eq = handle("pyasc::eq")
_ne = handle("pyasc::ne")
_lt = handle("pyasc::lt")
_le = handle("pyasc::le")
_gt = handle("pyasc::gt")
_ge = handle("pyasc::ge")
_sum = handle("pyasc::sum")
_mean = handle("pyasc::mean")
_max = handle("pyasc::max")
_min = handle("pyasc::min")
_softmax = handle("pyasc::softmax")
_reshape = handle("pyasc::reshape")
_transpose = handle("pyasc::transpose")
_cast_op = handle("pyasc::cast")


def _cast(t: Tensor, dtype: np.dtype) -> Tensor:
    return _cast_op(t, dtype)


def _operand(value: Any, like: Tensor) -> Any:
    """Operator operands: scalars stay scalars (weak dtype); NumPy arrays join like's device."""
    if isinstance(value, np.ndarray):
        return asarray(value, device=like._device)
    return value


class _TensorOps:
    """The methods attached to pyasc.Tensor (see above)."""

    def to(self, *args: Any, non_blocking: bool = False, copy: bool = False) -> Tensor:
        """Move to a device and/or cast: ``t.to("sim")``, ``t.to(pyasc.float16)``, ``t.to("sim", "float16")``."""
        target_device = None
        target_dtype = None
        for arg in args:
            if arg is None:  # t.to(None) changes nothing, as in PyTorch
                continue
            if isinstance(arg, Device):
                target_device = arg
            elif isinstance(arg, str) and arg not in _dt._NAMES:
                target_device = resolve_device(arg)
            else:
                target_dtype = _dt.as_dtype(arg)
        out = self
        if target_device is not None and target_device is not self._device:
            out = move_to(out, target_device, non_blocking=non_blocking)
            copy = False
        if target_dtype is not None and target_dtype != out.dtype:
            out = _cast(out, target_dtype)
            copy = False
        if copy:
            out = move_to(out, out._device, non_blocking=non_blocking, force_copy=True)
        return out

    def astype(self, dtype: Any) -> Tensor:
        return _cast(self, _dt.as_dtype(dtype))

    def clone(self) -> Tensor:
        return self.to(copy=True)



    # -- shape helpers ------------------------------------------------------------------------
    def reshape(self, *shape: Any) -> Tensor:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return _reshape(self, shape)

    def transpose(self, *axes: Any) -> Tensor:
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return _transpose(self, axes or None)

    @property
    def T(self) -> Tensor:
        return _transpose(self, None)

    def sum(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _sum(self, axis, keepdims)

    def mean(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _mean(self, axis, keepdims)

    def max(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _max(self, axis, keepdims)

    def min(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        return _min(self, axis, keepdims)

    def abs(self) -> Tensor:
        return _abs(self)

    def exp(self) -> Tensor:
        return _exp(self)

    def log(self) -> Tensor:
        return _log(self)

    def sqrt(self) -> Tensor:
        return _sqrt(self)

    def softmax(self, axis: int = -1) -> Tensor:
        return _softmax(self, axis)

    def matmul(self, other: Tensor) -> Tensor:
        return _matmul(self, other)

    # -- operators ----------------------------------------------------------------------------
    def __add__(self, other: Any) -> Tensor:
        return _add(self, _operand(other, self))

    def __radd__(self, other: Any) -> Tensor:
        return _add(_operand(other, self), self)

    def __sub__(self, other: Any) -> Tensor:
        return _sub(self, _operand(other, self))

    def __rsub__(self, other: Any) -> Tensor:
        return _sub(_operand(other, self), self)

    def __mul__(self, other: Any) -> Tensor:
        return _mul(self, _operand(other, self))

    def __rmul__(self, other: Any) -> Tensor:
        return _mul(_operand(other, self), self)

    def __truediv__(self, other: Any) -> Tensor:
        return _div(self, _operand(other, self))

    def __rtruediv__(self, other: Any) -> Tensor:
        return _div(_operand(other, self), self)

    def __pow__(self, other: Any) -> Tensor:
        return _pow(self, _operand(other, self))

    def __rpow__(self, other: Any) -> Tensor:
        return _pow(_operand(other, self), self)

    def __matmul__(self, other: Any) -> Tensor:
        return _matmul(self, _operand(other, self))

    def __rmatmul__(self, other: Any) -> Tensor:
        return _matmul(_operand(other, self), self)

    def __neg__(self) -> Tensor:
        return _neg(self)

    def __pos__(self) -> Tensor:
        return self

    def __abs__(self) -> Tensor:
        return _abs(self)

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return _eq(self, _operand(other, self))

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return _ne(self, _operand(other, self))

    def __lt__(self, other: Any) -> Tensor:
        return _lt(self, _operand(other, self))

    def __le__(self, other: Any) -> Tensor:
        return _le(self, _operand(other, self))

    def __gt__(self, other: Any) -> Tensor:
        return _gt(self, _operand(other, self))

    def __ge__(self, other: Any) -> Tensor:
        return _ge(self, _operand(other, self))


for _name, _member in vars(_TensorOps).items():
    if _name not in ("__module__", "__qualname__", "__doc__", "__dict__", "__weakref__", "__hash__",
                     "__firstlineno__", "__static_attributes__"):
        if callable(_member):
            _member.__qualname__ = f"Tensor.{_name}"
        setattr(Tensor, _name, _member)
del _name, _member
