"""Host-side sharedTmpBuffer sizes of Sigmoid, Silu, Tanh, Gelu / FasterGelu, CumSum, Pad / UnPad, AscendQuant, AscendDequant, AscendAntiQuant, Sum, Mean,
SoftMax / SimpleSoftMax and SoftmaxFlash / SoftmaxFlashV2 (with their TilingFuncs), LayerNorm, RmsNorm, DeepNorm,
LayerNormGrad and LayerNormGradBeta: the
Python side of GetXxxMaxMinTmpSize / GetXxxTmpBufferFactorSize (tiling/hl_tmp_size_api.h and
tiling/hl_norm_tiling_api.h in C++).
The numbers are what the simulator's implementation stages in the buffer (kapi/hl_tmp_sizes.h, the
formula the C++ helpers and the kernel-side check share; this module restates it, and
tests/test_sim_compat_hl_host_tiling.py checks that both sides agree): a buffer of the reported
minimum works, one byte less is refused by the API."""

from __future__ import annotations

from math import prod

from pyasc_core.errors import ArgumentError

from .hl_tiling import SoftMaxTiling

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


# ---- Sigmoid, Silu, Tanh, Gelu / FasterGelu: each value staged in float, 256 source bytes a chunk at least -----
def _activation(src_shape, type_size: int) -> tuple[int, int]:
    if type_size not in (2, 4):
        raise ArgumentError(f"type_size must be 2 (half) or 4 (float), got {type_size!r}")
    return _elementwise(prod(_shape(src_shape)), type_size, 4)


def get_sigmoid_max_min_tmp_size(src_shape, type_size: int, is_reuse_source: bool = False) -> tuple[int, int]:
    """(maxValue, minValue) of Sigmoid (GetSigmoidMaxMinTmpSize)."""
    del is_reuse_source
    return _activation(src_shape, type_size)


def get_tanh_max_min_tmp_size(src_shape, type_size: int, is_reuse_source: bool = False) -> tuple[int, int]:
    """(maxValue, minValue) of Tanh (GetTanhMaxMinTmpSize)."""
    del is_reuse_source
    return _activation(src_shape, type_size)


def get_silu_tmp_size(src_shape, type_size: int, is_reuse_source: bool = False) -> tuple[int, int]:
    """(maxValue, minValue) of Silu (GetSiluTmpSize)."""
    del is_reuse_source
    return _activation(src_shape, type_size)


def get_gelu_max_min_tmp_size(src_shape, type_size: int) -> tuple[int, int]:
    """(maxValue, minValue) of Gelu and FasterGelu (GetGeluMaxMinTmpSize; GetGeluMax/MinTmpSize in C++)."""
    return _activation(src_shape, type_size)


# ---- Sum / Mean: one row of n values staged in float; the maximum equals the minimum -------------------------
def get_sum_max_min_tmp_size(n: int, type_size: int, is_reuse_source: bool = False) -> tuple[int, int]:
    """(maxSize, minSize) of Sum over rows of n values of type_size bytes (2 or 4)."""
    del is_reuse_source
    if not isinstance(n, int) or isinstance(n, bool) or n <= 0 or type_size not in (2, 4):
        raise ArgumentError(f"need n > 0 and type_size 2 (half) or 4 (float), got n {n!r}, type_size {type_size!r}")
    return _round32(n * 4), _round32(n * 4)


def get_mean_max_min_tmp_size(n: int, src_type_size: int, acc_type_size: int,
                              is_reuse_source: bool = False) -> tuple[int, int]:
    """(maxSize, minSize) of Mean over rows of n values (accType not smaller than the source type)."""
    del is_reuse_source
    if src_type_size not in (2, 4) or acc_type_size not in (2, 4) or acc_type_size < src_type_size:
        raise ArgumentError(f"src_type_size / acc_type_size must be 2 or 4 with acc_type_size >= src_type_size, "
                            f"got {src_type_size!r} / {acc_type_size!r}")
    return get_sum_max_min_tmp_size(n, src_type_size)


# ---- SoftmaxFlash / SoftmaxFlashV2: exp(x - max) of a row staged in float, one row .. every row ------------
def _flash_rows(src_shape, type_size1: int, type_size2: int) -> tuple[int, int]:
    dims = _shape(src_shape)
    if (type_size1, type_size2) not in ((2, 2), (4, 4), (2, 4)):
        raise ArgumentError(f"type sizes {type_size1} / {type_size2} must be 2 / 2 (half), 4 / 4 (float) or 2 / 4 "
                            "(half data, float statistics)")
    k = dims[-1]
    if k * type_size1 % 32:
        raise ArgumentError(f"the last dim * type_size1 = {k * type_size1} bytes must be a multiple of 32 "
                            "(pad the rows)")
    return prod(dims[:-1]), k


def _flash_range(src_shape, type_size1: int, type_size2: int) -> tuple[int, int]:
    m, k = _flash_rows(src_shape, type_size1, type_size2)
    return _round32(m * k * 4), _round32(k * 4)


def get_softmax_flash_v2_min_tmp_size(src_shape, type_size1: int, type_size2: int, is_update: bool = False,
                                      is_basic_block: bool = False, is_flash_output_brc: bool = False) -> int:
    """GetSoftMaxFlashV2MinTmpSize: one row of exp(x - max) in float (the flags do not change it)."""
    del is_update, is_basic_block, is_flash_output_brc
    return _flash_range(src_shape, type_size1, type_size2)[1]


def get_softmax_flash_v2_max_tmp_size(src_shape, type_size1: int, type_size2: int, is_update: bool = False,
                                      is_basic_block: bool = False, is_flash_output_brc: bool = False) -> int:
    """GetSoftMaxFlashV2MaxTmpSize: every row of exp(x - max) in float."""
    del is_update, is_basic_block, is_flash_output_brc
    return _flash_range(src_shape, type_size1, type_size2)[0]


def get_softmax_flash_min_tmp_size(src_shape, type_size: int, is_update: bool = False,
                                   is_reuse_source: bool = False) -> int:
    """GetSoftMaxFlashMinTmpSize (the deprecated SoftmaxFlash): as V2 with one type size."""
    del is_update, is_reuse_source
    return _flash_range(src_shape, type_size, type_size)[1]


def get_softmax_flash_max_tmp_size(src_shape, type_size: int, is_update: bool = False,
                                   is_reuse_source: bool = False) -> int:
    """GetSoftMaxFlashMaxTmpSize (the deprecated SoftmaxFlash)."""
    del is_update, is_reuse_source
    return _flash_range(src_shape, type_size, type_size)[0]


def _rows_tiling(src_shape, type_size1: int, type_size2: int, local_work_space_size: int, brc: bool,
                 helper: str) -> SoftMaxTiling:
    m, k = _flash_rows(src_shape, type_size1, type_size2)
    mn = _round32(k * 4)
    if not isinstance(local_work_space_size, int) or local_work_space_size < mn:
        raise ArgumentError(f"local_work_space_size {local_work_space_size!r} is less than the {mn} bytes "
                            f"{helper} reports (fix: pass at least that)")
    per = 32 // type_size2 if brc else 1
    split = min(m, local_work_space_size // (k * 4))
    tail = m % split
    return SoftMaxTiling(srcM=m, srcK=k, srcSize=m * k, outMaxM=m, outMaxK=per, outMaxSize=m * per, splitM=split,
                         splitK=k, splitSize=split * k, reduceM=split, reduceK=per, reduceSize=split * per,
                         rangeM=m // split, tailM=tail, tailSplitSize=tail * k, tailReduceSize=tail * per)


def softmax_flash_v2_tiling_func(src_shape, type_size1: int, type_size2: int, local_work_space_size: int,
                                 is_update: bool = False, is_basic_block: bool = False,
                                 is_flash_output_brc: bool = False) -> SoftMaxTiling:
    """SoftMaxFlashV2TilingFunc: the shape and the rows local_work_space_size bytes hold per pass (splitM,
    rangeM passes and a tailM), as the C++ helper fills them."""
    del is_update, is_basic_block
    return _rows_tiling(src_shape, type_size1, type_size2, local_work_space_size, not is_flash_output_brc,
                        "get_softmax_flash_v2_min_tmp_size")


def softmax_flash_tiling_func(src_shape, type_size: int, local_work_space_size: int,
                              is_update: bool = False) -> SoftMaxTiling:
    """SoftMaxFlashTilingFunc (the deprecated SoftmaxFlash): as V2 with one type size, statistics broadcast."""
    del is_update
    return _rows_tiling(src_shape, type_size, type_size, local_work_space_size, True, "get_softmax_flash_min_tmp_size")


def get_softmax_max_tmp_size(src_shape, type_size: int, is_reuse_source: bool = False) -> int:
    """GetSoftMaxMaxTmpSize (SoftMax / SimpleSoftMax): every row of exp(x - max) in float."""
    del is_reuse_source
    return _flash_range(src_shape, type_size, type_size)[0]


def get_softmax_min_tmp_size(src_shape, type_size: int, is_reuse_source: bool = False) -> int:
    """GetSoftMaxMinTmpSize (SoftMax / SimpleSoftMax): one row of exp(x - max) in float."""
    del is_reuse_source
    return _flash_range(src_shape, type_size, type_size)[1]


def softmax_tiling_func(src_shape, type_size: int, local_work_space_size: int) -> SoftMaxTiling:
    """SoftMaxTilingFunc: the shape and the rows local_work_space_size bytes hold per pass, as the C++ helper."""
    return _rows_tiling(src_shape, type_size, type_size, local_work_space_size, True, "get_softmax_min_tmp_size")


def get_softmax_grad_max_tmp_size(src_shape, type_size: int, is_front: bool = False,
                                  is_reuse_source: bool = False) -> int:
    """GetSoftMaxGradMaxTmpSize (SoftmaxGrad / SoftmaxGradFront): every row of grad * src in float."""
    del is_front, is_reuse_source
    return _flash_range(src_shape, type_size, type_size)[0]


def get_softmax_grad_min_tmp_size(src_shape, type_size: int, is_front: bool = False,
                                  is_reuse_source: bool = False) -> int:
    """GetSoftMaxGradMinTmpSize (SoftmaxGrad / SoftmaxGradFront): one row of grad * src in float."""
    del is_front, is_reuse_source
    return _flash_range(src_shape, type_size, type_size)[1]


def softmax_grad_tiling_func(src_shape, type_size: int, local_work_space_size: int,
                             is_front: bool = False) -> SoftMaxTiling:
    """SoftMaxGradTilingFunc: the shape and the rows local_work_space_size bytes hold per pass."""
    del is_front
    return _rows_tiling(src_shape, type_size, type_size, local_work_space_size, True,
                        "get_softmax_grad_min_tmp_size")


# ---- LayerNorm, RmsNorm, DeepNorm, LayerNormGrad, LayerNormGradBeta over {B, S, H} -------------------------------
def _bsh(src_shape, type_size: int, allow_origin: bool) -> tuple[int, int, int]:
    dims = _shape(src_shape)
    if len(dims) != 3 and not (allow_origin and len(dims) == 4):
        want = "{B, S, H} or {B, S, H, originH}" if allow_origin else "{B, S, H}"
        raise ArgumentError(f"src_shape must be {want}, got {dims}")
    if type_size not in (2, 4):
        raise ArgumentError(f"type_size must be 2 (half) or 4 (float), got {type_size!r}")
    b, s, h = dims[:3]
    if h * type_size % 32:
        raise ArgumentError(f"H * type_size = {h * type_size} bytes must be a multiple of 32 (pad H)")
    if len(dims) == 4 and dims[3] > h:
        raise ArgumentError(f"originH ({dims[3]}) must not exceed H ({h})")
    return b, s, h


def get_layernorm_max_min_tmp_size(src_shape, type_size: int, is_reuse_source: bool = False) -> tuple[int, int]:
    """(maxValue, minValue) of LayerNorm over {B, S, H[, originH]}: x - mean of a row staged in float, one row ..
    every row."""
    del is_reuse_source
    b, s, h = _bsh(src_shape, type_size, True)
    return _round32(b * s * h * 4), _round32(h * 4)


def get_rmsnorm_max_min_tmp_size(src_shape, type_size: int, is_basic_block: bool = False) -> tuple[int, int]:
    """(maxValue, minValue) of RmsNorm over {B, S, H}: x * x of a row staged in float, one row .. every row."""
    b, s, h = _bsh(src_shape, type_size, False)
    if is_basic_block and (h % 64 or b * s % 8):
        raise ArgumentError(f"is_basic_block needs H a multiple of 64 and B * S a multiple of 8, got H {h}, "
                            f"B * S {b * s}")
    return _round32(b * s * h * 4), _round32(h * 4)


def get_deepnorm_max_min_tmp_size(src_shape, type_size: int, is_reuse_source: bool = False,
                                  is_basic_block: bool = False) -> tuple[int, int]:
    """(maxValue, minValue) of DeepNorm over {B, S, H} (H <= 2040): alpha * x + gx of a row staged in float,
    one row .. every row."""
    b, s, h = _bsh(src_shape, type_size, False)
    if h > 2040:
        raise ArgumentError(f"H ({h}) must not exceed 2040 (the documented limit)")
    if is_reuse_source and type_size != 4:
        raise ArgumentError("is_reuse_source = True is documented for float (type_size 4) only")
    if is_basic_block and (h % 64 or b * s % 8):
        raise ArgumentError(f"is_basic_block needs H a multiple of 64 and B * S a multiple of 8, got H {h}, "
                            f"B * S {b * s}")
    return _round32(b * s * h * 4), _round32(h * 4)


def get_layernorm_grad_max_min_tmp_size(src_shape, type_size: int, is_reuse_source: bool = False) -> tuple[int, int]:
    """(maxValue, minValue) of LayerNormGrad over {B, S, H[, originH]}: x - mean and dy * gamma of a row
    staged in float (8 bytes an element), one row .. every row."""
    del is_reuse_source
    b, s, h = _bsh(src_shape, type_size, True)
    return _round32(b * s * h * 8), _round32(h * 8)


def get_layernorm_grad_beta_max_min_tmp_size(src_shape, type_size: int,
                                             is_reuse_source: bool = False) -> tuple[int, int]:
    """(maxValue, minValue) of LayerNormGradBeta over {B, S, H[, originH]}: the float column sums of
    dy * resForGamma and dy (8 bytes a column), 8 columns .. all H."""
    del is_reuse_source
    _, _, h = _bsh(src_shape, type_size, True)
    return _round32(h * 8), _round32(min(h, 8) * 8)
