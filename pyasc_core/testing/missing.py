"""Lists of kernels known to be missing: (op, dtype, backend) entries that ``pyasc check``
tolerates, enforced exactly so a list only shrinks (an op pack's own, ``--expected-missing PATH``).

A missing kernel that is not listed fails its row, and so does a listed entry whose kernel now
exists (delete the entry). TOML: one table per backend, one key per op, the dtypes as a list.
pyasc's built-in ops have no such list any more: every op runs every dtype its schema allows on
the device backends (AI Core kernels, else AI CPU kernels), so nothing is expected to be missing.
"""

from __future__ import annotations

import pathlib
import re
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from .. import dtypes as _dt
from ..errors import PyascError


class ExpectedMissingListError(PyascError, ValueError):
    """The expected-missing list cannot be read (bad syntax, an unknown dtype, a bad op name)."""


@attrs.frozen
class ExpectedMissing:
    """Kernels known to be missing, as (op, dtype name, backend) entries, and where they came from."""

    entries: frozenset[tuple[str, str, str]] = frozenset()
    source: str = "no list"

    def listed(self, op: str, dtype: str, backend: str) -> bool:
        return (op, dtype, backend) in self.entries

    def for_op(self, op: str, backend: str) -> set[str]:
        """The dtypes listed as missing for ``op`` on ``backend``."""
        return {d for o, d, b in self.entries if o == op and b == backend}

    def ops(self, backend: str) -> set[str]:
        return {o for o, _d, b in self.entries if b == backend}


def _parse_minimal(text: str, where: str) -> dict[str, Any]:
    """The subset of TOML the list uses (``[backend]`` tables of ``"op" = ["dtype", ...]``), for
    Pythons without tomllib (3.10)."""
    out: dict[str, Any] = {}
    table: dict[str, Any] | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"\[\s*([A-Za-z_][\w-]*)\s*\]", line)
        if m:
            table = out.setdefault(m.group(1), {})
            continue
        m = re.fullmatch(r'"([^"]+)"\s*=\s*\[(.*)\]', line)
        if m is None or table is None:
            raise ExpectedMissingListError(
                f"{where}:{n}: cannot read {raw.strip()!r}; write [backend] tables of "
                '"namespace::op" = ["dtype", ...] lines')
        items = [s.strip() for s in m.group(2).split(",") if s.strip()]
        if not all(re.fullmatch(r'"[^"]*"', s) for s in items):
            raise ExpectedMissingListError(f"{where}:{n}: the dtypes must be quoted names, got [{m.group(2)}]")
        table[m.group(1)] = [s[1:-1] for s in items]
    return out


def parse_expected_missing(text: str, where: str = "<text>") -> ExpectedMissing:
    """Read the list from TOML text; every op name and dtype is validated."""
    try:
        import tomllib
    except ImportError:  # Python 3.10
        data: Mapping[str, Any] = _parse_minimal(text, where)
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise ExpectedMissingListError(f"{where}: not valid TOML: {exc}") from None
    entries: set[tuple[str, str, str]] = set()
    for backend, table in data.items():
        if not isinstance(table, Mapping):
            raise ExpectedMissingListError(
                f"{where}: {backend!r} must be a table of op = [dtypes], e.g. [sim] "
                '"pyasc::add" = ["int64"]')
        for op, dtype_names in table.items():
            if not re.fullmatch(r"[A-Za-z_]\w*::[A-Za-z_]\w*", op):
                raise ExpectedMissingListError(f"{where}: [{backend}] op {op!r} must be namespaced, e.g. 'pyasc::add'")
            if not isinstance(dtype_names, list) or not dtype_names:
                raise ExpectedMissingListError(
                    f"{where}: [{backend}] {op!r} must list dtype names, e.g. [\"int64\"], got {dtype_names!r}")
            for name in dtype_names:
                try:
                    canon = _dt.dtype_name(_dt.as_dtype(name))
                except Exception:
                    raise ExpectedMissingListError(
                        f"{where}: [{backend}] {op!r} lists {name!r}, which is not a dtype; use names "
                        f"such as {', '.join(_dt.dtype_name(d) for d in _dt.ALL_DTYPES)}") from None
                entries.add((op, canon, backend))
    return ExpectedMissing(frozenset(entries), where)


def load_expected_missing(path: str | pathlib.Path | None = None) -> ExpectedMissing:
    """The list at ``path``; None: no list (nothing of pyasc's own is expected to be missing)."""
    if path is None:
        return ExpectedMissing()
    p = pathlib.Path(path)
    try:
        text = p.read_text()
    except OSError as exc:
        raise ExpectedMissingListError(
            f"cannot read the expected-missing kernel list {p}: {exc.strerror or exc}; give an "
            "existing file or leave the option out (then no kernel may be missing)") from None
    return parse_expected_missing(text, str(p))


def as_expected_missing(value: Any) -> ExpectedMissing:
    """An ExpectedMissing from None (no list), a path, an ExpectedMissing, or an
    iterable of (op, dtype, backend) triples."""
    if value is None:
        return load_expected_missing()
    if isinstance(value, ExpectedMissing):
        return value
    if isinstance(value, (str, pathlib.Path)):
        return load_expected_missing(value)
    if isinstance(value, Iterable):
        entries = set()
        for item in value:
            try:
                op, dtype, backend = item
                entries.add((str(op), _dt.dtype_name(_dt.as_dtype(dtype)), str(backend)))
            except Exception:
                raise ExpectedMissingListError(
                    f"expected_missing entries must be (op, dtype, backend) triples such as "
                    f"('pyasc::add', 'int64', 'sim'), got {item!r}") from None
        return ExpectedMissing(frozenset(entries), "the expected_missing argument")
    raise ExpectedMissingListError(
        f"expected_missing must be None, a path or (op, dtype, backend) triples, got "
        f"{type(value).__name__} {value!r:.60}")
