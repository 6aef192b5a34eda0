"""Host-side sharedTmpBuffer sizes of CumSum, Pad / UnPad, AscendQuant, AscendDequant and AscendAntiQuant: the
Python side of GetXxxMaxMinTmpSize / GetXxxTmpBufferFactorSize (tiling/hl_tmp_size_api.h in C++).
The numbers are what the simulator's implementation stages in the buffer (kapi/hl_tmp_sizes.h, the
formula the C++ helpers and the kernel-side check share; this module restates it, and
tests/test_sim_compat_hl_host_tiling.py checks that both sides agree): a buffer of the reported
minimum works, one byte less is refused by the API."""

from __future__ import annotations

from math import prod

from pyasc_core.errors import ArgumentError

_MIN_CHUNK_SRC_BYTES = 256  # one 256-byte repeat of source elements


def _round32(n: int) -> int:
    return -(-n // 32) * 32


def _shape(shape, name: str = "src_shape") -> tuple[int, ...]:
    dims = tuple(shape)
    if not dims or any(not isinstance(d, int) or isinstance(d, bool) or d <= 0 for d in dims):
        raise ArgumentError(f"{name} must be a non-empty sequence of positive ints, got {shape!r}")
    return dims


def _elementwise(elems: int, src_type_size: int, bytes_per_elem: int) -> tuple[int, int]:
    chunk = _MIN_CHUNK_SRC_BYTES // src_type_size
    return _round32(elems * bytes_per_elem), _round32(min(elems, chunk) * bytes_per_elem)


def get_cumsum_max_min_tmp_size(src_shape, type_size: int, is_last_axis: bool = True,
                                is_reuse_source: bool = False) -> tuple[int, int]:
    """(maxValue, minValue) of CumSum over a 2-D [outter, inner] source of type_size bytes (2: half,
    4: float): one 32-byte block of partial sums at least (the sum is carried from chunk to chunk);
    every element along the last axis at most, the running row along the first."""
    del is_reuse_source  # reserved, as in the reference
    dims = _shape(src_shape)
    if len(dims) != 2:
        raise ArgumentError(f"CumSum takes a 2-D src_shape [outter, inner], got {dims}")
    if type_size not in (2, 4):
        raise ArgumentError(f"type_size must be 2 (half) or 4 (float), got {type_size!r}")
    outter, inner = dims
    if inner * type_size % 32:
        raise ArgumentError(f"inner * type_size = {inner * type_size} bytes must be a multiple of 32 "
                            "(fix: pad the inner axis)")
    row = _round32(inner * type_size)
    return (_round32(outter * inner * type_size) if is_last_axis else row), 32


def get_pad_max_min_tmp_size(src_shape, type_size: int) -> tuple[int, int]:
    """(maxValue, minValue) of Pad over a 2-D [height, width] source of type_size bytes (2 or 4): the
    source rows staged before dst is written, one row at least, every row at most."""
    dims = _shape(src_shape)
    if len(dims) != 2:
        raise ArgumentError(f"Pad / UnPad take a 2-D src_shape [height, width], got {dims}")
    if type_size not in (2, 4):
        raise ArgumentError(f"type_size must be 2 or 4 (Pad / UnPad's element types), got {type_size!r}")
    height, width = dims
    return _round32(height * width * type_size), _round32(width * type_size)


def get_unpad_max_min_tmp_size(src_shape, type_size: int) -> tuple[int, int]:
    """(maxValue, minValue) of UnPad (GetUnPadMaxMinTmpSize without its platform argument): as Pad."""
    return get_pad_max_min_tmp_size(src_shape, type_size)


def get_ascend_quant_max_min_tmp_size(src_shape, type_size: int) -> tuple[int, int]:
    """(maxValue, minValue) of AscendQuant over src_shape elements of type_size bytes (2 or 4): the
    half intermediate staged in one source-wide slot per element."""
    if type_size not in (2, 4):
        raise ArgumentError(f"type_size must be 2 (half) or 4 (float), got {type_size!r}")
    return _elementwise(prod(_shape(src_shape)), type_size, type_size)


def get_ascend_quant_tmp_buffer_factor_size() -> tuple[int, int]:
    """(maxLiveNodeCount, extraBuf) of AscendQuant: elements per chunk = (buf - extraBuf) // maxLive // typeSize."""
    return 1, 0


def get_ascend_dequant_max_min_tmp_size(src_shape, type_size: int = 4) -> tuple[int, int]:
    """(maxValue, minValue) of AscendDequant over src_shape int32_t elements ([m, n] or [count]): the
    float product staged per element."""
    if type_size != 4:
        raise ArgumentError(f"type_size must be 4 (AscendDequant's srcTensor is int32_t), got {type_size!r}")
    return _elementwise(prod(_shape(src_shape)), 4, 4)


def get_ascend_dequant_tmp_buffer_factor_size(src_shape=None) -> tuple[int, int]:
    """(maxLiveNodeCount, extraBuf) of AscendDequant."""
    if src_shape is not None:
        _shape(src_shape)
    return 1, 0


def _antiquant_stage(input_dtype: str, output_dtype: str) -> int:
    if input_dtype != "int8":
        raise ArgumentError(f"input_dtype must be 'int8' (the simulated AscendAntiQuant input), got {input_dtype!r}")
    if output_dtype not in ("float16", "bfloat16"):
        raise ArgumentError(f"output_dtype must be 'float16' or 'bfloat16', got {output_dtype!r}")
    return 4 if output_dtype == "bfloat16" else 2  # src + offset in half, or in float for bfloat16


def get_ascend_antiquant_max_min_tmp_size(src_shape, scale_shape, is_transpose: bool, input_dtype: str = "int8",
                                          output_dtype: str = "float16") -> tuple[int, int]:
    """(maxValue, minValue) of AscendAntiQuant over src_shape int8_t elements: src + offset staged in
    the compute type (2 bytes for a half output, 4 for bfloat16); scale_shape and is_transpose do not
    change it."""
    del is_transpose
    _shape(scale_shape, "scale_shape")
    return _elementwise(prod(_shape(src_shape)), 1, _antiquant_stage(input_dtype, output_dtype))


def get_ascend_antiquant_tmp_buffer_factor_size(src_shape, scale_shape, is_transpose: bool, input_dtype: str = "int8",
                                                output_dtype: str = "float16") -> tuple[int, int]:
    """(maxLiveNodeCount, extraBuf) of AscendAntiQuant (typeSize: the int8_t input's 1 byte)."""
    del is_transpose
    _shape(src_shape)
    _shape(scale_shape, "scale_shape")
    return _antiquant_stage(input_dtype, output_dtype), 0
