// Catlass-style callbacks: a struct whose only constructor is `X() = default;`, brace-assigned from its fields
// (an aggregate in the NPU compiler's C++17; pyasc_sim.cxx17_aggregates keeps it one under g++ -std=c++20), next
// to a struct that also declares a converting constructor (left as written) and a class with a private one.
#include "kernel_operator.h"

#define DEVICE_FN __aicore__ inline

using namespace AscendC;

namespace idioms {

template <typename Kernel>
struct ScaleFunc {
    DEVICE_FN
    ScaleFunc() = default;

    DEVICE_FN float operator()(float v) const { return v * owner->scale + static_cast<float>(stage); }

    Kernel *owner{nullptr};
    uint32_t stage;
};

struct Offset {
    __aicore__ Offset() = default;
    __aicore__ explicit Offset(uint32_t v) : value(v) {}
    uint32_t value{0};
};

class Counter {
    Counter() = default;  // private: the class stays as written

public:
    static __aicore__ inline uint32_t Two() { return 2; }
};

class KernelAggregate {
public:
    static constexpr uint32_t STAGES = 2;
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n, float s)
    {
        n_ = n;
        scale = s;
        xGm.SetGlobalBuffer((__gm__ float *)x, n);
        yGm.SetGlobalBuffer((__gm__ float *)y, n);
        for (uint32_t stageId = 0; stageId < STAGES; ++stageId) {
            funcs[stageId] = {this, stageId};  // brace assignment of the aggregate
        }
        off = Offset(Counter::Two());
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < n_; ++i) {
            yGm.SetValue(i, funcs[i % STAGES](xGm.GetValue(i)) + static_cast<float>(off.value));
        }
    }
    float scale{1.0f};

private:
    GlobalTensor<float> xGm, yGm;
    uint32_t n_{0};
    ScaleFunc<KernelAggregate> funcs[STAGES];
    Offset off;
};

}  // namespace idioms

extern "C" __global__ __aicore__ void cxx17_aggregate(GM_ADDR x, GM_ADDR y, uint32_t n, float scale)
{
    idioms::KernelAggregate op;
    op.Init(x, y, n, scale);
    op.Process();
}
