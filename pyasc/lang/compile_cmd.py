"""``pyasc compile kernel.py``: write the Ascend C that @pyasc.jit generates for a file's kernels
(for review, or to build with CANN): one ``<file>_<kernel>.cpp`` per kernel."""

from __future__ import annotations

import ast
import os
from typing import Any

from pyasc_core.errors import ArgumentError
from pyasc_core.tiling import TilingStruct

from . import dtypes as dt
from .api import ApiObject
from .jit import JitFunction


def _default_args(fn: JitFunction, dtype: dt.DType, consts: dict[str, str]) -> list[Any]:
    """Launch arguments standing for a typical launch: tensors of ``dtype``, int32 / float scalars."""
    ann = fn.annotations()
    out: list[Any] = []
    for p in fn.params:
        a = ann.get(p)
        if p in consts:
            text = consts[p]
            out.append(getattr(dt, text) if hasattr(dt, text) and isinstance(getattr(dt, text), dt.DType)
                       else float(text) if "." in text else int(text))
        elif a is dt.GlobalAddress:
            out.append(dtype)
        elif a in (int, float, bool):
            out.append(a())
        elif isinstance(a, type) and issubclass(a, TilingStruct):
            out.append(a)
        elif isinstance(a, ApiObject) and a.api.kind == "struct":  # a kernel API struct by value (TCubeTiling)
            out.append(b"")
        elif a is dt.constexpr:
            raise ArgumentError(f"{fn.__name__}: give the constexpr parameter's value, --const {p}=VALUE")
        else:
            raise ArgumentError(f"{fn.__name__}: annotate {p} (asc.GlobalAddress, int, float, asc.constexpr or a "
                                "pyasc.TilingStruct) so that pyasc compile knows its type")
    return out


def kernels_of(path: str) -> dict[str, JitFunction]:
    """The @pyasc.jit kernels of a Python file (functions with an asc.GlobalAddress parameter); the
    file runs as a module named ``__pyasc_compile__`` without its top-level call statements."""
    if not os.path.isfile(path):
        raise ArgumentError(f"pyasc compile: no file {path!r}; pass a Python file with @pyasc.jit kernels")
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    # the file's definitions, not its work: top-level call statements (vadd[8](...)) are skipped
    tree.body = [s for s in tree.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call))]
    ns: dict[str, Any] = {"__name__": "__pyasc_compile__", "__file__": os.path.abspath(path)}
    exec(compile(tree, os.path.abspath(path), "exec"), ns)  # noqa: S102  (the user's own kernel file)
    return {k: v for k, v in ns.items() if isinstance(v, JitFunction) and dt.GlobalAddress in v.annotations().values()}


def compile_file(path: str, *, kernel: str | None = None, dtype: str = "float32", consts: dict[str, str] | None = None,
                 out: str | None = None) -> dict[str, str]:
    """{kernel name: generated source} of the file's kernels (only ``kernel`` when given), written
    to ``out`` (a directory; default: next to the file) unless ``out`` is ``-``."""
    try:
        d = getattr(dt, dtype)
        assert isinstance(d, dt.DType)
    except (AttributeError, AssertionError):
        raise ArgumentError(f"pyasc compile --dtype {dtype!r}: one of {', '.join(x.name for x in dt.ALL)}") from None
    found = kernels_of(path)
    if kernel is not None:
        if kernel not in found:
            raise ArgumentError(f"{path} has no @pyasc.jit kernel {kernel!r}; its kernels are "
                                f"{', '.join(sorted(found)) or 'none'}")
        found = {kernel: found[kernel]}
    if not found:
        raise ArgumentError(f"{path} has no @pyasc.jit kernel (a function with an asc.GlobalAddress parameter)")
    result = {}
    for name, fn in found.items():
        result[name] = fn.source(*_default_args(fn, d, consts or {}))
    if out != "-":
        target = out or os.path.dirname(os.path.abspath(path))
        os.makedirs(target, exist_ok=True)
        stem = os.path.splitext(os.path.basename(path))[0]
        for name, text in result.items():
            with open(os.path.join(target, f"{stem}_{name}.cpp"), "w", encoding="utf-8") as f:
                f.write(text)
    return result
