"""The built-in ``pyasc::`` ops, registered through the same hook every op pack uses."""

from __future__ import annotations

from collections.abc import Callable

from ..hookspecs import hookimpl
from ..opdef import OpDef
from . import elementwise, linalg, nn, reductions, shape

MODULES = (elementwise, reductions, nn, linalg, shape)


def all_ops() -> list[OpDef]:
    from .samples import CUSTOM

    ops = [op for m in MODULES for op in m.OPS]
    for op in ops:
        op.sample_inputs = CUSTOM.get(op.name, op.sample_inputs)
    return ops


@hookimpl
def pyasc_register_ops(register: Callable[[OpDef], None]) -> None:
    for op in all_ops():
        register(op)
