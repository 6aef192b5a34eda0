"""Sample and benchmark makers of the built-in ops whose schema alone does not say what a valid
call is; each op's record (in its family module) names its makers.

A sample maker takes (maker, dtype) and yields Samples; a benchmark maker takes (maker, dtype,
size) and returns one Sample with about ``size`` elements per tensor. See pyasc_core/samples.py.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

import numpy as np

from .. import dtypes as dt
from ..samples import Sample, SampleMaker, accepts, schema_samples


def _name(dtype: np.dtype) -> str:
    return dt.dtype_name(dtype)


def pow_samples(maker: SampleMaker, dtype: np.dtype) -> Iterator[Sample]:
    if dtype not in dt.INTEGER:
        yield from schema_samples(maker, dtype)
        return
    rng = maker.rng(dtype)
    for shape in ((), (1,), (33,), (257,), (3, 5)):
        x = maker.array(shape, dtype, rng, low=0 if dtype == dt.uint8 else -3, high=4)
        y = maker.array(shape, dtype, rng, low=0, high=4)
        yield Sample((x, y), {}, f"shape {shape}, exponents 0..3", _name(dtype))
    yield Sample((maker.array((33,), dtype, rng, low=0, high=4), 2), {}, "y is a Python scalar", _name(dtype))


def cast_samples(maker: SampleMaker, dtype: np.dtype) -> Iterator[Sample]:
    rng = maker.rng(dtype)
    for target in dt.ALL_DTYPES:
        for shape in ((), (0,), (33,), (4097,), (3, 5)):
            x = maker.array(shape, dtype, rng, low=-100 if dtype != dt.uint8 else 0, high=100)
            if target in dt.INTEGER and dtype in dt.FLOATING:
                info = np.iinfo(target)
                x = np.asarray(np.clip(x.astype(np.float64), info.min, info.max)).astype(dtype)
            if target == dt.uint8 and dtype not in (dt.uint8, dt.bool_):
                x = np.asarray(np.abs(x.astype(np.float64)).clip(0, 255)).astype(dtype)
            yield Sample((x, target), {}, f"shape {shape} -> {_name(target)}", _name(dtype))
        if dtype in dt.FLOATING and target in dt.FLOATING:
            yield Sample((maker.specials(dtype, rng), target), {}, f"special values -> {_name(target)}", _name(dtype))
        if dtype in dt.FLOATING and target in dt.INTEGER:  # saturation: NaN -> 0, +-inf and out of range -> max/min
            yield Sample((maker.cast_specials(dtype, target, rng), target), {},
                         f"NaN, +-inf, out of range -> {_name(target)} (saturates)", _name(dtype))
        if dtype in dt.FLOATING and target == dt.bool_:
            yield Sample((maker.specials(dtype, rng), target), {}, "special values -> bool", _name(dtype))


def reduction_samples(maker: SampleMaker, dtype: np.dtype) -> Iterator[Sample]:
    rng = maker.rng(dtype)
    cases = [
        ((), None, False), ((0,), None, False), ((1,), None, False), ((33,), None, False),
        ((4097,), 0, True), ((3, 5), 1, False), ((3, 5), 0, True), ((2, 3, 17), (0, 2), False),
        ((2, 3, 17), -1, False), ((16, 64), None, True), ((4, 0, 3), 2, False), ((4, 0, 3), 1, False),
    ]
    for shape, axis, keepdims in cases:
        s = Sample((maker.array(shape, dtype, rng), axis, keepdims), {},
                   f"shape {shape}, axis {axis}, keepdims {keepdims}", _name(dtype))
        if accepts(maker.op, s):
            yield s
    if dtype in dt.FLOATING:
        yield Sample((maker.specials(dtype, rng), None, False), {}, "special values", _name(dtype))


def softmax_samples(maker: SampleMaker, dtype: np.dtype) -> Iterator[Sample]:
    rng = maker.rng(dtype)
    for shape, axis in (((1,), -1), ((33,), 0), ((4097,), -1), ((3, 5), 0), ((3, 5), 1),
                        ((2, 3, 17), 1), ((16, 64), -1), ((4, 0, 3), -1)):
        yield Sample((maker.array(shape, dtype, rng), axis), {}, f"shape {shape}, axis {axis}", _name(dtype))


def norm_samples(maker: SampleMaker, dtype: np.dtype) -> Iterator[Sample]:
    rng = maker.rng(dtype)
    layer = maker.op.name.endswith("layer_norm")
    for shape in ((1,), (33,), (4097,), (3, 5), (2, 3, 17), (16, 64)):
        x = maker.array(shape, dtype, rng)
        w = maker.array(shape[-1:], dtype, rng)
        b = maker.array(shape[-1:], dtype, rng)
        yield Sample((x,), {}, f"shape {shape}, no affine", _name(dtype))
        if layer:
            yield Sample((x, w, b), {"eps": 1e-5}, f"shape {shape}, weight and bias", _name(dtype))
        else:
            yield Sample((x, w), {"eps": 1e-6}, f"shape {shape}, weight", _name(dtype))


def matmul_samples(maker: SampleMaker, dtype: np.dtype) -> Iterator[Sample]:
    rng = maker.rng(dtype)
    small = dtype in dt.INTEGER
    for a, b in (((1, 1), (1, 1)), ((3, 5), (5, 7)), ((16, 32), (32, 16)), ((33, 17), (17, 31)),
                 ((64, 128), (128, 96)), ((2, 3, 4), (4, 5)), ((2, 1, 3, 4), (5, 4, 6)),
                 ((5,), (5, 7)), ((3, 5), (5,)), ((0, 4), (4, 3))):
        kw = {"low": -3, "high": 4} if small else {}
        if dtype == dt.uint8:
            kw = {"low": 0, "high": 4}
        yield Sample((maker.array(a, dtype, rng, **kw), maker.array(b, dtype, rng, **kw)), {},
                     f"{a} @ {b}", _name(dtype))


def transpose_samples(maker: SampleMaker, dtype: np.dtype) -> Iterator[Sample]:
    rng = maker.rng(dtype)
    for shape, axes in (((), None), ((33,), None), ((3, 5), None), ((16, 64), (1, 0)),
                        ((2, 3, 17), (1, 2, 0)), ((2, 3, 17), None), ((4, 0, 3), (2, 0, 1))):
        yield Sample((maker.array(shape, dtype, rng), axes), {}, f"shape {shape}, axes {axes}", _name(dtype))


def reshape_samples(maker: SampleMaker, dtype: np.dtype) -> Iterator[Sample]:
    rng = maker.rng(dtype)
    for shape, new in (((), (1,)), ((33,), (3, 11)), ((2, 3, 17), (-1, 17)), ((16, 64), (64, 16)),
                       ((0,), (0, 3)), ((4097,), (4097, 1))):
        yield Sample((maker.array(shape, dtype, rng), new), {}, f"{shape} -> {new}", _name(dtype))


# benchmark calls: about ``size`` elements per tensor (the big operand of matmul and the norms)


def _sq(size: int) -> int:
    return max(1, int(math.isqrt(size)))


def reduction_bench(maker: SampleMaker, dtype: np.dtype, size: int) -> Sample:
    rng, n = maker.rng(dtype, "bench"), _sq(size)
    return Sample((maker.array((n, n), dtype, rng), (-1,), False), {}, f"({n}, {n}) axis -1", _name(dtype))


def softmax_bench(maker: SampleMaker, dtype: np.dtype, size: int) -> Sample:
    rng, n = maker.rng(dtype, "bench"), _sq(size)
    return Sample((maker.array((n, n), dtype, rng), -1), {}, f"({n}, {n}) axis -1", _name(dtype))


def layer_norm_bench(maker: SampleMaker, dtype: np.dtype, size: int) -> Sample:
    rng, n = maker.rng(dtype, "bench"), _sq(size)
    x, w, b = (maker.array(s, dtype, rng) for s in ((n, n), (n,), (n,)))
    return Sample((x, w, b), {"eps": 1e-5}, f"({n}, {n})", _name(dtype))


def rms_norm_bench(maker: SampleMaker, dtype: np.dtype, size: int) -> Sample:
    rng, n = maker.rng(dtype, "bench"), _sq(size)
    return Sample((maker.array((n, n), dtype, rng), maker.array((n,), dtype, rng)), {"eps": 1e-6},
                  f"({n}, {n})", _name(dtype))


def matmul_bench(maker: SampleMaker, dtype: np.dtype, size: int) -> Sample:
    rng = maker.rng(dtype, "bench")
    m = max(16, int(round(size ** (1 / 3) * 4)) // 16 * 16)
    return Sample((maker.array((m, m), dtype, rng), maker.array((m, m), dtype, rng)), {},
                  f"({m}, {m}) @ ({m}, {m})", _name(dtype))


def matmul_flops(sample: Sample) -> int:
    a, b = sample.args[:2]
    return 2 * a.shape[0] * a.shape[1] * b.shape[1]


def transpose_bench(maker: SampleMaker, dtype: np.dtype, size: int) -> Sample:
    rng, n = maker.rng(dtype, "bench"), _sq(size)
    return Sample((maker.array((n, n), dtype, rng), None), {}, f"({n}, {n})", _name(dtype))


def reshape_bench(maker: SampleMaker, dtype: np.dtype, size: int) -> Sample:
    rng, n = maker.rng(dtype, "bench"), _sq(size)
    return Sample((maker.array((size,), dtype, rng), (n, -1)), {}, f"({size},) -> ({n}, -1)", _name(dtype))


def cast_bench(maker: SampleMaker, dtype: np.dtype, size: int) -> Sample:
    rng = maker.rng(dtype, "bench")
    target = dt.float16 if dtype != dt.float16 else dt.float32
    return Sample((maker.array((size,), dtype, rng), target), {}, f"({size},) -> {_name(target)}", _name(dtype))
