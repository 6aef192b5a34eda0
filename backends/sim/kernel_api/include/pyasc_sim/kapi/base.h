// Ascend C on the CPU -- qualifiers, element types, enums and constants.
//
// Written from the public Ascend C API reference (names, enum members and documented
// values only); no CANN file was used.  Part of pyasc_sim's kernel API: include
// "kernel_operator.h", not this file.
#ifndef PYASC_SIM_KAPI_BASE_H_
#define PYASC_SIM_KAPI_BASE_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "pyasc_sim/kapi/arch.h"  // __CCE_AICORE__ (the SoC-dependent constants below)

// PYASC_SIM_DOCUMENTED_ONLY=1 (-D) hides the AscendC names the public API reference does not document
// (undocumented constants, spellings and lowercase intrinsics): a kernel that compiles with it uses
// only documented Ascend C (backends/sim/kernel_api/README.md).
#ifndef PYASC_SIM_DOCUMENTED_ONLY
#define PYASC_SIM_DOCUMENTED_ONLY 0
#endif

// ---- function / address-space qualifiers: no meaning on the CPU -------------------------
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
// `__forceinline__`: the clang-based NPU compiler's always-inline keyword, known in every AI Core build (Catlass's
// `CATLASS_DEVICE` is `__forceinline__ [aicore]`; NPUKernelBench's level3 GMM answers inline that code), not
// only in SIMT code for the Ascend 950 (kapi/simt_api.h, which keeps its own guarded definition).
#ifndef __forceinline__
#define __forceinline__ inline __attribute__((always_inline))
#endif
#define __gm__
#define __ubuf__
// The Unified Buffer spelling of SIMT code for the Ascend 950 (RecSDK's recops split_embedding: a
// `__local_mem__ int64_t *` from LocalTensor::GetPhyAddr() passed to a VF): the same memory as __ubuf__.
#ifndef __local_mem__
#define __local_mem__
#endif
// `__BLOCK_LOCAL__`: the toolchain's qualifier of a global variable with one instance per AI Core (memfabric's
// SHMEM examples keep the staging UB address of a copy helper in one). Blocks run on host threads, one block at a
// time per thread, so a thread_local variable is one per running block.
#ifndef __BLOCK_LOCAL__
#define __BLOCK_LOCAL__ thread_local
#endif
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __inout_pipe__(pipe)
#define __in_pipe__(pipe)
#define __out_pipe__(pipe)
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t *
#endif
// Kernel type annotations (KERNEL_TASK_TYPE_DEFAULT, mixed cube/vector kernels): mix.h.

// ---- element types ------------------------------------------------------------------------
// half: IEEE binary16, native in g++ >= 12 on x86-64 and aarch64.
using half = _Float16;

// bfloat16_t: the upper 16 bits of an IEEE binary32; float -> bfloat16_t rounds to nearest
// even (NaN stays NaN).  Arithmetic goes through float.
struct bfloat16_t {
    uint16_t bits;

    bfloat16_t() = default;
    template <typename U, typename = std::enable_if_t<std::is_arithmetic<U>::value || std::is_same<U, half>::value>>
    bfloat16_t(U v) : bits(from_float(static_cast<float>(v))) {}  // NOLINT: implicit like a built-in type
    operator float() const {
        const uint32_t u = static_cast<uint32_t>(bits) << 16;
        float f;
        std::memcpy(&f, &u, sizeof(f));
        return f;
    }
    static bfloat16_t from_bits(uint16_t b) {
        bfloat16_t r;
        r.bits = b;
        return r;
    }
    static uint16_t from_float(float f) {
        uint32_t u;
        std::memcpy(&u, &f, sizeof(u));
        if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);  // quiet NaN
        const uint32_t lsb = (u >> 16) & 1u;
        u += 0x7fffu + lsb;
        return static_cast<uint16_t>(u >> 16);
    }
};

namespace AscendC {

// ---- logical positions of buffers (TPosition) and their alias QuePosition ------------------
enum class TPosition : uint8_t {
    GM,
    A1,
    A2,
    B1,
    B2,
    C1,
    C2,
    CO1,
    CO2,
    VECIN,
    VECOUT,
    VECCALC,
    LCM = VECCALC,
    SPM,
    SHM = SPM,
    TSCM,
    C2PIPE2GM,
    C2PIPE2LOCAL,
    MAX,
};
using QuePosition = TPosition;

// Synchronisation events between pipes: SRC_DST (the DST pipe waits for the SRC pipe).
enum class HardEvent : uint8_t {
    MTE2_MTE1,
    MTE1_MTE2,
    MTE1_M,
    M_MTE1,
    MTE2_V,
    V_MTE2,
    MTE3_V,
    V_MTE3,
    M_V,
    V_M,
    V_V,
    MTE3_MTE1,
    MTE1_MTE3,
    MTE1_V,
    MTE2_M,
    M_MTE2,
    V_MTE1,
    M_FIX,
    FIX_M,
    MTE3_MTE2,
    MTE2_MTE3,
    S_V,
    V_S,
    S_MTE2,
    MTE2_S,
    S_MTE3,
    MTE3_S,
    MTE2_FIX,
    FIX_MTE2,
    FIX_S,
    M_S,
    FIX_MTE3,
    MTE1_FIX,
    FIX_MTE1,
    FIX_FIX,
    MAX,
};
using TEventID = int8_t;

enum class RoundMode : uint8_t {
    CAST_NONE = 0,  // round to nearest even where precision is lost, else exact
    CAST_RINT,      // round to nearest, ties to even
    CAST_FLOOR,     // toward -inf
    CAST_CEIL,      // toward +inf
    CAST_ROUND,     // round to nearest, ties away from zero
    CAST_TRUNC,     // toward zero
    CAST_ODD,       // von Neumann: to the odd neighbour when inexact
    CAST_HYBRID,    // stochastic (hif8 only); treated as CAST_RINT here
    UNKNOWN,        // "no mode given" (the Reg::CastTrait default): conversions that need one round to nearest even
};

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };

enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };

enum class BlockMode : uint8_t {
    BLOCK_MODE_NORMAL = 0,
    BLOCK_MODE_MATRIX,
    BLOCK_MODE_VECTOR,
    BLOCK_MODE_SMALL_CHANNEL,
    BLOCK_MODE_DEPTHWISE,
};

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

enum class CO2Layout : uint8_t { NZ = 0, ROW_MAJOR, COLUMN_MAJOR };

struct FixpipeConfig {
    CO2Layout format;
    // isToUB: CO1 -> UB instead of GM (Ascend 950's Fixpipe); CANN 9.x accepts the two-field braced
    // form `FixpipeConfig{CO2Layout::NZ, false}` on every SoC (vllm-ascend chunk_kda_fwd_prepare)
    bool isToUB = false;
    constexpr FixpipeConfig(CO2Layout f) : format(f) {}  // NOLINT: implicit as documented
    constexpr FixpipeConfig(CO2Layout f, bool toUB) : format(f), isToUB(toUB) {}
};
inline constexpr FixpipeConfig CFG_NZ{CO2Layout::NZ};
inline constexpr FixpipeConfig CFG_ROW_MAJOR{CO2Layout::ROW_MAJOR};

// ---- constants --------------------------------------------------------------------------------
// The params structs' defaults live in sim_detail; the public reference documents none of these
// constants, so PYASC_SIM_DOCUMENTED_ONLY hides them from AscendC (see the README).
namespace sim_detail {
constexpr int32_t DEFAULT_BLK_NUM = 8;  // data blocks per repeat
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint16_t DEFAULT_DATA_COPY_NBURST = 1;
}  // namespace sim_detail
#if !PYASC_SIM_DOCUMENTED_ONLY
using sim_detail::DEFAULT_BLK_NUM;
using sim_detail::DEFAULT_BLK_STRIDE;
using sim_detail::DEFAULT_DATA_COPY_NBURST;
using sim_detail::DEFAULT_REPEAT_STRIDE;
constexpr int32_t ONE_BLK_SIZE = 32;           // bytes in a data block
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;  // bytes one vector repeat processes
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t BLOCK_CUBE = 16;  // rows / columns of a cube fractal
constexpr int32_t CUBE_MAX_SIZE = 256;
constexpr uint64_t MASK_PLACEHOLDER = 0;
// Elements of a 32-byte block / a 256-byte repeat, the SDK's constants next to ONE_BLK_SIZE (its
// kernel_utils_constants.h, reachable from kernel_operator.h; public kernels use them unqualified after
// `using namespace AscendC`, e.g. Ascend/DrivingSDK bev_pool_v3: `AlignUp(n, B32_DATA_NUM_PER_BLOCK)`).
constexpr uint8_t B32_DATA_NUM_PER_BLOCK = 8;
constexpr uint8_t B16_DATA_NUM_PER_BLOCK = 16;
constexpr int32_t B32_DATA_NUM_PER_REPEAT = 64;
constexpr int32_t B16_DATA_NUM_PER_REPEAT = 128;
// Elements of a float / half vector repeat, declared in the same SDK header (kernel_utils_constants.h:
// ONE_REPEAT_BYTE_SIZE / B32_BYTE_SIZE and / B16_BYTE_SIZE, as uint32_t there); e.g. Ascend/DrivingSDK's arch35
// point_to_voxel: `rptTimes_ = avgPts_ / ONE_REPEAT_FLOAT_SIZE`.
constexpr uint32_t ONE_REPEAT_FLOAT_SIZE = 64;
constexpr uint32_t ONE_REPEAT_HALF_SIZE = 128;
// Bytes of an 8- / 4- / 2- / 1-byte element, declared beside them in the same SDK header (uint8_t there too);
// e.g. Ascend/DrivingSDK bev_pool_v3_grad: `DataCopyParams cpSingleParams_ {1, B32_BYTE_SIZE, 0, 0}`.
constexpr uint8_t B64_BYTE_SIZE = 8;
constexpr uint8_t B32_BYTE_SIZE = 4;
constexpr uint8_t B16_BYTE_SIZE = 2;
constexpr uint8_t B8_BYTE_SIZE = 1;
// Every bit of one half of the vector mask, declared beside DEFAULT_REPEAT_STRIDE in the same SDK header
// (kernel_utils_constants.h: `const uint64_t FULL_MASK = 0xffffffffffffffff;`); kernels restore the
// whole mask with it after a narrowed one, e.g. Ascend/DrivingSDK deformable_conv2d:
// `SetVectorMask<float>(FULL_MASK, FULL_MASK)`.
constexpr uint64_t FULL_MASK = 0xffffffffffffffffULL;
#if __CCE_AICORE__ == 200 || __CCE_AICORE__ == 220
// pi as a float: the SDK declares `constexpr float PI` in an unnamed namespace inside AscendC in its Lgamma
// implementation (lgamma_common_utils.h, guarded by __CCE_AICORE__ 200 / 220), which kernel_operator.h reaches
// through kernel_operator_intf.h's lib/math/lgamma.h (CANN 8.1.RC1); kernels use it unqualified after
// `using namespace AscendC` (Ascend/DrivingSDK boxes_operator_utils.h: `Muls(x, x, -PI, n)`).
constexpr float PI = 3.14159265358979323846f;
#endif
#endif

}  // namespace AscendC

// Pipes and event ids live in the global namespace (they are compiler intrinsics' types).
enum pipe_t {
    PIPE_S = 0,
    PIPE_V,
    PIPE_M,
    PIPE_MTE1,
    PIPE_MTE2,
    PIPE_MTE3,
    PIPE_ALL,
    PIPE_MTE4,
    PIPE_MTE5,
    PIPE_V2,
    PIPE_FIX,
};
enum event_t {
    EVENT_ID0 = 0,
    EVENT_ID1,
    EVENT_ID2,
    EVENT_ID3,
    EVENT_ID4,
    EVENT_ID5,
    EVENT_ID6,
    EVENT_ID7,
};
// Fixpipe / DataCopy quantisation modes.
enum QuantMode_t {
    NoQuant = 0,
    F322F16,
    F322BF16,
    DEQF16,
    VDEQF16,
    QF322B8_PRE,
    VQF322B8_PRE,
    REQ8,
    VREQ8,
};

namespace pyasc_sim {
namespace kapi {

// Floating element types of the simulator (std::is_floating_point is false for _Float16
// in libstdc++ 12).
template <typename T>
struct is_sim_float
    : std::integral_constant<bool, std::is_floating_point<T>::value || std::is_same<T, half>::value ||
                                      std::is_same<T, bfloat16_t>::value> {};

// Non-deduced context: scalar arguments take the tensor's element type.
template <typename T>
struct ident {
    using type = T;
};
template <typename T>
using ident_t = typename ident<T>::type;

// Converts any element type to double / from double (through float for half, bf16).
template <typename T>
inline double to_double(T v) {
    if constexpr (std::is_same<T, half>::value || std::is_same<T, bfloat16_t>::value) {
        return static_cast<double>(static_cast<float>(v));
    } else {
        return static_cast<double>(v);
    }
}

}  // namespace kapi
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_BASE_H_
