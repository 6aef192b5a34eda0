"""The pack's pyasc plugin: op definitions registered through the ``pyasc_register_ops`` hook."""

from __future__ import annotations

import numpy as np
import pyasc
from pyasc_core.shape_rules import elementwise

FLOATS = [pyasc.float16, pyasc.bfloat16, pyasc.float32, pyasc.float64]


def _same(x, *args, **attrs):
    return x


def _hardswish_ref(x):
    return x * np.clip(x + 3.0, 0.0, 6.0) / 6.0


def _leaky_relu_ref(x, negative_slope):
    return np.where(x >= 0, x, x * negative_slope)


def _scaled_add_meta(x, y, alpha):
    return elementwise(x, y)


def _scaled_add_ref(x, y, alpha):
    return x + alpha * y


def mish(x: pyasc.Tensor) -> pyasc.Tensor:
    """x * tanh(softplus(x)), written with pyasc ops."""
    return x * pyasc.tanh(pyasc.log(pyasc.exp(x) + 1.0))


def swiglu(x: pyasc.Tensor, gate: pyasc.Tensor) -> pyasc.Tensor:
    """silu(gate) * x, written with pyasc ops."""
    return pyasc.silu(gate) * x


OPS = [
    pyasc.OpDef("example::hardswish", "(Tensor x) -> Tensor", dtypes=FLOATS, meta=_same,
                reference=_hardswish_ref, doc="x * relu6(x + 3) / 6"),
    pyasc.OpDef("example::leaky_relu", "(Tensor x, *, float negative_slope=0.01) -> Tensor",
                dtypes=FLOATS, meta=_same, reference=_leaky_relu_ref,
                doc="x if x >= 0 else negative_slope * x"),
    pyasc.OpDef("example::scaled_add", "(Tensor x, Tensor y, *, float alpha=1.0) -> Tensor",
                dtypes=FLOATS, meta=_scaled_add_meta, reference=_scaled_add_ref,
                doc="x + alpha * y, with broadcasting"),
    pyasc.OpDef("example::mish", "(Tensor x) -> Tensor", dtypes=FLOATS, composite=mish,
                doc=mish.__doc__),
    pyasc.OpDef("example::swiglu", "(Tensor x, Tensor gate) -> Tensor", dtypes=FLOATS,
                composite=swiglu, doc=swiglu.__doc__),
]


@pyasc.hookimpl
def pyasc_register_ops(register):
    for op in OPS:
        register(op)
