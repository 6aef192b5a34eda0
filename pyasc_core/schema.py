"""Op schemas: parsing ``"(Tensor x, Tensor|Scalar y, *, int[]? axis=None) -> Tensor"`` and binding calls.

Types: ``Tensor``, ``Tensor?`` (optional tensor), ``Tensor|Scalar`` (a tensor or a Python number,
which takes a weak dtype), and attribute types ``int``, ``float``, ``bool``, ``str``, ``dtype``,
``int[]`` (an int or a sequence of ints), each optionally suffixed ``?`` (may be None).
"""

from __future__ import annotations

import ast
import re
from typing import Any

import attrs
import numpy as np

from . import dtypes as _dt
from .errors import ArgumentError, DtypeError, OpRegistrationError, PyascError, did_you_mean

INPUT_TYPES = ("Tensor", "Tensor?", "Tensor|Scalar")
ATTR_TYPES = ("int", "float", "bool", "str", "dtype", "int[]")
_NO_DEFAULT = object()
_PARAM_RE = re.compile(r"^\s*(?P<type>[A-Za-z|\[\]?]+)\s+(?P<name>[A-Za-z_]\w*)\s*(?:=\s*(?P<default>.+?))?\s*$")


@attrs.frozen
class Param:
    """One schema parameter: an input (tensor-like) or an attribute."""

    name: str
    type: str
    default: Any = _NO_DEFAULT
    kw_only: bool = False

    @property
    def is_input(self) -> bool:
        return self.type in INPUT_TYPES

    @property
    def required(self) -> bool:
        return self.default is _NO_DEFAULT

    @property
    def optional(self) -> bool:
        return self.type.endswith("?")

    def __str__(self) -> str:
        text = f"{self.type} {self.name}"
        if not self.required:
            text += f"={self.default!r}"
        return text


@attrs.frozen
class Schema:
    """Parameters and return arity of an op."""

    params: tuple[Param, ...]
    returns: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> Schema:
        """Parse ``"(params) -> Tensor"`` or ``"(params) -> (Tensor, Tensor)"``; a leading name is ignored."""
        if not isinstance(text, str):
            raise OpRegistrationError(
                f"a schema must be a string such as '(Tensor x, *, float alpha=1.0) -> Tensor', "
                f"got {type(text).__name__} {text!r}"
            )
        m = re.fullmatch(r"\s*[\w:]*\s*\((?P<params>.*)\)\s*->\s*(?P<ret>.+?)\s*", text, re.S)
        if not m:
            raise OpRegistrationError(
                f"cannot parse schema {text!r}; expected e.g. '(Tensor x, *, float alpha=1.0) -> Tensor'"
            )
        params: list[Param] = []
        kw_only = False
        seen: set[str] = set()
        body = m.group("params").strip()
        for raw in _split_params(body) if body else []:
            if raw.strip() == "*":
                kw_only = True
                continue
            pm = _PARAM_RE.match(raw)
            if not pm:
                raise OpRegistrationError(f"cannot parse parameter {raw.strip()!r} in schema {text!r}")
            ptype, name = pm.group("type"), pm.group("name")
            base = ptype.rstrip("?")
            if ptype not in INPUT_TYPES and base not in ATTR_TYPES:
                raise OpRegistrationError(
                    f"unknown type {ptype!r} for parameter {name!r} in schema {text!r}; "
                    f"known: {', '.join(INPUT_TYPES + ATTR_TYPES)}"
                )
            if name in seen:
                raise OpRegistrationError(f"parameter {name!r} appears twice in schema {text!r}")
            seen.add(name)
            default: Any = _NO_DEFAULT
            if pm.group("default") is not None:
                try:
                    default = ast.literal_eval(pm.group("default"))
                except (ValueError, SyntaxError):
                    raise OpRegistrationError(
                        f"default {pm.group('default')!r} of {name!r} is not a Python literal"
                    ) from None
                if isinstance(default, list):
                    default = tuple(default)
            param = Param(name, ptype, default, kw_only)
            if default is not _NO_DEFAULT and not param.is_input:
                try:  # a default must be a value the parameter accepts (normalised, e.g. 1 -> 1.0)
                    checked = check_value("schema", param, default)
                    if ptype.rstrip("?") != "dtype":  # dtype defaults stay names, so str() round-trips
                        default = checked
                except PyascError as exc:
                    raise OpRegistrationError(
                        f"default of {name!r} in schema {text!r} is not a valid {ptype}: {exc}"
                        + ("; make the type optional, e.g. 'int? k=None'" if default is None else "")
                    ) from None
                param = Param(name, ptype, default, kw_only)
            params.append(param)
        if not any(p.is_input for p in params):
            raise OpRegistrationError(f"schema {text!r} has no tensor input")
        ret = m.group("ret").strip()
        if ret.startswith("("):
            returns = tuple(r.strip() for r in ret.strip("()").split(",") if r.strip())
        else:
            returns = (ret,)
        if not returns or any(r != "Tensor" for r in returns):
            raise OpRegistrationError(f"schema {text!r} must return Tensor or a tuple of Tensors")
        return cls(tuple(params), returns)

    def __str__(self) -> str:
        parts: list[str] = []
        star = False
        for p in self.params:
            if p.kw_only and not star:
                parts.append("*")
                star = True
            parts.append(str(p))
        ret = self.returns[0] if len(self.returns) == 1 else f"({', '.join(self.returns)})"
        return f"({', '.join(parts)}) -> {ret}"

    @property
    def inputs(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if p.is_input)

    @property
    def attributes(self) -> tuple[Param, ...]:
        return tuple(p for p in self.params if not p.is_input)

    def bind(self, op: str, args: tuple, kwargs: dict, *, meta: bool = False) -> list[Any]:
        """Match a call to the parameters; return the values in schema order, defaults filled in.

        With ``meta=True`` tensor parameters take TensorMeta objects (for meta functions).
        """
        params = self.params
        positional = [p for p in params if not p.kw_only]
        if len(args) > len(positional):
            names = ", ".join(p.name for p in positional)
            raise ArgumentError(
                f"{op} takes at most {len(positional)} positional argument(s) ({names}) "
                f"but {len(args)} were given; pass attributes by keyword"
            )
        values: list[Any] = [_NO_DEFAULT] * len(params)
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
            if values[i] is not _NO_DEFAULT:
                raise ArgumentError(f"{op} got argument {key!r} twice (by position and by keyword)")
            values[i] = value
        for i, p in enumerate(params):
            v = values[i]
            if v is _NO_DEFAULT:
                if p.required:
                    raise ArgumentError(
                        f"{op} is missing required argument {p.name!r} ({p.type}); schema: {self}"
                    )
                values[i] = p.default
            else:
                values[i] = check_value(op, p, v, meta)
        return values


def _split_params(body: str) -> list[str]:
    out, depth, cur = [], 0, []
    for ch in body:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur))
    return out


def _is_int(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def check_value(op: str, p: Param, v: Any, meta: bool = False) -> Any:
    """Type-check one argument against its parameter; return it normalised (lists -> tuples)."""
    from .backend import TensorMeta
    from .tensor import Tensor

    t = p.type
    if meta and p.is_input and isinstance(v, TensorMeta):
        return v
    if t == "Tensor" or (t == "Tensor?" and v is not None):
        if isinstance(v, Tensor):
            return v
        raise ArgumentError(
            f"{op} argument {p.name!r} must be a pyasc.Tensor, got {type(v).__name__} {_short(v)}; "
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
            f"{type(v).__name__} {_short(v)}; wrap data with pyasc.tensor(...)"
        )
    if v is None:
        if p.optional:
            return None
        raise ArgumentError(f"{op} argument {p.name!r} ({t}) may not be None")
    base = t.rstrip("?")
    if base == "int":
        if _is_int(v):
            return int(v)
    elif base == "float":
        if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
            return float(v)
    elif base == "bool":
        if isinstance(v, (bool, np.bool_)):
            return bool(v)
    elif base == "str":
        if isinstance(v, str):
            return v
    elif base == "dtype":
        try:
            return _dt.as_dtype(v)
        except DtypeError as e:
            raise DtypeError(f"{op} argument {p.name!r}: {e}") from None
    elif base == "int[]":
        if _is_int(v):
            return (int(v),)
        if isinstance(v, (tuple, list)) and all(_is_int(x) for x in v):
            return tuple(int(x) for x in v)
    raise ArgumentError(
        f"{op} argument {p.name!r} must be {t}, got {type(v).__name__} {_short(v)}"
    )


def _short(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def schema_from_signature(fn: Any) -> Schema:
    """Infer a schema from a Python function's annotations (for ``@pyasc.op`` composites)."""
    import inspect
    import typing

    from .tensor import Tensor

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
