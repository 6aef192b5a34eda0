"""The built-in ``pyasc::`` ops, registered through the same hook every op pack uses.

Each family module's ``OPS`` holds the ops' records (OpDef): every fact of an op is given where
the op is defined; the tables elsewhere (public names, bench cases, torch column) derive from them.
"""

from __future__ import annotations

from collections.abc import Callable

from ..hookspecs import hookimpl
from ..opdef import OpDef
from . import elementwise, linalg, nn, reductions, shape

MODULES = (elementwise, reductions, nn, linalg, shape)


def all_ops() -> list[OpDef]:
    """The records of every built-in op, in family order."""
    return [op for m in MODULES for op in m.OPS]


def public_names() -> tuple[str, ...]:
    """The built-in ops' short names, exported as ``pyasc.<name>``."""
    return tuple(op.short_name for op in all_ops())


@hookimpl
def pyasc_register_ops(register: Callable[[OpDef], None]) -> None:
    for op in all_ops():
        register(op)
