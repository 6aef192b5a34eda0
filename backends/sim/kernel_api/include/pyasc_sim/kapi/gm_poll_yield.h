// Ascend C on the CPU -- a core that polls global memory gives up its host thread (checks on or off).
//
// Public kernels wait for another core or PE by re-reading GM until a value moves: a DMA poll
// (`while (sum != target) { DataCopy(ub, gmStatus, params); ...; sum = ub.GetValue(0); }`, deepep's
// shmem_moe_distribute_dispatch / _combine) or a scalar one (`do { DataCacheCleanAndInvalid(flag);
// v = flag.GetValue(0); } while (v != x)`).  On hardware every block of the launch has its own core, so
// the writer runs while the reader spins.  Here blocks share a pool of host threads (as many as the
// host has cores): a spinning block would hold its thread forever, and a block that has not started --
// the writer -- would never get one (a launch of more blocks, or PEs x blocks, than host threads hangs).
//
// So a core's small GM reads are watched: a DMA read from GM of at most kPollMaxBytes in at most
// kPollMaxRows rows (DataCopy / DataCopyPad GM -> local), and a DataCacheCleanAndInvalid of one line
// (the invalidate of a scalar poll; the load follows it).  A read of the same rows whose bytes hash as
// they did when this core last read them, with nothing new since -- no GM write by this core, no GM read
// of other or changed bytes, only such unchanged re-reads -- is a poll round (rows are hashed from their
// second read on: a first read costs a lookup, no hash).  After kPollSpinRounds
// rounds in a row the core gives its thread up (kernel ABI v7 poll_wait) until one of the rows of the
// round changes: the runtime starts a thread for blocks not started yet and wakes the poller after every
// notify and at least every 0.5 ms; the read that follows sees the new bytes.  When nothing else can
// run -- every other block has ended, waits (SyncAll, IBWait, CrossCoreWaitFlag, SHMEM waits) or polls
// without a change, and every block has started -- the wait returns at once; kPollHangRounds such
// returns in a row are a hang on hardware: check 'cross-core-deadlock' at the poll's line (reported
// after any block's own error, as SyncAll's hang is).
//
// What is not a poll: a large read (a tile of data), a read of changed bytes, a re-read after the core
// wrote GM or read something new (a loop re-reading a weight between tiles), fewer than kPollSpinRounds
// re-reads in a row (a kernel reading one row in two or three passes).  A scalar poll without a
// DataCacheCleanAndInvalid per round is not watched (on hardware it reads its stale cache line: it may
// never see the value either).  The acquire such a poll makes for gm-cross-core-race is gm_poll.h's.
#ifndef PYASC_SIM_KAPI_GM_POLL_YIELD_H_
#define PYASC_SIM_KAPI_GM_POLL_YIELD_H_

#include <sched.h>

#include <cstdint>

#include "pyasc_sim/kapi/state.h"

#define PYASC_SIM_POLL_NOSAN __attribute__((no_sanitize_thread))

namespace pyasc_sim {
namespace kapi {

constexpr uint64_t kPollMaxBytes = 1024;  // a DMA read larger than this is data, not a poll
constexpr uint64_t kPollMaxRows = 64;
constexpr uint32_t kPollSpinRounds = 8;     // unchanged re-reads in a row before the core yields
constexpr uint32_t kPollHangRounds = 2000;  // yields in a row that found nothing else able to run: a hang
constexpr uint64_t kUnhashed = 0;  // PollSpot::hash of rows read once (rows_hash never returns it)

namespace gm_poll {

// FNV-style hash of the rows [addr + i * pitch, + burst), i < count, as GM holds them now.
PYASC_SIM_POLL_NOSAN inline uint64_t rows_hash(uint64_t addr, uint64_t count, uint64_t burst, uint64_t pitch) {
    uint64_t h = 0xcbf29ce484222325ull ^ (count * 0x100000001b3ull + burst);
    for (uint64_t i = 0; i < count; ++i) {
        const uint64_t row = addr + i * pitch;
        for (uint64_t j = 0; j < burst; j += 8) {
            h = (h ^ word(row + j, static_cast<uint32_t>(burst - j < 8 ? burst - j : 8))) * 0x100000001b3ull;
            h ^= h >> 29;
        }
    }
    return h == kUnhashed ? 1 : h;
}

// poll_wait's condition: a row of the current poll round (the spots read at the core's current epoch) no
// longer hashes as the core saw it.  Runs on the polling block's own thread.
PYASC_SIM_POLL_NOSAN inline int round_changed(void *arg) {
    BlockState &b = *static_cast<BlockState *>(arg);
    for (const BlockState::PollSpot &s : b.pspot) {
        if (s.epoch == b.pepoch && s.hash != kUnhashed && rows_hash(s.addr, s.count, s.burst, s.pitch) != s.hash) {
            return 1;
        }
    }
    return 0;
}

// The core has re-read unchanged bytes kPollSpinRounds times in a row or more: leave the thread to the others.
inline void yield(BlockState &b, const BlockState::PollSpot &s, const SrcLoc &loc) {
    PyascSimBlockContext *c = b.ctx;
    if (c == nullptr || c->abi_version < 7 || c->poll_wait == nullptr) {
        sched_yield();  // a runtime without poll_wait (CPU-debug programs run every block on its own thread)
        return;
    }
    const int wrote = b.pwait_epoch != b.pepoch ? 1 : 0;  // a GM access since its last wait: look again
    b.pwait_epoch = b.pepoch;
    if (c->poll_wait(c->runtime_user, c->block_idx, &round_changed, &b, wrote) == 0) {
        b.phopeless = 0;
        return;
    }
    if (++b.phopeless < kPollHangRounds) return;
    fail("cross-core-deadlock", loc,
         "block %u polls global memory (%llu row(s) of %llu bytes at %p, re-read %u times in a row and unchanged) "
         "and every other block of the launch has ended, waits or polls too: nothing can change what it reads "
         "(on hardware the core spins forever). The value it waits for is never written: check the writer "
         "(its block count, the address and value it writes, that it runs before ending)",
         b.block_idx, static_cast<unsigned long long>(s.count), static_cast<unsigned long long>(s.burst),
         reinterpret_cast<const void *>(static_cast<uintptr_t>(s.addr)), b.pstreak);
}

}  // namespace gm_poll

// A GM read of count rows of burst bytes, pitch apart, at addr, before it happens (DataCopy / DataCopyPad
// GM -> local; DataCacheCleanAndInvalid of one line: 1 x 64 bytes).  Yields when it is a poll round.
PYASC_SIM_POLL_NOSAN inline void poll_read(BlockState &b, uint64_t addr, uint64_t count, uint64_t burst, uint64_t pitch,
                                           const SrcLoc &loc) {
    if (count == 0 || burst == 0) return;
    if (count > kPollMaxRows || count * burst > kPollMaxBytes) {  // data: something new
        poll_gm_written(b);
        return;
    }
    BlockState::PollSpot *s = nullptr;
    for (BlockState::PollSpot &x : b.pspot) {
        if (x.addr == addr && x.count == count && x.burst == burst && x.pitch == pitch) s = &x;
    }
    if (s == nullptr) {  // new bytes; hashed only if the core reads them again (a first read costs no hash)
        poll_gm_written(b);
        BlockState::PollSpot dropped;
        b.pspot.push({addr, count, burst, pitch, kUnhashed, b.pepoch}, &dropped);
        return;
    }
    const uint64_t h = gm_poll::rows_hash(addr, count, burst, pitch);
    if (s->hash != h) {  // changed bytes (or the first re-read: the hash to compare with from now on)
        poll_gm_written(b);
        b.phopeless = 0;
        s->hash = h;
        s->epoch = b.pepoch;
        return;
    }
    if (s->epoch != b.pepoch) {  // unchanged, but the core did something new since it last read it
        s->epoch = b.pepoch;
        return;
    }
    if (++b.pstreak >= kPollSpinRounds) gm_poll::yield(b, *s, loc);
}

}  // namespace kapi
}  // namespace pyasc_sim

#undef PYASC_SIM_POLL_NOSAN

#endif  // PYASC_SIM_KAPI_GM_POLL_YIELD_H_
