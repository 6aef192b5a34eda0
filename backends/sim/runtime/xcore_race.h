// The cross-core global-memory checks of one launch: two cores writing the same bytes
// (gm-write-overlap) and one core reading bytes another writes (gm-cross-core-race), unless a
// happens-before edge orders the two accesses (SyncAll, IBSet/IBWait, CrossCoreSetFlag/WaitFlag)
// or both are atomic.  Runs after the launch over the records the blocks reported
// (PyascSimGmWrite, tagged per kernel_abi.h's PYASC_SIM_GM_*).
#ifndef PYASC_SIM_XCORE_RACE_H_
#define PYASC_SIM_XCORE_RACE_H_

#include <cstdint>
#include <vector>

#include "pyasc_sim/kernel_abi.h"

namespace pyasc_sim {

struct XcoreConflict {
    bool write_write = false;  // both plain writes (gm-write-overlap), else gm-cross-core-race
    uint32_t block_a = 0, block_b = 0;  // block_a <= block_b (equal: two cores of one mixed block)
    uint32_t core_a = 0, core_b = 0;    // within the block: 0 its only core / AIC, 1 + n its AIV n
    PyascSimGmWrite a{}, b{};           // their records (a of block_a)
    uint64_t begin = 0, end = 0;        // the bytes both touch
};

// gm-cache-line-share (a warning): a core of block `scalar_block` stored through its data cache (a
// record tagged PYASC_SIM_GM_SCALAR: GlobalTensor::SetValue) into the `line_bytes` line at `line`,
// which another core (of block `other_block`, the same block too in a mixed kernel: every AIC / AIV
// has its own data cache) wrote too (a plain, non-atomic write); the cache writes the whole line
// back, so one core's bytes can be lost.
struct LineShare {
    uint32_t scalar_block = 0, other_block = 0;
    uint32_t scalar_core = 0, other_core = 0;  // within the block: 0 its only core / AIC, 1 + n its AIV n
    PyascSimGmWrite scalar{}, other{};
    uint64_t line = 0;  // the line's first byte
};

// Finds such a pair of blocks in `records` (per block). Returns false when there is none.
bool find_line_share(const std::vector<std::vector<PyascSimGmWrite>> &records, uint64_t line_bytes, LineShare *out);

// Finds a conflicting pair of accesses of two different cores in `records` (per block; untagged
// records are plain writes of segment 0): of two blocks, or a read and a write of two cores (AIC /
// AIVs) of one mixed block, each core running its own instruction stream (two plain writes of one
// block's cores are not compared); plain write/write pairs are looked for first.
// Returns false when there is none.
bool find_xcore_conflict(const std::vector<std::vector<PyascSimGmWrite>> &records, XcoreConflict *out);

}  // namespace pyasc_sim

#endif  // PYASC_SIM_XCORE_RACE_H_
