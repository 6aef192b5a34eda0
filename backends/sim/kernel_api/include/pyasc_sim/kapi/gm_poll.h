// Ascend C on the CPU -- hand-written GM flag polling as a release / acquire for gm-cross-core-race.
//
// Public kernels signal between cores through a GM word and the scalar unit's data cache: the
// writer stores the flag (GlobalTensor::SetValue or a raw `*(__gm__ T *)p = v`) and writes its line
// back with DataCacheCleanAndInvalid / dcci; the reader invalidates the line (DataCacheCleanAndInvalid)
// and loads the word until the value appears.  The reference (DataCacheCleanAndInvalid page) gives the
// data cache as the reason for both halves: a scalar store reaches GM when its line is written back, a
// scalar load sees another core's GM data only after the line is invalidated.  So, as the hardware
// orders it:
//   release  a scalar GM store (<= 8 bytes) followed by a DataCacheCleanAndInvalid of its line (from the
//            address to the line's end, or the whole cache) publishes the stored value: everything the
//            core did before the write-back happens before a load that observes it;
//   acquire  the first scalar load of a line after this core invalidated it (SINGLE_CACHE_LINE, or the
//            whole cache) observes the value in GM; it acquires every release of that word and value
//            with an earlier sequence number, and what the core does after the load happens after them.
// A store never written back, a load of a line not invalidated first (it may read the stale cached
// copy), and accesses not after the observing load stay unordered and are reported as before.  The
// pair is keyed by (word address, size, value), so a load that sees an older or another value does not
// acquire a release (as a reads-from edge in a memory model).  A polled load is a read after its
// acquire; of a core's polls of one word only the last is recorded (at the block's end): the earlier
// ones are the spin loop's iterations, which saw the old value and went round again.  The last one
// saw the published value (then it is ordered after the store) or the kernel went on without it
// (then it races with the store, as any read).
//
// The simulator has no data cache: a store is visible at once.  So the release takes its sequence
// number when the store is made (the writer's counter value before the store, made odd: after every
// event numbered before, before every event numbered after), and a raw load is settled at the core's
// next GM access, sync call or flush -- after the load happened -- with the word's value then and the
// value before the load (either may be the one the load saw: both are acquired, never one it could not
// have seen).  Bookkeeping per core: the last 8 unflushed stores, 8 invalidated lines, 8 polled words'
// last values (a spin loop that sees the same value again adds no event) and last polls.
#ifndef PYASC_SIM_KAPI_GM_POLL_H_
#define PYASC_SIM_KAPI_GM_POLL_H_

#include <cstdint>

#include "pyasc_sim/kapi/state.h"

#define PYASC_SIM_POLL_NOSAN __attribute__((no_sanitize_thread))

namespace pyasc_sim {
namespace kapi {

// One sequence counter per kernel binary for every cross-core sync event (xcore.h's calls too):
// events get even numbers; a release of a polled flag takes the odd number after the counter's value
// when its store was made.
inline uint64_t *xrace_seq() {
    static uint64_t seq = 0;
    return &seq;
}
inline uint64_t xrace_next_seq() { return __atomic_add_fetch(xrace_seq(), 2u, __ATOMIC_SEQ_CST); }

namespace gm_poll {

constexpr uint64_t kLine = 64;  // the data cache's line (DataCacheCleanAndInvalid page)

// The key of a published (address, size, value): apart from xcore.h's keys (addresses + k << 48).
PYASC_SIM_POLL_NOSAN inline uint64_t mix(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}
PYASC_SIM_POLL_NOSAN inline uint64_t key(uint64_t addr, uint32_t n, uint64_t value) {
    return mix(mix(addr * 16 + n) ^ value) | (uint64_t{1} << 63);
}

// The n (<= 8) bytes at addr, as GM holds them now.
PYASC_SIM_POLL_NOSAN inline uint64_t word(uint64_t addr, uint32_t n) {
    const volatile uint8_t *p = reinterpret_cast<const volatile uint8_t *>(static_cast<uintptr_t>(addr));
    uint64_t v = 0;
    for (uint32_t i = 0; i < n; ++i) v |= static_cast<uint64_t>(p[i]) << (8 * i);
    return v;
}

PYASC_SIM_POLL_NOSAN inline void event(BlockState &b, uint32_t kind, uint64_t k, uint64_t seq) {
    b.writes.push_back({k, seq, nullptr, kind, gm_tag(b, PYASC_SIM_GM_EVENT)});
    ++b.xseg;  // what follows is a new segment of this core (and no two events share one)
}

// An acquire of (addr, n, value) unless this core's last poll of the word saw the same value.
PYASC_SIM_POLL_NOSAN inline void acquire(BlockState &b, uint64_t addr, uint32_t n, uint64_t value) {
    BlockState::PollSeen *slot = nullptr;
    for (uint32_t i = 0; i < b.xseen_n; ++i) {
        if (b.xseen[i].addr == addr) slot = &b.xseen[i];
    }
    if (slot != nullptr && slot->value == value) return;
    if (slot == nullptr) {
        slot = &b.xseen[b.xseen_n < BlockState::kPollSlots ? b.xseen_n++ : (b.xseen_next++ % BlockState::kPollSlots)];
        slot->addr = addr;
    }
    slot->value = value;
    event(b, PYASC_SIM_GM_EVENT_ACQUIRE, key(addr, n, value), xrace_next_seq());
}

// Whether a load at addr is the first of its line since this core invalidated it (consumes that).
PYASC_SIM_POLL_NOSAN inline bool take_fresh(BlockState &b, uint64_t addr) {
    const uint64_t line = addr / kLine;
    for (uint32_t i = 0; i < b.xfresh_n; ++i) {
        if (b.xfresh[i] == line) {
            b.xfresh[i] = b.xfresh[--b.xfresh_n];
            return true;
        }
    }
    if (!b.xfresh_all) return false;
    for (uint32_t i = 0; i < b.xused_n; ++i) {
        if (b.xused[i] == line) return false;
    }
    if (b.xused_n == BlockState::kPollSlots) {
        b.xfresh_all = false;  // more lines than tracked: later ones count as cached (reported, never missed)
        return false;
    }
    b.xused[b.xused_n++] = line;
    return true;
}

// Keeps the read record of a poll of [addr, addr + n) as the word's latest, replacing (dropping) the
// previous poll of the same word; the oldest kept word is recorded when a ninth needs a slot.
PYASC_SIM_POLL_NOSAN inline void keep(BlockState &b, uint64_t addr, uint32_t n, const SrcLoc &loc) {
    const BlockState::PollRead r{addr, n, loc.file, loc.line, gm_tag(b, PYASC_SIM_GM_READ)};
    for (uint32_t i = 0; i < b.xlast_n; ++i) {
        if (b.xlast[i].addr == addr && b.xlast[i].n == n) {
            b.xlast[i] = r;
            return;
        }
    }
    if (b.xlast_n == BlockState::kPollSlots) {
        const BlockState::PollRead old = b.xlast[0];
        for (uint32_t i = 1; i < b.xlast_n; ++i) b.xlast[i - 1] = b.xlast[i];
        --b.xlast_n;
        record_site(b, old.addr, old.addr + old.n, SrcLoc(old.file, old.line), old.tag);
    }
    b.xlast[b.xlast_n++] = r;
}

}  // namespace gm_poll

// The block ends: the last poll of each word is recorded (gm_poll::keep).
PYASC_SIM_POLL_NOSAN inline void poll_end(BlockState &b) {
    poll_settle(b);
    for (uint32_t i = 0; i < b.xlast_n; ++i) {
        const BlockState::PollRead &r = b.xlast[i];
        record_site(b, r.addr, r.addr + r.n, SrcLoc(r.file, r.line), r.tag);
    }
    b.xlast_n = 0;
}

// A raw load polled earlier (gm_poll_load) is settled: its acquire, then its read record.
PYASC_SIM_POLL_NOSAN inline void poll_settle(BlockState &b) {
    if (!b.xpoll_pending) return;
    b.xpoll_pending = false;
    const BlockState::PollLoad &l = b.xpoll;
    const uint64_t now = gm_poll::word(l.addr, l.n);
    gm_poll::acquire(b, l.addr, l.n, l.before);
    if (now != l.before) gm_poll::acquire(b, l.addr, l.n, now);
    gm_poll::keep(b, l.addr, l.n, SrcLoc(l.file, l.line));
}

// A scalar GM store of n bytes at addr (SetValue, a raw store), before it lands: a release candidate.
PYASC_SIM_POLL_NOSAN inline void gm_poll_store(BlockState &b, uint64_t addr, uint32_t n) {
    if (!b.xrace || n > 8) return;
    const uint64_t seq = __atomic_load_n(xrace_seq(), __ATOMIC_SEQ_CST) | 1u;
    for (uint32_t i = 0; i < b.xpub_n; ++i) {
        if (b.xpub[i].addr == addr) {
            b.xpub[i].n = n;
            b.xpub[i].seq = seq;
            return;
        }
    }
    if (b.xpub_n == BlockState::kPollSlots) {  // the oldest unflushed store is forgotten (never released)
        for (uint32_t i = 1; i < b.xpub_n; ++i) b.xpub[i - 1] = b.xpub[i];
        --b.xpub_n;
    }
    b.xpub[b.xpub_n++] = {addr, n, seq};
}

// DataCacheCleanAndInvalid of GM lines: [at, the end of its line), or the whole cache (`whole`).
// Releases the unflushed stores it writes back, then marks the lines invalidated for the next load.
PYASC_SIM_POLL_NOSAN inline void gm_poll_flush(BlockState &b, uint64_t at, bool whole) {
    if (!b.xrace) return;
    poll_settle(b);
    const uint64_t end = (at / gm_poll::kLine + 1) * gm_poll::kLine;
    uint32_t kept = 0;
    for (uint32_t i = 0; i < b.xpub_n; ++i) {
        const BlockState::PollStore s = b.xpub[i];
        if (whole || (s.addr >= at && s.addr + s.n <= end)) {
            gm_poll::event(b, PYASC_SIM_GM_EVENT_RELEASE, gm_poll::key(s.addr, s.n, gm_poll::word(s.addr, s.n)), s.seq);
        } else {
            b.xpub[kept++] = s;
        }
    }
    b.xpub_n = kept;
    if (whole) {
        b.xfresh_all = true;
        b.xfresh_n = 0;
        b.xused_n = 0;
        return;
    }
    const uint64_t line = at / gm_poll::kLine;
    for (uint32_t i = 0; i < b.xfresh_n; ++i) {
        if (b.xfresh[i] == line) return;
    }
    if (b.xfresh_n == BlockState::kPollSlots) {
        for (uint32_t i = 1; i < b.xfresh_n; ++i) b.xfresh[i - 1] = b.xfresh[i];
        --b.xfresh_n;
    }
    b.xfresh[b.xfresh_n++] = line;
    for (uint32_t i = 0; i < b.xused_n; ++i) {  // a line loaded since a whole-cache flush is fresh again
        if (b.xused[i] == line) b.xused[i] = b.xused[--b.xused_n];
    }
}

// A raw scalar load of n bytes at addr from `file`:`line`, before it happens.  Returns true when it is
// a poll (the first load of a line this core invalidated): its read is recorded when it is settled.
PYASC_SIM_POLL_NOSAN inline bool gm_poll_load(BlockState &b, uint64_t addr, uint32_t n, const char *file,
                                              unsigned line) {
    if (!b.xrace) return false;
    poll_settle(b);
    if (n > 8 || !gm_poll::take_fresh(b, addr)) return false;
    b.xpoll = {addr, n, gm_poll::word(addr, n), file, line};
    b.xpoll_pending = true;
    return true;
}

// GlobalTensor::GetValue: whether the load at addr is a poll (then its read is recorded by
// gm_poll_observed, after the load, with the value it returned).
PYASC_SIM_POLL_NOSAN inline bool gm_poll_getvalue(BlockState &b, uint64_t addr, uint32_t n) {
    if (!b.xrace) return false;
    poll_settle(b);
    return n <= 8 && gm_poll::take_fresh(b, addr);
}
PYASC_SIM_POLL_NOSAN inline void gm_poll_observed(BlockState &b, uint64_t addr, uint32_t n, const void *value,
                                                  const SrcLoc &loc) {
    uint64_t v = 0;
    std::memcpy(&v, value, n);
    gm_poll::acquire(b, addr, n, v);
    gm_poll::keep(b, addr, n, loc);
}

}  // namespace kapi
}  // namespace pyasc_sim

#undef PYASC_SIM_POLL_NOSAN

#endif  // PYASC_SIM_KAPI_GM_POLL_H_
