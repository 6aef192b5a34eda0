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


def _supported_table() -> dict[str, tuple[str, ...]]:
    """``SUPPORTED``, computed on first use (it calls every op's meta function) and kept: the op
    records and the glue's dtype sets it derives from are fixed once the package is imported."""
    table = globals().get("SUPPORTED")
    if table is None:
        table = globals()["SUPPORTED"] = supported()
    return table


def __getattr__(name: str) -> Any:
    if name == "SUPPORTED":
        return _supported_table()
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


def register_kernels(register: Callable[..., None], backend: str, aicore: bool = True) -> None:
    """Register every built-in kernel for ``backend`` through a pyasc_register_kernels ``register``:
    the AI Core glue, routed to the AI CPU kernel (or, without an AI CPU library, the host
    fallback) for the dtypes the AI Core has no kernel for (see :func:`routed`). Each kernel's
    ``dtypes`` (what ``pyasc ops`` shows) are the dtypes that run on the device, its ``placement``
    where each dtype runs. ``aicore=False``: the backend has no AI Core binaries (an NPU install
    without CANN): every call takes the AI CPU path or the host fallback."""
    for op, fn in all_kernels().items():
        kernel = routed(op, fn if aicore else _no_aicore(op, backend), backend)
        kernel.dtypes = functools.partial(_device_dtypes_of, op, backend)
        kernel.placement = functools.partial(placement_of, op, backend)
        register(op, backend, kernel)
    if not aicore:
        _NO_AICORE.add(backend)


#: backends registered without AI Core binaries
_NO_AICORE: set[str] = set()


def _no_aicore(op: str, backend: str) -> Callable[..., Any]:
    """The AI Core glue of a backend without AI Core binaries: always a dtype gap."""
    from pyasc_core.errors import KernelNotFoundError

    def kernel(meta: Any, *args: Any) -> Any:
        exc = KernelNotFoundError(f"{op} has no {backend} AI Core kernels installed (no CANN toolkit at "
                                  "install); reinstall pyasc where CANN is (ASCEND_HOME_PATH)")
        exc.pyasc_dtype_gap = True  # type: ignore[attr-defined]
        raise exc

    kernel.__name__ = f"{backend}_no_aicore"
    return kernel


def routed(op: str, aicore: Callable[..., Any], backend: str) -> Callable[..., Any]:
    """``op``'s kernel on ``backend``: the AI Core glue when it has a kernel for the call's dtypes
    (it wins), else the AI CPU kernel, else (no AI CPU library installed) the host fallback, which
    PYASC_FALLBACK / pyasc.set_fallback allow, warn about once, or forbid."""
    from pyasc_core import placement as pl
    from pyasc_core.errors import KernelNotFoundError

    from . import aicpu

    on_aicpu = aicpu.KERNELS.get(op)
    fallback = aicpu.host_fallback(op)
    ran = pl.COUNTS

    def kernel(meta: Any, *args: Any) -> Any:
        try:
            out = aicore(meta, *args)
        except KernelNotFoundError as exc:
            if not getattr(exc, "pyasc_dtype_gap", False) or on_aicpu is None:
                raise
            why = str(exc).split(";")[0]
        else:
            ran[pl.AICORE] += 1
            return out
        if aicpu.available(backend):
            ran[pl.AICPU] += 1
            return on_aicpu(meta, *args)
        pl.allow_host(op, backend, why)
        ran[pl.HOST] += 1
        return fallback(meta, *args)

    kernel.__name__ = getattr(aicore, "__name__", "kernel")
    kernel.__doc__ = getattr(aicore, "__doc__", None)
    kernel.__wrapped__ = aicore  # type: ignore[attr-defined]
    plan_call = getattr(aicore, "pyasc_plan_call", None)
    if plan_call is not None:  # a launch plan runs on the AI Core: counted there
        kernel.pyasc_plan_call = lambda meta, args: plan_call(meta, args, (ran, pl.AICORE))  # type: ignore[attr-defined]
    for attr in ("pyasc_strided_inputs",):
        if hasattr(aicore, attr):
            setattr(kernel, attr, getattr(aicore, attr))
    return kernel


def placement_of(op: str, backend: str) -> dict[str, str]:
    """{dtype name: where ``op`` runs on ``backend`` for that input dtype}: "AI Core" (a kernel of
    kernels/*.cpp), "AI CPU" (kernels/aicpu), "host fallback" (no AI CPU library installed) or
    "none", for every dtype of the op's record."""
    from pyasc_core import placement as pl
    from pyasc_core.builtin_ops import all_ops

    from . import aicpu

    record = next((o for o in all_ops() if o.name == op), None)
    if record is None:
        return {}
    core = set() if backend in _NO_AICORE else set(_supported_table().get(op, ()))
    other = pl.AICPU if aicpu.available(backend) else pl.HOST
    if op not in aicpu.KERNELS:
        other = pl.NONE
    from pyasc_core import dtypes as dt

    return {dt.dtype_name(d): (pl.AICORE if dt.dtype_name(d) in core else other)
            for d in dt.ALL_DTYPES if d in record.all_dtypes}


def _device_dtypes_of(op: str, backend: str) -> tuple[Any, ...]:
    from pyasc_core import dtypes as dt
    from pyasc_core import placement as pl

    return tuple(dt.as_dtype(d) for d, where in placement_of(op, backend).items() if where in (pl.AICORE, pl.AICPU))

