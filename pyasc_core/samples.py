"""Sample inputs of an op: the types an op record's sample and benchmark makers build (Sample,
SampleMaker) and the samples derived from a schema alone (``generic_samples``).

They live below the built-in ops (which define their samples with them) and the testing toolkit
(which runs them; ``pyasc.testing`` re-exports these names). Per dtype: shapes from empty and 1 through unaligned (31, 33, 255, 257) to large (4097) and
multi-dimensional, broadcasting pairs for multi-input ops, Python-scalar operands, and special
values (+-0, +-inf, NaN, denormals, large magnitudes) where the op allows them. Every sample is
checked against the op's meta function, and generation is reproducible from a seed.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import attrs
import numpy as np

from . import dtypes as _dt
from .binding import bind
from .tensor_meta import TensorMeta
from .errors import PyascError

SHAPES: tuple[tuple[int, ...], ...] = (
    (), (0,), (1,), (31,), (32,), (33,), (255,), (256,), (257,), (4097,),
    (3, 5), (2, 3, 17), (16, 64), (4, 0, 3),
)
BROADCAST_PAIRS: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...] = (
    ((4, 1), (1, 5)), ((2, 3, 33), (33,)), ((33,), ()), ((5, 1, 7), (6, 1)),
)


@attrs.frozen
class Sample:
    """One call of an op: host data (NumPy arrays for tensor inputs) plus a description."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any] = attrs.field(factory=dict)
    desc: str = ""
    dtype: str = ""

    def materialize(self, device: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        """The arguments with every array turned into a pyasc tensor on ``device``."""
        from .creation import tensor

        def conv(v: Any) -> Any:
            return tensor(v, dtype=v.dtype, device=device) if isinstance(v, np.ndarray) else v

        return tuple(conv(a) for a in self.args), {k: conv(v) for k, v in self.kwargs.items()}

    def metas(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        conv = (lambda v: TensorMeta(v.shape, v.dtype) if isinstance(v, np.ndarray) else v)
        return tuple(conv(a) for a in self.args), {k: conv(v) for k, v in self.kwargs.items()}


class SampleMaker:
    """What an op's ``sample_inputs(maker, dtype)`` and ``bench_inputs(maker, dtype, size)`` use to
    build their samples reproducibly."""

    def __init__(self, op: Any, seed: int) -> None:
        self.op = op
        self.seed = seed

    def rng(self, dtype: np.dtype, salt: str = "") -> np.random.Generator:
        key = zlib.crc32(f"{self.op.name}|{_dt.dtype_name(dtype)}|{salt}".encode())
        return np.random.default_rng([self.seed, key])

    def array(self, shape: tuple[int, ...], dtype: np.dtype, rng: np.random.Generator, *,
              low: float | None = None, high: float | None = None) -> np.ndarray:
        """Random data of ``dtype``: normal floats (or uniform in [low, high)), small integers."""
        dtype = np.dtype(dtype)
        if dtype == _dt.bool_:
            return np.asarray(rng.random(shape) < 0.5)
        if dtype in _dt.INTEGER:
            info = np.iinfo(dtype)
            lo = max(int(low) if low is not None else -9, int(info.min))
            hi = min(int(high) if high is not None else 10, int(info.max))
            return np.asarray(rng.integers(lo, hi, size=shape, endpoint=False)).astype(dtype)
        if low is not None or high is not None:
            data = rng.uniform(low if low is not None else -2.0, high if high is not None else 2.0, shape)
        else:
            data = rng.standard_normal(shape) * 2.0
        return np.asarray(data).astype(dtype)

    def specials(self, dtype: np.dtype, rng: np.random.Generator, size: int = 33) -> np.ndarray:
        """+-0, +-inf, NaN, the smallest denormals, huge magnitudes, then random fill."""
        fi = np.finfo(dtype) if dtype != _dt.bfloat16 else None
        big = float(fi.max) / 2 if fi is not None else 1.0e38
        tiny = float(fi.smallest_subnormal) if fi is not None else 9.2e-41
        vals = [0.0, -0.0, np.inf, -np.inf, np.nan, tiny, -tiny, big, -big, 1.0, -1.0, 0.5]
        fill = rng.standard_normal(size - len(vals)) * 3.0
        return np.concatenate([np.array(vals), fill]).astype(dtype)


    def cast_specials(self, dtype: np.dtype, target: np.dtype, rng: np.random.Generator, size: int = 64) -> np.ndarray:
        """Float values whose conversion to integer ``target`` saturates or sits at an edge: NaN,
        +-inf, the source's largest finite values, values just inside and just outside the target's
        range, fractions around zero, then random fill across twice the target's range."""
        info = np.iinfo(target)
        lo, hi = float(info.min), float(info.max)
        with np.errstate(over="ignore"):
            big = float(np.finfo(dtype).max) if dtype != _dt.bfloat16 else 3.3e38
            vals = [np.nan, -np.nan, np.inf, -np.inf, big, -big, 0.0, -0.0, 0.5, -0.5, 0.99, -0.99,
                    hi, lo, hi + 1.0, lo - 1.0, hi + 0.5, lo - 0.5, hi * 2.0 + 8.0, lo * 2.0 - 8.0, 1e10, -1e10]
            fill = rng.uniform(lo * 2.0 - 8.0, hi * 2.0 + 8.0, size - len(vals))
            return np.concatenate([np.array(vals), fill]).astype(dtype)


def _input_dtype(op: Any, p: Any, dtype: np.dtype) -> np.dtype | None:
    allowed = op.allowed_dtypes(p.name)
    if dtype in allowed:
        return dtype
    for d in _dt.ALL_DTYPES:  # e.g. where's bool condition
        if d in allowed:
            return d
    return None


def generic_samples(op: Any, maker: SampleMaker, dtype: np.dtype) -> Iterator[Sample]:
    """Samples derived from the schema alone: every tensor input gets a shape from SHAPES (or a
    broadcasting pair), scalars stand in for Tensor|Scalar inputs, attributes take defaults."""
    params = op.schema.params
    inputs = [p for p in params if p.is_input and p.type != "Tensor?"]
    if any(not p.is_input and p.required for p in params):
        return  # required attributes need an op-specific generator
    rng = maker.rng(dtype)
    name = _dt.dtype_name(dtype)

    def build(shapes: list[tuple[int, ...] | None], desc: str, special: bool = False) -> Sample | None:
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        it = iter(shapes)
        for p in params:
            if p.is_input and p.type != "Tensor?":
                shape = next(it)
                pdt = _input_dtype(op, p, dtype)
                if pdt is None:
                    return None
                if shape is None:
                    value: Any = 2 if dtype in _dt.INTEGER else (True if dtype == _dt.bool_ else 0.5)
                elif special and pdt in _dt.FLOATING:
                    value = maker.specials(pdt, rng)
                else:
                    value = maker.array(shape, pdt, rng)
            else:
                value = None if p.is_input else p.default
            if p.kw_only:
                kwargs[p.name] = value
            else:
                args.append(value)
        return Sample(tuple(args), kwargs, desc, name)

    n = len(inputs)
    candidates: list[Sample | None] = [build([s] * n, f"shape {s}") for s in SHAPES]
    if n >= 2:
        for pair in BROADCAST_PAIRS:
            shapes = [pair[i % 2] for i in range(n)]
            candidates.append(build(shapes, f"broadcast {' & '.join(map(str, shapes))}"))
        scalar_ok = [p.type == "Tensor|Scalar" for p in inputs]
        if any(scalar_ok):
            for i, p in enumerate(inputs):
                if scalar_ok[i]:
                    shapes2: list[tuple[int, ...] | None] = [(33,)] * n
                    shapes2[i] = None
                    candidates.append(build(shapes2, f"{p.name} is a Python scalar"))
    if dtype in _dt.FLOATING and op.special_values:
        candidates.append(build([(33,)] * n, "special values (+-0, +-inf, NaN, denormals, huge)", special=True))
    for s in candidates:
        if s is not None and accepts(op, s):
            yield s


def accepts(op: Any, sample: Sample) -> bool:
    """True when the op's checks and meta function accept the sample (it is a valid call)."""
    if op.meta is None:
        return True
    args, kwargs = sample.metas()
    try:
        values = bind(op.schema, op.name, args, kwargs, meta=True)
        op.caller(op.meta)(*values)
    except PyascError:
        return False
    return True


def schema_samples(maker: SampleMaker, dtype: np.dtype) -> Iterator[Sample]:
    """``generic_samples`` in the shape of an op's ``sample_inputs(maker, dtype)``: what an op
    without its own sample maker gets, and what a maker can fall back to for some dtypes."""
    return generic_samples(maker.op, maker, dtype)


#: an op record's ``sample_inputs``: (maker, dtype) -> the op's samples for that dtype
SampleInputs = Callable[[SampleMaker, np.dtype], Iterable[Sample]]
#: an op record's ``bench_inputs``: (maker, dtype, size) -> one benchmark call of about ``size``
#: elements per tensor, or None when the op has none for that dtype
BenchInputs = Callable[[SampleMaker, np.dtype, int], "Sample | None"]


#: values an attribute's type contributes to attribute sampling, after its default and the values
#: its op declares (``OpDef.attr_values``); optional attributes add None
TYPE_VALUES: dict[str, tuple[Any, ...]] = {
    "float": (0.5, -1.5, 2.0, 0.0),
    "int": (0, 1, -1, 2),
    "bool": (False, True),
    "int[]": (),
    "str": (),
    "dtype": (),
}
#: how many distinct values attribute sampling gives each attribute (bool has two)
MIN_ATTR_VALUES = 3
_UNSET = object()


def _same_value(a: Any, b: Any) -> bool:
    try:
        return type(a) is type(b) and bool(a == b)
    except Exception:
        return False


def _show(v: Any) -> str:
    return _dt.dtype_name(v) if isinstance(v, np.dtype) else repr(v)


def attribute_variants(op: Any, samples: list[Sample]) -> Iterator[Sample]:
    """Samples that give each attribute at least MIN_ATTR_VALUES distinct values (fewer only when
    its type has fewer, as bool): the op's own samples count, then its declared values
    (``attr_values``), its default and its type's values are set on the op's largest sample (the
    one most likely to have a tail tile), keeping only values the op's meta function accepts. So a
    kernel that ignores an attribute anywhere, e.g. on its tail tile, is caught."""
    params = op.schema.params
    attributes = [p for p in params if not p.is_input]
    if not attributes or not samples:
        return
    names = [p.name for p in params]

    def bound(s: Sample) -> dict[str, Any]:
        return dict(zip(names, s.args)) | s.kwargs

    def numel(s: Sample) -> int:
        return sum(int(np.size(v)) for v in bound(s).values() if isinstance(v, np.ndarray))

    base = max(samples, key=numel)
    for p in attributes:
        seen: list[Any] = []
        for s in samples:
            v = bound(s).get(p.name, _UNSET if p.required else p.default)
            if v is not _UNSET and not any(_same_value(v, x) for x in seen):
                seen.append(v)
        declared = list(op.attr_values.get(p.name, ()))
        candidates = declared + ([] if p.required else [p.default]) + list(TYPE_VALUES.get(p.type.rstrip("?"), ()))
        if p.optional:
            candidates.append(None)
        for v in candidates:
            if any(_same_value(v, x) for x in seen):
                continue
            if len(seen) >= MIN_ATTR_VALUES and not any(_same_value(v, d) for d in declared):
                break  # enough values; every declared one is still tried
            variant = _with_attribute(base, names, p, v)
            if accepts(op, variant):
                seen.append(v)
                yield variant


def _with_attribute(s: Sample, names: list[str], p: Any, value: Any) -> Sample:
    args = list(s.args)
    kwargs = dict(s.kwargs)
    i = names.index(p.name)
    if p.name in kwargs or p.kw_only or i >= len(args):
        kwargs[p.name] = value
    else:
        args[i] = value
    return Sample(tuple(args), kwargs, f"{s.desc} [{p.name}={_show(value)}]", s.dtype)
