"""Op schemas: parsing ``"(Tensor x, Tensor|Scalar y, *, int[]? axis=None) -> Tensor"`` (binding a
call to a schema is pyasc_core.binding's job: this module knows nothing of tensors).

Types: ``Tensor``, ``Tensor?`` (optional tensor), ``Tensor|Scalar`` (a tensor or a Python number,
which takes a weak dtype), and attribute types ``int``, ``float``, ``bool``, ``str``, ``dtype``,
``int[]`` (an int or a sequence of ints), each optionally suffixed ``?`` (may be None).
"""

from __future__ import annotations

import ast
import re
import warnings
from typing import Any

import attrs
import numpy as np

from . import dtypes as _dt
from .errors import ArgumentError, DtypeError, OpRegistrationError, PyascError

INPUT_TYPES = ("Tensor", "Tensor?", "Tensor|Scalar")
ATTR_TYPES = ("int", "float", "bool", "str", "dtype", "int[]")
_NO_DEFAULT = object()
#: what moved up to pyasc_core.binding (it fills this in when it loads; this module sits below
#: Tensor): the old names keep working for a release with a DeprecationWarning
MOVED: dict[str, Any] = {}


def _moved(name: str) -> Any:
    warnings.warn(
        f"pyasc_core.schema's {name} moved to pyasc_core.binding.{name} (binding a call needs "
        "tensors; the schema module only parses)", DeprecationWarning, stacklevel=3,
    )
    return MOVED[name]


def __getattr__(name: str) -> Any:
    if name in MOVED:
        return _moved(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
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
        """Deprecated: ``pyasc_core.binding.bind(schema, op, args, kwargs, meta=...)``."""
        return _moved("bind")(self, op, args, kwargs, meta=meta)


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


def check_value(op: str, p: Param, v: Any) -> Any:
    """Type-check one attribute value against its parameter; return it normalised (lists -> tuples).
    (Inputs, which are tensors, are checked where calls are bound: pyasc_core.binding.)"""
    t = p.type
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
        f"{op} argument {p.name!r} must be {t}, got {type(v).__name__} {short_repr(v)}"
    )


def short_repr(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."
