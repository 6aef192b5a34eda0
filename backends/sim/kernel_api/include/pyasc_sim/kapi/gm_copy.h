// Ascend C on the CPU -- the byte copy behind every plain (non-atomic) write to global memory.
//
// A DataCopy to GM streams a tile that the kernel does not read again: large copies use
// non-temporal stores (AVX-512 where the CPU has it, else SSE2), which skip the read-for-ownership
// of the destination lines, so a GM write costs one pass over memory instead of two. The bytes
// written are exactly memmove's. Their sfence is deferred to the next point where another thread
// may look (gm_fence(): the end of a block or sub-core, SyncAll, IBSet/IBWait, cross-core flags,
// atomic GM writes), so a tile's stores drain while the next tile loads and computes; the block's
// own later reads of those bytes see them without a fence (x86 orders a core's own accesses).
#ifndef PYASC_SIM_KAPI_GM_COPY_H_
#define PYASC_SIM_KAPI_GM_COPY_H_

#include <cstdint>
#include <cstring>

#include "pyasc_sim/kapi/simd.h"
#include "pyasc_sim/kapi/state.h"

namespace pyasc_sim {
namespace kapi {

// Copies below this size (one tile of a small launch, a row of a narrow tensor) keep the
// destination in cache: the next reader of a small result finds it there.
constexpr uint64_t kGmStreamMinBytes = 4096;

// True while this thread has non-temporal GM stores that no sfence has ordered yet.
inline bool &gm_fence_pending() {
    thread_local bool pending = false;
    return pending;
}

// Orders this thread's streamed GM stores before its later stores and synchronising operations:
// call it before anything that lets another core (or the host) read what this core wrote.
inline void gm_fence() {
#ifdef PYASC_SIM_X86
    bool &pending = gm_fence_pending();
    if (pending) {
        _mm_sfence();
        pending = false;
    }
#endif
}

#ifdef PYASC_SIM_X86
__attribute__((target("avx512f"))) inline void gm_stream_avx512(uint8_t *d, const uint8_t *s, uint64_t n) {
    uint64_t i = 0;
    for (; i + 256 <= n; i += 256) {
        const __m512i a = _mm512_loadu_si512(s + i), b = _mm512_loadu_si512(s + i + 64);
        const __m512i c = _mm512_loadu_si512(s + i + 128), e = _mm512_loadu_si512(s + i + 192);
        _mm512_stream_si512(reinterpret_cast<__m512i *>(d + i), a);
        _mm512_stream_si512(reinterpret_cast<__m512i *>(d + i + 64), b);
        _mm512_stream_si512(reinterpret_cast<__m512i *>(d + i + 128), c);
        _mm512_stream_si512(reinterpret_cast<__m512i *>(d + i + 192), e);
    }
    for (; i + 64 <= n; i += 64) _mm512_stream_si512(reinterpret_cast<__m512i *>(d + i), _mm512_loadu_si512(s + i));
    if (i < n) std::memcpy(d + i, s + i, n - i);
}

// GM -> local: plain loads and stores, 256 bytes per step (the local tile is read again at once).
// Each step also prefetches, into L2, the bytes one copy length further on: a tile loop's next
// load of this stream, which then arrives while this tile computes and stores instead of stalling
// the next copy (measured: 5-15% less CPU per 16M-element add, cast and exp). A prefetch never
// faults and changes no value: past the end of a tensor it only costs a wasted line fetch.
template <bool Prefetch = true>
__attribute__((target("avx512f"))) inline void gm_load_avx512(uint8_t *d, const uint8_t *s, uint64_t n) {
    uint64_t i = 0;
    const uintptr_t next = reinterpret_cast<uintptr_t>(s) + n;  // an address, maybe past the tensor
    for (; i + 256 <= n; i += 256) {
        for (uint64_t line = 0; Prefetch && line < 256; line += 64) {
            _mm_prefetch(reinterpret_cast<const char *>(next + i + line), _MM_HINT_T1);
        }
        const __m512i a = _mm512_loadu_si512(s + i), b = _mm512_loadu_si512(s + i + 64);
        const __m512i c = _mm512_loadu_si512(s + i + 128), e = _mm512_loadu_si512(s + i + 192);
        _mm512_storeu_si512(d + i, a);
        _mm512_storeu_si512(d + i + 64, b);
        _mm512_storeu_si512(d + i + 128, c);
        _mm512_storeu_si512(d + i + 192, e);
    }
    if (i < n) std::memcpy(d + i, s + i, n - i);
}

// The same with AVX2 (no AVX-512F): 256 bytes per step in 32-byte registers, the same prefetch
// (Prefetch false: none, gm_load_tile prefetches the next tile itself).
template <bool Prefetch = true>
__attribute__((target("avx2"))) inline void gm_load_avx2(uint8_t *d, const uint8_t *s, uint64_t n) {
    uint64_t i = 0;
    const uintptr_t next = reinterpret_cast<uintptr_t>(s) + n;
    for (; i + 256 <= n; i += 256) {
        for (uint64_t line = 0; Prefetch && line < 256; line += 64) {
            _mm_prefetch(reinterpret_cast<const char *>(next + i + line), _MM_HINT_T1);
        }
        __m256i v[8];
        for (int k = 0; k < 8; ++k) v[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(s + i + 32 * k));
        for (int k = 0; k < 8; ++k) _mm256_storeu_si256(reinterpret_cast<__m256i *>(d + i + 32 * k), v[k]);
    }
    if (i < n) std::memcpy(d + i, s + i, n - i);
}

inline void gm_stream_sse2(uint8_t *d, const uint8_t *s, uint64_t n) {
    uint64_t i = 0;
    for (; i + 64 <= n; i += 64) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i + 16));
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i + 32));
        const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i + 48));
        _mm_stream_si128(reinterpret_cast<__m128i *>(d + i), a);
        _mm_stream_si128(reinterpret_cast<__m128i *>(d + i + 16), b);
        _mm_stream_si128(reinterpret_cast<__m128i *>(d + i + 32), c);
        _mm_stream_si128(reinterpret_cast<__m128i *>(d + i + 48), e);
    }
    if (i < n) std::memcpy(d + i, s + i, n - i);
}
#endif

// gm_copy for an x86 level (simd::x86_level(): 2 AVX-512F, else the SSE2 loop); a test runs both.
inline void gm_copy_at(int level, void *dst, const void *src, uint64_t bytes) {
#ifdef PYASC_SIM_X86
    if (bytes >= kGmStreamMinBytes) {
        uint8_t *d = static_cast<uint8_t *>(dst);
        const uint8_t *s = static_cast<const uint8_t *>(src);
        const uint64_t head = (64 - reinterpret_cast<uintptr_t>(d) % 64) % 64;  // to a 64-byte line of dst
        std::memcpy(d, s, head);
        if (level == 2) {
            gm_stream_avx512(d + head, s + head, bytes - head);
        } else {
            gm_stream_sse2(d + head, s + head, bytes - head);
        }
        gm_fence_pending() = true;  // the sfence: gm_fence(), at the next synchronising point
        return;
    }
#endif
    (void)level;
    if (bytes != 0) std::memcpy(dst, src, bytes);
}

// dst <- src, `bytes` bytes; the ranges must not overlap (GM and a core's local memory never do).
inline void gm_copy(void *dst, const void *src, uint64_t bytes) {
#ifdef PYASC_SIM_X86
    gm_copy_at(simd::x86_level(), dst, src, bytes);
#else
    gm_copy_at(0, dst, src, bytes);
#endif
}

// GM -> local memory, `bytes` bytes (non-overlapping ranges).
inline void gm_load(void *dst, const void *src, uint64_t bytes) {
#ifdef PYASC_SIM_X86
    if (bytes >= kGmStreamMinBytes) {
        const int level = simd::x86_level();
        if (level == 2) return gm_load_avx512(static_cast<uint8_t *>(dst), static_cast<const uint8_t *>(src), bytes);
        if (level == 1) return gm_load_avx2(static_cast<uint8_t *>(dst), static_cast<const uint8_t *>(src), bytes);
    }
#endif
    if (bytes != 0) std::memcpy(dst, src, bytes);
}

// gm_load of a tile by block b (DataCopy GM -> local), whose next tile is prefetched while this one
// computes rather than while it copies: the copy prefetches nothing and leaves the bytes one copy
// length further on pending, fed to the memory system by the block's later work -- on AVX2 by each
// instruction it charges (state.h, charge: kPrefetchLinesPerInstr lines), on AVX2 and AVX-512 by
// float Exp / Ln, which run in fed_run's steps (a line per line they read). The next tile's memory
// traffic then overlaps the vector work between the copies instead of the copy (gm_load's in-copy
// prefetch made each copy wait for the next tile's lines as well as its own: on the AVX2 VM of round
// 32 the GM -> UB copies were ~25% of softmax's device CPU; on round 36's AVX-512 VM, where bursts of
// 32 lines per charged instruction gained nothing, fed_run's rate cut a 16M exp's device CPU ~10%).
// A block whose loads come before its instructions have fed the last tile's prefetch (several tiles
// loaded back to back, as an elementwise kernel's inputs) keeps gm_load's in-copy prefetch. The bytes
// copied are gm_load's.
inline void gm_load_tile(BlockState &b, void *dst, const void *src, uint64_t bytes) {
#ifdef PYASC_SIM_X86
    const int level = bytes >= kGmStreamMinBytes && !b.pf_inline ? simd::x86_level() : 0;
    if (level >= 1) {
        if (b.pf_next < b.pf_end) {  // the last tile's prefetch is not fed yet: its rest now
            prefetch_pending(b, b.pf_end - b.pf_next);
            b.pf_next = b.pf_end = 0;
            // twice (not once: a kernel's setup loads, e.g. a norm's weight then bias, come back to back
            // once): this block's loop loads too close together, gm_load's in-copy prefetch from now on
            if (++b.pf_early >= 2) {
                b.pf_inline = true;
                return gm_load(dst, src, bytes);
            }
        }
        if (level == 2) {
            gm_load_avx512<false>(static_cast<uint8_t *>(dst), static_cast<const uint8_t *>(src), bytes);
        } else {
            gm_load_avx2<false>(static_cast<uint8_t *>(dst), static_cast<const uint8_t *>(src), bytes);
        }
        b.pf_drip = level == 1;
        b.pf_next = reinterpret_cast<uintptr_t>(src) + bytes;
        b.pf_end = b.pf_next + bytes;
        return;
    }
#endif
    (void)b;
    gm_load(dst, src, bytes);
}

}  // namespace kapi
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_GM_COPY_H_
