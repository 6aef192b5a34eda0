"""Classes whose only constructor is a defaulted default constructor stay aggregates, as the NPU compiler's C++17 has them.

The NPU toolchain builds kernels as C++17, where a class that declares ``F() = default;`` and no other constructor is
still an aggregate, so Catlass-style code brace-assigns it::

    struct AicWaitFunc { __aicore__ AicWaitFunc() = default; Kernel *ptr{nullptr}; uint32_t stageId; };
    aicWaitFuncList[stageId] = {this, stageId};

C++20 (P1008) takes aggregate status from any class with a user-declared constructor, and the simulator builds with
``-std=c++20`` (kernel_api README, "C++ dialect"), so g++ rejects that assignment. The build's private copy blanks such
a declaration (with the specifiers in front of it; line numbers kept): the implicitly declared default constructor is
the same one, and the class is an aggregate as under C++17. A class that declares any other constructor (or names
itself in a call in its body, or inherits constructors), a constructor that is not public, and anything outside a
class body are left alone.
"""

from __future__ import annotations

import re

from collections.abc import Iterable

from .member_specialization import _code_view

#: ``Name() = default;`` (group 1: the name; ``noexcept`` allowed)
_DEFAULT_CTOR_RE = re.compile(r"(?<![\w~:.>])([A-Za-z_]\w*)\s*\(\s*\)\s*(?:noexcept\s*)?=\s*default\s*;")
#: an identifier, or an attribute group such as ``[host, aicore]`` / ``[[nodiscard]]``, just before ``end``
_SPEC_TAIL_RE = re.compile(r"(?:[A-Za-z_]\w*|\[\[?[^\[\];{}]*\]\]?)[ \t\r\n]*$")
_ACCESS_RE = re.compile(r"\b(public|private|protected)\s*:(?!:)")
_INHERITED_CTOR_RE = re.compile(r"\busing\s+[^;={}]*::\s*(\w+)\s*;")


def _open_brace(code: str, pos: int) -> int:
    """Index of the innermost ``{`` enclosing ``pos`` in ``code``, or -1."""
    depth = 0
    for i in range(pos - 1, -1, -1):
        c = code[i]
        if c == "}":
            depth += 1
        elif c == "{":
            if depth == 0:
                return i
            depth -= 1
    return -1


def _close_brace(code: str, open_at: int) -> int:
    depth = 0
    for i in range(open_at, len(code)):
        if code[i] == "{":
            depth += 1
        elif code[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return len(code)


def _specifiers_start(code: str, start: int) -> int:
    """Where the declaration ending at ``start`` begins: back over specifier words (macros such as CATLASS_DEVICE,
    ``__aicore__``, ``inline``, ``constexpr``) and attribute groups, never into a preprocessor line."""
    while True:
        m = _SPEC_TAIL_RE.search(code, 0, start)
        if m is None or m.end() != start:
            return start
        word = m.group(0).strip()
        line_start = code.rfind("\n", 0, m.start()) + 1
        if code[line_start:m.start()].strip().startswith("#") or word in ("public", "private", "protected"):
            return start
        start = m.start()


def rewrite(text: str) -> tuple[str, int]:
    """``text`` with each lone defaulted default constructor blanked (same length and lines), and how many."""
    code = _code_view(text)
    spans: list[tuple[int, int]] = []
    for m in _DEFAULT_CTOR_RE.finditer(code):
        name = m.group(1)
        open_at = _open_brace(code, m.start())
        if open_at < 0:
            continue
        head_from = max(code.rfind(c, 0, open_at) for c in ";{}")
        head = code[head_from + 1:open_at]
        kind = re.search(r"\b(struct|class)\s+(?:[\w:]+\s+|\[\[[^\]]*\]\]\s*|alignas\s*\([^)]*\)\s*)*" + re.escape(name)
                         + r"\b(?!\s*<)", head)
        if kind is None:
            continue  # not the constructor of the class whose body holds it (or a partial specialization)
        close_at = _close_brace(code, open_at)
        body = code[open_at + 1:close_at]
        at = m.start() - open_at - 1
        others = [c for c in re.finditer(r"(?<![\w~:.>])" + re.escape(name) + r"\s*\(", body) if c.start() != at]
        if others or any(u.group(1) for u in _INHERITED_CTOR_RE.finditer(body)):
            continue
        access = [a.group(1) for a in _ACCESS_RE.finditer(body, 0, at)]
        if (access[-1] if access else ("public" if kind.group(1) == "struct" else "private")) != "public":
            continue
        spans.append((_specifiers_start(code, m.start()), m.end()))
    if not spans:
        return text, 0
    out = list(text)
    for a, b in spans:
        for i in range(a, b):
            if out[i] != "\n":
                out[i] = " "
    return "".join(out), len(spans)


def uses_lone_defaulted_constructor(texts: Iterable[str | bytes]) -> bool:
    """Whether any of ``texts`` (a source and its own headers) has a defaulted default constructor to blank."""
    for t in texts:
        s = t.decode("utf-8", "replace") if isinstance(t, bytes) else t
        if "default" in s and _DEFAULT_CTOR_RE.search(s) and rewrite(s)[1]:
            return True
    return False
