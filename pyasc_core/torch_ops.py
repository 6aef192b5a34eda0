"""pyasc ops as PyTorch custom ops (``torch.library``): ``register("ns::name")`` or a namespace.

Each torch op's schema is the pyasc schema in torch's spelling, its fake (meta) implementation
runs the pyasc meta function (on pyasc's ``meta`` backend: no data is touched, so
``torch.compile`` traces it), its CPU implementation runs the pyasc op on the backend chosen for
CPU torch tensors ('numpy' or 'sim', :mod:`pyasc_core.torch_tensors`), and its autograd formula
is the op's declared backward (built-ins: :mod:`pyasc_core.torch_grads`). Calling a pyasc op with
torch tensors goes through its torch op, so autograd and tracing see it.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from . import dispatch
from . import dtypes as _dt
from .creation import empty
from .dispatch import handle
from .errors import ArgumentError, OpRegistrationError, PyascError, UnknownOpError
from .registry import REGISTRY
from .torch_grads import FORMULAS
from .torch_tensors import (
    call_converted,
    get_cpu_backend,
    has_torch_tensor,
    npu_device_of_args,
    on_torch_stream,
    require_torch,
    torch_device_kind,
    torch_device_types,
    torch_dtype,
)

_TYPES = {"Tensor": "Tensor", "Tensor?": "Tensor?", "Tensor|Scalar": "Tensor", "int": "int",
          "float": "float", "bool": "bool", "str": "str", "dtype": "ScalarType", "int[]": "int[]"}
_lock = threading.RLock()
_registered: dict[str, Any] = {}  # pyasc op name -> torch custom op
_autograd: dict[str, tuple[Any, Any]] = {}  # user-declared (backward, setup_context)


def _default(value: Any) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(map(repr, value)) + "]"
    if isinstance(value, str):
        return '"' + value + '"'
    return repr(value)


def torch_schema(op: Any) -> str:
    """The torch spelling of a pyasc op's schema; Tensor|Scalar becomes Tensor (a Python number
    passed to the op through pyasc is wrapped in a 0-d tensor of the other input's dtype)."""
    parts: list[str] = []
    star = False
    for p in op.schema.params:
        if p.kw_only and not star:
            parts.append("*")
            star = True
        base, opt = p.type.rstrip("?"), p.type.endswith("?") and not p.is_input
        ttype = _TYPES[p.type if p.is_input else base] + ("?" if opt else "")
        text = f"{ttype} {p.name}"
        if not p.required:
            if p.type.rstrip("?") == "dtype" and p.default is not None:
                raise OpRegistrationError(f"{op.name}: a dtype attribute with a default ({p.default!r}) has no torch "
                                          "schema spelling; give it the default None")
            text += f"={_default(p.default)}"
        parts.append(text)
    rets = ", ".join("Tensor" for _ in op.schema.returns)
    return f"({', '.join(parts)}) -> {rets if len(op.schema.returns) == 1 else f'({rets})'}"


def _pyasc_value(v: Any) -> Any:
    torch = require_torch("pyasc.torch")
    if isinstance(v, torch.dtype):
        return _dt.as_dtype(str(v).removeprefix("torch."))
    if isinstance(v, list):
        return tuple(v)
    return v


def _make_impl(name: str) -> Any:
    def impl(*args: Any, **kwargs: Any) -> Any:
        torch = require_torch("pyasc.torch")
        for v in (*args, *kwargs.values()):
            if isinstance(v, torch.Tensor) and torch_device_kind(v.device) == "other":
                raise PyascError(f"{name} runs on CPU and torch_npu ('npu') torch tensors; got one on {v.device}: "
                                 "move it with .cpu()")
        args = tuple(_pyasc_value(a) for a in args)
        kwargs = {k: _pyasc_value(v) for k, v in kwargs.items()}
        out = call_torch(handle(name), args, kwargs)
        return tuple(o.contiguous() for o in out) if isinstance(out, tuple) else out.contiguous()

    return impl


def _make_fake(name: str) -> Any:
    def fake(*args: Any, **kwargs: Any) -> Any:
        torch = require_torch("pyasc.torch")
        like = next(v for v in (*args, *kwargs.values()) if isinstance(v, torch.Tensor))

        def meta(v: Any) -> Any:
            if isinstance(v, torch.Tensor):
                return empty(tuple(int(s) for s in v.shape), dtype=_pyasc_value(v.dtype), device="meta")
            return _pyasc_value(v)

        out = handle(name)(*map(meta, args), **{k: meta(v) for k, v in kwargs.items()})
        outs = out if isinstance(out, tuple) else (out,)
        made = tuple(like.new_empty(o.shape, dtype=torch_dtype(o.dtype)) for o in outs)
        return made if isinstance(out, tuple) else made[0]

    return fake


def _op_names(name: str) -> list[str]:
    if not isinstance(name, str) or not name:
        raise ArgumentError(f"pyasc.torch.register takes an op name 'ns::name' or a namespace 'ns', got {name!r}")
    REGISTRY.ensure()
    if "::" in name:
        REGISTRY.op(name)  # UnknownOpError naming close matches
        return [name]
    names = sorted(n for n, op in REGISTRY.ops.items() if op.namespace == name)
    if not names:
        spaces = sorted({op.namespace for op in REGISTRY.ops.values()})
        raise UnknownOpError(f"pyasc.torch.register({name!r}): no op is registered in namespace {name!r}; "
                             f"namespaces: {', '.join(spaces)}")
    return names


def _register_one(name: str) -> Any:
    with _lock:
        op = REGISTRY.op(name)
        done = _registered.get(name)
        if done is not None:
            if done._pyasc_schema != str(op.schema):  # the pyasc op was removed and defined anew
                raise OpRegistrationError(
                    f"{name} is a torch op with schema {done._pyasc_schema} and torch ops cannot be redefined in "
                    f"a process; its pyasc schema is now {op.schema}: give the new op another name")
            return done
        torch = require_torch("pyasc.torch.register")
        if op.mutates:
            raise OpRegistrationError(f"{name} writes its inputs {', '.join(op.mutates)}; pyasc.torch.register makes "
                                      "functional torch ops only: call it through pyasc instead")
        schema = torch_schema(op)
        custom = torch.library.custom_op(name, _make_impl(name), mutates_args=(),
                                         device_types=torch_device_types(), schema=schema)
        custom.register_fake(_make_fake(name))
        formula = _autograd.get(name) or op.autograd or FORMULAS.get(name)
        if formula is not None:
            back, setup = _adapt(op, *formula)
            custom.register_autograd(back, setup_context=setup)
        custom._pyasc_schema = str(op.schema)
        _registered[name] = custom
        return custom


def _adapt(op: Any, backward: Any, setup: Any) -> tuple[Any, Any]:
    """pyasc's autograd contract -> torch's: setup_context sees every input in schema order
    (torch passes keyword-only ones apart) and backward returns one gradient per input (torch
    wants them for the positional ones only)."""
    kw = [p.name for p in op.schema.params if p.kw_only]
    if not kw:
        return backward, setup
    n_pos = len(op.schema.params) - len(kw)

    def setup_context(ctx: Any, inputs: tuple, keyword_only_inputs: dict, output: Any) -> None:
        if setup is not None:
            setup(ctx, (*inputs, *(keyword_only_inputs[k] for k in kw)), output)

    def backward_positional(ctx: Any, *grads: Any) -> Any:
        out = backward(ctx, *grads)
        return tuple(out)[:n_pos] if isinstance(out, (tuple, list)) else out

    return backward_positional, setup_context


def register(name: str) -> Any:
    """Make pyasc op ``name`` ('ns::name') a torch custom op, reachable as torch.ops.ns.name, and
    return it (a callable); for a namespace ('ns'), register each of its ops and return
    {short name: op}. Registering again returns the same op."""
    names = _op_names(name)
    if "::" in name:
        return _register_one(name)
    return {n.split("::", 1)[1]: _register_one(n) for n in names}


def register_autograd(name: str, backward: Any, *, setup_context: Any = None) -> None:
    """Declare op ``name``'s backward, as ``torch.library.register_autograd``: ``setup_context(ctx,
    inputs, output)`` saves what backward needs, ``backward(ctx, *grads)`` returns one gradient
    per input (None for non-tensors); both may call pyasc ops on torch tensors."""
    if not callable(backward) or (setup_context is not None and not callable(setup_context)):
        raise ArgumentError(f"register_autograd({name!r}): backward and setup_context must be callables, got "
                            f"{type(backward).__name__} and {type(setup_context).__name__}")
    if not isinstance(name, str) or "::" not in name:
        raise ArgumentError(f"register_autograd takes one op 'ns::name', got {name!r}")
    _op_names(name)
    with _lock:
        _autograd[name] = (backward, setup_context)
        custom = _registered.get(name)
        if custom is not None:
            back, setup = _adapt(REGISTRY.op(name), backward, setup_context)
            custom.register_autograd(back, setup_context=setup)


# -- pyasc ops called with torch tensors ------------------------------------------------------------
def _wrap_scalars(op: Any, args: tuple, kwargs: dict) -> tuple[tuple, dict] | None:
    """Python numbers in Tensor|Scalar places as 0-d torch tensors of the tensor inputs' dtype,
    when that is the dtype pyasc's weak-scalar rule gives; None when it is not (or no tensor)."""
    torch = require_torch("pyasc.torch")
    params = op.schema.params
    by_name = {p.name: p for p in params}
    named = [*zip(params, args), *((by_name[k], v) for k, v in kwargs.items() if k in by_name)]
    peers = [v for p, v in named if p.type == "Tensor|Scalar" and isinstance(v, torch.Tensor)]
    dtype = peers[0].dtype if peers else None
    if dtype is not None and any(t.dtype != dtype for t in peers):
        dtype = None  # mixed dtypes: a scalar's result dtype is pyasc's promotion, not one of theirs
    if dtype is None:
        scalar_ok: tuple = ()
    elif dtype == torch.bool:
        scalar_ok = (bool,)
    else:
        scalar_ok = (int, float, bool) if dtype.is_floating_point else (int, bool)

    def wrap(p: Any, v: Any) -> Any:
        if p.type == "Tensor|Scalar" and not isinstance(v, torch.Tensor):
            if not isinstance(v, scalar_ok):
                raise LookupError  # a scalar whose kind changes the result dtype
            return torch.tensor(v, dtype=dtype, device=peers[0].device)
        base = p.type.rstrip("?")
        if base == "dtype" and v is not None and not isinstance(v, torch.dtype):
            return torch_dtype(v)
        if base == "int[]" and isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            return [int(v)]  # pyasc's int[] takes one int too; torch's wants a list
        return v

    try:
        new_args = tuple(wrap(p, v) for p, v in zip(params, args))
        new_kwargs = {k: wrap(by_name[k], v) if k in by_name else v for k, v in kwargs.items()}
    except LookupError:
        return None
    return new_args, new_kwargs


def call_with_torch(h: Any, args: tuple, kwargs: dict) -> Any:
    """A pyasc op called with torch tensors: through its torch op (autograd, fake tensors,
    torch.compile), or converted and run directly when its arguments do not fit the torch schema."""
    if not has_torch_tensor(args, kwargs):
        return NotImplemented
    op = h.opdef
    try:
        custom = _register_one(op.name)
    except (OpRegistrationError, RuntimeError):
        custom = None
    wrapped = _wrap_scalars(op, args, kwargs) if custom is not None else None
    if wrapped is None:
        return call_torch(h, args, kwargs)
    return custom(*wrapped[0], **wrapped[1])


def call_torch(h: Any, args: tuple, kwargs: dict) -> Any:
    """``h`` on torch tensors: on 'npu:N' in place (on torch_npu's current stream) when torch_npu
    tensors are among them, else on the backend for CPU tensors."""
    npu = npu_device_of_args(args, kwargs)
    if npu is None:
        return call_converted(h, args, kwargs, get_cpu_backend())
    with on_torch_stream(npu):
        return call_converted(h, args, kwargs, npu)


dispatch.foreign_call = call_with_torch
