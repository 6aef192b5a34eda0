"""Python glue of the built-in kernels (kernels/*.cpp): per op, a kernel function that allocates
the outputs from the meta function's result on the inputs' device, computes the tiling on the
host, and launches the family's Ascend C kernel on the current stream.

One module per family; each has ``KERNELS: {op name: kernel function}``. The same glue serves
the ``sim`` backend (binaries ``pyasc_sim/kernels/<family>.sim.so``) and the ``npu`` backend
(binaries built by CANN into ``pyasc_sim/kernels/npu/``, when a toolkit was present at install).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from . import _runtime as _rt
from . import elementwise, linalg, nn, reduce, shape

FAMILIES = (elementwise, reduce, nn, linalg, shape)


def _dtypes_of(op: Any) -> tuple[str, ...]:
    """The input dtypes ``op`` (a built-in op's record) runs with on the sim (other dtypes raise
    KernelNotFoundError): each of the record's dtypes whose kernel dtype is one the glue takes,
    where the kernel dtype is the meta function's result dtype (inputs are cast to it), the input's
    own dtype, or the compare kernels' widened one, as each family's glue does."""
    import numpy as np

    from pyasc_core import dtypes as dt
    from pyasc_core.backend import TensorMeta

    short = op.short_name
    result_dtypes = {**elementwise.BINARY_DTYPES, "pow": elementwise.POW_DTYPES,
                     "where": elementwise.WHERE_DTYPES}
    rule = "input"
    if short in result_dtypes:
        rule, takes = "result", result_dtypes[short]
    elif short in elementwise._SWAP:  # the comparisons
        rule, takes = "compare", elementwise.COMPARE_DTYPES + ((dt.int64,) if short in ("eq", "ne") else ())
    elif short == "cast":
        takes = elementwise.CAST_DTYPES
    elif op.name in elementwise.KERNELS:  # unary
        takes = elementwise.FLOATS + (elementwise.UNARY_INT_DTYPES if short in elementwise.UNARY_INT else ())
    elif op.name in reduce.KERNELS:
        takes = reduce.dtypes_of(short)
    elif op.name in nn.KERNELS:
        takes = elementwise.FLOATS
    elif op.name in linalg.KERNELS:
        rule, takes = "result", linalg.CUBE + linalg.VECTOR + tuple(linalg.VECTOR_WIDEN)
    elif op.name in shape.KERNELS:
        takes = tuple(_rt.DTYPE_NAMES)
    else:
        return ()

    def kernel_dtype(d: np.dtype) -> np.dtype:
        if rule == "compare":
            return elementwise.COMPARE_WIDEN.get(d, d)
        if rule == "input":
            return d
        args = []
        for p in op.schema.params:
            if p.is_input and p.type != "Tensor?":
                allowed = op.allowed_dtypes(p.name)
                args.append(TensorMeta((2, 2), d if d in allowed else next(a for a in dt.ALL_DTYPES if a in allowed)))
            else:
                args.append(None if p.is_input else p.default)
        return op.caller(op.meta)(*args).dtype

    def runs(d: np.dtype) -> bool:
        k = kernel_dtype(d)
        return k in takes and (k == d or (d in elementwise.CAST_DTYPES and k in elementwise.CAST_DTYPES))

    return tuple(dt.dtype_name(d) for d in dt.ALL_DTYPES if d in op.all_dtypes and runs(d))


def supported() -> dict[str, tuple[str, ...]]:
    """{op name: the input dtypes its sim kernel runs with}, for every op with a built-in kernel,
    derived from the op records and the glue's dtype sets (see _dtypes_of)."""
    from pyasc_core.builtin_ops import all_ops

    kernels = all_kernels()
    return {op.name: _dtypes_of(op) for op in all_ops() if op.name in kernels}


def __getattr__(name: str) -> Any:
    if name == "SUPPORTED":  # computed on first use (it calls every op's meta function)
        table = globals()["SUPPORTED"] = supported()
        return table
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    """Register every built-in kernel for ``backend`` through a pyasc_register_kernels ``register``;
    each glue function's ``dtypes`` (what ``pyasc ops`` shows) is the op's entry of SUPPORTED."""
    for op, fn in all_kernels().items():
        fn.dtypes = functools.partial(_supported_of, op)
        register(op, backend, fn)


def _supported_of(op: str) -> tuple[Any, ...]:
    from pyasc_core import dtypes as dt

    return tuple(dt.as_dtype(d) for d in globals()["__getattr__"]("SUPPORTED").get(op, ()))
