"""Tiling template programming (``ASCENDC_TPL_ARGS_DECL`` / ``ASCENDC_TPL_SEL``): read an op's
template-argument declaration from preprocessed source, encode / decode its tiling key and name the
kernel instance a combination selects, so ``compile(tpl_args=... or tiling_key=...)`` builds it.

The encoding matches ``EncodeTilingKey`` in the kernel API's ``template_argument.h``: declared
arguments in order, the first in the lowest bits, each in its bit width; UINT / DTYPE / FORMAT
arguments encode the position of the value in the declared list, BOOL its value.
"""

from __future__ import annotations

import ast
import operator
import re
from typing import Mapping, Sequence

import attrs

from pyasc_core.errors import PyascError

DTYPE, FORMAT, UINT, BOOL, KERNEL_TYPE = range(5)
UI_RANGE, UI_LIST, UI_MIX = range(3)
_MARKER = 1 << 63
_KINDS = {DTYPE: "DTYPE", FORMAT: "FORMAT", UINT: "UINT", BOOL: "BOOL", KERNEL_TYPE: "KERNEL_TYPE"}


class TemplateArgumentError(PyascError, ValueError):
    """Template-argument values (or a tiling key) the op's ASCENDC_TPL_ARGS_DECL / ASCENDC_TPL_SEL
    do not allow, or a declaration the simulator cannot read."""


@attrs.frozen
class Param:
    """One DECL or SEL entry: name, kind, bit width and the values it allows (ranges expanded)."""

    name: str
    kind: int
    bit_width: int
    values: tuple[int, ...]


@attrs.frozen
class Declaration:
    """An op's template arguments (``args``, kernel-type entries left out) and its selections."""

    args: tuple[Param, ...]
    selections: tuple[tuple[Param, ...], ...]

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.args]

    def values_of(self, tpl_args: Mapping[str, int] | Sequence[int]) -> list[int]:
        """The argument values in declaration order, checked against the declaration and the
        selections (raises TemplateArgumentError naming the bad value and the allowed ones)."""
        if isinstance(tpl_args, Mapping):
            unknown = [k for k in tpl_args if k not in self.names]
            missing = [n for n in self.names if n not in tpl_args]
            if unknown or missing:
                raise TemplateArgumentError(
                    f"tpl_args must name each declared template argument once ({', '.join(self.names)}); "
                    f"unknown: {', '.join(unknown) or 'none'}, missing: {', '.join(missing) or 'none'}")
            vals = [tpl_args[n] for n in self.names]
        else:
            vals = list(tpl_args)
            if len(vals) != len(self.args):
                raise TemplateArgumentError(f"{len(vals)} template argument value(s) given, the declaration has "
                                            f"{len(self.args)} ({', '.join(self.names)})")
        out = []
        for p, v in zip(self.args, vals):
            if isinstance(v, bool):
                v = int(v)
            if not isinstance(v, int) or v not in p.values:
                raise TemplateArgumentError(f"template argument {p.name} = {v!r} is not declared; "
                                            f"ASCENDC_TPL_{_KINDS[p.kind]}_DECL allows {list(p.values)}")
            out.append(v)
        if self.selections and not any(self._selects(sel, out) for sel in self.selections):
            raise TemplateArgumentError(
                f"no ASCENDC_TPL_ARGS_SEL selects {dict(zip(self.names, out))}: the op builds only its selected "
                f"combinations ({'; '.join(self._describe(s) for s in self.selections)})")
        return out

    def _selects(self, sel: tuple[Param, ...], vals: list[int]) -> bool:
        by_name = dict(zip(self.names, vals))
        return all(s.name not in by_name or by_name[s.name] in s.values for s in sel)

    @staticmethod
    def _describe(sel: tuple[Param, ...]) -> str:
        return ", ".join(f"{s.name} in {list(s.values)}" for s in sel if s.kind != KERNEL_TYPE)

    def encode(self, tpl_args: Mapping[str, int] | Sequence[int]) -> int:
        """The tiling key GET_TPL_TILING_KEY gives for these values."""
        key, shift = 0, 0
        for p, v in zip(self.args, self.values_of(tpl_args)):
            code = v if p.kind == BOOL else p.values.index(v)
            if code >> p.bit_width:
                raise TemplateArgumentError(f"template argument {p.name}: position {code} of {v} does not fit "
                                            f"its {p.bit_width}-bit width")
            key |= code << shift
            shift += p.bit_width
        return key

    def decode(self, key: int) -> dict[str, int]:
        """The template-argument values tiling key ``key`` stands for (checked like ``values_of``)."""
        if isinstance(key, bool) or not isinstance(key, int) or key < 0:
            raise TemplateArgumentError(f"tiling_key must be a non-negative integer, got {key!r}")
        out: dict[str, int] = {}
        shift = 0
        for p in self.args:
            code = (key >> shift) & ((1 << p.bit_width) - 1)
            shift += p.bit_width
            if p.kind == BOOL:
                v = code
            elif code < len(p.values):
                v = p.values[code]
            else:
                raise TemplateArgumentError(f"tiling_key {key}: {p.name} has code {code}, but only "
                                            f"{len(p.values)} value(s) are declared ({list(p.values)})")
            out[p.name] = v
        if key >> shift:
            raise TemplateArgumentError(f"tiling_key {key} has bits above the declared arguments' {shift} bits")
        self.values_of(out)
        return out

    def instance(self, kernel: str, tpl_args: Mapping[str, int] | Sequence[int]) -> str:
        """The instance name (``kernel<1, 4, true>``) these values select: BOOL arguments spelled
        ``true`` / ``false`` (an ``int`` 1 for a ``bool`` template parameter would be a narrowing
        conversion), the others as numbers."""
        vals = self.values_of(tpl_args)
        return f"{kernel}<{', '.join(('true' if v else 'false') if p.kind == BOOL else str(v) for p, v in zip(self.args, vals))}>"


_ENTRY_RE = re.compile(r'ParamStruct\s*\{\s*"(\w+)"\s*,\s*([^,{}]+?)\s*,\s*([^,{}]+?)\s*,\s*\{([^{}]*)\}\s*,'
                       r'\s*"(DECL|SEL)"\s*\}')
_DECL_RE = re.compile(r"\bg_tilingDeclareParams\s*\{")
_SEL_RE = re.compile(r"\bg_tilingSelectParams\s*\{")
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.LShift: operator.lshift,
        ast.RShift: operator.rshift, ast.BitOr: operator.or_, ast.BitAnd: operator.and_, ast.FloorDiv: operator.floordiv}


def _int(text: str) -> int:
    """An integer constant expression as the preprocessor leaves it (``1``, ``(0x10u)``,
    ``static_cast<uint64_t>(3)``, ``1 << 2``)."""
    s = re.sub(r"static_cast\s*<[^<>]*>", "", text)
    s = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", s).replace("/", "//")
    s = re.sub(r"\btrue\b", "1", re.sub(r"\bfalse\b", "0", s))

    def ev(node: ast.AST) -> int:
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            return -ev(node.operand) if isinstance(node.op, ast.USub) else ev(node.operand)
        raise ValueError(text)

    try:
        return ev(ast.parse(s.strip(), mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError):
        raise TemplateArgumentError(f"cannot read the template-argument value {text.strip()!r}: values must be "
                                    "integer constants (macros expanding to numbers)") from None


def _braced(text: str, start: int) -> str:
    """The text of the brace block opened just before ``start``."""
    depth, i = 1, start
    while i < len(text) and depth:
        depth += {"{": 1, "}": -1}.get(text[i], 0)
        i += 1
    return text[start:i - 1]


def expand(kind: int, raw: list[int]) -> tuple[int, ...]:
    """The values an entry allows: UINT lists in RANGE / LIST / MIX form expanded in order,
    ASCENDC_TPL_INPUT / OUTPUT markers dropped."""
    if kind != UINT:
        return tuple(v for v in raw if not v & _MARKER)
    if not raw:
        return ()
    mode, rest = raw[0], raw[1:]
    out: list[int] = []
    if mode in (UI_RANGE, UI_MIX):
        n = rest[0] if rest else 0
        pairs = rest[1:1 + 2 * n]
        if len(pairs) != 2 * n:
            raise TemplateArgumentError(f"a UINT range list declares {n} range(s) but gives {len(pairs) // 2}")
        for a, b in zip(pairs[::2], pairs[1::2]):
            out += range(a, b + 1)
        rest = rest[1 + 2 * n:] if mode == UI_MIX else []
    elif mode != UI_LIST:
        raise TemplateArgumentError(f"a UINT value list starts with ASCENDC_TPL_UI_RANGE, _LIST or _MIX, got {mode}")
    return tuple(out + list(rest))


def _entries(block: str) -> list[Param]:
    out = []
    for m in _ENTRY_RE.finditer(block):
        kind = _int(m.group(2))
        raw = [_int(v) for v in m.group(4).split(",") if v.strip()]
        out.append(Param(m.group(1), kind, _int(m.group(3)), expand(kind, raw)))
    return out


def parse(preprocessed: str) -> Declaration | None:
    """The declaration in preprocessor output (None when the source declares no template arguments)."""
    m = _DECL_RE.search(preprocessed)
    if m is None:
        return None
    args = tuple(p for p in _entries(_braced(preprocessed, m.end())) if p.kind != KERNEL_TYPE)
    sels: list[tuple[Param, ...]] = []
    s = _SEL_RE.search(preprocessed)
    if s is not None:
        body = _braced(preprocessed, s.end())
        for v in re.finditer(r"std::vector\s*<\s*ParamStruct\s*>\s*\{", body):
            sels.append(tuple(_entries(_braced(body, v.end()))))
    return Declaration(args, tuple(sels))
