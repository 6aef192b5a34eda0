"""The NPU compiler's (bisheng's) own function-attribute spelling ``[aicore]``, rewritten for g++.

The NPU compiler is clang-based and knows a function attribute written in single brackets: CANN's headers
define ``__aicore__`` as ``[aicore]`` (public platform headers carry ``#define __aicore__ [aicore]`` as "the
AICore function attribute for CANN compiler"), and public SIMT code writes it out, e.g. IndexSDK's
``__forceinline__[aicore] void swap(T &a, T &b)`` or ``#define DI __forceinline__[aicore]``. No C++ compiler
other than the NPU's parses it and no macro can turn it into C++ (``[`` is not an identifier), so the
simulator's build rewrites each ``[aicore]`` that stands where a function specifier stands -- after
``__forceinline__``, ``__simt_callee__``, ``__simt_vf__``, ``inline``, ``static``, ``constexpr``, ``extern``,
``__global__``, ``__aicore__``, at the start of a line, or after ``;`` / ``{`` / ``}`` / ``>`` -- into
``__aicore__`` (what it means: the simulator's ``__aicore__`` is empty). The attribute-list form that also names
the host, ``[host, aicore]`` (Catlass-style code spells a host-and-device function ``#define CATLASS_HOST_DEVICE
__forceinline__ [host, aicore]``, as in NPUKernelBench's level3 answers), is rewritten the same way: on the
simulator every function runs on the host. An array subscript ``a[aicore]`` (an identifier before the bracket) is
left alone. Line numbers do not change.

The kernel source is rewritten in the build's private copy. Its own headers (the ``#include "..."`` files found
from its directory, recursively) that lie in or under the source's directory are copied, rewritten, into the
private build directory at the same relative paths, where the quoted includes of the copy find them first; one
named like a kernel API header is not copied (it keeps its spelling). Headers found through ``-I`` include
directories (``extra_flags`` of ``compile``, ``include_dirs`` of the CPU-debug build), quoted or in angle
brackets, recursively, are copied, rewritten, into a private tree that repeats their absolute paths
(:func:`mirror_tree`), and each ``-I dir`` gets the tree's copy of ``dir`` in front of it
(:func:`mirrored_dirs`), so every include finds the rewritten copy where it found the original. Every copy starts
with a ``#line`` naming the original (diagnostics, ``__FILE__`` and debuggers show the user's file and line); the
user's files are never changed. Sources without ``[aicore]`` (in them or in any header they reach) are built
exactly as before.
"""

from __future__ import annotations

import os
import re

from collections.abc import Callable, Iterable, Sequence

#: ``[aicore]`` -- or an attribute list of ``host`` / ``aicore``, such as ``[host, aicore]`` -- in a
#: function-specifier position (group 1: what precedes it, kept)
_AICORE_RE = re.compile(
    r"((?:\b(?:__forceinline__|__simt_callee__|__simt_vf__|inline|static|constexpr|extern|__global__|__aicore__))"
    r"|^|[;{}>])([ \t]*)\[[ \t]*(?:host[ \t]*,[ \t]*)?aicore(?:[ \t]*,[ \t]*host)?[ \t]*\]", re.M)
#: a quoted (group 1) or angle-bracket (group 2) include
_ANY_INCLUDE_RE = re.compile(r'^\s*#\s*include\s*(?:"([^"]+)"|<([^>]+)>)', re.M)
#: the files the build itself writes into its private directory (never shadowed by a mirrored header)
_BUILD_FILES = frozenset({"kernel.cpp", "prelude.cpp", "stubs.cpp", "kernel.so"})


def rewrite(text: str) -> tuple[str, int]:
    """``text`` with every ``[aicore]`` in a function-specifier position spelled ``__aicore__``, and how many."""
    return _AICORE_RE.subn(lambda m: f"{m.group(1)}{m.group(2) or ' '}__aicore__", text)


def uses_aicore_attribute(texts: Iterable[str | bytes]) -> bool:
    """Whether any of ``texts`` (a source and its own headers) writes the ``[aicore]`` attribute."""
    for t in texts:
        s = t.decode("utf-8", "replace") if isinstance(t, bytes) else t
        if "aicore" in s and _AICORE_RE.search(s):
            return True
    return False


def own_headers(text: str, src_dir: str) -> list[str]:
    """The ``#include "..."`` files found from ``src_dir`` (each relative to its includer), recursively: paths."""
    return reachable_headers(text, src_dir, (), ())


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
            rewritten += write_copy(os.path.join(tmpdir, rel), path, f.read(), rewriters) > 0
    return rewritten


def include_dirs(flags: Sequence[str]) -> list[str]:
    """The ``-I`` directories of compiler ``flags`` (``-I dir`` and ``-Idir``), absolute, in order."""
    out: list[str] = []
    it = iter(flags)
    for f in it:
        d = next(it, None) if f == "-I" else (f[2:] if f.startswith("-I") else None)
        if d:
            out.append(os.path.abspath(d))
    return out


def reachable_headers(start: str, start_dir: str, quote_chain: Sequence[str], angle_chain: Sequence[str],
                      stop: str | None = None) -> list[str]:
    """The header files the source text ``start`` (in ``start_dir``) reaches, recursively, as the compiler searches:
    a quoted include in the includer's directory, then ``quote_chain``; an angle-bracket include in ``angle_chain``.
    A header found under ``stop`` (the kernel API) is not followed; one found nowhere (a system header) neither."""
    stop_root = os.path.realpath(stop) if stop is not None else None
    found: list[str] = []
    seen: set[str] = set()

    def walk(t: str, directory: str) -> None:
        for quoted, angled in _ANY_INCLUDE_RE.findall(t):
            name = quoted or angled
            chain = [directory, *quote_chain] if quoted else list(angle_chain)
            for d in chain:
                path = os.path.normpath(os.path.join(d, name))
                if os.path.isfile(path):
                    break
            else:
                continue
            real = os.path.realpath(path)
            if path in seen or (stop_root is not None and (real == stop_root or real.startswith(stop_root + os.sep))):
                continue
            seen.add(path)
            found.append(path)
            with open(path, encoding="utf-8", errors="replace") as f:
                walk(f.read(), os.path.dirname(path))

    walk(start, start_dir)
    return found


def tree_path(tree: str, path: str) -> str:
    """Where the private tree ``tree`` keeps the copy of ``path`` (its absolute path under ``tree``)."""
    return os.path.join(tree, os.path.abspath(path).lstrip(os.sep))


def write_copy(dest: str, original: str, text: str,
               rewriters: Iterable[Callable[[str], tuple[str, int]]] = (rewrite,)) -> int:
    """Write ``text`` with ``rewriters`` applied in order (default: the ``[aicore]`` rewrite) to ``dest``, after a
    ``#line`` naming ``original``; returns how many rewrites were made."""
    new, n = text, 0
    for fn in rewriters:
        new, k = fn(new)
        n += k
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    shown = original.replace("\\", "\\\\").replace('"', '\\"')
    with open(dest, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(f'#line 1 "{shown}"\n{new}')
    return n


def mirror_tree(tree: str, headers: Iterable[str],
                rewriters: Iterable[Callable[[str], tuple[str, int]]] = (rewrite,)) -> int:
    """Rewritten copies of ``headers`` in the private tree ``tree`` (:func:`tree_path`), ``rewriters`` applied in
    order (default: the ``[aicore]`` rewrite); returns how many were rewritten."""
    rewriters = list(rewriters)
    rewritten = 0
    for path in headers:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            rewritten += write_copy(tree_path(tree, path), path, f.read(), rewriters) > 0
    return rewritten


def mirrored_dirs(tree: str, flags: Sequence[str]) -> list[str]:
    """``flags`` with the private tree's copy of each ``-I dir`` in front of it (``-I <tree>/<dir> -I dir``)."""
    out: list[str] = []
    it = iter(flags)
    for f in it:
        if f == "-I" or (f.startswith("-I") and len(f) > 2):
            d = next(it, None) if f == "-I" else f[2:]
            if d is None:
                out.append(f)
                break
            out += ["-I", tree_path(tree, d), "-I", d]
        else:
            out.append(f)
    return out
