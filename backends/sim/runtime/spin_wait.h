// Adaptive spin-before-park for the launch/synchronize path: a waiter that expects its event
// within microseconds (the next launch of a loop, a one-block kernel's reply, a synchronize right
// after a launch) polls for a short budget before it sleeps on a futex or condition variable.
// The budget adapts per waiter: it doubles (up to a cap) when a spin caught the event and halves
// (down to a floor) when the waiter had to park, so an idle process stops spinning after a few
// misses and never burns a core; one wait in 16 spins the whole cap, so a budget driven down to the
// floor by idle gaps recovers once events come quickly again (it grows only on a catch).  While spinning the thread yields now and then, so a producer
// that shares its core (2-core machines, oversubscribed CI) still gets to run.
// A waiter that knows where its producer runs passes `peer` (spin(ready, peer)): it yields at once
// and at every check while that says the producer shares its CPU (Peer::kSameCpu), at every check
// while it does not know (kUnknown: the plain spin's pattern), and otherwise only once per
// kMaxNoYieldNs -- a sched_yield that hands the core to another task costs the waiter's
// next few microseconds of work (cold caches: queueing an add-16 right after a synchronize took
// ~7.5 us against ~4.3 us back to back on the 2-core VM of round 34), and a producer on another CPU
// does not need it.  The periodic yield bounds what a stale answer (the producer moved to this CPU
// since it last said where it runs) can cost it.
#ifndef PYASC_SIM_SPIN_WAIT_H_
#define PYASC_SIM_SPIN_WAIT_H_

#include <sched.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>

namespace pyasc_sim {

inline void spin_pause() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield" ::: "memory");
#endif
}

// PYASC_SIM_SPIN_US: the most microseconds any waiter spins before it parks (0: never spin, for
// machines with more busy threads than cores); unset or not a number in [0, 100000]: the built-in
// caps.  Read once per process (aclInit refuses a value it does not understand).
constexpr uint32_t kMaxSpinUs = 100000;

inline bool parse_spin_us(const char *env, uint32_t *us) {
    if (env == nullptr || env[0] == '\0') return false;
    uint64_t v = 0;
    for (const char *p = env; *p != '\0'; ++p) {
        if (*p < '0' || *p > '9') return false;
        v = v * 10 + static_cast<uint64_t>(*p - '0');
        if (v > kMaxSpinUs) return false;
    }
    *us = static_cast<uint32_t>(v);
    return true;
}

// The override in ns, or UINT32_MAX when the built-in caps apply.
inline uint32_t spin_override_ns() {
    static const uint32_t ns = [] {
        uint32_t us = 0;
        return parse_spin_us(std::getenv("PYASC_SIM_SPIN_US"), &us) ? us * 1000u : UINT32_MAX;
    }();
    return ns;
}

// Where a spinning waiter's producer runs, as far as the waiter knows (spin(ready, peer)).
enum class Peer { kElsewhere, kUnknown, kSameCpu };

class AdaptiveSpin {
public:
    // floor_ns..cap_ns: the range of the budget; it starts at the cap.
    constexpr AdaptiveSpin(uint32_t floor_ns, uint32_t cap_ns) : floor_ns_(floor_ns), cap_ns_(cap_ns), budget_ns_(cap_ns) {}

    // Polls ready() for at most the current budget.  True when it became ready (the budget grows),
    // false when the caller must park (the budget shrinks).
    template <class Ready>
    bool spin(Ready &&ready) {
        return spin(ready, [] { return Peer::kUnknown; });
    }

    // The same, asking peer() where the producer runs (at once and every 32 polls): it yields at
    // once and at every check while that is this CPU, at every check while unknown, and once per
    // kMaxNoYieldNs while elsewhere.
    template <class Ready, class PeerFn>
    bool spin(Ready &&ready, PeerFn &&peer) {
        return spin_impl(ready, peer);
    }

    uint32_t budget_ns() const { return budget_ns_.load(std::memory_order_relaxed); }
    // sched_yield calls made by this waiter's spins so far (tests).
    uint64_t yields() const { return yields_.load(std::memory_order_relaxed); }

    // The longest a spin goes without a yield while peer() says the producer runs elsewhere.
    static constexpr uint32_t kMaxNoYieldNs = 16000;

private:
    template <class Ready, class PeerFn>
    bool spin_impl(Ready &ready, PeerFn &peer) {
        if (ready()) return true;
        const uint32_t over = spin_override_ns();
        if (over == 0) return false;
        uint32_t budget = budget_ns_.load(std::memory_order_relaxed);
        // Every kProbeEvery-th wait spins the whole cap: a budget halved down to the floor by idle
        // gaps would otherwise never catch an event that now comes every few microseconds (it only
        // grows on a catch), and each wait would pay the futex round trip for the rest of the process.
        if (calls_.fetch_add(1, std::memory_order_relaxed) % kProbeEvery == kProbeEvery - 1) budget = cap_ns_;
        if (budget > over) budget = over;
        const auto start = std::chrono::steady_clock::now();
        const auto limit = std::chrono::nanoseconds(budget);
        auto last_yield = start;
        if (peer() == Peer::kSameCpu) {  // the producer needs this core: polling before the yield only delays it
            yield();
            last_yield = std::chrono::steady_clock::now();
        }
        for (uint32_t i = 1;; ++i) {
            if ((i & 31) == 0) {
                const auto now = std::chrono::steady_clock::now();
                if (now - start >= limit) break;
                if (peer() != Peer::kElsewhere || now - last_yield >= std::chrono::nanoseconds(kMaxNoYieldNs)) {
                    yield();  // let a producer on this core run
                    last_yield = now;
                }
            } else {
                spin_pause();
            }
            if (ready()) {
                const uint64_t grown = uint64_t{budget} * 2 + floor_ns_;
                budget_ns_.store(static_cast<uint32_t>(grown < cap_ns_ ? grown : cap_ns_), std::memory_order_relaxed);
                return true;
            }
        }
        const uint32_t shrunk = budget / 2;
        budget_ns_.store(shrunk > floor_ns_ ? shrunk : floor_ns_, std::memory_order_relaxed);
        return false;
    }

    void yield() {
        yields_.fetch_add(1, std::memory_order_relaxed);
        sched_yield();
    }

    static constexpr uint32_t kProbeEvery = 16;
    uint32_t floor_ns_;
    uint32_t cap_ns_;
    std::atomic<uint32_t> budget_ns_;
    std::atomic<uint32_t> calls_{0};
    std::atomic<uint64_t> yields_{0};
};

}  // namespace pyasc_sim

#endif  // PYASC_SIM_SPIN_WAIT_H_
