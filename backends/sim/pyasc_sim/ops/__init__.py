"""Python glue of the built-in kernels (kernels/*.cpp): per op, a kernel function that allocates
the outputs from the meta function's result on the inputs' device, computes the tiling on the
host, and launches the family's Ascend C kernel on the current stream.

One module per family; each has ``KERNELS: {op name: kernel function}``. The same glue serves
the ``sim`` backend (binaries ``pyasc_sim/kernels/<family>.sim.so``) and the ``npu`` backend
(binaries built by CANN into ``pyasc_sim/kernels/npu/``, when a toolkit was present at install).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import elementwise, linalg, nn, reduce, shape

FAMILIES = (elementwise, reduce, nn, linalg, shape)


_F = ("float16", "bfloat16", "float32")
_CASTABLE = ("bool", "uint8", "int8", "int32") + _F
#: input dtypes each op runs with on the sim (other dtypes raise KernelNotFoundError); cast runs
#: between any two of _CASTABLE
SUPPORTED: dict[str, tuple[str, ...]] = {
    **{f"pyasc::{n}": _F + ("int32",) for n in ("add", "sub", "mul", "maximum", "minimum")},
    "pyasc::div": ("uint8", "int8", "int32") + _F,
    "pyasc::pow": _F + ("int32",),
    "pyasc::eq": _CASTABLE, "pyasc::ne": _CASTABLE,
    **{f"pyasc::{n}": _CASTABLE[1:] for n in ("lt", "le", "gt", "ge")},
    **{f"pyasc::{n}": _F for n in ("exp", "log", "sqrt", "rsqrt", "sigmoid", "tanh", "gelu", "silu")},
    **{f"pyasc::{n}": _F + ("int32",) for n in ("neg", "abs", "relu")},
    "pyasc::cast": _CASTABLE,
    "pyasc::where": _F + ("int32",),
    **{f"pyasc::{n}": _F for n in ("sum", "mean", "max", "min")},
    **{f"pyasc::{n}": _F for n in ("softmax", "log_softmax", "layer_norm", "rms_norm")},
    "pyasc::matmul": _F + ("int32",),
    **{f"pyasc::{n}": ("bool", "uint8", "int8", "int16", "int32", "int64") + _F for n in ("transpose", "reshape")},
}


def all_kernels() -> dict[str, Callable[..., Any]]:
    out: dict[str, Callable[..., Any]] = {}
    for family in FAMILIES:
        out.update(family.KERNELS)
    return out


def npu_binaries_installed() -> bool:
    """True when kernels/ was compiled for the NPU at install time (a CANN toolkit was present): at
    least one of the files the npu glue loads (npu/<family>.o) is there. A family whose file is
    missing then raises KernelNotFoundError naming that file when its op runs."""
    from ._runtime import KERNEL_FAMILIES, missing_binaries

    return len(missing_binaries("npu")) < len(KERNEL_FAMILIES)


def register_kernels(register: Callable[..., None], backend: str) -> None:
    """Register every built-in kernel for ``backend`` through a pyasc_register_kernels ``register``."""
    for op, fn in all_kernels().items():
        register(op, backend, fn)
