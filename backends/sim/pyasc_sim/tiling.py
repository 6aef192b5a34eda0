"""Tiling structs declared with the op-project macros (``BEGIN_TILING_DATA_DEF`` ...), filled from Python.

:func:`layout` asks the compiler for a macro-declared struct's field table (names, C types,
offsets, sizes, element counts: the layout the kernel's ``GET_TILING_DATA`` reads), by building
and running a small host program against the header; :class:`TilingStruct` is a zero-initialised
instance whose fields are set by name (``t.totalLength = 8``, ``t.bias = [1, 2]``,
``t.block.tileNum = 4``) and whose ``bytes(t)`` is what to upload as the ``tiling`` argument.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import struct as _struct
import subprocess
import tempfile
from dataclasses import dataclass

from pyasc_core.errors import ArgumentError, IndexingError, ShapeError, ValueRangeError

from .build import KernelBuildError, _compiler, _kernel_api_include, registered_ops, tiling_headers

__all__ = ["Field", "Layout", "SYS_WORKSPACE_SIZE", "TilingStruct", "layout", "tiling_struct"]

#: bytes of the system workspace at the start of a kernel's workspace argument (GetUserWorkspace
#: returns workspace + this; Atlas A2's GetLibApiWorkSpaceSize): allocate it plus the user part
SYS_WORKSPACE_SIZE = 16 * 1024 * 1024

_FORMATS = {("f", 4): "f", ("f", 8): "d", ("i", 1): "b", ("u", 1): "B", ("i", 2): "h", ("u", 2): "H",
            ("i", 4): "i", ("u", 4): "I", ("i", 8): "q", ("u", 8): "Q", ("b", 1): "?"}


@dataclass(frozen=True)
class Field:
    """One field: ``name``, C ``ctype``, byte ``offset`` and ``size`` (of the whole field), element
    ``count`` (> 1 for TILING_DATA_FIELD_DEF_ARR), ``kind`` (f/i/u/b; x for an SDK struct such as UnPadTiling,
    set whole from an hl_tiling record or its bytes; or s for a nested struct
    whose fields are ``fields``)."""

    name: str
    ctype: str
    offset: int
    size: int
    count: int
    kind: str
    fields: tuple = ()


@dataclass(frozen=True)
class Layout:
    """A tiling struct's name, ``size`` in bytes and field table."""

    name: str
    size: int
    fields: tuple

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise AttributeError(f"tiling struct {self.name} has no field {name!r}; its fields are "
                             f"{', '.join(f.name for f in self.fields)}")


_PROGRAM = r"""
#include <cstdio>
#include <type_traits>
#include "register/tilingdata_base.h"
#include "pyasc_sim/kapi/host_header_begin.h"
%(includes)s
#include "pyasc_sim/kapi/host_header_end.h"
struct PyascPrinter {
    bool first = true;
    template <typename T>
    void field(const char *name, const char *ctype, size_t offset, size_t count) {
        std::printf("%%s{\"name\":\"%%s\",\"ctype\":\"%%s\",\"offset\":%%zu,\"size\":%%zu,\"count\":%%zu,", first ? "" : ",",
                    name, ctype, offset, sizeof(T) * count, count);
        first = false;
        if constexpr (::pyasc_sim::tiling::is_tiling_struct<T>::value) {
            std::printf("\"kind\":\"s\",\"fields\":[");
            PyascPrinter inner;
            T::__pyasc_visit(inner);
            std::printf("]}");
        } else {
            const char kind = std::is_same<T, bool>::value ? 'b' : std::is_floating_point<T>::value ? 'f'
                              : std::is_signed<T>::value ? 'i' : std::is_unsigned<T>::value ? 'u' : 'x';
            std::printf("\"kind\":\"%%c\"}", kind);
        }
    }
};
int main() {
    using S = %(name)s;
    std::printf("{\"size\":%%zu,\"fields\":[", sizeof(S));
    PyascPrinter p;
    S::__pyasc_visit(p);
    std::printf("]}\n");
    return 0;
}
"""


def _field(d: dict) -> Field:
    return Field(d["name"], d["ctype"], d["offset"], d["size"], d["count"], d["kind"],
                 tuple(_field(x) for x in d.get("fields", ())))


@functools.lru_cache(maxsize=64)
def _layout(headers: tuple, stamps: tuple, name: str, cxx: str) -> Layout:
    del stamps  # part of the cache key only
    inc = _kernel_api_include()
    tmp = tempfile.mkdtemp(prefix="pyasc_tiling_")
    try:
        src = os.path.join(tmp, "layout.cpp")
        with open(src, "w", encoding="utf-8") as f:
            f.write(_PROGRAM % {"includes": "\n".join(f'#include "{h}"' for h in headers), "name": name})
        exe = os.path.join(tmp, "layout")
        proc = subprocess.run([cxx, "-std=c++20", "-w", "-I", inc, src, "-o", exe], capture_output=True, text=True)
        if proc.returncode != 0:
            raise KernelBuildError(f"cannot read the tiling struct {name!r} from {', '.join(headers)}: the compiler "
                                   f"said:\n{proc.stderr.strip()}", output=proc.stderr)
        out = subprocess.run([exe], capture_output=True, text=True, check=True).stdout
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    d = json.loads(out)
    return Layout(name, d["size"], tuple(_field(x) for x in d["fields"]))


def layout(tiling_header: str | os.PathLike, name: str | None = None, *, op_type: str | None = None,
           compiler: str | None = None) -> Layout:
    """The field table of the tiling struct ``name`` (or the one ``op_type`` registers, or the only
    registered one) declared in ``tiling_header`` (a header or its directory), as the compiler lays
    it out."""
    headers = tiling_headers(tiling_header)
    if name is None:
        ops = registered_ops(headers)
        if op_type is not None:
            if op_type not in ops:
                raise KernelBuildError(f"op_type {op_type!r} is not registered in {', '.join(headers)}; registered: "
                                       f"{', '.join(sorted(ops)) or 'none'}")
            name = ops[op_type]
        elif len(set(ops.values())) == 1:
            # one struct registered once, or under several op types / tiling-key names
            # (REGISTER_TILING_DATA_CLASS(Op_100, S), (Op_120, S), ...): unambiguous
            name = next(iter(ops.values()))
        else:
            raise KernelBuildError(f"{', '.join(headers)} registers {len(set(ops.values()))} tiling structs "
                                   f"({', '.join(sorted(set(ops.values()))) or 'none'}); pass name= or op_type=")
    if not isinstance(name, str) or not name.replace("::", "").replace("_", "a").isalnum():
        raise KernelBuildError(f"name must be a C++ struct name, got {name!r}")
    stamps = tuple(os.stat(h).st_mtime_ns for h in headers)
    return _layout(tuple(headers), stamps, name, _compiler(compiler))


class _View:
    """Fields of (a nested part of) a tiling struct, read and written by name."""

    def __init__(self, buf: bytearray, base: int, lay_fields: tuple, struct_name: str) -> None:
        object.__setattr__(self, "_buf", buf)
        object.__setattr__(self, "_base", base)
        object.__setattr__(self, "_fields", {f.name: f for f in lay_fields})
        object.__setattr__(self, "_name", struct_name)

    def _get(self, name: str) -> Field:
        f = self._fields.get(name)
        if f is None:
            raise AttributeError(f"tiling struct {self._name} has no field {name!r}; its fields are "
                                 f"{', '.join(self._fields)}")
        return f

    def __getattr__(self, name: str):
        if name.startswith("_"):
            raise AttributeError(name)
        f = self._get(name)
        if f.kind == "s":
            return _View(self._buf, self._base + f.offset, f.fields, f"{self._name}.{name}")
        if f.kind == "x":  # an SDK struct (TCubeTiling, UnPadTiling, ...): its bytes
            return bytes(self._buf[self._base + f.offset:self._base + f.offset + f.size])
        if f.count > 1:
            return _ArrayField(self._buf, self._base + f.offset, f, f"{self._name}.{name}")
        return _struct.unpack_from(f"<{_fmt(f, self._name)}", self._buf, self._base + f.offset)[0]

    def __setattr__(self, name: str, value) -> None:
        f = self._get(name)
        if f.kind == "s":
            raise AttributeError(f"{self._name}.{name} is a struct: set its fields ({name}.<field> = ...)")
        if f.kind == "x":
            self._set_sdk_struct(f, name, value)
            return
        fmt = _fmt(f, self._name)
        vals = list(value) if f.count > 1 else [value]
        if len(vals) != f.count:
            raise ShapeError(f"{self._name}.{name} holds {f.count} elements ({f.ctype}[{f.count}]), got {len(vals)}")
        try:
            raw = _struct.pack(f"<{f.count}{fmt}", *vals)  # packed apart: a failed pack changes nothing
        except _struct.error as exc:
            raise ValueRangeError(f"{self._name}.{name} ({f.ctype}) cannot hold {value!r}: {exc}") from None
        at = self._base + f.offset
        self._buf[at:at + len(raw)] = raw

    def _set_sdk_struct(self, f: Field, name: str, value) -> None:
        """A field of an SDK struct type (TILING_DATA_FIELD_DEF_STRUCT(UnPadTiling, ...)), set whole: from a
        pyasc_sim.hl_tiling record (its ``to_bytes()``) or from exactly the field's bytes."""
        raw = value.to_bytes() if hasattr(value, "to_bytes") and not isinstance(value, int) else value
        if not isinstance(raw, (bytes, bytearray, memoryview)):
            raise ArgumentError(f"{self._name}.{name} has the SDK struct type {f.ctype}: set it whole from a "
                                f"pyasc_sim.hl_tiling record (e.g. hl_tiling.unpad_tiling(...)) or from its "
                                f"{f.size} bytes, got {type(value).__name__}")
        raw = bytes(raw)
        if len(raw) != f.size:
            raise ShapeError(f"{self._name}.{name} ({f.ctype}) is {f.size} bytes, got {len(raw)} bytes; pass the "
                             f"record the kernel's SDK declares ({f.ctype})")
        at = self._base + f.offset
        self._buf[at:at + f.size] = raw

    def __dir__(self):
        return list(self._fields)


class _ArrayField:
    """A TILING_DATA_FIELD_DEF_ARR field, live on the struct's bytes: ``t.arr[k] = v`` writes element
    k (a copy would take the write and drop it silently); ``list(t.arr)`` reads the elements."""

    def __init__(self, buf: bytearray, offset: int, f: Field, path: str) -> None:
        self._buf, self._offset, self._field, self._path = buf, offset, f, path
        self._fmt = _fmt(f, path.rpartition(".")[0])
        self._step = f.size // f.count

    def __len__(self) -> int:
        return self._field.count

    def _index(self, k) -> int:
        n = self._field.count
        if not isinstance(k, int) or isinstance(k, bool):
            raise ArgumentError(f"{self._path} is indexed by an int (0 .. {n - 1}), got {k!r}")
        if not -n <= k < n:
            raise IndexingError(f"{self._path} has {n} elements ({self._field.ctype}[{n}]): index {k} is out of "
                             f"range; use 0 .. {n - 1}")
        return k % n

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        return _struct.unpack_from(f"<{self._fmt}", self._buf, self._offset + self._index(k) * self._step)[0]

    def __setitem__(self, k, value) -> None:
        if isinstance(k, slice):
            idx = range(*k.indices(len(self)))
            vals = list(value)
            if len(vals) != len(idx):
                raise ShapeError(f"{self._path}[{k.start}:{k.stop}:{k.step}] holds {len(idx)} elements, "
                                 f"got {len(vals)}")
            old = bytes(self._buf)
            try:
                for i, v in zip(idx, vals):
                    self[i] = v
            except BaseException:
                self._buf[:] = old  # all or nothing
                raise
            return
        i = self._index(k)
        try:
            raw = _struct.pack(f"<{self._fmt}", value)  # packed apart: a failed pack leaves the bytes as they were
        except _struct.error as exc:
            raise ValueRangeError(f"{self._path}[{i}] ({self._field.ctype}) cannot hold {value!r}: {exc}") from None
        at = self._offset + i * self._step
        self._buf[at:at + self._step] = raw

    def __iter__(self):
        return iter(self[:])

    def __eq__(self, other) -> bool:
        try:
            return list(self) == list(other)
        except TypeError:
            return NotImplemented

    __hash__ = None  # a live view of mutable bytes

    def __repr__(self) -> str:
        return repr(list(self))


def _fmt(f: Field, owner: str) -> str:
    fmt = _FORMATS.get((f.kind, f.size // max(f.count, 1)))
    if fmt is None:
        raise ArgumentError(f"{owner}.{f.name} has type {f.ctype}, which Python cannot fill by value")
    return fmt


class TilingStruct(_View):
    """A zero-initialised instance of a macro-declared tiling struct: set fields by name, upload
    ``bytes(t)`` as the kernel's ``tiling`` argument."""

    def __init__(self, lay: Layout) -> None:
        super().__init__(bytearray(lay.size), 0, lay.fields, lay.name)
        object.__setattr__(self, "layout", lay)

    def __bytes__(self) -> bytes:
        return bytes(self._buf)

    def __len__(self) -> int:
        return len(self._buf)

    def __repr__(self) -> str:
        return f"TilingStruct({self._name}, {len(self._buf)} bytes)"


def tiling_struct(tiling_header: str | os.PathLike, name: str | None = None, *, op_type: str | None = None,
                  compiler: str | None = None, **values) -> TilingStruct:
    """A :class:`TilingStruct` for the struct ``name`` / of ``op_type`` in ``tiling_header``, with
    ``values`` set by field name."""
    t = TilingStruct(layout(tiling_header, name, op_type=op_type, compiler=compiler))
    for k, v in values.items():
        setattr(t, k, v)
    return t
