// Ascend C on the CPU -- the merge-count register read by GetMrgSortResult: how many entries of each
// of the four lists the last MrgSort / MrgSort4 took (all of a list's entries unless the merge ran with
// exhausted suspension and stopped early).  One register per simulator thread: blocks run one at a time
// on a thread, and a block reads it after its own merge, as on the core.
#ifndef PYASC_SIM_KAPI_MRG_SORT_SPR_H_
#define PYASC_SIM_KAPI_MRG_SORT_SPR_H_

#include <cstdint>

namespace AscendC {
namespace sim_detail {
struct MrgSortSpr {
    uint16_t taken[4] = {0, 0, 0, 0};
};
inline MrgSortSpr &mrg_sort_spr() {
    static thread_local MrgSortSpr s;
    return s;
}
// Records the entries taken from each list (lists past the merged ones: 0).
inline void mrg_sort_spr_set(const uint32_t *pos, int lists) {
    MrgSortSpr &s = mrg_sort_spr();
    for (int l = 0; l < 4; ++l) s.taken[l] = static_cast<uint16_t>(l < lists ? pos[l] : 0);
}
}  // namespace sim_detail
}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_MRG_SORT_SPR_H_
