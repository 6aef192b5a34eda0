"""A test plugin for checks that cannot go green by accident: backend ``holey`` (a host backend
with no fallback to the reference: an op runs only where a kernel is registered) and ops whose
kernels are wrong in the ways ``pyasc check`` must catch:

- ``trust::axpy(x, y, *, alpha=1.0)``: its holey kernel ignores ``alpha`` on the tail tile (the
  elements past the last full 256-element tile), so only samples with another alpha catch it;
- ``trust::boom``: its holey kernel raises a plain Python error for inputs of 33 elements;
- ``trust::badshape``: its holey kernel returns one element too few for 2-d inputs;
- ``trust::addone``: ``x + 1`` on sim through a simulator test kernel (``read_past_size`` of
  backends/sim/kernel_api/tests/kernels/sanitizer.cpp, compiled to ``$TRUST_SANITIZER_BINARY``)
  that reads past its tensor in block 1 for 2-d inputs: a sanitizer error, sticky on the stream.
- ``pyasc::add`` has a correct holey kernel; ``pyasc::mul`` and ``pyasc::sub`` have none.

Used in-process (``plugins.register(trust_pack)``) and, through ``SOURCE``, as the module of a
throwaway plugin distribution in child processes.
"""

from __future__ import annotations

import os
import pathlib

import numpy as np

import pyasc
from pyasc_core.reference_backend import ReferenceBackend
from pyasc_core.samples import Sample
from pyasc_core.tensor import wrap_host

TILE = 256
F32 = [pyasc.float32]


class Holey(ReferenceBackend):
    name = "holey"
    aliases = ()
    priority = -6

    def __init__(self) -> None:
        super().__init__()
        self._device = pyasc.Device("holey")

    def default_kernel(self, op):
        return None  # only registered kernels: a missing one is missing


HOLEY = Holey()


def _host(v):
    return v.numpy() if isinstance(v, pyasc.Tensor) else np.asarray(v)


def _out(meta, values):
    return wrap_host(np.array(np.broadcast_to(values, meta.shape), dtype=meta.dtype, order="C"), HOLEY.device())


def good_add(meta, x, y):
    return _out(meta, _host(x) + _host(y))


def axpy_ignoring_alpha_on_the_tail(meta, x, y, alpha):
    """alpha * x + y, tile by tile; the tail tile forgets alpha (the planted bug)."""
    xa, ya = np.broadcast_arrays(_host(x), _host(y))
    flat_x, flat_y = xa.reshape(-1), ya.reshape(-1)
    full = (flat_x.size // TILE) * TILE
    out = np.empty(flat_x.size, dtype=meta.dtype)
    out[:full] = alpha * flat_x[:full] + flat_y[:full]
    out[full:] = flat_x[full:] + flat_y[full:]  # BUG: alpha ignored on the tail tile
    return _out(meta, out.reshape(meta.shape))


def boom(meta, x):
    if x.shape == (33,):
        raise ZeroDivisionError("the kernel divided by zero on 33 elements")
    return _out(meta, _host(x) * 2.0)


def badshape(meta, x):
    data = _host(x) - 1.0
    if data.ndim == 2:
        return wrap_host(np.ascontiguousarray(data.reshape(-1)[1:]), HOLEY.device())
    return _out(meta, data)


def _axpy_meta(x, y, alpha):
    from pyasc_core.shape_rules import elementwise

    return elementwise(x, y)


def _addone_samples(maker, dtype):
    rng = maker.rng(dtype)
    yield Sample((maker.array((3, 64), dtype, rng),), {}, "shape (3, 64): block 1 reads past its tensor", "float32")
    yield Sample((maker.array((192,), dtype, rng),), {}, "shape (192,)", "float32")


def _boom_samples(maker, dtype):
    rng = maker.rng(dtype)
    for shape in ((33,), (8,)):
        yield Sample((maker.array(shape, dtype, rng),), {}, f"shape {shape}", "float32")


def _badshape_samples(maker, dtype):
    rng = maker.rng(dtype)
    for shape in ((3, 5), (7,)):
        yield Sample((maker.array(shape, dtype, rng),), {}, f"shape {shape}", "float32")


def _meta_like(x, *rest):
    return x


OPS = [
    pyasc.OpDef("trust::axpy", "(Tensor x, Tensor y, *, float alpha=1.0) -> Tensor", dtypes=F32,
                meta=_axpy_meta, reference=lambda x, y, alpha: alpha * x + y, special_values=False),
    pyasc.OpDef("trust::boom", "(Tensor x) -> Tensor", dtypes=F32, meta=_meta_like,
                reference=lambda x: x * 2.0, sample_inputs=_boom_samples),
    pyasc.OpDef("trust::badshape", "(Tensor x) -> Tensor", dtypes=F32, meta=_meta_like,
                reference=lambda x: x - 1.0, sample_inputs=_badshape_samples),
    pyasc.OpDef("trust::addone", "(Tensor x) -> Tensor", dtypes=F32, meta=_meta_like,
                reference=lambda x: x + 1.0, sample_inputs=_addone_samples),
]


def addone_on_sim(meta, x):
    """x + 1 by the simulator test kernel read_past_size (3 blocks of 64 floats); 2-d inputs make
    block 1 read 128 floats through its 64-float GlobalTensor: a sanitizer error at synchronize."""
    import pyasc_acl

    binary = pyasc_acl.Binary(os.environ["TRUST_SANITIZER_BINARY"], device="sim")
    z = pyasc.empty(meta.shape, dtype=meta.dtype, device=x.device)
    bad = 1 if x.ndim == 2 else 99
    pyasc_acl.launch(binary.function("read_past_size"), 3, (x, z, bad), stream=pyasc.current_stream("sim"))
    return z


@pyasc.hookimpl
def pyasc_register_backends(register):
    register(HOLEY)


@pyasc.hookimpl
def pyasc_register_ops(register):
    for op in OPS:
        register(op)


@pyasc.hookimpl
def pyasc_register_kernels(register):
    register("pyasc::add", "holey", good_add)
    register("trust::axpy", "holey", axpy_ignoring_alpha_on_the_tail)
    register("trust::boom", "holey", boom)
    register("trust::badshape", "holey", badshape)
    if os.environ.get("TRUST_SANITIZER_BINARY"):
        register("trust::addone", "sim", addone_on_sim)


SOURCE = pathlib.Path(__file__).read_text()
