// Plain C++ test kernels written directly against the simulator kernel ABI (no Ascend C API):
// each block does plain C++ work. One copy for both test suites: the runtime's C++ tests
// (backends/sim/tests/test_runtime.cpp, built by CMake) and the Python tests of the ACL binding on
// the simulator (tests/acl_fixtures.py builds it with pyasc_sim.compile_kernel, cached by content).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "pyasc_sim/kernel_abi.h"

PYASC_SIM_DEFINE_ABI_VERSION();

namespace {

// Reads the i-th 8-byte argument of the launch.
uint64_t arg(const PyascSimBlockContext *ctx, size_t i) {
    uint64_t v = 0;
    if ((i + 1) * 8 <= ctx->args_size) std::memcpy(&v, static_cast<const char *>(ctx->args) + i * 8, 8);
    return v;
}

bool check_args(PyascSimBlockContext *ctx, size_t n) {
    if (ctx->abi_version != PYASC_SIM_KERNEL_ABI_VERSION || ctx->args_size < n * 8) {
        ctx->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
        std::snprintf(ctx->message, sizeof(ctx->message), "expected %zu arguments, got %zu bytes (abi %u)", n,
                      ctx->args_size, ctx->abi_version);
        return false;
    }
    return true;
}

}  // namespace

// z[i] = x[i] + y[i] for i < n, split evenly across blocks.
// args: x, y, z (GM addresses), n
PYASC_SIM_KERNEL_ENTRY(vector_add) {
    if (!check_args(ctx, 4)) return;
    const float *x = reinterpret_cast<const float *>(arg(ctx, 0));
    const float *y = reinterpret_cast<const float *>(arg(ctx, 1));
    float *z = reinterpret_cast<float *>(arg(ctx, 2));
    const uint64_t n = arg(ctx, 3);
    const uint64_t per = (n + ctx->block_dim - 1) / ctx->block_dim;
    const uint64_t begin = per * ctx->block_idx;
    const uint64_t end = begin + per < n ? begin + per : n;
    for (uint64_t i = begin; i < end; ++i) z[i] = x[i] + y[i];
    ctx->cycles = 100 + (end > begin ? (end - begin) / 8 : 0);  // 8 floats per cycle, plus setup
}

// out[i] = in[i] + k (int32), i < n, split across blocks.  args: in, out, n, k
PYASC_SIM_KERNEL_ENTRY(add_scalar_i32) {
    if (!check_args(ctx, 4)) return;
    const int32_t *in = reinterpret_cast<const int32_t *>(arg(ctx, 0));
    int32_t *out = reinterpret_cast<int32_t *>(arg(ctx, 1));
    const uint64_t n = arg(ctx, 2);
    const int32_t k = static_cast<int32_t>(arg(ctx, 3));
    const uint64_t per = (n + ctx->block_dim - 1) / ctx->block_dim;
    const uint64_t begin = per * ctx->block_idx;
    const uint64_t end = begin + per < n ? begin + per : n;
    for (uint64_t i = begin; i < end; ++i) out[i] = in[i] + k;
    ctx->cycles = 100 + (end > begin ? end - begin : 0);
}

// Sleeps sleep_us, then sets nbytes of out to value (block 0 only).  args: out, nbytes, value, sleep_us
PYASC_SIM_KERNEL_ENTRY(slow_fill) {
    if (!check_args(ctx, 4)) return;
    if (ctx->block_idx != 0) return;
    std::this_thread::sleep_for(std::chrono::microseconds(arg(ctx, 3)));
    std::memset(reinterpret_cast<void *>(arg(ctx, 0)), static_cast<int>(arg(ctx, 2)), arg(ctx, 1));
    ctx->cycles = arg(ctx, 3) * 1000;
}

// Block 1 reports an AI Core exception; the others succeed (launch it with 2 blocks or more).
PYASC_SIM_KERNEL_ENTRY(fail_block1) {
    ctx->cycles = 10;
    if (ctx->block_idx == 1) {
        ctx->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
        std::snprintf(ctx->message, sizeof(ctx->message), "injected failure in block %u", ctx->block_idx);
    }
}

// Sleeps, then writes `value` to out[block_idx] (uint32).  args: out, value, sleep_us
PYASC_SIM_KERNEL_ENTRY(sleep_write) {
    if (!check_args(ctx, 3)) return;
    uint32_t *out = reinterpret_cast<uint32_t *>(arg(ctx, 0));
    const uint32_t value = static_cast<uint32_t>(arg(ctx, 1));
    const uint64_t sleep_us = arg(ctx, 2);
    std::this_thread::sleep_for(std::chrono::microseconds(sleep_us));
    out[ctx->block_idx] = value;
    ctx->cycles = sleep_us * 1000;
}

// Block 0 sleeps first_us, the last block last_us (the others return at once): with last_us >
// first_us the launch has a long tail, one block still running while a pool thread is idle.
// args: first_us, last_us
PYASC_SIM_KERNEL_ENTRY(tail_sleep) {
    if (!check_args(ctx, 2)) return;
    const uint64_t us = ctx->block_idx == 0 ? arg(ctx, 0) : ctx->block_idx + 1 == ctx->block_dim ? arg(ctx, 1) : 0;
    std::this_thread::sleep_for(std::chrono::microseconds(us));
    ctx->cycles = 10;
}

// Blocks until *flag (uint32, device memory) becomes nonzero: set_flag on another stream opens it.
// args: flag
PYASC_SIM_KERNEL_ENTRY(wait_flag) {
    if (!check_args(ctx, 1)) return;
    const uint32_t *flag = reinterpret_cast<const uint32_t *>(arg(ctx, 0));
    while (__atomic_load_n(flag, __ATOMIC_ACQUIRE) == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
    ctx->cycles = 10;
}

// *flag = value (uint32, device memory), atomically, for wait_flag.  args: flag, value
PYASC_SIM_KERNEL_ENTRY(set_flag) {
    if (!check_args(ctx, 2)) return;
    __atomic_store_n(reinterpret_cast<uint32_t *>(arg(ctx, 0)), static_cast<uint32_t>(arg(ctx, 1)), __ATOMIC_RELEASE);
    ctx->cycles = 10;
}

// Reports a fixed cost per block and does nothing else.  args: cycles
PYASC_SIM_KERNEL_ENTRY(fixed_cycles) {
    if (!check_args(ctx, 1)) return;
    ctx->cycles = arg(ctx, 0);
}

// Throws a C++ exception (every block).
PYASC_SIM_KERNEL_ENTRY(throws) {
    (void)ctx;
    throw std::runtime_error("test kernel threw");
}

// Does nothing (launch overhead benchmarks).
PYASC_SIM_KERNEL_ENTRY(empty) { ctx->cycles = 1; }

// Writes the context it received: out[block] = {block_idx, block_dim, args_size, soc first char}.
PYASC_SIM_KERNEL_ENTRY(echo_context) {
    if (!check_args(ctx, 1)) return;
    uint32_t *out = reinterpret_cast<uint32_t *>(arg(ctx, 0)) + 4 * ctx->block_idx;
    out[0] = ctx->block_idx;
    out[1] = ctx->block_dim;
    out[2] = static_cast<uint32_t>(ctx->args_size);
    out[3] = ctx->soc_name ? static_cast<uint32_t>(std::strlen(ctx->soc_name)) : 0;
}

// Block 1 dereferences a null pointer (the device process crashes; the host reports it).
PYASC_SIM_KERNEL_ENTRY(crash_null) {
    if (ctx->block_idx != 1) return;
    volatile int *p = nullptr;
    *p = 1;
}

// Never returns (the operator execution timeout ends it).
PYASC_SIM_KERNEL_ENTRY(spin_forever) {
    (void)ctx;
    volatile uint64_t n = 0;
    for (;;) n = n + 1;
}
