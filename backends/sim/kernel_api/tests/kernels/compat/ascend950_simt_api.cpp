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

// A block-wide inclusive scan the way SIMT code writes it: a warp scan through WarpShflUpSync, the warp
// totals through UB shared memory between two ThreadBarrier()s, then a scan of the totals by warp 0; also
// each lane's WarpShflXorSync butterfly sum and its WarpShflDownSync / asc_shfl neighbours.
constexpr int32_t SCAN_THREADS = 256;
constexpr int32_t LANES = 32;

template <typename T>
__aicore__ inline T WarpScan(T v)
{
    const int32_t lane = Simt::GetThreadIdx<0>() % LANES;
    for (int32_t d = 1; d < LANES; d <<= 1) {
        T up = Simt::WarpShflUpSync(v, d);
        if (lane >= d) {
            v += up;
        }
    }
    return v;
}

__simt_vf__ __aicore__ LAUNCH_BOUND(SCAN_THREADS) inline void ScanVf(__gm__ int32_t *x, __gm__ int32_t *scan,
                                                                      __gm__ int32_t *lanes, __ubuf__ int32_t *warpSums,
                                                                      int32_t n)
{
    const int32_t tid = Simt::GetThreadIdx<0>();
    const int32_t warp = tid / LANES, lane = tid % LANES;
    const int32_t base = Simt::GetBlockIdx() * SCAN_THREADS;
    if (base + tid >= n) {
        return;  // threads past the end leave early; the barriers below still release
    }
    const int32_t v = x[base + tid];
    const int32_t inWarp = WarpScan(v);
    const int32_t warps = (n - base < SCAN_THREADS ? n - base + LANES - 1 : SCAN_THREADS) / LANES;
    if (lane == LANES - 1 || base + tid == n - 1) {
        warpSums[warp] = inWarp;
    }
    Simt::ThreadBarrier();
    if (tid < warps) {
        warpSums[tid] = WarpScan(warpSums[tid]);
    }
    Simt::ThreadBarrier();
    scan[base + tid] = inWarp + (warp > 0 ? warpSums[warp - 1] : 0);
    int32_t sum = v;
    for (int32_t m = 8; m > 0; m >>= 1) {
        sum += Simt::WarpShflXorSync(sum, m, 16);  // a butterfly over groups of 16 lanes
    }
    lanes[3 * (base + tid)] = sum;
    lanes[3 * (base + tid) + 1] = Simt::WarpShflDownSync(v, 1);
    lanes[3 * (base + tid) + 2] = asc_shfl(v, 5);
}

extern "C" __global__ __aicore__ void a950_simt_scan(GM_ADDR x, GM_ADDR scan, GM_ADDR lanes, int32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> shared;
    pipe.InitBuffer(shared, SCAN_THREADS / LANES * sizeof(int32_t));
    __ubuf__ int32_t *warpSums = reinterpret_cast<__ubuf__ int32_t *>(shared.Get<int32_t>().GetPhyAddr());
    Simt::VF_CALL<ScanVf>(Simt::Dim3{SCAN_THREADS}, (__gm__ int32_t *)x, (__gm__ int32_t *)scan,
                          (__gm__ int32_t *)lanes, warpSums, n);
}

// SIMT atomics across the threads of every block: a 16-bin histogram (AtomicAdd), the maximum and minimum
// (AtomicMax / AtomicMin), a countdown (AtomicSub), one winner of a compare-and-swap race (AtomicCas) and the
// last value swapped in (AtomicExch returns each swap's predecessor; their sum is checked on the host).
__simt_vf__ __aicore__ LAUNCH_BOUND(128) inline void AtomicsVf(__gm__ int32_t *x, __gm__ int32_t *hist,
                                                               __gm__ int32_t *stats, __gm__ float *fsum, int32_t n)
{
    const int32_t i = Simt::GetBlockIdx() * 128 + Simt::GetThreadIdx<0>();
    if (i >= n) {
        return;
    }
    const int32_t v = x[i];
    Simt::AtomicAdd(hist + (v & 15), 1);
    Simt::AtomicMax(stats + 0, v);
    Simt::AtomicMin(stats + 1, v);
    Simt::AtomicSub(stats + 2, 1);
    if (Simt::AtomicCas(stats + 3, 0, i + 1) == 0) {
        Simt::AtomicAdd(stats + 4, 1);  // winners of the race: exactly one
    }
    Simt::AtomicAdd(fsum, 0.5f);
}

extern "C" __global__ __aicore__ void a950_simt_atomics(GM_ADDR x, GM_ADDR hist, GM_ADDR stats, GM_ADDR fsum, int32_t n)
{
    Simt::VF_CALL<AtomicsVf>(Simt::Dim3{128}, (__gm__ int32_t *)x, (__gm__ int32_t *)hist, (__gm__ int32_t *)stats,
                             (__gm__ float *)fsum, n);
}
