"""Launch stubs for Ascend C kernels on the simulator (what Ascend's toolchain does for the host side).

Finds the ``extern "C" __global__ __aicore__ void name(...)`` kernels of a source file and writes a
C++ translation unit that includes the source and exports, for each kernel, the simulator entry
``__pyasc_sim_entry_<name>(PyascSimBlockContext *)`` (``pyasc_sim/kernel_abi.h``): it unpacks the
launch's argument blob (laid out as the device compiler lays out kernel parameters: each at its
type's alignment, by its own size, structs by value) into the kernel's parameters and runs the
kernel once for the block in the kernel API's block scope (``kernel_api/README.md``). Each stub also
records the kernel's signature (parameter names, types, sizes, alignments, offsets) in the binary's
``.pyasc_sim_sig`` section, which pyasc reads to pack arguments (``pyasc_acl.signature``).

Template kernels (``template <typename T> __global__ __aicore__ void leaky_relu(...)``) get one
entry per instance: the instances the source instantiates explicitly (``template __global__
__aicore__ void leaky_relu<half>(...);``) and the ones asked for by name (``instances=``). An
instance is named as C++ spells it, ``leaky_relu<half>`` (:func:`canonical_name`: one space after
each comma, none elsewhere around punctuation); its entry symbol is that name verbatim after the
prefix, ``__pyasc_sim_entry_leaky_relu<half>`` (an assembler-quoted symbol), so the runtime's
``aclrtBinaryGetFunction(bin, "leaky_relu<half>")`` finds it like any other kernel.

Kernels are found after preprocessing with a stand-in ``kernel_operator.h`` that turns the
qualifiers into markers, so kernels declared through macros are found too, and each one keeps the
file and line it was written at (for error messages).

This module imports nothing from pyasc: CMake runs it as a script at build time::

    python _stubgen.py --cxx g++ -I <include dir> -o stubs.cpp kernels/binary.cpp
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field

#: bumped whenever the generated code changes (part of the compile cache key)
STUB_VERSION = "9"  # 4: typed argument layout + the .pyasc_sim_sig signature table; 5: template instances;
#                     6: the stand-in header has arch.h's architecture defaults; 7: mixed kernels per core kind,
#                     sys_workspace entries; 8: vector-only template kernels run the vector pass,
#                     the op build's DT_* numbers in the stand-in header; 9: C++-linkage kernels (in namespaces too)

_FAKE_HEADER = """\
/* pyasc_sim._stubgen: stand-in kernel_operator.h used only to find kernel signatures */
#define __global__ __pyasc_global__
#define __aicore__ __pyasc_aicore__
#define __gm__ __pyasc_gm__
#define GM_ADDR __pyasc_gm__ unsigned char *
/* the architecture defaults of pyasc_sim/kapi/arch.h (a build without -D from a SoC profile, such as
   the built-in kernels' CMake build, sees the same #if branches here as in the real compile) */
#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
#if !defined(__DAV_C220_VEC__) && !defined(__DAV_C220_CUBE__) && __NPU_ARCH__ == 2201 && \\
    !defined(PYASC_SIM_NO_DAV_MACRO)
#define __DAV_C220_VEC__ 1
#endif
/* an op build's DT_* / FORMAT_* numbers (kapi/op_dtypes.h), so `#if ORIG_DTYPE_X == DT_FLOAT16` takes the
   same branch here as in the real compile */
#ifdef PYASC_SIM_OP_DTYPE_MACROS
#include "pyasc_sim/kapi/op_dtypes.h"
#endif
"""

_KERNEL_RE = re.compile(
    r'extern\s+"C"\s+((?:(?:__pyasc_global__|__pyasc_aicore__|inline|static)\s+)*)void\s+([A-Za-z_]\w*)\s*\(([^()]*)\)\s*([;{])'
)
_QUALS = r"(?:(?:__pyasc_global__|__pyasc_aicore__|inline|static)\s+)*"
_TARGS = r"(?:[^<>;{}()]|<(?:[^<>;{}()]|<[^<>;{}()]*>)*>)*"
_TEMPLATE_RE = re.compile(
    r"\btemplate\s*<(" + _TARGS + r")>\s*(" + _QUALS + r")void\s+([A-Za-z_]\w*)\s*\(([^()]*)\)\s*([;{])")
_EXPLICIT_RE = re.compile(
    r"\btemplate\s+(" + _QUALS + r")void\s+([A-Za-z_]\w*)\s*<(" + _TARGS + r")>\s*\(([^()]*)\)\s*;")
_LINEMARK_RE = re.compile(r'^#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"', re.M)

_INT_TYPES = {
    "bool", "char", "signed char", "unsigned char", "short", "unsigned short", "int", "unsigned",
    "unsigned int", "long", "unsigned long", "long long", "unsigned long long", "size_t",
    "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t",
    "intptr_t", "uintptr_t",
}
_FLOAT_TYPES = {"float", "double"}


class StubError(Exception):
    """A kernel signature the launch ABI cannot express, or no kernel at all (file, line, message)."""

    def __init__(self, message: str, file: str = "", line: int = 0) -> None:
        super().__init__(f"{file}:{line}: {message}" if file else message)
        self.file = file
        self.line = line
        self.detail = message


@dataclass
class Param:
    text: str
    name: str
    kind: str  # "pointer" | "int" | "float" | "value" (any other type by value: half, structs...)
    type: str = ""  # the declared type without the name ("GM_ADDR" for __gm__ pointers)


@dataclass
class Kernel:
    name: str  # the kernel's name; a template instance's as C++ spells it (leaky_relu<half>)
    file: str
    line: int
    params: list[Param] = field(default_factory=list)
    instance: bool = False  # a template instance (its entry symbol is quoted)
    vector_only: bool = False  # its body declares KERNEL_TYPE_AIV_ONLY / MIX_AIV_1_0 (a split build runs its AIV pass)
    scope: str = ""  # a C++-linkage kernel's enclosing namespaces ("ns::inner::"); "" at global scope / extern "C"


@dataclass
class Template:
    """A template kernel: its template parameters [(name, default or None)] and parameter texts."""

    name: str
    file: str
    line: int
    tparams: list[tuple[str, str | None]]
    params: list[str]
    vector_only: bool = False  # its body declares KERNEL_TYPE_AIV_ONLY / MIX_AIV_1_0 (as Kernel.vector_only)


def canonical_name(name: str) -> str:
    """A kernel name in one spelling: whitespace collapsed, none around ``<>(),*&:[]`` except one
    space after each comma (``leaky_relu< half,8 >`` -> ``leaky_relu<half, 8>``)."""
    s = re.sub(r"\s+", " ", name.strip())
    s = re.sub(r"\s*([<>(),*&:\[\]])\s*", r"\1", s)
    return s.replace(",", ", ")


def split_template_id(name: str) -> tuple[str, list[str]] | None:
    """(template name, [argument texts]) of ``name<args>``, or None for a plain name."""
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*<(.*)>\s*", name, re.S)
    if m is None:
        return None
    return m.group(1), [a for a in _split_params(m.group(2)) if a]


def _split_params(text: str) -> list[str]:
    text = text.strip()
    if not text or text == "void":
        return []
    out, depth, cur = [], 0, []
    for ch in text:
        if ch in "<([":
            depth += 1
        elif ch in ">)]":
            depth -= 1
        if ch == "," and depth == 0:
            out.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    out.append("".join(cur).strip())
    return out


def param_type(text: str, name: str) -> str:
    """The declared type of parameter ``text`` without its name and default (GM_ADDR for the
    stand-in header's expansion of GM_ADDR, ``__gm__`` for other global pointers)."""
    t = re.sub(r"\s+", " ", re.sub(r"\s*=.*$", "", text.strip()))
    if name and t.endswith(name):
        t = t[: -len(name)].strip()
    if t == "__pyasc_gm__ unsigned char *":
        return "GM_ADDR"
    return t.replace("__pyasc_gm__", "__gm__")


_TYPE_RE = re.compile(r"(?:(?:const|volatile|struct|class|typename)\s+)*(?:::)?[A-Za-z_]\w*(?:::[A-Za-z_]\w*)*(?:\s*<[^;{}]*>)?")


def _classify(text: str) -> tuple[str, str]:
    """(kind, name) of one parameter declaration, or kind '' when the ABI cannot pass it."""
    t = re.sub(r"\s+", " ", text.replace("__pyasc_gm__", " ")).strip()
    t = re.sub(r"\s*=.*$", "", t)  # default arguments
    if "&" in t or "[" in t or "..." in t:
        return "", t
    if "*" in t:
        name = t.rsplit("*", 1)[1].strip()
        return "pointer", name if re.fullmatch(r"[A-Za-z_]\w*", name or "") else ""
    words = [w for w in t.split(" ") if w not in ("const", "volatile", "__restrict__", "restrict")]
    name = ""
    if len(words) > 1 and " ".join(words) not in _INT_TYPES | _FLOAT_TYPES:
        name = words.pop()
    base = " ".join(words)
    for prefix in ("std::", "::"):
        if base.startswith(prefix):
            base = base[len(prefix):]
    if base in _INT_TYPES:
        return "int", name
    if base in _FLOAT_TYPES:
        return "float", name
    if name and _TYPE_RE.fullmatch(base):  # half, bfloat16_t, a struct by value: the stub checks it
        return "value", name
    return "", t


def _location(pre: str, pos: int, default_file: str) -> tuple[str, int]:
    """Source file and line of offset ``pos`` of preprocessor output with line markers."""
    file, line, start = default_file, 1, 0
    for m in _LINEMARK_RE.finditer(pre, 0, pos):
        eol = pre.find("\n", m.end())  # the marker line may end with flags: # 3 "file" 2
        file, line, start = m.group(2), int(m.group(1)), (eol + 1 if eol >= 0 else len(pre))
    return file, line + pre.count("\n", start, pos)


def _kernel(name: str, ptexts: list[str], file: str, line: int, instance: bool = False) -> Kernel:
    params = []
    for i, ptext in enumerate(ptexts):
        kind, pname = _classify(ptext)
        if not kind:
            raise StubError(
                f"kernel {name!r}: parameter {i + 1} '{ptext.replace('__pyasc_gm__', '__gm__')}' cannot "
                "be passed by aclrtLaunchKernel: kernel parameters are GM addresses (GM_ADDR or "
                "__gm__ T *), scalars or trivially copyable structs by value, each named; pass "
                "other data in a tiling buffer (GM_ADDR)", file, line)
        params.append(Param(ptext, pname, kind, param_type(ptext, pname)))
    return Kernel(name, file, line, params, instance)


def find_templates(preprocessed: str, source_file: str) -> dict[str, Template]:
    """The template kernels (``template <...> __global__ __aicore__ void name(...)``) by name."""
    found: dict[str, Template] = {}
    for m in _TEMPLATE_RE.finditer(preprocessed):
        if "__pyasc_global__" not in m.group(2):
            continue
        tparams = []
        for t in _split_params(m.group(1)):
            decl, _, default = t.partition("=")
            words = re.findall(r"[A-Za-z_]\w*", decl)
            tparams.append((words[-1] if len(words) > 1 else "", default.strip() or None))
        file, line = _location(preprocessed, m.start(3), source_file)
        prev = found.get(m.group(3))
        if prev is None or m.group(5) == "{":
            vector_only = m.group(5) == "{" and bool(_VECTOR_ONLY_RE.search(_body(preprocessed, m.end() - 1)))
            found[m.group(3)] = Template(m.group(3), file, line, tparams, _split_params(m.group(4)), vector_only)
    return found


def instantiate(t: Template, args: list[str]) -> Kernel:
    """Template ``t``'s instance for ``args`` (defaults fill the rest), its parameter types with
    the template parameters substituted."""
    name = canonical_name(f"{t.name}<{', '.join(args)}>")
    if len(args) > len(t.tparams) or any(d is None for _, d in t.tparams[len(args):]):
        raise StubError(f"{name}: template kernel {t.name!r} takes {len(t.tparams)} template argument(s) "
                        f"({', '.join(n or '?' for n, _ in t.tparams)}), got {len(args)}", t.file, t.line)
    values = list(args) + [d or "" for _, d in t.tparams[len(args):]]
    subst = {n: v for (n, _), v in zip(t.tparams, values) if n}

    def sub(text: str) -> str:
        return re.sub(r"\b[A-Za-z_]\w*\b", lambda m: subst.get(m.group(0), m.group(0)), text)

    k = _kernel(name, [sub(p) for p in t.params], t.file, t.line, instance=True)
    k.vector_only = t.vector_only
    return k


_VECTOR_ONLY_RE = re.compile(r"\bKERNEL_TASK_TYPE_DEFAULT\s*\(\s*(?:\w+::)*KERNEL_TYPE_(?:AIV_ONLY|MIX_AIV_1_0)\s*\)")


def _body(text: str, start: int) -> str:
    """The brace-balanced block of ``text`` opening at ``start``."""
    depth, i = 0, start
    while i < len(text):
        depth += 1 if text[i] == "{" else -1 if text[i] == "}" else 0
        i += 1
        if depth == 0:
            break
    return text[start:i]


def find_kernels(preprocessed: str, source_file: str, instances: list[str] | tuple[str, ...] = ()) -> list[Kernel]:
    """Kernels (with their parameters and locations) in preprocessor output made with the stand-in
    header: the ``extern "C"`` kernels, the template instances the source instantiates explicitly,
    and ``instances`` (template instances asked for by name, ``leaky_relu<half>``)."""
    found: dict[str, Kernel] = {}
    for m in _KERNEL_RE.finditer(preprocessed):
        if "__pyasc_global__" not in m.group(1):
            continue
        name = m.group(2)
        file, line = _location(preprocessed, m.start(2), source_file)
        k = _kernel(name, _split_params(m.group(3)), file, line)
        if m.group(4) == "{":
            k.vector_only = bool(_VECTOR_ONLY_RE.search(_body(preprocessed, m.end() - 1)))
        prev = found.get(name)
        if prev is None or (m.group(4) == "{" and prev.params != k.params):
            found[name] = k
    for m in _BLOCK_KERNEL_RE.finditer(preprocessed):  # C++-linkage kernels (in namespaces too)
        if "__pyasc_global__" not in m.group(1) or m.group(2) in found or m.group(4) != "{":
            continue  # (a declaration alone may be defined in another translation unit: no entry for it)
        before = preprocessed[max(0, m.start() - 64):m.start()].rstrip()
        if before.endswith('"C"') or before.endswith(">"):  # extern "C" (above) / a template kernel
            continue
        scope = namespace_scope(preprocessed, m.start())
        if scope is None:  # inside a class or function body, or an anonymous namespace within a named one
            continue
        file, line = _location(preprocessed, m.start(2), source_file)
        try:
            k = _kernel(m.group(2), _split_params(m.group(3)), file, line)
        except StubError:  # not launchable by aclrtLaunchKernel: left to the source's own calls
            continue
        k.scope = scope
        k.vector_only = bool(_VECTOR_ONLY_RE.search(_body(preprocessed, m.end() - 1)))
        found[k.name] = k
    templates = find_templates(preprocessed, source_file)
    wanted = [(m.group(2), [a for a in _split_params(m.group(3)) if a]) for m in _EXPLICIT_RE.finditer(preprocessed)
              if m.group(2) in templates]
    for name in instances:
        parts = split_template_id(name)
        if parts is None or parts[0] not in templates:
            have = ", ".join(sorted(templates)) or "none"
            raise StubError(f"no template kernel {parts[0] if parts else name!r} for the instance {name!r} in "
                            f"{source_file} (its template kernels: {have}); a template kernel is declared as "
                            "template <typename T> __global__ __aicore__ void name(...)", source_file)
        wanted.append(parts)
    for tname, args in wanted:
        k = instantiate(templates[tname], args)
        found.setdefault(k.name, k)
    return list(found.values())


_SCOPE_TOKEN_RE = re.compile(r"\b(?:inline\s+)?namespace(?:\s+([A-Za-z_][\w:]*))?\s*\{|\{|\}")
_STRING_RE = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')


def namespace_scope(preprocessed: str, pos: int) -> str | None:
    """The namespaces enclosing ``pos`` as a qualifier (``"custom_device::ascendc::"``; ``""`` at
    global scope or in an ``extern "C"`` block or anonymous namespace at global scope), or None when
    ``pos`` is inside any other braces (a class, a function) or an anonymous namespace inside a named
    one (not nameable from global scope). C++-linkage kernels get their entries through it: the NPU
    compiler launches ``ns::kernel<<<...>>>`` kernels declared in namespaces as it does global ones."""
    text = _STRING_RE.sub(lambda m: " " * len(m.group(0)), preprocessed[:pos])
    stack: list[str | None] = []  # a namespace's name ("" anonymous), None for any other braces
    for m in _SCOPE_TOKEN_RE.finditer(text):
        tok = m.group(0)
        if tok == "}":
            if stack:
                stack.pop()
        elif tok == "{":
            before = preprocessed[max(0, m.start() - 16):m.start()].rstrip()  # (text has "C" blanked)
            stack.append("" if before.endswith('"C"') else None)  # extern "C" { ... } adds no scope
        else:
            stack.append(m.group(1) or "")
    if any(s is None for s in stack):
        return None
    names = [s for s in stack if s]
    if names and "" in stack[stack.index(names[0]):]:
        return None
    return "".join(f"{n}::" for n in names)


def preprocess(source: str, include_dirs: list[str], cxx: str = "g++",
               defines: list[str] | None = None, quote_dirs: list[str] | tuple[str, ...] = (),
               flags: list[str] | tuple[str, ...] = ()) -> str:
    """Run the preprocessor on ``source`` with the stand-in kernel_operator.h first on the path
    (then ``quote_dirs`` for ``#include "..."`` only, as ``-iquote``, then ``include_dirs``);
    ``flags`` (the compile's -D/-I/-include/extra flags) come last, as in the real compile.

    Raises StubError with the compiler's message when preprocessing fails (a missing header...)."""
    tmp = tempfile.mkdtemp(prefix="pyasc_stubgen_")
    try:
        with open(os.path.join(tmp, "kernel_operator.h"), "w", encoding="utf-8") as f:
            f.write(_FAKE_HEADER)
        cmd = [cxx, "-E", "-std=c++20", "-w", "-D__PYASC_SIM_STUBGEN__=1", "-iquote", tmp]
        for d in quote_dirs:
            cmd += ["-iquote", d]
        cmd += ["-I", tmp, "-I", os.path.dirname(os.path.abspath(source))]
        for d in include_dirs:
            cmd += ["-I", d]
        cmd += [f"-D{d}" for d in defines or ()]
        cmd += list(flags)
        cmd.append(source)
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise StubError(f"preprocessing failed ({' '.join(cmd)}):\n{proc.stderr.strip()}")
        return expose_extern_c_blocks(proc.stdout)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def cxx_string(s: str) -> str:
    """``s`` as a C++ string literal (for #include and #line)."""
    out = s.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c.isprintable() else f"\\{ord(c):03o}" for c in out) + '"'


_cxx_string = cxx_string


def workspace_index(k: Kernel) -> int | None:
    """The index of the kernel's ``workspace`` parameter (an op project's ``GM_ADDR workspace``), if any."""
    for i, p in enumerate(k.params):
        if p.name.lower() == "workspace" and p.kind == "pointer":
            return i
    return None


def generate(source: str, kernels: list[Kernel], checks: bool = True, split: str | None = None,
             sys_workspace: bool = False, vector_only_templates: Sequence[str] = ()) -> str:
    """The stub translation unit: includes ``source`` (by absolute path), then one entry stub per
    kernel in the kernel API's form (``PYASC_SIM_KERNEL_SIG(name, text)``, kernel_api/include/
    pyasc_sim/kapi/entry.h): it deduces the parameter types, unpacks the arguments at their typed
    offsets, runs the kernel in the block's scope and then the end-of-kernel checks; ``text``
    (the kernel's name, then ``param\ttype`` per parameter) goes into its signature record. With ``checks=False`` each entry clears
    the sanitizer flag of its block context first, so the binary never runs the checks (whatever
    PYASC_SIM_CHECKS says). With ``sys_workspace`` (the op-project build, or -DHAVE_WORKSPACE) a kernel
    with a ``workspace`` pointer parameter gets an entry that sets the system workspace from it first, as
    the framework does (SetSysWorkSpace: "框架会自动设置").

    ``split`` is set for a mixed kernel built once per core kind (``pyasc_sim.build``): ``"aiv"``
    writes the vector pass's unit, which has no entries, only ``__pyasc_sim_aiv_get_<i>`` handing out
    each kernel's address; ``"aic"`` writes the cube pass's entries, which run the cube pass on the
    block's AIC and the vector pass (from the getter) on its AIV (``run_entry``'s ``aiv_fn``);
    ``vector_only_templates`` (a kernel-launch source's vector-only template kernels) are registered
    there so that their ``<<<>>>``-launched instances run the vector pass alone (kapi/host_launch.h)."""

    def ref(k: Kernel) -> str:  # the kernel as C++ names it from global scope (namespaced ones qualified)
        return f"{k.scope}{k.name}"

    def runs(k: Kernel) -> str:  # the function an entry runs: the kernel, or its system-workspace wrapper
        ws = workspace_index(k) if sys_workspace else None
        return f"&{ref(k)}" if ws is None else f"&::pyasc_sim::kapi::SysWorkspaceEntry<&{ref(k)}, {ws}>::call"

    if split == "aiv":
        return "\n".join([
            f"// Generated by pyasc_sim._stubgen (version {STUB_VERSION}) for {source}, vector pass: do not edit.",
            f"#include {_cxx_string(os.path.abspath(source))}",
            '#include "kernel_operator.h"',
            "",
            *(f"PYASC_SIM_EXTERN_C void {aiv_getter(i)}(decltype(&{ref(k)}) *out) {{ *out = {runs(k)}; }}"
              for i, k in enumerate(kernels)),
            "",
        ])
    out = [
        f"// Generated by pyasc_sim._stubgen (version {STUB_VERSION}) for {source}: do not edit.",
        f"#include {_cxx_string(os.path.abspath(source))}",
        '#include "kernel_operator.h"',
        "",
    ]
    if split == "aic":
        out += [f"static const bool __pyasc_sim_vector_only_{i} = "
                f"::pyasc_sim::host::register_vector_only_template({_cxx_string(n)});"
                for i, n in enumerate(vector_only_templates)]
    for i, k in enumerate(kernels):
        params = ", ".join(f"{p.kind} {p.name}".strip() for p in k.params)
        out.append(f"// {k.name}({params})  {k.file}:{k.line}")
        text = _cxx_string(signature_text(k))
        if split == "aic":  # the entry hands the vector pass's kernel to run_entry for the AIV
            entry = f"__pyasc_sim_instance_{i}" if k.instance else f"__pyasc_sim_entry_{k.name}"
            out += [
                f"PYASC_SIM_EXTERN_C void {aiv_getter(i)}(decltype(&{ref(k)}) *out);",
                f"PYASC_SIM_SIGNATURE({entry if k.instance else k.name}, {text}, {ref(k)})",
                *([f"PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT void {entry}(PyascSimBlockContext *ctx) "
                   f"__asm__({_cxx_string(chr(34) + '__pyasc_sim_entry_' + k.name + chr(34))});"] if k.instance else []),
                f"PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT void {entry}(PyascSimBlockContext *ctx) {{",
                *(["    ctx->flags &= ~PYASC_SIM_FLAG_CHECKS;"] if not checks else []),
                f"    decltype(&{ref(k)}) aiv = nullptr;",
                f"    {aiv_getter(i)}(&aiv);",
                # a vector-only kernel's one core is an AIV: it runs the vector pass
                f"    ::pyasc_sim::kapi::run_entry(ctx, {_cxx_string(k.name)}, "
                + ("aiv);" if k.vector_only else f"{runs(k)}, aiv);"),
                "}",
                "",
            ]
        elif k.instance:  # a template instance: its entry symbol spelled as C++ names it, quoted
            entry = f"__pyasc_sim_instance_{i}"
            out += [
                f"PYASC_SIM_SIGNATURE({entry}, {text}, {k.name})",
                f"PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT void {entry}(PyascSimBlockContext *ctx) "
                f"__asm__({_cxx_string(chr(34) + '__pyasc_sim_entry_' + k.name + chr(34))});",
                f"PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT void {entry}(PyascSimBlockContext *ctx) {{",
                *(["    ctx->flags &= ~PYASC_SIM_FLAG_CHECKS;"] if not checks else []),
                f"    ::pyasc_sim::kapi::run_entry(ctx, {_cxx_string(k.name)}, &{ref(k)});",
                "}",
                "",
            ]
        elif (ws := workspace_index(k) if sys_workspace else None) is not None:
            fn = f"&::pyasc_sim::kapi::SysWorkspaceEntry<&{ref(k)}, {ws}>::call"
            out += [
                f"PYASC_SIM_SIGNATURE({k.name}, {text}, {ref(k)})",
                f"PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT void __pyasc_sim_entry_{k.name}(PyascSimBlockContext *ctx) {{",
                *(["    ctx->flags &= ~PYASC_SIM_FLAG_CHECKS;"] if not checks else []),
                f"    ::pyasc_sim::kapi::run_entry(ctx, {_cxx_string(k.name)}, {fn});",
                "}",
                "",
            ]
        elif checks and not k.scope:
            out += [f"PYASC_SIM_KERNEL_SIG({k.name}, {text})", ""]
        else:  # PYASC_SIM_KERNEL_SIG's expansion (the kernel qualified; the sanitizer flag cleared without checks)
            out += [
                f"PYASC_SIM_SIGNATURE({k.name}, {text}, {ref(k)})",
                f"PYASC_SIM_EXTERN_C PYASC_SIM_EXPORT void __pyasc_sim_entry_{k.name}(PyascSimBlockContext *ctx) {{",
                *(["    ctx->flags &= ~PYASC_SIM_FLAG_CHECKS;"] if not checks else []),
                f"    ::pyasc_sim::kapi::run_entry(ctx, {_cxx_string(k.name)}, &{ref(k)});",
                "}",
                "",
            ]
    return "\n".join(out)


def aiv_getter(i: int) -> str:
    """The symbol through which a mixed kernel's vector pass hands out its ``i``-th kernel."""
    return f"__pyasc_sim_aiv_get_{i}"


def signature_text(k: Kernel) -> str:
    """The text of ``k``'s signature record: its name, then ``param\ttype`` per parameter."""
    return k.name + "\n" + "".join(f"{p.name}\t{p.type}\n" for p in k.params)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="generate simulator launch stubs for an Ascend C source")
    ap.add_argument("source")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("-I", dest="include", action="append", default=[])
    ap.add_argument("-D", dest="define", action="append", default=[])
    ap.add_argument("--cxx", default=os.environ.get("CXX") or "g++")
    args = ap.parse_args(argv)
    try:
        kernels = find_kernels(preprocess(args.source, args.include, args.cxx, args.define), args.source)
        if not kernels:
            raise StubError(f'no extern "C" __global__ __aicore__ kernel found in {args.source}')
    except StubError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    text = generate(args.source, kernels)
    try:
        with open(args.output, encoding="utf-8") as f:
            if f.read() == text:
                return 0  # unchanged: keep the timestamp so make does not rebuild
    except OSError:
        pass
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


# -- kernels declared inside `extern "C" { ... }` ---------------------------------------------------

_EXTERN_C_BLOCK_RE = re.compile(r'extern\s+"C"\s*\{')
_BLOCK_KERNEL_RE = re.compile(
    r'(?<![\w"])((?:(?:__pyasc_global__|__pyasc_aicore__|inline|static)\s+)+)void\s+([A-Za-z_]\w*)\s*\(([^()]*)\)\s*([;{])'
)


def expose_extern_c_blocks(preprocessed: str) -> str:
    """``preprocessed`` with ``extern "C" `` written before each kernel declared directly inside an
    ``extern "C" { ... }`` block (not in a nested scope), so that :func:`find_kernels` sees it as
    an ``extern "C" __global__ __aicore__`` kernel: public sources wrap their kernels in
    ``#ifdef __cplusplus extern "C" { #endif``. No newline is added (locations stay right)."""
    inserts = []
    for b in _EXTERN_C_BLOCK_RE.finditer(preprocessed):
        depth, i, n = 1, b.end(), len(preprocessed)
        while i < n and depth > 0:  # the block's closing brace
            c = preprocessed[i]
            depth += 1 if c == "{" else -1 if c == "}" else 0
            i += 1
        for m in _BLOCK_KERNEL_RE.finditer(preprocessed, b.end(), i):
            text = preprocessed[b.end():m.start()]
            if "__pyasc_global__" in m.group(1) and text.count("{") == text.count("}"):
                inserts.append(m.start(1))
    for pos in sorted(set(inserts), reverse=True):
        preprocessed = preprocessed[:pos] + 'extern "C" ' + preprocessed[pos:]
    return preprocessed


if __name__ == "__main__":
    sys.exit(main())
