"""Neural-network family: softmax / log_softmax (kernels/softmax.cpp) and layer_norm / rms_norm
(kernels/norm.cpp), all over the last axis of a (rows, cols) view. softmax over another axis
moves it last with the copy kernel and back afterwards."""

from __future__ import annotations

import math
from typing import Any

from pyasc_core import dtypes as dt
from pyasc_core.shape_rules import normalize_axis
from pyasc_core.tensor import Tensor

from . import _runtime as rt
from . import tilings as tl
from .elementwise import FLOATS, to_dtype
from .shape import expand, permute

CHUNK = 4096
#: the chunk of the batched path (layer_norm / rms_norm) for rows of up to BATCH_CHUNK // 2 elements:
#: CHUNK, four (4096, 1024) rows per batch. Each row is computed alone, so the batch size leaves results
#: unchanged (bit for bit, checked on random inputs). The per-batch instructions (DMA, queue, flags, the
#: squares, weight and bias over the whole batch), each checked with the sanitizer on, are shared by
#: twice the rows of a 2048 chunk: for (4096, 1024) float32 callgrind counts (round 15, the kernel run
#: in-process on the portable build) 12% fewer instructions per launch with checks on (22% fewer in
#: the checks themselves), 4% fewer with them off, and the same L1 misses (48 KiB L1: a batch's buffers
#: exceed it at 2048 too). Round 5 measured 2048 ~5% faster with checks off on the loaded VM.
BATCH_CHUNK = CHUNK
#: float32 layer_norm / rms_norm batches take 3/2 of BATCH_CHUNK (round 16): a float batch keeps x in
#: its VECIN buffer and computes the squares in the output buffer, so its UB holds seven chunks (two
#: in, two out, x - mean, weight, bias) instead of ten, and 6144 elements (a multiple of 64) still fit
#: UB (192 KiB on Atlas A2): six (4096, 1024) rows per batch instead of four, so each per-batch
#: instruction (DMA, queue, flags, Sqrt, weight, bias), checked with the sanitizer on, is shared by
#: more rows. Rows are computed alone: the results do not depend on it (bit for bit).
FLOAT_NORM_BATCH_SCALE = (3, 2)
#: softmax's batched chunk: its batch holds four UB buffers (not five to seven) and works per row
#: (max, x - max, sum, scale) and per batch (DMA, Exp, flags): for (4096, 1024) float32 a 4096 chunk
#: measured 2-10% less device CPU time than 2048 with checks on (4 rows per batch: fewer per-batch
#: instructions, each checked) and the same within noise (-7..+7%) with checks off; the results do not
#: depend on it
SOFTMAX_BATCH_CHUNK = CHUNK
#: float32 softmax (not log_softmax) batches take twice SOFTMAX_BATCH_CHUNK (round 17): such a batch
#: computes x - max, its exp and the output in the output buffer, x stays in its VECIN buffer, so its
#: UB holds four chunks (two in, two out) and the reductions' work space (kernels/softmax.cpp,
#: BatchInOutput): eight (4096, 1024) rows per batch instead of four, so each per-batch instruction
#: (DMA, queue, flags, Exp), checked with the sanitizer on, serves twice the rows. Rows are computed
#: alone: the results do not depend on it (bit for bit).
FLOAT_SOFTMAX_BATCH_CHUNK = 2 * SOFTMAX_BATCH_CHUNK


def _rows_split(device: Any, rows: int, cols: int) -> tuple[int, int]:
    return rt.split(rows, align=1, min_per_core=max(1, rt.MIN_PER_CORE // max(cols, 1)),
                    cores=rt.vector_cores(device))


def _chunk(cols: int) -> int:
    return min(CHUNK, -(-cols // 64) * 64)


def _batch_chunk(cols: int, batch_chunk: int | None = None) -> int:
    """A whole batch_chunk (default BATCH_CHUNK; else CHUNK) for rows of whole 32-byte blocks that
    fit it twice or more: the kernel then works on chunk // cols rows at a time (fewer, longer
    instructions), else _chunk(cols)."""
    batch_chunk = BATCH_CHUNK if batch_chunk is None else batch_chunk
    if cols % 16 == 0 and 2 * cols <= batch_chunk:
        return batch_chunk
    return CHUNK if cols % 16 == 0 and 2 * cols <= CHUNK else _chunk(cols)


#: the glue's own launch, split, tiling struct and chunk choice: launch plans apply only while they
#: are (a test may replace one to see or change what a launch decides)
_LAUNCH, _SPLIT = rt.launch, rt.split
#: (device, struct, fields) -> a pinned tiling struct (uploaded once; shared: never change one)
_TILINGS: dict[Any, Any] = {}
_TILINGS_LIMIT = 1024


def _pinned_tiling(device: Any, struct: Any, **fields: int) -> Any:
    """``struct(**fields)`` cached per content and pinned (uploaded once): a launch plan keeps its
    upload, so a repeated launch shape decides, packs and uploads nothing."""
    key = (device, struct, *fields.items())
    tiling = _TILINGS.get(key)
    if tiling is None:
        if len(_TILINGS) >= _TILINGS_LIMIT:
            rt.unpin_tilings(_TILINGS.values())
            _TILINGS.clear()
        tiling = _TILINGS[key] = rt.pin_tiling(device, struct(**fields))
    return tiling


_BATCH_CHUNK, _SOFTMAX_TILING = _batch_chunk, tl.SoftmaxTiling


def _own() -> bool:
    """Are the launch decisions the glue's own (launch plans valid)?"""
    return rt.launch is _LAUNCH and rt.split is _SPLIT and _batch_chunk is _BATCH_CHUNK and \
        tl.SoftmaxTiling is _SOFTMAX_TILING


def softmax_kernel(name: str):
    op = f"pyasc::{name}"
    #: (dtype, shape, axis, device, chunks) of a contiguous x -> its launch plan (rt.plan_cache): a repeated
    #: call makes the output and launches; the Python before the launch was ~60-140 us per
    #: (4096, 1024) call (tiling struct, packing, upload lookup, split), time the device waited
    plans: dict[Any, tuple[Any, int, Tensor, Any, Any]] = rt.plan_cache()

    def kernel(meta: Any, x: Tensor, axis: int) -> Tensor:
        device = x._device
        d = x._data
        dtype = d.dtype
        # (the chunk constants too: a measurement may change them between calls)
        key = (dtype, d.shape, axis, device, SOFTMAX_BATCH_CHUNK, FLOAT_SOFTMAX_BATCH_CHUNK) \
            if type(axis) is int else None
        plan = plans.get(key) if key is not None and d.contiguous else None
        if plan is not None and _own():
            fn, blocks, buf, new, _ = plan
            out = new(d.shape, dtype, device)
            fn(blocks, x, out, 0, buf)
            return out
        if dtype not in FLOATS:
            raise rt.no_kernel(op, device, f"dtype {dt.dtype_name(dtype)}", FLOATS, dtype)
        shape = x._data.shape
        if rt.size_of(shape) == 0:
            return rt.new_tensor(shape, dtype, device)
        nd = len(shape)
        ax = normalize_axis(axis, nd) if nd else 0
        order = [a for a in range(nd) if a != ax] + [ax] if nd else []
        src = permute(x, order) if nd else rt.alias(x, (1,))
        cols = shape[ax] if nd else 1
        rows = rt.size_of(shape) // cols
        out = rt.new_tensor(src._data.shape, dtype, device)
        blocks, per_core = _rows_split(device, rows, cols)
        batch_chunk = FLOAT_SOFTMAX_BATCH_CHUNK if dtype == dt.float32 and name == "softmax" else SOFTMAX_BATCH_CHUNK
        fields = dict(rows=rows, cols=cols, rowsPerCore=per_core, chunk=_batch_chunk(cols, batch_chunk))
        kname = f"{name}_{rt.DTYPE_NAMES[dtype]}"
        if nd and src is x and key is not None and _own():  # the last axis of a contiguous x
            tiling = _pinned_tiling(device, tl.SoftmaxTiling, **fields)
            rt.launch(device, "softmax", kname, blocks, (src, out), tiling)
            rt.remember_plan(plans, key, device, "softmax", kname, blocks, tiling)
            return out
        rt.launch(device, "softmax", kname, blocks, (src, out), tl.SoftmaxTiling(**fields))
        if not nd:
            return rt.alias(out, ())
        inverse = [order.index(a) for a in range(nd)]
        return permute(out, inverse)

    kernel.__name__ = f"sim_{name}"
    return kernel


_NORM_TILING = tl.NormTiling
#: (layer, result dtype and shape, x / weight / bias dtypes and shapes, eps, device, chunk constants) ->
#: the launch plan (rt.plan_cache) of a call whose operands the kernel takes as they are (no cast, no
#: broadcast): a repeated call makes its output and launches (the Python before a (4096, 1024) launch
#: was ~170-240 us of the device's time)
_NORM_PLANS: dict[Any, tuple[Any, int, Tensor, Any, Any]] = rt.plan_cache()


def _norm_key(layer: bool, meta: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, eps: Any) -> Any:
    if type(eps) is not float or type(x) is not Tensor:
        return None
    if weight is not None and type(weight) is not Tensor or bias is not None and type(bias) is not Tensor:
        return None
    return (layer, meta.dtype, meta.shape, x._data.dtype, x._data.shape,
            None if weight is None else (weight._data.dtype, weight._data.shape),
            None if bias is None else (bias._data.dtype, bias._data.shape),
            eps, math.copysign(1.0, eps), x._device, BATCH_CHUNK, FLOAT_NORM_BATCH_SCALE)


def _norm(op: str, meta: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, eps: float,
          layer: bool) -> Tensor:
    device = x._device
    dtype = meta.dtype
    key = _norm_key(layer, meta, x, weight, bias, eps)
    plan = _NORM_PLANS.get(key) if key is not None else None
    if plan is not None and _own() and tl.NormTiling is _NORM_TILING:
        fn, blocks, buf, new, _ = plan
        out = new(meta.shape, dtype, device)
        w_arg = weight if weight is not None else x
        if layer:
            fn(blocks, x, w_arg, bias if bias is not None else x, out, 0, buf)
        else:
            fn(blocks, x, w_arg, out, 0, buf)
        return out
    if dtype not in FLOATS:
        raise rt.no_kernel(op, device, f"dtype {dt.dtype_name(dtype)}", FLOATS, dtype)
    shape = meta.shape
    out = rt.new_tensor(shape, dtype, device)
    if rt.size_of(shape) == 0:
        return out
    cols = shape[-1]
    rows = rt.size_of(shape) // cols
    xs = to_dtype(x, dtype)
    w = expand(to_dtype(weight, dtype), (cols,)) if weight is not None else None
    b = expand(to_dtype(bias, dtype), (cols,)) if bias is not None else None
    blocks, per_core = _rows_split(device, rows, cols)
    chunk = _batch_chunk(cols)
    if dtype == dt.float32 and chunk == BATCH_CHUNK and cols % 16 == 0 and 2 * cols <= BATCH_CHUNK:
        # batched: the float layout of a batch (kernels/norm.cpp Init) takes a larger chunk
        chunk = BATCH_CHUNK * FLOAT_NORM_BATCH_SCALE[0] // FLOAT_NORM_BATCH_SCALE[1]
    fields = dict(rows=rows, cols=cols, rowsPerCore=per_core, chunk=chunk, hasWeight=int(w is not None),
                  hasBias=int(b is not None), epsBits=rt.float_bits(float(eps)))
    # absent weight / bias: the kernel never reads them (flags 0); x's address fills the slot
    args = (xs, w if w is not None else xs, b if b is not None else xs) if layer else (xs, w if w is not None else xs)
    kname = f"{'layer' if layer else 'rms'}_norm_{rt.DTYPE_NAMES[dtype]}"
    planned = key is not None and xs is x and w is weight and b is bias and _own() and tl.NormTiling is _NORM_TILING
    tiling = _pinned_tiling(device, tl.NormTiling, **fields) if planned else tl.NormTiling(**fields)
    rt.launch(device, "norm", kname, blocks, (*args, out), tiling)
    if planned:
        rt.remember_plan(_NORM_PLANS, key, device, "norm", kname, blocks, tiling)
    return out


def layer_norm_kernel(meta: Any, x: Tensor, weight: Tensor | None, bias: Tensor | None, eps: float) -> Tensor:
    return _norm("pyasc::layer_norm", meta, x, weight, bias, eps, layer=True)


def rms_norm_kernel(meta: Any, x: Tensor, weight: Tensor | None, eps: float) -> Tensor:
    return _norm("pyasc::rms_norm", meta, x, weight, None, eps, layer=False)


KERNELS = {
    "pyasc::softmax": softmax_kernel("softmax"),
    "pyasc::log_softmax": softmax_kernel("log_softmax"),
    "pyasc::layer_norm": layer_norm_kernel,
    "pyasc::rms_norm": rms_norm_kernel,
}
