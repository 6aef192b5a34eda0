#include "block_runner.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <vector>

#include "error.h"
#include "pyasc/acl_abi.h"

namespace pyasc_sim {

namespace {

// State the kernel ABI v2 / v3 callbacks see during one launch.
struct LaunchState {
    const LaunchSpec *spec = nullptr;
    std::vector<std::vector<PyascSimGmWrite>> writes;  // per block; each block fills its own slot
};

int gm_query_cb(void *user, const void *p, uint64_t *base, uint64_t *size, char *why, size_t why_size) {
    const LaunchSpec &spec = *static_cast<LaunchState *>(user)->spec;
    return spec.gm_query(spec.gm_query_user, p, base, size, why, why_size);
}

void report_gm_writes_cb(void *user, uint32_t block_idx, const PyascSimGmRange *ranges, size_t count) {
    LaunchState *ls = static_cast<LaunchState *>(user);
    if (ls == nullptr || block_idx >= ls->writes.size() || (ranges == nullptr && count != 0)) return;
    std::vector<PyascSimGmWrite> &w = ls->writes[block_idx];
    w.clear();
    w.reserve(count);
    for (size_t i = 0; i < count; ++i) w.push_back({ranges[i].begin, ranges[i].end, nullptr, 0, 0});
}

void report_gm_write_sites_cb(void *user, uint32_t block_idx, const PyascSimGmWrite *writes, size_t count) {
    LaunchState *ls = static_cast<LaunchState *>(user);
    if (ls == nullptr || block_idx >= ls->writes.size() || (writes == nullptr && count != 0)) return;
    ls->writes[block_idx].assign(writes, writes + count);
}

// "file:line" of a write, or "" when the kernel did not say.
std::string site_str(const PyascSimGmWrite &w) {
    if (w.file == nullptr || w.file[0] == '\0') return std::string();
    return format("%s:%u", w.file, w.line);
}

// Finds two different blocks that wrote overlapping global memory.  Sweeps the ranges
// by start address keeping the furthest-reaching range and the furthest-reaching one
// of any other block, so every cross-block overlap is seen.  Returns false when none.
// The writes of the two blocks are returned in *write_a / *write_b (with their source lines when
// the kernel reported them).
bool find_cross_block_overlap(const std::vector<std::vector<PyascSimGmWrite>> &writes, uint32_t *block_a,
                              uint32_t *block_b, uint64_t *begin, uint64_t *end, PyascSimGmWrite *write_a,
                              PyascSimGmWrite *write_b) {
    struct Item {
        const PyascSimGmWrite *w;
        uint32_t block;
    };
    std::vector<Item> items;
    for (uint32_t b = 0; b < writes.size(); ++b) {
        for (const PyascSimGmWrite &r : writes[b]) {
            if (r.end > r.begin) items.push_back({&r, b});
        }
    }
    std::sort(items.begin(), items.end(), [](const Item &x, const Item &y) { return x.w->begin < y.w->begin; });
    const uint32_t none = std::numeric_limits<uint32_t>::max();
    // the furthest-reaching range, and the furthest-reaching one of a block other than b1's
    uint64_t e1 = 0, e2 = 0;
    uint32_t b1 = none, b2 = none;
    const PyascSimGmWrite *w1 = nullptr, *w2 = nullptr;
    for (const Item &it : items) {
        const PyascSimGmWrite &r = *it.w;
        uint32_t other = none;
        uint64_t other_end = 0;
        const PyascSimGmWrite *other_w = nullptr;
        if (b1 != none && b1 != it.block && r.begin < e1) {
            other = b1;
            other_end = e1;
            other_w = w1;
        } else if (b2 != none && b2 != it.block && r.begin < e2) {
            other = b2;
            other_end = e2;
            other_w = w2;
        }
        if (other != none) {
            *block_a = std::min(other, it.block);
            *block_b = std::max(other, it.block);
            *write_a = other < it.block ? *other_w : r;
            *write_b = other < it.block ? r : *other_w;
            *begin = r.begin;
            *end = std::min(r.end, other_end);
            return true;
        }
        if (it.block == b1) {
            if (r.end > e1) {
                e1 = r.end;
                w1 = &r;
            }
        } else if (r.end > e1) {
            e2 = e1;
            b2 = b1;
            w2 = w1;
            e1 = r.end;
            b1 = it.block;
            w1 = &r;
        } else if (r.end > e2) {
            e2 = r.end;
            b2 = it.block;
            w2 = &r;
        }
    }
    return false;
}

}  // namespace

void run_blocks(ThreadPool &pool, const LaunchSpec &spec, uint64_t *cycles, LaunchOutcome *out) {
    const uint32_t num_blocks = spec.num_blocks;
    const bool checks = spec.checks;
    LaunchState launch_state;
    launch_state.spec = &spec;
    if (checks) launch_state.writes.resize(num_blocks);
    std::mutex failure_mu;
    uint32_t fail_block = std::numeric_limits<uint32_t>::max();
    int32_t fail_status = 0;
    std::string fail_message;
    const std::function<void(uint32_t)> body = [&](uint32_t i) {
        PyascSimBlockContext ctx;
        std::memset(&ctx, 0, sizeof(ctx));
        ctx.abi_version = PYASC_SIM_KERNEL_ABI_VERSION;
        ctx.block_idx = i;
        ctx.block_dim = num_blocks;
        ctx.args = spec.args_size == 0 ? nullptr : spec.args;
        ctx.args_size = spec.args_size;
        ctx.soc_name = spec.soc_name;
        ctx.flags = checks ? PYASC_SIM_FLAG_CHECKS : 0u;
        ctx.vector_cores = spec.vector_cores;
        ctx.cube_cores = spec.cube_cores;
        ctx.kernel_name = spec.kernel_name;
        ctx.ub_bytes = spec.ub_bytes;
        ctx.l1_bytes = spec.l1_bytes;
        ctx.l0a_bytes = spec.l0a_bytes;
        ctx.l0b_bytes = spec.l0b_bytes;
        ctx.l0c_bytes = spec.l0c_bytes;
        ctx.runtime_user = &launch_state;
        ctx.gm_query = gm_query_cb;
        ctx.report_gm_writes = checks ? report_gm_writes_cb : nullptr;
        ctx.report_gm_write_sites = checks ? report_gm_write_sites_cb : nullptr;
        ctx.gm_uninit = checks ? spec.gm_uninit : nullptr;
        ctx.gm_uninit_base = spec.gm_uninit_base;
        ctx.gm_uninit_span = spec.gm_uninit_span;
        if (spec.block_begin != nullptr) spec.block_begin(spec.tag, i);
        try {
            spec.entry(&ctx);
        } catch (const std::exception &e) {
            ctx.status = ACL_ERROR_RT_AICORE_EXCEPTION;
            std::snprintf(ctx.message, sizeof(ctx.message), "uncaught C++ exception: %s", e.what());
        } catch (...) {
            ctx.status = ACL_ERROR_RT_AICORE_EXCEPTION;
            std::snprintf(ctx.message, sizeof(ctx.message), "uncaught C++ exception of unknown type");
        }
        if (spec.block_end != nullptr) spec.block_end();
        cycles[i] = ctx.cycles;
        if (ctx.status != 0) {
            ctx.message[sizeof(ctx.message) - 1] = '\0';
            std::lock_guard<std::mutex> lock(failure_mu);
            if (i < fail_block) {  // deterministic: the lowest failing block wins
                fail_block = i;
                fail_status = ctx.status;
                fail_message = ctx.message[0] != '\0' ? ctx.message : "(no message)";
            }
        }
    };
    pool.parallel_for(num_blocks, body);

    // Cross-core check: two blocks of one launch wrote the same global memory (a race on
    // hardware, where blocks run on different cores in any order).
    uint32_t ba = 0, bb = 0;
    uint64_t ob = 0, oe = 0;
    PyascSimGmWrite wa{}, wb{};
    if (checks && fail_status == 0 &&
        find_cross_block_overlap(launch_state.writes, &ba, &bb, &ob, &oe, &wa, &wb)) {
        // With ABI v3 kernels the message names the lines that wrote, like the other checks
        // ("failed at <file>:<line>" of the block it is reported for).
        const std::string sa = site_str(wa), sb = site_str(wb);
        const std::string at = sb.empty() ? std::string() : " at " + sb;
        const std::string lines = sa.empty() || sb.empty()
                                      ? std::string()
                                      : format(" (block %u at %s, block %u at %s)", ba, sa.c_str(), bb, sb.c_str());
        fail_block = bb;
        fail_status = ACL_ERROR_RT_AICORE_EXCEPTION;
        fail_message = format(
            "sanitizer check 'gm-write-overlap' failed%s: blocks %u and %u both wrote global memory [%s, %s) "
            "(%llu bytes overlap) in one launch%s; on hardware the cores race and the result depends on their "
            "order. Give every block a disjoint output range",
            at.c_str(), ba, bb, ptr_str(reinterpret_cast<const void *>(static_cast<uintptr_t>(ob))).c_str(),
            ptr_str(reinterpret_cast<const void *>(static_cast<uintptr_t>(oe))).c_str(),
            static_cast<unsigned long long>(oe - ob), lines.c_str());
    }
    out->status = fail_status;
    out->block = fail_status != 0 ? fail_block : 0;
    out->message = fail_message;
}

}  // namespace pyasc_sim
