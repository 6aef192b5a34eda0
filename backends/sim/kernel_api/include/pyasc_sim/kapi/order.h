// Ascend C on the CPU -- the block's happens-before stream, built once.
//
// Every ordering edge of the kernel API (SetFlag/WaitFlag, PipeBarrier, the queue protocol's
// EnQue->DeQue and FreeTensor->AllocTensor) is emitted here, once, and feeds both consumers: the
// pipe-race detector's vector clocks (race.h: is this access ordered after that one?) and the
// timeline's cycle clocks (timeline.h: when may this pipe go on?).  Instructions themselves enter
// the same way through charge() (state.h): one call runs them on the timeline and commits their
// local accesses to the race detector.
#ifndef PYASC_SIM_KAPI_ORDER_H_
#define PYASC_SIM_KAPI_ORDER_H_

#include "pyasc_sim/kapi/state.h"

namespace pyasc_sim {
namespace kapi {

// What one queue buffer's producer (EnQue) or consumer (FreeTensor) published: its pipes' vector
// clocks for the race detector and the cycle its work ends for the timeline.
struct OrderSlot {
    RaceClock race;
    double cycle = 0.0;
};

// SetFlag<event>(id): the source pipe's work so far is published for the event id.
inline void order_set_flag(int event, int id) {
    race().set_flag(event, id);
    int src = -1, dst = -1;
    race_event_pipes(event, src, dst);
    blk().tl.set_flag(event, id, src);
}
// WaitFlag<event>(id): the destination pipe goes on after it (last: no SetFlag of the id left).
inline void order_wait_flag(int event, int id, bool last, const SrcLoc &loc) {
    race().wait_flag(event, id, last);
    int src = -1, dst = -1;
    race_event_pipes(event, src, dst);
    if (src == kPipeMTE3 && dst == kPipeS) gm_poll_dma_fence(blk(), true);  // the scalar unit waits for MTE3's copies
    blk().tl.wait_flag(event, id, dst, cost::kFlagSyncCycles, loc.file, loc.line);
}
// The Mmad / Fixpipe unit-flag handshake (unitFlag 0b11): M -> FIX (slot 0) and FIX -> M (slot 1) edges on
// the race detector's own clocks (cube.h). Not costed on the timeline (the cost model keeps its pipes' order).
inline void order_unit_flag_set(int event, int slot) { race().unit_flag_set(event, slot); }
inline void order_unit_flag_wait(int event, int slot) { race().unit_flag_wait(event, slot); }
// PipeBarrier<PIPE_ALL>: every pipe waits for every pipe.
inline void order_barrier_all(const SrcLoc &loc) {
    race().barrier_all();
    gm_poll_dma_fence(blk(), true);  // DMA writes to GM before it have landed (gm-cross-core-race, gm_poll.h)
    blk().tl.barrier_all(cost::kBarrierCycles, loc.file, loc.line);
}
// A synchronous API waits for pipe p (Matmul::IterateAll<true> into a local C): every pipe goes on after p.
inline void order_scalar_waits(int p, const SrcLoc &loc) {
    race().scalar_waits(p);
    blk().tl.wait_until(0, blk().tl.clock[p], 0.0, loc.file, loc.line);
}
// PipeBarrier<p>: pipe p finishes its own work (program order on one pipe: no race edge needed).
inline void order_barrier_pipe(int p, const SrcLoc &loc) {
    // DMA writes to GM before it have landed for MTE3's later copies (not for the scalar unit: gm_poll.h)
    if (p == kPipeMTE3) gm_poll_dma_fence(blk(), false);
    blk().tl.wait_until(p, 0.0, cost::kBarrierCycles, loc.file, loc.line);
}
// EnQue / FreeTensor: what the publishing side (its pipe `p` on the timeline) did so far; `scalar`: also the
// Scalar Unit's stores (FreeTensor; EnQue does not order them: race.h, RaceState::publish).
inline void order_publish(OrderSlot &slot, int p, bool scalar = true) {
    BlockState &b = blk();
    b.race.on = PYASC_SIM_RACECHECK != 0 && b.checks && b.ctx != nullptr;  // as race()
    b.race.publish(slot.race, scalar);
    slot.cycle = b.tl.clock[p];
}
// DeQue / AllocTensor: pipe `p` goes on after the slot's publisher, paying `cost` cycles; `scalar`: the Scalar
// Unit too (AllocTensor; DeQue does not order it: race.h, RaceState::acquire).
inline void order_acquire(const OrderSlot &slot, int p, double cost, const SrcLoc &loc, bool scalar = true) {
    BlockState &b = blk();
    b.race.on = PYASC_SIM_RACECHECK != 0 && b.checks && b.ctx != nullptr;  // as race()
    b.race.acquire(slot.race, scalar);
    b.tl.wait_until(p, slot.cycle, cost, loc.file, loc.line);
}

}  // namespace kapi
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_ORDER_H_
