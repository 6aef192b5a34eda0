"""Kernel signatures and the typed argument layout of the launch ABI.

A kernel's arguments are laid out in the blob as the device compiler lays out kernel parameters:
each at the next offset aligned to its type's alignment, by its own size (GM addresses 8 bytes,
``uint32_t`` 4, ``half`` 2, trivially copyable structs by value). Simulator binaries record each
kernel's signature in their ``.pyasc_sim_sig`` section (``kapi/entry.h``); :func:`read_signatures`
reads it from the file without loading it. :func:`layout_of` computes the same layout from declared
types (for binaries without the table, e.g. CANN's)."""

from __future__ import annotations

import functools
import os
import struct
from dataclasses import dataclass

#: kind codes of the signature table (kapi/entry.h ParamKind)
KINDS = {0: "struct", 1: "pointer", 2: "int", 3: "uint", 4: "float", 5: "bfloat16", 6: "bool"}

_SECTION = b".pyasc_sim_sig"
_MAGIC = b"PYASCSIG"

#: declared scalar types -> (size, alignment, kind) (what the device compiler uses)
SCALAR_TYPES: dict[str, tuple[int, int, str]] = {
    "bool": (1, 1, "bool"), "char": (1, 1, "int"), "signed char": (1, 1, "int"), "int8_t": (1, 1, "int"),
    "unsigned char": (1, 1, "uint"), "uint8_t": (1, 1, "uint"),
    "short": (2, 2, "int"), "int16_t": (2, 2, "int"), "unsigned short": (2, 2, "uint"), "uint16_t": (2, 2, "uint"),
    "int": (4, 4, "int"), "int32_t": (4, 4, "int"), "unsigned": (4, 4, "uint"), "unsigned int": (4, 4, "uint"),
    "uint32_t": (4, 4, "uint"), "long": (8, 8, "int"), "long long": (8, 8, "int"), "int64_t": (8, 8, "int"),
    "intptr_t": (8, 8, "int"), "unsigned long": (8, 8, "uint"), "unsigned long long": (8, 8, "uint"),
    "uint64_t": (8, 8, "uint"), "size_t": (8, 8, "uint"), "uintptr_t": (8, 8, "uint"),
    "half": (2, 2, "float"), "float": (4, 4, "float"), "double": (8, 8, "float"),
    "bfloat16_t": (2, 2, "bfloat16"),
}


@dataclass(frozen=True)
class Param:
    """One kernel parameter: its name and declared type, and where it sits in the argument blob."""

    name: str
    type: str
    size: int
    align: int
    offset: int
    kind: str  # pointer | int | uint | float | bfloat16 | bool | struct

    def __str__(self) -> str:
        return f"{self.type} {self.name}".strip()


@dataclass(frozen=True)
class Signature:
    """A kernel's parameters in order and the blob size they take (``k.signature``)."""

    kernel: str
    params: tuple[Param, ...]
    size: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "pointers_only", all(p.kind == "pointer" for p in self.params))

    #: every parameter is a GM address (the launch's fast path)
    pointers_only: bool = False

    def __str__(self) -> str:
        return f"{self.kernel}({', '.join(map(str, self.params))})"


def _section(data: bytes, name: bytes) -> bytes | None:
    """The contents of ELF64 little-endian section ``name`` of the file ``data``, or None."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return None
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    if not shoff or shstrndx >= shnum:
        return None

    def header(i: int) -> tuple[int, int, int]:
        base = shoff + i * shentsize
        sh_name, = struct.unpack_from("<I", data, base)
        off, size = struct.unpack_from("<QQ", data, base + 0x18)
        return sh_name, off, size

    _, stroff, _ = header(shstrndx)
    for i in range(shnum):
        sh_name, off, size = header(i)
        end = data.find(b"\0", stroff + sh_name)
        if data[stroff + sh_name:end] == name:
            return data[off:off + size]
    return None


def parse_table(section: bytes) -> dict[str, Signature]:
    """Signatures of a ``.pyasc_sim_sig`` section's records (kapi/entry.h SignatureRecord)."""
    out: dict[str, Signature] = {}
    pos = section.find(_MAGIC)
    while pos >= 0:
        record_size, version, text_size, table_size = struct.unpack_from("<IIII", section, pos + 8)
        text = section[pos + 24:pos + 24 + text_size].split(b"\0", 1)[0].decode("utf-8", "replace")
        toff = pos + 24 + -(-text_size // 8) * 8  # the table is 8-aligned within the record
        table = struct.unpack_from(f"<{table_size}Q", section, toff)
        lines = text.split("\n")
        kernel = lines[0]
        declared = [ln.split("\t", 1) for ln in lines[1:] if ln]
        n = table[0]
        params = []
        for i in range(n):
            size, align, offset, kind = table[1 + 4 * i:5 + 4 * i]
            name, typ = declared[i] if i < len(declared) and len(declared[i]) == 2 else (f"arg{i}", "")
            params.append(Param(name, typ, size, align, offset, KINDS.get(kind, "struct")))
        if version >= 1:
            out[kernel] = Signature(kernel, tuple(params), table[1 + 4 * n])
        pos = section.find(_MAGIC, pos + max(record_size, 8))
    return out


def read_signatures(path: str) -> dict[str, Signature]:
    """{kernel name: Signature} recorded in the binary at ``path`` ({} when it has no table: an
    older simulator binary, a hand-written entry or a CANN binary). Read once per version of the
    file (path, inode, size, mtime): naming a kernel and loading it each asked for the table."""
    try:
        st = os.stat(path)
    except OSError:
        return {}
    return dict(_signatures_of(os.path.abspath(path), st.st_ino, st.st_size, st.st_mtime_ns))


@functools.lru_cache(maxsize=512)
def _signatures_of(path: str, ino: int, size: int, mtime_ns: int) -> dict[str, Signature]:
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return {}
    section = _section(data, _SECTION)
    return parse_table(section) if section else {}


def layout_of(kernel: str, params: list[tuple[str, str]], structs: dict[str, tuple[int, int]] | None = None
              ) -> Signature:
    """The layout of ``params`` ([(name, declared type)]) as the device compiler lays them out:
    pointers 8 bytes, the scalar types of :data:`SCALAR_TYPES`, and struct types found in
    ``structs`` ({type name: (size, alignment)}). Raises KeyError for an unknown type."""
    out, off = [], 0
    for name, typ in params:
        t = " ".join(w for w in typ.replace("__gm__", " ").split() if w not in ("const", "volatile", "struct"))
        if "*" in t or t == "GM_ADDR":
            size, align, kind = 8, 8, "pointer"
        elif t.removeprefix("std::") in SCALAR_TYPES:
            size, align, kind = SCALAR_TYPES[t.removeprefix("std::")]
        else:
            size, align = (structs or {})[t]
            kind = "struct"
        off = -(-off // align) * align
        out.append(Param(name, typ, size, align, off, kind))
        off += size
    return Signature(kernel, tuple(out), off)
