"""Template kernel instances in binaries without pyasc's signature table (CANN's bisheng output).

A template kernel's instance has no ``extern "C"`` name: the device compiler exports it under its
Itanium-mangled name (``leaky_relu<half>`` -> ``_Z10leaky_reluIDhEv...``), which is what
``aclrtBinaryGetFunction`` takes. :func:`resolve` finds that symbol in the binary's ELF symbol
table from the name as C++ spells it, so ``pyasc.Kernel(src, "leaky_relu<half>")`` names the same
kernel on the NPU as on the simulator (whose stubs export the spelled name itself)."""

from __future__ import annotations

import re
import struct

from pyasc_core.errors import KernelNotFoundError

#: Itanium codes of the builtin types a template argument may name (several where compilers
#: differ: half is __fp16 (Dh) or _Float16 (DF16_); bfloat16_t is __bf16 (DF16b) or a struct)
_CODES = {
    "void": ["v"], "bool": ["b"], "char": ["c"], "signed char": ["a"], "int8_t": ["a"], "unsigned char": ["h"],
    "uint8_t": ["h"], "short": ["s"], "int16_t": ["s"], "unsigned short": ["t"], "uint16_t": ["t"], "int": ["i"],
    "int32_t": ["i"], "unsigned": ["j"], "unsigned int": ["j"], "uint32_t": ["j"], "long": ["l"], "int64_t": ["l"],
    "unsigned long": ["m"], "uint64_t": ["m"], "size_t": ["m"], "long long": ["x"], "unsigned long long": ["y"],
    "float": ["f"], "double": ["d"], "half": ["Dh", "DF16_"], "bfloat16_t": ["DF16b", "u6__bf16", "10bfloat16_t"],
}


def _split(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "<(" 
        depth -= ch in ">)"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return [a for a in [*out, cur.strip()] if a]


def _arg_pattern(arg: str) -> str:
    """A regex of the mangled forms of one template argument."""
    a = re.sub(r"\s+", " ", arg.strip()).removeprefix("std::")
    if re.fullmatch(r"-?\d+[uUlL]*", a):
        digits = a.rstrip("uUlL")
        neg = digits.startswith("-")
        return rf"L[a-z]{'n' if neg else ''}{digits.lstrip('-')}E"
    if a in ("true", "false"):
        return f"Lb{int(a == 'true')}E"
    if a in _CODES:
        return "(?:" + "|".join(map(re.escape, _CODES[a])) + ")"
    if re.fullmatch(r"[A-Za-z_]\w*", a):
        return f"{len(a)}{re.escape(a)}"
    raise KernelNotFoundError(f"cannot find the instance's symbol for the template argument {arg!r}: name the "
                              "kernel by its mangled symbol, or wrap the instance in an extern \"C\" kernel")


def instance_pattern(name: str) -> re.Pattern[str] | None:
    """The regex of the mangled symbols of template instance ``name`` (``f<half, 8>``), or None
    for a plain name."""
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*<(.*)>\s*", name, re.S)
    if m is None:
        return None
    base = m.group(1)
    args = "".join(_arg_pattern(a) for a in _split(m.group(2)))
    return re.compile(rf"_Z{len(base)}{base}I{args}E")


def elf_symbols(path: str) -> list[str]:
    """The names of the symbols an ELF64 little-endian file defines (its .symtab), [] otherwise."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return []
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return []
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", data, 0x3A)
    sections = []
    for i in range(shnum):
        base = shoff + i * shentsize
        _, sh_type = struct.unpack_from("<II", data, base)
        off, size, link = *struct.unpack_from("<QQ", data, base + 0x18), struct.unpack_from("<I", data, base + 0x28)[0]
        sections.append((sh_type, off, size, link))
    names = []
    for sh_type, off, size, link in sections:
        if sh_type not in (2, 11) or link >= len(sections):  # SHT_SYMTAB, SHT_DYNSYM
            continue
        stroff = sections[link][1]
        for pos in range(off, off + size - 23, 24):
            st_name, = struct.unpack_from("<I", data, pos)
            shndx, = struct.unpack_from("<H", data, pos + 6)
            if st_name and shndx:
                end = data.find(b"\0", stroff + st_name)
                names.append(data[stroff + st_name:end].decode("utf-8", "replace"))
    return names


def resolve(path: str, name: str) -> str:
    """The symbol of template instance ``name`` in the binary at ``path`` (its mangled name);
    raises KernelNotFoundError naming the instances the binary has when none (or several) match."""
    pattern = instance_pattern(name)
    if pattern is None:
        return name
    symbols = elf_symbols(path)
    found = sorted({s for s in symbols if pattern.match(s)})
    if len(found) == 1:
        return found[0]
    base = name.split("<", 1)[0].strip()
    others = sorted(s for s in symbols if s.startswith(f"_Z{len(base)}{base}I"))
    if not found:
        raise KernelNotFoundError(
            f"the binary {path} has no instance {name!r} of template kernel {base!r} (its instances: "
            f"{', '.join(others) or 'none'}); instantiate it in the source (template __global__ __aicore__ "
            f"void {name}(...);) or let pyasc compile the source for this backend")
    raise KernelNotFoundError(f"the binary {path} has several symbols for {name!r} ({', '.join(found)}): "
                              "overloaded template kernels cannot be told apart by name; give each its own name")
