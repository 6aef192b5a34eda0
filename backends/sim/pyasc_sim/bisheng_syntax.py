"""The NPU compiler's (bisheng's) own function-attribute spelling ``[aicore]``, rewritten for g++.

The NPU compiler is clang-based and knows a function attribute written in single brackets: CANN's headers
define ``__aicore__`` as ``[aicore]`` (public platform headers carry ``#define __aicore__ [aicore]`` as "the
AICore function attribute for CANN compiler"), and public SIMT code writes it out, e.g. IndexSDK's
``__forceinline__[aicore] void swap(T &a, T &b)`` or ``#define DI __forceinline__[aicore]``. No C++ compiler
other than the NPU's parses it and no macro can turn it into C++ (``[`` is not an identifier), so the
simulator's build rewrites each ``[aicore]`` that stands where a function specifier stands -- after
``__forceinline__``, ``__simt_callee__``, ``__simt_vf__``, ``inline``, ``static``, ``constexpr``, ``extern``,
``__global__``, ``__aicore__``, at the start of a line, or after ``;`` / ``{`` / ``}`` / ``>`` -- into
``__aicore__`` (what it means: the simulator's ``__aicore__`` is empty). An array subscript ``a[aicore]`` (an
identifier before the bracket) is left alone. Line numbers do not change.

The kernel source is rewritten in the build's private copy. Its own headers (the ``#include "..."`` files found
from its directory, recursively) that lie in or under the source's directory are copied, rewritten, into the
private build directory at the same relative paths, where the quoted includes of the copy find them first; a
header outside the source's directory, or one named like a kernel API header, is not copied (it keeps its
spelling). Sources without ``[aicore]`` are built exactly as before.
"""

from __future__ import annotations

import os
import re

from collections.abc import Callable, Iterable

#: ``[aicore]`` in a function-specifier position (group 1: what precedes it, kept)
_AICORE_RE = re.compile(
    r"((?:\b(?:__forceinline__|__simt_callee__|__simt_vf__|inline|static|constexpr|extern|__global__|__aicore__))"
    r"|^|[;{}>])([ \t]*)\[aicore\]", re.M)
_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
#: the files the build itself writes into its private directory (never shadowed by a mirrored header)
_BUILD_FILES = frozenset({"kernel.cpp", "prelude.cpp", "stubs.cpp", "kernel.so"})


def rewrite(text: str) -> tuple[str, int]:
    """``text`` with every ``[aicore]`` in a function-specifier position spelled ``__aicore__``, and how many."""
    return _AICORE_RE.subn(lambda m: f"{m.group(1)}{m.group(2) or ' '}__aicore__", text)


def uses_aicore_attribute(texts: Iterable[str | bytes]) -> bool:
    """Whether any of ``texts`` (a source and its own headers) writes the ``[aicore]`` attribute."""
    for t in texts:
        s = t.decode("utf-8", "replace") if isinstance(t, bytes) else t
        if "[aicore]" in s and _AICORE_RE.search(s):
            return True
    return False


def own_headers(text: str, src_dir: str) -> list[str]:
    """The ``#include "..."`` files found from ``src_dir`` (each relative to its includer), recursively: paths."""
    found: list[str] = []
    seen: set[str] = set()

    def walk(t: str, directory: str) -> None:
        for name in _INCLUDE_RE.findall(t):
            path = os.path.normpath(os.path.join(directory, name))
            if path in seen or not os.path.isfile(path):
                continue
            seen.add(path)
            found.append(path)
            with open(path, encoding="utf-8", errors="replace") as f:
                walk(f.read(), os.path.dirname(path))

    walk(text, src_dir)
    return found


def mirror_headers(tmpdir: str, src_dir: str, text: str, api_include: str,
                   rewriters: Iterable[Callable[[str], tuple[str, int]]] = (rewrite,)) -> int:
    """Write rewritten copies of the source's own headers in or under ``src_dir`` into ``tmpdir`` at the same
    relative paths (each with a ``#line`` naming the original, so diagnostics and ``__FILE__`` do); returns how
    many headers were rewritten. ``rewriters`` are applied in order (default: the ``[aicore]`` rewrite; the
    build adds pyasc_sim.member_specialization's when the source needs it). Headers outside ``src_dir``, or
    whose relative path names a kernel API header (``api_include``), are not copied."""
    root = os.path.realpath(src_dir)
    rewritten = 0
    for path in own_headers(text, src_dir):
        real = os.path.realpath(path)
        rel = os.path.relpath(real, root)
        if (rel.startswith(os.pardir + os.sep) or os.path.isabs(rel) or rel in _BUILD_FILES
                or os.path.exists(os.path.join(api_include, rel))):
            continue
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            data = f.read()
        new, n = data, 0
        for fn in rewriters:
            new, k = fn(new)
            n += k
        rewritten += n > 0
        dest = os.path.join(tmpdir, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shown = path.replace("\\", "\\\\").replace('"', '\\"')
        with open(dest, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(f'#line 1 "{shown}"\n{new}')
    return rewritten
