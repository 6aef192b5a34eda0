// AscendC::AssertPrint followed by AscendC::Trap(): how public kernels check their inputs
// (backends/sim/kernel_api/COMPAT.md, "Round 21 (s21h)": vllm-ascend's categorical_sample wraps the pair in a
// CHECK macro; asc-devkit's own assert macros expand to the same pair).  Our own kernel in that style: greedy
// sampling of rows of logits, each row mapped to a request (-1: a padding row, which gets token 0) whose offset is
// added to the row's first arg-max; a mapping outside the requests prints its message and traps, and so does an
// empty launch (a message without arguments).
#include "kernel_operator.h"
using namespace AscendC;

#define GREEDY_CHECK(condition, ...)            \
    do {                                        \
        if (!(condition)) {                     \
            AscendC::AssertPrint(__VA_ARGS__);  \
            AscendC::Trap();                    \
        }                                       \
    } while (0)

constexpr uint32_t GREEDY_VOCAB = 64;

class KernelGreedyRows {
public:
    __aicore__ inline KernelGreedyRows() {}
    __aicore__ inline void Init(GM_ADDR logits, GM_ADDR mapping, GM_ADDR offsets, GM_ADDR out, uint32_t rows,
                                uint32_t requests)
    {
        GREEDY_CHECK(rows > 0, "assert_print_greedy needs at least one row\n");
        rows_ = rows;
        requests_ = requests;
        logitsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(logits), rows * GREEDY_VOCAB);
        mappingGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t *>(mapping), rows);
        offsetsGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t *>(offsets), requests);
        outGm_.SetGlobalBuffer(reinterpret_cast<__gm__ int64_t *>(out), rows);
        pipe_.InitBuffer(rowBuf_, GREEDY_VOCAB * sizeof(float));
        pipe_.InitBuffer(tokenBuf_, 32);
    }
    __aicore__ inline void Process()
    {
        for (uint32_t row = GetBlockIdx(); row < rows_; row += GetBlockNum()) {
            const int32_t request = mappingGm_.GetValue(row);
            if (request == -1) {
                WriteToken(row, 0);
                continue;
            }
            GREEDY_CHECK(request >= 0 && request < static_cast<int32_t>(requests_),
                         "[ASSERT] %s:%u: row %u maps to request %d of %u\n", "assert_print_idioms.cpp",
                         static_cast<uint32_t>(__LINE__), row, request, requests_);
            LocalTensor<float> values = rowBuf_.Get<float>();
            DataCopy(values, logitsGm_[row * GREEDY_VOCAB], GREEDY_VOCAB);
            event_t loaded = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_S));
            SetFlag<HardEvent::MTE2_S>(loaded);
            WaitFlag<HardEvent::MTE2_S>(loaded);
            uint32_t best = 0;
            for (uint32_t i = 1; i < GREEDY_VOCAB; ++i) {
                if (values.GetValue(i) > values.GetValue(best)) best = i;
            }
            event_t read = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE2));
            SetFlag<HardEvent::S_MTE2>(read);
            WaitFlag<HardEvent::S_MTE2>(read);
            WriteToken(row, offsetsGm_.GetValue(request) + static_cast<int64_t>(best));
        }
    }

private:
    // One int64 per row through UB and DataCopyPad (blocks interleave rows: a scalar GM store would share cache
    // lines between blocks).
    __aicore__ inline void WriteToken(uint32_t row, int64_t token)
    {
        LocalTensor<int64_t> slot = tokenBuf_.Get<int64_t>();
        slot.SetValue(0, token);
        event_t stored = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_MTE3));
        SetFlag<HardEvent::S_MTE3>(stored);
        WaitFlag<HardEvent::S_MTE3>(stored);
        DataCopyPad(outGm_[row], slot, DataCopyExtParams(1, sizeof(int64_t), 0, 0, 0));
        event_t copied = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_S));
        SetFlag<HardEvent::MTE3_S>(copied);
        WaitFlag<HardEvent::MTE3_S>(copied);
    }

    TPipe pipe_;
    TBuf<TPosition::VECCALC> rowBuf_;
    TBuf<TPosition::VECCALC> tokenBuf_;
    GlobalTensor<float> logitsGm_;
    GlobalTensor<int32_t> mappingGm_;
    GlobalTensor<int64_t> offsetsGm_;
    GlobalTensor<int64_t> outGm_;
    uint32_t rows_ = 0;
    uint32_t requests_ = 0;
};

extern "C" __global__ __aicore__ void assert_print_greedy(GM_ADDR logits, GM_ADDR mapping, GM_ADDR offsets,
                                                          GM_ADDR out, uint32_t rows, uint32_t requests)
{
    KernelGreedyRows op;
    op.Init(logits, mapping, offsets, out, rows, requests);
    op.Process();
}
