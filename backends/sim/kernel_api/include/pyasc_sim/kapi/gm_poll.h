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
// have seen).
//
// Flags written by DMA.  A DataCopy / DataCopyPad to GM goes to GM directly (the DataCacheCleanAndInvalid
// page: the DMA unit has no cache coherence problem), so a flag word it writes is published once the copy
// has landed, and the poller's invalidate + load above observes it.  What it orders is only what had
// completed before the flag's copy started: PipeBarrier waits for the earlier instructions of a pipe
// ("same pipe with a data dependency needs PipeBarrier": copies on one pipe may overlap otherwise), and
// a SetFlag / WaitFlag from MTE3 to S holds the scalar unit, which issues the flag's copy, until MTE3's
// earlier copies are done.  So a fence -- PipeBarrier<PIPE_MTE3>, PipeBarrier<PIPE_ALL>, WaitFlag of an
// MTE3_S event -- followed by a DMA write to GM closes the core's segment right before that write (the
// block's start counts as a fence), and a flag-sized DMA write (one aligned 32-byte block, or an aligned
// 1 / 2 / 4 / 8-byte word) is a release of that segment, everything before the first DMA write since the
// last fence, once it has landed; the flag's own record moves there too.  DMA writes after that point
// are not published by it (the copies may land in any order).  When the core acquires something after
// an unfenced DMA write the flag's record cannot move back past the acquire: until the next fence
// nothing is released.  A 32-byte flag's key covers the whole block, so a poll of any word in it
// acquires it while the block holds what was written.
//
// Bookkeeping per core: the newest kGmPollSlots (8) unflushed stores, invalidated lines, lines loaded
// since a whole-cache invalidate, polled words' last values (a spin loop that sees the same value again
// adds no event) and last polls (PollRing, state.h).  Past the limit nothing is reported that would not
// be reported with more slots (a missed race is possible): the oldest unflushed store is released early
// (its write-back publishes nothing more on hardware: a write-back has no documented line order for the
// stores after it), a ninth invalidated line makes every line count as invalidated until loaded once, the
// oldest line loaded since a whole-cache invalidate may count as invalidated again, the oldest last poll
// is dropped unrecorded, and a forgotten last value only adds an event.
#ifndef PYASC_SIM_KAPI_GM_POLL_H_
#define PYASC_SIM_KAPI_GM_POLL_H_

#include <algorithm>
#include <cstdint>
#include <cstring>

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
constexpr uint64_t kDmaFlagBlock = 32;  // a DataCopy's data block: a DMA-written flag block

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

// The key of a DMA-written 32-byte flag block at addr (32-byte aligned) as GM holds it now.
PYASC_SIM_POLL_NOSAN inline uint64_t block_key(uint64_t addr) {
    uint64_t h = 0;
    for (uint64_t i = 0; i < kDmaFlagBlock; i += 8) h = mix(h ^ word(addr + i, 8));
    return key(addr, static_cast<uint32_t>(kDmaFlagBlock), h);
}

// The key of a 32-byte block at addr holding `bytes` (what a DMA read delivered): block_key's.
PYASC_SIM_POLL_NOSAN inline uint64_t block_key_of(uint64_t addr, const uint8_t *bytes) {
    uint64_t h = 0;
    for (uint64_t i = 0; i < kDmaFlagBlock; i += 8) {
        uint64_t w = 0;
        for (uint32_t j = 0; j < 8; ++j) w |= static_cast<uint64_t>(bytes[i + j]) << (8 * j);
        h = mix(h ^ w);
    }
    return key(addr, static_cast<uint32_t>(kDmaFlagBlock), h);
}

// The core acquired something: after a DMA write to GM and no fence since, a later flag's release cannot
// move back to the last fence (it would cross the acquire).
PYASC_SIM_POLL_NOSAN inline void acquired(BlockState &b) {
    if (b.xdma_unfenced) b.xdma_fenced = false;
    if (b.xdma_s_unfenced) b.xdma_s_fenced = false;
}

// An event of this core in segment `segment` (the current one: what follows is a new segment, and no
// two events share one; an earlier one: a DMA flag's release at its fence).
PYASC_SIM_POLL_NOSAN inline void event_at(BlockState &b, uint32_t kind, uint64_t k, uint64_t seq, uint32_t segment) {
    const uint32_t tag = gm_tag(b, PYASC_SIM_GM_EVENT);
    b.writes.push_back({k, seq, nullptr, kind,
                        (tag & ~PYASC_SIM_GM_SEGMENT_MASK) | std::min<uint32_t>(segment, PYASC_SIM_GM_SEGMENT_MASK)});
    if (segment >= b.xseg) b.xseg = segment + 1;
    if (kind == PYASC_SIM_GM_EVENT_ACQUIRE) acquired(b);
}
PYASC_SIM_POLL_NOSAN inline void event(BlockState &b, uint32_t kind, uint64_t k, uint64_t seq) {
    event_at(b, kind, k, seq, b.xseg);
}

// Moves this core's scalar store records (PYASC_SIM_GM_SCALAR: SetValue, raw stores) of GM [addr, addr + n)
// made after segment `segment` back to it (a back-dated release covers the flag's own store: the poller's
// read of the value it stored is the synchronisation, not a race).  A record reaching past the word keeps the
// rest where it was; DMA writes of the word stay (a copy still in flight may land after the store).
PYASC_SIM_POLL_NOSAN inline void move_store_back(BlockState &b, uint64_t addr, uint32_t n, uint32_t segment) {
    const uint64_t end = addr + n;
    const uint32_t seg = std::min<uint32_t>(segment, PYASC_SIM_GM_SEGMENT_MASK);
    const uint32_t core = gm_tag(b, 0) & ~PYASC_SIM_GM_SEGMENT_MASK;
    std::vector<PyascSimGmWrite> &w = b.writes;
    for (size_t i = 0, count = w.size(); i < count; ++i) {
        const PyascSimGmWrite r = w[i];
        const uint32_t kind = r.reserved & ~PYASC_SIM_GM_SEGMENT_MASK;
        const bool later = (r.reserved & PYASC_SIM_GM_SEGMENT_MASK) > seg;
        if (r.file == nullptr || kind != (core | PYASC_SIM_GM_SCALAR) || !later || r.end <= addr || r.begin >= end) {
            continue;
        }
        const uint64_t lo = std::max(r.begin, addr), hi = std::min(r.end, end);
        w[i].begin = lo;
        w[i].end = hi;
        w[i].reserved = kind | seg;
        if (r.begin < lo) w.push_back({r.begin, lo, r.file, r.line, r.reserved});
        if (hi < r.end) w.push_back({hi, r.end, r.file, r.line, r.reserved});
    }
}

// A release of the scalar store s (its value as GM holds it now).  Its write-back orders what the scalar
// unit did, not DMA copies still in flight: after a DMA write to GM with no fence since that holds the
// scalar unit (PipeBarrier<PIPE_ALL>, WaitFlag of an MTE3_S event), it publishes only what came before the
// first such write -- the release goes back to the segment that write opened, as a DMA flag's does, and the
// flag's own store records move there with it -- and nothing when the core acquired something since (the
// release cannot cross the acquire).
PYASC_SIM_POLL_NOSAN inline void release(BlockState &b, const BlockState::PollStore &s) {
    const uint64_t k = key(s.addr, s.n, word(s.addr, s.n));
    if (!b.xdma_s_unfenced) {
        event(b, PYASC_SIM_GM_EVENT_RELEASE, k, s.seq);
    } else if (b.xdma_s_fenced) {
        move_store_back(b, s.addr, s.n, b.xdma_s_fence_seg);
        event_at(b, PYASC_SIM_GM_EVENT_RELEASE, k, s.seq, b.xdma_s_fence_seg);
    }
}

// An acquire of (addr, n, value) unless this core's last poll of the word saw the same value; with it
// an acquire of the word's 32-byte block as GM holds it (a flag block written by DMA).
PYASC_SIM_POLL_NOSAN inline void acquire(BlockState &b, uint64_t addr, uint32_t n, uint64_t value) {
    BlockState::PollSeen *slot = nullptr;
    for (BlockState::PollSeen &s : b.xseen) {
        if (s.addr == addr) slot = &s;
    }
    if (slot != nullptr && slot->value == value) return;
    if (slot == nullptr) {
        BlockState::PollSeen dropped;  // its last value is forgotten: its next poll adds an event
        b.xseen.push({addr, value}, &dropped);
    } else {
        slot->value = value;
    }
    event(b, PYASC_SIM_GM_EVENT_ACQUIRE, key(addr, n, value), xrace_next_seq());
    event(b, PYASC_SIM_GM_EVENT_ACQUIRE, block_key(addr / kDmaFlagBlock * kDmaFlagBlock), xrace_next_seq());
}

// Whether a load at addr is the first of its line since this core invalidated it (consumes that).
PYASC_SIM_POLL_NOSAN inline bool take_fresh(BlockState &b, uint64_t addr) {
    const uint64_t line = addr / kLine;
    for (uint32_t i = 0; i < b.xfresh.n; ++i) {
        if (b.xfresh.at[i] == line) {
            b.xfresh.erase(i);
            return true;
        }
    }
    if (!b.xfresh_all) return false;
    for (const uint64_t used : b.xused) {
        if (used == line) return false;
    }
    uint64_t dropped;  // more lines than tracked: the oldest may count as invalidated again (never reported)
    b.xused.push(line, &dropped);
    return true;
}

// Keeps the read record of a poll of [addr, addr + n) as the word's latest, replacing (dropping) the
// previous poll of the same word; past kGmPollSlots words the oldest is dropped unrecorded.
PYASC_SIM_POLL_NOSAN inline void keep(BlockState &b, uint64_t addr, uint32_t n, const SrcLoc &loc) {
    const BlockState::PollRead r{addr, n, loc.file, loc.line, gm_tag(b, PYASC_SIM_GM_READ)};
    for (BlockState::PollRead &k : b.xlast) {
        if (k.addr == addr && k.n == n) {
            k = r;
            return;
        }
    }
    BlockState::PollRead dropped;  // whether it saw the value or not is unknown: no record (never reported)
    b.xlast.push(r, &dropped);
}

}  // namespace gm_poll

// DMA polls.  A DataCopy / DataCopyPad from GM of whole 32-byte blocks -- a read of flag blocks as a DMA
// flag write publishes them (above) -- is how kernels poll a flag block (or a row of them, one per
// peer: deepep's WaitDispatch, a strided DataCopy of one 32-byte status block per rank, in a loop until
// their sum is the target).  Such a read of at most kDmaPollRows blocks is a poll, each block as a
// word's poll is (gm_poll_load): an acquire of the block's content as the copy delivered it (when it
// differs from what this core's last read of the block saw), and of the core's reads of the block only
// the latest is recorded (when the block ends): the earlier ones are the loop's rounds, which saw the
// old value and went round again.  The last kDmaPollSlots blocks are kept; an older one is recorded
// when it leaves (a core reading many different 32-byte blocks is reading data, not polling).
constexpr uint64_t kDmaPollRows = 64;
constexpr size_t kDmaPollSlots = 64;

// Whether a DMA read of count rows of burst bytes at addr, pitch apart, is read as flag blocks.
inline bool dma_poll_shape(const BlockState &b, uint64_t addr, uint64_t count, uint64_t burst, uint64_t pitch) {
    return b.xrace && !b.xmute && burst == gm_poll::kDmaFlagBlock && addr % gm_poll::kDmaFlagBlock == 0 &&
           pitch % gm_poll::kDmaFlagBlock == 0 && count != 0 && count <= kDmaPollRows;
}

// After such a read (its plain read records muted): the rows' acquires and records, from the bytes it
// delivered (row i at dst + i * dst_pitch).
PYASC_SIM_POLL_NOSAN inline void gm_poll_dma_read(BlockState &b, uint64_t addr, uint64_t count, uint64_t pitch,
                                                  const uint8_t *dst, uint64_t dst_pitch, const SrcLoc &loc) {
    poll_settle(b);
    std::vector<BlockState::DmaPollRead> &kept = b.xdma_last;
    for (uint64_t i = 0; i < count; ++i) {
        const uint64_t row = addr + i * pitch;
        const uint64_t k = gm_poll::block_key_of(row, dst + i * dst_pitch);
        BlockState::DmaPollRead *slot = nullptr;
        for (BlockState::DmaPollRead &r : kept) {
            if (r.addr == row) slot = &r;
        }
        if (slot == nullptr || slot->key != k) gm_poll::event(b, PYASC_SIM_GM_EVENT_ACQUIRE, k, xrace_next_seq());
        const BlockState::DmaPollRead now{row, k, loc.file, loc.line, gm_tag(b, PYASC_SIM_GM_READ)};
        if (slot != nullptr) {
            *slot = now;
            continue;
        }
        if (kept.size() >= kDmaPollSlots) {
            const BlockState::DmaPollRead &old = kept.front();
            record_site(b, old.addr, old.addr + gm_poll::kDmaFlagBlock, SrcLoc(old.file, old.line), old.tag);
            kept.erase(kept.begin());
        }
        kept.push_back(now);
    }
}

// The block ends: the last poll of each word (gm_poll::keep) and of each DMA-polled block is recorded.
PYASC_SIM_POLL_NOSAN inline void poll_end(BlockState &b) {
    poll_settle(b);
    for (const BlockState::PollRead &r : b.xlast) record_site(b, r.addr, r.addr + r.n, SrcLoc(r.file, r.line), r.tag);
    b.xlast.clear();
    for (const BlockState::DmaPollRead &r : b.xdma_last) {
        record_site(b, r.addr, r.addr + gm_poll::kDmaFlagBlock, SrcLoc(r.file, r.line), r.tag);
    }
    b.xdma_last.clear();
}

// What happened before this call is settled: a raw load polled earlier (gm_poll_load) acquires, then
// its read is kept; a DMA flag write (gm_poll_dma_write), landed by now, is released.
PYASC_SIM_POLL_NOSAN inline void poll_settle(BlockState &b) {
    if (!b.xpoll_pending) return;
    b.xpoll_pending = false;
    if (b.xdma_flag_set) {
        b.xdma_flag_set = false;
        const BlockState::PollDma &d = b.xdma_flag;
        const uint32_t n = static_cast<uint32_t>(d.end - d.begin);
        const uint64_t k = n == gm_poll::kDmaFlagBlock ? gm_poll::block_key(d.begin)
                                                       : gm_poll::key(d.begin, n, gm_poll::word(d.begin, n));
        gm_poll::event_at(b, PYASC_SIM_GM_EVENT_RELEASE, k, d.seq, d.segment);
    }
    if (b.xpoll_load) {
        b.xpoll_load = false;
        const BlockState::PollLoad &l = b.xpoll;
        const uint64_t now = gm_poll::word(l.addr, l.n);
        gm_poll::acquire(b, l.addr, l.n, l.before);
        if (now != l.before) gm_poll::acquire(b, l.addr, l.n, now);
        gm_poll::keep(b, l.addr, l.n, SrcLoc(l.file, l.line));
    }
}

// A scalar GM store of n bytes at addr (SetValue, a raw store), before it lands: a release candidate.
// Past kGmPollSlots unflushed stores the oldest is released now.
PYASC_SIM_POLL_NOSAN inline void gm_poll_store(BlockState &b, uint64_t addr, uint32_t n) {
    if (!b.xrace || n > 8) return;
    const uint64_t seq = __atomic_load_n(xrace_seq(), __ATOMIC_SEQ_CST) | 1u;
    for (BlockState::PollStore &s : b.xpub) {
        if (s.addr == addr) {
            s.n = n;
            s.seq = seq;
            return;
        }
    }
    BlockState::PollStore dropped;
    if (b.xpub.push({addr, n, seq}, &dropped)) gm_poll::release(b, dropped);
}

// DataCacheCleanAndInvalid of GM lines: [at, the end of its line), or the whole cache (`whole`).
// Releases the unflushed stores it writes back, then marks the lines invalidated for the next load.
PYASC_SIM_POLL_NOSAN inline void gm_poll_flush(BlockState &b, uint64_t at, bool whole) {
    if (!b.xrace) return;
    poll_settle(b);
    const uint64_t end = (at / gm_poll::kLine + 1) * gm_poll::kLine;
    for (uint32_t i = 0; i < b.xpub.n;) {
        const BlockState::PollStore s = b.xpub.at[i];
        if (whole || (s.addr >= at && s.addr + s.n <= end)) {
            gm_poll::release(b, s);
            b.xpub.erase(i);
        } else {
            ++i;
        }
    }
    if (whole) {
        b.xfresh_all = true;
        b.xfresh.clear();
        b.xused.clear();
        return;
    }
    const uint64_t line = at / gm_poll::kLine;
    for (const uint64_t fresh : b.xfresh) {
        if (fresh == line) return;
    }
    uint64_t dropped;
    if (b.xfresh.push(line, &dropped) && !b.xfresh_all) {  // more lines than tracked: all count as invalidated
        b.xfresh_all = true;
        b.xused.clear();
    }
    for (uint32_t i = 0; i < b.xused.n; ++i) {  // a line loaded since a whole-cache flush is fresh again
        if (b.xused.at[i] == line) b.xused.erase(i--);
    }
}

// A fence for DMA writes to GM (PipeBarrier<PIPE_MTE3> / <PIPE_ALL>, WaitFlag of an MTE3_S event): the
// DMA writes before it have completed before the copies the core issues after it, and, when it holds the
// scalar unit (`scalar`: PIPE_ALL, MTE3_S; PipeBarrier<PIPE_MTE3> waits on the MTE3 pipe only), before
// its later scalar stores too.  The fence's segment closes at the core's next DMA write to GM
// (gm_poll_dma_write), so no segment is spent on a fence without one.
PYASC_SIM_POLL_NOSAN inline void gm_poll_dma_fence(BlockState &b, bool scalar) {
    if (!b.xrace) return;
    poll_settle(b);
    b.xdma_unfenced = false;
    if (scalar) b.xdma_s_unfenced = false;
}

// A DMA write of GM [begin, end) at `loc` (DataCopy / DataCopyPad to GM), before it lands: recorded as a
// write of `kind`.  The first one since a fence (or the block's start) closes the segment there; a
// flag-sized one is recorded in that segment and released at it when it has landed (poll_settle),
// unless the core acquired something after an unfenced DMA write (its record cannot move back past
// the acquire: it stays where it is, unpublished).
PYASC_SIM_POLL_NOSAN inline void gm_poll_dma_write(BlockState &b, uint64_t begin, uint64_t end, const SrcLoc &loc,
                                                   uint32_t kind) {
    poll_settle(b);
    if (!b.xdma_unfenced) {  // everything before this write is complete for the copies after it
        b.xdma_unfenced = true;
        b.xdma_fenced = true;
        b.xdma_fence_seg = b.xseg++;
    }
    if (!b.xdma_s_unfenced) {  // the first since a scalar fence (one is a DMA fence too: a segment just closed)
        b.xdma_s_unfenced = true;
        b.xdma_s_fenced = true;
        b.xdma_s_fence_seg = b.xdma_fence_seg;
    }
    const uint64_t n = end - begin;
    const bool publish = b.xdma_fenced && (n == gm_poll::kDmaFlagBlock || n == 1 || n == 2 || n == 4 || n == 8) &&
                         begin % n == 0;
    const uint32_t segment = publish ? b.xdma_fence_seg : b.xseg;
    record_site(b, begin, end, loc,
                (gm_tag(b, kind) & ~PYASC_SIM_GM_SEGMENT_MASK) | std::min<uint32_t>(segment, PYASC_SIM_GM_SEGMENT_MASK));
    if (!publish) return;
    b.xdma_flag = {begin, end, __atomic_load_n(xrace_seq(), __ATOMIC_SEQ_CST) | 1u, segment};
    b.xdma_flag_set = true;
    b.xpoll_pending = true;
}

// A raw scalar load of n bytes at addr from `file`:`line`, before it happens.  Returns true when it is
// a poll (the first load of a line this core invalidated): its read is recorded when it is settled.
PYASC_SIM_POLL_NOSAN inline bool gm_poll_load(BlockState &b, uint64_t addr, uint32_t n, const char *file,
                                              unsigned line) {
    if (!b.xrace) return false;
    poll_settle(b);
    if (n > 8 || !gm_poll::take_fresh(b, addr)) return false;
    b.xpoll = {addr, n, gm_poll::word(addr, n), file, line};
    b.xpoll_load = true;
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
