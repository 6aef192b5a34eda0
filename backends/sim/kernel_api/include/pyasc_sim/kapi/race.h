// Ascend C on the CPU -- intra-core pipe race detection (check `pipe-race`).
//
// The simulator runs a block's instructions in program order; hardware runs each pipe (S, V, M,
// MTE1, MTE2, MTE3, FIX) on its own and orders two pipes only through SetFlag/WaitFlag,
// PipeBarrier<PIPE_ALL> and the queues.  Every local-memory access an instruction checks is
// noted here, attributed to the pipe the instruction charges, and compared with the last write
// and the last read per pipe of each 32-byte sector: a conflicting access of another pipe that no
// happens-before edge (a vector clock per pipe) orders is a race.  State only; state.h reports.
#ifndef PYASC_SIM_KAPI_RACE_H_
#define PYASC_SIM_KAPI_RACE_H_

#include <algorithm>
#include <cstdint>
#include <cstddef>
#include <cstring>
#include <map>
#include <new>
#include <utility>
#include <vector>

namespace pyasc_sim {
namespace kapi {

constexpr int kRacePipes = 7;  // S, V, M, MTE1, MTE2, MTE3, FIX (the order of enum Pipe)
constexpr int kRaceMems = 7;   // UB, L1, L0A, L0B, L0C, BT, FB (the order of enum MemKind)
constexpr int kRaceLanes = 8;  // a clock's entries in memory: the pipes and one unused 0 (8-lane joins)

inline const char *race_pipe_name(int p) {
    static const char *const names[kRacePipes] = {"S", "V", "M", "MTE1", "MTE2", "MTE3", "FIX"};
    return p >= 0 && p < kRacePipes ? names[p] : "?";
}

// Source and destination pipe of each HardEvent, in the enum's order (-1: none).
inline void race_event_pipes(int event, int &src, int &dst) {
    enum { S = 0, V, M, MTE1, MTE2, MTE3, FIX };
    static const signed char table[][2] = {
        {MTE2, MTE1}, {MTE1, MTE2}, {MTE1, M},   {M, MTE1},    {MTE2, V},   {V, MTE2},    {MTE3, V},
        {V, MTE3},    {M, V},       {V, M},      {V, V},       {MTE3, MTE1}, {MTE1, MTE3}, {MTE1, V},
        {MTE2, M},    {M, MTE2},    {V, MTE1},   {M, FIX},     {FIX, M},    {MTE3, MTE2}, {MTE2, MTE3},
        {S, V},       {V, S},       {S, MTE2},   {MTE2, S},    {S, MTE3},   {MTE3, S},    {MTE2, FIX},
        {FIX, MTE2},  {FIX, S},     {M, S},      {FIX, MTE3},  {MTE1, FIX}, {FIX, MTE1},  {FIX, FIX}};
    const int n = static_cast<int>(sizeof(table) / sizeof(table[0]));
    src = event >= 0 && event < n ? table[event][0] : -1;
    dst = event >= 0 && event < n ? table[event][1] : -1;
}

// A vector clock (kRacePipes entries) published by a SetFlag or a queue slot; unset: nothing published.
struct RaceClock {
    uint32_t c[kRaceLanes] = {};
    bool set = false;
    bool empty() const { return !set; }
    void clear() { set = false; }
    const uint32_t *data() const { return c; }
};

struct RaceState {
    // Last accesses of one 32-byte sector: the write (pipe, epoch, source line) and, per pipe, the
    // latest read since that write (the S pipe's reads are not recorded: commit).  Epoch 0: none.
    struct Sector {
        uint32_t w_ep = 0;
        uint32_t r_ep[kRacePipes] = {};
        uint16_t w_loc = 0;
        uint16_t r_loc[kRacePipes] = {};
        uint8_t w_pipe = 0;
        uint8_t zero[7] = {};
    };
    struct Note {
        int kind;
        uint64_t off, bytes;
        bool write;
        // Built in place by emplace_back: a braced temporary copied in with two 16-byte loads stalls
        // on store forwarding (its fields were just stored one by one), once per operand check.
        Note(int k, uint64_t o, uint64_t n, bool w) : kind(k), off(o), bytes(n), write(w) {}
    };
    // Field by field, each load the width of the store that last wrote it: commit() compares runs it
    // has just updated, and a wider load over a narrower store cannot be forwarded from the store
    // buffer (it waits for the store to reach the cache, behind the streamed GM writes of DataCopy).
    static bool same_sector(const Sector &a, const Sector &b) {
        if (a.w_ep != b.w_ep || a.w_loc != b.w_loc || a.w_pipe != b.w_pipe) return false;
        bool same = true;
        for (int q = 0; q < kRacePipes; ++q) same = same && a.r_ep[q] == b.r_ep[q] && a.r_loc[q] == b.r_loc[q];
        return same;
    }
    // x = written at epoch ep by pipe p (source line li), read since by nobody.  Field by field in
    // place: a temporary Sector copied in stalls on store forwarding (a per-instruction cost).
    static void set_written(Sector &x, uint32_t ep, uint16_t li, int p) {
        x.w_ep = ep;
        x.w_loc = li;
        x.w_pipe = static_cast<uint8_t>(p);
        for (int q = 0; q < kRacePipes; ++q) x.r_ep[q] = 0;
        for (int q = 0; q < kRacePipes; ++q) x.r_loc[q] = 0;
    }
    // Whether a sector holds what set_written(x, ep, li, p) would leave in it.
    static bool is_written(const Sector &a, uint32_t ep, uint16_t li, int p) {
        if (a.w_ep != ep || a.w_loc != li || a.w_pipe != p) return false;
        for (int q = 0; q < kRacePipes; ++q) {
            if (a.r_ep[q] != 0 || a.r_loc[q] != 0) return false;
        }
        return true;
    }
    // Whether a equals b once b is read by pipe p at epoch ep (source line li).
    static bool is_read_of(const Sector &a, const Sector &b, uint32_t ep, uint16_t li, int p) {
        if (a.w_ep != b.w_ep || a.w_loc != b.w_loc || a.w_pipe != b.w_pipe) return false;
        for (int q = 0; q < kRacePipes; ++q) {
            const uint32_t e = q == p ? ep : b.r_ep[q];
            const uint16_t l = q == p ? li : b.r_loc[q];
            if (a.r_ep[q] != e || a.r_loc[q] != l) return false;
        }
        return true;
    }
    // One run: sectors [first, the next run's first) with the same last accesses.
    struct Run {
        uint64_t first;
        Sector s;
    };
    using Runs = std::vector<Run>;
    // The runs of memory `kind` (created on first use: one run of never-accessed sectors).
    Runs &runs_of(int kind, const size_t *capacity) {
        Runs &r = runs[kind];
        if (__builtin_expect(r.empty(), 0)) first_run(kind, capacity);
        return r;
    }
    __attribute__((noinline)) void first_run(int kind, const size_t *capacity) {
        nsec[kind] = (capacity[kind] + 31) / 32;
        runs[kind].reserve(64);
        runs[kind].push_back(Run{0, Sector{}});
    }
    // The index of the run holding sector s (runs sorted by first, the first at 0).
    // Branch-free (a data-dependent binary search mispredicts on every step): the answer stays in
    // [lo, lo + n) while n halves.
    static size_t find(const Runs &r, uint64_t s) {
        size_t lo = 0, n = r.size();
        while (n > 1) {
            const size_t half = n / 2;
            lo = r[lo + half].first <= s ? lo + half : lo;
            n -= half;
        }
        return lo;
    }
    // find() in memory `kind`, first walking a few runs from the one an earlier lookup near s found
    // (an instruction's operands and the next tile's are the same buffers again; the runs between
    // shift by one or two as accesses split and merge them: hints mostly hit).
    size_t locate(int kind, uint64_t s) {
        const Runs &r = runs[kind];
        uint16_t &slot = hint[kind][(s >> 5) & (kHints - 1)];
        const size_t n = r.size();
        size_t h = slot < n ? slot : n - 1;
        for (int step = 0; step < 4; ++step) {
            if (r[h].first > s) {  // h > 0: r[0].first == 0 <= s
                --h;
            } else if (h + 1 < n && r[h + 1].first <= s) {
                ++h;
            } else {
                slot = static_cast<uint16_t>(h < 0xffff ? h : 0xffff);
                return h;
            }
        }
        h = find(r, s);
        slot = static_cast<uint16_t>(h < 0xffff ? h : 0xffff);  // (an index past 65534: no hint)
        return h;
    }
    // Makes a run of memory `kind` start at sector s (< nsec) and returns its index.
    size_t split(int kind, uint64_t s) {
        Runs &r = runs[kind];
        const size_t i = locate(kind, s);
        if (r[i].first == s) return i;
        r.insert(r.begin() + static_cast<std::ptrdiff_t>(i + 1), Run{s, r[i].s});
        return i + 1;
    }
    // A conflict found by commit(): filled in for state.h's report.
    struct Conflict {
        bool found = false;
        const char *kind_name = "";  // "read-after-write", ...
        int mem = 0, pipe = 0, other_pipe = 0;
        uint64_t off = 0, bytes = 0, sector = 0;
        const char *other_file = nullptr;
        unsigned other_line = 0;
    };

    // Accesses recorded late.  A loop over the rows of a batch issues, row after row, the same
    // instructions on neighbouring slices of the same buffers (at one epoch of the pipe): each slice
    // alone splits a run and the next merges it back.  Held here instead, the next instruction's
    // accesses that continue them (same pipe, epoch, line, memory and direction, the next sectors)
    // extend them, and the whole range is recorded once: one update of one run.  The per-sector
    // state that results is the same: the held accesses go in in their order, and an extension
    // moves a later access only before held accesses of other sectors.  Recorded before any check
    // of an overlapping range (commit) and before any access that does not extend them.
    //
    // One held access: key = epoch << 32 | line << 16 | pipe << 8 | memory << 1 | write, sectors
    // [first, last).  Whole 8-byte fields, each written and read at that width and never copied:
    // a wider or misaligned load over fields just stored one by one cannot be forwarded from the
    // store buffer and waits for the stores to reach the cache (behind DataCopy's streamed writes).
    struct Held {
        uint64_t key, first, last;
    };
    // Fields every instruction touches come first, together (the vector data an instruction
    // streams evicts the state between two instructions: each cache line is a miss).
    bool on = false;
    // The BiSheng compiler's automatic synchronisation (--cce-auto-sync, on by default: state.h sets it from
    // PYASC_SIM_AUTO_SYNC): the Scalar Unit's pairs with MTE2 / MTE3 / V are inserted by the compiler (see
    // auto_synced).  Off here: the state alone checks what the kernel writes (tests/test_race_state.cpp).
    bool auto_sync = false;
    unsigned cur = 0;     // stage[cur]: the held accesses (see Held)
    size_t nheld = 0;
    const char *pend_file = nullptr;
    unsigned pend_line = 0;
    uint32_t diag[kRaceLanes] = {};            // vc[q][q] (lane 7: 0), kept by commit(): see join_all
    // Lazy epochs: whether pipe q's current epoch vc[q][q] was copied out (SetFlag of its events,
    // a barrier, a queue publish) since its last instruction.  Only those copies are ever compared
    // with recorded epochs, so consecutive instructions of one pipe with no copy between them are
    // indistinguishable to every check and share an epoch: their accesses then form one run (rows
    // of a buffer read or written one instruction at a time by a loop stay one run, not one each).
    bool seen[kRacePipes] = {true, true, true, true, true, true, true};
    // Accesses of the instruction not yet charged: a few operands in place (no heap traffic per
    // instruction), the rare instruction with more in a vector behind them.
    struct Pending {
        static constexpr size_t kInline = 8;
        size_t count = 0;  // first: next to the first notes
        union Slot {
            Note n;
            Slot() {}
        } inl[kInline];
        std::vector<Note> more;
        bool empty() const { return count == 0; }
        void clear() {
            count = 0;
            more.clear();
        }
        void add(int kind, uint64_t off, uint64_t bytes, bool write) {
            if (count < kInline) {
                new (&inl[count].n) Note(kind, off, bytes, write);
            } else {
                more.emplace_back(kind, off, bytes, write);
            }
            ++count;
        }
        const Note &operator[](size_t i) const { return i < kInline ? inl[i].n : more[i - kInline]; }
    } pending;
    static constexpr size_t kHeld = 4;
    static_assert(kHeld <= Pending::kInline, "extend_held reads the notes in place");
    Held stage[2][kHeld];  // stage[cur]: the held accesses; the other: the next instruction's
    uint32_t vc[kRacePipes][kRaceLanes] = {};  // vc[p][q]: the epoch of pipe q that pipe p has seen (q < 7)
    // Per memory: runs of sectors with the same last accesses, sorted by their first sector (a run
    // ends where the next begins, the last at nsec). An instruction touches whole operands, so a
    // check or an update costs per run it overlaps, not per 32-byte sector; a flat sorted vector
    // (binary search, few runs in practice) rather than a tree: no allocation per split or merge.
    Runs runs[kRaceMems];
    uint64_t nsec[kRaceMems] = {};
    // locate(): runs found, per memory and 1 KiB slot of the start (direct-mapped over 256 KiB, more
    // than the 192 KiB unified buffer: a kernel's buffers and rows, 16 or 4 KiB apart, keep their own)
    static constexpr size_t kHints = 256;
    uint16_t hint[kRaceMems][kHints] = {};
    // Source lines interned (intern): locs[i] is line i (0: none).  The first kLocTabled lines a block
    // interns are found through loc_table, an open-addressing table (linear probing) in place, any more
    // through loc_index.  A block's state is built per launch and block: a map alone allocated a node per
    // line, and locs grew from one element, in every block (~30 lines, 48 blocks for a (4096, 1024)
    // layer_norm: ~1,700 allocations a launch with the checks on).
    std::vector<std::pair<const char *, unsigned>> locs{{nullptr, 0}};
    std::map<std::pair<const char *, unsigned>, uint16_t> loc_index;
    struct LocSlot {
        const char *file = nullptr;
        unsigned line = 0;
        uint16_t index = 0;  // 0: empty
    };
    static constexpr size_t kLocSlots = 256, kLocTabled = 192;  // at most 3/4 full: a probe ends at an empty slot
    LocSlot loc_table[kLocSlots];
    // HardEvent x event id: what SetFlag published, where flag_set[event] has the id's bit.  Written when first
    // set, not zeroed with the state: a block's state is built per launch and block, and these 18 KiB were most
    // of the zeroing (48 blocks of a (4096, 1024) launch: 0.9 MB of the 2.6 MB a launch zeroed).
    struct FlagClock {
        uint32_t c[kRaceLanes];
    };
    FlagClock flag_vc[64][8];
    uint8_t flag_set[64] = {};
    // The Mmad / Fixpipe unit-flag handshake (MmadParams / FixpipeParamsV220 unitFlag): [0] what the last Mmad
    // of an accumulation (unitFlag 0b11) published for the Fixpipe that reads it, [1] what that Fixpipe
    // published for the next unit-flag Mmad that overwrites L0C.
    RaceClock unit_vc[2];
    Conflict conflict;         // what the last commit() that returned true found

    // An instruction at file:line accesses local memory; the pipe is known once it charges.
    void note(int kind, uint64_t off, uint64_t bytes, bool write, const char *file, unsigned line) {
        if (!on || kind < 0 || kind >= kRaceMems || bytes == 0) return;
        if (!pending.empty() && (file != pend_file || line != pend_line)) pending.clear();  // never charged
        pend_file = file;
        pend_line = line;
        pending.add(kind, off, bytes, write);
    }

    uint16_t intern(const char *file, unsigned line) {
        size_t h = ((reinterpret_cast<uintptr_t>(file) >> 3) ^ (line * 2654435761u)) & (kLocSlots - 1);
        for (; loc_table[h].index != 0; h = (h + 1) & (kLocSlots - 1)) {
            if (loc_table[h].file == file && loc_table[h].line == line) return loc_table[h].index;
        }
        if (locs.size() > kLocTabled + 1) {  // lines past the table's: in the map
            auto it = loc_index.find({file, line});
            if (it != loc_index.end()) return it->second;
        }
        if (locs.size() >= 65535) return 0;
        const uint16_t i = static_cast<uint16_t>(locs.size());
        if (i == 1) locs.reserve(64);
        locs.emplace_back(file, line);
        if (i <= kLocTabled) {
            loc_table[h] = {file, line, i};  // h: the empty slot that ended the probe
        } else {
            loc_index.emplace(std::make_pair(file, line), i);
        }
        return i;
    }

    // Pipe p has seen every other pipe's latest epoch.  Every vc[p][q] <= diag[q] (join_all) and
    // vc[p][p] == diag[p] (only commit raises either, both at once; a join copies an earlier vc[p][p]
    // into lane p): so vc[p][q] >= diag[q] for every q != p exactly when the two rows are equal, one
    // 32-byte compare instead of seven branches.
    bool sees_all(int p) const { return std::memcmp(vc[p], diag, sizeof(diag)) == 0; }

    // The pending instruction runs on pipe p: checks its accesses, then records them.  Returns
    // whether it races (the conflict then is in `conflict`; nothing is built on the common path).
    bool commit(int p, const size_t *capacity) {
        if (!on || pending.empty() || p < 0 || p >= kRacePipes) {
            pending.clear();
            return false;
        }
        bool current = sees_all(p);
        // a loop's next row, extending the held accesses of its previous one (see extend_held)
        if (current && row_next(p, pend_file, pend_line, pending.count) &&
            extend_held(p, [this](size_t j) -> const Note & { return pending.inl[j].n; })) {  // j < kHeld <= kInline
            pending.clear();
            return false;
        }
        // A scalar instruction that only reads records nothing (see below): it keeps the S pipe's
        // epoch, so the other pipes' clocks stay current with it (the test below then still holds
        // after a GetValue).  Nothing ever compares with an epoch no access was recorded at.
        bool records = p != 0;
        for (size_t j = 0; j < pending.count && !records; ++j) records = pending[j].write;
        // Every access recorded for a pipe q is at an epoch <= vc[q][q]: when pipe p has seen every
        // other pipe's current epoch (right after a DeQue / AllocTensor / WaitFlag, and for every
        // instruction of p until another pipe runs), no recorded access can be unordered with this
        // one, and the check below would find nothing (7 compares instead of a walk over the runs).
        // (Raising p's own epoch below changes no other pipe's entry: the test may come first.)
        // (diag: the contiguous copy of every vc[q][q], one cache line instead of seven rows; `current`
        // above is that test)
        // Not current: the accesses p has not seen may all still be held (the instruction just before,
        // e.g. a vector op between two GetValue); when none of them overlaps this one's, the check
        // would find nothing either (see only_held_unseen).
        if (!current) {
            current = only_held_unseen(p, [this](size_t j) -> const Note & { return pending[j]; }, pending.count);
        }
        if (current && !records) {  // a scalar read nothing can race with: nothing to check or record
            pending.clear();
            return false;
        }
        if (seen[p] && records) {
            diag[p] = ++vc[p][p];
            seen[p] = false;
        }
        const uint32_t ep = vc[p][p];
        const uint16_t li = intern(pend_file, pend_line);
        // a check sees every earlier access of its range: the held ones first go in
        if (!current && nheld != 0) {
            for (size_t j = 0; j < pending.count; ++j) {
                const Note &n = pending[j];
                runs_of(n.kind, capacity);
                const uint64_t first = n.off / 32, last = std::min<uint64_t>((n.off + n.bytes + 31) / 32, nsec[n.kind]);
                if (first < last && held_overlaps(n.kind, first, last)) {
                    flush_held();
                    break;
                }
            }
        }
        // Reads first, and for a write its reads before its write: the report names the access
        // the missing edge belongs to (the latest unordered one).  A conflict the compiler's automatic
        // synchronisation orders (auto_synced) gets its edge and the check starts again: at most one
        // restart per other pipe (after the edge p has seen all of that pipe's recorded accesses).
    recheck:
        for (int pass = current ? 2 : 0; pass < 2; ++pass) {
            for (size_t j = 0; j < pending.count; ++j) {
                const Note &n = pending[j];
                if (n.write != (pass == 1)) continue;
                Runs &r = runs_of(n.kind, capacity);
                const uint64_t first = n.off / 32, last = std::min<uint64_t>((n.off + n.bytes + 31) / 32, nsec[n.kind]);
                if (first >= last) continue;
                for (size_t i = locate(n.kind, first); i < r.size() && r[i].first < last; ++i) {
                    const Sector &x = r[i].s;
                    const uint64_t s = std::max(r[i].first, first);  // the run's first sector in the access
                    if (n.write) {
                        // of the unordered reads, the latest (one whose pipe saw another's read after it)
                        int best = -1;
                        for (int q = 0; q < kRacePipes; ++q) {
                            // q == S: a scalar read (GetValue) has its value before the scalar unit issues
                            // any later instruction, so it is ordered before every later write
                            if (q == p || q == 0 || x.r_ep[q] == 0 || vc[p][q] >= x.r_ep[q]) continue;
                            if (best < 0 || vc[q][best] >= x.r_ep[best]) best = q;
                        }
                        if (best >= 0 && auto_synced(p, best)) {
                            auto_sync_edge(best, p);
                            goto recheck;
                        }
                        if (best >= 0) {
                            conflict = {true, "write-after-read", n.kind, p, best, n.off, n.bytes, s,
                                        locs[x.r_loc[best]].first, locs[x.r_loc[best]].second};
                            pending.clear();
                            return true;
                        }
                    }
                    if (x.w_ep != 0 && x.w_pipe != p && vc[p][x.w_pipe] < x.w_ep) {
                        if (auto_synced(p, x.w_pipe)) {
                            auto_sync_edge(x.w_pipe, p);
                            goto recheck;
                        }
                        conflict = {true, n.write ? "write-after-write" : "read-after-write", n.kind, p, x.w_pipe,
                                    n.off, n.bytes, s, locs[x.w_loc].first, locs[x.w_loc].second};
                        pending.clear();
                        return true;
                    }
                }
            }
        }
        // Recorded after the checks, in program order; runs are read only by the checks above, so an
        // access may wait in `held` (see there) until a check could see it.  This instruction's
        // accesses go straight into the other half of `stage` (no copy: see Held).
        Held *rec = stage[cur ^ 1];
        const uint64_t base = static_cast<uint64_t>(ep) << 32 | static_cast<uint64_t>(li) << 16 | static_cast<uint64_t>(p) << 8;
        size_t nrec = 0;
        bool direct = false;  // more accesses than `held` takes: recorded now
        for (size_t j = 0; j < pending.count; ++j) {
            const Note &n = pending[j];
            // A scalar read (GetValue) is checked above but not recorded: the write check ignores the
            // S pipe's reads (see there), so recording one would only split runs (a kernel reading a
            // row's result slot by slot split its result buffer into a run per slot).
            if (!n.write && p == 0) continue;
            runs_of(n.kind, capacity);
            const uint64_t first = n.off / 32, last = std::min<uint64_t>((n.off + n.bytes + 31) / 32, nsec[n.kind]);
            if (first >= last) continue;
            const uint64_t key = base | static_cast<uint64_t>(n.kind) << 1 | static_cast<uint64_t>(n.write);
            // the same operand twice in a row (Mul(x, y, y)): recorded once, as twice leaves it
            if (nrec > 0 && rec[nrec - 1].key == key && rec[nrec - 1].first == first && rec[nrec - 1].last == last) {
                continue;
            }
            if (nrec == kHeld) {
                direct = true;
                break;
            }
            rec[nrec].key = key;
            rec[nrec].first = first;
            rec[nrec].last = last;
            ++nrec;
        }
        if (direct) {
            flush_held();
            for (size_t j = 0; j < pending.count; ++j) {
                const Note &n = pending[j];
                if (!n.write && p == 0) continue;
                runs_of(n.kind, capacity);
                const uint64_t first = n.off / 32, last = std::min<uint64_t>((n.off + n.bytes + 31) / 32, nsec[n.kind]);
                if (first < last) record(n.kind, first, last, n.write, p, ep, li);
            }
        } else if (nrec > 0 && !coalesce(rec, nrec)) {
            flush_held();
            cur ^= 1;
            nheld = nrec;
            held_file = pend_file;
            held_line = pend_line;
        }
        pending.clear();
        return false;
    }

    // commit's path for a loop's next row (most checked instructions of a row loop), exact: the
    // instruction at the held accesses' source line, on their pipe (not S) at their epoch (seen[p]
    // false: no copy of it went out since), with every other pipe's accesses seen (p current: no check
    // can find anything), and each of its accesses continuing its held counterpart as coalesce()
    // requires.  The held accesses are then extended in place -- what the general path does through
    // intern(), the keys and coalesce() -- and nothing else changes.  False (nothing changed): the
    // general path decides (an access it would drop or merge, a different key, a gap).
    const char *held_file = nullptr;  // the source line of the held accesses
    unsigned held_line = 0;
    // The row path's preconditions but `current` (the caller's): n accesses at the held accesses' line, on their
    // pipe (not S; extend_held compares the pipe in the key) at their epoch.
    bool row_next(int p, const char *file, unsigned line, size_t n) const {
        return nheld == n && line == held_line && file == held_file && p != 0 && !seen[p];
    }
    // note_at(j): the instruction's access j (j < nheld), in the order note() would have taken them.  N: nheld
    // when the caller knows it at compile time (the loops then unrolled), else 0.
    template <size_t N = 0, typename NoteAt>
    bool extend_held(int p, NoteAt note_at) {
        static_assert(N <= kHeld, "at most kHeld held accesses");
        const size_t count = N != 0 ? N : nheld;
        Held *h = stage[cur];
        const uint64_t hi = static_cast<uint64_t>(vc[p][p]) << 32 | (h[0].key & 0xffff0000u) | static_cast<uint64_t>(p) << 8;
        uint64_t first[kHeld], last[kHeld];
        for (size_t j = 0; j < count; ++j) {
            const Note &n = note_at(j);
            if (h[j].key != (hi | static_cast<uint64_t>(n.kind) << 1 | static_cast<uint64_t>(n.write))) return false;
            first[j] = n.off / 32;
            last[j] = std::min<uint64_t>((n.off + n.bytes + 31) / 32, nsec[n.kind]);
            if (first[j] >= last[j] || first[j] > h[j].last || last[j] < h[j].first) return false;
            if (j > 0 && h[j - 1].key == h[j].key && first[j - 1] == first[j] && last[j - 1] == last[j]) return false;
            for (size_t k = j + 1; k < count; ++k) {
                if (held_kind(h[k]) == n.kind && h[k].first < last[j] && first[j] < h[k].last) return false;
            }
        }
        for (size_t j = 0; j < count; ++j) {
            if (first[j] < h[j].first) h[j].first = first[j];
            if (last[j] > h[j].last) h[j].last = last[j];
        }
        return true;
    }

    // An instruction's note() of acc[0, n) at file:line and commit(p) in one call, for an engine that knows its
    // accesses before it notes them (a vector instruction of a row loop: kapi/vector.h row_unary, reduce.h row_reduce): true when
    // commit would take the row path (the line, pipe and epoch of the held accesses, p current, each access
    // continuing its held counterpart), the held accesses then extended and pend_file / pend_line set, exactly
    // the state note() + commit(p) leave; false with nothing changed (the caller then notes and commits).
    // Nothing may be pending (an instruction between note() and commit() has its own accesses to charge).
    // (N accesses, the count the engines know: the tests unrolled, all in one function)
    template <size_t N>
    __attribute__((flatten)) bool extend_row(int p, const char *file, unsigned line, const Note (&acc)[N]) {
        static_assert(N >= 1 && N <= kHeld, "one to kHeld accesses");
        if (!on || !pending.empty() || p < 0 || p >= kRacePipes || !row_next(p, file, line, N)) return false;
        for (size_t j = 0; j < N; ++j) {
            if (acc[j].kind < 0 || acc[j].kind >= kRaceMems || acc[j].bytes == 0) return false;  // note() drops them
        }
        if (!sees_all(p)) return false;  // p not current (see commit)
        if (!extend_held<N>(p, [&acc](size_t j) -> const Note & { return acc[j]; })) return false;
        pend_file = file;
        pend_line = line;
        return true;
    }

    // note() of one read by the Scalar Unit (GetValue) at file:line and commit(S) in one call: true when commit
    // would find nothing to check and nothing to record (S current, or every access S has not seen still held and
    // none of them overlapping the read: see commit), pend_file / pend_line then set as note() sets them; false
    // with nothing changed (the caller then notes and commits).
    bool scalar_read_clean(const Note &n, const char *file, unsigned line) {
        if (!on || !pending.empty() || n.write || n.kind < 0 || n.kind >= kRaceMems || n.bytes == 0) return false;
        if (!sees_all(0) &&
            !only_held_unseen(0, [&n](size_t) -> const Note & { return n; }, 1)) {
            return false;
        }
        pend_file = file;
        pend_line = line;
        return true;
    }

    // A fast path of commit (exact).  in_runs[q] is the latest epoch of an access of pipe q
    // recorded in the runs; every other recorded access of q waits in `held`.  Pipe p's access can
    // only conflict with an access of another pipe q at an epoch p has not seen (vc[p][q] < epoch:
    // the check compares each sector's last write and reads with vc[p]).  When in_runs[q] <=
    // vc[p][q] for every such q, those accesses are all held; when no held access of such a q
    // overlaps a sector of the pending accesses, no sector the check would visit holds one, and
    // the check (with the flush of overlapping held accesses it starts with) would find nothing.
    uint32_t in_runs[kRacePipes] = {};
    // In two passes, the same answer: first the runs (in_runs[q] <= diag[q], the epochs recorded for q
    // being copies of vc[q][q]: in_runs[q] > vc[p][q] already implies q unseen, and never holds for
    // q == p), one compare per pipe; then the held accesses of an unseen pipe (all of one pipe in
    // practice), with no loop over the pipes.
    // note_at(j), j < n: the instruction's accesses (commit: the pending ones).
    template <typename NoteAt>
    bool only_held_unseen(int p, NoteAt note_at, size_t n_acc) const {
        for (int q = 0; q < kRacePipes; ++q) {
            if (in_runs[q] > vc[p][q]) return false;
        }
        const Held *h = stage[cur];
        for (size_t i = 0; i < nheld; ++i) {
            const int q = static_cast<int>((h[i].key >> 8) & 0xff);
            if (q == p || vc[p][q] >= diag[q]) continue;
            for (size_t j = 0; j < n_acc; ++j) {
                const Note &n = note_at(j);
                // the access's sectors, unclamped (a superset of those the check visits)
                if (n.kind == held_kind(h[i]) && n.off / 32 < h[i].last && h[i].first < (n.off + n.bytes + 31) / 32) {
                    return false;
                }
            }
        }
        return true;
    }

    // Records an access of pipe p at epoch ep (source line li) to sectors [first, last) of memory
    // `kind` in its runs.
    void record(int kind, uint64_t first, uint64_t last, bool write, int p, uint32_t ep, uint16_t li) {
        if (ep > in_runs[p]) in_runs[p] = ep;
        Runs &r = runs[kind];
        {  // the access covers exactly one run (a whole buffer again): update it in place
            const size_t i = locate(kind, first);
            const uint64_t end_i = i + 1 < r.size() ? r[i + 1].first : nsec[kind];
            if (r[i].first == first && end_i == last) {
                // in place, neighbours left alone (the common case: a whole buffer again; its
                // neighbours rarely become equal to it, and an equal neighbour changes no check):
                // the next update that splits runs here merges them, compact() the rest
                if (write) {
                    set_written(r[i].s, ep, li, p);
                } else {
                    r[i].s.r_ep[p] = ep;
                    r[i].s.r_loc[p] = li;
                }
                return;
            }
            // the access starts (ends) inside one run and leaves its sectors as the run before
            // (after) it already is: that neighbour grows over them (a loop going row by row
            // through a buffer at one epoch: no split and no merge per row)
            if (last < end_i && r[i].first == first && i > 0 &&
                (write ? is_written(r[i - 1].s, ep, li, p) : is_read_of(r[i - 1].s, r[i].s, ep, li, p))) {
                r[i].first = last;
                return;
            }
            if (r[i].first < first && end_i == last && i + 1 < r.size() &&
                (write ? is_written(r[i + 1].s, ep, li, p) : is_read_of(r[i + 1].s, r[i].s, ep, li, p))) {
                r[i + 1].first = first;
                return;
            }
        }
        if (r.size() >= merge_at[kind]) compact(kind);
        const size_t lo = split(kind, first);
        const size_t hi = last < nsec[kind] ? split(kind, last) : r.size();  // the first run after the access
        size_t end;  // one past the runs that start at or before `last` after the update
        if (write) {  // one run: written by this instruction, read since by nobody
            set_written(r[lo].s, ep, li, p);
            r.erase(r.begin() + static_cast<std::ptrdiff_t>(lo + 1), r.begin() + static_cast<std::ptrdiff_t>(hi));
            end = lo + 1 < r.size() ? lo + 2 : lo + 1;
        } else {
            for (size_t i = lo; i < hi; ++i) {
                r[i].s.r_ep[p] = ep;
                r[i].s.r_loc[p] = li;
            }
            end = hi < r.size() ? hi + 1 : hi;
        }
        // merge equal neighbours in and around [first, last] so runs stay few
        size_t keep = lo == 0 ? 0 : lo - 1;
        for (size_t i = keep + 1; i < end; ++i) {
            if (same_sector(r[keep].s, r[i].s)) continue;
            if (++keep != i) r[keep] = r[i];
        }
        r.erase(r.begin() + static_cast<std::ptrdiff_t>(keep + 1), r.begin() + static_cast<std::ptrdiff_t>(end));
    }

    // Merges every run equal to the one before it (in-place updates leave such neighbours), and
    // sets the size that calls for the next pass: twice what is left (amortised O(1) per split).
    size_t merge_at[kRaceMems] = {64, 64, 64, 64, 64, 64, 64};
    void compact(int kind) {
        Runs &r = runs[kind];
        size_t keep = 0;
        for (size_t i = 1; i < r.size(); ++i) {
            if (same_sector(r[keep].s, r[i].s)) continue;
            if (++keep != i) r[keep] = r[i];
        }
        r.erase(r.begin() + static_cast<std::ptrdiff_t>(keep + 1), r.end());
        merge_at[kind] = std::max<size_t>(64, 2 * r.size());
    }

    static int held_kind(const Held &h) { return static_cast<int>((h.key >> 1) & 0x7f); }
    void flush_held() {
        const Held *h = stage[cur];
        for (size_t j = 0; j < nheld; ++j) {
            const uint64_t k = h[j].key;
            record(held_kind(h[j]), h[j].first, h[j].last, (k & 1) != 0, static_cast<int>((k >> 8) & 0xff),
                   static_cast<uint32_t>(k >> 32), static_cast<uint16_t>(k >> 16));
        }
        nheld = 0;
    }
    bool held_overlaps(int kind, uint64_t first, uint64_t last) const {
        const Held *h = stage[cur];
        for (size_t j = 0; j < nheld; ++j) {
            if (held_kind(h[j]) == kind && h[j].first < last && first < h[j].last) return true;
        }
        return false;
    }
    // Extends the held accesses, one by one, by this instruction's (rec[0, n)) when each continues
    // or overlaps its counterpart (same key; the union is one range) and touches no sector of a
    // later held access (which it would then precede).  Overlap is exact too: every held access
    // shares one pipe, epoch and line, and applying such an access twice leaves a sector as once
    // (a SetValue loop filling a sector slot by slot, an operand every row rereads).
    bool coalesce(const Held *rec, size_t n) {
        if (n != nheld) return false;
        Held *h = stage[cur];
        for (size_t j = 0; j < n; ++j) {
            if (h[j].key != rec[j].key) return false;
            if (rec[j].first > h[j].last || rec[j].last < h[j].first) return false;
            const int kind = held_kind(rec[j]);
            for (size_t k = j + 1; k < n; ++k) {
                if (held_kind(h[k]) == kind && h[k].first < rec[j].last && rec[j].first < h[k].last) return false;
            }
        }
        for (size_t j = 0; j < n; ++j) {
            if (rec[j].first < h[j].first) h[j].first = rec[j].first;
            if (rec[j].last > h[j].last) h[j].last = rec[j].last;
        }
        return true;
    }

    // The compiler's automatic synchronisation (BiSheng --cce-auto-sync, atlas_bisheng_10_0008: on by default in
    // kernel launch and custom operator projects) inserts the synchronisation "Between MTE2 and the Scalar Unit;
    // Between MTE3 and the Scalar Unit; Between the Vector and Scalar Units; Between the Vector Units" -- both ways
    // ("The multi-pipeline synchronization between PIPE_V, PIPE_MTE2, PIPE_MTE3, and PIPE_S is bidirectional ...
    // the yellow line indicates that synchronization is automatically inserted by the compiler, and the remaining
    // synchronization is completed by the Ascend C framework").  So with it on, a conflict of the Scalar Unit with
    // MTE2, MTE3 or V is ordered by the compiler; every other pair (MTE2 -> V on a TBuf, V -> MTE3 without a
    // queue, M / MTE1 / FIX with anything, MTE2 <-> MTE3) is the framework's (the queues) or the kernel's.
    // (V after V is program order on one pipe here already.)
    static constexpr bool compiler_synced_pair(int p, int q) {
        if ((p == 0) == (q == 0)) return false;
        const int x = p == 0 ? q : p;
        return x == 1 || x == 4 || x == 5;  // V, MTE2, MTE3
    }
    bool auto_synced(int p, int q) const { return auto_sync && compiler_synced_pair(p, q); }
    // The edge the compiler's SetFlag<first_second> / WaitFlag<first_second> pair makes, placed right before
    // the second access (the placement valid for every first access: the flag then covers all of the first
    // pipe's work so far): as set_flag + wait_flag, on no event id of the kernel's.  A wait of the Scalar Unit
    // (second == S) stalls what it issues later: the edge reaches every pipe (as in wait_flag).
    void auto_sync_edge(int first, int second) {
        seen[first] = true;  // the first pipe's epoch is copied out
        uint32_t c[kRaceLanes];
        for (int q = 0; q < kRaceLanes; ++q) c[q] = vc[first][q];
        if (second == 0) {
            for (int r = 0; r < kRacePipes; ++r) join_into(r, c);
        } else {
            join_into(second, c);
        }
    }

    // Happens-before edges.
    void join_into(int p, const uint32_t *__restrict__ clock) {
        uint32_t *__restrict__ row = vc[p];
        for (int q = 0; q < kRaceLanes; ++q) row[q] = std::max(row[q], clock[q]);
    }
    void set_flag(int event, int id) {
        int s = -1, d = -1;
        race_event_pipes(event, s, d);
        if (!on || s < 0 || event >= 64 || id < 0 || id >= 8) return;
        FlagClock &f = flag_vc[event][id];
        const uint8_t bit = static_cast<uint8_t>(1u << id);
        seen[s] = true;  // the source pipe's epoch is copied out
        if ((flag_set[event] & bit) == 0) {
            for (int q = 0; q < kRaceLanes; ++q) f.c[q] = 0;
            flag_set[event] = static_cast<uint8_t>(flag_set[event] | bit);
        }
        for (int q = 0; q < kRacePipes; ++q) f.c[q] = std::max(f.c[q], vc[s][q]);
    }
    // Unit flags: the hardware's own M <-> FIX handshake, an edge like SetFlag / WaitFlag of `event` (M_FIX,
    // slot 0, or FIX_M, slot 1) on a clock of its own (no event id of the kernel's is used).
    void unit_flag_set(int event, int slot) {
        int s = -1, d = -1;
        race_event_pipes(event, s, d);
        if (!on || s < 0) return;
        RaceClock &f = unit_vc[slot & 1];
        seen[s] = true;
        if (!f.set) {
            for (int q = 0; q < kRacePipes; ++q) f.c[q] = 0;
            f.set = true;
        }
        for (int q = 0; q < kRacePipes; ++q) f.c[q] = std::max(f.c[q], vc[s][q]);
    }
    void unit_flag_wait(int event, int slot) {
        int s = -1, d = -1;
        race_event_pipes(event, s, d);
        if (!on || d < 0) return;
        RaceClock &f = unit_vc[slot & 1];
        if (f.empty()) return;
        join_into(d, f.data());
        f.clear();
    }
    void wait_flag(int event, int id, bool last) {
        int s = -1, d = -1;
        race_event_pipes(event, s, d);
        if (!on || d < 0 || event >= 64 || id < 0 || id >= 8) return;
        const FlagClock &f = flag_vc[event][id];
        const uint8_t bit = static_cast<uint8_t>(1u << id);
        if ((flag_set[event] & bit) == 0) return;
        join_into(d, f.c);
        // A wait of the scalar pipe (X_S) stalls the Scalar Unit, which issues every later instruction
        // of every pipe ("负责核内指令发射", the AI Core architecture page): nothing after the wait
        // starts before X's work, so the edge reaches every pipe (as a scalar read's value does).
        if (d == 0) {
            for (int p = 1; p < kRacePipes; ++p) join_into(p, f.c);
        }
        if (last) flag_set[event] = static_cast<uint8_t>(flag_set[event] & ~bit);
    }
    // What every pipe has seen, joined: the diagonal.  Every clock entry for pipe q (in vc, a flag
    // or a slot) is a copy of some earlier vc[q][q], which only grows, so vc[p][q] <= vc[q][q]:
    // the join of all rows is the diagonal (7 loads instead of 49 maxima).
    // (Only commit() raises a vc[q][q]: it keeps diag, one contiguous copy.)
    // Lane by lane (volatile: not merged into 16-byte loads): commit() has just stored one 4-byte
    // lane, and a wider load over it cannot be forwarded from the store buffer; it waits for the
    // store to reach the cache, which after a streamed GM write waits for the sfence to drain
    // (a FreeTensor right after a DataCopy to GM stalled there).
    void join_all(uint32_t *all) const {
        const volatile uint32_t *d = diag;
        for (int q = 0; q < kRaceLanes; ++q) all[q] = d[q];
    }
    // The Scalar Unit waits for pipe s's work so far (an API that returns only once s has finished, e.g.
    // Matmul::IterateAll<true> into a local C): the Scalar Unit issues every later instruction, so every pipe
    // is ordered after it (as a wait of the scalar pipe in wait_flag).
    void scalar_waits(int s) {
        if (!on || s < 0 || s >= kRacePipes) return;
        seen[s] = true;
        uint32_t c[kRaceLanes];
        for (int q = 0; q < kRaceLanes; ++q) c[q] = vc[s][q];
        for (int p = 0; p < kRacePipes; ++p) join_into(p, c);
    }
    // PipeBarrier<PIPE_ALL> and the queue protocol (conservatively): every pipe sees every pipe.
    void barrier_all() {
        if (!on) return;
        uint32_t all[kRaceLanes];
        join_all(all);
        for (int q = 0; q < kRacePipes; ++q) seen[q] = true;
        for (int p = 0; p < kRacePipes; ++p)
            for (int q = 0; q < kRaceLanes; ++q) vc[p][q] = all[q];  // all[q] >= vc[p][q] (join_all)
    }
    // The queue protocol: what one buffer's producer did is published (EnQue, FreeTensor)...
    // EnQue (scalar = false) publishes the work of every pipe but the Scalar Unit's own stores: it is a
    // SetFlag of the producer pipe (V -> MTE3 for VECOUT, MTE2 -> V for VECIN, ...), which orders what
    // that pipe has done, and a SetValue into the tensor before it needs its own S -> consumer flag (the
    // SetFlag/WaitFlag page: "DataCopy需要等待SetValue执行完成后才能执行,需要插入PIPE_S到PIPE_MTE3的同步").
    // The slot keeps the scalar epoch some other pipe has already seen (through an S_X flag, a barrier).
    void publish(RaceClock &slot, bool scalar = true) {
        if (!on) return;
        join_all(slot.c);
        if (!scalar) {
            uint32_t s = 0;
            for (int p = 1; p < kRacePipes; ++p) s = std::max(s, vc[p][0]);
            slot.c[0] = s;
        }
        for (int q = scalar ? 0 : 1; q < kRacePipes; ++q) seen[q] = true;
        slot.set = true;
    }
    // ... and every pipe of the consumer (DeQue, AllocTensor of the buffer) sees it -- but the Scalar Unit
    // after DeQue (scalar = false): DeQue is a WaitFlag of the queue's event (MTE2_V for VECIN, V_MTE3 for
    // VECOUT, ...), which blocks the consumer pipe's later instructions, not the Scalar Unit (SetFlag/WaitFlag
    // page: "该队列的后续指令将一直被阻塞"); the S <-> MTE2 / MTE3 / V pairs are the compiler's auto-sync, not the
    // Ascend C framework's (BiSheng "支持自动同步", atlas_bisheng_10_0008), so a GetValue / SetValue of the
    // dequeued tile needs its own MTE2_S / V_S pair, as after an explicit WaitFlag<MTE2_V>.
    void acquire(const RaceClock &slot, bool scalar = true) {
        if (!on || slot.empty()) return;
        uint32_t c[kRaceLanes];
        for (int q = 0; q < kRaceLanes; ++q) c[q] = slot.c[q];
        for (int p = scalar ? 0 : 1; p < kRacePipes; ++p) join_into(p, c);
    }
};

}  // namespace kapi
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_RACE_H_
