"""An Ascend C kernel as an op's kernel (``pyasc.library.impl(op, backend, kernel=..., tiling=...)``):
the kernel function pyasc writes around a ``pyasc.Kernel`` so a pack needs no glue of its own."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from . import dtypes as _dt
from .creation import empty
from .dtype_advice import cast_hint
from .errors import ArgumentError, KernelNotFoundError, OpRegistrationError
from .kernel import Kernel
from .tensor import Tensor


def _variants(op: str, kernel: Any, dtypes: Any) -> tuple[dict[np.dtype, Kernel] | None, Kernel | None]:
    """({dtype: Kernel}, None) for one kernel per dtype, or (None, kernel) for one kernel."""
    if isinstance(kernel, Kernel) or callable(getattr(kernel, "specialize", None)):
        return None, kernel  # a Kernel, or a @pyasc.jit kernel (specialised per launch)
    if isinstance(kernel, Mapping) and kernel and all(isinstance(k, Kernel) for k in kernel.values()):
        try:
            table = {_dt.as_dtype(d): k for d, k in kernel.items()}
        except Exception as exc:
            raise OpRegistrationError(f"impl({op!r}, kernel={{dtype: Kernel}}): a key is not a dtype ({exc})") from None
        return table, None
    raise OpRegistrationError(f"impl({op!r}, kernel=...) takes a pyasc.Kernel (a template kernel's instance "
                              f"is picked by the input dtype) or {{dtype: pyasc.Kernel}} (one kernel per input dtype), "
                              f"got {type(kernel).__name__} {kernel!r:.60}")


def _pick(single: Kernel, dtype: np.dtype, device: Any, plain: dict[str, bool]) -> Kernel:
    """``single`` itself, or, when it names a template kernel (no plain kernel of that name in its
    source), its instance for the input dtype: ``leaky_relu`` -> ``leaky_relu<half>`` for float16."""
    name = single.name
    if not name.isidentifier():
        return single
    is_plain = plain.get(device.type)
    if is_plain is None:
        is_plain = plain.setdefault(device.type, name in single.names(device))
    return single if is_plain else single.instance(dtype)


def kernel_launcher(op: str, kernel: Any, tiling: Callable[..., Any], dtypes: Any = None) -> Callable[..., Any]:
    """The kernel function ``fn(out_meta, *args)`` that launches ``kernel`` (see library.impl)."""
    table, single = _variants(op, kernel, dtypes)
    plain: dict[str, bool] = {}  # per backend: single is a plain kernel (not a template family)
    if not callable(tiling):
        raise OpRegistrationError(f"impl({op!r}, kernel=...): tiling must be the host tiling function "
                                  f"tiling(*args) -> blocks or (blocks, tiling, *scalars), got {tiling!r:.60}")
    allowed = None if dtypes is None else tuple(_dt.as_dtype(d) for d in dtypes)
    if allowed is None and table is not None:
        allowed = tuple(table)

    def launch(out_meta: Any, *args: Any) -> Any:
        device = next((a._device for a in args if isinstance(a, Tensor)), None)
        if device is None:
            raise ArgumentError(f"{op}: the kernel needs at least one tensor argument to know its device")
        inputs = [a.contiguous() if isinstance(a, Tensor) else a for a in args]
        tensors = [a for a in inputs if isinstance(a, Tensor)]
        dtype = tensors[0].dtype
        if allowed is not None and dtype not in allowed:
            hint = cast_hint(str(op), device.type, dtype, allowed)
            raise KernelNotFoundError(
                f"{op} has no {device.type} kernel for {_dt.dtype_name(dtype)}; its kernels take "
                f"{', '.join(_dt.dtype_name(d) for d in allowed)}. {hint[0].upper()}{hint[1:]}")
        k = (table[dtype] if table is not None else single if not isinstance(single, Kernel)
             else _pick(single, dtype, device, plain))
        single_out = not isinstance(out_meta, (tuple, list))
        metas = [out_meta] if single_out else list(out_meta)
        outs = [empty(*m.shape, dtype=m.dtype, device=device) for m in metas]
        if all(o.size == 0 for o in outs) or any(t.size == 0 for t in tensors):
            return outs[0] if single_out else tuple(outs)  # nothing to compute
        plan = tiling(*inputs)
        if isinstance(plan, tuple):
            if not plan:
                raise ArgumentError(f"{op}: the tiling function returned (); return blocks or (blocks, tiling, *scalars)")
            blocks, rest = plan[0], list(plan[1:])
        else:
            blocks, rest = plan, []
        struct = rest.pop(0) if rest else None
        kargs = [*tensors, *outs, *rest]
        if not isinstance(k, Kernel):  # a @pyasc.jit kernel: the Kernel of this launch's specialisation
            k = k.specialize(*kargs, *(() if struct is None else (struct,)))
        fn = k.function(device)
        sig = getattr(fn, "signature", None)
        if struct is not None:
            if sig is not None and len(sig.params) == len(kargs) + 2 and sig.params[-2].name == "workspace":
                kargs.append(0)  # the standard custom-op signature's workspace: none needed
            kargs.append(struct)
        k[blocks](*kargs)
        return outs[0] if single_out else tuple(outs)

    launch.__name__ = f"launch_{op.replace('::', '_')}"
    launch.__qualname__ = launch.__name__
    launch.kernel = kernel  # type: ignore[attr-defined]
    launch.dtypes = allowed  # type: ignore[attr-defined]
    return launch
