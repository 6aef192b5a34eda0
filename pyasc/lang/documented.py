"""Documented-names-only mode: the generated source may use only Ascend C names the public
reference documents, so CANN compiles it unchanged. Checked twice: a token scan of every
``AscendC::`` name (the error names the Python line), then the simulator compiles the source with
``-DPYASC_SIM_DOCUMENTED_ONLY=1``, which hides every undocumented name from its kernel API headers."""

from __future__ import annotations

import re

from .errors import UndocumentedNameError
from .table import TABLE

#: the simulator compiler's flags of documented-names-only mode (backends/sim/kernel_api/README.md)
DOCUMENTED_ONLY_FLAGS = ("-DPYASC_SIM_DOCUMENTED_ONLY=1",)

_TOKEN = re.compile(r"AscendC::(\w+)")


def documented_names() -> frozenset[str]:
    """The Ascend C names of the table's documented entries (and their enum members)."""
    out: set[str] = set()
    for a in TABLE:
        if a.documented:
            out.add(a.cpp)
            out.update(a.members)
    return frozenset(out)


def undocumented_tokens(text: str) -> list[str]:
    """The ``AscendC::`` names of ``text`` the reference does not document, in order of first use."""
    ok = documented_names()
    seen: list[str] = []
    for m in _TOKEN.finditer(text):
        if m.group(1) not in ok and m.group(1) not in seen:
            seen.append(m.group(1))
    return seen


def check_documented(text: str, kernel: str) -> None:
    """Raise UndocumentedNameError naming the Python line of the first undocumented name."""
    bad = undocumented_tokens(text)
    if not bad:
        return
    line, file = None, None
    for ln in text.splitlines():
        if ln.lstrip().startswith("#line"):
            parts = ln.split()
            line, file = int(parts[1]), parts[2].strip('"')
        elif f"AscendC::{bad[0]}" in ln:
            break
    raise UndocumentedNameError(f"{kernel} uses {', '.join('AscendC::' + b for b in bad)}, which the public Ascend C "
                                "reference does not document (documented-names-only mode: PYASC_JIT_DOCUMENTED_ONLY "
                                "or @pyasc.jit(documented_only=True))", file, line)


_HIDDEN = re.compile(r"[‘'`]?(\w+)[’']? is not a member of [‘'`]?AscendC[’']?")


def hidden_name_error(exc: Exception, kernel: str) -> UndocumentedNameError | None:
    """The UndocumentedNameError of a simulator compile error that documented-names-only mode caused
    (a name its headers hide), at the file:line the compiler named (the Python line, through
    ``#line``); None for any other compile error."""
    m = _HIDDEN.search(str(exc))
    if m is None:
        return None
    return UndocumentedNameError(f"{kernel} uses AscendC::{m.group(1)}, which the public Ascend C reference does not "
                                 "document: the simulator's headers hide it in documented-names-only mode "
                                 "(-DPYASC_SIM_DOCUMENTED_ONLY=1), so CANN may not compile it",
                                 getattr(exc, "file", None), getattr(exc, "line", None) or None)

