// PyTorch-style counters (current / peak / total allocated / total freed).
#ifndef PYASC_NPU_MEMORY_STATS_H_
#define PYASC_NPU_MEMORY_STATS_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

namespace pyasc_npu {

struct Stat {
    int64_t current = 0, peak = 0, allocated = 0, freed = 0;
    void increase(int64_t n) {
        current += n;
        allocated += n;
        peak = std::max(peak, current);
    }
    void decrease(int64_t n) {
        current -= n;
        freed += n;
    }
    void reset_peak() { peak = current; }
};

struct MemoryStats {
    Stat allocated_bytes, reserved_bytes, active_bytes, allocation, segment;
    int64_t num_alloc_retries = 0, num_ooms = 0;
    // Times a release pass (empty_cache, the OOM retry) kept a free segment cached because work
    // queued before its free may still use it (released by a later pass once that work is done).
    int64_t num_deferred_releases = 0;

    // Keyed like torch.cuda.memory_stats (pyasc_core.backend.MEMORY_STAT_KEYS and a few more).
    std::map<std::string, int64_t> as_map() const {
        std::map<std::string, int64_t> m;
        auto put = [&m](const std::string &prefix, const Stat &s) {
            m[prefix + ".current"] = s.current;
            m[prefix + ".peak"] = s.peak;
            m[prefix + ".allocated"] = s.allocated;
            m[prefix + ".freed"] = s.freed;
        };
        put("allocated_bytes.all", allocated_bytes);
        put("reserved_bytes.all", reserved_bytes);
        put("active_bytes.all", active_bytes);
        put("allocation.all", allocation);
        put("segment.all", segment);
        m["num_alloc_retries"] = num_alloc_retries;
        m["num_ooms"] = num_ooms;
        m["num_deferred_releases"] = num_deferred_releases;
        return m;
    }
    void reset_peak() {
        for (Stat *s : {&allocated_bytes, &reserved_bytes, &active_bytes, &allocation, &segment}) s->reset_peak();
    }
};

}  // namespace pyasc_npu

#endif  // PYASC_NPU_MEMORY_STATS_H_
