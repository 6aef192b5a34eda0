"""Host-side tiling of the Ascend C high-level APIs (the role of CANN's matmul_tiling /
GetSoftMaxMaxTmpSize / GetLayerNormNDTillingInfo on the host): each helper checks its
arguments and returns the kernel-side struct (TCubeTiling, SoftMaxTiling, LayerNormTiling, RmsNormTiling, laid
out as the simulator's kernel_tiling headers declare them) as a small object with the fields by
name and ``to_bytes()`` for the tiling buffer a kernel reads."""

from __future__ import annotations

import struct
from dataclasses import astuple, dataclass, field, fields

from pyasc_core.errors import ArgumentError

# Local memory sizes of the default SoC profile (Ascend910B1), bytes.
L0A_BYTES = L0B_BYTES = 64 * 1024
L0C_BYTES = 128 * 1024
_ITEMSIZE = {"float16": 2, "bfloat16": 2, "float32": 4, "int8": 1, "int32": 4}


def _positive(**values: int) -> None:
    for name, v in values.items():
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            raise ArgumentError(f"{name} must be a positive int, got {v!r}")


@dataclass
class TCubeTiling:
    """Matmul's tiling: the documented fields in the documented order (int32 each), then the SDK struct's
    batch-layout words, BatchNum and mxTypePara: 50 int32, 200 bytes, as the SDK's TCubeTiling (asc-devkit
    include/adv_api/matmul/matmul_tilingdata.h; CANN 8.x kernel_tiling.h names the last word ``reserved``)."""

    usedCoreNum: int = 1
    M: int = 0
    N: int = 0
    Ka: int = 0
    Kb: int = 0
    singleCoreM: int = 0
    singleCoreN: int = 0
    singleCoreK: int = 0
    baseM: int = 0
    baseN: int = 0
    baseK: int = 0
    depthA1: int = 1
    depthB1: int = 1
    stepM: int = 1
    stepN: int = 1
    isBias: int = 0
    transLength: int = 0
    iterateOrder: int = 0
    shareMode: int = 0
    shareL1Size: int = 0
    shareL0CSize: int = 0
    shareUbSize: int = 0
    batchM: int = 1
    batchN: int = 1
    singleBatchM: int = 1
    singleBatchN: int = 1
    stepKa: int = 1
    stepKb: int = 1
    depthAL1CacheUB: int = 0
    depthBL1CacheUB: int = 0
    dbL0A: int = 1
    dbL0B: int = 1
    dbL0C: int = 1
    ALayoutInfoB: int = 0
    ALayoutInfoS: int = 0
    ALayoutInfoN: int = 0
    ALayoutInfoG: int = 0
    ALayoutInfoD: int = 0
    BLayoutInfoB: int = 0
    BLayoutInfoS: int = 0
    BLayoutInfoN: int = 0
    BLayoutInfoG: int = 0
    BLayoutInfoD: int = 0
    CLayoutInfoB: int = 0
    CLayoutInfoS1: int = 0
    CLayoutInfoN: int = 0
    CLayoutInfoG: int = 0
    CLayoutInfoS2: int = 0
    BatchNum: int = 0
    mxTypePara: int = 0
    # host side only (not in the kernel's struct): the AIV per AIC of a mixed kernel the tiling is for
    # (matmul_tiling's mix_ratio; 0: a cube-only or vector-only kernel, usedCoreNum counts blocks)
    mix_ratio: int = field(default=0, repr=False, compare=False, metadata={"host": True})

    def to_bytes(self) -> bytes:
        values = [getattr(self, f.name) for f in fields(self) if not f.metadata.get("host")]
        return struct.pack(f"<{len(values)}i", *values)

    @property
    def block_dim(self) -> int:
        """The launch's block count: usedCoreNum, or for a mixed kernel (mix_ratio AIV per AIC) the AI Cores
        (AIC + AIV groups) that hold usedCoreNum AIVs, ceil(usedCoreNum / mix_ratio) -- the host's
        SetBlockDim for the MIX mode (SetDim page: SetDim 40 AIV, 20 used, AIC:AIV 1:2 -> SetBlockDim 10)."""
        return _ceil_div(self.usedCoreNum, self.mix_ratio) if self.mix_ratio else self.usedCoreNum


def _ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def matmul_tiling(m: int, n: int, k: int, *, core_num: int = 1, a_dtype: str = "float16",
                  c_dtype: str = "float32", bias: bool = False, base_m: int | None = None,
                  base_n: int | None = None, base_k: int | None = None, iterate_order: int = 0,
                  mix_ratio: int = 0) -> TCubeTiling:
    """TCubeTiling for C[m, n] = A[m, k] @ B[k, n] (+ bias) on ``core_num`` cores: the cores split M
    and N into singleCoreM x singleCoreN tiles (usedCoreNum = tiles, K is not split), base blocks
    are 16-aligned and fit L0A / L0B / L0C.

    ``mix_ratio`` 0 (the default): a cube-only kernel (or any kernel whose GetBlockIdx() numbers blocks);
    core_num and usedCoreNum count blocks, launch ``usedCoreNum`` (= ``block_dim``) blocks.  ``mix_ratio`` 2 /
    1: a mixed KERNEL_TYPE_MIX_AIC_1_2 / 1_1 kernel, where the Matmul API is driven from the AIVs and
    GetBlockIdx() numbers the AIVs (block * mix_ratio + sub-block): as the host's MultiCoreMatmulTiling in the
    MIX mode (SetDim page, 分离模式), core_num is the AIVs available (SetDim), usedCoreNum the AIVs the tiles go
    to (one tile per GetBlockIdx()), and the launch takes ``block_dim`` = ceil(usedCoreNum / mix_ratio) blocks
    (SetBlockDim)."""
    _positive(m=m, n=n, k=k, core_num=core_num)
    if mix_ratio not in (0, 1, 2) or isinstance(mix_ratio, bool):
        raise ArgumentError(f"mix_ratio must be 0 (not a mixed kernel), 1 (KERNEL_TYPE_MIX_AIC_1_1) or 2 "
                            f"(KERNEL_TYPE_MIX_AIC_1_2), got {mix_ratio!r}")
    if a_dtype not in _ITEMSIZE or c_dtype not in _ITEMSIZE:
        raise ArgumentError(f"a_dtype / c_dtype must be one of {sorted(_ITEMSIZE)}, got {a_dtype!r} / {c_dtype!r}")
    if iterate_order not in (0, 1):
        raise ArgumentError(f"iterate_order must be 0 (M first) or 1 (N first), got {iterate_order!r}")
    # split the larger of M, N over the cores first
    cores_m = 1
    cores_n = 1
    while cores_m * cores_n * 2 <= core_num:
        if _ceil_div(m, cores_m) >= _ceil_div(n, cores_n) and _ceil_div(m, cores_m * 2) >= 16:
            cores_m *= 2
        elif _ceil_div(n, cores_n * 2) >= 16:
            cores_n *= 2
        else:
            break
    # a core's tile is 16-aligned but never larger than the matrix (singleCoreM <= M, singleCoreN <= N, as
    # the host tiling gives): a kernel that never trims its tail then reads no row / column past A / B
    single_m = min(m, _ceil_div(_ceil_div(m, cores_m), 16) * 16)
    single_n = min(n, _ceil_div(_ceil_div(n, cores_n), 16) * 16)
    used = _ceil_div(m, single_m) * _ceil_div(n, single_n)
    size_a, size_c = _ITEMSIZE[a_dtype], max(_ITEMSIZE[c_dtype], 4)
    bm = base_m or min(128, _ceil_div(single_m, 16) * 16)
    bn = base_n or min(256 if size_c * 128 * 256 <= L0C_BYTES else 128, _ceil_div(single_n, 16) * 16)
    # base K: half of L0A (double buffering) for the A block, and the B block (bk x bn) must fit L0B
    bk = base_k or min(_ceil_div(k, 16) * 16, max(16, (L0A_BYTES // 2) // (bm * size_a) // 16 * 16),
                       max(16, L0B_BYTES // (bn * size_a) // 16 * 16))
    _positive(base_m=bm, base_n=bn, base_k=bk)
    if bm * bn * size_c > L0C_BYTES or bm * bk * size_a > L0A_BYTES or bk * bn * size_a > L0B_BYTES:
        raise ArgumentError(f"base block {bm} x {bn} x {bk} does not fit L0A/L0B ({L0A_BYTES} bytes) and L0C "
                            f"({L0C_BYTES} bytes); pass smaller base_m / base_n / base_k")
    return TCubeTiling(usedCoreNum=used, M=m, N=n, Ka=k, Kb=k, singleCoreM=single_m, singleCoreN=single_n,
                       singleCoreK=k, baseM=bm, baseN=bn, baseK=bk, isBias=int(bias), iterateOrder=iterate_order,
                       stepKa=1, stepKb=1, depthA1=1, depthB1=1, mix_ratio=mix_ratio)


@dataclass
class SoftMaxTiling:
    """SoftMax's kernel-side tiling (16 uint32 fields)."""

    srcM: int = 0
    srcK: int = 0
    srcSize: int = 0
    outMaxM: int = 0
    outMaxK: int = 0
    outMaxSize: int = 0
    splitM: int = 0
    splitK: int = 0
    splitSize: int = 0
    reduceM: int = 0
    reduceK: int = 0
    reduceSize: int = 0
    rangeM: int = 0
    tailM: int = 0
    tailSplitSize: int = 0
    tailReduceSize: int = 0

    def to_bytes(self) -> bytes:
        return struct.pack("<16I", *astuple(self))


def softmax_tiling(rows: int, cols: int, dtype: str = "float32") -> SoftMaxTiling:
    """SoftMaxTiling for ``rows`` x ``cols`` (cols * itemsize a multiple of 32 bytes), one pass."""
    _positive(rows=rows, cols=cols)
    size = _ITEMSIZE.get(dtype)
    if size is None or size == 1:
        raise ArgumentError(f"dtype must be 'float16' or 'float32', got {dtype!r}")
    if cols * size % 32:
        raise ArgumentError(f"cols * itemsize = {cols * size} bytes must be a multiple of 32 (pad the rows)")
    per = 32 // size
    return SoftMaxTiling(srcM=rows, srcK=cols, srcSize=rows * cols, outMaxM=rows, outMaxK=per,
                         outMaxSize=rows * per, splitM=rows, splitK=cols, splitSize=rows * cols, reduceM=rows,
                         reduceK=per, reduceSize=rows * per, rangeM=1, tailM=0)


@dataclass
class LayerNormTiling:
    """LayerNorm's kernel-side tiling (25 uint32 fields + float lastDimValueBack: 104 bytes, the reference's layout)."""

    bLength: int = 0
    sLength: int = 0
    hLength: int = 0
    originalHLength: int = 0
    inputXSize: int = 0
    meanVarSize: int = 0
    numberOfTmpBuf: int = 0
    meanTmpTensorPos: int = 0
    meanTmpTensorSize: int = 0
    varianceTmpTensorPos: int = 0
    varianceTmpTensorSize: int = 0
    tmpBufSize: int = 0
    oneTmpSize: int = 0
    firstTmpStartPos: int = 0
    secondTmpStartPos: int = 0
    thirdTmpStartPos: int = 0
    loopRound: int = 0
    inputRoundSize: int = 0
    inputTailSize: int = 0
    inputTailPos: int = 0
    meanVarRoundSize: int = 0
    meanVarTailSize: int = 0
    meanVarTailPos: int = 0
    bshCurLength: int = 0
    bsCurLength: int = 0
    lastDimValueBack: float = 0.0

    def to_bytes(self) -> bytes:
        *ints, last = astuple(self)
        return struct.pack("<25If", *ints, last)


def layernorm_tiling(b: int, s: int, h: int, original_h: int | None = None) -> LayerNormTiling:
    """LayerNormTiling for x[b, s, h] normalised over the first ``original_h`` (default h) of h."""
    _positive(b=b, s=s, h=h)
    oh = h if original_h is None else original_h
    _positive(original_h=oh)
    if oh > h:
        raise ArgumentError(f"original_h ({oh}) must not exceed h ({h})")
    return LayerNormTiling(bLength=b, sLength=s, hLength=h, originalHLength=oh, inputXSize=b * s * h,
                           meanVarSize=b * s, loopRound=1, inputRoundSize=b * s * h, meanVarRoundSize=b * s,
                           bshCurLength=b * s * h, bsCurLength=b * s, lastDimValueBack=1.0 / oh)


@dataclass
class RmsNormTiling:
    """RmsNorm's kernel-side tiling (4 uint32, float reciprocalOfHLength, 7 uint32)."""

    bLength: int = 0
    sLength: int = 0
    hLength: int = 0
    originalHLength: int = 0
    reciprocalOfHLength: float = 0.0
    mainBshLength: int = 0
    mainBsLength: int = 0
    mainBsLengthAlign: int = 0
    loopRound: int = 0
    inputTailPos: int = 0
    tailBshLength: int = 0
    tailBsLength: int = 0

    def to_bytes(self) -> bytes:
        return struct.pack("<4If7I", *astuple(self))


def rmsnorm_tiling(b: int, s: int, h: int, original_h: int | None = None) -> RmsNormTiling:
    """RmsNormTiling for x[b, s, h] normalised over the first ``original_h`` (default h) of h."""
    _positive(b=b, s=s, h=h)
    oh = h if original_h is None else original_h
    _positive(original_h=oh)
    if oh > h:
        raise ArgumentError(f"original_h ({oh}) must not exceed h ({h})")
    return RmsNormTiling(bLength=b, sLength=s, hLength=h, originalHLength=oh, reciprocalOfHLength=1.0 / oh,
                         mainBshLength=b * s * h, mainBsLength=b * s, mainBsLengthAlign=-(-(b * s) // 8) * 8,
                         loopRound=1)


# ---- Pad / UnPad (kapi/pad_tiling.h) ----------------------------------------------------------------
_PAD_ITEMSIZE = {"int16": 2, "uint16": 2, "float16": 2, "int32": 4, "uint32": 4, "float32": 4}


def _pad_itemsize(dtype: str) -> int:
    size = _PAD_ITEMSIZE.get(dtype)
    if size is None:
        raise ArgumentError(f"dtype must be one of {', '.join(_PAD_ITEMSIZE)} (Pad / UnPad's documented types), "
                            f"got {dtype!r}")
    return size


@dataclass
class PadTiling:
    """Pad's kernel-side tiling (26 uint32 fields in the documented order); the simulator reads the
    first three, the rest describe the NPU's internal loop split and stay 0."""

    srcHeight: int = 0
    srcWidth: int = 0
    srcOriWidth: int = 0
    rest: list = field(default_factory=lambda: [0] * 23)

    def to_bytes(self) -> bytes:
        return struct.pack("<26I", self.srcHeight, self.srcWidth, self.srcOriWidth, *self.rest)


@dataclass
class UnPadTiling:
    """UnPad's kernel-side tiling (8 uint32 fields); the simulator reads srcHeight and srcWidth."""

    srcHeight: int = 0
    srcWidth: int = 0
    rest: list = field(default_factory=lambda: [0] * 6)

    def to_bytes(self) -> bytes:
        return struct.pack("<8I", self.srcHeight, self.srcWidth, *self.rest)


def pad_tiling(height: int, width: int, ori_width: int | None = None, dtype: str = "float16") -> PadTiling:
    """PadTiling for a [height, width] source whose first ``ori_width`` (default width) columns are
    valid (PadTilingFunc's srcShape / oriSrcShape): Pad widens the rows to width rounded up to 32 bytes."""
    _positive(height=height, width=width)
    per = 32 // _pad_itemsize(dtype)
    ow = width if ori_width is None else ori_width
    _positive(ori_width=ow)
    if ow > width:
        raise ArgumentError(f"ori_width ({ow}) must not exceed width ({width})")
    if width % per == 0 and ow == width:
        raise ArgumentError(f"a {dtype} width of {width} is already 32-byte aligned with every column valid: Pad "
                            f"has nothing to pad (pass ori_width < width to refill the tail columns)")
    return PadTiling(srcHeight=height, srcWidth=width, srcOriWidth=ow)


def unpad_tiling(height: int, width: int, dtype: str = "float16") -> UnPadTiling:
    """UnPadTiling for a [height, width] source (width * itemsize a multiple of 32 bytes)."""
    _positive(height=height, width=width)
    size = _pad_itemsize(dtype)
    if width * size % 32:
        raise ArgumentError(f"width * itemsize = {width * size} bytes must be a multiple of 32 (UnPad removes "
                            f"columns of an aligned width)")
    return UnPadTiling(srcHeight=height, srcWidth=width)
