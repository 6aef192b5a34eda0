"""Benchmark cases for ops and a small timer, shared by ``pyasc bench`` and benchmarks/.

A case is one call of an op at a benchmark size, with the bytes it moves and the FLOPs it does,
so a timing becomes GB/s or GFLOP/s. NumPy runs the same computation (the op's reference on
plain arrays in the same dtype) as the baseline; torch runs it too when installed.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

import attrs
import numpy as np

from .. import dtypes as _dt
from ..binding import bind
from .samples import Sample, SampleMaker

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


def _sq(size: int) -> int:
    return max(1, int(math.isqrt(size)))


def _custom_sample(op: Any, maker: SampleMaker, dtype: np.dtype, size: int) -> Sample | None:
    rng = maker.rng(dtype, "bench")
    name = op.name
    n = _sq(size)
    dn = _dt.dtype_name(dtype)
    if name in ("pyasc::sum", "pyasc::mean", "pyasc::max", "pyasc::min"):
        return Sample((maker.array((n, n), dtype, rng), (-1,), False), {}, f"({n}, {n}) axis -1", dn)
    if name in ("pyasc::softmax", "pyasc::log_softmax"):
        return Sample((maker.array((n, n), dtype, rng), -1), {}, f"({n}, {n}) axis -1", dn)
    if name == "pyasc::layer_norm":
        x, w, b = (maker.array(s, dtype, rng) for s in ((n, n), (n,), (n,)))
        return Sample((x, w, b), {"eps": 1e-5}, f"({n}, {n})", dn)
    if name == "pyasc::rms_norm":
        return Sample((maker.array((n, n), dtype, rng), maker.array((n,), dtype, rng)), {"eps": 1e-6}, f"({n}, {n})", dn)
    if name == "pyasc::matmul":
        m = max(16, int(round(size ** (1 / 3) * 4)) // 16 * 16)
        return Sample((maker.array((m, m), dtype, rng), maker.array((m, m), dtype, rng)), {}, f"({m}, {m}) @ ({m}, {m})", dn)
    if name == "pyasc::transpose":
        return Sample((maker.array((n, n), dtype, rng), None), {}, f"({n}, {n})", dn)
    if name == "pyasc::reshape":
        return Sample((maker.array((size,), dtype, rng), (n, -1)), {}, f"({size},) -> ({n}, -1)", dn)
    if name == "pyasc::cast":
        target = _dt.float16 if dtype != _dt.float16 else _dt.float32
        return Sample((maker.array((size,), dtype, rng), target), {}, f"({size},) -> {_dt.dtype_name(target)}", dn)
    return None


def bench_case(op: Any, dtype: Any = "float32", size: int = DEFAULT_SIZE, seed: int = 0) -> BenchCase | None:
    """The benchmark call of ``op`` for ``dtype``, or None when no valid call can be built."""
    from .check import resolve_op
    from .samples import accepts

    opdef = resolve_op(op)
    dtype = _dt.as_dtype(dtype)
    maker = SampleMaker(opdef, seed)
    sample = _custom_sample(opdef, maker, dtype, size)
    if sample is None:  # generic: every tensor input gets (size,), attributes keep defaults
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
        sample = Sample(tuple(args), kwargs, f"({size},)", _dt.dtype_name(dtype))
    if not accepts(opdef, sample):
        return None
    margs, mkwargs = sample.metas()
    out = opdef.caller(opdef.meta)(*bind(opdef.schema, opdef.name, margs, mkwargs, meta=True)) if opdef.meta else None
    outs = out if isinstance(out, tuple) else ((out,) if out is not None else ())
    arrays = [v for v in (*sample.args, *sample.kwargs.values()) if isinstance(v, np.ndarray)]
    moved = sum(a.nbytes for a in arrays) + sum(o.nbytes for o in outs)
    flops = 0
    if opdef.name == "pyasc::matmul":
        a, b = sample.args
        flops = 2 * a.shape[0] * a.shape[1] * b.shape[1]
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


_TORCH_NAMES = {
    "add": "add", "sub": "sub", "mul": "mul", "div": "div", "maximum": "maximum",
    "minimum": "minimum", "pow": "pow", "eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt",
    "ge": "ge", "neg": "neg", "abs": "abs", "exp": "exp", "log": "log", "sqrt": "sqrt",
    "rsqrt": "rsqrt", "relu": "relu", "sigmoid": "sigmoid", "tanh": "tanh", "matmul": "matmul",
}


def torch_callable(case: BenchCase) -> Callable[[], Any] | None:
    """The same computation in torch (CPU), when torch is installed and has an equivalent."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return None
    short = case.op.split("::", 1)[1] if case.op.startswith("pyasc::") else None
    if short is None:
        return None
    tensors = []
    for v in (*case.sample.args, *case.sample.kwargs.values()):
        if isinstance(v, np.ndarray):
            t = torch.from_numpy(v.astype(np.float32)) if v.dtype == _dt.bfloat16 else torch.from_numpy(v)
            tensors.append(t.to(torch.bfloat16) if v.dtype == _dt.bfloat16 else t)
        else:
            tensors.append(v)
    if short in _TORCH_NAMES and all(not isinstance(t, tuple) for t in tensors):
        fn = getattr(torch, _TORCH_NAMES[short])
        return lambda: fn(*[t for t in tensors if t is not None])
    x = tensors[0]
    special: dict[str, Callable[[], Any]] = {
        "gelu": lambda: F.gelu(x, approximate="tanh"),
        "silu": lambda: F.silu(x),
        "softmax": lambda: torch.softmax(x, dim=tensors[1]),
        "log_softmax": lambda: torch.log_softmax(x, dim=tensors[1]),
        "layer_norm": lambda: F.layer_norm(x, x.shape[-1:], tensors[1], tensors[2]),
        "sum": lambda: torch.sum(x, dim=tensors[1]),
        "mean": lambda: torch.mean(x, dim=tensors[1]),
        "max": lambda: torch.amax(x, dim=tensors[1]),
        "min": lambda: torch.amin(x, dim=tensors[1]),
        "transpose": lambda: x.T.contiguous(),
    }
    return special.get(short)
