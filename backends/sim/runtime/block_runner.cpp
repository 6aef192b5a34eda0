#include "block_runner.h"

#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "error.h"
#include "xcore_race.h"
#include "pyasc/acl_abi.h"

namespace pyasc_sim {

namespace {

// State the kernel ABI v2 .. v4 callbacks see during one launch.
struct LaunchState {
    const LaunchSpec *spec = nullptr;
    std::vector<std::vector<PyascSimGmWrite>> writes;  // per block; each block fills its own slot
    std::mutex warn_mu;
    std::vector<std::string> warnings;
    // ---- cross-core waits (ABI v4) ----
    std::mutex mu;
    std::condition_variable cv;
    std::unique_ptr<uint64_t[]> shared;  // launch_shared's area (8-byte aligned, zeroed)
    size_t shared_bytes = 0;
    std::atomic<uint32_t> next{0};  // next block index to start
    std::atomic<uint32_t> ended{0};  // blocks whose body returned
    std::atomic<bool> drain_told{false};  // LaunchSpec::draining was called
    uint32_t num_blocks = 0;
    uint32_t participants = 0;  // blocks + the extra cores of mixed kernels' blocks
    uint32_t finished = 0;   // blocks (and extra cores) that returned
    uint32_t waiting = 0;    // blocks inside cross_core_wait
    uint32_t polling = 0;    // blocks inside poll_wait (ABI v7)
    uint64_t generation = 0; // bumped by every notify / block end
    uint32_t evaluated = 0;  // waiters that evaluated their condition at `generation`
    uint32_t poll_evaluated = 0;  // pollers that saw no change at `generation`
    bool deadlock = false;
    std::string deadlock_why;
    std::vector<std::thread> helpers;  // extra threads started so that waiting blocks never starve
    const std::function<void(uint32_t)> *worker = nullptr;
    // ---- profiler (ABI v6) ----
    std::mutex span_mu;
    std::vector<SpanRecord> spans;
    std::vector<std::string> files;
    std::unordered_map<const char *, uint32_t> file_index;
    uint64_t span_cap = 0, dropped = 0;
};

void report_spans_cb(void *user, uint32_t block_idx, uint32_t core, const PyascSimSpan *spans, size_t count,
                     uint64_t dropped) {
    LaunchState *ls = static_cast<LaunchState *>(user);
    if (ls == nullptr) return;
    std::lock_guard<std::mutex> lock(ls->span_mu);
    ls->dropped += dropped;
    for (size_t i = 0; i < count; ++i) {
        if (ls->spans.size() >= ls->span_cap) {
            ls->dropped += count - i;
            break;
        }
        const PyascSimSpan &x = spans[i];
        uint32_t file = 0;
        const char *f = x.file != nullptr ? x.file : "";
        auto it = ls->file_index.find(f);
        if (it != ls->file_index.end()) {
            file = it->second;
        } else {
            file = static_cast<uint32_t>(ls->files.size());
            ls->files.emplace_back(f);
            ls->file_index.emplace(f, file);
        }
        ls->spans.push_back(SpanRecord{x.start, x.end, x.bytes, block_idx, x.count, x.line, file,
                                       static_cast<uint16_t>(core), x.pipe, x.kind, 0});
    }
}

void report_warning_cb(void *user, uint32_t block_idx, const char *message) {
    LaunchState *ls = static_cast<LaunchState *>(user);
    if (ls == nullptr || message == nullptr) return;
    std::lock_guard<std::mutex> lock(ls->warn_mu);
    if (ls->warnings.size() < kMaxLaunchWarnings) ls->warnings.push_back(format("block %u: %s", block_idx, message));
}

void *launch_shared_cb(void *user, size_t bytes) {
    LaunchState *ls = static_cast<LaunchState *>(user);
    std::lock_guard<std::mutex> lock(ls->mu);
    if (!ls->shared) {
        const size_t words = (bytes + 7) / 8;
        ls->shared.reset(new uint64_t[words == 0 ? 1 : words]());
        ls->shared_bytes = bytes;
    }
    return bytes <= ls->shared_bytes ? ls->shared.get() : nullptr;
}

// Runs blocks on a fresh thread (with its own alternate signal stack, so a crash is still reported).
void helper_main(LaunchState *ls) {
    std::vector<char> alt(256 * 1024);
    stack_t ss{}, old{};
    ss.ss_sp = alt.data();
    ss.ss_size = alt.size();
    const bool have_alt = sigaltstack(&ss, &old) == 0;
    (*ls->worker)(0);
    if (have_alt) {
        stack_t off{};
        off.ss_flags = SS_DISABLE;
        sigaltstack(&off, nullptr);
    }
}

void notify_locked(LaunchState *ls) {
    ++ls->generation;
    ls->evaluated = 0;
    ls->poll_evaluated = 0;
    ls->cv.notify_all();
}

// Starts a helper thread when blocks have not started yet (a waiting or polling block must never
// starve them: blocks > pool threads).  Under ls->mu.
void start_helper_locked(LaunchState *ls) {
    if (ls->next.load() < ls->num_blocks && ls->helpers.size() < ls->num_blocks) {
        ls->helpers.emplace_back(helper_main, ls);
    }
}

void core_started_cb(void *user) {
    LaunchState *ls = static_cast<LaunchState *>(user);
    std::lock_guard<std::mutex> lock(ls->mu);
    ++ls->participants;
}

void core_ended_cb(void *user) {
    LaunchState *ls = static_cast<LaunchState *>(user);
    std::lock_guard<std::mutex> lock(ls->mu);
    ++ls->finished;
    notify_locked(ls);
}

void cross_core_notify_cb(void *user) {
    LaunchState *ls = static_cast<LaunchState *>(user);
    std::lock_guard<std::mutex> lock(ls->mu);
    notify_locked(ls);
}

// Waits until ready(arg).  A waiting block must never starve a block that has not started yet
// (blocks > pool threads): then a helper thread starts the remaining blocks.  When every block
// that has not ended waits, and each has seen its condition false since the last change, none
// can ever go on: a deadlock (on hardware the cores hang), reported to every waiter.
int cross_core_wait_cb(void *user, uint32_t block_idx, int (*ready)(void *), void *arg, const char *what, char *why,
                       size_t why_size) {
    LaunchState *ls = static_cast<LaunchState *>(user);
    std::unique_lock<std::mutex> lock(ls->mu);
    if (ready(arg)) return 0;
    ++ls->waiting;
    // a poller's bytes may have been written by this block (a DMA flag notifies nobody): they look again
    if (ls->polling != 0) notify_locked(ls);
    uint64_t seen = ~0ull;
    int rc = 0;
    for (;;) {
        if (ls->deadlock) {
            rc = 1;
            break;
        }
        if (seen != ls->generation) {
            seen = ls->generation;
            if (ready(arg)) break;
            ++ls->evaluated;
        }
        start_helper_locked(ls);
        if (ls->next.load() >= ls->num_blocks && ls->waiting + ls->finished == ls->participants &&
            ls->evaluated == ls->waiting) {
            ls->deadlock = true;
            ls->deadlock_why = format("block %u waits in %s, and every other block of the launch has ended or waits "
                                      "too: nothing can release it (on hardware the cores hang)",
                                      block_idx, what != nullptr ? what : "a cross-core wait");
            ls->cv.notify_all();
            rc = 1;
            break;
        }
        ls->cv.wait_for(lock, std::chrono::milliseconds(200));
    }
    --ls->waiting;
    if (rc != 0 && why != nullptr && why_size > 0) std::snprintf(why, why_size, "%s", ls->deadlock_why.c_str());
    return rc;
}

// ABI v7: the block polls GM (see kernel_abi.h).  It leaves its thread to the others until the bytes
// change; when every other block has ended, waits or polls without a change too, nothing can change
// them (1: the kernel API reports a hang after enough of these in a row).
int poll_wait_cb(void *user, uint32_t, int (*changed)(void *), void *arg, int wrote) {
    LaunchState *ls = static_cast<LaunchState *>(user);
    std::unique_lock<std::mutex> lock(ls->mu);
    if (changed(arg)) return 0;
    ++ls->polling;
    if (wrote != 0) notify_locked(ls);  // this block may have written what the others wait or poll for
    uint64_t seen = ~0ull;
    int rc = 0;
    for (;;) {
        if (changed(arg)) break;  // every wake: the writer of a DMA flag does not notify
        if (seen != ls->generation) {
            seen = ls->generation;
            ++ls->poll_evaluated;
        }
        start_helper_locked(ls);
        if (ls->deadlock || (ls->next.load() >= ls->num_blocks &&
                             ls->waiting + ls->polling + ls->finished == ls->participants &&
                             ls->evaluated == ls->waiting && ls->poll_evaluated == ls->polling)) {
            rc = 1;
            break;
        }
        ls->cv.wait_for(lock, std::chrono::microseconds(500));
    }
    if (seen == ls->generation) --ls->poll_evaluated;  // it counted at this generation
    --ls->polling;
    return rc;
}

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

std::string addr_range(uint64_t begin, uint64_t end) {
    return format("[%s, %s)", ptr_str(reinterpret_cast<const void *>(static_cast<uintptr_t>(begin))).c_str(),
                  ptr_str(reinterpret_cast<const void *>(static_cast<uintptr_t>(end))).c_str());
}

// "block b", or, for a conflict between two cores of one mixed block, "block b's AIC" / "block b's AIV n".
std::string core_name(const XcoreConflict &xc, bool first) {
    const uint32_t b = first ? xc.block_a : xc.block_b, c = first ? xc.core_a : xc.core_b;
    if (xc.block_a != xc.block_b) return format("block %u", b);
    return c == 0 ? format("block %u's AIC", b) : format("block %u's AIV %u", b, c - 1);
}

// gm-write-overlap: two blocks (or two cores of one mixed block) wrote the same bytes, unordered.
std::string write_overlap_message(const XcoreConflict &xc) {
    // With ABI v3 kernels the message names the lines that wrote, like the other checks
    // ("failed at <file>:<line>" of the block it is reported for).
    const std::string sa = site_str(xc.a), sb = site_str(xc.b);
    const std::string at = sb.empty() ? std::string() : " at " + sb;
    const std::string na = core_name(xc, true), nb = core_name(xc, false);
    const std::string lines = sa.empty() || sb.empty()
                                  ? std::string()
                                  : format(" (%s at %s, %s at %s)", na.c_str(), sa.c_str(), nb.c_str(), sb.c_str());
    const std::string who = xc.block_a != xc.block_b ? format("blocks %u and %u", xc.block_a, xc.block_b)
                                                     : format("%s and %s", na.c_str(), nb.c_str());
    return format("sanitizer check 'gm-write-overlap' failed%s: %s both wrote global memory %s "
                  "(%llu bytes overlap) in one launch%s; on hardware the cores race and the result depends on their "
                  "order. Give every block a disjoint output range (or order the writes with SyncAll or cross-core "
                  "flags)",
                  at.c_str(), who.c_str(), addr_range(xc.begin, xc.end).c_str(),
                  static_cast<unsigned long long>(xc.end - xc.begin), lines.c_str());
}

// gm-cross-core-race: one block read (or wrote) bytes another wrote (atomically or not), unordered.
// Reported for the block that read (or wrote plainly); *block receives it.
std::string cross_core_race_message(const XcoreConflict &xc, uint32_t *block) {
    auto verb = [](const PyascSimGmWrite &r) {
        return (r.reserved & PYASC_SIM_GM_READ) != 0     ? "read"
               : (r.reserved & PYASC_SIM_GM_ATOMIC) != 0 ? "wrote atomically"
                                                         : "wrote";
    };
    // the first access named is a write (the writer), the second the read / plain write
    const bool a_writes = (xc.a.reserved & PYASC_SIM_GM_READ) == 0 && (xc.b.reserved & PYASC_SIM_GM_ATOMIC) == 0;
    const PyascSimGmWrite &w = a_writes ? xc.a : xc.b, &r = a_writes ? xc.b : xc.a;
    const uint32_t rb = a_writes ? xc.block_b : xc.block_a;
    const std::string wn = core_name(xc, a_writes), rn = core_name(xc, !a_writes);
    *block = rb;
    const std::string ws = site_str(w), rs = site_str(r);
    const std::string at = rs.empty() ? std::string() : " at " + rs;
    const std::string wsite = ws.empty() ? std::string() : " at " + ws;
    const bool atomic = ((w.reserved | r.reserved) & PYASC_SIM_GM_ATOMIC) != 0;
    return format("sanitizer check 'gm-cross-core-race' failed%s: %s %s global memory %s (%llu bytes)%s and "
                  "%s %s it%s in the same launch, with nothing ordering the two (no SyncAll between them, no "
                  "IBSet/IBWait or CrossCoreSetFlag/CrossCoreWaitFlag from one %s to the other); on hardware the "
                  "cores run in any order, so the %s. Put SyncAll() between them, signal with IBSet/IBWait or "
                  "CrossCoreSetFlag/CrossCoreWaitFlag, %s%s",
                  at.c_str(), wn.c_str(), verb(w), addr_range(xc.begin, xc.end).c_str(),
                  static_cast<unsigned long long>(xc.end - xc.begin), wsite.c_str(), rn.c_str(), verb(r), at.c_str(),
                  xc.block_a != xc.block_b ? "block" : "core",
                  (r.reserved & PYASC_SIM_GM_READ) != 0 ? "read sees the old or the new bytes"
                                                        : "result depends on which write lands last",
                  (r.reserved & PYASC_SIM_GM_READ) != 0
                      ? (atomic ? "so that the read comes after every block's atomic update"
                                : "or let each block read only bytes no other block of the launch writes")
                      : "or make both writes atomic (SetAtomicAdd<T>() ... SetAtomicNone() around both), or give "
                        "each block its own bytes",
                  (r.reserved & PYASC_SIM_GM_READ) != 0 ? ". A GM flag orders them too when the writer stores it after the data and writes its "
                             "line back with DataCacheCleanAndInvalid, and the reader invalidates the line with "
                             "DataCacheCleanAndInvalid before each load of the flag and reads the data only after "
                             "a load saw the stored value"
                           : "");
}

// The scalar unit's data cache line of global memory (the reference's 64 bytes).
constexpr uint64_t kGmCacheLineBytes = 64;

std::string line_share_message(const LineShare &ls, bool strict) {
    const std::string ss = site_str(ls.scalar), os = site_str(ls.other);
    // a mixed kernel's cores (AIC, AIV n) each have their own data cache: name them
    const bool mixed = ls.scalar_core != 0 || ls.other_core != 0;
    auto who = [mixed](uint32_t block, uint32_t core) {
        if (!mixed) return format("block %u", block);
        return core == 0 ? format("block %u's AIC", block) : format("block %u's AIV %u", block, core - 1);
    };
    return format("sanitizer %s%s%s: %s stored through its data cache (GlobalTensor::"
                  "SetValue) into the 64-byte global memory line %s, which %s%s%s also wrote in the same "
                  "launch, with nothing ordering the two (SyncAll alone does not: the dirty line may be written back "
                  "after the other block's write); the cache writes the whole line back, so one block's bytes can be "
                  "lost. Give each block whole 64-byte lines of output (start every block's share on a line), let one "
                  "block write the line, or write the line back with DataCacheCleanAndInvalid before a SyncAll (or "
                  "cross-core flag) that the other block's write follows",
                  strict ? "check 'gm-cache-line-share' failed" : "warning 'gm-cache-line-share'",
                  ss.empty() ? "" : " at ", ss.c_str(), who(ls.scalar_block, ls.scalar_core).c_str(),
                  addr_range(ls.line, ls.line + kGmCacheLineBytes).c_str(),
                  who(ls.other_block, ls.other_core).c_str(), os.empty() ? "" : " at ", os.c_str());
}

}  // namespace

void run_blocks(ThreadPool &pool, const LaunchSpec &spec, uint64_t *cycles, LaunchOutcome *out) {
    const uint32_t num_blocks = spec.num_blocks;
    const bool checks = spec.checks;
    LaunchState launch_state;
    launch_state.spec = &spec;
    launch_state.num_blocks = num_blocks;
    launch_state.participants = num_blocks;
    launch_state.span_cap = spec.span_cap;
    std::atomic<uint32_t> cores_per_block{1};
    if (checks) launch_state.writes.resize(num_blocks);
    std::mutex failure_mu;
    uint32_t fail_block = std::numeric_limits<uint32_t>::max();
    int32_t fail_status = 0;
    std::string fail_message;
    uint32_t sec_block = std::numeric_limits<uint32_t>::max();
    int32_t sec_status = 0;
    std::string sec_message;
    const std::function<void(uint32_t)> body = [&](uint32_t i) {
        PyascSimBlockContext ctx;
        std::memset(&ctx, 0, sizeof(ctx));
        ctx.abi_version = PYASC_SIM_KERNEL_ABI_VERSION;
        ctx.block_idx = i;
        ctx.block_dim = num_blocks;
        ctx.args = spec.args_size == 0 ? nullptr : spec.args;
        ctx.args_size = spec.args_size;
        ctx.soc_name = spec.soc_name;
        ctx.flags = (checks ? PYASC_SIM_FLAG_CHECKS | PYASC_SIM_FLAG_XRACE : 0u) |
                    (spec.strict ? PYASC_SIM_FLAG_STRICT : 0u) | (spec.profile ? PYASC_SIM_FLAG_PROFILE : 0u);
        ctx.span_cap = spec.span_cap;
        ctx.report_spans = spec.profile ? report_spans_cb : nullptr;
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
        ctx.report_warning = report_warning_cb;
        ctx.launch_shared = launch_shared_cb;
        ctx.cross_core_wait = cross_core_wait_cb;
        ctx.cross_core_notify = cross_core_notify_cb;
        ctx.core_started = core_started_cb;
        ctx.core_ended = core_ended_cb;
        ctx.poll_wait = poll_wait_cb;
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
        {
            std::lock_guard<std::mutex> lock(launch_state.mu);
            ++launch_state.finished;
            notify_locked(&launch_state);  // waiters re-check: the block may have been what they wait for
        }
        launch_state.ended.fetch_add(1, std::memory_order_acq_rel);
        cycles[i] = ctx.cycles;
        if (ctx.cores_per_block > 1) cores_per_block.store(ctx.cores_per_block);
        if (ctx.status != 0) {
            ctx.message[sizeof(ctx.message) - 1] = '\0';
            std::lock_guard<std::mutex> lock(failure_mu);
            // A block that only failed because another ended without releasing it (a cross-core
            // deadlock) is reported when no block failed for a reason of its own.
            const bool secondary = std::strstr(ctx.message, "'cross-core-deadlock'") != nullptr;
            if (secondary) {
                if (i < sec_block) {
                    sec_block = i;
                    sec_status = ctx.status;
                    sec_message = ctx.message;
                }
            } else if (i < fail_block) {  // deterministic: the lowest failing block wins
                fail_block = i;
                fail_status = ctx.status;
                fail_message = ctx.message[0] != '\0' ? ctx.message : "(no message)";
            }
        }
    };
    // Blocks are handed out in order from one counter: the pool's threads take them, and so do
    // helper threads started when a block waits for another one (SyncAll, IBWait, ...).
    const std::function<void(uint32_t)> worker = [&](uint32_t) {
        for (;;) {
            const uint32_t i = launch_state.next.fetch_add(1);
            if (i >= num_blocks) {
                // This thread goes idle while other blocks still run: tell the waiter now (once),
                // so it is awake when the last block ends rather than woken after it.
                if (spec.draining != nullptr && launch_state.ended.load(std::memory_order_acquire) < num_blocks &&
                    !launch_state.drain_told.exchange(true, std::memory_order_acq_rel)) {
                    spec.draining(spec.tag);
                }
                return;
            }
            body(i);
        }
    };
    launch_state.worker = &worker;
    pool.parallel_for(std::min<uint32_t>(num_blocks, std::max(1u, pool.size())), worker);
    for (;;) {  // helpers may start more helpers while we join
        std::thread t;
        {
            std::lock_guard<std::mutex> lock(launch_state.mu);
            for (std::thread &h : launch_state.helpers) {
                if (h.joinable()) {
                    t = std::move(h);
                    break;
                }
            }
        }
        if (!t.joinable()) break;
        t.join();
    }

    if (fail_status == 0 && sec_status != 0) {
        fail_block = sec_block;
        fail_status = sec_status;
        fail_message = sec_message;
    }

    // Cross-core checks: two blocks of one launch wrote the same global memory, or one read what
    // another wrote, with nothing ordering them (a race on hardware, where blocks run on different
    // cores in any order).
    XcoreConflict xc;
    if (checks && fail_status == 0 && find_xcore_conflict(launch_state.writes, &xc)) {
        fail_block = xc.block_b;
        fail_status = ACL_ERROR_RT_AICORE_EXCEPTION;
        fail_message = xc.write_write ? write_overlap_message(xc) : cross_core_race_message(xc, &fail_block);
    }
    // gm-cache-line-share (a warning; an error with PYASC_SIM_STRICT): a scalar store of one core
    // into a 64-byte line another core wrote (every SoC: each AIC / AIV has its own data cache)
    LineShare share;
    if (checks && fail_status == 0 && find_line_share(launch_state.writes, kGmCacheLineBytes, &share)) {
        const std::string msg = line_share_message(share, spec.strict);
        if (spec.strict) {
            fail_block = share.scalar_block;
            fail_status = ACL_ERROR_RT_AICORE_EXCEPTION;
            fail_message = msg;
        } else if (launch_state.warnings.size() < kMaxLaunchWarnings) {
            launch_state.warnings.push_back(format("block %u: %s", share.scalar_block, msg.c_str()));
        }
    }
    out->status = fail_status;
    out->block = fail_status != 0 ? fail_block : 0;
    out->message = fail_message;
    out->warnings = std::move(launch_state.warnings);
    out->cores_per_block = cores_per_block.load();
    out->spans = std::move(launch_state.spans);
    out->files = std::move(launch_state.files);
    out->dropped_spans = launch_state.dropped;
}

}  // namespace pyasc_sim
