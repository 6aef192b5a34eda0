// Unit test of the kernel API's GM byte copies (kapi/gm_copy.h): the streaming-store and the load
// paths write exactly memcpy's bytes, and nothing outside the destination range, for every size
// around the streaming threshold and every alignment of the destination within a 64-byte line; a
// streamed copy leaves its sfence pending until gm_fence() (the deferred fence), a small one none;
// gm_load_tile (DataCopy GM -> local) copies the same bytes and, on an AVX2 or AVX-512 machine,
// leaves the next tile's prefetch pending for the block's instructions to feed (every charged
// instruction on AVX2: prefetch_pending; on both, fed_run's steps at the rate an instruction reads),
// falling back to gm_load's in-copy prefetch after two loads that came early; fed_run covers its range
// once, in order, and the float Exp / Ln it runs in steps give the bits of one whole pass.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "pyasc_sim/kapi/gm_copy.h"

namespace {

int g_failures = 0;

// Copies n bytes with `copy` from src + so to dst + dof and compares the whole destination buffer
// with what memcpy gives.
template <class F>
void check_copy(const char *name, F copy, size_t n, size_t so, size_t dof) {
    const size_t pad = 256;
    std::vector<unsigned char> src(n + so + pad), want(n + dof + 2 * pad), got(want.size());
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>((i * 131u + n) & 0xff);
    for (size_t i = 0; i < want.size(); ++i) want[i] = got[i] = static_cast<unsigned char>(0xa5 ^ i);
    std::memcpy(want.data() + pad + dof, src.data() + so, n);
    copy(got.data() + pad + dof, src.data() + so, n);
    if (got != want) {
        std::fprintf(stderr, "%s: %zu bytes, src offset %zu, dst offset %zu: bytes differ from memcpy\n", name, n, so,
                     dof);
        ++g_failures;
    }
}

}  // namespace

int main() {
    using namespace pyasc_sim::kapi;
    const size_t sizes[] = {0, 1, 31, 32, 63, 64, 255, 256, 4095, 4096, 4097, 4160, 5000, 16384, 16384 + 17, 65536 + 100};
    for (size_t n : sizes) {
        for (size_t dof = 0; dof < 72; dof += 9) {
            for (size_t so = 0; so < 4; ++so) {
                check_copy("gm_copy", [](void *d, const void *s, size_t k) { gm_copy(d, s, k); }, n, so, dof);
                check_copy("gm_load", [](void *d, const void *s, size_t k) { gm_load(d, s, k); }, n, so, dof);
                check_copy("gm_load_tile", [](void *d, const void *s, size_t k) {
                    BlockState b;
                    gm_load_tile(b, d, s, k);
                }, n, so, dof);
                check_copy("gm_load_tile (in-copy prefetch)", [](void *d, const void *s, size_t k) {
                    BlockState b;
                    b.pf_inline = true;
                    gm_load_tile(b, d, s, k);
                }, n, so, dof);
                check_copy("gm_copy (SSE2)", [](void *d, const void *s, size_t k) { gm_copy_at(0, d, s, k); }, n, so,
                           dof);
#ifdef PYASC_SIM_X86
                if (pyasc_sim::simd::x86_level() == 2) {
                    check_copy("gm_copy (AVX-512)", [](void *d, const void *s, size_t k) { gm_copy_at(2, d, s, k); },
                               n, so, dof);
                    check_copy("gm_load_avx512", [](void *d, const void *s, size_t k) {
                        gm_load_avx512(static_cast<uint8_t *>(d), static_cast<const uint8_t *>(s), k);
                    }, n, so, dof);
                }
                if (pyasc_sim::simd::x86_level() >= 1) {  // the load for AVX2 machines without AVX-512F
                    check_copy("gm_load_avx2", [](void *d, const void *s, size_t k) {
                        gm_load_avx2(static_cast<uint8_t *>(d), static_cast<const uint8_t *>(s), k);
                    }, n, so, dof);
                }
#endif
            }
        }
    }
#ifdef PYASC_SIM_X86
    {  // the deferred sfence: set by a streamed copy, cleared by gm_fence(); small copies set nothing
        std::vector<unsigned char> a(8192, 1), b(8192, 0);
        gm_fence();
        gm_copy(b.data(), a.data(), 100);
        if (gm_fence_pending()) {
            std::fprintf(stderr, "gm_copy of 100 bytes (plain stores) left an sfence pending\n");
            ++g_failures;
        }
        gm_copy(b.data(), a.data(), b.size());
        if (!gm_fence_pending()) {
            std::fprintf(stderr, "gm_copy of %zu bytes (streamed) left no sfence pending\n", b.size());
            ++g_failures;
        }
        gm_fence();
        if (gm_fence_pending() || b != a) {
            std::fprintf(stderr, "gm_fence() left the sfence pending, or the streamed bytes differ\n");
            ++g_failures;
        }
    }
#endif
#ifdef PYASC_SIM_X86
    {  // gm_load_tile's pending prefetch of the next tile (AVX2 or AVX-512F; fed per instruction on AVX2 only)
        const bool pending = pyasc_sim::simd::x86_level() >= 1;
        const bool every = pyasc_sim::simd::x86_level() == 1;
        std::vector<unsigned char> src(4 * 8192, 3), dst(8192, 0);
        const uintptr_t s0 = reinterpret_cast<uintptr_t>(src.data());
        BlockState b;
        auto expect = [&](const char *what, uintptr_t next, uintptr_t end, bool inl) {
            if (b.pf_next != next || b.pf_end != end || b.pf_inline != inl) {
                std::fprintf(stderr, "gm_load_tile, %s: pending [%#zx, %#zx) inline %d, want [%#zx, %#zx) inline %d\n", what,
                             static_cast<size_t>(b.pf_next), static_cast<size_t>(b.pf_end), b.pf_inline ? 1 : 0,
                             static_cast<size_t>(next), static_cast<size_t>(end), inl ? 1 : 0);
                ++g_failures;
            }
        };
        gm_load_tile(b, dst.data(), src.data(), 100);  // below kGmStreamMinBytes: nothing pending
        expect("a 100-byte load", 0, 0, false);
        gm_load_tile(b, dst.data(), src.data(), 8192);
        expect("the first tile", pending ? s0 + 8192 : 0, pending ? s0 + 16384 : 0, false);
        if (b.pf_drip != every) {
            std::fprintf(stderr, "gm_load_tile: pf_drip %d, want %d (charge feeds the tile on AVX2 only)\n", b.pf_drip ? 1 : 0,
                         every ? 1 : 0);
            ++g_failures;
        }
        prefetch_pending(b);  // one instruction: the next kPrefetchLinesPerInstr lines
        expect("one instruction later", pending ? s0 + 8192 + 64 * kPrefetchLinesPerInstr : 0, pending ? s0 + 16384 : 0, false);
        for (int i = 0; i < 8; ++i) prefetch_pending(b);  // 8192 bytes = 128 lines: all fed
        expect("its prefetch fed", pending ? s0 + 16384 : 0, pending ? s0 + 16384 : 0, false);
        gm_load_tile(b, dst.data(), src.data() + 8192, 8192);  // the next tile: after its prefetch
        expect("the second tile", pending ? s0 + 16384 : 0, pending ? s0 + 24576 : 0, false);
        gm_load_tile(b, dst.data(), src.data() + 16384, 8192);  // early once: the rest issued, still fed per instruction
        expect("an early load", pending ? s0 + 24576 : 0, pending ? s0 + 32768 : 0, false);
        gm_load_tile(b, dst.data(), src.data() + 24576, 8192);  // early twice: in-copy prefetch from now on
        expect("a second early load", 0, 0, pending);
        if (std::memcmp(dst.data(), src.data() + 24576, 8192) != 0) {
            std::fprintf(stderr, "gm_load_tile: the bytes differ from the source\n");
            ++g_failures;
        }
    }
    {  // fed_run: its range once, in order, in steps of kFeedStepBytes of input, each feeding as many bytes
        BlockState b;
        std::vector<unsigned char> next(8192, 1);
        const uintptr_t n0 = reinterpret_cast<uintptr_t>(next.data());
        int64_t covered = 0, calls = 0;
        bool ordered = true;
        auto run = [&](int64_t i, int64_t m) {
            ordered = ordered && i == covered;
            covered += m;
            ++calls;
        };
        fed_run(b, 1000, 4, run);  // nothing pending: one call
        if (covered != 1000 || calls != 1 || !ordered) {
            std::fprintf(stderr, "fed_run with nothing pending: %lld elements in %lld calls, want 1000 in 1\n",
                         static_cast<long long>(covered), static_cast<long long>(calls));
            ++g_failures;
        }
        b.pf_next = n0;
        b.pf_end = n0 + 8192;
        covered = calls = 0;
        fed_run(b, 1000, 4, run);  // 4000 bytes of input: 8 steps (7 of 128 elements, then 104), 8 x 512 bytes fed
        const int64_t steps = (1000 * 4 + kFeedStepBytes - 1) / kFeedStepBytes;
        if (covered != 1000 || calls != steps || !ordered || b.pf_next != n0 + static_cast<uintptr_t>(steps * kFeedStepBytes)) {
            std::fprintf(stderr, "fed_run: %lld elements in %lld calls, %zu bytes fed; want 1000 in %lld, %lld\n",
                         static_cast<long long>(covered), static_cast<long long>(calls), static_cast<size_t>(b.pf_next - n0),
                         static_cast<long long>(steps), static_cast<long long>(steps * kFeedStepBytes));
            ++g_failures;
        }
        covered = calls = 0;
        fed_run(b, 4096, 4, run);  // 4096 bytes pending were left: the steps stop feeding at the tile's end
        if (covered != 4096 || !ordered || b.pf_next != b.pf_end) {
            std::fprintf(stderr, "fed_run past the tile's end: %lld elements, pending [%#zx, %#zx)\n", static_cast<long long>(covered),
                         static_cast<size_t>(b.pf_next), static_cast<size_t>(b.pf_end));
            ++g_failures;
        }
        // Exp / Ln in steps: the bits of one pass (every element alone), in and out of place
        std::vector<float> x(4099), whole(x.size()), stepped(x.size()), inplace;
        for (size_t i = 0; i < x.size(); ++i) x[i] = (static_cast<float>(i % 997) - 400.0f) * 0.173f + (i % 7 == 0 ? 1e-30f : 0.0f);
        for (int ln = 0; ln < 2; ++ln) {
            auto op = [ln](float *d, const float *s, int64_t m) {
                ln ? pyasc_sim::simd::log_f32(d, s, m) : pyasc_sim::simd::exp_f32(d, s, m);
            };
            op(whole.data(), x.data(), static_cast<int64_t>(x.size()));
            b.pf_next = n0;
            b.pf_end = n0 + 8192;
            fed_run(b, static_cast<int64_t>(x.size()), 4, [&](int64_t i, int64_t m) { op(stepped.data() + i, x.data() + i, m); });
            inplace = x;
            b.pf_next = n0;
            fed_run(b, static_cast<int64_t>(x.size()), 4, [&](int64_t i, int64_t m) { op(inplace.data() + i, inplace.data() + i, m); });
            if (std::memcmp(whole.data(), stepped.data(), 4 * x.size()) != 0 || std::memcmp(whole.data(), inplace.data(), 4 * x.size()) != 0) {
                std::fprintf(stderr, "%s in fed_run's steps: bits differ from one pass\n", ln ? "Ln" : "Exp");
                ++g_failures;
            }
        }
    }
#endif
    if (g_failures != 0) {
        std::fprintf(stderr, "%d failure(s)\n", g_failures);
        return 1;
    }
    std::printf("gm_copy: all sizes and alignments match memcpy\n");
    return 0;
}
