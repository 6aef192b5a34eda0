// Ascend C on the CPU -- how a SHMEM launch reaches the blocks (the device layer is kapi/shmem.h).
//
// The simulator runs the N PEs of a SHMEM job as ONE launch of N * B blocks on one simulated device
// (pyasc_sim.shmem.Team.launch): PE p's kernel instance is blocks p * B .. (p + 1) * B - 1, each with
// PE p's own arguments. On hardware each PE is a device of its own running the kernel on B blocks;
// one launch keeps every PE's blocks alive together (a PE may wait for a flag another PE sets) and lets
// the sanitizer see the PEs' accesses to each other's heaps as the cross-core accesses they are.
//
// The host appends to the argument blob the N per-PE blobs (each `per_pe_bytes` long, laid out as any
// launch's) followed by a 40-byte trailer of little-endian uint64:
//     per_pe_bytes, npes, blocks_per_pe, state address, kShmemLaunchMagic
// and the state block (device memory, ShmemState) holds the heaps. BlockScope calls shmem_attach:
// the block's context then shows only its PE's argument blob, GetBlockIdx() / GetBlockNum() count the
// PE's blocks (tensor.h), and the state is copied into the BlockState (shmem_* fields). Every heap and
// the state block count as reachable from the launch's arguments (gm-foreign-block).
#ifndef PYASC_SIM_KAPI_SHMEM_LAUNCH_H_
#define PYASC_SIM_KAPI_SHMEM_LAUNCH_H_

#include <cstdint>
#include <cstring>

#include "pyasc_sim/kapi/state.h"

namespace pyasc_sim {
namespace kapi {

constexpr uint64_t kShmemLaunchMagic = 0x314d454853534150ull;  // "PASSHEM1"
constexpr uint64_t kShmemStateMagic = 0x3154534d45485350ull;   // "PSHEMST1"
constexpr uint32_t kShmemMaxPes = 16;
constexpr uint32_t kShmemMaxBlocks = 64;       // blocks (AI Core groups) per PE
constexpr uint64_t kShmemFlagStride = 64;      // one scalar cache line per barrier flag
constexpr uint64_t kShmemFlagsOffset = 4096;   // barrier flags in the state block
constexpr size_t kShmemTrailerBytes = 40;

// The state block's header (pyasc_sim/shmem.py writes it; the layouts must agree).
struct ShmemState {
    uint64_t magic;
    uint32_t npes;
    uint32_t reserved;
    uint64_t heap_size;
    uint64_t heap_base[kShmemMaxPes];
};

inline uint64_t shmem_state_bytes() {
    return kShmemFlagsOffset + uint64_t{kShmemMaxPes} * kShmemMaxBlocks * kShmemFlagStride;
}

// Selects the block's PE and its argument blob when ctx carries a SHMEM trailer; returns the blob the
// context had (to restore), or nullptr when this is not a SHMEM launch.
PYASC_SIM_REACH_NOSAN inline const void *shmem_attach(BlockState &st, PyascSimBlockContext *ctx) {
    if (ctx->args == nullptr || ctx->args_size < kShmemTrailerBytes) return nullptr;
    const unsigned char *blob = static_cast<const unsigned char *>(ctx->args);
    uint64_t t[5];
    std::memcpy(t, blob + ctx->args_size - kShmemTrailerBytes, sizeof(t));
    if (t[4] != kShmemLaunchMagic) return nullptr;
    const uint64_t per = t[0], npes = t[1], blocks = t[2], state = t[3];
    if (npes == 0 || npes > kShmemMaxPes || blocks == 0 || blocks > kShmemMaxBlocks ||
        per * npes + kShmemTrailerBytes != ctx->args_size || uint64_t{ctx->block_dim} != npes * blocks || state == 0)
        return nullptr;  // pyasc_sim.shmem never packs such a blob
    ShmemState s;
    std::memcpy(&s, reinterpret_cast<const void *>(state), sizeof(s));
    if (s.magic != kShmemStateMagic || s.npes != npes) return nullptr;
    st.shmem_blocks = static_cast<uint32_t>(blocks);
    st.shmem_npes = static_cast<uint32_t>(npes);
    st.shmem_pe = static_cast<uint32_t>(ctx->block_idx / blocks);
    st.shmem_state = state;
    st.shmem_heap_size = s.heap_size;
    for (uint32_t p = 0; p < npes; ++p) {
        st.shmem_base[p] = s.heap_base[p];
        st.reach.emplace_back(s.heap_base[p], s.heap_base[p] + s.heap_size);
    }
    st.reach.emplace_back(state, state + shmem_state_bytes());
    const void *whole = ctx->args;
    ctx->args = per == 0 ? nullptr : blob + st.shmem_pe * per;
    ctx->args_size = static_cast<size_t>(per);
    return whole;
}

// A mixed kernel's vector core of a SHMEM block: the PE of its AI Core (whose context's argument blob
// is already the PE's).
inline void shmem_inherit(BlockState &sub, const BlockState &primary) {
    if (primary.shmem_blocks == 0) return;
    sub.shmem_blocks = primary.shmem_blocks;
    sub.shmem_pe = primary.shmem_pe;
    sub.shmem_npes = primary.shmem_npes;
    sub.shmem_state = primary.shmem_state;
    sub.shmem_heap_size = primary.shmem_heap_size;
    for (uint32_t p = 0; p < primary.shmem_npes; ++p) {
        sub.shmem_base[p] = primary.shmem_base[p];
        sub.reach.emplace_back(primary.shmem_base[p], primary.shmem_base[p] + primary.shmem_heap_size);
    }
    sub.reach.emplace_back(primary.shmem_state, primary.shmem_state + shmem_state_bytes());
}

}  // namespace kapi
}  // namespace pyasc_sim

#endif  // PYASC_SIM_KAPI_SHMEM_LAUNCH_H_
