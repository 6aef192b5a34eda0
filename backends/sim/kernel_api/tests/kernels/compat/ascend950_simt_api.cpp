// SIMT device functions and vector types on the Atlas 350 / Ascend 950 (build with soc="Ascend950PR_9599"),
// in the style of public 950 SIMT code ported from CUDA: device code keyed on the NPU compiler's __CCE__,
// __forceinline__ helpers, a 64-bit multiplicative hash and a "quick division" by a fixed divisor through
// __umul64hi, __umulhi, and uint4 / make_uint4 records written to GM.
#include "kernel_operator.h"
#include "simt_api/device_functions.h"
#include "simt_api/vector_functions.h"

#if !defined(__CCE__)
#error "device code of a 950 build sees __CCE__"
#endif

using namespace AscendC;

constexpr uint32_t THREADS = 128;

__forceinline__ uint64_t MixKey(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return k;
}

// x mod d by the precomputed magic / shift of d (q = umul64hi(x, magic), t = ((x - q) >> 1) + q, x / d = t >> shift)
__forceinline__ uint64_t QuickMod(uint64_t x, uint64_t magic, uint64_t shift, uint64_t d)
{
    uint64_t q = __umul64hi(x, magic);
    q = ((x - q) >> 1) + q;
    return x - (q >> shift) * d;
}

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void HashVf(__gm__ uint64_t *keys, __gm__ uint64_t *out,
                                                                 __gm__ uint4 *rec, uint64_t magic, uint64_t shift,
                                                                 uint64_t d, uint32_t n)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const uint64_t h = MixKey(keys[i]);
        out[2 * i] = QuickMod(h, magic, shift, d);
        out[2 * i + 1] = __umul64hi(h, keys[i]);
        const unsigned int lo = static_cast<unsigned int>(h), hi = static_cast<unsigned int>(h >> 32);
        rec[i] = make_uint4(lo, hi, __umulhi(lo, hi), i);
    }
}

extern "C" __global__ __aicore__ void a950_simt_hash(GM_ADDR keys, GM_ADDR out, GM_ADDR rec, uint64_t magic,
                                                     uint64_t shift, uint64_t d, uint32_t n)
{
    static_assert(sizeof(uint4) == 16 && alignof(uint4) == 16 && sizeof(ulonglong2) == 16, "vector type layout");
    asc_vf_call<HashVf>(dim3{THREADS}, (__gm__ uint64_t *)keys, (__gm__ uint64_t *)out, (__gm__ uint4 *)rec, magic,
                        shift, d, n);
}
