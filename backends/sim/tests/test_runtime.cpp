// Tests of the simulated ACL runtime (libpyasc_acl_sim.so): every entry point's
// success path and the error paths it implements.  Self-contained: a tiny CHECK
// macro, no test framework.  Prints "N passed, N failed" last.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pyasc/acl_abi.h"

#ifndef PYASC_SIM_TEST_KERNELS
#error "PYASC_SIM_TEST_KERNELS must name the test kernel shared object"
#endif

namespace {

std::atomic<int> g_pass{0};
std::atomic<int> g_fail{0};

void report_failure(const char *file, int line, const std::string &what) {
    ++g_fail;
    std::fprintf(stderr, "%s:%d: FAILED: %s\n", file, line, what.c_str());
}

#define CHECK(cond)                                                   \
    do {                                                              \
        if (cond) {                                                   \
            ++g_pass;                                                 \
        } else {                                                      \
            report_failure(__FILE__, __LINE__, "CHECK(" #cond ")");   \
        }                                                             \
    } while (0)

// Expects `expr` to return `code`; when `needle` is non-null the thread's recent
// error message must contain it.  Always drains the pending message.
void check_acl(const char *file, int line, const char *text, aclError got, aclError want, const char *needle) {
    const char *m = aclGetRecentErrMsg();
    const std::string msg = m ? m : "";
    if (got != want) {
        report_failure(file, line,
                       std::string(text) + " returned " + std::to_string(got) + ", expected " + std::to_string(want) +
                           (msg.empty() ? "" : " -- message: " + msg));
        return;
    }
    if (want != ACL_SUCCESS && msg.empty()) {
        report_failure(file, line, std::string(text) + ": no error message recorded");
        return;
    }
    if (needle != nullptr && msg.find(needle) == std::string::npos) {
        report_failure(file, line, std::string(text) + ": message lacks '" + needle + "': " + msg);
        return;
    }
    ++g_pass;
}

#define EXPECT_ACL(expr, code, needle) check_acl(__FILE__, __LINE__, #expr, (expr), (code), (needle))
#define EXPECT_OK(expr) check_acl(__FILE__, __LINE__, #expr, (expr), ACL_SUCCESS, nullptr)

bool contains(const char *hay, const char *needle) { return hay != nullptr && std::strstr(hay, needle) != nullptr; }

double now_ms() {
    using namespace std::chrono;
    return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

// Device memory holding an argument blob of 8-byte values.
void *device_args(const std::vector<uint64_t> &args) {
    void *d = nullptr;
    if (aclrtMalloc(&d, args.size() * 8, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return nullptr;
    aclrtMemcpy(d, args.size() * 8, args.data(), args.size() * 8, ACL_MEMCPY_HOST_TO_DEVICE);
    return d;
}

uint64_t u64(const void *p) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)); }

struct Kernels {
    aclrtBinHandle bin = nullptr;
    aclrtFuncHandle vector_add = nullptr, fail_block1 = nullptr, sleep_write = nullptr, fixed_cycles = nullptr,
                    throws = nullptr, echo_context = nullptr, wait_flag = nullptr,
                    set_flag = nullptr, crash_null = nullptr, spin_forever = nullptr;
};

void test_fork_without_a_device_open();

// ---------------------------------------------------------------------------
void test_before_init() {
    setenv("PYASC_SIM_DEVICE_COUNT", "2", 1);
    setenv("PYASC_SIM_DEVICE_MEMORY", "256M", 1);
    unsetenv("PYASC_SIM_SOC");

    CHECK(contains(aclrtGetSocName(), "Ascend910B1"));  // works without aclInit
    CHECK(aclGetRecentErrMsg() == nullptr);
    EXPECT_ACL(aclrtSetDevice(0), ACL_ERROR_UNINITIALIZE, "aclInit");
    void *p = nullptr;
    EXPECT_ACL(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE, "aclInit");
    aclrtStream s = nullptr;
    EXPECT_ACL(aclrtCreateStream(&s), ACL_ERROR_UNINITIALIZE, nullptr);
    aclrtStreamStatus sst = ACL_STREAM_STATUS_RESERVED;
    EXPECT_ACL(aclrtStreamQuery(nullptr, &sst), ACL_ERROR_UNINITIALIZE, "aclrtStreamQuery");
    CHECK(sst == ACL_STREAM_STATUS_RESERVED);  // untouched on error
    uint32_t count = 0;
    EXPECT_ACL(aclrtGetDeviceCount(&count), ACL_ERROR_UNINITIALIZE, nullptr);
    EXPECT_ACL(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, nullptr);

    // Messages are thread-local, newest first, and cleared when read.
    aclrtSetDevice(0);
    aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST);
    const char *m = aclGetRecentErrMsg();
    CHECK(m != nullptr && std::strstr(m, "aclrtMalloc") != nullptr && std::strstr(m, "aclrtSetDevice") != nullptr &&
          std::strstr(m, "aclrtMalloc") < std::strstr(m, "aclrtSetDevice"));
    CHECK(aclGetRecentErrMsg() == nullptr);
    std::thread([] {
        aclrtSetDevice(0);
        CHECK(contains(aclGetRecentErrMsg(), "aclrtSetDevice"));
    }).join();
    CHECK(aclGetRecentErrMsg() == nullptr);

    setenv("PYASC_SIM_SOC", "Ascend999", 1);
    CHECK(aclrtGetSocName() == nullptr);
    EXPECT_ACL(aclInit(nullptr), ACL_ERROR_RT_SOC_VERSION, "Ascend910B1");
    unsetenv("PYASC_SIM_SOC");
    setenv("PYASC_SIM_DEVICE_COUNT", "zero", 1);
    EXPECT_ACL(aclInit(nullptr), ACL_ERROR_INVALID_PARAM, "PYASC_SIM_DEVICE_COUNT");
    setenv("PYASC_SIM_DEVICE_COUNT", "2", 1);
    EXPECT_ACL(aclInit("/nonexistent/pyasc/acl.json"), ACL_ERROR_INVALID_FILE, "acl.json");
    EXPECT_OK(aclInit(nullptr));
    EXPECT_ACL(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE, nullptr);
}

void test_devices() {
    void *p = nullptr;
    EXPECT_ACL(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSetDevice");
    int32_t dev = -1;
    EXPECT_ACL(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, nullptr);
    aclrtStreamStatus sst = ACL_STREAM_STATUS_RESERVED;
    EXPECT_ACL(aclrtStreamQuery(nullptr, &sst), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSetDevice");
    CHECK(sst == ACL_STREAM_STATUS_RESERVED);
    uint32_t count = 0;
    EXPECT_OK(aclrtGetDeviceCount(&count));
    CHECK(count == 2);
    EXPECT_ACL(aclrtSetDevice(2), ACL_ERROR_RT_INVALID_DEVICEID, "out of range");
    EXPECT_ACL(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID, nullptr);
    EXPECT_OK(aclrtSetDevice(0));
    EXPECT_OK(aclrtGetDevice(&dev));
    CHECK(dev == 0);
    CHECK(contains(aclrtGetSocName(), "Ascend910B1"));

    int64_t v = -1;
    EXPECT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
    CHECK(v == 24);
    EXPECT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_CUBE_CORE_NUM, &v));
    CHECK(v == 24);
    EXPECT_OK(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v));
    CHECK(v == 48);
    EXPECT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, &v));
    CHECK(v == 192 * 1024);
    EXPECT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &v));
    CHECK(v == 256 * 1024 * 1024);
    EXPECT_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_WARP_SIZE, &v), ACL_ERROR_RT_FEATURE_NOT_SUPPORT, nullptr);
    EXPECT_ACL(aclrtGetDeviceInfo(7, ACL_DEV_ATTR_AICORE_CORE_NUM, &v), ACL_ERROR_RT_INVALID_DEVICEID, nullptr);
    EXPECT_ACL(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, nullptr), ACL_ERROR_INVALID_PARAM, nullptr);
    EXPECT_OK(aclrtSynchronizeDevice());
}

void test_memory() {
    const size_t total = 256u << 20;
    size_t free_b = 0, total_b = 0;
    EXPECT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total_b));
    CHECK(total_b == total && free_b == total);
    EXPECT_OK(aclrtGetMemInfo(ACL_DDR_MEM, &free_b, &total_b));
    CHECK(total_b == 0 && free_b == 0);
    EXPECT_ACL(aclrtGetMemInfo(static_cast<aclrtMemAttr>(42), &free_b, &total_b), ACL_ERROR_INVALID_PARAM, nullptr);

    void *d = nullptr, *d2 = nullptr;
    EXPECT_OK(aclrtMalloc(&d, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(d != nullptr && reinterpret_cast<uintptr_t>(d) % 512 == 0);
    EXPECT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total_b));
    CHECK(free_b == total - 1056);  // 1000 rounded up to 32, plus 32
    EXPECT_OK(aclrtMalloc(&d2, 1000, ACL_MEM_MALLOC_NORMAL_ONLY));

    std::vector<uint8_t> h(1000), back(1000, 0);
    for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<uint8_t>(i * 7);
    EXPECT_OK(aclrtMemcpy(d, 1000, h.data(), 1000, ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT_OK(aclrtMemcpy(d2, 1000, d, 1000, ACL_MEMCPY_DEVICE_TO_DEVICE));
    EXPECT_OK(aclrtMemcpy(back.data(), 1000, d2, 1000, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(back == h);
    EXPECT_OK(aclrtMemset(d, 1000, 0xAB, 500));
    EXPECT_OK(aclrtMemcpy(back.data(), 1000, d, 1000, ACL_MEMCPY_DEFAULT));
    CHECK(back[0] == 0xAB && back[499] == 0xAB && back[500] == h[500]);
    EXPECT_OK(aclrtMemcpy(d, 1000, h.data(), 1000, ACL_MEMCPY_DEFAULT));
    std::vector<uint8_t> h2(16, 1), h3(16, 0);
    EXPECT_OK(aclrtMemcpy(h3.data(), 16, h2.data(), 16, ACL_MEMCPY_HOST_TO_HOST));
    CHECK(h3 == h2);
    EXPECT_OK(aclrtMemcpy(d, 1000, h.data(), 0, ACL_MEMCPY_HOST_TO_DEVICE));  // empty copy

    // Sanitizer checks.
    char *dc = static_cast<char *>(d);
    EXPECT_ACL(aclrtMemcpy(dc + 1000, 4, h.data(), 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
               "past the end");
    EXPECT_ACL(aclrtMemcpy(d, 1001, h.data(), 1001, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
               "overflows");
    EXPECT_ACL(aclrtMemcpy(dc + 996, 8, h.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
               "only 4 bytes remain");
    EXPECT_ACL(aclrtMemcpy(h.data(), 1000, dc + 10, 1000, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID,
               "overflows");
    EXPECT_ACL(aclrtMemcpy(d, 8, h.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM, "destMax");
    EXPECT_ACL(aclrtMemcpy(h.data(), 16, d, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
               "needs dst to be device memory");
    EXPECT_ACL(aclrtMemcpy(d, 16, h.data(), 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID,
               "needs dst to be host memory");
    EXPECT_ACL(aclrtMemcpy(d, 16, h.data(), 16, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
               "needs src to be device memory");
    EXPECT_ACL(aclrtMemcpy(h3.data(), 16, d, 16, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_RT_PARAM_INVALID, nullptr);
    EXPECT_ACL(aclrtMemcpy(nullptr, 16, d, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM, nullptr);
    EXPECT_ACL(aclrtMemcpy(d, 16, h.data(), 16, static_cast<aclrtMemcpyKind>(99)), ACL_ERROR_INVALID_PARAM, nullptr);
    EXPECT_ACL(aclrtMemset(dc + 900, 200, 0, 200), ACL_ERROR_RT_PARAM_INVALID, "overflows");
    EXPECT_ACL(aclrtMemset(d, 10, 0, 20), ACL_ERROR_INVALID_PARAM, "maxCount");

    EXPECT_ACL(aclrtFree(dc + 16), ACL_ERROR_RT_PARAM_INVALID, "16 bytes into");
    int on_stack = 0;
    EXPECT_ACL(aclrtFree(&on_stack), ACL_ERROR_RT_PARAM_INVALID, "not allocated");
    EXPECT_ACL(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM, nullptr);
    EXPECT_OK(aclrtFree(d));
    EXPECT_ACL(aclrtFree(d), ACL_ERROR_RT_PARAM_INVALID, "double free");
    EXPECT_ACL(aclrtMemcpy(d, 16, h.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_PARAM_INVALID,
               "already freed");
    EXPECT_OK(aclrtFree(d2));

    EXPECT_ACL(aclrtMalloc(&d, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, "size");
    EXPECT_ACL(aclrtMalloc(nullptr, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM, nullptr);

    // Out of memory past the simulated capacity.
    EXPECT_ACL(aclrtMalloc(&d, 300u << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION,
               "out of device memory");
    void *big = nullptr;
    EXPECT_OK(aclrtMalloc(&big, 200u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_ACL(aclrtMalloc(&d, 100u << 20, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_MEMORY_ALLOCATION,
               "PYASC_SIM_DEVICE_MEMORY");
    EXPECT_OK(aclrtFree(big));
    EXPECT_OK(aclrtMalloc(&d, 100u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_OK(aclrtFree(d));

    // Pinned host memory.
    void *ph = nullptr;
    EXPECT_OK(aclrtMallocHost(&ph, 4096));
    CHECK(ph != nullptr && reinterpret_cast<uintptr_t>(ph) % 64 == 0);
    EXPECT_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    std::memset(ph, 0x5A, 4096);
    EXPECT_OK(aclrtMemcpy(d, 4096, ph, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
    EXPECT_OK(aclrtMemset(ph, 4096, 0, 4096));
    EXPECT_OK(aclrtMemcpy(ph, 4096, d, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(static_cast<uint8_t *>(ph)[4095] == 0x5A);
    EXPECT_ACL(aclrtMemcpy(ph, 4097, d, 4097, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID, "overflows");
    EXPECT_ACL(aclrtFreeHost(d), ACL_ERROR_RT_PARAM_INVALID, "aclrtFree");
    EXPECT_ACL(aclrtFree(ph), ACL_ERROR_RT_PARAM_INVALID, "aclrtFreeHost");
    EXPECT_ACL(aclrtFreeHost(static_cast<char *>(ph) + 8), ACL_ERROR_RT_PARAM_INVALID, nullptr);
    EXPECT_OK(aclrtFreeHost(ph));
    EXPECT_ACL(aclrtFreeHost(ph), ACL_ERROR_RT_PARAM_INVALID, "already freed");
    EXPECT_ACL(aclrtMallocHost(&ph, 0), ACL_ERROR_INVALID_PARAM, nullptr);
    EXPECT_OK(aclrtFree(d));

    EXPECT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total_b));
    CHECK(free_b == total);
}

Kernels load_kernels() {
    Kernels k;
    aclrtBinHandle bad = nullptr;
    EXPECT_ACL(aclrtBinaryLoadFromFile("/nonexistent/kernels.so", nullptr, &bad), ACL_ERROR_INVALID_FILE,
               "/nonexistent/kernels.so");
    aclrtBinaryLoadOption opt;
    opt.type = ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD;
    opt.value.isLazyLoad = 0;
    aclrtBinaryLoadOptions opts{&opt, 1};
    EXPECT_OK(aclrtBinaryLoadFromFile(PYASC_SIM_TEST_KERNELS, &opts, &k.bin));
    aclrtFuncHandle f = nullptr;
    EXPECT_ACL(aclrtBinaryGetFunction(k.bin, "no_such_kernel", &f), ACL_ERROR_INVALID_PARAM,
               "__pyasc_sim_entry_no_such_kernel");
    EXPECT_OK(aclrtBinaryGetFunction(k.bin, "vector_add", &k.vector_add));
    EXPECT_OK(aclrtBinaryGetFunction(k.bin, "fail_block1", &k.fail_block1));
    EXPECT_OK(aclrtBinaryGetFunction(k.bin, "sleep_write", &k.sleep_write));
    EXPECT_OK(aclrtBinaryGetFunction(k.bin, "fixed_cycles", &k.fixed_cycles));
    EXPECT_OK(aclrtBinaryGetFunction(k.bin, "crash_null", &k.crash_null));
    EXPECT_OK(aclrtBinaryGetFunction(k.bin, "spin_forever", &k.spin_forever));
    EXPECT_OK(aclrtBinaryGetFunction(k.bin, "throws", &k.throws));
    EXPECT_OK(aclrtBinaryGetFunction(k.bin, "echo_context", &k.echo_context));
    EXPECT_OK(aclrtBinaryGetFunction(k.bin, "wait_flag", &k.wait_flag));
    EXPECT_OK(aclrtBinaryGetFunction(k.bin, "set_flag", &k.set_flag));
    int dummy = 0;
    EXPECT_ACL(aclrtBinaryGetFunction(&dummy, "vector_add", &f), ACL_ERROR_RT_INVALID_HANDLE, nullptr);
    return k;
}

// Runs z = x + y for n floats on `stream`; returns true when z is right.
bool run_vector_add(const Kernels &k, aclrtStream stream, size_t n, float xv, bool host_args, bool pinned) {
    const size_t bytes = n * sizeof(float);
    void *x = nullptr, *y = nullptr, *z = nullptr;
    if (aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST) || aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMalloc(&z, bytes, ACL_MEM_MALLOC_HUGE_FIRST)) {
        return false;
    }
    std::vector<float> hv(n), hz(n, -1.0f);
    float *hx = nullptr, *hy = nullptr, *hzp = hz.data();
    void *px = nullptr, *py = nullptr, *pz = nullptr;
    if (pinned) {
        aclrtMallocHost(&px, bytes);
        aclrtMallocHost(&py, bytes);
        aclrtMallocHost(&pz, bytes);
        hx = static_cast<float *>(px);
        hy = static_cast<float *>(py);
        hzp = static_cast<float *>(pz);
    } else {
        hx = new float[n];
        hy = hv.data();
    }
    for (size_t i = 0; i < n; ++i) {
        hx[i] = xv;
        hy[i] = static_cast<float>(i);
        hzp[i] = -1.0f;
    }
    bool ok = aclrtMemcpyAsync(x, bytes, hx, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS &&
              aclrtMemcpyAsync(y, bytes, hy, bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream) == ACL_SUCCESS;
    std::vector<uint64_t> args{u64(x), u64(y), u64(z), n};
    void *dargs = nullptr;
    if (host_args) {
        ok = ok && aclrtLaunchKernelWithHostArgs(k.vector_add, 8, stream, nullptr, args.data(), args.size() * 8, nullptr,
                                                 0) == ACL_SUCCESS;
    } else {
        dargs = device_args(args);
        ok = ok && aclrtLaunchKernel(k.vector_add, 8, dargs, args.size() * 8, stream) == ACL_SUCCESS;
    }
    ok = ok && aclrtMemcpyAsync(hzp, bytes, z, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream) == ACL_SUCCESS;
    ok = ok && aclrtSynchronizeStream(stream) == ACL_SUCCESS;
    for (size_t i = 0; ok && i < n; ++i) ok = hzp[i] == xv + static_cast<float>(i);
    if (dargs) aclrtFree(dargs);
    aclrtFree(x);
    aclrtFree(y);
    aclrtFree(z);
    if (pinned) {
        aclrtFreeHost(px);
        aclrtFreeHost(py);
        aclrtFreeHost(pz);
    } else {
        delete[] hx;
    }
    if (!ok) {
        const char *m = aclGetRecentErrMsg();
        std::fprintf(stderr, "vector_add failed: %s\n", m ? m : "(no message)");
    }
    return ok;
}

void test_streams_and_kernels(const Kernels &k) {
    aclrtStream s = nullptr;
    EXPECT_OK(aclrtCreateStream(&s));
    CHECK(s != nullptr);
    CHECK(run_vector_add(k, s, 1000, 2.0f, false, true));
    CHECK(run_vector_add(k, s, 1003, 3.0f, true, false));  // pageable host memory: copies complete in the call
    CHECK(run_vector_add(k, nullptr, 777, 4.0f, true, true));  // default stream

    // Launch errors.
    std::vector<uint64_t> args{0, 0, 0, 0};
    EXPECT_ACL(aclrtLaunchKernel(k.vector_add, 8, args.data(), 32, s), ACL_ERROR_RT_PARAM_INVALID,
               "must point into device memory");
    void *dargs = device_args(args);
    EXPECT_ACL(aclrtLaunchKernel(k.vector_add, 0, dargs, 32, s), ACL_ERROR_RT_PARAM_INVALID, "numBlocks");
    EXPECT_ACL(aclrtLaunchKernel(k.vector_add, 8, dargs, 64, s), ACL_ERROR_RT_PARAM_INVALID, "argsSize");
    EXPECT_ACL(aclrtLaunchKernel(nullptr, 8, dargs, 32, s), ACL_ERROR_INVALID_PARAM, nullptr);
    int bogus = 0;
    EXPECT_ACL(aclrtLaunchKernel(&bogus, 8, dargs, 32, s), ACL_ERROR_RT_INVALID_HANDLE, nullptr);
    aclrtPlaceHolderInfo ph{0, 0};
    EXPECT_ACL(aclrtLaunchKernelWithHostArgs(k.vector_add, 1, s, nullptr, args.data(), 32, &ph, 1),
               ACL_ERROR_RT_FEATURE_NOT_SUPPORT, nullptr);

    // Context handed to each block.
    void *ctxbuf = nullptr;
    EXPECT_OK(aclrtMalloc(&ctxbuf, 5 * 16, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<uint64_t> eargs{u64(ctxbuf)};
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.echo_context, 5, s, nullptr, eargs.data(), 8, nullptr, 0));
    EXPECT_OK(aclrtSynchronizeStream(s));
    std::vector<uint32_t> echo(20, 0);
    EXPECT_OK(aclrtMemcpy(echo.data(), 80, ctxbuf, 80, ACL_MEMCPY_DEVICE_TO_HOST));
    bool echo_ok = true;
    for (uint32_t b = 0; b < 5; ++b) {
        echo_ok = echo_ok && echo[4 * b] == b && echo[4 * b + 1] == 5 && echo[4 * b + 2] == 8 &&
                  echo[4 * b + 3] == std::strlen("Ascend910B1");
    }
    CHECK(echo_ok);
    EXPECT_OK(aclrtFree(ctxbuf));

    // Asynchronous copy / fill errors detected when enqueued.
    std::vector<uint8_t> a(64), b(64);
    EXPECT_ACL(aclrtMemcpyAsync(a.data(), 64, b.data(), 64, ACL_MEMCPY_HOST_TO_HOST, s), ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
               nullptr);
    EXPECT_ACL(aclrtMemsetAsync(a.data(), 64, 0, 64, s), ACL_ERROR_RT_PARAM_INVALID, "pinned");
    EXPECT_ACL(aclrtMemcpyAsync(dargs, 64, a.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_RT_PARAM_INVALID,
               "overflows");

    // Sticky asynchronous error: reported once by synchronize, then the stream works again.
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.fail_block1, 8, s, nullptr, nullptr, 0, nullptr, 0));
    EXPECT_ACL(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION, "kernel fail_block1 block 1: injected failure");
    EXPECT_OK(aclrtSynchronizeStream(s));
    CHECK(run_vector_add(k, s, 4096, 1.5f, false, true));
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.throws, 4, s, nullptr, nullptr, 0, nullptr, 0));
    EXPECT_ACL(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION, "test kernel threw");
    // First error wins: two failing launches report the first one.
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.fail_block1, 8, s, nullptr, nullptr, 0, nullptr, 0));
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.throws, 4, s, nullptr, nullptr, 0, nullptr, 0));
    EXPECT_ACL(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION, "fail_block1");
    // Error on the default stream surfaces through aclrtSynchronizeDevice.
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.fail_block1, 4, nullptr, nullptr, nullptr, 0, nullptr, 0));
    EXPECT_ACL(aclrtSynchronizeDevice(), ACL_ERROR_RT_AICORE_EXCEPTION, "block 1");
    EXPECT_OK(aclrtSynchronizeStream(nullptr));

    // Use after free inside the queue: the buffer is freed before the queued copy runs.
    void *buf = nullptr, *pinned = nullptr;
    EXPECT_OK(aclrtMalloc(&buf, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_OK(aclrtMallocHost(&pinned, 64));
    std::vector<uint64_t> sargs{u64(buf), 1, 100000};  // sleeps 100 ms
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.sleep_write, 1, s, nullptr, sargs.data(), 24, nullptr, 0));
    EXPECT_OK(aclrtMemcpyAsync(pinned, 64, buf, 64, ACL_MEMCPY_DEVICE_TO_HOST, s));
    EXPECT_OK(aclrtFree(buf));
    EXPECT_ACL(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID, "use after free");
    EXPECT_OK(aclrtFreeHost(pinned));

    // Ordering on one stream: a slow kernel's result is visible to the next copy.
    EXPECT_OK(aclrtMalloc(&buf, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_OK(aclrtMemsetAsync(buf, 64, 0, 64, s));
    sargs = {u64(buf), 0xC0FFEE, 30000};
    uint32_t out = 0;
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.sleep_write, 1, s, nullptr, sargs.data(), 24, nullptr, 0));
    EXPECT_OK(aclrtMemcpyAsync(&out, 4, buf, 4, ACL_MEMCPY_DEVICE_TO_HOST, s));  // pageable: waits
    CHECK(out == 0xC0FFEE);

    // Stream of another device, destroyed streams, the default stream.
    EXPECT_OK(aclrtSetDevice(1));
    EXPECT_ACL(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_CONTEXT, "belongs to device 0");
    void *d1 = nullptr;
    EXPECT_OK(aclrtMalloc(&d1, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_OK(aclrtMemcpy(d1, 64, buf, 64, ACL_MEMCPY_DEVICE_TO_DEVICE));  // device 0 -> device 1
    EXPECT_OK(aclrtFree(d1));
    EXPECT_OK(aclrtResetDevice(1));
    EXPECT_ACL(aclrtMalloc(&d1, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL, nullptr);
    EXPECT_OK(aclrtSetDevice(0));  // refcount of device 0 is now 2

    // Destroy waits for pending work.
    sargs = {u64(buf), 77, 50000};
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.sleep_write, 1, s, nullptr, sargs.data(), 24, nullptr, 0));
    EXPECT_OK(aclrtDestroyStream(s));
    EXPECT_OK(aclrtMemcpy(&out, 4, buf, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(out == 77);
    EXPECT_ACL(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    EXPECT_ACL(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE, nullptr);
    EXPECT_ACL(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM, "default stream");
    EXPECT_ACL(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM, nullptr);
    EXPECT_OK(aclrtFree(buf));
    EXPECT_OK(aclrtFree(dargs));
}

void test_events(const Kernels &k) {
    aclrtStream s1 = nullptr, s2 = nullptr;
    EXPECT_OK(aclrtCreateStream(&s1));
    EXPECT_OK(aclrtCreateStream(&s2));
    aclrtEvent e0 = nullptr, e1 = nullptr, e2 = nullptr;
    EXPECT_OK(aclrtCreateEvent(&e0));
    EXPECT_OK(aclrtCreateEvent(&e1));
    EXPECT_OK(aclrtCreateEvent(&e2));
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    EXPECT_OK(aclrtQueryEventStatus(e0, &st));
    CHECK(st == ACL_EVENT_RECORDED_STATUS_NOT_READY);
    float ms = -1.0f;
    EXPECT_ACL(aclrtEventElapsedTime(&ms, e0, e1), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "never recorded");
    EXPECT_OK(aclrtSynchronizeEvent(e0));  // never recorded: returns at once

    // 96 blocks of 1.8M cycles on 48 simulated cores at 1.8 GHz: two 1 ms waves + 3 us overhead.
    std::vector<uint64_t> cargs{1800000};
    EXPECT_OK(aclrtRecordEvent(e0, s1));
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.fixed_cycles, 96, s1, nullptr, cargs.data(), 8, nullptr, 0));
    EXPECT_OK(aclrtRecordEvent(e1, s1));
    EXPECT_OK(aclrtSynchronizeStream(s1));
    EXPECT_OK(aclrtQueryEventStatus(e1, &st));
    CHECK(st == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    EXPECT_OK(aclrtEventElapsedTime(&ms, e0, e1));
    CHECK(ms > 0.0f);
    CHECK(std::fabs(ms - 2.003f) < 1e-3f);
    EXPECT_ACL(aclrtEventElapsedTime(&ms, e1, e0), ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL, nullptr);
    // 97 blocks need a third wave.
    EXPECT_OK(aclrtRecordEvent(e0, s1));
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.fixed_cycles, 97, s1, nullptr, cargs.data(), 8, nullptr, 0));
    EXPECT_OK(aclrtRecordEvent(e1, s1));
    EXPECT_OK(aclrtSynchronizeEvent(e1));
    EXPECT_OK(aclrtEventElapsedTime(&ms, e0, e1));
    CHECK(std::fabs(ms - 3.003f) < 1e-3f);
    // Copies advance the clock too (4 MiB over the host link).
    void *d = nullptr, *ph = nullptr;
    EXPECT_OK(aclrtMalloc(&d, 4u << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_OK(aclrtMallocHost(&ph, 4u << 20));
    EXPECT_OK(aclrtRecordEvent(e0, s1));
    EXPECT_OK(aclrtMemcpyAsync(d, 4u << 20, ph, 4u << 20, ACL_MEMCPY_HOST_TO_DEVICE, s1));
    EXPECT_OK(aclrtRecordEvent(e1, s1));
    EXPECT_OK(aclrtSynchronizeStream(s1));
    EXPECT_OK(aclrtEventElapsedTime(&ms, e0, e1));
    CHECK(ms > 0.1f && ms < 1.0f);

    // aclrtSynchronizeEvent blocks until the recorded work has run.
    uint32_t out = 0;
    std::vector<uint64_t> sargs{u64(d), 1234, 150000};  // 150 ms
    const double t0 = now_ms();
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.sleep_write, 1, s1, nullptr, sargs.data(), 24, nullptr, 0));
    EXPECT_OK(aclrtRecordEvent(e2, s1));
    EXPECT_OK(aclrtQueryEventStatus(e2, &st));
    CHECK(st == ACL_EVENT_RECORDED_STATUS_NOT_READY);
    EXPECT_OK(aclrtSynchronizeEvent(e2));
    CHECK(now_ms() - t0 >= 140.0);
    EXPECT_OK(aclrtQueryEventStatus(e2, &st));
    CHECK(st == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    EXPECT_OK(aclrtMemcpy(&out, 4, d, 4, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(out == 1234);

    // Cross-stream wait: s2 must not copy before s1's slow kernel wrote the value.
    EXPECT_OK(aclrtMemset(d, 16, 0, 16));
    sargs = {u64(d), 7, 100000};  // 100 ms, 1e8 simulated cycles
    EXPECT_OK(aclrtRecordEvent(e0, s1));
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.sleep_write, 1, s1, nullptr, sargs.data(), 24, nullptr, 0));
    EXPECT_OK(aclrtRecordEvent(e1, s1));
    EXPECT_OK(aclrtStreamWaitEvent(s2, e1));
    std::memset(ph, 0, 16);
    EXPECT_OK(aclrtMemcpyAsync(ph, 16, d, 16, ACL_MEMCPY_DEVICE_TO_HOST, s2));
    EXPECT_OK(aclrtRecordEvent(e2, s2));
    EXPECT_OK(aclrtSynchronizeStream(s2));
    CHECK(*static_cast<uint32_t *>(ph) == 7);
    EXPECT_OK(aclrtSynchronizeStream(s1));
    EXPECT_OK(aclrtEventElapsedTime(&ms, e0, e2));  // across streams: s2's clock jumped to e1's time
    CHECK(ms > 55.0f && ms < 56.0f);                // 1e8 cycles / 1.8 GHz = 55.6 ms, plus small task costs
    float ms_copy = 0.0f;
    EXPECT_OK(aclrtEventElapsedTime(&ms_copy, e1, e2));
    CHECK(ms_copy >= 0.0f && ms_copy < 0.1f);
    EXPECT_OK(aclrtStreamWaitEvent(nullptr, e2));  // default stream waits too
    EXPECT_OK(aclrtSynchronizeStream(nullptr));

    EXPECT_ACL(aclrtRecordEvent(nullptr, s1), ACL_ERROR_INVALID_PARAM, nullptr);
    EXPECT_ACL(aclrtQueryEventStatus(e0, nullptr), ACL_ERROR_INVALID_PARAM, nullptr);
    EXPECT_ACL(aclrtEventElapsedTime(nullptr, e0, e1), ACL_ERROR_INVALID_PARAM, nullptr);
    EXPECT_ACL(aclrtCreateEvent(nullptr), ACL_ERROR_INVALID_PARAM, nullptr);
    EXPECT_OK(aclrtDestroyEvent(e0));
    EXPECT_ACL(aclrtDestroyEvent(e0), ACL_ERROR_RT_INVALID_HANDLE, nullptr);
    EXPECT_ACL(aclrtRecordEvent(e0, s1), ACL_ERROR_RT_INVALID_HANDLE, "not a live event");
    EXPECT_OK(aclrtDestroyEvent(e1));
    EXPECT_OK(aclrtDestroyEvent(e2));
    EXPECT_OK(aclrtDestroyStream(s1));
    EXPECT_OK(aclrtDestroyStream(s2));
    EXPECT_OK(aclrtFree(d));
    EXPECT_OK(aclrtFreeHost(ph));
}

// aclrtStreamQuery: COMPLETE exactly when everything enqueued before the call has finished.  No
// timing assumptions: a kernel blocked on a flag is NOT_READY until the host releases the flag.
void test_stream_query(const Kernels &k) {
    aclrtStream s = nullptr, s2 = nullptr;
    EXPECT_OK(aclrtCreateStream(&s));
    EXPECT_OK(aclrtCreateStream(&s2));
    aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
    EXPECT_OK(aclrtStreamQuery(s, &st));  // a new stream is idle
    CHECK(st == ACL_STREAM_STATUS_COMPLETE);
    st = ACL_STREAM_STATUS_RESERVED;
    EXPECT_OK(aclrtStreamQuery(nullptr, &st));  // the default stream
    CHECK(st == ACL_STREAM_STATUS_COMPLETE);

    void *flag = nullptr, *d = nullptr;
    EXPECT_OK(aclrtMalloc(&flag, 4, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    const uint32_t zero = 0;
    std::vector<uint64_t> fargs{u64(flag)}, open_args{u64(flag), 1};
    for (aclrtStream q : {s, static_cast<aclrtStream>(nullptr)}) {
        EXPECT_OK(aclrtMemcpy(flag, 4, &zero, 4, ACL_MEMCPY_HOST_TO_DEVICE));
        EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.wait_flag, 1, q, nullptr, fargs.data(), 8, nullptr, 0));
        EXPECT_OK(aclrtMemsetAsync(d, 64, 1, 64, q));  // queued behind the blocked kernel
        for (int i = 0; i < 3; ++i) {                    // repeated queries do not block or change anything
            EXPECT_OK(aclrtStreamQuery(q, &st));
            CHECK(st == ACL_STREAM_STATUS_NOT_READY);
        }
        EXPECT_OK(aclrtStreamQuery(s2, &st));  // other streams are not affected
        CHECK(st == ACL_STREAM_STATUS_COMPLETE);
        // Open the flag from another stream (an atomic store: clean under ThreadSanitizer).
        EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.set_flag, 1, s2, nullptr, open_args.data(), 16, nullptr, 0));
        EXPECT_OK(aclrtSynchronizeStream(s2));
        EXPECT_OK(aclrtSynchronizeStream(q));
        EXPECT_OK(aclrtStreamQuery(q, &st));
        CHECK(st == ACL_STREAM_STATUS_COMPLETE);
    }

    // Whoever an event or a blocking call wakes sees the stream idle when nothing follows.
    aclrtEvent ev = nullptr;
    EXPECT_OK(aclrtCreateEvent(&ev));
    uint8_t pageable[64] = {};
    int bad = 0;
    for (int i = 0; i < 200; ++i) {
        if (aclrtMemsetAsync(d, 64, i & 0xFF, 64, s) != ACL_SUCCESS || aclrtRecordEvent(ev, s) != ACL_SUCCESS ||
            aclrtSynchronizeEvent(ev) != ACL_SUCCESS || aclrtStreamQuery(s, &st) != ACL_SUCCESS ||
            st != ACL_STREAM_STATUS_COMPLETE) {
            ++bad;
        }
        // Pageable host memory: the copy has run when the call returns.
        if (aclrtMemcpyAsync(pageable, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST, s) != ACL_SUCCESS ||
            aclrtStreamQuery(s, &st) != ACL_SUCCESS || st != ACL_STREAM_STATUS_COMPLETE ||
            pageable[63] != static_cast<uint8_t>(i & 0xFF)) {
            ++bad;
        }
    }
    CHECK(bad == 0);

    // A sticky task error is left for synchronize: query only reports progress.  (The event
    // recorded after the failure reports it too, without clearing it from the stream.)
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.fail_block1, 4, s, nullptr, nullptr, 0, nullptr, 0));
    EXPECT_OK(aclrtRecordEvent(ev, s));
    EXPECT_ACL(aclrtSynchronizeEvent(ev), ACL_ERROR_RT_AICORE_EXCEPTION, "fail_block1");
    EXPECT_OK(aclrtStreamQuery(s, &st));
    CHECK(st == ACL_STREAM_STATUS_COMPLETE);
    EXPECT_ACL(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION, "fail_block1");

    // Errors.
    EXPECT_ACL(aclrtStreamQuery(s, nullptr), ACL_ERROR_INVALID_PARAM, "status is NULL");
    EXPECT_ACL(aclrtStreamQuery(nullptr, nullptr), ACL_ERROR_INVALID_PARAM, "status is NULL");
    int bogus = 0;
    st = ACL_STREAM_STATUS_RESERVED;
    EXPECT_ACL(aclrtStreamQuery(&bogus, &st), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");
    CHECK(st == ACL_STREAM_STATUS_RESERVED);
    std::thread([s] {
        aclrtStreamStatus ts = ACL_STREAM_STATUS_RESERVED;
        // No device set in this thread yet.
        EXPECT_ACL(aclrtStreamQuery(s, &ts), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSetDevice");
        EXPECT_ACL(aclrtStreamQuery(nullptr, &ts), ACL_ERROR_RT_CONTEXT_NULL, "aclrtSetDevice");
        CHECK(ts == ACL_STREAM_STATUS_RESERVED);
        // A stream of another device.
        EXPECT_OK(aclrtSetDevice(1));
        EXPECT_ACL(aclrtStreamQuery(s, &ts), ACL_ERROR_RT_STREAM_CONTEXT, "belongs to device 0");
        EXPECT_OK(aclrtStreamQuery(nullptr, &ts));  // device 1's default stream
        CHECK(ts == ACL_STREAM_STATUS_COMPLETE);
        EXPECT_OK(aclrtResetDevice(1));
    }).join();
    EXPECT_OK(aclrtDestroyStream(s2));
    EXPECT_ACL(aclrtStreamQuery(s2, &st), ACL_ERROR_RT_INVALID_HANDLE, "not a live stream");

    EXPECT_OK(aclrtDestroyEvent(ev));
    EXPECT_OK(aclrtDestroyStream(s));
    EXPECT_OK(aclrtFree(flag));
    EXPECT_OK(aclrtFree(d));
}

// 8 threads, each with its own stream, many rounds of copy / launch / sync.
void test_threads(const Kernels &k) {
    constexpr int kThreads = 8;
    constexpr int kRounds = 150;
    std::atomic<int> bad{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            if (aclrtSetDevice(0) != ACL_SUCCESS) {
                ++bad;
                return;
            }
            aclrtStream s = nullptr;
            if (aclrtCreateStream(&s) != ACL_SUCCESS) ++bad;
            for (int r = 0; r < kRounds; ++r) {
                const size_t n = 256 + static_cast<size_t>((t * 131 + r * 17) % 2048);
                if (!run_vector_add(k, s, n, static_cast<float>(t * 1000 + r), (r % 2) == 0, (r % 3) != 0)) ++bad;
            }
            aclrtEvent ev = nullptr;
            if (aclrtCreateEvent(&ev) != ACL_SUCCESS || aclrtRecordEvent(ev, s) != ACL_SUCCESS ||
                aclrtSynchronizeEvent(ev) != ACL_SUCCESS || aclrtDestroyEvent(ev) != ACL_SUCCESS) {
                ++bad;
            }
            if (aclrtDestroyStream(s) != ACL_SUCCESS) ++bad;
            if (aclrtResetDevice(0) != ACL_SUCCESS) ++bad;
        });
    }
    for (auto &th : threads) th.join();
    CHECK(bad.load() == 0);
    size_t free_b = 0, total_b = 0;
    EXPECT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total_b));
    CHECK(free_b == total_b);
}

// Kernel faults and hangs end the device process, not this one; the device works after.
void test_faults_and_timeout(const Kernels &k) {
    aclrtStream s = nullptr;
    EXPECT_OK(aclrtCreateStream(&s));
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.crash_null, 3, s, nullptr, nullptr, 0, nullptr, 0));
    EXPECT_ACL(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_EXCEPTION,
               "kernel crash_null block 1: SIGSEGV (invalid memory access) at address 0x0");
    CHECK(run_vector_add(k, s, 1000, 2.0f, false, false));  // respawned
    EXPECT_OK(aclrtSetOpExecuteTimeOut(1));
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.spin_forever, 1, s, nullptr, nullptr, 0, nullptr, 0));
    EXPECT_ACL(aclrtSynchronizeStream(s), ACL_ERROR_RT_AICORE_TIMEOUT,
               "kernel spin_forever: did not finish within the operator execution timeout of 1 s");
    EXPECT_OK(aclrtSetOpExecuteTimeOut(547));  // the default again
    CHECK(run_vector_add(k, s, 1000, 3.0f, true, true));
    EXPECT_OK(aclrtDestroyStream(s));
}

// Freed device memory goes back to the OS (the shared heap punches holes).
void test_free_returns_memory() {
    auto shmem_kb = [] {
        FILE *f = std::fopen("/proc/self/status", "r");
        long kb = -1;
        char line[256];
        while (f != nullptr && std::fgets(line, sizeof(line), f) != nullptr) {
            if (std::sscanf(line, "RssShmem: %ld kB", &kb) == 1) break;
        }
        if (f != nullptr) std::fclose(f);
        return kb;
    };
    void *p = nullptr;
    const size_t bytes = size_t{64} << 20;
    EXPECT_OK(aclrtMalloc(&p, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_OK(aclrtMemset(p, bytes, 1, bytes));
    const long touched = shmem_kb();
    EXPECT_OK(aclrtFree(p));
    const long after = shmem_kb();
    CHECK(touched >= 0 && after >= 0 && touched - after >= 60 * 1024);

    // Address-ordered first fit with coalescing: two freed neighbours serve one larger request.
    void *a = nullptr, *b = nullptr, *c = nullptr, *d = nullptr;
    EXPECT_OK(aclrtMalloc(&a, 4000, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_OK(aclrtMalloc(&b, 4000, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_OK(aclrtMalloc(&c, 4000, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(reinterpret_cast<uintptr_t>(a) % 512 == 0 && reinterpret_cast<uintptr_t>(b) % 512 == 0);
    CHECK(a < b && b < c);
    EXPECT_OK(aclrtFree(b));
    EXPECT_OK(aclrtFree(a));
    EXPECT_OK(aclrtMalloc(&d, static_cast<size_t>(static_cast<char *>(c) - static_cast<char *>(a)) - 64,
                          ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(d == a);
    EXPECT_OK(aclrtFree(d));
    EXPECT_OK(aclrtFree(c));
}

void test_malloc_cycles() {
    size_t free0 = 0, total = 0, free1 = 0;
    EXPECT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
    int bad = 0;
    for (int i = 0; i < 100000; ++i) {
        void *p = nullptr;
        const size_t size = 1 + static_cast<size_t>((i * 7919) % 65536);
        if (aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) ++bad;
        if (aclrtFree(p) != ACL_SUCCESS) ++bad;
    }
    CHECK(bad == 0);
    EXPECT_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
    CHECK(free1 == free0);
}

void test_teardown(Kernels &k) {
    EXPECT_OK(aclrtBinaryUnLoad(k.bin));
    EXPECT_ACL(aclrtBinaryUnLoad(k.bin), ACL_ERROR_RT_INVALID_HANDLE, nullptr);
    std::vector<uint64_t> cargs{1};
    EXPECT_ACL(aclrtLaunchKernelWithHostArgs(k.fixed_cycles, 1, nullptr, nullptr, cargs.data(), 8, nullptr, 0),
               ACL_ERROR_RT_INVALID_HANDLE, "unloaded");

    // Device 0 was set twice by this thread: two resets release it.
    EXPECT_OK(aclrtResetDevice(0));
    int32_t dev = -1;
    EXPECT_OK(aclrtGetDevice(&dev));
    EXPECT_OK(aclrtResetDevice(0));
    EXPECT_ACL(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL, nullptr);
    EXPECT_ACL(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_NULL, nullptr);
    EXPECT_ACL(aclrtResetDevice(5), ACL_ERROR_RT_INVALID_DEVICEID, nullptr);
    test_fork_without_a_device_open();

    // aclFinalize releases whatever the user left behind (checked by the leak sanitizer).
    EXPECT_OK(aclrtSetDevice(1));
    aclrtStream s = nullptr;
    aclrtEvent e = nullptr;
    void *p = nullptr, *ph = nullptr;
    aclrtBinHandle bin = nullptr;
    aclrtFuncHandle fn = nullptr;
    EXPECT_OK(aclrtCreateStream(&s));
    EXPECT_OK(aclrtCreateEvent(&e));
    EXPECT_OK(aclrtMalloc(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_OK(aclrtMallocHost(&ph, 1 << 20));
    EXPECT_OK(aclrtBinaryLoadFromFile(PYASC_SIM_TEST_KERNELS, nullptr, &bin));
    EXPECT_OK(aclrtBinaryGetFunction(bin, "fixed_cycles", &fn));
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(fn, 4, s, nullptr, cargs.data(), 8, nullptr, 0));
    EXPECT_OK(aclrtRecordEvent(e, s));
    EXPECT_OK(aclFinalize());
    EXPECT_ACL(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE, nullptr);
    EXPECT_ACL(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE, nullptr);

    // Re-initialization works, with a different SoC.
    setenv("PYASC_SIM_SOC", "Ascend910B4", 1);
    EXPECT_OK(aclInit(nullptr));
    CHECK(contains(aclrtGetSocName(), "Ascend910B4"));
    EXPECT_ACL(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL, nullptr);
    EXPECT_OK(aclrtSetDevice(0));
    int64_t v = 0;
    EXPECT_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_VECTOR_CORE_NUM, &v));
    CHECK(v == 40);
    EXPECT_OK(aclrtMalloc(&p, 16, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_OK(aclrtFree(p));
    EXPECT_OK(aclrtResetDevice(0));
    EXPECT_OK(aclFinalize());
    unsetenv("PYASC_SIM_SOC");
}


// Timed waits (aclrtSynchronize{Stream,Event,Device}WithTimeout) and sticky errors seen through
// events: a timed-out wait keeps the error for a later synchronize; an event recorded after a
// failure reports it at every aclrtSynchronizeEvent; a stream waiting on that event inherits it.
void test_timed_waits_and_event_errors(const Kernels &k) {
    aclrtStream s = nullptr, s2 = nullptr;
    aclrtEvent ev = nullptr;
    EXPECT_OK(aclrtCreateStream(&s));
    EXPECT_OK(aclrtCreateStream(&s2));
    EXPECT_OK(aclrtCreateEvent(&ev));
    for (int32_t bad : {0, -2, INT32_MIN}) {
        EXPECT_ACL(aclrtSynchronizeStreamWithTimeout(s, bad), ACL_ERROR_INVALID_PARAM, "pass -1 to wait forever");
        EXPECT_ACL(aclrtSynchronizeEventWithTimeout(ev, bad), ACL_ERROR_INVALID_PARAM, "pass -1 to wait forever");
        EXPECT_ACL(aclrtSynchronizeDeviceWithTimeout(bad), ACL_ERROR_INVALID_PARAM, "pass -1 to wait forever");
    }
    EXPECT_OK(aclrtSynchronizeStreamWithTimeout(s, -1));  // idle streams
    EXPECT_OK(aclrtSynchronizeStreamWithTimeout(nullptr, 10));
    EXPECT_OK(aclrtSynchronizeEventWithTimeout(ev, 10));  // never recorded
    EXPECT_OK(aclrtSynchronizeDeviceWithTimeout(10));

    void *flag = nullptr;
    EXPECT_OK(aclrtMalloc(&flag, 4, ACL_MEM_MALLOC_HUGE_FIRST));
    const uint32_t zero = 0;
    EXPECT_OK(aclrtMemcpy(flag, 4, &zero, 4, ACL_MEMCPY_HOST_TO_DEVICE));
    std::vector<uint64_t> fargs{u64(flag)}, open_args{u64(flag), 1};
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.fail_block1, 4, s, nullptr, nullptr, 0, nullptr, 0));
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.wait_flag, 1, s, nullptr, fargs.data(), 8, nullptr, 0));
    EXPECT_OK(aclrtRecordEvent(ev, s));
    EXPECT_OK(aclrtStreamWaitEvent(s2, ev));
    for (int i = 0; i < 2; ++i) {  // time out, again and again, without consuming the sticky error
        EXPECT_ACL(aclrtSynchronizeStreamWithTimeout(s, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "within 20 ms");
        EXPECT_ACL(aclrtSynchronizeEventWithTimeout(ev, 20), ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "within 20 ms");
        EXPECT_ACL(aclrtSynchronizeDeviceWithTimeout(20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "within 20 ms");
        EXPECT_ACL(aclrtSynchronizeStreamWithTimeout(s2, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "within 20 ms");
    }
    aclrtEventRecordedStatus st = ACL_EVENT_RECORDED_STATUS_COMPLETE;
    EXPECT_OK(aclrtQueryEventStatus(ev, &st));
    CHECK(st == ACL_EVENT_RECORDED_STATUS_NOT_READY);
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.set_flag, 1, nullptr, nullptr, open_args.data(), 16, nullptr, 0));
    EXPECT_OK(aclrtSynchronizeStream(nullptr));
    // The event reports the failure before its record, every time (it stays true of that record).
    EXPECT_ACL(aclrtSynchronizeEventWithTimeout(ev, -1), ACL_ERROR_RT_AICORE_EXCEPTION, "fail_block1");
    EXPECT_ACL(aclrtSynchronizeEvent(ev), ACL_ERROR_RT_AICORE_EXCEPTION, "a task before the event's record failed");
    EXPECT_OK(aclrtQueryEventStatus(ev, &st));  // the status only
    CHECK(st == ACL_EVENT_RECORDED_STATUS_COMPLETE);
    // Each stream reports it once: the failing one, and the one that waited on the event.
    EXPECT_ACL(aclrtSynchronizeStreamWithTimeout(s, 5000), ACL_ERROR_RT_AICORE_EXCEPTION, "fail_block1");
    EXPECT_OK(aclrtSynchronizeStream(s));
    EXPECT_ACL(aclrtSynchronizeStream(s2), ACL_ERROR_RT_AICORE_EXCEPTION, "waited on an event recorded after a failed task");
    EXPECT_OK(aclrtSynchronizeStream(s2));
    EXPECT_ACL(aclrtSynchronizeEvent(ev), ACL_ERROR_RT_AICORE_EXCEPTION, "fail_block1");  // until re-recorded
    EXPECT_OK(aclrtRecordEvent(ev, s));  // after the report: a clean record
    EXPECT_OK(aclrtSynchronizeEvent(ev));
    EXPECT_OK(aclrtStreamWaitEvent(s2, ev));
    EXPECT_OK(aclrtSynchronizeStream(s2));
    // The device-wide timed wait reports a failure once, too.
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(k.fail_block1, 4, s2, nullptr, nullptr, 0, nullptr, 0));
    EXPECT_ACL(aclrtSynchronizeDeviceWithTimeout(5000), ACL_ERROR_RT_AICORE_EXCEPTION, "fail_block1");
    EXPECT_OK(aclrtSynchronizeDeviceWithTimeout(5000));
    EXPECT_OK(aclrtDestroyEvent(ev));
    EXPECT_OK(aclrtDestroyStream(s));
    EXPECT_OK(aclrtDestroyStream(s2));
    EXPECT_OK(aclrtFree(flag));
}

// Runs `body` in a forked child and returns its exit status (-1: it did not end within 30 s and
// was killed: a hang).
template <class F>
int in_forked_child(F body) {
    std::fflush(nullptr);
    const int failed_before = g_fail.load();
    const pid_t pid = fork();
    if (pid == 0) {
        body();
        std::fflush(nullptr);
        std::exit(g_fail.load() == failed_before ? 0 : 1);  // a normal exit: static destructors run
    }
    for (int i = 0; i < 3000; ++i) {
        int status = 0;
        if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    return -1;
}

// A child forked while a device is open cannot use it: every entry point fails at once with a
// message naming the parent and the fix, and the child exits without joining the parent's threads.
void test_fork_with_a_device_open(const Kernels &k) {
    aclrtStream s = nullptr;
    void *p = nullptr;
    EXPECT_OK(aclrtCreateStream(&s));
    EXPECT_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    const std::string parent = "initialised in process " + std::to_string(getpid()) + " before fork()";
    const int status = in_forked_child([&] {
        const char *fix = parent.c_str();
        void *q = nullptr;
        aclrtStream s2 = nullptr;
        EXPECT_ACL(aclrtMalloc(&q, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL, fix);
        EXPECT_ACL(aclrtMemset(p, 64, 0, 64), ACL_ERROR_RT_CONTEXT_NULL, "'spawn' or 'forkserver'");
        EXPECT_ACL(aclrtCreateStream(&s2), ACL_ERROR_RT_CONTEXT_NULL, fix);
        EXPECT_ACL(aclrtSynchronizeStream(s), ACL_ERROR_RT_CONTEXT_NULL, fix);
        EXPECT_ACL(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL, fix);
        std::vector<uint64_t> cargs{1};
        EXPECT_ACL(aclrtLaunchKernelWithHostArgs(k.fixed_cycles, 1, s, nullptr, cargs.data(), 8, nullptr, 0),
                   ACL_ERROR_RT_CONTEXT_NULL, fix);
        EXPECT_ACL(aclrtSetDevice(0), ACL_ERROR_RT_CONTEXT_NULL, fix);
        EXPECT_ACL(aclrtResetDevice(0), ACL_ERROR_RT_CONTEXT_NULL, fix);
        EXPECT_ACL(aclInit(nullptr), ACL_ERROR_RT_CONTEXT_NULL, fix);
        EXPECT_ACL(aclFinalize(), ACL_ERROR_RT_CONTEXT_NULL, fix);
        // A grandchild names the same process.
        const int inner = in_forked_child([&] { EXPECT_ACL(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL, fix); });
        if (inner != 0) std::fprintf(stderr, "grandchild status %d\n", inner);
        CHECK(inner == 0);
    });
    if (status != 0) std::fprintf(stderr, "child status %d\n", status);
    CHECK(status == 0);
    EXPECT_OK(aclrtSynchronizeStream(s));  // the parent is unaffected
    EXPECT_OK(aclrtFree(p));
    EXPECT_OK(aclrtDestroyStream(s));
}

// A child forked while no device is open (the runtime initialised only) may open its own.
void test_fork_without_a_device_open() {
    const int status = in_forked_child([] {
        void *q = nullptr;
        EXPECT_OK(aclrtSetDevice(0));
        EXPECT_OK(aclrtMalloc(&q, 64, ACL_MEM_MALLOC_HUGE_FIRST));
        EXPECT_OK(aclrtMemsetAsync(q, 64, 1, 64, nullptr));
        EXPECT_OK(aclrtSynchronizeDevice());
        EXPECT_OK(aclrtFree(q));
        EXPECT_OK(aclrtResetDevice(0));
    });
    if (status != 0) std::fprintf(stderr, "child status %d\n", status);
    CHECK(status == 0);
}

}  // namespace

// Leaves work and resources behind and returns from main without aclFinalize:
// the runtime must still shut down cleanly at exit (no hang, crash or leak).
int exit_without_finalize() {
    EXPECT_OK(aclInit(nullptr));
    EXPECT_OK(aclrtSetDevice(0));
    aclrtBinHandle bin = nullptr;
    aclrtFuncHandle fn = nullptr;
    aclrtStream s = nullptr;
    void *p = nullptr;
    EXPECT_OK(aclrtBinaryLoadFromFile(PYASC_SIM_TEST_KERNELS, nullptr, &bin));
    EXPECT_OK(aclrtBinaryGetFunction(bin, "sleep_write", &fn));
    EXPECT_OK(aclrtCreateStream(&s));
    EXPECT_OK(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    std::vector<uint64_t> sargs{u64(p), 1, 20000};
    EXPECT_OK(aclrtLaunchKernelWithHostArgs(fn, 4, s, nullptr, sargs.data(), 24, nullptr, 0));
    std::printf("%d passed, %d failed\n", g_pass.load(), g_fail.load());
    return g_fail.load() == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    if (argc > 1 && std::strcmp(argv[1], "--exit-without-finalize") == 0) return exit_without_finalize();
    const double t0 = now_ms();
    test_before_init();
    test_devices();
    test_memory();
    Kernels k = load_kernels();
    test_streams_and_kernels(k);
    test_events(k);
    test_stream_query(k);
    test_timed_waits_and_event_errors(k);
    test_fork_with_a_device_open(k);
    test_threads(k);
    test_faults_and_timeout(k);
    test_free_returns_memory();
    test_malloc_cycles();
    test_teardown(k);
    std::printf("test_runtime: %.1f s\n", (now_ms() - t0) / 1000.0);
    std::printf("%d passed, %d failed\n", g_pass.load(), g_fail.load());
    return g_fail.load() == 0 ? 0 : 1;
}
