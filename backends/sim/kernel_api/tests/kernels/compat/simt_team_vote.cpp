#include "kernel_operator.h"
// A team-vote idiom of public Ascend 950 SIMT kernels ported from CUDA (graph pruning in vector search): one warp
// of 32 lanes per row, each lane owning SLOTS entries of the row; whether the row's key occurs among a lane's
// entries is voted with __ballot (the CUDA spelling of asc_ballot) and the voting lanes are counted with __popc
// (simt_api/device_functions.h, the 32- and 64-bit overloads); the row minimum comes from an __shfl_xor butterfly.
#include "simt_api/device_functions.h"
#include "simt_api/device_warp_functions.h"

using namespace AscendC;

#if __CCE_AICORE__ == 310
constexpr uint32_t TEAM = 32;
constexpr uint32_t THREADS = 128;
constexpr uint32_t SLOTS = 4;

__simt_vf__ __aicore__ LAUNCH_BOUND(THREADS) inline void RowVoteVf(__gm__ const uint32_t *rows,
                                                                  __gm__ const uint32_t *keys, __gm__ uint32_t *out,
                                                                  uint32_t nrows, uint32_t width, uint32_t blockId,
                                                                  uint32_t blockNum)
{
    const uint32_t tid = Simt::GetThreadIdx<0>();
    const uint32_t lane = tid % TEAM;
    const uint32_t teams = THREADS / TEAM;
    for (uint32_t r = blockId * teams + tid / TEAM; r < nrows; r += blockNum * teams) {
        uint32_t found = 0;
        uint32_t best = 0xffffffffU;
        for (uint32_t s = 0; s < SLOTS; ++s) {
            const uint32_t c = lane + s * TEAM;
            if (c < width) {
                const uint32_t v = rows[r * width + c];
                found |= (v == keys[r]);
                best = v < best ? v : best;
            }
        }
        const uint32_t mask = __ballot(found != 0);
        for (uint32_t off = TEAM / 2; off > 0; off >>= 1) {
            const uint32_t other = __shfl_xor(best, off, TEAM);
            best = other < best ? other : best;
        }
        if (lane == 0) {
            out[r * 4 + 0] = __popc(mask);
            out[r * 4 + 1] = mask;
            out[r * 4 + 2] = best;
            out[r * 4 + 3] = __popc((static_cast<unsigned long long>(mask) << 32) | mask);
        }
    }
}

extern "C" __global__ __aicore__ void simt_row_vote(GM_ADDR rows, GM_ADDR keys, GM_ADDR out, uint32_t nrows,
                                                    uint32_t width)
{
    Simt::VF_CALL<RowVoteVf>(Simt::Dim3{THREADS, 1, 1}, (__gm__ const uint32_t *)rows, (__gm__ const uint32_t *)keys,
                             (__gm__ uint32_t *)out, nrows, width, static_cast<uint32_t>(GetBlockIdx()),
                             static_cast<uint32_t>(GetBlockNum()));
}
#endif
