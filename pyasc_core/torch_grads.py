"""Backward formulas of the differentiable built-in ops, for their torch ops (pyasc_core.torch_ops).

Each is ``(backward, setup_context)`` in ``torch.library.register_autograd``'s form. The math is
written with pyasc ops called on torch tensors (each goes through its own torch op, so the
backward is itself traceable and differentiable); torch is used only for shape glue (expand).
"""

from __future__ import annotations

import math
from typing import Any

from .dispatch import handle

P_add, P_sub, P_mul, P_div = (handle(f"pyasc::{n}") for n in ("add", "sub", "mul", "div"))
P_neg, P_exp, P_gt, P_lt, P_where = (handle(f"pyasc::{n}") for n in ("neg", "exp", "gt", "lt", "where"))
P_sum, P_reshape, P_transpose, P_matmul = (handle(f"pyasc::{n}") for n in ("sum", "reshape", "transpose", "matmul"))
P_sigmoid = handle("pyasc::sigmoid")

FORMULAS: dict[str, tuple[Any, Any]] = {}


def _formula(*names: str) -> Any:
    def deco(fn: Any) -> Any:
        setup, backward = fn()
        for n in names:
            FORMULAS[f"pyasc::{n}"] = (backward, setup)
        return fn

    return deco


def _save(*which: str) -> Any:
    """A setup_context saving inputs by position ('0', '1', ...), the output ('out') and the
    remaining (attribute) inputs as ctx.attrs."""

    def setup(ctx: Any, inputs: tuple, output: Any) -> None:
        tensors = [output if w == "out" else inputs[int(w)] for w in which]
        ctx.save_for_backward(*tensors)
        ctx.attrs = inputs
        ctx.shapes = tuple(tuple(getattr(i, "shape", ())) for i in inputs)

    return setup


def unbroadcast(g: Any, shape: tuple) -> Any:
    """``g`` summed over the axes broadcasting added to ``shape``."""
    shape = tuple(shape)
    if tuple(g.shape) == shape:
        return g
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(i + lead for i, s in enumerate(shape) if s == 1 and g.shape[i + lead] != 1)
    return P_reshape(P_sum(g, axis=axes, keepdims=True), shape) if axes else P_reshape(g, shape)


def _binary(gx: Any, gy: Any) -> Any:
    def backward(ctx: Any, g: Any) -> tuple:
        saved = ctx.saved_tensors
        rx = unbroadcast(gx(g, *saved), ctx.shapes[0]) if ctx.needs_input_grad[0] else None
        ry = unbroadcast(gy(g, *saved), ctx.shapes[1]) if ctx.needs_input_grad[1] else None
        return rx, ry

    return backward


@_formula("add")
def _add():
    return _save(), _binary(lambda g: g, lambda g: g)


@_formula("sub")
def _sub():
    return _save(), _binary(lambda g: g, lambda g: P_neg(g))


@_formula("mul")
def _mul():
    return _save("0", "1"), _binary(lambda g, x, y: P_mul(g, y), lambda g, x, y: P_mul(g, x))


@_formula("div")
def _div():
    # d(x/y)/dy = -out / y
    return _save("1", "out"), _binary(lambda g, y, out: P_div(g, y), lambda g, y, out: P_neg(P_div(P_mul(g, out), y)))


def _unary(fn: Any, *which: str) -> Any:
    def backward(ctx: Any, g: Any) -> Any:
        return fn(g, *ctx.saved_tensors)

    return _save(*which), backward


@_formula("neg")
def _neg():
    return _unary(lambda g: P_neg(g))


@_formula("exp")
def _exp():
    return _unary(lambda g, out: P_mul(g, out), "out")


@_formula("log")
def _log():
    return _unary(lambda g, x: P_div(g, x), "0")


@_formula("sqrt")
def _sqrt():
    return _unary(lambda g, out: P_div(g, P_add(out, out)), "out")


@_formula("rsqrt")
def _rsqrt():  # d x^-1/2 = -1/2 x^-3/2 = -out^3 / 2
    return _unary(lambda g, out: P_mul(P_mul(g, -0.5), P_mul(out, P_mul(out, out))), "out")


@_formula("tanh")
def _tanh():
    return _unary(lambda g, out: P_mul(g, P_sub(1.0, P_mul(out, out))), "out")


@_formula("sigmoid")
def _sigmoid():
    return _unary(lambda g, out: P_mul(g, P_mul(out, P_sub(1.0, out))), "out")


@_formula("silu")
def _silu():  # s + x s (1 - s)
    def grad(g: Any, x: Any) -> Any:
        s = P_sigmoid(x)
        return P_mul(g, P_add(s, P_mul(P_mul(x, s), P_sub(1.0, s))))

    return _unary(grad, "0")


@_formula("relu")
def _relu():
    return _unary(lambda g, out: P_where(P_gt(out, 0), g, P_mul(g, 0)), "out")


@_formula("abs")
def _abs():
    return _unary(lambda g, x: P_where(P_gt(x, 0), g, P_where(P_lt(x, 0), P_neg(g), P_mul(g, 0))), "0")


@_formula("softmax")
def _softmax():
    def backward(ctx: Any, g: Any) -> tuple:
        (out,) = ctx.saved_tensors
        axis = ctx.attrs[1]
        return P_mul(out, P_sub(g, P_sum(P_mul(g, out), axis=axis, keepdims=True))), None

    return _save("out"), backward


@_formula("log_softmax")
def _log_softmax():
    def backward(ctx: Any, g: Any) -> tuple:
        (out,) = ctx.saved_tensors
        axis = ctx.attrs[1]
        return P_sub(g, P_mul(P_exp(out), P_sum(g, axis=axis, keepdims=True))), None

    return _save("out"), backward


def _reduced_back(ctx: Any, g: Any) -> Any:
    """g (a sum's gradient) expanded back to the input's shape."""
    shape = ctx.shapes[0]
    axis, keepdims = ctx.attrs[1], ctx.attrs[2]
    if axis is None:
        axes = tuple(range(len(shape)))
    else:
        axes = tuple(a % max(len(shape), 1) for a in ((axis,) if isinstance(axis, int) else axis))
    if not keepdims:
        g = P_reshape(g, tuple(1 if i in axes else s for i, s in enumerate(shape)))
    return g.expand(shape)


@_formula("sum")
def _sum():
    def backward(ctx: Any, g: Any) -> tuple:
        return _reduced_back(ctx, g), None, None

    return _save(), backward


@_formula("mean")
def _mean():
    def backward(ctx: Any, g: Any) -> tuple:
        full = _reduced_back(ctx, g)
        n = math.prod(ctx.shapes[0]) // max(1, g.numel())
        return P_div(full, float(max(n, 1))), None, None

    return _save(), backward


@_formula("reshape")
def _reshape():
    def backward(ctx: Any, g: Any) -> tuple:
        return P_reshape(g, ctx.shapes[0]), None

    return _save(), backward


@_formula("transpose")
def _transpose():
    def backward(ctx: Any, g: Any) -> tuple:
        axes = ctx.attrs[1]
        if axes is None:
            return P_transpose(g), None
        inverse = [0] * len(axes)
        for i, a in enumerate(axes):
            inverse[a % len(axes)] = i
        return P_transpose(g, axes=tuple(inverse)), None

    return _save(), backward


def _swap_last(t: Any) -> Any:
    axes = list(range(t.ndim))
    axes[-1], axes[-2] = axes[-2], axes[-1]
    return P_transpose(t, axes=tuple(axes))


@_formula("matmul")
def _matmul():
    def backward(ctx: Any, g: Any) -> tuple:
        a, b = ctx.saved_tensors
        a2 = a if a.ndim > 1 else a.unsqueeze(0)
        b2 = b if b.ndim > 1 else b.unsqueeze(-1)
        g2 = g
        if a.ndim == 1:
            g2 = g2.unsqueeze(-2)
        if b.ndim == 1:
            g2 = g2.unsqueeze(-1)
        ga = P_reshape(unbroadcast(P_matmul(g2, _swap_last(b2)), tuple(a2.shape)), tuple(a.shape)) \
            if ctx.needs_input_grad[0] else None
        gb = P_reshape(unbroadcast(P_matmul(_swap_last(a2), g2), tuple(b2.shape)), tuple(b.shape)) \
            if ctx.needs_input_grad[1] else None
        return ga, gb

    return _save("0", "1"), backward
