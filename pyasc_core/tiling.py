"""Tiling structs declared in Python with the byte layout of the C++ struct a kernel reads.

::

    class AddTiling(pyasc.TilingStruct):
        total: tiling.uint32_t
        tile: tiling.uint32_t
        alpha: tiling.float32
        shape: tiling.array(tiling.uint32_t, 4)

Fields are laid out as the compiler lays out a C++ struct: each at its type's alignment, the size
rounded up to the largest alignment (``AddTiling.layout()`` gives offsets, ``sizeof``/``alignof``).
Instances are immutable attrs classes; ``bytes(t)`` packs them (values range-checked per field).
A kernel takes one by value (a struct parameter) or on the device (a ``GM_ADDR tiling``
parameter: uploaded once per content, see ``pyasc_core.kernel.upload``)."""

from __future__ import annotations

import struct
import sys
import typing
from dataclasses import dataclass
from typing import Any

import attrs
import numpy as np

from . import dtypes as _dt
from .errors import ArgumentError


@dataclass(frozen=True)
class CType:
    """A C++ scalar type of a tiling field: its name, size, alignment and how values convert."""

    name: str
    size: int
    kind: str  # int | uint | float | bfloat16 | bool

    @property
    def align(self) -> int:
        return self.size

    def pack(self, value: Any, where: str) -> bytes:
        if self.kind in ("int", "uint", "bool"):
            if isinstance(value, (float, np.floating)) or not isinstance(value, (int, np.integer, bool, np.bool_)):
                raise ArgumentError(f"{where} is {self.name}: it takes an integer, got {type(value).__name__} "
                                    f"{value!r:.60}")
            v = int(value)
            bits = 8 * self.size
            lo, hi = ((-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if self.kind == "int"
                      else (0, 1) if self.kind == "bool" else (0, 2**bits - 1))
            if not lo <= v <= hi:
                raise ArgumentError(f"{where} = {v} does not fit {self.name} ({lo}..{hi})")
            return v.to_bytes(self.size, "little", signed=self.kind == "int")
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise ArgumentError(f"{where} is {self.name}: it takes a number, got {type(value).__name__} "
                                f"{value!r:.60}")
        if self.kind == "bfloat16":
            return np.array(float(value), np.float32).astype(_dt.bfloat16).tobytes()
        with np.errstate(over="ignore"):
            if self.size == 2:
                return np.array(float(value), np.float16).tobytes()
            if self.size == 4:
                return np.array(float(value), np.float32).tobytes()
        return struct.pack("<d", float(value))

    def default(self) -> Any:
        return 0.0 if self.kind in ("float", "bfloat16") else 0


int8_t = CType("int8_t", 1, "int")
uint8_t = CType("uint8_t", 1, "uint")
int16_t = CType("int16_t", 2, "int")
uint16_t = CType("uint16_t", 2, "uint")
int32_t = CType("int32_t", 4, "int")
uint32_t = CType("uint32_t", 4, "uint")
int64_t = CType("int64_t", 8, "int")
uint64_t = CType("uint64_t", 8, "uint")
bool_ = CType("bool", 1, "bool")
float16 = half = CType("half", 2, "float")
bfloat16 = CType("bfloat16_t", 2, "bfloat16")
float32 = CType("float", 4, "float")
float64 = double = CType("double", 8, "float")


@dataclass(frozen=True)
class Array:
    """A fixed-size array field: ``array(uint32_t, 8)`` is C++'s ``uint32_t name[8]``."""

    item: Any  # CType or a TilingStruct subclass
    length: int

    @property
    def name(self) -> str:
        return f"{_type_name(self.item)}[{self.length}]"

    @property
    def size(self) -> int:
        return _sizeof(self.item) * self.length

    @property
    def align(self) -> int:
        return _alignof(self.item)


def array(item: Any, length: int) -> Array:
    """A fixed-size array field of ``length`` items (a C type or a nested tiling struct)."""
    if not isinstance(length, int) or isinstance(length, bool) or length < 1:
        raise ArgumentError(f"array({_type_name(item)}, {length!r}): the length must be a positive int")
    _check_type(item, "array item")
    return Array(item, length)


def _is_struct(t: Any) -> bool:
    return isinstance(t, type) and issubclass(t, TilingStruct) and t is not TilingStruct


def _check_type(t: Any, where: str) -> None:
    if not (isinstance(t, (CType, Array)) or _is_struct(t)):
        raise ArgumentError(
            f"{where}: a tiling field's type is one of pyasc.tiling's C types (uint32_t, int32_t, float32, "
            f"half, ...), pyasc.tiling.array(type, n) or another TilingStruct, got {t!r:.60}")


def _type_name(t: Any) -> str:
    return t.cpp_name if _is_struct(t) else t.name


def _sizeof(t: Any) -> int:
    return t.sizeof if _is_struct(t) else t.size


def _alignof(t: Any) -> int:
    return t.alignof if _is_struct(t) else t.align


@dataclass(frozen=True)
class Field:
    """One field of a tiling struct's layout."""

    name: str
    type: Any
    offset: int
    size: int


def _pack_value(t: Any, value: Any, where: str) -> bytes:
    if isinstance(t, CType):
        return t.pack(value, where)
    if isinstance(t, Array):
        items = list(value) if isinstance(value, (list, tuple, np.ndarray)) else None
        if items is None or len(items) != t.length:
            raise ArgumentError(f"{where} is {t.name}: it takes {t.length} values (a list or tuple), got "
                                f"{value!r:.60}")
        return b"".join(_pack_value(t.item, v, f"{where}[{i}]") for i, v in enumerate(items))
    if not isinstance(value, t):
        raise ArgumentError(f"{where} is the struct {t.cpp_name}: pass a {t.__name__}(...) instance, got "
                            f"{type(value).__name__} {value!r:.60}")
    return bytes(value)


def _default(t: Any) -> Any:
    if isinstance(t, CType):
        return t.default()
    if isinstance(t, Array):
        return tuple(_default(t.item) for _ in range(t.length))
    return t()


def _own_hints(cls: type, frame: Any) -> dict[str, Any]:
    """The class's own field annotations, evaluated (string annotations in the class's module, then
    where the class statement ran: exec'd code, a function's locals)."""
    module = sys.modules.get(cls.__module__)
    scope = {**frame.f_globals, **(vars(module) if module else {}), **frame.f_locals}
    out = {}
    for name, ann in cls.__dict__.get("__annotations__", {}).items():
        if isinstance(ann, str):
            try:
                ann = eval(ann, scope, dict(vars(cls)))  # noqa: S307  (the class's own annotation)
            except Exception as exc:
                raise ArgumentError(f"{cls.__name__}.{name}: cannot evaluate its type {ann!r} ({exc})") from None
        out[name] = ann
    return out


class TilingStruct:
    """Base of tiling structs declared in Python (see the module docstring). Subclasses become
    frozen attrs classes whose fields default to zero; ``cpp_name`` (default: the class name) is
    the C++ struct's name used by layout checks."""

    cpp_name: typing.ClassVar[str]
    sizeof: typing.ClassVar[int]
    alignof: typing.ClassVar[int]
    _fields: typing.ClassVar[tuple[Field, ...]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "__attrs_attrs__" in cls.__dict__:
            return  # attrs' own pass over the class
        hints = _own_hints(cls, sys._getframe(1))
        own = [n for n, t in hints.items() if typing.get_origin(t) is not typing.ClassVar and not n.startswith("_")]
        if not own:
            raise ArgumentError(f"tiling struct {cls.__name__} declares no fields; annotate them, e.g. "
                                "total: pyasc.tiling.uint32_t")
        fields, off, align = [], 0, 1
        for n in own:
            t = hints[n]
            _check_type(t, f"{cls.__name__}.{n}")
            a = _alignof(t)
            off = -(-off // a) * a
            fields.append(Field(n, t, off, _sizeof(t)))
            off += _sizeof(t)
            align = max(align, a)
        cls.cpp_name = cls.__dict__.get("cpp_name", cls.__name__)
        cls.alignof = align
        cls.sizeof = -(-off // align) * align
        cls._fields = tuple(fields)
        for f in fields:  # each field defaults to zero (nested structs: their defaults)
            setattr(cls, f.name, attrs.field(factory=lambda t=f.type: _default(t)))
        cls.__annotations__ = {f.name: Any for f in fields}
        attrs.define(cls, frozen=True, slots=False, eq=True, hash=True)

    @classmethod
    def layout(cls) -> tuple[Field, ...]:
        """The fields with their byte offsets and sizes, as the C++ compiler lays them out."""
        return cls._fields

    def __bytes__(self) -> bytes:
        cached = self.__dict__.get("_pyasc_bytes")
        if cached is not None:
            return cached
        out = bytearray(type(self).sizeof)
        for f in type(self)._fields:
            out[f.offset:f.offset + f.size] = _pack_value(f.type, getattr(self, f.name),
                                                          f"{type(self).__name__}.{f.name}")
        data = bytes(out)
        object.__setattr__(self, "_pyasc_bytes", data)
        return data

    def __pyasc_struct__(self) -> bytes:
        """The struct's bytes (what a kernel launch packs or uploads)."""
        return bytes(self)

    @classmethod
    def cpp_checks(cls) -> str:
        """C++ static_asserts that the kernel's struct ``cpp_name`` has this layout (the layout check
        a Kernel compiled with ``structs=[...]`` runs)."""
        name = cls.cpp_name
        out = [f'static_assert(sizeof({name}) == {cls.sizeof}, "pyasc.TilingStruct {cls.__name__}: sizeof({name}) '
               f'is not {cls.sizeof} bytes as declared in Python; make the fields match");']
        for f in cls._fields:
            out.append(f'static_assert(offsetof({name}, {f.name}) == {f.offset}, "pyasc.TilingStruct '
                       f'{cls.__name__}: {name}::{f.name} is not at offset {f.offset} as declared in Python");')
            out.append(f'static_assert(sizeof((({name} *)0)->{f.name}) == {f.size}, "pyasc.TilingStruct '
                       f'{cls.__name__}: {name}::{f.name} is not {f.size} bytes ({_type_name(f.type)}) as declared '
                       'in Python");')
        return "\n".join(out)
