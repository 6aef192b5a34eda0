// Runs the blocks of one kernel launch on a thread pool, with the kernel ABI callbacks and the
// cross-block write-overlap check.  Used by the device process (pyasc-sim-device).
#ifndef PYASC_SIM_BLOCK_RUNNER_H_
#define PYASC_SIM_BLOCK_RUNNER_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "pyasc_sim/kernel_abi.h"
#include "thread_pool.h"

namespace pyasc_sim {

struct LaunchSpec {
    PyascSimKernelEntry entry = nullptr;
    const char *kernel_name = "";
    const char *soc_name = "";
    uint32_t num_blocks = 0;
    const void *args = nullptr;
    size_t args_size = 0;
    bool checks = true;
    bool strict = false;  // PYASC_SIM_FLAG_STRICT: warnings are errors
    uint32_t vector_cores = 0, cube_cores = 0;
    uint64_t ub_bytes = 0, l1_bytes = 0, l0a_bytes = 0, l0b_bytes = 0, l0c_bytes = 0;
    // Answers PyascSimBlockContext::gm_query (user is passed through).
    int (*gm_query)(void *user, const void *p, uint64_t *base, uint64_t *size, char *why, size_t why_size) = nullptr;
    void *gm_query_user = nullptr;
    uint8_t *gm_uninit = nullptr;  // initcheck shadow (kernel ABI v5), null: none
    uint64_t gm_uninit_base = 0, gm_uninit_span = 0;
    // Called on the block's thread around each block (crash reports name the block); may be null.
    void (*block_begin)(int tag, uint32_t block) = nullptr;
    void (*block_end)() = nullptr;
    int tag = 0;  // passed to block_begin and draining (the device process: the launch's slot)
    // Called once, on the first pool thread that finds no block left to start while another
    // block still runs (the launch's tail: at most about one block's time left); may be null.
    void (*draining)(int tag) = nullptr;
    bool profile = false;    // PYASC_SIM_FLAG_PROFILE: blocks hand back their timeline spans
    uint64_t span_cap = 0;   // spans the launch keeps at most
};

// One timeline span of a launch, as the profiler's span file stores it (48 bytes, little endian).
struct SpanRecord {
    double start, end;  // simulated cycles since the block started
    uint64_t bytes;
    uint32_t block, count, line, file;  // file: index into LaunchOutcome::files
    uint16_t core, pipe, kind, reserved;
};
static_assert(sizeof(SpanRecord) == 48, "the span file's record layout");

struct LaunchOutcome {
    int32_t status = 0;     // 0, or the status of the lowest failing block
    uint32_t block = 0;     // that block
    std::string message;    // its message (without the "kernel K block B: " prefix)
    std::vector<std::string> warnings;  // "block B: sanitizer warning ..." (at most kMaxLaunchWarnings)
    uint32_t cores_per_block = 1;       // 3 for a mixed cube/vector kernel (1 AIC + 2 AIV per block)
    std::vector<SpanRecord> spans;      // the profiler's spans (LaunchSpec::profile)
    std::vector<std::string> files;     // their source files
    uint64_t dropped_spans = 0;         // spans past the cap
};

constexpr size_t kMaxLaunchWarnings = 16;

// Runs blocks 0..num_blocks-1 of `spec` on `pool`; cycles[i] receives block i's cycle count.
void run_blocks(ThreadPool &pool, const LaunchSpec &spec, uint64_t *cycles, LaunchOutcome *out);

}  // namespace pyasc_sim

#endif  // PYASC_SIM_BLOCK_RUNNER_H_
