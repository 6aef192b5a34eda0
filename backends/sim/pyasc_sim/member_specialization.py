"""Explicit specializations of member (function and class) templates written inside their class, rewritten for g++.

C++ as the clang-based NPU compiler accepts it (CWG 727, "explicit specialization in any scope", which clang
implements and GCC does not) lets a class declare a member function template and specialize it in the class body::

    template <int32_t CORE_TYPE = g_coreType> void operator()(Params const &params);
    template <> void operator()<AscendC::AIC>(Params const &params) { ... }
    template <> void operator()<AscendC::AIV>(Params const &params) { ... }

Public Catlass-style kernels dispatch their AIC and AIV parts this way. g++ stops with "explicit specialization
in non-namespace scope". The simulator's build rewrites each such specialization into a constrained overload
of the same template, which g++ accepts and which overload resolution picks exactly where the specialization
would be used (C++20: of two otherwise equivalent function templates the more constrained one wins)::

    template <int32_t CORE_TYPE = g_coreType> requires (((CORE_TYPE) == (AscendC::AIC))) void operator()(...)

Member class templates specialized in their class the same way (``template <class T> struct LayoutHelper {...};
template <> struct LayoutHelper<void> {...};``) become constrained partial specializations, which g++ accepts in
class scope::

    template <class _pyasc_spec0> requires (__is_same(_pyasc_spec0, void)) struct LayoutHelper<_pyasc_spec0> {...};

(C++20: a partial specialization whose arguments are the primary's own parameters is allowed when it is more
constrained; it is chosen exactly for the specialized arguments.)

The primary template's parameter list (with its defaults) is copied from the class's own declaration of the
member; a type parameter is matched with ``__is_same``. A specialization whose primary cannot be found in the
class body, or whose template parameters are not all given or defaulted, is left alone (g++ then reports it as
before). Specializations at namespace scope are valid C++ and never touched. Line numbers do not change.
"""

from __future__ import annotations

import re

from collections.abc import Iterable

_TEMPLATE_EMPTY_RE = re.compile(r"\btemplate\s*<\s*>")
_TEMPLATE_RE = re.compile(r"\btemplate\s*<")
_NAME_RE = re.compile(r"(operator\s*\(\s*\)|operator\s*[^\s\w(<]+|[A-Za-z_]\w*)\s*<")
_CLASS_HEAD_RE = re.compile(r"^\s*(?:class|struct|union)\b")
_DIRECTIVE_LINE_RE = re.compile(r"(?m)^[ \t]*#.*$")


def _code_view(text: str) -> str:
    """``text`` with comments, string and character literals blanked (same length, newlines kept)."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
        else:
            i += 1
            continue
        for k in range(i, j):
            if out[k] != "\n":
                out[k] = " "
        i = j
    return "".join(out)


def _close_angle(code: str, start: int) -> int:
    """Index just past the ``>`` that closes the ``<`` at ``start`` (nested (), [], {} and <> skipped); -1."""
    depth = 0
    i = start
    while i < len(code):
        c = code[i]
        if c in "(<[{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == ">":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == ";":
            return -1
        i += 1
    return -1


def _split_top(s: str) -> list[str]:
    """``s`` split at commas outside any brackets."""
    parts, depth, cur = [], 0, []
    for c in s:
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur))
    return parts


def _enclosing_class_open(code: str, pos: int) -> int:
    """Index of the ``{`` that opens the innermost scope around ``pos`` if it is a class body, else -1."""
    depth = 0
    i = pos - 1
    while i >= 0:
        c = code[i]
        if c == "}":
            depth += 1
        elif c == "{":
            if depth == 0:
                break
            depth -= 1
        i -= 1
    if i < 0:
        return -1
    head_start = max(code.rfind(";", 0, i), code.rfind("{", 0, i), code.rfind("}", 0, i)) + 1
    # preprocessor lines between the previous declaration and the class head (`#include "x.h"` just above it)
    head = _DIRECTIVE_LINE_RE.sub("", code[head_start:i])
    m = _TEMPLATE_RE.search(head)
    if m and not head[:m.start()].strip():
        end = _close_angle(head, m.end() - 1)
        head = head[end:] if end > 0 else head
    if _CLASS_HEAD_RE.match(head) and "(" not in head:
        return i
    return -1


def _param_name(param: str) -> tuple[str, bool] | None:
    """(name, is_type) of one template parameter declaration (default stripped); None for packs / unnamed."""
    decl = _split_default(param)[0].strip()
    if "..." in decl:
        return None
    m = re.search(r"([A-Za-z_]\w*)\s*$", decl)
    if not m or m.start() == 0:
        return None
    is_type = re.match(r"\s*(typename|class)\b", decl) is not None and not re.match(r"\s*template\b", decl)
    return m.group(1), is_type


def _split_default(param: str) -> tuple[str, str | None]:
    depth = 0
    for i, c in enumerate(param):
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == "=" and depth == 0 and param[i + 1:i + 2] != "=" and param[i - 1:i] not in "<>!=":
            return param[:i], param[i + 1:]
    return param, None


def _primary_params(code: str, text: str, body_open: int, pos: int, name: str) -> str | None:
    """The template parameter list (source text) of the class's own declaration of member ``name``."""
    found = None
    name_re = re.compile(r"(?<![\w:])" + re.escape(name).replace(r"\ ", r"\s*") + r"\s*\(")
    for m in _TEMPLATE_RE.finditer(code, body_open, pos):
        end = _close_angle(code, m.end() - 1)
        if end < 0 or not code[m.end():end - 1].strip():
            continue
        stop = min((k for k in (code.find(";", end), code.find("{", end)) if k >= 0), default=-1)
        if stop < 0 or stop > pos:
            continue
        if name_re.search(code, end, stop) and not _TEMPLATE_RE.match(code, end):
            found = text[m.end():end - 1]
    return found


def _arg_condition(param: str, is_type: bool, arg: str) -> str:
    """The constraint that holds exactly when template parameter ``param`` is the specialization's ``arg``."""
    return f"__is_same({param}, {arg})" if is_type else f"(({param}) == ({arg}))"


_CLASS_SPEC_RE = re.compile(r"\s*(class|struct|union)\s+([A-Za-z_]\w*)\s*<")


def _primary_class_params(code: str, text: str, body_open: int, pos: int, name: str) -> str | None:
    """The template parameter list (source text) of the class body's own declaration of member class ``name``."""
    found = None
    head_re = re.compile(r"\s*(?:class|struct|union)\s+" + re.escape(name) + r"\s*[{:;]")
    for m in _TEMPLATE_RE.finditer(code, body_open, pos):
        end = _close_angle(code, m.end() - 1)
        if end < 0 or not code[m.end():end - 1].strip():
            continue
        if head_re.match(code, end):
            found = text[m.end():end - 1]
    return found


def _class_spec_edits(code: str, text: str, start: int, end: int, body_open: int) -> list[tuple[int, int, str]]:
    """Edits turning ``template <>`` (``code[start:end]``) + ``struct Name<args>`` into a constrained partial
    specialization of the class's own member class template ``Name``; [] when that cannot be done."""
    cm = _CLASS_SPEC_RE.match(code, end)
    if not cm:
        return []
    args_end = _close_angle(code, cm.end() - 1)
    if args_end < 0 or not re.match(r"\s*[{:;]", code[args_end:]):
        return []
    params_text = _primary_class_params(code, text, body_open, start, cm.group(2))
    if params_text is None:
        return []
    params = _split_top(params_text)
    args = _split_top(text[cm.end():args_end - 1])
    if len(args) != len(params):
        return []
    decls, conds, names = [], [], []
    for i, (p, a) in enumerate(zip(params, args)):
        info = _param_name(p)
        if info is None:
            return []
        pname, is_type = info
        fresh = f"_pyasc_spec{i}"
        decl = " ".join(_split_default(p)[0].split())
        decls.append(re.sub(r"\b" + re.escape(pname) + r"\s*$", fresh, decl))
        a = " ".join(a.split())
        conds.append(_arg_condition(fresh, is_type, a))
        names.append(fresh)
    spec = text[cm.end() - 1:args_end]
    return [(start, end, f"template <{', '.join(decls)}> requires ({' && '.join(conds)})"),
            (cm.end() - 1, args_end, "<" + ", ".join(names) + ">" + "\n" * spec.count("\n"))]


def rewrite(text: str) -> tuple[str, int]:
    """``text`` with each in-class explicit specialization of a member function template made a constrained
    overload of the class's own template, and of a member class template a constrained partial specialization
    (see the module docstring), and how many were rewritten."""
    code = _code_view(text)
    edits: list[tuple[int, int, str]] = []
    for m in _TEMPLATE_EMPTY_RE.finditer(code):
        body_open = _enclosing_class_open(code, m.start())
        if body_open < 0:
            continue
        stop = min((k for k in (code.find(";", m.end()), code.find("{", m.end())) if k >= 0), default=len(code))
        nm = _NAME_RE.search(code, m.end(), stop)
        if nm and _CLASS_SPEC_RE.match(code, m.end()):
            edits.extend(_class_spec_edits(code, text, m.start(), m.end(), body_open))
            continue
        if not nm or re.search(r"\b(class|struct|union|enum)\b", code[m.end():nm.start()]):
            continue
        args_end = _close_angle(code, nm.end() - 1)
        if args_end < 0 or not re.match(r"\s*\(", code[args_end:]):
            continue
        name = re.sub(r"\s+", " ", nm.group(1))
        params_text = _primary_params(code, text, body_open, m.start(), name)
        if params_text is None:
            continue
        params = _split_top(params_text)
        args = _split_top(text[nm.end():args_end - 1])
        conds = []
        ok = len(args) <= len(params)
        for i, p in enumerate(params):
            info = _param_name(p)
            if info is None:
                ok = False
                break
            if i >= len(args):
                if _split_default(p)[1] is None:
                    ok = False
                continue
            pname, is_type = info
            a = " ".join(args[i].split())
            conds.append(_arg_condition(pname, is_type, a))
        if not ok or not conds:
            continue
        flat = " ".join(params_text.split())
        edits.append((m.start(), m.end(), f"template <{flat}> requires ({' && '.join(conds)})"))
        spec = text[nm.end() - 1:args_end]
        edits.append((nm.end() - 1, args_end, "\n" * spec.count("\n")))
    if not edits:
        return text, 0
    out, last = [], 0
    for s, e, r in sorted(edits):
        out.append(text[last:s])
        out.append(r)
        last = e
    out.append(text[last:])
    return "".join(out), len(edits) // 2


def uses_member_specialization(texts: Iterable[str | bytes]) -> bool:
    """Whether any of ``texts`` (a source and its own headers) has an in-class member specialization to rewrite."""
    for t in texts:
        s = t.decode("utf-8", "replace") if isinstance(t, bytes) else t
        if _TEMPLATE_EMPTY_RE.search(s) and rewrite(s)[1]:
            return True
    return False
