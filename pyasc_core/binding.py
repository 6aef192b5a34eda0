"""Binding a call to an op's schema: positional and keyword arguments matched to parameters,
defaults filled in, each value type-checked (tensors here, attributes by the schema module)."""

from __future__ import annotations

import inspect
import typing
from typing import Any

import numpy as np

from . import schema as _schema
from .errors import ArgumentError, OpRegistrationError, did_you_mean
from .schema import Param, Schema, check_value as check_attribute, short_repr
from .tensor import Tensor
from .tensor_meta import TensorMeta

_MISSING = object()


def bind(schema: Schema, op: str, args: tuple, kwargs: dict, *, meta: bool = False) -> list[Any]:
    """Match a call of op ``op`` to ``schema``; return the values in schema order, defaults filled in.

    With ``meta=True`` tensor parameters take TensorMeta objects (for meta functions).
    """
    params = schema.params
    positional = [p for p in params if not p.kw_only]
    if len(args) > len(positional):
        names = ", ".join(p.name for p in positional)
        raise ArgumentError(
            f"{op} takes at most {len(positional)} positional argument(s) ({names}) "
            f"but {len(args)} were given; pass attributes by keyword"
        )
    values: list[Any] = [_MISSING] * len(params)
    for i, a in enumerate(args):
        values[i] = a
    index = {p.name: i for i, p in enumerate(params)}
    for key, value in kwargs.items():
        i = index.get(key)
        if i is None:
            allowed = ", ".join(p.name for p in params)
            raise ArgumentError(
                f"{op} got an unknown argument {key!r}={value!r}; its arguments are: "
                f"{allowed}.{did_you_mean(key, index)}"
            )
        if values[i] is not _MISSING:
            raise ArgumentError(f"{op} got argument {key!r} twice (by position and by keyword)")
        values[i] = value
    for i, p in enumerate(params):
        v = values[i]
        if v is _MISSING:
            if p.required:
                raise ArgumentError(
                    f"{op} is missing required argument {p.name!r} ({p.type}); schema: {schema}"
                )
            values[i] = p.default
        else:
            values[i] = check_value(op, p, v, meta)
    return values


def check_value(op: str, p: Param, v: Any, meta: bool = False) -> Any:
    """Type-check one argument against its parameter; return it normalised (lists -> tuples).
    With ``meta=True`` inputs may be TensorMeta objects (for meta functions)."""
    t = p.type
    if meta and p.is_input and isinstance(v, TensorMeta):
        return v
    if t == "Tensor" or (t == "Tensor?" and v is not None):
        if isinstance(v, Tensor):
            return v
        raise ArgumentError(
            f"{op} argument {p.name!r} must be a pyasc.Tensor, got {type(v).__name__} {short_repr(v)}; "
            "wrap data with pyasc.tensor(...)"
        )
    if t == "Tensor|Scalar":
        # NumPy scalars first: np.float64 subclasses float but must enter as a weak Python float
        if isinstance(v, (np.bool_, np.integer, np.floating)):
            return v.item()
        if isinstance(v, Tensor) or isinstance(v, (bool, int, float)):
            return v
        raise ArgumentError(
            f"{op} argument {p.name!r} must be a pyasc.Tensor or a Python number, got "
            f"{type(v).__name__} {short_repr(v)}; wrap data with pyasc.tensor(...)"
        )
    return check_attribute(op, p, v)


def schema_from_signature(fn: Any) -> Schema:
    """Infer a schema from a Python function's annotations (for ``@pyasc.op`` composites)."""
    sig = inspect.signature(fn)
    try:
        hints = typing.get_type_hints(fn)
    except Exception:  # unresolvable string annotations: fall back to raw ones
        hints = {k: p.annotation for k, p in sig.parameters.items()}
    mapping = {Tensor: "Tensor", int: "int", float: "float", bool: "bool", str: "str"}
    parts: list[str] = []
    star = False
    for name, p in sig.parameters.items():
        ann = hints.get(name, p.annotation)
        optional = False
        args = typing.get_args(ann)
        if args and type(None) in args:
            optional = True
            rest = tuple(a for a in args if a is not type(None))
            ann = rest[0] if len(rest) == 1 else typing.Union[rest]  # noqa: UP007
            args = typing.get_args(ann)
        if args and Tensor in args and all(a in (Tensor, int, float, bool) for a in args):
            ptype = "Tensor|Scalar"
        elif ann is Tensor:
            ptype = "Tensor?" if optional else "Tensor"
        elif ann in mapping:
            ptype = mapping[ann] + ("?" if optional else "")
        elif ann is inspect.Parameter.empty:
            ptype = "Tensor"
        else:
            raise OpRegistrationError(
                f"cannot turn annotation {ann!r} of parameter {name!r} of {fn.__qualname__} into a "
                "schema type; use pyasc.Tensor, int, float, bool or str"
            )
        if p.default is None and not ptype.endswith("?") and ptype != "Tensor|Scalar":
            ptype += "?"  # `k: int = None` means an optional int
        if p.kind is p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise OpRegistrationError(f"{fn.__qualname__}: *args/**kwargs are not allowed in an op")
        text = f"{ptype} {name}"
        if p.default is not inspect.Parameter.empty:
            text += f"={p.default!r}"
        parts.append(text)
    return Schema.parse(f"({', '.join(parts)}) -> Tensor")


_schema.MOVED.update(bind=bind, schema_from_signature=schema_from_signature)
