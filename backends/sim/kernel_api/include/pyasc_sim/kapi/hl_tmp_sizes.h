// Ascend C on the CPU -- the temporary-buffer sizes of the high-level APIs that take a sharedTmpBuffer (CumSum, Pad
// / UnPad, AscendQuant, AscendDequant, AscendAntiQuant, Sum, Mean, SoftMax / SimpleSoftMax, SoftmaxFlash /
// SoftmaxFlashV2, LayerNorm, RmsNorm, DeepNorm, LayerNormGrad, LayerNormGradBeta), in one place: the kernel side
// checks the buffer against them (kapi/hl_tmp.h) and the host helpers GetXxxMaxMinTmpSize /
// GetXxxTmpBufferFactorSize (tiling/tiling_api.h, pyasc_sim.hl_tiling_tmp) report them.  Plain C++ with no kernel
// dependencies.  The sizes are what the simulator's implementation stages in the buffer: each API computes its
// intermediate values (in the precision the reference's 实现原理 names) into sharedTmpBuffer chunk by chunk, then writes
// dst from there.  Per element it stages `bytes_per_elem` bytes; the smallest chunk is 256 bytes of source elements
// (the "currentShapeSize * typeSize < 256B rounds up" rule of the GetXxxTmpBufferFactorSize pages) or one 32-byte
// block (CumSum), capped by the whole shape; the maximum holds the whole shape at once (more is never used).  Every
// size is a multiple of 32 bytes.
#ifndef PYASC_SIM_KAPI_HL_TMP_SIZES_H_
#define PYASC_SIM_KAPI_HL_TMP_SIZES_H_

#include <cstdint>

namespace pyasc_sim {
namespace hl_tmp {

constexpr uint64_t kMinChunkSrcBytes = 256;  // one 256-byte repeat of source elements

inline uint64_t round32(uint64_t bytes) { return (bytes + 31) / 32 * 32; }

struct Range {
    uint64_t min_bytes;
    uint64_t max_bytes;
};

// elements in total, src element size, staged bytes per element
inline Range elementwise(uint64_t elems, uint32_t src_type_size, uint32_t bytes_per_elem) {
    if (elems == 0 || src_type_size == 0) return Range{0, 0};
    const uint64_t chunk = kMinChunkSrcBytes / src_type_size;
    const uint64_t max_b = round32(elems * bytes_per_elem);
    const uint64_t min_b = round32((elems < chunk ? elems : chunk) * bytes_per_elem);
    return Range{min_b, max_b};
}

// CumSum over [outter, inner] of T (type_size bytes): partial sums in T, one 32-byte block at least
// (the sum is carried from chunk to chunk); at most every element along the last axis, the running row
// along the first.
inline Range cumsum(uint64_t outter, uint64_t inner, uint32_t type_size, bool is_last_axis) {
    if (outter == 0 || inner == 0) return Range{0, 0};
    const uint64_t row = round32(inner * type_size);
    return Range{32, is_last_axis ? round32(outter * inner * type_size) : row};
}

// Pad / UnPad of a [height, width] source of type_size bytes: the source rows staged before dst is
// written (dst may be the source buffer), one row at least, every row at most.
inline Range pad_rows(uint64_t height, uint64_t width, uint32_t type_size) {
    if (height == 0 || width == 0) return Range{0, 0};
    return Range{round32(width * type_size), round32(height * width * type_size)};
}

// AscendQuant of elems src elements of type_size bytes: x * scale + offset staged as half, one
// source-wide slot per element (maxLiveNodeCount 1, extraBuf 0).
inline Range ascend_quant(uint64_t elems, uint32_t type_size) { return elementwise(elems, type_size, type_size); }
constexpr uint32_t kAscendQuantLiveNodes = 1;

// AscendDequant of elems int32_t elements: the float product staged per element (maxLiveNodeCount 1).
inline Range ascend_dequant(uint64_t elems) { return elementwise(elems, 4, 4); }
constexpr uint32_t kAscendDequantLiveNodes = 1;

// AscendAntiQuant of elems int8_t elements: src + offset staged in the compute type, half (2 bytes)
// for a half output, float (4 bytes) for bfloat16_t; maxLiveNodeCount = that / sizeof(int8_t).
inline uint32_t ascend_antiquant_stage_bytes(uint32_t out_type_size, bool out_is_bf16) {
    return out_is_bf16 ? 4u : out_type_size;
}
inline Range ascend_antiquant(uint64_t elems, uint32_t in_type_size, uint32_t stage_bytes) {
    return elementwise(elems, in_type_size, stage_bytes);
}

// SoftmaxFlash / SoftmaxFlashV2 over [m, k]: exp(x - max) of a row staged in float (the compute type of the
// reference's 实现原理, also for half data), one row at least, every row at most.
inline Range softmax_flash(uint64_t m, uint64_t k) {
    if (m == 0 || k == 0) return Range{0, 0};
    return Range{round32(k * 4), round32(m * k * 4)};
}

// Sigmoid, Silu, Tanh, Gelu, FasterGelu over elems values of type_size bytes: each value staged in float, 256
// source bytes a chunk at least.
inline Range activation(uint64_t elems, uint32_t type_size) { return elementwise(elems, type_size, 4); }

// Sum / Mean over rows of n values: one row's values staged in float; the minimum is the maximum (the
// reference's "max equals min" for these two).
inline Range row_reduce(uint64_t n) {
    if (n == 0) return Range{0, 0};
    return Range{round32(n * 4), round32(n * 4)};
}

// SoftMax / SimpleSoftMax over [m, k]: exp(x - max) of a row staged in float, as SoftmaxFlash.
inline Range softmax(uint64_t m, uint64_t k) { return softmax_flash(m, k); }

// LayerNorm over rows x h: x - mean of a row staged in float; RmsNorm: x * x of a row in float.  One row at
// least, every row at most.
inline Range layernorm(uint64_t rows, uint64_t h) {
    if (rows == 0 || h == 0) return Range{0, 0};
    return Range{round32(h * 4), round32(rows * h * 4)};
}
inline Range rmsnorm(uint64_t rows, uint64_t h) { return layernorm(rows, h); }

// DeepNorm over rows x h: z = alpha * x + gx of a row staged in float, one row at least, every row at most.
inline Range deepnorm(uint64_t rows, uint64_t h) {
    if (rows == 0 || h == 0) return Range{0, 0};
    return Range{round32(h * 4), round32(rows * h * 4)};
}

// LayerNormGrad over rows x h: x - mean and dy * gamma of a row staged in float (8 bytes per element).
inline Range layernorm_grad(uint64_t rows, uint64_t h) {
    if (rows == 0 || h == 0) return Range{0, 0};
    return Range{round32(h * 8), round32(rows * h * 8)};
}

// LayerNormGradBeta over rows x h: the float column sums of dy * resForGamma and of dy (8 bytes per column),
// one 32-byte block of columns at least (8 columns, or h if fewer), every column at most.
inline Range layernorm_grad_beta(uint64_t h) {
    if (h == 0) return Range{0, 0};
    return Range{round32((h < 8 ? h : 8) * 8), round32(h * 8)};
}

}  // namespace hl_tmp
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_HL_TMP_SIZES_H_
