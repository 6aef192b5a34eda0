/*
 * pyasc_sim/cost_model.h -- every constant of the simulator's cost model, in one place.
 *
 * Every number here is an ESTIMATE chosen to give plausible, self-consistent simulated
 * times (aclrtEventElapsedTime reports them).  None is a measurement of a real device.
 * Per-SoC numbers (clock, HBM bandwidth, core counts, buffer sizes) live in the SoC
 * profile table (runtime/soc_profile.cpp).
 *
 * Two users:
 *   * the runtime (backends/sim/runtime): copies, events and the launch overhead, in ns;
 *     a launch lasts kLaunchOverheadNs + sum over waves of the slowest block's
 *     cycles / clock_ghz, with waves of `vector_cores` blocks;
 *   * the Ascend C kernel API (kernel_api/include/pyasc_sim/kapi/ headers): each block
 *     accumulates cycles per hardware pipe (MTE2 = GM->local DMA, MTE3 = local->GM
 *     DMA, MTE1 = L1->L0 loads, V = vector unit, M = cube unit, FIX = fixpipe,
 *     S = scalar unit).  The pipes run in parallel, each on its own clock, ordered only by
 *     the synchronisation (flags, queues, barriers: kapi/timeline.h), so a block's cost is
 *         kBlockStartupCycles + the makespan of that per-pipe schedule,
 *     which rewards double buffering (MTE2 / V / MTE3 overlap) without simulating
 *     instruction latencies inside a pipe.  The block reports it in PyascSimBlockContext::cycles.
 *
 * Plain C++ constants, no dependencies: included by runtime and kernel code alike.
 */
#ifndef PYASC_SIM_COST_MODEL_H_
#define PYASC_SIM_COST_MODEL_H_

namespace pyasc_sim {
namespace cost {

// ---- runtime (host-visible tasks), in ns ----------------------------------------------
// Host <-> device link bandwidth used for H2D / D2H copies (GB/s == bytes/ns).
constexpr double kHostLinkBandwidthGBps = 24.0;
// Fixed latency added to every asynchronous copy / memset task (ns).
constexpr double kCopyLatencyNs = 2000.0;
// A device-to-device copy reads and writes HBM: bytes moved = 2 * size.
constexpr double kDeviceCopyTrafficFactor = 2.0;
// Fixed overhead of a kernel launch task (ns).
constexpr double kLaunchOverheadNs = 3000.0;
// Cost of an event record / stream-wait task itself (ns).
constexpr double kEventTaskNs = 0.0;

// ---- kernel API (per block), in AI Core cycles ------------------------------------------
// Fixed cost of starting a block (argument fetch, scalar setup).
constexpr double kBlockStartupCycles = 200.0;
// DMA between global memory and a core's local buffers (MTE2 in, MTE3 out): bytes per
// cycle per core, and a fixed issue latency per DataCopy instruction plus per burst.
// 16 B/cycle x 48 cores x 1.8 GHz ~ 1.4 TB/s, just under the 910B1's HBM bandwidth.
constexpr double kGmBytesPerCycle = 16.0;
constexpr double kDmaIssueCycles = 30.0;
constexpr double kDmaBurstCycles = 1.0;
// Local-to-local copies (UB->UB, L0C->CO2, L1->L0 LoadData): bytes per cycle.
constexpr double kLocalBytesPerCycle = 128.0;
// Vector unit: one 256-byte repeat per cycle for simple ops, a per-instruction issue
// cost, and a multiplier for the transcendental / iterative ops (Exp, Ln, Sqrt, Rsqrt,
// Reciprocal, Div).
constexpr double kVectorIssueCycles = 8.0;
constexpr double kVectorRepeatCycles = 1.0;
constexpr double kVectorComplexFactor = 4.0;
// Reductions to a scalar (ReduceSum/Max/Min, count form) pay a log-depth tail.
constexpr double kReduceTailCycles = 16.0;
// Cube unit: multiply-accumulates per cycle (16x16x16 fp16 fractal per cycle).
constexpr double kCubeMacsPerCycle = 4096.0;
constexpr double kCubeIssueCycles = 16.0;
// Fixpipe (L0C -> GM): bytes of output per cycle.
constexpr double kFixpipeBytesPerCycle = 32.0;
// Scalar unit: a local-memory scalar access, and a global-memory one (through the
// scalar data cache).
constexpr double kScalarLocalCycles = 1.0;
constexpr double kScalarGmCycles = 50.0;
// Synchronisation: a queue hand-over (EnQue+DeQue), a SetFlag/WaitFlag pair, a PipeBarrier.
constexpr double kQueueSyncCycles = 10.0;
constexpr double kFlagSyncCycles = 10.0;
constexpr double kBarrierCycles = 20.0;

}  // namespace cost
}  // namespace pyasc_sim

#endif  // PYASC_SIM_COST_MODEL_H_
