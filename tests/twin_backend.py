"""A test plugin: backend ``twin``, a host backend like numpy whose ``pyasc::mul`` kernel is
deliberately wrong (it adds). Differential checks against numpy must catch it.

Used in-process (``pyasc_core.plugins.register(twin_backend)``) and, through ``SOURCE``, as the
module of a throwaway plugin distribution or a pytester conftest in child processes.
"""

from __future__ import annotations

import pathlib

import numpy as np

import pyasc
from pyasc_core.reference_backend import ReferenceBackend
from pyasc_core.tensor import wrap_host


class Twin(ReferenceBackend):
    name = "twin"
    aliases = ()
    priority = -5

    def __init__(self) -> None:
        super().__init__()
        self._device = pyasc.Device("twin")


TWIN = Twin()


def wrong_mul(meta, x, y):
    """x + y where x * y was asked for."""
    xa = x.numpy() if isinstance(x, pyasc.Tensor) else np.asarray(x)
    ya = y.numpy() if isinstance(y, pyasc.Tensor) else np.asarray(y)
    out = np.broadcast_to(np.add(xa, ya), meta.shape).astype(meta.dtype)
    return wrap_host(out.copy(), TWIN.device())


@pyasc.hookimpl
def pyasc_register_backends(register):
    register(TWIN)


@pyasc.hookimpl
def pyasc_register_kernels(register):
    register("pyasc::mul", "twin", wrong_mul)


SOURCE = pathlib.Path(__file__).read_text()
