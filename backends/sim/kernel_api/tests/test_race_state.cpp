// pipe-race state (kapi/race.h) against a plain per-sector model: random instruction streams of
// several pipes with random SetFlag/WaitFlag and barriers, loops over neighbouring and repeated
// slices (the held / coalesced / in-place paths), and after every instruction the same verdict
// (race or not, its kind, the other pipe and line, the sector) and the same per-sector last
// accesses.  What the fast paths skip or defer must never change what is detected.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "pyasc_sim/kapi/race.h"

using pyasc_sim::kapi::kRaceMems;
using pyasc_sim::kapi::kRacePipes;
using pyasc_sim::kapi::RaceClock;
using pyasc_sim::kapi::RaceState;

namespace {

constexpr uint64_t kSectors = 96;  // per memory in this test
const size_t kCapacity[kRaceMems] = {kSectors * 32, kSectors * 32, 0, 0, 0, 0, 0};
const char *const kFile = "test.cpp";

struct Sec {  // the model: last write and, per pipe, the last read since it (0: none)
    uint32_t w_ep = 0, w_line = 0;
    int w_pipe = 0;
    uint32_t r_ep[kRacePipes] = {}, r_line[kRacePipes] = {};
};

struct Access {
    int kind;
    uint64_t off, bytes;
    bool write;
};

int g_fail = 0;

#define EXPECT(cond, ...)                                   \
    do {                                                    \
        if (!(cond)) {                                      \
            std::fprintf(stderr, "FAIL %s: ", #cond);       \
            std::fprintf(stderr, __VA_ARGS__);              \
            std::fprintf(stderr, "\n");                     \
            ++g_fail;                                       \
            return false;                                   \
        }                                                   \
    } while (0)

struct Model {
    std::vector<Sec> sec[2] = {std::vector<Sec>(kSectors), std::vector<Sec>(kSectors)};

    // The verdict commit() must reach for pipe p at epoch ep, and the update.  With `auto_sync` (the compiler's
    // automatic synchronisation) a conflict of the Scalar Unit with V / MTE2 / MTE3 is no race: the second
    // pipe waits for all of the first's work so far (a wait of S: every pipe does), and the check starts again.
    RaceState::Conflict commit(const RaceState &rs, int p, uint32_t ep, const std::vector<Access> &acc,
                               unsigned line, bool auto_sync) {
        RaceState::Conflict c;
        uint32_t vc[kRacePipes][kRacePipes];
        for (int a = 0; a < kRacePipes; ++a)
            for (int b = 0; b < kRacePipes; ++b) vc[a][b] = rs.vc[a][b];
        const uint32_t *vcp = vc[p];
        auto synced = [&](int q) {
            if (!auto_sync || (p == 0) == (q == 0)) return false;
            const int x = p == 0 ? q : p;
            if (x != 1 && x != 4 && x != 5) return false;
            uint32_t first[kRacePipes];
            for (int b = 0; b < kRacePipes; ++b) first[b] = vc[q][b];
            for (int a = 0; a < kRacePipes; ++a) {
                if (a != p && p != 0) continue;
                for (int b = 0; b < kRacePipes; ++b) vc[a][b] = std::max(vc[a][b], first[b]);
            }
            return true;
        };
    again:
        for (int pass = 0; pass < 2; ++pass) {
            for (const Access &a : acc) {
                if (a.write != (pass == 1)) continue;
                const uint64_t first = a.off / 32, last = std::min<uint64_t>((a.off + a.bytes + 31) / 32, kSectors);
                for (uint64_t s = first; s < last; ++s) {
                    const Sec &x = sec[a.kind][s];
                    if (a.write) {
                        int best = -1;
                        for (int q = 0; q < kRacePipes; ++q) {
                            if (q == p || q == 0 || x.r_ep[q] == 0 || vcp[q] >= x.r_ep[q]) continue;
                            if (best < 0 || vc[q][best] >= x.r_ep[best]) best = q;
                        }
                        if (best >= 0 && synced(best)) goto again;
                        if (best >= 0) {
                            c.found = true;
                            c.kind_name = "write-after-read";
                            c.mem = a.kind, c.other_pipe = best, c.sector = s, c.other_line = x.r_line[best];
                            return c;
                        }
                    }
                    if (x.w_ep != 0 && x.w_pipe != p && vcp[x.w_pipe] < x.w_ep) {
                        if (synced(x.w_pipe)) goto again;
                        c.found = true;
                        c.kind_name = a.write ? "write-after-write" : "read-after-write";
                        c.mem = a.kind, c.other_pipe = x.w_pipe, c.sector = s, c.other_line = x.w_line;
                        return c;
                    }
                }
            }
        }
        for (const Access &a : acc) {
            if (!a.write && p == 0) continue;  // scalar reads are not recorded
            const uint64_t first = a.off / 32, last = std::min<uint64_t>((a.off + a.bytes + 31) / 32, kSectors);
            for (uint64_t s = first; s < last; ++s) {
                Sec &x = sec[a.kind][s];
                if (a.write) {
                    x = Sec{};
                    x.w_ep = ep, x.w_line = line, x.w_pipe = p;
                } else {
                    x.r_ep[p] = ep, x.r_line[p] = line;
                }
            }
        }
        return c;
    }
};

// The per-sector state RaceState holds once its held accesses are in, against the model's.
bool same_state(RaceState &rs, const Model &m) {
    rs.flush_held();
    for (int k = 0; k < 2; ++k) {
        const RaceState::Runs &r = rs.runs[k];
        if (r.empty()) {
            for (uint64_t s = 0; s < kSectors; ++s) EXPECT(m.sec[k][s].w_ep == 0, "mem %d sector %llu", k, (unsigned long long)s);
            continue;
        }
        for (size_t i = 0; i < r.size(); ++i) {
            EXPECT(i == 0 ? r[i].first == 0 : r[i].first > r[i - 1].first, "runs sorted (mem %d run %zu)", k, i);
            const uint64_t end = i + 1 < r.size() ? r[i + 1].first : kSectors;
            for (uint64_t s = r[i].first; s < end; ++s) {
                const Sec &x = m.sec[k][s];
                const RaceState::Sector &y = r[i].s;
                EXPECT(x.w_ep == y.w_ep && (x.w_ep == 0 || (x.w_pipe == y.w_pipe && x.w_line == rs.locs[y.w_loc].second)),
                       "write of mem %d sector %llu", k, (unsigned long long)s);
                for (int q = 0; q < kRacePipes; ++q) {
                    EXPECT(x.r_ep[q] == y.r_ep[q] && (x.r_ep[q] == 0 || x.r_line[q] == rs.locs[y.r_loc[q]].second),
                           "read of pipe %d, mem %d sector %llu", q, k, (unsigned long long)s);
                }
            }
        }
    }
    return true;
}

// The engines' one-pass paths (kapi/vector.h row_unary, reduce.h row_reduce: RaceState::extend_row; tensor.h
// GetValue: scalar_read_clean), tried first as they do: true when one took the instruction in place of note()
// + commit() (which then must have found no race, and left the state the model has).
int g_rows_taken = 0, g_reads_taken = 0;
template <size_t... I>
bool try_extend_row(RaceState &rs, int p, unsigned line, const std::vector<Access> &acc, std::index_sequence<I...>) {
    const RaceState::Note notes[] = {RaceState::Note(acc[I].kind, acc[I].off, acc[I].bytes, acc[I].write)...};
    return rs.extend_row(p, kFile, line, notes);
}
bool try_one_pass(RaceState &rs, int p, unsigned line, const std::vector<Access> &acc) {
    bool taken = false;
    if (p == 0) {
        taken = acc.size() == 1 &&
                rs.scalar_read_clean(RaceState::Note(acc[0].kind, acc[0].off, acc[0].bytes, acc[0].write), kFile, line);
        g_reads_taken += taken;
        return taken;
    }
    switch (acc.size()) {
    case 1: taken = try_extend_row(rs, p, line, acc, std::make_index_sequence<1>{}); break;
    case 2: taken = try_extend_row(rs, p, line, acc, std::make_index_sequence<2>{}); break;
    case 3: taken = try_extend_row(rs, p, line, acc, std::make_index_sequence<3>{}); break;
    case 4: taken = try_extend_row(rs, p, line, acc, std::make_index_sequence<4>{}); break;
    default: break;
    }
    g_rows_taken += taken;
    return taken;
}

// One random stream: returns false on the first mismatch.  `one_pass`: every instruction first tries the
// engines' one-pass paths (try_one_pass).
bool run_stream(unsigned seed, int &races, bool auto_sync, bool one_pass) {
    std::mt19937 rng(seed);
    auto pick = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
    RaceState rs;
    rs.on = true;
    rs.auto_sync = auto_sync;
    Model m;
    // pipes the stream uses: S, V, MTE2, MTE3 (and M, MTE1 now and then); the events between them
    const int pipes[] = {0, 1, 1, 1, 4, 5, 2, 3};
    // HardEvent values with their (src, dst): MTE2_V 4, V_MTE2 5, MTE3_V 6, V_MTE3 7, V_S 22, S_V 21,
    // MTE2_MTE3 20, MTE3_MTE2 19, MTE2_S 24, S_MTE2 23
    const int events[] = {4, 5, 6, 7, 21, 22, 19, 20, 23, 24};
    unsigned line = 100;
    uint64_t loop_off = 0;
    int loop_left = 0, loop_pipe = 1, prevp = 1;
    const unsigned sync_pct = 90 + seed % 10;  // how often a pipe switch is ordered
    std::vector<Access> loop_acc, loop_acc2;  // a loop's instruction, and its second one (two-line loops)
    unsigned loop_line = 0, loop_line2 = 0;
    bool loop_two = false;
    int loop_phase = 0;  // two-line loops: which instruction comes next
    auto random_access = [&] {
        const uint64_t unit = pick(3) == 0 ? 4 : 32;
        return Access{static_cast<int>(pick(4) == 0), unit * pick(static_cast<unsigned>(kSectors * 32 / unit - 64)),
                      unit * (1 + pick(pick(2) == 0 ? 2 : 40)), pick(2) == 0};
    };
    for (int step = 0; step < 400; ++step) {
        const unsigned what = pick(100);
        if (what < 8) {
            const int ev = events[pick(10)];
            const int id = static_cast<int>(pick(2));
            rs.set_flag(ev, id);
            if (pick(4) != 0) rs.wait_flag(ev, id, pick(2) == 0);
            continue;
        }
        if (what < 10) {
            rs.barrier_all();
            continue;
        }
        int p;
        std::vector<Access> acc;
        if (loop_left > 0) {  // the next row of a loop: the same line, the slices moved on (or not)
            // (two-line loops: a row's two instructions of one pipe in turn, e.g. Adds then Muls, held together)
            p = loop_pipe;
            const bool second = loop_two && loop_phase == 1;
            std::vector<Access> &body = second ? loop_acc2 : loop_acc;
            line = second ? loop_line2 : loop_line;
            acc = body;
            for (Access &a : acc) a.off = (a.off + (a.kind == 0 ? loop_off : 0)) % (kSectors * 32 - 256);
            body = acc;
            if (!loop_two || second) --loop_left;
            if (loop_two) loop_phase ^= 1;
        } else {
            p = pipes[pick(8)];
            line = 100 + pick(12);
            const int n = 1 + static_cast<int>(pick(3));
            for (int j = 0; j < n; ++j) {
                const uint64_t unit = pick(3) == 0 ? 4 : 32;
                Access a{static_cast<int>(pick(4) == 0), unit * pick(static_cast<unsigned>(kSectors * 32 / unit - 64)),
                         unit * (1 + pick(pick(2) == 0 ? 2 : 40)), pick(2) == 0};
                acc.push_back(a);
                if (pick(5) == 0) acc.push_back(a);  // the same operand twice (Mul(x, y, y))
            }
            if (pick(3) == 0) {  // a loop over rows: contiguous, overlapping or repeated slices
                loop_left = 2 + static_cast<int>(pick(6));
                loop_pipe = p;
                const unsigned mode = pick(3);
                loop_off = mode == 0 ? 0 : mode == 1 ? acc[0].bytes : 4;
                loop_acc = acc;
                loop_line = line;
                loop_two = pick(2) == 0;
                loop_phase = loop_two ? 1 : 0;
                if (loop_two) {
                    loop_line2 = 100 + pick(12);
                    loop_acc2.clear();
                    for (int j = 0, n2 = 1 + static_cast<int>(pick(2)); j < n2; ++j) loop_acc2.push_back(random_access());
                    // a slice of the first instruction's operand again (Adds(y, x); Muls(y, y)): overlapping
                    if (pick(2) == 0) loop_acc2.push_back(Access{acc[0].kind, acc[0].off, acc[0].bytes, pick(2) == 0});
                }
            }
        }
        if (p != prevp && pick(100) < sync_pct) {  // mostly ordered: an edge from the last pipe (or all)
            int ev = -1;
            for (int e = 0; e < 35 && ev < 0; ++e) {
                int src = -1, dst = -1;
                pyasc_sim::kapi::race_event_pipes(e, src, dst);
                if (src == prevp && dst == p) ev = e;
            }
            if (ev >= 0 && pick(4) != 0) {
                rs.set_flag(ev, 0);
                rs.wait_flag(ev, 0, true);
            } else {
                rs.barrier_all();
            }
        }
        prevp = p;
        const bool records = p != 0 || [&] {
            for (const Access &a : acc) {
                if (a.write) return true;
            }
            return false;
        }();
        const uint32_t ep = rs.seen[p] && records ? rs.vc[p][p] + 1 : rs.vc[p][p];
        const RaceState::Conflict want = m.commit(rs, p, ep, acc, line, auto_sync);
        bool got = false;
        if (!one_pass || !try_one_pass(rs, p, line, acc)) {
            for (const Access &a : acc) rs.note(a.kind, a.off, a.bytes, a.write, kFile, line);
            got = rs.commit(p, kCapacity);
        }
        EXPECT(got == want.found, "seed %u step %d: race %d, the model says %d", seed, step, got, want.found);
        if (got) {
            const RaceState::Conflict &c = rs.conflict;
            EXPECT(std::string(c.kind_name) == want.kind_name && c.other_pipe == want.other_pipe &&
                       c.sector == want.sector && c.mem == want.mem && c.other_line == want.other_line,
                   "seed %u step %d: %s pipe %d sector %llu line %u, the model says %s pipe %d sector %llu line %u",
                   seed, step, c.kind_name, c.other_pipe, (unsigned long long)c.sector, c.other_line, want.kind_name,
                   want.other_pipe, (unsigned long long)want.sector, want.other_line);
            ++races;
            return true;  // a kernel stops at its first race
        }
        if (pick(8) == 0 && !same_state(rs, m)) {
            std::fprintf(stderr, "  (seed %u step %d)\n", seed, step);
            return false;
        }
    }
    return same_state(rs, m);
}

// commit's fast path for accesses another pipe made since p last synchronised that are all still
// held (only_held_unseen): a scalar read between vector instructions, overlapping the held vector
// write or not, before and after the held write reaches the runs.
bool held_fast_path() {
    enum { S = 0, V = 1 };
    const int kEventVS = 22;  // HardEvent::V_S (race_event_pipes)
    bool ok = true;
    auto step = [](RaceState &rs, int p, uint64_t off, uint64_t bytes, bool write, unsigned line) {
        rs.note(0, off, bytes, write, kFile, line);
        return rs.commit(p, kCapacity);
    };
    auto expect = [&ok](bool got, bool want, const char *what) {
        if (got != want) {
            std::fprintf(stderr, "FAIL: %s: race %d, expected %d\n", what, got, want);
            ok = false;
        }
    };
    for (int variant = 0; variant < 4; ++variant) {
        RaceState rs;
        rs.on = true;
        expect(step(rs, V, 0, 1024, true, 1), false, "the first vector write");
        rs.set_flag(kEventVS, 0);
        rs.wait_flag(kEventVS, 0, true);
        expect(step(rs, S, 32, 4, false, 2), false, "a scalar read after V_S");
        // a vector write S has not seen, held (not yet in the runs) ...
        expect(step(rs, V, 2048, 256, true, 3), false, "the second vector write");
        if (variant >= 2) {  // ... or recorded in the runs by the next vector instruction
            expect(step(rs, V, 4096, 64, false, 4), false, "a vector read of another buffer");
        }
        const bool overlapping = variant % 2 == 1;
        expect(step(rs, S, overlapping ? 2048 + 64 : 64, 4, false, 5), overlapping,
               overlapping ? "a scalar read of the unsynchronised vector write" : "a scalar read of the synchronised one");
    }
    return ok;
}

// A state with 16 rows of `row` bytes at x loaded by MTE2, then ordered before every pipe.
void load_rows(RaceState &rs, uint64_t x, uint64_t row) {
    rs.on = true;
    rs.note(0, x, 16 * row, true, kFile, 1);
    rs.commit(4, kCapacity);  // MTE2
    rs.barrier_all();
}

// A race inside a long run of one pipe's instructions (a row loop of two vector instructions, all held
// and recorded together): another pipe's unordered access of the run's first row (first instruction)
// or last row (last instruction) is a race naming that instruction's line; after V -> MTE3 it is none.
bool race_in_long_run() {
    enum { V = 1, MTE2 = 4, MTE3 = 5 };
    const int kEventVMTE3 = 7;  // HardEvent::V_MTE3 (race_event_pipes)
    const uint64_t x = 0, y = 1024, z = 2048, row = 64;  // UB offsets of three 16-row buffers of 64-byte rows
    bool ok = true;
    for (int variant = 0; variant < 5; ++variant) {
        RaceState rs;
        load_rows(rs, x, row);
        for (uint64_t k = 0; k < 16; ++k) {
            rs.note(0, x + k * row, row, false, kFile, 10);  // Adds(y[k], x[k], s): line 10
            rs.note(0, y + k * row, row, true, kFile, 10);
            if (rs.commit(V, kCapacity)) ok = false;
            rs.note(0, y + k * row, row, false, kFile, 11);  // Muls(z[k], y[k], s): line 11
            rs.note(0, z + k * row, row, true, kFile, 11);
            if (rs.commit(V, kCapacity)) ok = false;
        }
        if (variant == 4) {
            rs.set_flag(kEventVMTE3, 0);
            rs.wait_flag(kEventVMTE3, 0, true);
        }
        // 0: MTE3 reads y's first row (written by the run's first instruction); 1: z's last row (its last
        // instruction); 2: MTE2 overwrites x's first row (read by the first instruction); 3: y's last row
        // (read by the last instruction); 4: z's last row after V -> MTE3
        const bool mte2 = variant == 2 || variant == 3;
        const uint64_t off = variant == 0 ? y : variant == 2 ? x : variant == 3 ? y + 15 * row : z + 15 * row;
        rs.note(0, off + 8, 16, mte2, kFile, 20);
        const bool got = rs.commit(mte2 ? MTE2 : MTE3, kCapacity);
        const char *want_kind = mte2 ? "write-after-read" : "read-after-write";
        const unsigned want_line = variant == 0 || variant == 2 ? 10 : 11;
        if (variant == 4) {
            if (got) {
                std::fprintf(stderr, "FAIL: long run, variant 4: a race after V -> MTE3 (%s)\n", rs.conflict.kind_name);
                ok = false;
            }
            continue;
        }
        if (!got || std::string(rs.conflict.kind_name) != want_kind || rs.conflict.other_line != want_line ||
            rs.conflict.other_pipe != V || rs.conflict.sector != off / 32) {
            std::fprintf(stderr, "FAIL: long run, variant %d: race %d %s line %u pipe %d sector %llu, expected %s line %u\n",
                         variant, got, rs.conflict.kind_name, rs.conflict.other_line, rs.conflict.other_pipe,
                         (unsigned long long)rs.conflict.sector, want_kind, want_line);
            ok = false;
        }
    }
    return ok;
}

// The one-pass paths must decline whenever the row's carried state does not hold, and note() + commit() then
// find the race: a V row loop (Adds(y[k], x[k]) at line 10, taken by extend_row from its second row on) where
// between two rows
//   0: MTE2 writes the next row of x with no MTE2 -> V edge (the row reads it: read-after-write);
//   1: SetFlag<V_MTE3> publishes V's epoch (the later rows are a new epoch: MTE3, waiting only for the flag,
//      reads a later row of y: read-after-write);
//   2: a queue publish (EnQue / FreeTensor: RaceState::publish) does the same;
//   3: the Scalar Unit reads the row just written, with no V -> S edge (scalar_read_clean declines: the row is
//      held at an epoch S has not seen);
//   4: as 1 with the MTE3 read of a row before the flag: no race.
bool one_pass_declines() {
    enum { S = 0, V = 1, MTE2 = 4, MTE3 = 5 };
    const int kEventVMTE3 = 7;  // HardEvent::V_MTE3 (race_event_pipes)
    const uint64_t x = 0, y = 1024, row = 64;  // 16 rows of 64 bytes each
    bool ok = true;
    auto fail = [&ok](int variant, const char *what) {
        std::fprintf(stderr, "FAIL: one-pass declines, variant %d: %s\n", variant, what);
        ok = false;
    };
    for (int variant = 0; variant < 5; ++variant) {
        RaceState rs;
        load_rows(rs, x, row);
        RaceClock queue;
        const uint64_t mid = 7;  // the rows after it see the change
        bool raced = false;
        for (uint64_t k = 0; k < 16 && !raced; ++k) {
            const RaceState::Note acc[2] = {RaceState::Note(0, y + k * row, row, true), RaceState::Note(0, x + k * row, row, false)};
            const bool taken = rs.extend_row(V, kFile, 10, acc);
            if (k >= 1 && k != mid + 1 && !taken) fail(variant, "a row of the loop not taken");
            if (k == mid + 1 && taken) fail(variant, "the row after the change taken");
            if (!taken) {
                rs.note(0, y + k * row, row, true, kFile, 10);
                rs.note(0, x + k * row, row, false, kFile, 10);
                raced = rs.commit(V, kCapacity);
            }
            if (k != mid) continue;
            if (variant == 0) {
                rs.note(0, x + (mid + 1) * row, row, true, kFile, 20);
                if (rs.commit(MTE2, kCapacity)) fail(variant, "the MTE2 write itself raced");
            } else if (variant == 1 || variant == 4) {
                rs.set_flag(kEventVMTE3, 0);
            } else if (variant == 2) {
                rs.publish(queue, false);
            } else {
                const RaceState::Note read(0, y + mid * row + 8, 4, false);
                if (rs.scalar_read_clean(read, kFile, 30)) fail(variant, "an unordered scalar read of a held row taken");
                rs.note(0, y + mid * row + 8, 4, false, kFile, 30);
                raced = rs.commit(S, kCapacity);
                if (!raced || std::string(rs.conflict.kind_name) != "read-after-write" || rs.conflict.other_line != 10) {
                    fail(variant, "the scalar read of the held row is no read-after-write of line 10");
                }
                break;
            }
        }
        if (variant == 3) continue;
        if (variant == 0) {
            if (!raced || std::string(rs.conflict.kind_name) != "read-after-write" || rs.conflict.other_pipe != MTE2 ||
                rs.conflict.sector != (x + (mid + 1) * row) / 32) {
                fail(variant, "the row after MTE2's write is no read-after-write of MTE2 at its first sector");
            }
            continue;
        }
        if (raced) fail(variant, "the loop raced");
        if (variant == 2) {
            rs.acquire(queue, false);  // the consumer (MTE3) dequeues
        } else {
            rs.wait_flag(kEventVMTE3, 0, true);
        }
        const uint64_t at = variant == 4 ? y + mid * row : y + (mid + 1) * row;
        rs.note(0, at, row, false, kFile, 40);
        const bool got = rs.commit(MTE3, kCapacity);
        if (variant == 4) {
            if (got) fail(variant, "a row before the flag raced");
        } else if (!got || std::string(rs.conflict.kind_name) != "read-after-write" || rs.conflict.other_pipe != V ||
                   rs.conflict.other_line != 10 || rs.conflict.sector != at / 32) {
            fail(variant, "MTE3's read of the row after the edge is no read-after-write of line 10");
        }
    }
    return ok;
}

// intern(): the index of a source line is the order of its first appearance (1, 2, ...), the same on every later
// call, whether it lives in the in-place table (the first RaceState::kLocTabled lines) or in the map behind it;
// lines of two files and the same numbers stay apart, and locs names each.
bool intern_lines() {
    static const char kA[] = "a.cpp", kB[] = "b.cpp";
    RaceState rs;
    const unsigned n = 2 * RaceState::kLocTabled;  // half past the table: the map too
    std::vector<std::pair<const char *, unsigned>> order;
    for (unsigned l = 1; l <= n / 2; ++l) {
        order.emplace_back(kA, l * 64);  // multiples of 64 and two files: colliding probes
        order.emplace_back(kB, l * 64);
    }
    for (size_t i = 0; i < order.size(); ++i) {
        const uint16_t got = rs.intern(order[i].first, order[i].second);
        EXPECT(got == i + 1, "line %zu interned as %u, expected %zu", i, got, i + 1);
        EXPECT(rs.intern(order[i].first, order[i].second) == got, "line %zu: a second lookup differs", i);
    }
    for (size_t i = order.size(); i-- > 0;) {
        const uint16_t got = rs.intern(order[i].first, order[i].second);
        EXPECT(got == i + 1, "line %zu found as %u, expected %zu", i, got, i + 1);
        EXPECT(rs.locs[got].first == order[i].first && rs.locs[got].second == order[i].second, "locs[%u] names another line",
               got);
    }
    EXPECT(rs.locs.size() == order.size() + 1, "%zu lines in locs, expected %zu", rs.locs.size(), order.size() + 1);
    return true;
}

}  // namespace

int main() {
    if (!intern_lines()) return 1;
    if (!held_fast_path()) return 1;
    if (!race_in_long_run()) return 1;
    if (!one_pass_declines()) return 1;
    // without and with the compiler's automatic synchronisation (the Scalar Unit's pairs with V / MTE2 / MTE3)
    // and with the engines' one-pass paths tried first
    for (const bool one_pass : {false, true}) {
    for (const bool auto_sync : {false, true}) {
        int races = 0, streams = 0;
        for (unsigned seed = 1; seed <= 3000 && g_fail == 0; ++seed) {
            ++streams;
            run_stream(seed, races, auto_sync, one_pass);
        }
        std::printf("auto-sync %s, one-pass paths %s: %d streams, %d ended in a race, %d failures\n",
                    auto_sync ? "on" : "off", one_pass ? "on" : "off", streams, races, g_fail);
        // both outcomes must be exercised, or the comparison proves little
        if (races == 0 || races == streams) {
            std::fprintf(stderr, "FAIL: the streams must both race and run clean\n");
            return 1;
        }
    }
    }
    std::printf("one-pass paths taken: %d row extensions, %d scalar reads\n", g_rows_taken, g_reads_taken);
    if (g_rows_taken == 0 || g_reads_taken == 0) {
        std::fprintf(stderr, "FAIL: the one-pass paths must be taken\n");
        return 1;
    }
    return g_fail == 0 ? 0 : 1;
}
