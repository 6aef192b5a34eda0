// Ascend C on the CPU -- the block's scheduled timeline (cost model and profiler).
//
// Each pipe (S, V, M, MTE1, MTE2, MTE3, FIX) has a clock: the simulated cycle at which it is next
// free.  An instruction charged to pipe p runs from clock[p] for its cycles.  Synchronisation
// moves clocks forward: a WaitFlag (or a queue DeQue / AllocTensor) starts its pipe no earlier than
// the cycle the SetFlag side (EnQue / FreeTensor) had finished its work; PipeBarrier<PIPE_ALL>
// lines every pipe up.  The block's simulated time is the makespan (the latest clock), always;
// profiling only decides whether the spans are kept.  State only: charge() (state.h) and the
// happens-before stream (order.h) drive it, the same calls that feed the pipe-race detector.
#ifndef PYASC_SIM_KAPI_TIMELINE_H_
#define PYASC_SIM_KAPI_TIMELINE_H_

#include <algorithm>
#include <cstdint>
#include <vector>

#if __has_include(<pyasc_sim/kernel_abi.h>)
#include <pyasc_sim/kernel_abi.h>
#else
#include "../../../../include/pyasc_sim/kernel_abi.h"
#endif

// PYASC_SIM_TIMELINE_SPANS=0 compiles the profiler's bookkeeping out (span recording, source
// lines, bytes moved): the schedule and so the simulated time stay the same.  For the benchmark
// that measures what that bookkeeping costs when profiling is off (benchmarks/test_profiler_bench.py).
#ifndef PYASC_SIM_TIMELINE_SPANS
#define PYASC_SIM_TIMELINE_SPANS 1
#endif

namespace pyasc_sim {
namespace kapi {

constexpr bool kTimelineSpans = PYASC_SIM_TIMELINE_SPANS != 0;
constexpr int kTimelinePipes = 7;   // the order of enum Pipe (state.h)
constexpr int kTimelineEvents = 64; // HardEvent values
constexpr int kTimelineIds = 8;     // event ids
constexpr int kFlagDepth = 4;       // SetFlags of one event id outstanding before a WaitFlag

struct Timeline {
    double clock[kTimelinePipes] = {};
    // SetFlag times not yet consumed, per event and id (a FIFO: WaitFlag takes the oldest).  Only the
    // flag_count entries from flag_head on are ever read, each written first: not zeroed with the block's
    // state (16 KiB per block and launch).
    double flag_time[kTimelineEvents][kTimelineIds][kFlagDepth];
    uint8_t flag_head[kTimelineEvents][kTimelineIds] = {};
    uint8_t flag_count[kTimelineEvents][kTimelineIds] = {};
    // Profiling: spans kept (PYASC_SIM_FLAG_PROFILE), at most `cap`; runs of one instruction
    // back to back on a pipe are merged into one span.
    bool keep = false;
    size_t cap = 0;
    uint64_t dropped = 0;
    std::vector<PyascSimSpan> spans;
    int64_t last[kTimelinePipes] = {-1, -1, -1, -1, -1, -1, -1};
    // The instruction being charged: its source line (the last operand check) and bytes moved.
    const char *loc_file = nullptr;
    unsigned loc_line = 0;
    uint64_t bytes = 0;

    void record(int p, double s, double e, uint16_t kind, const char *file, unsigned line, uint64_t nbytes) {
        if (last[p] >= 0) {
            PyascSimSpan &l = spans[static_cast<size_t>(last[p])];
            if (l.kind == kind && l.line == line && l.file == file && l.end == s) {
                l.end = e;
                ++l.count;
                l.bytes += nbytes;
                return;
            }
        }
        if (spans.size() >= cap) {
            ++dropped;
            return;
        }
        PyascSimSpan x{};
        x.start = s;
        x.end = e;
        x.bytes = nbytes;
        x.file = file;
        x.line = line;
        x.count = 1;
        x.pipe = static_cast<uint16_t>(p);
        x.kind = kind;
        last[p] = static_cast<int64_t>(spans.size());
        spans.push_back(x);
    }

    // An instruction of `cycles` on pipe p.
    void run(int p, double cycles) {
        const double s = clock[p], e = s + cycles;
        clock[p] = e;
        if (!kTimelineSpans) return;
        if (keep) record(p, s, e, PYASC_SIM_SPAN_INSTR, loc_file, loc_line, bytes);
        bytes = 0;
        loc_file = nullptr;
    }
    // Pipe p may go on only after cycle t, then pays `cost` cycles of synchronisation.
    void wait_until(int p, double t, double cost, const char *file, unsigned line) {
        const double s = clock[p], e = std::max(s, t) + cost;
        clock[p] = e;
        if (kTimelineSpans && keep && e > s) record(p, s, e, PYASC_SIM_SPAN_WAIT, file, line, 0);
    }
    double makespan() const {
        double m = 0.0;
        for (double c : clock) m = std::max(m, c);
        return m;
    }
    // Every pipe waits for every pipe (PipeBarrier<PIPE_ALL>, cross-core waits).
    void barrier_all(double cost, const char *file, unsigned line) {
        const double m = makespan();
        for (int p = 0; p < kTimelinePipes; ++p) clock[p] = m + cost;
        if (kTimelineSpans && keep && cost > 0) record(0, m, m + cost, PYASC_SIM_SPAN_WAIT, file, line, 0);
    }
    // SetFlag: the source pipe's work so far is published for the event id.
    void set_flag(int event, int id, int src) {
        if (event < 0 || event >= kTimelineEvents || id < 0 || id >= kTimelineIds || src < 0) return;
        uint8_t &n = flag_count[event][id];
        const double t = clock[src];
        if (n == kFlagDepth) {  // more outstanding than tracked: the newest absorbs it
            double &newest = flag_time[event][id][(flag_head[event][id] + n - 1) % kFlagDepth];
            newest = std::max(newest, t);
            return;
        }
        flag_time[event][id][(flag_head[event][id] + n) % kFlagDepth] = t;
        ++n;
    }
    // WaitFlag: the destination pipe starts no earlier than the oldest unconsumed SetFlag.
    void wait_flag(int event, int id, int dst, double cost, const char *file, unsigned line) {
        if (event < 0 || event >= kTimelineEvents || id < 0 || id >= kTimelineIds || dst < 0) return;
        uint8_t &n = flag_count[event][id];
        double t = 0.0;
        if (n > 0) {
            uint8_t &h = flag_head[event][id];
            t = flag_time[event][id][h];
            h = static_cast<uint8_t>((h + 1) % kFlagDepth);
            --n;
        }
        wait_until(dst, t, cost, file, line);
    }
};

}  // namespace kapi
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_TIMELINE_H_
