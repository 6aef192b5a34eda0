// Cache-hinted SIMT loads / stores on the Atlas 350 / Ascend 950 (build with soc="Ascend950PR_9599"), in the
// style of public hash-table SIMT code ported from CUDA: an open-addressing table of uint64 keys filled by
// concurrent blocks (atomicCAS claims a slot, __stg writes its value), probed four slots at a time with
// __ldg<L2_CACHE_HINT_NOTALLOC_CLEAN, CACHEABLE> into a byte match mask scanned by Simt::Ffs, hits counted
// with atomicAdd, the largest value found kept by atomicMax; asc_ldcg / asc_stcg / __ffs on the side.
#include "kernel_operator.h"
#include "simt_api/asc_simt.h"
#include "simt_api/device_functions.h"

using namespace AscendC;

constexpr uint32_t TABLE_THREADS = 256;
constexpr uint64_t EMPTY_KEY = 0;

__forceinline__ uint64_t HashKey(uint64_t k)
{
    k ^= k >> 31;
    k *= 0x9e3779b97f4a7c15ULL;
    k ^= k >> 29;
    return k;
}

template <typename T>
__forceinline__ T LoadStreamed(__gm__ T *p)
{
    return __ldg<LD_L2CacheType::L2_CACHE_HINT_NOTALLOC_CLEAN, L1CacheType::CACHEABLE>(p);
}

template <typename T>
__forceinline__ void StoreL2(__gm__ T *p, T v)
{
    __stg<ST_L2CacheType::L2_CACHE_HINT_NORMAL_FV, L1CacheType::NON_CACHEABLE>(p, v);
}

__simt_vf__ __aicore__ LAUNCH_BOUND(TABLE_THREADS) inline void InsertVf(__gm__ uint64_t *keys, __gm__ int64_t *vals,
                                                                         __gm__ uint64_t *tableKeys,
                                                                         __gm__ int64_t *tableVals,
                                                                         __gm__ uint32_t *inserted, uint32_t n,
                                                                         uint32_t mask)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const uint64_t key = LoadStreamed(keys + i);
        const int64_t val = __ldg(vals + i);  // the default hints
        uint32_t slot = static_cast<uint32_t>(HashKey(key)) & mask;
        for (uint32_t probe = 0; probe <= mask; ++probe, slot = (slot + 1) & mask) {
            const uint64_t old = atomicCAS(tableKeys + slot, EMPTY_KEY, key);
            if (old == EMPTY_KEY || old == key) {
                StoreL2(tableVals + slot, val);
                if (old == EMPTY_KEY) {
                    atomicAdd(inserted, 1u);
                }
                break;
            }
        }
    }
}

extern "C" __global__ __aicore__ void simt_ldg_insert(GM_ADDR keys, GM_ADDR vals, GM_ADDR tableKeys,
                                                      GM_ADDR tableVals, GM_ADDR inserted, uint32_t n, uint32_t mask)
{
    asc_vf_call<InsertVf>(dim3{TABLE_THREADS}, (__gm__ uint64_t *)keys, (__gm__ int64_t *)vals,
                          (__gm__ uint64_t *)tableKeys, (__gm__ int64_t *)tableVals, (__gm__ uint32_t *)inserted, n,
                          mask);
}

// Looks each query up four slots at a time: byte j of `match` is 1 when slot j holds the key; the first match
// is (Ffs(match) - 1) >> 3.  out[i] = the value, or -1 when an empty slot ends the probe first.
__simt_vf__ __aicore__ LAUNCH_BOUND(TABLE_THREADS) inline void FindVf(__gm__ uint64_t *queries,
                                                                       __gm__ uint64_t *tableKeys,
                                                                       __gm__ int64_t *tableVals, __gm__ int64_t *out,
                                                                       __gm__ int32_t *stats, uint32_t n, uint32_t mask)
{
    for (uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const uint64_t key = asc_ldcg(queries + i);
        const uint32_t home = static_cast<uint32_t>(HashKey(key)) & mask, start = home & ~3u;
        int64_t found = -1;
        bool done = false;
        for (uint32_t group = 0; group <= mask / 4 && !done; ++group) {
            const uint32_t base = (start + 4 * group) & mask;
            uint32_t match = 0, empty = 0;
            for (uint32_t j = 0; j < 4; ++j) {
                const uint64_t k = LoadStreamed(tableKeys + base + j);
                match |= static_cast<uint32_t>(k == key) << (8 * j);
                const bool probed = group > 0 || j >= (home & 3u);  // the insert's probe starts at home
                empty |= static_cast<uint32_t>(probed && k == EMPTY_KEY) << (8 * j);
            }
            if (match != 0) {
                const uint32_t j = static_cast<uint32_t>(Simt::Ffs(static_cast<int32_t>(match)) - 1) >> 3;
                found = LoadStreamed(tableVals + base + j);
                done = true;
            } else if (empty != 0) {
                done = true;  // an empty slot: the key was never inserted
            }
        }
        asc_stcg(out + i, found);
        if (found >= 0) {
            atomicAdd(stats, 1);
            atomicMax(stats + 1, static_cast<int32_t>(found));
        }
        // the lowest set bit of the key's low word, as __ffs reports it (1-based, 0 for none)
        StoreL2(reinterpret_cast<__gm__ int64_t *>(out) + n + i, static_cast<int64_t>(__ffs(static_cast<int>(key))));
    }
}

extern "C" __global__ __aicore__ void simt_ldg_find(GM_ADDR queries, GM_ADDR tableKeys, GM_ADDR tableVals,
                                                    GM_ADDR out, GM_ADDR stats, uint32_t n, uint32_t mask)
{
    asc_vf_call<FindVf>(dim3{TABLE_THREADS}, (__gm__ uint64_t *)queries, (__gm__ uint64_t *)tableKeys,
                        (__gm__ int64_t *)tableVals, (__gm__ int64_t *)out, (__gm__ int32_t *)stats, n, mask);
}

// One thread loads x[at] / stores y[at] with hints: the sanitizer checks them as ordinary GM accesses.
__simt_vf__ __aicore__ LAUNCH_BOUND(1) inline void ProbeVf(__gm__ float *x, __gm__ float *y, uint32_t at)
{
    const float v = __ldg<LD_L2CacheType::L2_CACHE_HINT_NORMAL_FV, L1CacheType::CACHEABLE>(x + at);  // ldg-probe
    __stg<ST_L2CacheType::L2_CACHE_HINT_NORMAL_FV, L1CacheType::NON_CACHEABLE>(y + at, v + 1.0f);   // stg-probe
}

extern "C" __global__ __aicore__ void simt_ldg_probe(GM_ADDR x, GM_ADDR y, uint32_t at)
{
    asc_vf_call<ProbeVf>(dim3{1}, (__gm__ float *)x, (__gm__ float *)y, at);
}

// A spin lock the way lock-free SIMT code takes one: atomicCAS until it wins, a fence inside the critical section,
// atomicExch to release.  Each thread adds to a plain (non-atomic) GM counter under the lock: no update is lost.
// Then odd lanes pass a fence before a __shfl_xor butterfly: every lane must still see its partners' values.
__simt_vf__ __aicore__ LAUNCH_BOUND(128) inline void LockVf(__gm__ int32_t *lock, __gm__ int64_t *counter,
                                                           __gm__ int32_t *sums)
{
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    const int64_t seen = *counter;
    __threadfence();  // the other threads run here and find the lock taken
    *counter = seen + threadIdx.x + 1;
    __threadfence();
    atomicExch(lock, 0);

    int32_t v = static_cast<int32_t>(threadIdx.x);
    if ((threadIdx.x & 1) != 0) {
        asc_threadfence_block();
    }
    for (int32_t m = 16; m > 0; m >>= 1) {
        v += __shfl_xor(v, m);
    }
    sums[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

extern "C" __global__ __aicore__ void simt_ldg_lock(GM_ADDR lock, GM_ADDR counter, GM_ADDR sums)
{
    asc_vf_call<LockVf>(dim3{128}, (__gm__ int32_t *)lock, (__gm__ int64_t *)counter, (__gm__ int32_t *)sums);
}
