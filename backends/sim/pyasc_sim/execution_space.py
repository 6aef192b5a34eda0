"""A host function and an ``__aicore__`` function with the same signature: device code calls the ``__aicore__`` one.

The NPU compiler (Bisheng, clang-based) has execution spaces: a function without a qualifier is a host function,
which ``[aicore]`` / ``__aicore__`` code may not call (reference: Bisheng compiler, 函数执行空间限定符,
``atlas_bisheng_10_0006``; Ascend C, 函数执行空间限定符). So when a kernel sees two namespace-scope functions with
the same name and parameter types -- one ``__aicore__`` (say its own helper), one a host function of a shared
header, both visible through ``using namespace`` -- only the ``__aicore__`` one can be called from the kernel and the
NPU compiler takes it. g++ has no execution spaces: to it the two are the same function in two namespaces, and the
call is ambiguous (sgl-kernel-npu's zccl kernels: ``getSizeFromTypeEnum``).

The build's private copy (of the source, its own headers and those of its ``-I`` directories) turns each such host
twin into a function template with one defaulted parameter (``template <class = void>`` in front of it, on the same
line): overload resolution prefers the non-template of two equally good candidates, so the call resolves to the
``__aicore__`` function, and host code that names the twin alone still calls it. Only non-template functions
defined at namespace scope whose qualifiers include neither ``__aicore__``, ``[aicore]``, ``__global__`` nor
``constexpr`` are twins; a source without such a pair is built exactly as before. **Deviation:** host code that
sees both also calls the ``__aicore__`` one (on the simulator every function runs on the host; the NPU compiler
would call the host one there).
"""

from __future__ import annotations

import re

from collections.abc import Iterable

from .cxx17_aggregates import _open_brace
from .member_specialization import _code_view

#: a function definition's declarator: name (group 1), parameters (group 2), then its body's ``{``
_DEF_RE = re.compile(r"(?<![\w:.>~])([A-Za-z_]\w*)[ \t]*\(([^()]*)\)\s*(?:const\s*)?(?:noexcept\s*)?\{")
#: words that never name a function
_NOT_FUNCTIONS = frozenset({"if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "decltype",
                            "static_assert", "operator", "namespace", "struct", "class", "union", "enum", "do",
                            "else", "requires", "alignas", "__attribute__"})
#: words that end a builtin type, never a parameter name
_TYPE_WORDS = frozenset({"int", "long", "short", "char", "double", "float", "unsigned", "signed", "bool", "void",
                         "const", "volatile", "__gm__", "__ubuf__"})
_DEVICE_RE = re.compile(r"\b(?:__aicore__|__global__)\b|\[[ \t]*(?:host[ \t]*,[ \t]*)?aicore\b")
_PREFIX = "template <class = void> "


def _params(raw: str) -> str:
    """The parameter types of a parameter list (names and default arguments dropped), normalized."""
    parts, depth, cur = [], 0, ""
    for c in raw:
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        if c == "," and depth == 0:
            parts.append(cur)
            cur = ""
        else:
            cur += c
    parts.append(cur)
    out = []
    for p in parts:
        p = p.split("=", 1)[0].strip()
        words = re.findall(r"[A-Za-z_]\w*|::|[*&<>,\[\]]", p)
        if len(words) > 1 and re.fullmatch(r"[A-Za-z_]\w*", words[-1]) and words[-1] not in _TYPE_WORDS \
                and words[-2] != "::":
            words = words[:-1]
        out.append(" ".join(words))
    return ", ".join("" if o == "void" else o for o in out if o or len(out) > 1)


def _definitions(text: str):
    """Each namespace-scope, non-template function definition of ``text``: (name, parameter types, is device,
    where its declaration starts, its qualifiers and return type)."""
    code = _code_view(text)
    for m in _DEF_RE.finditer(code):
        name = m.group(1)
        if name in _NOT_FUNCTIONS:
            continue
        head_from = max(code.rfind(c, 0, m.start()) for c in ";{}") + 1
        while True:  # blank and preprocessor lines before the declaration are not part of it
            nl = code.find("\n", head_from, m.start())
            line = code[head_from:nl].strip() if nl >= 0 else None
            if line is None or (line and not line.startswith("#")):
                break
            head_from = nl + 1
        head = code[head_from:m.start()]
        if (not re.search(r"[A-Za-z_]\w*", head) or re.search(r"[=(),?]|\breturn\b|\btemplate\b|\boperator\b", head)
                or head.rstrip().endswith(("::", ".", "->"))):
            continue  # a call, an expression, a template, a member defined out of class, or no return type
        open_at = _open_brace(code, m.start())
        if open_at >= 0:
            before = code[max(code.rfind(c, 0, open_at) for c in ";{}") + 1:open_at]
            if not re.fullmatch(r"\s*(?:inline\s+)?namespace(?:\s+[\w:]+)?\s*|\s*extern\s*", before):
                continue  # inside a class, a function or a block: not at namespace scope
        start = head_from + len(head) - len(head.lstrip())
        yield name, _params(m.group(2)), bool(_DEVICE_RE.search(head)), start, head


def device_signatures(texts: Iterable[str | bytes]) -> frozenset[tuple[str, str]]:
    """The (name, parameter types) of the ``__aicore__`` functions of ``texts`` that a host function of ``texts``
    shares: the twins :func:`rewrite` resolves (empty when there are none)."""
    device, host = set(), set()
    for t in texts:
        s = t.decode("utf-8", "replace") if isinstance(t, bytes) else t
        if "(" not in s:
            continue
        for name, params, is_device, _, head in _definitions(s):
            if is_device:
                device.add((name, params))
            elif not re.search(r"\bconstexpr\b|\bconsteval\b", head):
                host.add((name, params))
    return frozenset(device & host)


def rewrite(text: str, signatures: frozenset[tuple[str, str]]) -> tuple[str, int]:
    """``text`` with ``template <class = void>`` in front of each host function whose (name, parameter types) is in
    ``signatures`` (same lines), and how many."""
    if not signatures:
        return text, 0
    starts = [start for name, params, is_device, start, head in _definitions(text)
              if not is_device and (name, params) in signatures and not re.search(r"\bconstexpr\b|\bconsteval\b",
                                                                                 head)]
    for start in reversed(starts):
        text = text[:start] + _PREFIX + text[start:]
    return text, len(starts)
