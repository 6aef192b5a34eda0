"""Elementwise ops: binary arithmetic and comparisons (with broadcasting), unary math, cast, where."""

from __future__ import annotations

import numpy as np

from .. import dtypes as dt
from ..backend import TensorMeta
from ..errors import ArgumentError
from ..opdef import OpDef
from ..shape_rules import elementwise
from . import torch_equivalents as th
from .samples import cast_bench, cast_samples, pow_samples

BINARY = "(Tensor|Scalar x, Tensor|Scalar y) -> Tensor"
UNARY = "(Tensor x) -> Tensor"
FLOAT_OUT_FOR_INT = (dt.bool_, dt.uint8, dt.int8, dt.int16, dt.int32, dt.int64)


def _binary_meta(x, y):
    return elementwise(x, y)


def _compare_meta(x, y):
    return elementwise(x, y, dtype=dt.bool_)


def _div_meta(x, y):
    m = elementwise(x, y)
    return TensorMeta(m.shape, dt.DEFAULT_FLOAT) if m.dtype in FLOAT_OUT_FOR_INT else m


def _same_meta(x):
    return x


def _pow_ref(x, y):
    xi = np.asarray(x)
    yi = np.asarray(y)
    if xi.dtype.kind in "iub" and yi.dtype.kind in "iub" and np.any(yi < 0):
        raise ArgumentError(
            "pyasc::pow: integer tensors cannot be raised to negative integer powers; "
            "cast to a floating dtype first, e.g. x.astype('float32')"
        )
    with np.errstate(all="ignore"):
        return np.power(x, y)


def _div_ref(x, y):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.true_divide(x, y)


def _errfree(fn):
    def ref(x):
        with np.errstate(all="ignore"):
            return fn(x)

    ref.__name__ = getattr(fn, "__name__", "ref")
    return ref


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _gelu(x):
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x * x * x)))


def _silu(x):
    return x / (1.0 + np.exp(-x))


def _relu(x):
    return np.maximum(x, np.zeros((), dtype=x.dtype))


def _cast_meta(x, dtype):
    return TensorMeta(x.shape, dtype)


def _cast_ref(x, dtype):
    x = np.asarray(x)
    if x.dtype in dt.FLOATING and np.dtype(dtype) in dt.INTEGER:
        return saturating_to_int(x, np.dtype(dtype))
    with np.errstate(invalid="ignore", over="ignore"):
        return x.astype(dtype)


def saturating_to_int(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Float -> integer as the Ascend vector unit converts (Ascend C's type conversion rules):
    truncate toward zero; NaN -> 0; +inf and values above the range -> the dtype's max; -inf and
    values below it -> its min. (NumPy leaves these undefined.)"""
    info = np.iinfo(dtype)
    with np.errstate(invalid="ignore"):
        f = np.trunc(x.astype(np.float64))
        high = f >= float(info.max)  # float(max) may round up (2**63): >= keeps it exact
        low = f <= float(info.min)
        out = np.where(np.isnan(f) | high | low, 0.0, f).astype(dtype)
    out[high] = info.max
    out[low] = info.min
    return out


def _where_meta(cond, x, y):
    out = elementwise(x, y)
    return elementwise(cond, out, dtype=out.dtype)


def _binary(name: str, ref, doc: str, dtypes=dt.NUMERIC, meta=_binary_meta, **facts) -> OpDef:
    """A binary op; its torch equivalent is the torch function of the same name unless ``facts``
    say otherwise (as for every other fact of the record)."""
    facts.setdefault("torch", name)
    return OpDef(f"pyasc::{name}", BINARY, dtypes=dtypes, meta=meta, reference=ref, doc=doc, **facts)


def _unary(name: str, ref, doc: str, dtypes=dt.FLOATING, **facts) -> OpDef:
    facts.setdefault("torch", name)
    return OpDef(f"pyasc::{name}", UNARY, dtypes=dtypes, meta=_same_meta, reference=ref, doc=doc, **facts)


OPS = [
    _binary("add", np.add, "x + y, with broadcasting and type promotion."),
    _binary("sub", np.subtract, "x - y, with broadcasting and type promotion."),
    _binary("mul", np.multiply, "x * y, with broadcasting and type promotion."),
    _binary("div", _div_ref, "True division x / y; integer inputs give float32.", meta=_div_meta),
    _binary("maximum", np.maximum, "Elementwise maximum (NaN propagates)."),
    _binary("minimum", np.minimum, "Elementwise minimum (NaN propagates)."),
    _binary("pow", _pow_ref, "x ** y, elementwise.", sample_inputs=pow_samples),
    _binary("eq", np.equal, "x == y as a bool tensor.", dt.ANY, _compare_meta),
    _binary("ne", np.not_equal, "x != y as a bool tensor.", dt.ANY, _compare_meta),
    _binary("lt", np.less, "x < y as a bool tensor.", dt.NUMERIC, _compare_meta),
    _binary("le", np.less_equal, "x <= y as a bool tensor.", dt.NUMERIC, _compare_meta),
    _binary("gt", np.greater, "x > y as a bool tensor.", dt.NUMERIC, _compare_meta),
    _binary("ge", np.greater_equal, "x >= y as a bool tensor.", dt.NUMERIC, _compare_meta),
    _unary("neg", np.negative, "-x.", dt.SIGNED),
    _unary("abs", np.abs, "|x|.", dt.NUMERIC),
    _unary("exp", _errfree(np.exp), "e ** x."),
    _unary("log", _errfree(np.log), "Natural logarithm."),
    _unary("sqrt", _errfree(np.sqrt), "Square root."),
    _unary("rsqrt", _errfree(lambda x: 1.0 / np.sqrt(x)), "1 / sqrt(x)."),
    _unary("relu", _relu, "max(x, 0).", dt.NUMERIC),
    _unary("sigmoid", _errfree(_sigmoid), "1 / (1 + exp(-x))."),
    _unary("tanh", np.tanh, "Hyperbolic tangent."),
    _unary("gelu", _errfree(_gelu), "GELU, tanh approximation (PyTorch's approximate='tanh').",
           torch=th.gelu),
    _unary("silu", _errfree(_silu), "x * sigmoid(x).", torch="nn.functional.silu"),
    OpDef("pyasc::cast", "(Tensor x, dtype dtype) -> Tensor", dtypes=dt.ANY, meta=_cast_meta,
          reference=_cast_ref, sample_inputs=cast_samples, bench_inputs=cast_bench, torch=None,
          doc="Convert to another dtype. Float to int truncates toward zero and saturates: NaN -> 0, "
              "+inf and too large -> the int max, -inf and too small -> the int min (the NPU's rule); "
              "int to narrower int wraps (NumPy); anything to bool is x != 0."),
    OpDef("pyasc::where", "(Tensor cond, Tensor|Scalar x, Tensor|Scalar y) -> Tensor",
          dtypes={"cond": [dt.bool_], "*": dt.ANY}, meta=_where_meta, reference=np.where, torch=None,
          doc="x where cond is True, else y (broadcasting)."),
]
