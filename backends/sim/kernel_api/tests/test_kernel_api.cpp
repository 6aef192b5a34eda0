// Tests of the Ascend C kernel API on the CPU: kernels under tests/kernels/ (plain Ascend C
// sources, built into simulator kernel binaries) are launched through the simulated ACL runtime
// (aclrtBinaryLoadFromFile / aclrtBinaryGetFunction / aclrtLaunchKernelWithHostArgs) and checked
// against scalar C++ references; deliberately wrong kernels (tests/kernels/sanitizer.cpp, whose
// every check tests/test_sim_sanitizer.py covers) show the checks switch and a short argument blob.
// Prints "N passed, M failed" last; exits non-zero on failure.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "pyasc/acl_abi.h"
#include "pyasc_sim/kapi/base.h"  // half, bfloat16_t

#ifndef PYASC_SIM_KAPI_KERNEL_DIR
#error "PYASC_SIM_KAPI_KERNEL_DIR must name the directory of the test kernel binaries"
#endif

namespace {

int g_pass = 0;
int g_fail = 0;

void failf(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void failf(const char *file, int line, const char *fmt, ...) {
    ++g_fail;
    std::fprintf(stderr, "%s:%d: FAILED: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    std::vfprintf(stderr, fmt, ap);
    va_end(ap);
    std::fprintf(stderr, "\n");
}
#define CHECK(cond)                                        \
    do {                                                   \
        if (cond) {                                        \
            ++g_pass;                                      \
        } else {                                           \
            failf(__FILE__, __LINE__, "CHECK(%s)", #cond); \
        }                                                  \
    } while (0)
#define CHECK_ACL(expr)                                                                                      \
    do {                                                                                                     \
        aclError e_ = (expr);                                                                                \
        if (e_ == ACL_SUCCESS) {                                                                             \
            ++g_pass;                                                                                        \
        } else {                                                                                             \
            const char *m_ = aclGetRecentErrMsg();                                                           \
            failf(__FILE__, __LINE__, "%s returned %d: %s", #expr, static_cast<int>(e_), m_ ? m_ : "(none)"); \
        }                                                                                                    \
    } while (0)

uint64_t u64(const void *p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }

// ---- device helpers ---------------------------------------------------------------------------
void *dalloc(size_t bytes) {
    void *d = nullptr;
    if (aclrtMalloc(&d, bytes == 0 ? 32 : bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        std::fprintf(stderr, "aclrtMalloc(%zu) failed: %s\n", bytes, aclGetRecentErrMsg());
        std::exit(2);
    }
    return d;
}
template <typename T>
void *upload(const std::vector<T> &h) {
    void *d = dalloc(h.size() * sizeof(T));
    if (!h.empty()) aclrtMemcpy(d, h.size() * sizeof(T), h.data(), h.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE);
    return d;
}
template <typename T>
std::vector<T> download(const void *d, size_t n) {
    std::vector<T> h(n);
    if (n != 0) aclrtMemcpy(h.data(), n * sizeof(T), d, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST);
    return h;
}

std::map<std::string, aclrtBinHandle> g_bins;
aclrtFuncHandle function(const std::string &binary, const char *name) {
    aclrtBinHandle &bin = g_bins[binary];
    if (bin == nullptr) {
        const std::string path = std::string(PYASC_SIM_KAPI_KERNEL_DIR) + "/" + binary + ".so";
        if (aclrtBinaryLoadFromFile(path.c_str(), nullptr, &bin) != ACL_SUCCESS) {
            std::fprintf(stderr, "cannot load %s: %s\n", path.c_str(), aclGetRecentErrMsg());
            std::exit(2);
        }
    }
    aclrtFuncHandle f = nullptr;
    if (aclrtBinaryGetFunction(bin, name, &f) != ACL_SUCCESS) {
        std::fprintf(stderr, "no kernel %s in %s: %s\n", name, binary.c_str(), aclGetRecentErrMsg());
        std::exit(2);
    }
    return f;
}

struct Result {
    aclError code = ACL_SUCCESS;
    std::string message;
};

// Launches and synchronizes; returns the code aclrtSynchronizeStream reported and its message.
Result run(const std::string &binary, const char *name, uint32_t blocks, std::vector<uint64_t> args,
           aclrtStream stream = nullptr) {
    aclrtFuncHandle f = function(binary, name);
    Result r;
    aclError e = aclrtLaunchKernelWithHostArgs(f, blocks, stream, nullptr, args.empty() ? nullptr : args.data(),
                                               args.size() * 8, nullptr, 0);
    if (e != ACL_SUCCESS) {
        r.code = e;
        const char *m = aclGetRecentErrMsg();
        r.message = m ? m : "";
        return r;
    }
    r.code = aclrtSynchronizeStream(stream);
    if (r.code != ACL_SUCCESS) {
        const char *m = aclGetRecentErrMsg();
        r.message = m ? m : "";
    }
    return r;
}
#define CHECK_RUN(res)                                                                                  \
    do {                                                                                                \
        const Result &r_ = (res);                                                                       \
        if (r_.code == ACL_SUCCESS) {                                                                   \
            ++g_pass;                                                                                   \
        } else {                                                                                        \
            failf(__FILE__, __LINE__, "launch failed with %d: %s", static_cast<int>(r_.code), r_.message.c_str()); \
        }                                                                                               \
    } while (0)

float hf(half h) { return static_cast<float>(h); }

bool close(double got, double want, double rtol, double atol) {
    if (std::isnan(want)) return std::isnan(got);
    if (std::isinf(want)) return got == want;
    return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

// ---- vector add (tests/kernels/vadd.cpp): multi-core, double buffering, DataCopyPad tails ----------
void test_vector_add() {
    std::mt19937 rng(1);
    std::uniform_real_distribution<float> dist(-100.f, 100.f);
    const size_t sizes[] = {0, 1, 7, 31, 32, 33, 255, 256, 257, 4097, 100003};
    const uint32_t blocks[] = {1, 8, 48, 100};
    for (size_t n : sizes) {
        for (uint32_t nb : blocks) {
            std::vector<float> x(n), y(n);
            for (size_t i = 0; i < n; ++i) {
                x[i] = dist(rng);
                y[i] = dist(rng);
            }
            void *dx = upload(x), *dy = upload(y), *dz = upload(std::vector<float>(n, -7.f));
            Result r = run("kapi_vadd", "vadd_float", nb, {u64(dx), u64(dy), u64(dz), n, 256});
            CHECK_RUN(r);
            std::vector<float> z = download<float>(dz, n);
            size_t bad = 0;
            for (size_t i = 0; i < n; ++i) bad += z[i] != x[i] + y[i];
            if (bad != 0) failf(__FILE__, __LINE__, "vadd_float n=%zu blocks=%u: %zu wrong elements", n, nb, bad);
            else ++g_pass;
            aclrtFree(dx);
            aclrtFree(dy);
            aclrtFree(dz);
        }
    }
    // half
    for (size_t n : {size_t(17), size_t(4097)}) {
        std::vector<half> x(n), y(n);
        for (size_t i = 0; i < n; ++i) {
            x[i] = static_cast<half>(dist(rng));
            y[i] = static_cast<half>(dist(rng));
        }
        void *dx = upload(x), *dy = upload(y), *dz = dalloc(n * sizeof(half));
        CHECK_RUN(run("kapi_vadd", "vadd_half", 8, {u64(dx), u64(dy), u64(dz), n, 512}));
        std::vector<half> z = download<half>(dz, n);
        size_t bad = 0;
        for (size_t i = 0; i < n; ++i) bad += hf(z[i]) != hf(static_cast<half>(hf(x[i]) + hf(y[i])));
        CHECK(bad == 0);
        aclrtFree(dx);
        aclrtFree(dy);
        aclrtFree(dz);
    }
}

// ---- cost model: simulated time is positive and grows with the work ------------------------------
float timed_add(size_t n, uint32_t blocks, aclrtStream s) {
    std::vector<float> x(n, 1.f);
    void *dx = upload(x), *dy = upload(x), *dz = dalloc(n * sizeof(float));
    aclrtEvent e0 = nullptr, e1 = nullptr;
    CHECK_ACL(aclrtCreateEvent(&e0));
    CHECK_ACL(aclrtCreateEvent(&e1));
    CHECK_ACL(aclrtRecordEvent(e0, s));
    aclrtFuncHandle f = function("kapi_vadd", "vadd_float");
    std::vector<uint64_t> args = {u64(dx), u64(dy), u64(dz), n, 1024};
    CHECK_ACL(aclrtLaunchKernelWithHostArgs(f, blocks, s, nullptr, args.data(), args.size() * 8, nullptr, 0));
    CHECK_ACL(aclrtRecordEvent(e1, s));
    CHECK_ACL(aclrtSynchronizeStream(s));
    float ms = -1.f;
    CHECK_ACL(aclrtEventElapsedTime(&ms, e0, e1));
    aclrtDestroyEvent(e0);
    aclrtDestroyEvent(e1);
    aclrtFree(dx);
    aclrtFree(dy);
    aclrtFree(dz);
    return ms;
}

void test_cost_model() {
    aclrtStream s = nullptr;
    CHECK_ACL(aclrtCreateStream(&s));
    const float small = timed_add(4096, 8, s);
    const float big = timed_add(1 << 22, 8, s);
    const float big48 = timed_add(1 << 22, 48, s);
    const float waves = timed_add(1 << 22, 96, s);  // two waves of 48 blocks of half the work each
    std::printf("cost model: add 4096 floats / 8 blocks = %.6f ms; 4M floats / 8 blocks = %.6f ms; "
                "/ 48 blocks = %.6f ms; / 96 blocks = %.6f ms\n", small, big, big48, waves);
    CHECK(small > 0.f);
    CHECK(big > small * 10);
    CHECK(big48 < big);
    CHECK(waves > 0.f);
    aclrtDestroyStream(s);
}

// Wall-clock throughput of the simulator itself (informational): z = x + y on 16M floats,
// 48 blocks, with the sanitizer on and off, next to a plain C++ loop.
void report_throughput() {
    const size_t n = size_t(1) << 24;
    std::vector<float> x(n, 1.f);
    void *dx = upload(x), *dy = upload(x), *dz = dalloc(n * sizeof(float));
    std::vector<uint64_t> args = {u64(dx), u64(dy), u64(dz), n, 4096};
    auto timed = [&](const char *checks) {
        setenv("PYASC_SIM_CHECKS", checks, 1);
        run("kapi_vadd", "vadd_float", 48, args);  // warm-up: first touch of pages, arenas
        double best = 1e30;
        for (int i = 0; i < 3; ++i) {
            const auto t0 = std::chrono::steady_clock::now();
            CHECK_RUN(run("kapi_vadd", "vadd_float", 48, args));
            best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        }
        unsetenv("PYASC_SIM_CHECKS");
        return best;
    };
    const double on = timed("1"), off = timed("0");
    std::vector<float> y(n, 2.f), z(n);
    double loop = 1e30;
    for (int i = 0; i < 3; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        for (size_t k = 0; k < n; ++k) z[k] = x[k] + y[k];
        loop = std::min(loop, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    const double gb = 3.0 * n * sizeof(float) / 1e9;
    std::printf("throughput: add 16M floats, 48 blocks: checks on %.2f ms (%.1f GB/s), checks off %.2f ms (%.1f GB/s); "
                "plain 1-thread loop %.2f ms (%.1f GB/s) [z=%g]\n",
                on * 1e3, gb / on, off * 1e3, gb / off, loop * 1e3, gb / loop, static_cast<double>(z[n - 1]));
    aclrtFree(dx);
    aclrtFree(dy);
    aclrtFree(dz);
}

// ---- mask / repeat forms ------------------------------------------------------------------------
void test_mask_repeat() {
    std::mt19937 rng(2);
    std::uniform_real_distribution<float> dist(-3.f, 3.f);
    std::vector<float> x(512), y(512);
    for (int i = 0; i < 512; ++i) {
        x[i] = dist(rng);
        y[i] = dist(rng);
        if (std::fabs(y[i]) < 0.1f) y[i] = 0.5f;
    }
    void *dx = upload(x), *dy = upload(y), *dout = dalloc(1024 * sizeof(float));
    CHECK_RUN(run("kapi_mask_repeat", "mask_ops", 1, {u64(dx), u64(dy), u64(dout)}));
    std::vector<float> got = download<float>(dout, 1024);
    // Reference: the same program, written out with explicit index arithmetic (E = 8 floats per block).
    std::vector<float> o(1024, -1.f);
    for (int r = 0; r < 4; ++r)
        for (int i = 0; i < 40; ++i) o[r * 64 + i] = x[r * 64 + i] + y[r * 64 + i];
    for (int r = 0; r < 2; ++r)
        for (int i = 0; i < 64; i += 2) {
            const int b = i / 8, e = i % 8;
            o[256 + r * 64 + i] = x[r * 128 + b * 16 + e] * y[r * 64 + i];
        }
    for (int i = 0; i < 128; ++i) o[384 + i] = std::exp(x[i]);
    for (int r = 0; r < 2; ++r)
        for (int i = 0; i < 32; ++i) o[384 + r * 64 + i] = std::max(o[384 + r * 64 + i], 0.f);
    for (int r = 0; r < 2; ++r)
        for (int i = 0; i < 64; ++i) o[512 + r * 64 + i] = std::fabs(y[r * 128 + i]);
    for (int r = 0; r < 2; ++r)
        for (int i = 0; i < 16; ++i) o[640 + r * 64 + i] = x[r * 64 + i] + 10.f;
    for (int i = 0; i < 48; ++i) o[704 + i] = y[i] * 3.f;
    for (int r = 0; r < 2; ++r)
        for (int i = 0; i < 32; ++i) o[768 + r * 128 + (i / 8) * 16 + i % 8] = 7.f;
    for (int i = 0; i < 64; ++i) o[896 + i] = std::max(x[i], y[i]);
    for (int i = 0; i < 32; ++i) o[960 + i] = x[64 + i] - y[64 + i];
    for (int i = 0; i < 32; ++i) o[992 + i] = x[128 + i] / y[128 + i];
    int bad = 0;
    for (int i = 0; i < 1024; ++i) {
        if (!close(got[i], o[i], 1e-6, 0)) {
            if (bad < 5) std::fprintf(stderr, "mask_ops[%d] = %g, want %g\n", i, got[i], o[i]);
            ++bad;
        }
    }
    CHECK(bad == 0);
    aclrtFree(dx);
    aclrtFree(dy);
    aclrtFree(dout);
}

// ---- Cast with RoundMode ------------------------------------------------------------------------
// All finite half values, sorted: the reference picks neighbours by search, independently of the
// kernel API's bit arithmetic.
std::vector<std::pair<double, uint16_t>> half_table() {
    std::vector<std::pair<double, uint16_t>> t;
    for (uint32_t b = 0; b < 65536; ++b) {
        const uint16_t bits = static_cast<uint16_t>(b);
        half h;
        std::memcpy(&h, &bits, 2);
        const double v = static_cast<double>(static_cast<float>(h));
        if (std::isfinite(v) && !(v == 0 && (bits & 0x8000u))) t.push_back({v, bits});
    }
    std::sort(t.begin(), t.end());
    return t;
}

double ref_half(const std::vector<std::pair<double, uint16_t>> &t, double x, int mode) {
    auto hi_it = std::lower_bound(t.begin(), t.end(), std::make_pair(x, uint16_t(0)));
    if (hi_it != t.end() && hi_it->first == x) return x;
    const auto lo = *(hi_it - 1), hi = *hi_it;
    switch (mode) {
        case 2: return lo.first;                          // FLOOR
        case 3: return hi.first;                          // CEIL
        case 5: return x > 0 ? lo.first : hi.first;       // TRUNC
        case 6: return (lo.second & 1u) ? lo.first : hi.first;  // ODD
        case 4: {                                         // ROUND: ties away from zero
            const double dl = x - lo.first, dh = hi.first - x;
            return dl < dh ? lo.first : dh < dl ? hi.first : (x > 0 ? hi.first : lo.first);
        }
        default: {                                        // NONE, RINT: ties to even
            const double dl = x - lo.first, dh = hi.first - x;
            return dl < dh ? lo.first : dh < dl ? hi.first : ((lo.second & 1u) ? hi.first : lo.first);
        }
    }
}

void test_cast() {
    const int N = 256;
    std::vector<float> x = {0.f, 1.f, -1.f, 1.f + 1.f / 2048, 1.f + 3.f / 2048, -(1.f + 1.f / 2048), 2.5f, -2.5f,
                            0.5f, 1.5f, -1.5f, 3.5f, -0.5f, 1e-5f, -1e-5f, 6e-8f, 1.f / 3, -1.f / 3, 1000.7f,
                            -1000.7f, 2049.f, 2051.f, -2049.f, 12345.678f, -0.1f, 65504.f, -65504.f, 34000.3f,
                            0.099975586f, 4097.f, 7.49999f, -7.5f};
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> dist(-300.f, 300.f);
    // float -> int saturates (Ascend C's conversion rules): NaN -> 0, +-inf and out of range -> max/min
    const std::vector<float> special = {std::nanf(""), -std::nanf(""), INFINITY, -INFINITY, 3e9f, -3e9f,
                                        2147483520.f, -2147483648.f, 1e38f, -1e38f};
    const int first_special = N - static_cast<int>(special.size());
    while (static_cast<int>(x.size()) < first_special) x.push_back(dist(rng));
    x.insert(x.end(), special.begin(), special.end());
    void *dx = upload(x), *dh = dalloc(7 * N * 2), *di = dalloc(5 * N * 4), *db = dalloc(N * 2), *dback = dalloc(N * 4);
    CHECK_RUN(run("kapi_cast", "cast_kernel", 1, {u64(dx), u64(dh), u64(di), u64(db), u64(dback)}));
    std::vector<half> h = download<half>(dh, 7 * N);
    std::vector<int32_t> iv = download<int32_t>(di, 5 * N);
    std::vector<bfloat16_t> bv = download<bfloat16_t>(db, N);
    std::vector<float> back = download<float>(dback, N);
    const auto table = half_table();
    int bad = 0;
    for (int m = 0; m < 7; ++m) {
        for (int i = 0; i < first_special; ++i) {
            const double want = ref_half(table, x[i], m);
            if (static_cast<double>(hf(h[m * N + i])) != want) {
                if (bad++ < 8) std::fprintf(stderr, "Cast float->half mode %d: %.9g -> %.9g, want %.9g\n", m, x[i], hf(h[m * N + i]), want);
            }
        }
    }
    for (int m = 0; m < 5; ++m) {
        for (int i = 0; i < N; ++i) {
            const double v = x[i];
            double want = m == 0 ? std::nearbyint(v) : m == 1 ? std::floor(v) : m == 2 ? std::ceil(v)
                          : m == 3 ? std::round(v) : std::trunc(v);
            if (std::isnan(want)) want = 0;
            want = std::min(std::max(want, -2147483648.0), 2147483647.0);
            if (iv[m * N + i] != static_cast<int32_t>(want)) {
                if (bad++ < 8) std::fprintf(stderr, "Cast float->int32 mode %d: %.9g -> %d, want %.0f\n", m, v, iv[m * N + i], want);
            }
        }
    }
    for (int i = 0; i < first_special; ++i) {
        uint32_t u;
        std::memcpy(&u, &x[i], 4);
        const uint32_t lo = u & 0xffff0000u, rem = u & 0xffffu;
        uint32_t want = lo;
        if (rem > 0x8000u || (rem == 0x8000u && (lo & 0x10000u))) want = lo + 0x10000u;
        if (bv[i].bits != static_cast<uint16_t>(want >> 16)) {
            if (bad++ < 8) std::fprintf(stderr, "Cast float->bf16: %.9g -> 0x%04x, want 0x%04x\n", x[i], bv[i].bits, want >> 16);
        }
        if (back[i] != hf(h[i])) {
            if (bad++ < 8) std::fprintf(stderr, "Cast half->float (mask form): %g, want %g\n", back[i], hf(h[i]));
        }
    }
    CHECK(bad == 0);
    aclrtFree(dx);
    aclrtFree(dh);
    aclrtFree(di);
    aclrtFree(db);
    aclrtFree(dback);
}

// ---- reductions ---------------------------------------------------------------------------------
void test_reduce() {
    std::mt19937 rng(4);
    std::uniform_real_distribution<float> dist(-50.f, 50.f);
    std::vector<float> x(1024);
    for (float &v : x) v = dist(rng);
    void *dx = upload(x), *dout = dalloc(64 * 4);
    const uint32_t count = 1000;
    CHECK_RUN(run("kapi_reduce", "reduce_kernel", 1, {u64(dx), u64(dout), count}));
    std::vector<float> o = download<float>(dout, 64);
    double sum = 0;
    for (uint32_t i = 0; i < count; ++i) sum += x[i];
    const auto mx = std::max_element(x.begin(), x.begin() + count);
    const auto mn = std::min_element(x.begin(), x.begin() + count);
    uint32_t imax, imin;
    std::memcpy(&imax, &o[9], 4);
    std::memcpy(&imin, &o[17], 4);
    CHECK(close(o[0], sum, 1e-5, 1e-3));
    CHECK(o[8] == *mx && imax == static_cast<uint32_t>(mx - x.begin()));
    CHECK(o[16] == *mn && imin == static_cast<uint32_t>(mn - x.begin()));
    int bad = 0;
    for (int r = 0; r < 8; ++r) {
        double s = 0;
        for (int i = 0; i < 64; ++i) s += x[r * 64 + i];
        bad += !close(o[24 + r], s, 1e-5, 1e-3);
        const auto m = std::max_element(x.begin() + r * 64, x.begin() + r * 64 + 64);
        uint32_t idx;
        std::memcpy(&idx, &o[32 + 2 * r + 1], 4);
        bad += o[32 + 2 * r] != *m || idx != static_cast<uint32_t>(m - (x.begin() + r * 64));
    }
    double s4 = 0;
    for (int r = 0; r < 4; ++r)
        for (int i = 0; i < 32; ++i) s4 += x[r * 64 + i];
    bad += !close(o[48], s4, 1e-5, 1e-3);
    CHECK(bad == 0);
    aclrtFree(dx);
    aclrtFree(dout);
}

// ---- Compare / Compares + Select (tests/kernels/vector_api.cpp) --------------------------------
void test_compare_select() {
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> dist(-10.f, 10.f);
    const uint32_t N = 256;
    std::vector<float> x(N), y(N);
    for (uint32_t i = 0; i < N; ++i) {
        x[i] = dist(rng);
        y[i] = i % 7 == 0 ? x[i] : dist(rng);
    }
    // compare_select(x, y, bits, z, n, op, fill): op 0 = LT, fill 0.0f (its IEEE bits in the slot)
    void *dx = upload(x), *dy = upload(y), *dmask = dalloc(N / 8), *dz = dalloc(2 * N * 4), *drelu = dalloc(N * 4);
    CHECK_RUN(run("kapi_vector_api", "compare_select", 1, {u64(dx), u64(dy), u64(dmask), u64(dz), N, 0, 0}));
    CHECK_RUN(run("kapi_vector_api", "compares_relu", 1, {u64(dx), u64(drelu), N}));
    std::vector<float> z = download<float>(dz, 2 * N), relu = download<float>(drelu, N);
    std::vector<uint8_t> mask = download<uint8_t>(dmask, N / 8);
    int bad = 0;
    for (uint32_t i = 0; i < N; ++i) {
        bad += z[i] != std::min(x[i], y[i]);
        bad += z[N + i] != (x[i] < y[i] ? x[i] : 0.f);
        bad += relu[i] != (x[i] > 0 ? x[i] : 0.f);
        bad += (((mask[i / 8] >> (i % 8)) & 1) != 0) != (x[i] < y[i]);
    }
    CHECK(bad == 0);
    aclrtFree(dx);
    aclrtFree(dy);
    aclrtFree(dmask);
    aclrtFree(dz);
    aclrtFree(drelu);
}

// ---- every count-form math instruction, float and half ------------------------------------------
double ref_op(int op, double a, double b) {
    switch (op) {
        case 0: return a + b;
        case 1: return a - b;
        case 2: return a * b;
        case 3: return a / b;
        case 4: return std::max(a, b);
        case 5: return std::min(a, b);
        case 6: return std::exp(a);
        case 7: return std::log(b);
        case 8: return std::fabs(a);
        case 9: return std::max(a, 0.0);
        case 10: return std::sqrt(b);
        case 11: return 1.0 / std::sqrt(b);
        case 12: return 1.0 / b;
        case 13: return a + 2.0;
        case 14: return a * 2.0;
        case 15: return std::max(a, 0.25);
        case 16: return std::min(a, 0.25);
        default: return 2.0;
    }
}

void test_math() {
    std::mt19937 rng(6);
    std::uniform_real_distribution<float> da(-2.f, 2.f), db(0.5f, 3.f);
    const uint32_t n = 256;
    std::vector<float> xf(n), yf(n);
    std::vector<half> xh(n), yh(n);
    for (uint32_t i = 0; i < n; ++i) {
        xf[i] = da(rng);
        yf[i] = db(rng);
        xh[i] = static_cast<half>(xf[i]);
        yh[i] = static_cast<half>(yf[i]);
    }
    void *dxf = upload(xf), *dyf = upload(yf), *dzf = dalloc(n * 4);
    void *dxh = upload(xh), *dyh = upload(yh), *dzh = dalloc(n * 2);
    for (int op = 0; op <= 17; ++op) {
        CHECK_RUN(run("kapi_math", "math_float", 1, {u64(dxf), u64(dyf), u64(dzf), static_cast<uint64_t>(op), n}));
        CHECK_RUN(run("kapi_math", "math_half", 1, {u64(dxh), u64(dyh), u64(dzh), static_cast<uint64_t>(op), n}));
        std::vector<float> zf = download<float>(dzf, n);
        std::vector<half> zh = download<half>(dzh, n);
        int bad = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const double wf = ref_op(op, xf[i], yf[i]);
            const double wh = ref_op(op, hf(xh[i]), hf(yh[i]));
            if (!close(zf[i], wf, 2e-7, 1e-30)) {
                if (bad++ < 3) std::fprintf(stderr, "math_float op %d [%u]: %.9g, want %.9g\n", op, i, zf[i], wf);
            }
            if (!close(hf(zh[i]), wh, 1e-3, 1e-6)) {
                if (bad++ < 3) std::fprintf(stderr, "math_half op %d [%u]: %.6g, want %.6g\n", op, i, hf(zh[i]), wh);
            }
        }
        if (bad) failf(__FILE__, __LINE__, "math op %d: %d mismatches", op, bad);
        else ++g_pass;
    }
    aclrtFree(dxf);
    aclrtFree(dyf);
    aclrtFree(dzf);
    aclrtFree(dxh);
    aclrtFree(dyh);
    aclrtFree(dzh);
}

// ---- matmul on the cube path ------------------------------------------------------------------
void matmul_ref(const std::vector<half> &a, const std::vector<half> &b, std::vector<float> &c, int M, int N, int K) {
    c.assign(static_cast<size_t>(M) * N, 0.f);
    for (int m = 0; m < M; ++m)
        for (int n = 0; n < N; ++n) {
            double s = 0;
            for (int k = 0; k < K; ++k) s += static_cast<double>(hf(a[m * K + k])) * hf(b[k * N + n]);
            c[m * N + n] = static_cast<float>(s);
        }
}

void test_matmul() {
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> d(-8, 8);
    {
        const int M = 32, N = 32, K = 32;
        std::vector<half> a(M * K), b(K * N);
        for (half &v : a) v = static_cast<half>(d(rng) / 8.0f);
        for (half &v : b) v = static_cast<half>(d(rng) / 8.0f);
        void *da = upload(a), *db = upload(b), *dc = dalloc(M * N * 4);
        CHECK_RUN(run("kapi_matmul", "matmul_basic", 1, {u64(da), u64(db), u64(dc)}));
        std::vector<float> c = download<float>(dc, M * N), want;
        matmul_ref(a, b, want, M, N, K);
        CHECK(c == want);
        aclrtFree(da);
        aclrtFree(db);
        aclrtFree(dc);
    }
    {
        const int M = 64, N = 96, K = 128;
        std::vector<half> a(M * K), b(K * N);
        for (half &v : a) v = static_cast<half>(d(rng) / 8.0f);
        for (half &v : b) v = static_cast<half>(d(rng) / 8.0f);
        void *da = upload(a), *db = upload(b), *dc = dalloc(M * N * 4);
        const uint32_t blocks = (M / 32) * (N / 32);
        CHECK_RUN(run("kapi_matmul", "matmul_tiled", blocks,
                      {u64(da), u64(db), u64(dc), static_cast<uint64_t>(M), static_cast<uint64_t>(N),
                       static_cast<uint64_t>(K)}));
        std::vector<float> c = download<float>(dc, M * N), want;
        matmul_ref(a, b, want, M, N, K);
        int bad = 0;
        for (int i = 0; i < M * N; ++i) {
            if (c[i] != want[i] && bad++ < 5) std::fprintf(stderr, "matmul_tiled[%d] = %g, want %g\n", i, c[i], want[i]);
        }
        CHECK(bad == 0);
        aclrtFree(da);
        aclrtFree(db);
        aclrtFree(dc);
    }
}

// ---- sanitizer: what tests/test_sim_sanitizer.py does not cover -----------------------------------
// Each check's report (kind, kernel, block, source line, details) is tested from Python on the same
// kernels (tests/kernels/sanitizer.cpp); here: a launch with too few argument bytes, and the switch
// letting wrong-but-tolerated kernels run like hardware (no report) and then checking again.
void expect_failure(const char *kernel, uint32_t blocks, std::vector<uint64_t> args,
                    std::vector<std::string> needles) {
    Result r = run("kapi_sanitizer", kernel, blocks, std::move(args));
    if (r.code != ACL_ERROR_RT_AICORE_EXCEPTION) {
        failf(__FILE__, __LINE__, "%s: expected ACL_ERROR_RT_AICORE_EXCEPTION, got %d (%s)", kernel,
              static_cast<int>(r.code), r.message.c_str());
        return;
    }
    needles.push_back(std::string("kernel ") + kernel + " block ");
    for (const std::string &n : needles) {
        if (r.message.find(n) == std::string::npos) {
            failf(__FILE__, __LINE__, "%s: message lacks '%s': %s", kernel, n.c_str(), r.message.c_str());
            return;
        }
    }
    ++g_pass;
    std::printf("  %-22s -> %s\n", kernel, r.message.c_str());
}

void test_sanitizer() {
    const uint32_t blocks = 3;  // sanitizer.cpp: kChunk = 64 floats per block
    void *x = upload(std::vector<float>(64 * blocks, 1.f));
    void *z = dalloc(64 * blocks * sizeof(float));
    const uint64_t X = u64(x), Z = u64(z);
    std::printf("sanitizer messages:\n");
    // A launch with too few argument bytes.
    expect_failure("copy_count", 1, {X}, {"takes 3 arguments"});

    // The switch: with checks off the same kernels run like on hardware (no report).
    setenv("PYASC_SIM_CHECKS", "0", 1);
    CHECK_RUN(run("kapi_sanitizer", "copy_count", blocks, {X, Z, 12}));    // datacopy-length
    CHECK_RUN(run("kapi_sanitizer", "strided_store", blocks, {Z, 56}));    // gm-write-overlap
    CHECK_RUN(run("kapi_sanitizer", "queue_leak", blocks, {X, Z, 1}));     // queue-leak
    unsetenv("PYASC_SIM_CHECKS");
    expect_failure("copy_count", blocks, {X, Z, 12}, {"'datacopy-length'", "sanitizer.cpp:"});
    expect_failure("strided_store", blocks, {Z, 56}, {"'gm-write-overlap'", "sanitizer.cpp:", "blocks 0 and 1"});
    // queue-leak has severity warning: the launch succeeds and the warning waits for the host
    // (pyascSimTakeWarning); PYASC_SIM_STRICT=1 makes it an error.
    {
        char buf[1024];
        while (pyascSimTakeWarning(buf, sizeof(buf)) == 1) {
        }
        CHECK_RUN(run("kapi_sanitizer", "queue_leak", blocks, {X, Z, 1}));
        CHECK(pyascSimTakeWarning(buf, sizeof(buf)) == 1);
        CHECK(std::strstr(buf, "kernel queue_leak block 1: sanitizer warning 'queue-leak' at ") != nullptr);
        CHECK(std::strstr(buf, "not freed") != nullptr);
        CHECK(pyascSimTakeWarning(buf, sizeof(buf)) == 0);
        setenv("PYASC_SIM_STRICT", "1", 1);
        expect_failure("queue_leak", blocks, {X, Z, 1}, {"'queue-leak'", "sanitizer.cpp:", "not freed"});
        unsetenv("PYASC_SIM_STRICT");
        CHECK(pyascSimTakeWarning(buf, sizeof(buf)) == 0);
    }

    // The device stays usable after kernel exceptions.
    std::vector<float> a(1000, 2.f);
    void *da = upload(a), *dz = dalloc(1000 * 4);
    CHECK_RUN(run("kapi_vadd", "vadd_float", 4, {u64(da), u64(da), u64(dz), 1000, 256}));
    CHECK(download<float>(dz, 1000)[999] == 4.f);
    aclrtFree(da);
    aclrtFree(dz);
    aclrtFree(x);
    aclrtFree(z);
}

// SyncAll with as many blocks as the SoC has vector cores (far more than the host's threads) meets;
// atomic adds of every block into one tile lose no update.
void test_cross_core() {
    const uint32_t blocks = 48, tile = 64;
    std::vector<float> x(blocks * tile);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 7) - 3.f;
    void *dx = upload(x), *dy = dalloc(x.size() * 4), *dw = dalloc(x.size() * 4);
    CHECK_RUN(run("kapi_xcore", "syncall_neighbour", blocks, {u64(dx), u64(dy), u64(dw)}));
    std::vector<float> y = download<float>(dy, x.size());
    int bad = 0;
    for (uint32_t b = 0; b < blocks; ++b) {
        for (uint32_t i = 0; i < tile; ++i) {
            const float want = 2 * x[b * tile + i] + 2 * x[((b + 1) % blocks) * tile + i];
            if (y[b * tile + i] != want && bad++ < 5) std::fprintf(stderr, "syncall y[%u] = %g, want %g\n", b * tile + i, y[b * tile + i], want);
        }
    }
    CHECK(bad == 0);
    void *dacc = upload(std::vector<float>(tile, 0.f));
    CHECK_RUN(run("kapi_xcore", "atomic_add_f32", blocks, {u64(dx), u64(dacc)}));
    std::vector<float> acc = download<float>(dacc, tile);
    bad = 0;
    for (uint32_t i = 0; i < tile; ++i) {
        float want = 0.f;
        for (uint32_t b = 0; b < blocks; ++b) want += x[b * tile + i];
        if (acc[i] != want && bad++ < 5) std::fprintf(stderr, "atomic acc[%u] = %g, want %g\n", i, acc[i], want);
    }
    CHECK(bad == 0);
    aclrtFree(dx);
    aclrtFree(dy);
    aclrtFree(dw);
    aclrtFree(dacc);
}

}  // namespace

int main() {
    unsetenv("PYASC_SIM_CHECKS");
    unsetenv("PYASC_SIM_STRICT");
    unsetenv("PYASC_SIM_SOC");
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) {
        std::fprintf(stderr, "cannot initialise the simulated runtime: %s\n", aclGetRecentErrMsg());
        return 2;
    }
    test_vector_add();
    test_cost_model();
    report_throughput();
    test_mask_repeat();
    test_cast();
    test_reduce();
    test_compare_select();
    test_math();
    test_matmul();
    test_sanitizer();
    test_cross_core();
    for (auto &b : g_bins) aclrtBinaryUnLoad(b.second);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail == 0 ? 0 : 1;
}
