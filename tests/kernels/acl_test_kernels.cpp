// Plain C++ test kernels for the ACL binding on the simulator (simulator kernel ABI, no Ascend C).
// Built at test time with pyasc_sim.compile_kernel (g++ -shared -fPIC, cached by content hash).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "pyasc_sim/kernel_abi.h"

PYASC_SIM_DEFINE_ABI_VERSION();

namespace {

uint64_t arg(const PyascSimBlockContext *ctx, size_t i) {
    uint64_t v = 0;
    if ((i + 1) * 8 <= ctx->args_size) std::memcpy(&v, static_cast<const char *>(ctx->args) + i * 8, 8);
    return v;
}

bool need(PyascSimBlockContext *ctx, size_t n) {
    if (ctx->args_size >= n * 8) return true;
    ctx->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
    std::snprintf(ctx->message, sizeof(ctx->message), "expected %zu arguments, got %zu bytes", n, ctx->args_size);
    return false;
}

}  // namespace

// out[i] = in[i] + k (int32), i < n, split across blocks.  args: in, out, n, k
PYASC_SIM_KERNEL_ENTRY(add_scalar_i32) {
    if (!need(ctx, 4)) return;
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
    if (!need(ctx, 4)) return;
    if (ctx->block_idx != 0) return;
    std::this_thread::sleep_for(std::chrono::microseconds(arg(ctx, 3)));
    std::memset(reinterpret_cast<void *>(arg(ctx, 0)), static_cast<int>(arg(ctx, 2)), arg(ctx, 1));
    ctx->cycles = arg(ctx, 3) * 1000;
}

// Blocks until *flag (uint32, device memory) becomes nonzero.  args: flag
PYASC_SIM_KERNEL_ENTRY(wait_flag) {
    if (!need(ctx, 1)) return;
    volatile uint32_t *flag = reinterpret_cast<volatile uint32_t *>(arg(ctx, 0));
    while (*flag == 0) std::this_thread::sleep_for(std::chrono::microseconds(50));
}

// Block 1 reports an AI Core exception.
PYASC_SIM_KERNEL_ENTRY(fail_block1) {
    if (ctx->block_idx == 1) {
        ctx->status = PYASC_SIM_STATUS_AICORE_EXCEPTION;
        std::snprintf(ctx->message, sizeof(ctx->message), "injected failure in block %u", ctx->block_idx);
    }
}

// Throws a C++ exception.
PYASC_SIM_KERNEL_ENTRY(throws) { throw std::runtime_error("test kernel threw"); }

// Does nothing (launch overhead benchmarks).
PYASC_SIM_KERNEL_ENTRY(empty) { ctx->cycles = 1; }
