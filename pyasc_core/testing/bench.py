"""Benchmark cases for ops and a small timer, shared by ``pyasc bench`` and benchmarks/.

A case is one call of an op at a benchmark size, with the bytes it moves and the FLOPs it does,
so a timing becomes GB/s or GFLOP/s. NumPy runs the same computation (the op's reference on
plain arrays in the same dtype) as the baseline; torch runs it too when installed. Every
op-specific fact (the call, the FLOP count, the torch equivalent) is read from the op's record:
``bench_inputs``, ``flops`` and ``torch`` on its OpDef.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from .. import dtypes as _dt
from ..binding import bind
from ..samples import Sample, SampleMaker

#: elements per tensor for elementwise benchmarks (4 MiB of float32)
DEFAULT_SIZE = 1 << 20


@attrs.frozen
class BenchCase:
    op: str
    dtype: str
    desc: str
    sample: Sample
    bytes_moved: int
    flops: int

    @property
    def metric(self) -> str:
        return "GFLOP/s" if self.flops else "GB/s"


def _schema_sample(opdef: Any, maker: SampleMaker, dtype: np.dtype, size: int) -> Sample | None:
    """The benchmark call of an op without ``bench_inputs``: every tensor input gets (size,) of
    ``dtype`` (or the first dtype it allows), attributes keep their defaults."""
    rng = maker.rng(dtype, "bench")
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for p in opdef.schema.params:
        if p.is_input and p.type != "Tensor?":
            allowed = opdef.allowed_dtypes(p.name)
            pdt = dtype if dtype in allowed else next((d for d in _dt.ALL_DTYPES if d in allowed), None)
            if pdt is None:
                return None
            v: Any = maker.array((size,), pdt, rng)
        elif p.is_input:
            v = None
        elif p.required:
            return None
        else:
            v = p.default
        (kwargs.__setitem__(p.name, v) if p.kw_only else args.append(v))
    return Sample(tuple(args), kwargs, f"({size},)", _dt.dtype_name(dtype))


def bench_case(op: Any, dtype: Any = "float32", size: int = DEFAULT_SIZE, seed: int = 0) -> BenchCase | None:
    """The benchmark call of ``op`` for ``dtype``, or None when no valid call can be built."""
    from ..samples import accepts
    from .check import resolve_op

    opdef = resolve_op(op)
    dtype = _dt.as_dtype(dtype)
    maker = SampleMaker(opdef, seed)
    if opdef.bench_inputs is not None:
        sample = opdef.bench_inputs(maker, dtype, size)
    else:
        sample = _schema_sample(opdef, maker, dtype, size)
    if sample is None:
        return None
    if not isinstance(sample, Sample):
        from ..errors import OpRegistrationError

        raise OpRegistrationError(
            f"op {opdef.name}: bench_inputs(maker, dtype, size) must return a pyasc.testing.Sample "
            f"or None, got {type(sample).__name__} {sample!r:.60}"
        )
    if not accepts(opdef, sample):
        return None
    margs, mkwargs = sample.metas()
    out = opdef.caller(opdef.meta)(*bind(opdef.schema, opdef.name, margs, mkwargs, meta=True)) if opdef.meta else None
    outs = out if isinstance(out, tuple) else ((out,) if out is not None else ())
    arrays = [v for v in (*sample.args, *sample.kwargs.values()) if isinstance(v, np.ndarray)]
    moved = sum(a.nbytes for a in arrays) + sum(o.nbytes for o in outs)
    flops = int(opdef.flops(sample)) if opdef.flops is not None else 0
    return BenchCase(opdef.name, _dt.dtype_name(dtype), sample.desc, sample, moved, flops)


def time_call(fn: Callable[[], Any], *, min_time: float = 0.1, repeat: int = 5) -> float:
    """Seconds per call: calibrate a loop to ``min_time``, then the best of ``repeat`` loops."""
    fn()
    number = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        elapsed = time.perf_counter() - t0
        if elapsed >= min_time / 4 or number >= 1 << 20:
            break
        number *= 4
    best = elapsed / number
    for _ in range(repeat - 1):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t0) / number)
    return best


def pyasc_callable(case: BenchCase, backend: str) -> Callable[[], Any]:
    """A zero-argument call of the op on ``backend`` that waits for the device to finish."""
    from ..dispatch import handle
    from ..streams import synchronize

    args, kwargs = case.sample.materialize(backend)
    call = handle(case.op)
    device = next((a.device for a in (*args, *kwargs.values()) if hasattr(a, "device")), None)

    def run() -> Any:
        out = call(*args, **kwargs)
        synchronize(device)
        return out

    return run


def numpy_callable(case: BenchCase) -> Callable[[], Any] | None:
    """The op's NumPy reference on plain arrays in the case's dtype (the baseline)."""
    from .check import resolve_op

    op = resolve_op(case.op)
    if op.reference is None:
        return None
    ref = op.caller(op.reference)
    names = [p.name for p in op.schema.params]
    bound = dict(zip(names, case.sample.args)) | case.sample.kwargs
    values = [bound[n] for n in names]
    return lambda: ref(*values)


def torch_function(op: Any) -> Callable[..., Any] | None:
    """The torch equivalent on ``op``'s record as a function (None without one or without torch)."""
    equivalent = op.torch
    if equivalent is None or callable(equivalent):
        return equivalent
    try:
        import torch
    except ImportError:
        return None
    fn: Any = torch
    for part in equivalent.split("."):
        fn = getattr(fn, part)
    return fn


def torch_callable(case: BenchCase) -> Callable[[], Any] | None:
    """The same computation in torch (CPU), when torch is installed and the op's record names an
    equivalent (its ``torch``): a torch function's name is called with the sample's arguments,
    None ones left out; a function gets the sample's arguments and keywords."""
    from .check import resolve_op

    op = resolve_op(case.op)
    if op.torch is None:
        return None
    try:
        import torch
    except ImportError:
        return None

    def conv(v: Any) -> Any:
        if not isinstance(v, np.ndarray):
            return v
        if v.dtype == _dt.bfloat16:
            return torch.from_numpy(v.astype(np.float32)).to(torch.bfloat16)
        return torch.from_numpy(v)

    args = [conv(v) for v in case.sample.args]
    kwargs = {k: conv(v) for k, v in case.sample.kwargs.items()}
    fn = torch_function(op)
    if fn is None:
        return None
    if isinstance(op.torch, str):
        values = [v for v in (*args, *kwargs.values()) if v is not None]
        if any(isinstance(v, tuple) for v in values):
            return None
        return lambda: fn(*values)
    return lambda: fn(*args, **kwargs)
