"""Errors of the Python kernel language."""

from __future__ import annotations

from pyasc_core.errors import PyascError


class CompileError(PyascError, SyntaxError):
    """A Python kernel uses a construct or name the JIT does not translate: names the file:line
    and the construct (``vadd.py:12: a list literal is not supported in a @pyasc.jit kernel``)."""

    def __init__(self, message: str, filename: str | None = None, lineno: int | None = None) -> None:
        where = f"{filename}:{lineno}: " if filename and lineno else ""
        super().__init__(where + message)
        self.msg = where + message
        self.filename, self.lineno = filename, lineno

    def __str__(self) -> str:
        return self.msg


class UndocumentedNameError(CompileError):
    """Documented-names-only mode: the generated source uses an Ascend C name the public reference
    does not document (so CANN may not compile it)."""
