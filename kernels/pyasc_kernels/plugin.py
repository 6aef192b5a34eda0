"""Registers the built-in ops' kernels (kernels/*.cpp) for both device backends through the same
``pyasc_register_kernels`` hook an op pack uses (entry point ``kernels``): for ``sim`` always, for
``npu`` when the install found a CANN toolkit and built them for the NPU (pyasc_sim/kernels/npu/);
otherwise npu ops take the host fallback (PYASC_FALLBACK / pyasc.set_fallback: warn once, silent,
or error: KernelNotFoundError)."""

from __future__ import annotations

from collections.abc import Callable

from pyasc_core.hookspecs import hookimpl


@hookimpl
def pyasc_register_kernels(register: Callable[..., None]) -> None:
    from pyasc_acl.plugin import BACKEND as NPU
    from pyasc_sim.plugin import BACKEND as SIM

    from . import npu_binaries_installed, register_kernels
    from .shape import gather

    register_kernels(register, "sim")
    SIM.gather = gather  # strided views become contiguous on the device (copy kernel)
    if npu_binaries_installed():
        register_kernels(register, "npu")
        NPU.gather = gather
    else:  # no CANN at install: no npu kernels, every built-in op takes the host fallback
        register_kernels(register, "npu", aicore=False)
