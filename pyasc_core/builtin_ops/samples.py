"""Sample-input generators for the built-in ops whose schema alone does not say what a valid call is.

Each takes (maker, dtype) and yields pyasc.testing Samples; see pyasc_core/testing/samples.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .. import dtypes as dt
from ..testing.samples import Sample, SampleMaker, accepts, generic_samples


def _name(dtype: np.dtype) -> str:
    return dt.dtype_name(dtype)


def pow_samples(maker: SampleMaker, dtype: np.dtype) -> Iterator[Sample]:
    if dtype not in dt.INTEGER:
        yield from generic_samples(maker.op, maker, dtype)
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


CUSTOM = {
    "pyasc::pow": pow_samples,
    "pyasc::cast": cast_samples,
    "pyasc::sum": reduction_samples,
    "pyasc::mean": reduction_samples,
    "pyasc::max": reduction_samples,
    "pyasc::min": reduction_samples,
    "pyasc::softmax": softmax_samples,
    "pyasc::log_softmax": softmax_samples,
    "pyasc::layer_norm": norm_samples,
    "pyasc::rms_norm": norm_samples,
    "pyasc::matmul": matmul_samples,
    "pyasc::transpose": transpose_samples,
    "pyasc::reshape": reshape_samples,
}
