#include "kernel_operator.h"
// Idioms of public Ascend 950 SIMT kernels ported from CUDA (graph search in vector retrieval): device functions
// declared with the NPU compiler's own attribute spelling `__forceinline__[aicore]` (also through a macro, as
// `#define DI __forceinline__[aicore]`), a visited bitmap in GM whose bits are claimed with atomicOr (the first
// thread to set an id's bit "inserts" it), block barriers written as the builtin __sync_workitems() and as
// asc_syncthreads(), the warp reductions __reduce_min / __reduce_max / __reduce_add, the warp votes __all / __any /
// __activemask, __clz, the bitwise atomics atomicAnd / atomicXOr / asc_atomic_or / _and / _xor on GM and UB, and
// the half2 / uint1 / ushort1 vector types.  Our own kernels in that style (tests/test_sim_simt_builtins.py).
#include "simt_api/asc_fp16.h"
#include "simt_api/asc_simt.h"
#include "simt_api/device_atomic_functions.h"
#include "simt_api/device_sync_functions.h"

using namespace AscendC;

#if __CCE_AICORE__ == 310
#define DI __forceinline__[aicore]

constexpr uint32_t THREADS = 128;

// Sets the id's bit of the bitmap; 1 when this call set it (the id is new), 0 when it was set or out of range.
__forceinline__[aicore] uint32_t visited_insert(__gm__ uint32_t *const bitmap, const uint32_t words, const uint32_t id)
{
    const uint32_t word = id / 32;
    const uint32_t bit = 1u << (id % 32);
    if (word >= words) return 0;
    return (atomicOr(&bitmap[word], bit) & bit) ? 0 : 1;
}

DI uint32_t lane_of(uint32_t tid) { return tid % 32; }

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void VisitedVf(__gm__ const uint32_t *ids, __gm__ uint32_t *bitmap,
                                                                   __gm__ uint32_t *fresh, uint32_t n, uint32_t words,
                                                                   uint32_t blockId, uint32_t blockNum)
{
    for (uint32_t i = blockId * THREADS + threadIdx.x; i < n; i += blockNum * THREADS) {
        fresh[i] = visited_insert(bitmap, words, ids[i]);
    }
}

// ids[n] -> fresh[n]: 1 for the one occurrence of each in-range id that inserted it; bitmap[words] gets the bits.
extern "C" __global__ __aicore__ void simt_visited_insert(GM_ADDR ids, GM_ADDR bitmap, GM_ADDR fresh, uint32_t n,
                                                          uint32_t words)
{
    Simt::VF_CALL<VisitedVf>(Simt::Dim3{THREADS, 1, 1}, (__gm__ const uint32_t *)ids, (__gm__ uint32_t *)bitmap,
                             (__gm__ uint32_t *)fresh, n, words, static_cast<uint32_t>(GetBlockIdx()),
                             static_cast<uint32_t>(GetBlockNum()));
}

// One block of THREADS threads over n <= THREADS elements (lanes past n take part with neutral values):
//   stats[warp * 8 + 0..7]: __reduce_min(f) bits, __reduce_max(i), __reduce_add(u), __reduce_min(half) bits,
//                           __all(i >= 0), __any(i > 100), __activemask() of the lanes with i even, 0;
//   clz[t] = __clz(i[t]), clz64[t] = __clz((long long)i[t] << 20);
//   rot[t] = i[(t + 1) % THREADS] read from UB after __sync_workitems(), rot2[t] = i[(t + 2) % THREADS] after
//            asc_syncthreads();
//   h2[t] = make_half2(h[2t+1], h[2t]) for t < n / 2 (a swap of each half pair; __halves2half2 for odd t);
//   bits[0..5]: atomicAnd / atomicXOr / asc_atomic_or / asc_atomic_and / asc_atomic_xor on GM words
//               (bits[0] starts all ones, the others 0), bits[5] atomicOr on a UB word; u1[t] = uint1 / ushort1 loads.
__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void BuiltinsVf(__gm__ const float *f, __gm__ const int32_t *iv,
                                                                    __gm__ const half *h, __gm__ uint32_t *stats,
                                                                    __gm__ int32_t *clz, __gm__ int32_t *rot,
                                                                    __gm__ half2 *h2, __gm__ uint32_t *bits,
                                                                    __gm__ uint32_t *u1, uint32_t n)
{
    const uint32_t t = threadIdx.x;
    const uint32_t warp = t / 32;
    const bool in = t < n;
    const float fv = in ? f[t] : 3.0e38f;
    const int32_t ivv = in ? iv[t] : -2147483647 - 1;
    const uint32_t uv = in ? static_cast<uint32_t>(iv[t]) & 0xffffu : 0u;
    const half hv = in ? h[t] : static_cast<half>(60000.0f);

    const float fmin = __reduce_min(fv);
    const int32_t imax = __reduce_max(ivv);
    const uint32_t usum = __reduce_add(uv);
    const half hmin = __reduce_min(hv);
    const int32_t all = __all(!in || ivv >= 0);
    const int32_t any = __any(in && ivv > 100);
    uint32_t even_mask = 0;
    if ((t % 2) == 0) {
        even_mask = __activemask();
    }
    if (lane_of(t) == 0) {
        uint32_t fb;
        uint16_t hb;
        __builtin_memcpy(&fb, &fmin, 4);
        __builtin_memcpy(&hb, &hmin, 2);
        stats[warp * 8 + 0] = fb;
        stats[warp * 8 + 1] = static_cast<uint32_t>(imax);
        stats[warp * 8 + 2] = usum;
        stats[warp * 8 + 3] = hb;
        stats[warp * 8 + 4] = static_cast<uint32_t>(all);
        stats[warp * 8 + 5] = static_cast<uint32_t>(any);
        stats[warp * 8 + 7] = 0;
    }
    if (lane_of(t) == 2) {
        stats[warp * 8 + 6] = even_mask;
    }
    if (in) {
        clz[t] = __clz(ivv);
        clz[THREADS + t] = __clz(static_cast<long long>(ivv) << 20);
    }

    // UB exchange through the two barrier spellings
    __ubuf__ int32_t *ub = (__ubuf__ int32_t *)get_imm(0);
    ub[t] = ivv;
    __sync_workitems();
    rot[t] = ub[(t + 1) % THREADS];
    __sync_workitems();
    ub[THREADS + t] = ivv;
    asc_syncthreads();
    rot[THREADS + t] = ub[THREADS + (t + 2) % THREADS];

    if (t < n / 2) {
        h2[t] = (t % 2 == 0) ? make_half2(h[2 * t + 1], h[2 * t]) : __halves2half2(h[2 * t + 1], h[2 * t]);
    }

    __ubuf__ uint32_t *ubw = (__ubuf__ uint32_t *)get_imm(2 * THREADS * sizeof(int32_t));
    if (t == 0) ubw[0] = 0;
    __sync_workitems();
    if (in) {
        const uint32_t b = 1u << (t % 32);
        atomicAnd(&bits[0], ~b);
        atomicXOr(&bits[1], static_cast<uint32_t>(ivv));
        asc_atomic_or(&bits[2], b << 0);
        asc_atomic_and(&bits[3], b);
        asc_atomic_xor(&bits[4], b);
        atomicOr(&ubw[0], 1u << (t % 31));
        const __gm__ uint1 *w1 = reinterpret_cast<const __gm__ uint1 *>(iv);
        const __gm__ ushort1 *s1 = reinterpret_cast<const __gm__ ushort1 *>(iv);
        u1[t] = w1[t].x + s1[2 * t].x;
    }
    __sync_workitems();
    if (t == 0) bits[5] = ubw[0];
}

extern "C" __global__ __aicore__ void simt_builtins(GM_ADDR f, GM_ADDR iv, GM_ADDR h, GM_ADDR stats, GM_ADDR clz,
                                                    GM_ADDR rot, GM_ADDR h2, GM_ADDR bits, GM_ADDR u1, uint32_t n)
{
    Simt::VF_CALL<BuiltinsVf>(Simt::Dim3{THREADS, 1, 1}, (__gm__ const float *)f, (__gm__ const int32_t *)iv,
                              (__gm__ const half *)h, (__gm__ uint32_t *)stats, (__gm__ int32_t *)clz,
                              (__gm__ int32_t *)rot, (__gm__ half2 *)h2, (__gm__ uint32_t *)bits,
                              (__gm__ uint32_t *)u1, n);
}
#endif
