// Unit tests of the runtime's after-launch checks: the cross-core race analysis (xcore_race.cpp:
// vector clocks from release / acquire events, byte-exact overlaps, atomics) and the source line
// picked from addr2line's output (source_line.cpp).  Self-contained: a tiny CHECK macro.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "source_line.h"
#include "xcore_race.h"

namespace {

int g_failures = 0;

#define CHECK(cond)                                                         \
    do {                                                                    \
        if (!(cond)) {                                                      \
            std::fprintf(stderr, "%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond); \
            ++g_failures;                                                   \
        }                                                                   \
    } while (0)

using pyasc_sim::XcoreConflict;
using pyasc_sim::find_xcore_conflict;
using Records = std::vector<std::vector<PyascSimGmWrite>>;

const char kFile[] = "k.cpp";

PyascSimGmWrite access(uint64_t begin, uint64_t end, uint32_t line, uint32_t kind, uint32_t segment) {
    return {begin, end, kFile, line, kind | segment};
}
PyascSimGmWrite event(uint32_t kind, uint64_t key, uint64_t seq, uint32_t segment) {
    return {key, seq, nullptr, kind, PYASC_SIM_GM_EVENT | segment};
}
constexpr uint32_t R = PYASC_SIM_GM_READ, W = 0, A = PYASC_SIM_GM_ATOMIC;
constexpr uint32_t REL = PYASC_SIM_GM_EVENT_RELEASE, ACQ = PYASC_SIM_GM_EVENT_ACQUIRE;

void test_unordered_read_after_write() {
    Records r(2);
    r[0] = {access(100, 164, 10, W, 0)};
    r[1] = {access(132, 200, 20, R, 0)};
    XcoreConflict c;
    CHECK(find_xcore_conflict(r, &c));
    CHECK(!c.write_write && c.block_a == 0 && c.block_b == 1);
    CHECK(c.begin == 132 && c.end == 164);  // only the bytes both touch
    CHECK(c.a.line == 10 && c.b.line == 20);
}

void test_byte_exact_and_read_read() {
    Records r(3);
    r[0] = {access(100, 132, 10, W, 0), access(0, 50, 11, R, 0)};
    r[1] = {access(132, 164, 20, R, 0), access(0, 50, 21, R, 0)};  // adjacent, not overlapping
    r[2] = {access(10, 20, 30, R, 0)};
    XcoreConflict c;
    CHECK(!find_xcore_conflict(r, &c));
}

void test_syncall_epochs_order() {
    // both blocks: segment 0, release + acquire of meeting 1 (segments 0 -> 1 -> 2), segment 2
    Records r(2);
    r[0] = {access(0, 64, 10, W, 0), event(REL, 7, 1, 0), event(ACQ, 7, 4, 1), access(64, 128, 12, R, 2)};
    r[1] = {access(64, 128, 20, W, 0), event(REL, 7, 2, 0), event(ACQ, 7, 3, 1), access(0, 64, 22, R, 2)};
    XcoreConflict c;
    CHECK(!find_xcore_conflict(r, &c));
    Records unsynced = {{r[0][0], r[0][3]}, {r[1][0], r[1][3]}};  // the same accesses, no meeting
    CHECK(find_xcore_conflict(unsynced, &c));
    // the same accesses after the meeting race with each other
    r[1].push_back(access(64, 128, 23, W, 2));
    CHECK(find_xcore_conflict(r, &c));
    CHECK(c.a.line == 12 && c.b.line == 23);
}

void test_pairwise_flag_is_one_way() {
    // block 0 writes, releases slot 5; block 1 acquires it, reads: ordered
    Records r(2);
    r[0] = {access(0, 64, 10, W, 0), event(REL, 5, 1, 0)};
    r[1] = {event(ACQ, 5, 2, 0), access(0, 64, 20, R, 1)};
    XcoreConflict c;
    CHECK(!find_xcore_conflict(r, &c));
    // an acquire numbered before the release orders nothing
    r[1][0].end = 0;
    CHECK(find_xcore_conflict(r, &c));
    r[1][0].end = 2;
    // block 0 writing after its release is not ordered before block 1's read
    r[0].push_back(access(0, 64, 11, W, 1));
    CHECK(find_xcore_conflict(r, &c));
    CHECK(c.a.line == 11 && c.b.line == 20);
}

void test_transitive_edges() {
    // 0 -> 1 (key 1), 1 -> 2 (key 2): block 0's write happens before block 2's read
    Records r(3);
    r[0] = {access(0, 64, 10, W, 0), event(REL, 1, 1, 0)};
    r[1] = {event(ACQ, 1, 2, 0), event(REL, 2, 3, 1)};
    r[2] = {event(ACQ, 2, 4, 0), access(0, 64, 30, R, 1)};
    XcoreConflict c;
    CHECK(!find_xcore_conflict(r, &c));
}

void test_atomics() {
    Records r(3);
    r[0] = {access(0, 64, 10, A, 0)};
    r[1] = {access(0, 64, 20, A, 0)};
    XcoreConflict c;
    CHECK(!find_xcore_conflict(r, &c));  // atomics of several blocks do not race
    r[2] = {access(0, 4, 30, R, 0)};
    CHECK(find_xcore_conflict(r, &c));  // a plain read of them does
    CHECK(!c.write_write);
}

void test_write_write_first() {
    Records r(3);
    r[0] = {access(0, 64, 10, R, 0)};
    r[1] = {access(0, 64, 20, W, 0)};
    r[2] = {access(32, 64, 30, W, 0)};
    XcoreConflict c;
    CHECK(find_xcore_conflict(r, &c));
    CHECK(c.write_write && c.block_a == 1 && c.block_b == 2);
}

void test_cores_of_one_mixed_block() {
    // one mixed block: AIV 0 (core 1) writes a workspace tile, AIV 1 (core 2) reads it; the cores run their
    // own instruction streams, so with no edge between them they race like two blocks
    constexpr uint32_t AIV0 = 1u << PYASC_SIM_GM_CORE_SHIFT, AIV1 = 2u << PYASC_SIM_GM_CORE_SHIFT;
    Records r = {{access(0, 64, 10, W | AIV0, 0), access(0, 64, 20, R | AIV1, 0)}};
    XcoreConflict c;
    CHECK(find_xcore_conflict(r, &c));
    CHECK(!c.write_write && c.block_a == 0 && c.block_b == 0 && c.core_a == 1 && c.core_b == 2);
    CHECK(c.a.line == 10 && c.b.line == 20);
    // AIV 0 -> flag -> AIC -> flag -> AIV 1 (mode-2 CrossCoreSetFlag chain) orders them
    auto on = [](PyascSimGmWrite e, uint32_t core) {
        e.reserved |= core;
        return e;
    };
    Records chained = {{access(0, 64, 10, W | AIV0, 0), on(event(REL, 8, 1, 0), AIV0), event(ACQ, 8, 2, 0),
                        event(REL, 9, 3, 1), on(event(ACQ, 9, 4, 0), AIV1), access(0, 64, 20, R | AIV1, 1)}};
    CHECK(!find_xcore_conflict(chained, &c));
    // a core's own accesses never conflict, nor a single-core block's (core 0) with itself
    Records own = {{access(0, 64, 10, W | AIV1, 0), access(0, 64, 20, R | AIV1, 0), access(64, 96, 30, W, 0),
                    access(64, 96, 31, R, 0)}};
    CHECK(!find_xcore_conflict(own, &c));
    // two cores of one block writing the same bytes (both AIVs of an unsplit inferred-mixed kernel write the whole
    // output) are not compared; a read of them is
    Records both = {{access(0, 32, 10, W, 0), access(16, 48, 20, W | AIV0, 0)}};
    CHECK(!find_xcore_conflict(both, &c));
    both[0].push_back(access(40, 44, 30, R | AIV1, 0));
    CHECK(find_xcore_conflict(both, &c));
    CHECK(!c.write_write && c.core_a == 1 && c.core_b == 2 && c.begin == 40 && c.end == 44);
}

void test_cache_line_share() {
    using pyasc_sim::LineShare;
    using pyasc_sim::find_line_share;
    constexpr uint32_t S = PYASC_SIM_GM_SCALAR;
    LineShare ls;
    // block 1 stores 4 bytes at 136 (line [128, 192)), block 0 moved [160, 192) by DMA: shared
    Records r(2);
    r[0] = {access(160, 192, 10, W, 0)};
    r[1] = {access(136, 140, 20, S, 0)};
    CHECK(find_line_share(r, 64, &ls));
    CHECK(ls.scalar_block == 1 && ls.other_block == 0 && ls.line == 128);
    CHECK(ls.scalar.line == 20 && ls.other.line == 10);
    // a line apart, reads, atomics and one block's own lines are no report; two plain DMA writes neither
    Records apart(3);
    apart[0] = {access(0, 64, 10, W, 0), access(64, 68, 11, S, 0), access(100, 104, 12, R, 0)};
    apart[1] = {access(128, 132, 20, S, 0), access(96, 128, 21, R, 0), access(64, 72, 22, A, 0)};
    apart[2] = {access(192, 224, 30, W, 0), access(224, 256, 31, W, 0)};
    CHECK(!find_line_share(apart, 64, &ls));
    // two blocks storing neighbouring floats
    Records stores = {{access(0, 4, 10, S, 0)}, {access(4, 8, 10, S, 0)}};
    CHECK(find_line_share(stores, 64, &ls));
    CHECK(ls.line == 0 && ls.scalar_block != ls.other_block);
    // not a write-overlap: the bytes differ
    XcoreConflict c;
    CHECK(!find_xcore_conflict(stores, &c));
    // one mixed block: its AIC (core 0) and AIV 1 (core 2) each have their own data cache
    constexpr uint32_t AIV1 = 2u << PYASC_SIM_GM_CORE_SHIFT;
    Records mixed = {{access(0, 4, 10, S, 0), access(8, 12, 11, S | AIV1, 0)}};
    CHECK(find_line_share(mixed, 64, &ls));
    CHECK(ls.scalar_block == 0 && ls.other_block == 0 && ls.scalar_core != ls.other_core);
    CHECK((ls.scalar_core == 0 && ls.other_core == 2) || (ls.scalar_core == 2 && ls.other_core == 0));
    // one core's own stores and DMA writes into its line: no report
    Records own = {{access(0, 4, 10, S | AIV1, 0), access(32, 64, 11, W | AIV1, 0), access(64, 68, 12, S, 0)}};
    CHECK(!find_line_share(own, 64, &ls));
}

PyascSimGmWrite flush(uint64_t begin, uint64_t end, uint32_t segment) {
    return {begin, end, nullptr, PYASC_SIM_GM_EVENT_FLUSH, PYASC_SIM_GM_EVENT | segment};
}

void test_cache_line_share_ordering() {
    using pyasc_sim::LineShare;
    using pyasc_sim::find_line_share;
    constexpr uint32_t S = PYASC_SIM_GM_SCALAR;
    constexpr uint64_t kAll = ~uint64_t{0};
    LineShare ls;
    // block 0 stores 4 bytes at 0 (segment 0), SyncAll (release seq 1 / 2, acquire 3 / 4), block 1
    // moves [32, 64) by DMA (segment 2): SyncAll alone does not write the dirty line back
    Records r(2);
    r[0] = {access(0, 4, 10, S, 0), event(REL, 7, 1, 0), event(ACQ, 7, 3, 1)};
    r[1] = {event(REL, 7, 2, 0), event(ACQ, 7, 4, 1), access(32, 64, 20, W, 2)};
    CHECK(find_line_share(r, 64, &ls));
    CHECK(ls.scalar_block == 0 && ls.other_block == 1);
    // DataCacheCleanAndInvalid of the whole cache before the SyncAll (segments 0 | flush | 1 | sync | 2)
    Records fl(2);
    fl[0] = {access(0, 4, 10, S, 0), flush(0, kAll, 0), event(REL, 7, 1, 1), event(ACQ, 7, 3, 2)};
    fl[1] = {event(REL, 7, 2, 0), event(ACQ, 7, 4, 1), access(32, 64, 20, W, 2)};
    CHECK(!find_line_share(fl, 64, &ls));
    // the line of the store, from its first byte: clean too; another line, or from a byte after the store: not
    fl[0][1] = flush(0, 64, 0);
    CHECK(!find_line_share(fl, 64, &ls));
    fl[0][1] = flush(64, 128, 0);
    CHECK(find_line_share(fl, 64, &ls));
    fl[0][1] = flush(8, 64, 0);
    CHECK(find_line_share(fl, 64, &ls));
    // a flush after the SyncAll orders nothing (block 1 may write before it)
    Records late(2);
    late[0] = {access(0, 4, 10, S, 0), event(REL, 7, 1, 0), event(ACQ, 7, 3, 1), flush(0, kAll, 2)};
    late[1] = fl[1];
    CHECK(find_line_share(late, 64, &ls));
    // a flush without a SyncAll orders nothing either
    Records nosync = {{access(0, 4, 10, S, 0), flush(0, kAll, 0)}, {access(32, 64, 20, W, 0)}};
    CHECK(find_line_share(nosync, 64, &ls));
    // the other order: block 1's DMA write, SyncAll, block 0's store loads the line after it: clean
    Records after(2);
    after[0] = {event(REL, 7, 1, 0), event(ACQ, 7, 3, 1), access(0, 4, 10, S, 2)};
    after[1] = {access(32, 64, 20, W, 0), event(REL, 7, 2, 0), event(ACQ, 7, 4, 1)};
    CHECK(!find_line_share(after, 64, &ls));
    // two stores a SyncAll apart: the first must be written back, the second is written back at the end
    Records stores(2);
    stores[0] = {access(0, 4, 10, S, 0), flush(0, kAll, 0), event(REL, 7, 1, 1), event(ACQ, 7, 3, 2)};
    stores[1] = {event(REL, 7, 2, 0), event(ACQ, 7, 4, 1), access(4, 8, 20, S, 2)};
    CHECK(!find_line_share(stores, 64, &ls));
    stores[0][1] = flush(128, 192, 0);
    CHECK(find_line_share(stores, 64, &ls));
    CHECK(ls.scalar_block == 0);
}

void test_pick_source_line() {
    using pyasc_sim::pick_source_line;
    CHECK(pick_source_line("/a/k.cpp:42\n") == "/a/k.cpp:42");
    CHECK(pick_source_line("/i/pyasc_sim/kapi/data_copy.h:80\n/a/k.cpp:42 (discriminator 3)\n") ==
          "/a/k.cpp:42 (in /i/pyasc_sim/kapi/data_copy.h:80)");
    CHECK(pick_source_line("??:0\n") == "");
    CHECK(pick_source_line("/tmp/b/stubs.cpp:11\n") == "");
    CHECK(pick_source_line("").empty());
}

}  // namespace

int main() {
    test_unordered_read_after_write();
    test_byte_exact_and_read_read();
    test_syncall_epochs_order();
    test_pairwise_flag_is_one_way();
    test_transitive_edges();
    test_atomics();
    test_write_write_first();
    test_cores_of_one_mixed_block();
    test_cache_line_share();
    test_cache_line_share_ordering();
    test_pick_source_line();
    if (g_failures != 0) {
        std::fprintf(stderr, "%d check(s) failed\n", g_failures);
        return 1;
    }
    std::printf("all checks passed\n");
    return 0;
}
