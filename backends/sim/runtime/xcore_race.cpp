#include "xcore_race.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

namespace pyasc_sim {

namespace {

constexpr uint32_t kCoresPerBlock = PYASC_SIM_GM_CORE_MASK + 1;

uint32_t core_of(uint32_t block, uint32_t tag) {
    return block * kCoresPerBlock + ((tag >> PYASC_SIM_GM_CORE_SHIFT) & PYASC_SIM_GM_CORE_MASK);
}
uint32_t segment_of(uint32_t tag) { return tag & PYASC_SIM_GM_SEGMENT_MASK; }

// Vector clocks of the cores that synchronised: clock[c] of a core's segment s says that the
// segments < clock[c] of core c happen before s.  A core's clock changes at its acquires only,
// so a snapshot per acquire (the first segment it covers, the clock) describes every segment.
class Clocks {
public:
    explicit Clocks(const std::vector<std::vector<PyascSimGmWrite>> &records) {
        struct Event {
            uint64_t seq, key;
            uint32_t core, segment, kind;
        };
        std::vector<Event> events;
        for (uint32_t b = 0; b < records.size(); ++b) {
            for (const PyascSimGmWrite &r : records[b]) {
                if ((r.reserved & PYASC_SIM_GM_EVENT) == 0) continue;
                if (r.line != PYASC_SIM_GM_EVENT_RELEASE && r.line != PYASC_SIM_GM_EVENT_ACQUIRE) continue;
                const uint32_t core = core_of(b, r.reserved);
                if (index_.emplace(core, static_cast<uint32_t>(index_.size())).second) snaps_.emplace_back();
                events.push_back({r.end, r.begin, core, segment_of(r.reserved), r.line});
            }
        }
        if (events.empty()) return;
        std::sort(events.begin(), events.end(), [](const Event &x, const Event &y) { return x.seq < y.seq; });
        const size_t n = index_.size();
        std::vector<std::vector<uint32_t>> clock(n, std::vector<uint32_t>(n, 0));
        std::unordered_map<uint64_t, std::vector<uint32_t>> released;  // per key: the join of its releases
        for (const Event &e : events) {
            const uint32_t c = index_.at(e.core);
            std::vector<uint32_t> &v = clock[c];
            if (e.kind == PYASC_SIM_GM_EVENT_RELEASE) {
                v[c] = std::max(v[c], e.segment + 1);  // segments <= e.segment are done
                std::vector<uint32_t> &k = released[e.key];
                if (k.empty()) k.assign(n, 0);
                for (size_t i = 0; i < n; ++i) k[i] = std::max(k[i], v[i]);
            } else if (e.kind == PYASC_SIM_GM_EVENT_ACQUIRE) {
                const auto it = released.find(e.key);
                if (it != released.end()) {
                    for (size_t i = 0; i < n; ++i) v[i] = std::max(v[i], it->second[i]);
                }
                v[c] = std::max(v[c], e.segment + 1);
                snaps_[c].emplace_back(e.segment + 1, v);
            }
        }
    }

    // Whether segment sa of core a happens before segment sb of core b.
    bool before(uint32_t a, uint32_t sa, uint32_t b, uint32_t sb) const {
        const auto ia = index_.find(a), ib = index_.find(b);
        if (ia == index_.end() || ib == index_.end()) return false;
        const auto &s = snaps_[ib->second];
        auto it = std::upper_bound(s.begin(), s.end(), sb,
                                   [](uint32_t v, const std::pair<uint32_t, std::vector<uint32_t>> &e) {
                                       return v < e.first;
                                   });
        if (it == s.begin()) return false;
        --it;
        return it->second[ia->second] > sa;
    }

private:
    std::unordered_map<uint32_t, uint32_t> index_;  // core -> dense index
    std::vector<std::vector<std::pair<uint32_t, std::vector<uint32_t>>>> snaps_;
};

enum Kind : uint8_t { kWrite = 0, kRead = 1, kAtomic = 2 };

struct Access {
    uint64_t begin, end;
    uint32_t block, core, segment;
    Kind kind;
    const PyascSimGmWrite *rec;
};

bool conflicts(const Access &x, const Access &y, const Clocks &clocks) {
    if (x.core == y.core) return false;  // core_of: the block's AIC / AIV cores are cores of their own
    if (x.kind == kRead && y.kind == kRead) return false;
    // Two cores of one mixed block are compared for a read racing a write only: a read can see the old or the
    // new bytes.  Their plain writes of the same bytes are left out (the AIVs of a kernel that does not split
    // its work by GetSubBlockIdx(), inferred MIX 1:2, each write the whole output: the same bytes twice).
    if (x.block == y.block && x.kind != kRead && y.kind != kRead) return false;
    if (x.kind == kAtomic && y.kind == kAtomic) return false;  // atomics of several cores do not race
    return !clocks.before(x.core, x.segment, y.core, y.segment) && !clocks.before(y.core, y.segment, x.core, x.segment);
}

// Sweeps the accesses by start address keeping the ones that still reach it (writes and reads
// apart: reads are only compared with writes).  Returns the first conflicting pair found.
bool sweep(std::vector<Access> &items, const Clocks &clocks, XcoreConflict *out) {
    std::sort(items.begin(), items.end(), [](const Access &x, const Access &y) { return x.begin < y.begin; });
    std::vector<const Access *> writes, reads;
    for (const Access &x : items) {
        const Access *hit = nullptr;
        auto scan = [&](std::vector<const Access *> &active) {
            for (size_t i = 0; i < active.size() && hit == nullptr;) {
                const Access *y = active[i];
                if (y->end <= x.begin) {  // ends before x: before every later access too
                    active[i] = active.back();
                    active.pop_back();
                    continue;
                }
                if (conflicts(x, *y, clocks)) hit = y;
                ++i;
            }
        };
        scan(writes);
        if (hit == nullptr && x.kind != kRead) scan(reads);
        if (hit != nullptr) {
            const bool x_first = x.core < hit->core;  // core_of orders by block, then by core
            const Access &a = x_first ? x : *hit, &b = x_first ? *hit : x;
            out->write_write = a.kind == kWrite && b.kind == kWrite;
            out->block_a = a.block;
            out->block_b = b.block;
            out->core_a = a.core % kCoresPerBlock;
            out->core_b = b.core % kCoresPerBlock;
            out->a = *a.rec;
            out->b = *b.rec;
            out->begin = x.begin;
            out->end = std::min(x.end, hit->end);
            return true;
        }
        (x.kind == kRead ? reads : writes).push_back(&x);
    }
    return false;
}

}  // namespace

bool find_xcore_conflict(const std::vector<std::vector<PyascSimGmWrite>> &records, XcoreConflict *out) {
    std::vector<Access> plain, all;
    bool tagged = false;
    for (uint32_t b = 0; b < records.size(); ++b) {
        for (const PyascSimGmWrite &r : records[b]) {
            if ((r.reserved & PYASC_SIM_GM_EVENT) != 0) {
                tagged = true;
                continue;
            }
            if (r.end <= r.begin) continue;
            const Kind kind = (r.reserved & PYASC_SIM_GM_READ) != 0     ? kRead
                              : (r.reserved & PYASC_SIM_GM_ATOMIC) != 0 ? kAtomic
                                                                        : kWrite;
            tagged = tagged || kind != kWrite;
            const Access acc{r.begin, r.end, b, core_of(b, r.reserved), segment_of(r.reserved), kind, &r};
            if (kind == kWrite) plain.push_back(acc);
            all.push_back(acc);
        }
    }
    const Clocks clocks(records);
    if (sweep(plain, clocks, out)) return true;  // two cores writing the same bytes first
    return tagged && sweep(all, clocks, out);
}

bool find_line_share(const std::vector<std::vector<PyascSimGmWrite>> &records, uint64_t line_bytes, LineShare *out) {
    constexpr uint32_t kNotPlain = PYASC_SIM_GM_READ | PYASC_SIM_GM_EVENT | PYASC_SIM_GM_ATOMIC;
    struct Scalar {
        uint64_t line;
        uint32_t block, core;  // core: core_of (each core has its own data cache)
        const PyascSimGmWrite *rec;
    };
    struct Flush {
        uint32_t segment;
        uint64_t begin, end;
    };
    std::vector<Scalar> lines;  // the lines of every scalar store, with a block that stored there
    std::unordered_map<uint32_t, std::vector<Flush>> flushes;  // per core: its data-cache write-backs
    for (uint32_t b = 0; b < records.size(); ++b) {
        for (const PyascSimGmWrite &r : records[b]) {
            if ((r.reserved & PYASC_SIM_GM_EVENT) != 0 && r.line == PYASC_SIM_GM_EVENT_FLUSH) {
                flushes[core_of(b, r.reserved)].push_back({segment_of(r.reserved), r.begin, r.end});
            }
            if ((r.reserved & kNotPlain) != 0 || (r.reserved & PYASC_SIM_GM_SCALAR) == 0 || r.end <= r.begin) continue;
            const uint32_t core = core_of(b, r.reserved);
            for (uint64_t l = r.begin / line_bytes; l <= (r.end - 1) / line_bytes; ++l) lines.push_back({l, b, core, &r});
        }
    }
    if (lines.empty()) return false;
    std::sort(lines.begin(), lines.end(), [](const Scalar &a, const Scalar &b) {
        return a.line != b.line ? a.line < b.line : a.core < b.core;
    });
    for (auto &f : flushes) {
        std::sort(f.second.begin(), f.second.end(), [](const Flush &a, const Flush &b) { return a.segment < b.segment; });
    }
    const Clocks clocks(records);
    // Whether the scalar store s (of core sc) and the write w (of core wc) into line l are ordered:
    // w happens before s (s's core loads the line after w landed), or s's core wrote the line back
    // (DataCacheCleanAndInvalid) after s and that write-back happens before w.
    auto ordered = [&](const PyascSimGmWrite &s, uint32_t sc, const PyascSimGmWrite &w, uint32_t wc, uint64_t l) {
        const uint32_t ss = segment_of(s.reserved), ws = segment_of(w.reserved);
        if (clocks.before(wc, ws, sc, ss)) return true;
        const auto it = flushes.find(sc);
        if (it == flushes.end()) return false;
        // s's bytes in line l
        const uint64_t lo = std::max(s.begin, l * line_bytes), hi = std::min(s.end, (l + 1) * line_bytes);
        for (const Flush &f : it->second) {  // the first write-back of them after s
            if (f.segment >= ss && f.begin <= lo && hi <= f.end) return clocks.before(sc, f.segment, wc, ws);
        }
        return false;
    };
    // every plain write of another core into one of those lines
    for (uint32_t b = 0; b < records.size(); ++b) {
        for (const PyascSimGmWrite &r : records[b]) {
            if ((r.reserved & kNotPlain) != 0 || r.end <= r.begin) continue;
            const uint32_t core = core_of(b, r.reserved);
            const uint64_t first = r.begin / line_bytes, last = (r.end - 1) / line_bytes;
            auto it = std::lower_bound(lines.begin(), lines.end(), first,
                                       [](const Scalar &s, uint64_t l) { return s.line < l; });
            for (; it != lines.end() && it->line <= last; ++it) {
                if (it->core == core) continue;
                if (ordered(*it->rec, it->core, r, core, it->line)) continue;
                out->scalar_block = it->block;
                out->other_block = b;
                out->scalar_core = it->core % kCoresPerBlock;
                out->other_core = core % kCoresPerBlock;
                out->scalar = *it->rec;
                out->other = r;
                out->line = it->line * line_bytes;
                return true;
            }
        }
    }
    return false;
}

}  // namespace pyasc_sim
