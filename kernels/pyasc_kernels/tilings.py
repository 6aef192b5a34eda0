"""The built-in kernels' tiling structs as ``pyasc.TilingStruct``s, field for field the C++ structs
of kernels/<family>.cpp (each padded to whole 32 bytes there with ``reserved`` fields, so the
bytes are what those kernels read; tests/test_kernel_tilings.py checks them against the sources)."""

from __future__ import annotations

from pyasc_core import tiling as T
from pyasc_core.tiling import TilingStruct

#: kernels/copy.cpp's COPY_MAX_DIMS
COPY_MAX_DIMS = 8


class BinaryTiling(TilingStruct):
    totalLength: T.uint32_t
    perCore: T.uint32_t
    tileLength: T.uint32_t
    mode: T.uint32_t
    scalarBits: T.uint32_t
    reserved: T.array(T.uint32_t, 3)


class CompareTiling(TilingStruct):
    totalLength: T.uint32_t
    perCore: T.uint32_t
    tileLength: T.uint32_t
    mode: T.uint32_t
    scalarBits: T.uint32_t
    reserved: T.array(T.uint32_t, 3)


class PowTiling(TilingStruct):
    totalLength: T.uint32_t
    perCore: T.uint32_t
    tileLength: T.uint32_t
    mode: T.uint32_t
    scalarBits: T.uint32_t
    uniformY: T.uint32_t
    reserved: T.array(T.uint32_t, 2)


class CastTiling(TilingStruct):
    totalLength: T.uint32_t
    perCore: T.uint32_t
    tileLength: T.uint32_t
    reserved: T.uint32_t


class UnaryTiling(TilingStruct):
    totalLength: T.uint32_t
    perCore: T.uint32_t
    tileLength: T.uint32_t
    reserved: T.uint32_t


class WhereTiling(TilingStruct):
    totalLength: T.uint32_t
    perCore: T.uint32_t
    tileLength: T.uint32_t
    reserved: T.uint32_t


class CopyTiling(TilingStruct):
    ndim: T.uint32_t
    rows: T.uint32_t
    cols: T.uint32_t
    chunk: T.uint32_t
    chunksPerRow: T.uint32_t
    unitsPerCore: T.uint32_t
    totalUnits: T.uint32_t
    inOffset: T.uint32_t
    outShape: T.array(T.uint32_t, COPY_MAX_DIMS)
    inStride: T.array(T.int32_t, COPY_MAX_DIMS)
    tAxis: T.uint32_t
    tileRows: T.uint32_t
    tilesPerAxis: T.uint32_t


class MatmulTiling(TilingStruct):
    batch: T.uint32_t
    m: T.uint32_t
    n: T.uint32_t
    k: T.uint32_t
    tileM: T.uint32_t
    tileN: T.uint32_t
    tileK: T.uint32_t
    unitsPerCore: T.uint32_t
    totalUnits: T.uint32_t
    reserved: T.array(T.uint32_t, 7)


class NormTiling(TilingStruct):
    rows: T.uint32_t
    cols: T.uint32_t
    rowsPerCore: T.uint32_t
    chunk: T.uint32_t
    hasWeight: T.uint32_t
    hasBias: T.uint32_t
    epsBits: T.uint32_t
    reserved: T.uint32_t


class ReduceTiling(TilingStruct):
    rows: T.uint32_t
    cols: T.uint32_t
    rowsPerCore: T.uint32_t
    chunk: T.uint32_t
    batch: T.uint32_t
    reserved: T.array(T.uint32_t, 3)


class SoftmaxTiling(TilingStruct):
    rows: T.uint32_t
    cols: T.uint32_t
    rowsPerCore: T.uint32_t
    chunk: T.uint32_t
    reserved: T.array(T.uint32_t, 4)


#: kernels/<family>.cpp -> its tiling struct
BY_FAMILY: dict[str, type[TilingStruct]] = {
    "binary": BinaryTiling, "cast": CastTiling, "compare": CompareTiling, "copy": CopyTiling,
    "matmul": MatmulTiling, "norm": NormTiling, "pow": PowTiling, "reduce": ReduceTiling,
    "softmax": SoftmaxTiling, "unary": UnaryTiling, "where": WhereTiling,
}


def device_bytes(tiling: TilingStruct) -> bytes:
    """The struct's bytes as uploaded: padded with zeros to whole 32-byte blocks (GM is read in
    32-byte blocks, so a kernel copying its tiling never reads past the buffer)."""
    data = bytes(tiling)
    return data + b"\0" * (-len(data) % 32)
