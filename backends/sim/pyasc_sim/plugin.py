"""Registers the ``sim`` backend: the pyasc_npu ACL binding loaded with the simulator's library."""

from __future__ import annotations

from collections.abc import Callable

from pyasc_core.backend import Backend
from pyasc_core.hookspecs import hookimpl
from pyasc_npu.backend import AclBackend

from . import library_path


def _locate() -> tuple[str | None, str]:
    try:
        return library_path(), ""
    except FileNotFoundError as exc:
        return None, str(exc)


# Priority -1 (below numpy) until the simulator has op kernels (the kernel-simulator issue):
# pyasc_core.selection only picks a default with priority >= 0, so numpy stays the default.
BACKEND = AclBackend(
    "sim",
    description="simulated Ascend NPU on the CPU (pyasc's ACL runtime)",
    priority=-1,
    locate=_locate,
)


@hookimpl
def pyasc_register_backends(register: Callable[[Backend], None]) -> None:
    register(BACKEND)
