// Ascend C on the CPU -- the staging area of a high-level API that takes a sharedTmpBuffer (CumSum,
// AscendQuant, AscendDequant, AscendAntiQuant).  The API stages its intermediates there chunk by chunk;
// a buffer smaller than the minimum GetXxxMaxMinTmpSize reports for the shape (kapi/hl_tmp_sizes.h, the
// one formula the host helpers share) is an error `local-out-of-bounds` naming both sizes, as the NPU
// would compute garbage or overrun it.  The forms without a sharedTmpBuffer (the framework reserves the
// space on the NPU) stage in host memory of the maximum size.
#ifndef PYASC_SIM_KAPI_HL_TMP_H_
#define PYASC_SIM_KAPI_HL_TMP_H_

#include <cstdint>
#include <vector>

#include "pyasc_sim/kapi/hl_tmp_sizes.h"
#include "pyasc_sim/kapi/vector.h"

namespace AscendC {
namespace sim_detail {

class HlScratch {
public:
    // tmp: the caller's sharedTmpBuffer, or nullptr for the framework-reserved forms; helper names the
    // host function that reports the sizes.
    HlScratch(const LocalTensor<uint8_t> *tmp, pyasc_sim::hl_tmp::Range r, const char *api, const char *helper,
              const SrcLoc &loc) {
        const uint64_t want = r.max_bytes == 0 ? 32 : r.max_bytes;
        if (tmp != nullptr) {
            const uint64_t have = tmp->GetSize();
            if (have < r.min_bytes) {
                if (pyasc_sim::kapi::blk().checks) {
                    pyasc_sim::kapi::fail("local-out-of-bounds", loc,
                                          "%s: sharedTmpBuffer holds %llu bytes, less than the %llu bytes %s reports as "
                                          "the minimum for this shape (fix: size the buffer with %s; its maximum, %llu "
                                          "bytes, does the work in one pass)",
                                          api, static_cast<unsigned long long>(have),
                                          static_cast<unsigned long long>(r.min_bytes), helper, helper,
                                          static_cast<unsigned long long>(r.max_bytes));
                }
            } else {
                bytes_ = have < want ? have : want;
                tmp->check_bounds(0, static_cast<int64_t>(bytes_), api, loc);
                base_ = reinterpret_cast<uint8_t *>(tmp->ptr());
                return;
            }
        }
        own_.assign(want, 0);
        base_ = own_.data();
        bytes_ = want;
    }
    HlScratch(const HlScratch &) = delete;
    HlScratch &operator=(const HlScratch &) = delete;
    template <typename S>
    S *as() const {
        return reinterpret_cast<S *>(base_);
    }
    // elements of `per` staged bytes each that one chunk holds (at least 1)
    uint64_t chunk(uint64_t per) const {
        const uint64_t n = per == 0 ? 1 : bytes_ / per;
        return n == 0 ? 1 : n;
    }

private:
    std::vector<uint8_t> own_;
    uint8_t *base_ = nullptr;
    uint64_t bytes_ = 0;
};

// the framework-reserved forms pass no sharedTmpBuffer
inline const LocalTensor<uint8_t> *no_tmp() { return nullptr; }

}  // namespace sim_detail
}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_HL_TMP_H_
