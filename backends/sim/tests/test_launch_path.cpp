// Unit tests of the launch path's building blocks (issue 13 point 1): the device process's block
// pool (a one-block launch runs on the calling thread and wakes no worker; n blocks use at most n
// threads) and the adaptive spin-before-park (grows on hits, shrinks to its floor on misses, so
// an idle waiter stops spinning; a caller out of indices polls for the others' last ones instead of
// sleeping; it yields its CPU only while the producer shares it).  Self-contained; prints "N passed,
// N failed" last.
#include <sys/resource.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <set>
#include <thread>

#include "devproc_protocol.h"
#include "spin_wait.h"
#include "thread_pool.h"

namespace {

int g_pass = 0, g_fail = 0;

#define CHECK(cond)                                                               \
    do {                                                                          \
        if (cond) {                                                               \
            ++g_pass;                                                             \
        } else {                                                                  \
            ++g_fail;                                                             \
            std::fprintf(stderr, "%s:%d: FAILED: CHECK(%s)\n", __FILE__, __LINE__, #cond); \
        }                                                                         \
    } while (0)

void test_one_block_runs_on_the_caller() {
    std::atomic<int> started{0};
    pyasc_sim::ThreadPool pool(4, [&] { ++started; });
    while (started.load() < 4) std::this_thread::yield();
    std::thread::id ran;
    pool.parallel_for(1, [&](uint32_t) { ran = std::this_thread::get_id(); });
    CHECK(ran == std::this_thread::get_id());
}

void test_n_blocks_use_at_most_n_threads() {
    pyasc_sim::ThreadPool pool(4);
    for (uint32_t n : {2u, 3u}) {
        std::mutex mu;
        std::set<std::thread::id> threads;
        std::atomic<uint32_t> arrived{0};
        pool.parallel_for(n, [&](uint32_t) {
            {
                std::lock_guard<std::mutex> lock(mu);
                threads.insert(std::this_thread::get_id());
            }
            ++arrived;
            // every index waits for the others: they run on n different threads at once
            const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (arrived.load() < n && std::chrono::steady_clock::now() < until) std::this_thread::yield();
        });
        CHECK(arrived.load() == n);
        CHECK(threads.size() == n);
        // (whether the caller itself ran an index is scheduling: a worker still spinning from the
        // previous launch may take it first, so it is not checked)
    }
}

// Sleeps (voluntary context switches) of the calling thread so far.
long thread_sleeps() {
    rusage u{};
    getrusage(RUSAGE_THREAD, &u);
    return u.ru_nvcsw;
}

// The end of a launch: the caller ran its index and none is left, a worker still runs one for
// ~100 us. The caller polls for it (pool's tail spin, 200 us budget) rather than sleeping on the
// condition variable, whose wake-up would follow the last index. Timing on a loaded machine may
// deschedule the worker past the budget in some rounds: one round of 20 without a sleep passes.
void test_caller_polls_for_the_last_index() {
    pyasc_sim::ThreadPool pool(2);
    int quiet = 0;
    for (int round = 0; round < 20; ++round) {
        std::atomic<bool> caller_done{false}, worker_started{false};
        const std::thread::id caller = std::this_thread::get_id();
        long before = 0;
        pool.parallel_for(2, [&](uint32_t) {
            if (std::this_thread::get_id() == caller) {
                // (the worker has its index: the caller cannot take both)
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
                while (!worker_started.load() && std::chrono::steady_clock::now() < until) std::this_thread::yield();
                before = thread_sleeps();
                caller_done.store(true);
                return;  // then it finds no index left and waits for the worker's
            }
            worker_started.store(true);
            while (!caller_done.load()) std::this_thread::yield();
            const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(100);
            while (std::chrono::steady_clock::now() < until) {
            }
        });
        if (caller_done.load() && thread_sleeps() == before) ++quiet;
    }
    CHECK(quiet >= 1);
}

void test_adaptive_spin() {
    pyasc_sim::AdaptiveSpin spin(1000, 64000);
    CHECK(spin.budget_ns() == 64000);
    CHECK(spin.spin([] { return true; }));  // ready at once: no spin at all
    for (int i = 0; i < 10; ++i) CHECK(!spin.spin([] { return false; }));
    CHECK(spin.budget_ns() == 1000);  // misses shrink it to the floor: an idle waiter parks at once
    int polls = 0;
    CHECK(spin.spin([&] { return ++polls > 3; }));
    CHECK(spin.budget_ns() == 3000);  // a hit grows it (2x + floor) ...
    for (int i = 0; i < 10; ++i) spin.spin([&] { return ++polls % 2 == 0; });
    CHECK(spin.budget_ns() == 64000);  // ... up to the cap
}

// spin(ready, peer): a waiter whose producer runs on another CPU does not yield within
// kMaxNoYieldNs (a yield that hands the core to another task costs the waiter's next work); one
// whose producer shares its CPU yields before it polls; while it does not know, and in the plain
// spin(ready), it keeps the old pattern (a yield every 32 polls, none before).
void test_spin_yields_only_to_a_producer_on_its_cpu() {
    using pyasc_sim::Peer;
    static_assert(pyasc_sim::AdaptiveSpin::kMaxNoYieldNs > 5000, "the budget below is under the no-yield span");
    pyasc_sim::AdaptiveSpin elsewhere(5000, 5000);  // 5 us budget: ends before the first forced yield
    for (int i = 0; i < 3; ++i) CHECK(!elsewhere.spin([] { return false; }, [] { return Peer::kElsewhere; }));
    CHECK(elsewhere.yields() == 0);

    pyasc_sim::AdaptiveSpin same_cpu(5000, 5000);
    int polls = 0;
    CHECK(same_cpu.spin([&] { return ++polls >= 3; }, [] { return Peer::kSameCpu; }));
    CHECK(same_cpu.yields() == 1);  // at once, not after 32 polls

    pyasc_sim::AdaptiveSpin unknown(5000, 5000);
    polls = 0;
    CHECK(unknown.spin([&] { return ++polls >= 3; }, [] { return Peer::kUnknown; }));
    CHECK(unknown.yields() == 0);
    pyasc_sim::AdaptiveSpin plain(5000, 5000);
    polls = 0;
    CHECK(plain.spin([&] { return ++polls >= 3; }));
    CHECK(plain.yields() == 0);

    // A long spin still yields now and then while the producer is said to be elsewhere (a stale
    // answer costs a producer that moved to this CPU at most kMaxNoYieldNs): seen in 1 of 5 spins.
    pyasc_sim::AdaptiveSpin long_spin(2000000, 2000000);  // 2 ms
    bool yielded = false;
    for (int i = 0; i < 5 && !yielded; ++i) {
        long_spin.spin([] { return false; }, [] { return Peer::kElsewhere; });
        yielded = long_spin.yields() > 0;
    }
    CHECK(yielded);
}

// Slot::srv_cpu / host_cpu: each side notes where it runs; the other side yields to it at once
// while both are on the same CPU, as before while it is not known (-1: not run yet, or a stream
// worker's post), and rarely while it is elsewhere.
void test_cpu_notes() {
    namespace dp = pyasc_sim::devproc;
    using pyasc_sim::Peer;
    std::atomic<int32_t> mine{-1}, other{-1};
    const int32_t cpu = dp::note_cpu(mine);
    CHECK(cpu >= 0 && mine.load() == cpu);
    CHECK(dp::peer_cpu(other, cpu) == Peer::kUnknown);
    other.store(cpu);
    CHECK(dp::peer_cpu(other, cpu) == Peer::kSameCpu);
    other.store(cpu + 1);
    CHECK(dp::peer_cpu(other, cpu) == Peer::kElsewhere);
}

void test_spin_setting_parser() {
    uint32_t us = 7;
    CHECK(pyasc_sim::parse_spin_us("0", &us) && us == 0);
    CHECK(pyasc_sim::parse_spin_us("250", &us) && us == 250);
    CHECK(!pyasc_sim::parse_spin_us("", &us));
    CHECK(!pyasc_sim::parse_spin_us("-1", &us));
    CHECK(!pyasc_sim::parse_spin_us("1.5", &us));
    CHECK(!pyasc_sim::parse_spin_us("100001", &us));
}

}  // namespace

int main() {
    test_one_block_runs_on_the_caller();
    test_n_blocks_use_at_most_n_threads();
    test_adaptive_spin();
    test_spin_yields_only_to_a_producer_on_its_cpu();
    test_cpu_notes();
    test_spin_setting_parser();
    test_caller_polls_for_the_last_index();
    std::printf("%d passed, %d failed\n", g_pass, g_fail);
    return g_fail == 0 ? 0 : 1;
}
