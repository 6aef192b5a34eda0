"""example::leaky_relu's Ascend C kernel (kernels/leaky_relu.cpp): its tiling struct, host tiling
and registration -- all the glue a pack with a kernel needs."""

from __future__ import annotations

from pathlib import Path

import pyasc
from pyasc import tiling as T

SOURCE = Path(__file__).parent / "kernels" / "leaky_relu.cpp"
TILE = 4096  # elements per UB tile
MAX_BLOCKS = 8


class LeakyReluTiling(pyasc.TilingStruct):  # the C++ struct, checked against it at compile time
    total: T.uint32_t
    per_core: T.uint32_t
    tile: T.uint32_t
    slope: T.float32


# a template kernel: the instance (leaky_relu<float>, leaky_relu<half>) is picked by the input dtype
LEAKY_RELU = pyasc.Kernel(SOURCE, "leaky_relu", structs=[LeakyReluTiling])  # compiled on first use


def leaky_relu_tiling(x: pyasc.Tensor, negative_slope: float = 0.01):
    """(blocks, tiling): whole tiles per block, at most MAX_BLOCKS blocks."""
    n = x.size
    per_core = -(-n // min(MAX_BLOCKS, -(-n // TILE)) // TILE) * TILE
    return -(-n // per_core), LeakyReluTiling(total=n, per_core=per_core, tile=TILE, slope=negative_slope)


def register_kernels(register) -> None:
    register("example::leaky_relu", "sim",
             pyasc.library.from_kernel("example::leaky_relu", LEAKY_RELU, leaky_relu_tiling,
                                       dtypes=[pyasc.float32, pyasc.float16]))
