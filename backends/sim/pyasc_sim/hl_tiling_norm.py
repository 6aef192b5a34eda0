"""Host-side tiling of the round-12 high-level APIs (the role of CANN's GetDeepNormTilingInfo,
GetLayerNormGradNDTilingInfo, GetLayerNormGradBetaNDTilingInfo, GetConfusionTransposeTilingInfo):
each helper checks its arguments and returns the kernel-side struct (DeepNormTiling,
LayerNormGradTiling, LayerNormGradBetaTiling, ConfusionTransposeTiling, laid out as
pyasc_sim/kapi/norm_grad.h and confusion_transpose.h declare them) with ``to_bytes()`` for the
tiling buffer a kernel reads.  The simulator reads the shape fields; the buffer-split fields are
filled for one pass over the whole input."""

from __future__ import annotations

import struct
from dataclasses import astuple, dataclass

from pyasc_core.errors import ArgumentError

from .hl_tiling import LayerNormTiling

_ITEMSIZE = {"float16": 2, "float32": 4, "int16": 2, "uint16": 2, "int32": 4, "uint32": 4}


def _shape(b: int, s: int, h: int, original_h: int | None, dtype: str, max_h: int | None = None) -> tuple[int, int]:
    for name, v in (("b", b), ("s", s), ("h", h)):
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            raise ArgumentError(f"{name} must be a positive int, got {v!r}")
    if dtype not in ("float16", "float32"):
        raise ArgumentError(f"dtype must be 'float16' or 'float32', got {dtype!r}")
    size = _ITEMSIZE[dtype]
    if h * size % 32:
        raise ArgumentError(f"h * itemsize = {h * size} bytes must be a multiple of 32 (pad H and pass original_h)")
    oh = h if original_h is None else original_h
    if not isinstance(oh, int) or isinstance(oh, bool) or not 0 < oh <= h:
        raise ArgumentError(f"original_h must be an int in [1, h = {h}], got {oh!r}")
    if max_h is not None and h > max_h:
        raise ArgumentError(f"h ({h}) exceeds the documented limit of {max_h}")
    return oh, size


@dataclass
class DeepNormTiling(LayerNormTiling):
    """DeepNorm's kernel-side tiling: the documented fields and layout of LayerNormTiling (104 bytes)."""


def deepnorm_tiling(b: int, s: int, h: int, original_h: int | None = None, dtype: str = "float32",
                    stack_buffer_size: int = 0) -> DeepNormTiling:
    """DeepNormTiling for x[b, s, h] (h <= 2040, as documented) over the first ``original_h`` of h
    (GetDeepNormTilingInfo; stack_buffer_size is recorded as tmpBufSize)."""
    oh, _ = _shape(b, s, h, original_h, dtype, max_h=2040)
    n = b * s * h
    return DeepNormTiling(bLength=b, sLength=s, hLength=h, originalHLength=oh, inputXSize=n, meanVarSize=b * s,
                          tmpBufSize=stack_buffer_size, loopRound=1, inputRoundSize=n, meanVarRoundSize=b * s, bshCurLength=n, bsCurLength=b * s,
                          lastDimValueBack=1.0 / oh)


@dataclass
class LayerNormGradTiling:
    """LayerNormGrad's kernel-side tiling (30 uint32 fields)."""

    stackBufferSize: int = 0
    bLength: int = 0
    sLength: int = 0
    hLength: int = 0
    originalHLength: int = 0
    oneCalSize: int = 0
    nohCalSize: int = 0
    loopNum: int = 0
    tailSize: int = 0
    nohTailSize: int = 0
    tmpTensorBSHPos: int = 0
    tmpTensorBSHSize: int = 0
    pdVarTensorPos: int = 0
    pdVarTensorSize: int = 0
    pdMeanTensorPos: int = 0
    pdMeanTensorSize: int = 0
    x1TensorPos: int = 0
    x1TensorSize: int = 0
    x2TensorPos: int = 0
    x2TensorSize: int = 0
    x3TensorPos: int = 0
    x3TensorSize: int = 0
    tmpTensorPos: int = 0
    tmpTensorSize: int = 0
    tmpTensor1Pos: int = 0
    tmpTensor1Size: int = 0
    tmpTensor2Pos: int = 0
    tmpTensor2Size: int = 0
    lastDimValueBack: int = 0
    lastDimValueBackMulTwo: int = 0

    def to_bytes(self) -> bytes:
        return struct.pack("<30I", *astuple(self))


def layernorm_grad_tiling(b: int, s: int, h: int, original_h: int | None = None,
                          dtype: str = "float32", stack_buffer_size: int = 0) -> LayerNormGradTiling:
    """LayerNormGradTiling for dy / x[b, s, h] (H not split, as documented; GetLayerNormGradNDTilingInfo)."""
    oh, _ = _shape(b, s, h, original_h, dtype)
    n = b * s * h
    return LayerNormGradTiling(stackBufferSize=stack_buffer_size, bLength=b, sLength=s, hLength=h, originalHLength=oh, oneCalSize=n, nohCalSize=b * s,
                               loopNum=1)


@dataclass
class LayerNormGradBetaTiling:
    """LayerNormGradBeta's kernel-side tiling (20 uint32 fields)."""

    stackBufferSize: int = 0
    bLength: int = 0
    sLength: int = 0
    hLength: int = 0
    originalHLength: int = 0
    bshLength: int = 0
    bsLength: int = 0
    oneCalSize: int = 0
    numberOfTmpBuf: int = 0
    loopRound: int = 0
    inputTailSize: int = 0
    inputTailPos: int = 0
    bsTailSize: int = 0
    bshCurLength: int = 0
    bsCurLength: int = 0
    gammaTempTensorPos: int = 0
    betaTempTensorPos: int = 0
    inputDyTmpTensorPos: int = 0
    resForGammaTmpTensorPos: int = 0
    reserved: int = 0

    def to_bytes(self) -> bytes:
        return struct.pack("<20I", *astuple(self))


def layernorm_grad_beta_tiling(b: int, s: int, h: int, original_h: int | None = None,
                               dtype: str = "float32", stack_buffer_size: int = 0) -> LayerNormGradBetaTiling:
    """LayerNormGradBetaTiling for dy / resForGamma[b, s, h] (GetLayerNormGradBetaNDTilingInfo)."""
    oh, _ = _shape(b, s, h, original_h, dtype)
    n = b * s * h
    return LayerNormGradBetaTiling(stackBufferSize=stack_buffer_size, bLength=b, sLength=s, hLength=h, originalHLength=oh, bshLength=n, bsLength=b * s,
                                   oneCalSize=n, loopRound=1, bshCurLength=n, bsCurLength=b * s)


@dataclass
class ConfusionTransposeTiling:
    """ConfusionTranspose's kernel-side tiling: 18 uint32 fields whose meaning depends on the scenario."""

    params: tuple[int, ...] = (0,) * 18

    def to_bytes(self) -> bytes:
        return struct.pack("<18I", *self.params)


#: TransposeType::TRANSPOSE_ND2ND_ONLY, the scenario the simulator implements
TRANSPOSE_ND2ND_ONLY = 7


def confusion_transpose_tiling(h: int, w: int, dtype: str = "float16") -> ConfusionTransposeTiling:
    """Tiling of TRANSPOSE_ND2ND_ONLY ([h, w] -> [w, h]; h and w multiples of 16), laid out as
    ConfusionTransposeOnlyTiling: blockSize, height, width, highBlock, stride, repeat."""
    for name, v in (("h", h), ("w", w)):
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0 or v % 16:
            raise ArgumentError(f"{name} must be a positive multiple of 16, got {v!r}")
    size = _ITEMSIZE.get(dtype)
    if size is None:
        raise ArgumentError(f"dtype must be one of {sorted(_ITEMSIZE)}, got {dtype!r}")
    block = 32 // size
    params = (block, h, w, h // 16, h * block * size // 32, w // block) + (0,) * 12
    return ConfusionTransposeTiling(params=params)


#: TransposeType values of the NZ scenarios 1-6 (the reference's 场景1..6)
TRANSPOSE_NZ2ND_0213, TRANSPOSE_NZ2NZ_0213, TRANSPOSE_NZ2NZ_012_WITH_N = 1, 2, 3
TRANSPOSE_NZ2ND_012_WITH_N, TRANSPOSE_NZ2ND_012_WITHOUT_N, TRANSPOSE_NZ2NZ_012_WITHOUT_N = 4, 5, 6


def confusion_transpose_nz_tiling(scenario: int, b: int, n: int, s: int, hn: int,
                                  dtype: str = "float16") -> ConfusionTransposeTiling:
    """Tiling of the NZ scenarios 1-6 for srcShape [B, N, S, H/N] (the reference's srcShape of every
    one of them), laid out as the simulator reads it and tiling/tiling_api.h's
    GetConfusionTransposeTilingInfo fills it: blockSize, B, N, S, H/N, ..., param17 = scenario.
    S must be a multiple of 16 (16-row fractals), N too for scenario 2 (its output's rows)."""
    if scenario not in range(1, 7):
        raise ArgumentError(f"scenario must be 1..6 (TransposeType TRANSPOSE_NZ2ND_0213 .. "
                            f"TRANSPOSE_NZ2NZ_012_WITHOUT_N), got {scenario!r}")
    for name, v in (("b", b), ("n", n), ("s", s), ("hn", hn)):
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            raise ArgumentError(f"{name} must be a positive int, got {v!r}")
    if s % 16:
        raise ArgumentError(f"s must be a multiple of 16 (the NZ fractal rows), got {s}")
    if scenario == TRANSPOSE_NZ2NZ_0213 and n % 16:
        raise ArgumentError(f"scenario 2 needs n a multiple of 16 (the rows of its NZ output), got {n}")
    size = _ITEMSIZE.get(dtype)
    if size is None:
        raise ArgumentError(f"dtype must be one of {sorted(_ITEMSIZE)}, got {dtype!r}")
    return ConfusionTransposeTiling(params=(32 // size, b, n, s, hn) + (0,) * 12 + (scenario,))
