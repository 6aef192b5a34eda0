"""The pack's pyasc plugin: op definitions registered through the ``pyasc_register_ops`` hook, and
example::leaky_relu's Ascend C kernel (kernels.py) through ``pyasc_register_kernels``.

Each op's record (pyasc.OpDef) carries all its facts; besides schema, meta and reference an op can
give its sample inputs (what ``pyasc check`` runs), its benchmark inputs (what ``pyasc bench``
times) and its torch equivalent (timed beside it when torch is installed)."""

from __future__ import annotations

import math

import numpy as np
import pyasc
from pyasc.testing import Sample, schema_samples
from pyasc_core.shape_rules import elementwise

FLOATS = [pyasc.float16, pyasc.bfloat16, pyasc.float32, pyasc.float64]


def _same(x, *args, **attrs):
    return x


def _hardswish_ref(x):
    return x * np.clip(x + 3.0, 0.0, 6.0) / 6.0


def _leaky_relu_ref(x, negative_slope):
    return np.where(x >= 0, x, x * negative_slope)


def _leaky_relu_setup(ctx, inputs, output):
    """What the backward needs (torch.library.register_autograd's setup_context)."""
    ctx.save_for_backward(inputs[0])
    ctx.negative_slope = inputs[1]


def _leaky_relu_backward(ctx, grad):
    """grad where x > 0, else grad * negative_slope: written with pyasc ops (on torch tensors)."""
    (x,) = ctx.saved_tensors
    return pyasc.where(pyasc.gt(x, 0.0), grad, pyasc.mul(grad, ctx.negative_slope)), None


def _scaled_add_meta(x, y, alpha):
    return elementwise(x, y)


def _scaled_add_ref(x, y, alpha):
    return x + alpha * y


def _leaky_relu_samples(maker, dtype):
    """The schema's samples (negative_slope at its default) plus other slopes."""
    yield from schema_samples(maker, dtype)
    rng = maker.rng(dtype, "slopes")
    for slope in (0.0, 0.2, 1.0):
        x = maker.array((33,), dtype, rng)
        yield Sample((x,), {"negative_slope": slope}, f"negative_slope {slope}", str(x.dtype))


def _scaled_add_bench(maker, dtype, size):
    """A (n, n) + alpha * (n,) broadcast at about ``size`` elements."""
    rng, n = maker.rng(dtype, "bench"), max(1, math.isqrt(size))
    x, y = maker.array((n, n), dtype, rng), maker.array((n,), dtype, rng)
    return Sample((x, y), {"alpha": 0.5}, f"({n}, {n}) + 0.5 * ({n},)", str(x.dtype))


def _scaled_add_torch(x, y, alpha=1.0):
    import torch

    return torch.add(x, y, alpha=alpha)


def mish(x: pyasc.Tensor) -> pyasc.Tensor:
    """x * tanh(softplus(x)), written with pyasc ops."""
    return x * pyasc.tanh(pyasc.log(pyasc.exp(x) + 1.0))


def swiglu(x: pyasc.Tensor, gate: pyasc.Tensor) -> pyasc.Tensor:
    """silu(gate) * x, written with pyasc ops."""
    return pyasc.silu(gate) * x


OPS = [
    pyasc.OpDef("example::hardswish", "(Tensor x) -> Tensor", dtypes=FLOATS, meta=_same,
                reference=_hardswish_ref, torch="nn.functional.hardswish", doc="x * relu6(x + 3) / 6"),
    pyasc.OpDef("example::leaky_relu", "(Tensor x, *, float negative_slope=0.01) -> Tensor",
                dtypes=FLOATS, meta=_same, reference=_leaky_relu_ref,
                sample_inputs=_leaky_relu_samples, torch="nn.functional.leaky_relu",
                autograd=(_leaky_relu_backward, _leaky_relu_setup),
                doc="x if x >= 0 else negative_slope * x"),
    pyasc.OpDef("example::scaled_add", "(Tensor x, Tensor y, *, float alpha=1.0) -> Tensor",
                dtypes=FLOATS, meta=_scaled_add_meta, reference=_scaled_add_ref,
                bench_inputs=_scaled_add_bench, torch=_scaled_add_torch,
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


@pyasc.hookimpl
def pyasc_register_kernels(register):
    from .kernels import register_kernels  # the Ascend C kernel of example::leaky_relu

    register_kernels(register)
