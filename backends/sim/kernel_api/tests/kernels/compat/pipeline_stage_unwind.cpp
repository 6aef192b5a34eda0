// A Catlass-style pipeline stage that owns its events: the constructor sets each ping-pong event once, every
// step waits for its buffer's event and sets it again, and the destructor waits for both -- as Catlass's
// BlockMmad / BlockEpilogue do (NPUKernelBench level3).  y[i] = x[i] * 2 + 1 over `count` floats in tiles of
// `tile`; a `tile` larger than what CopyIn wrote makes the vector step compute on UB no instruction wrote and the
// store move those lanes to GM, the failure whose report must survive the destructor's wait while the block
// unwinds (kernel API README, "Sanitizer"; the vector steps carry the lanes as taint, kapi/vector_taint.h).
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t kMaxTile = 1024;

class PingPongStage {
public:
    __aicore__ inline PingPongStage(TBuf<TPosition::VECCALC> &buf) {
        for (uint32_t i = 0; i < 2; ++i) {
            in_[i] = buf.GetWithOffset<float>(kMaxTile, (2 * i) * kMaxTile * sizeof(float));
            out_[i] = buf.GetWithOffset<float>(kMaxTile, (2 * i + 1) * kMaxTile * sizeof(float));
            SetFlag<HardEvent::V_MTE2>(static_cast<int32_t>(i));
            SetFlag<HardEvent::MTE3_V>(static_cast<int32_t>(i));
        }
    }
    __aicore__ inline ~PingPongStage() {
        for (uint32_t i = 0; i < 2; ++i) {
            WaitFlag<HardEvent::V_MTE2>(static_cast<int32_t>(i));
            WaitFlag<HardEvent::MTE3_V>(static_cast<int32_t>(i));
        }
    }
    __aicore__ inline void Step(const GlobalTensor<float> &x, const GlobalTensor<float> &y, uint32_t copied,
                                uint32_t tile) {
        const int32_t ev = static_cast<int32_t>(id_);
        WaitFlag<HardEvent::V_MTE2>(ev);
        DataCopy(in_[id_], x, copied);
        SetFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE2_V>(ev);
        WaitFlag<HardEvent::MTE3_V>(ev);
        Muls(out_[id_], in_[id_], 2.0f, tile);  // reads `tile` elements of what CopyIn wrote
        Adds(out_[id_], out_[id_], 1.0f, tile);
        SetFlag<HardEvent::V_MTE2>(ev);
        SetFlag<HardEvent::V_MTE3>(ev);
        WaitFlag<HardEvent::V_MTE3>(ev);
        DataCopy(y, out_[id_], tile);  // `tile` lanes: past `copied`, computed from never-written UB
        SetFlag<HardEvent::MTE3_V>(ev);
        id_ ^= 1u;
    }

private:
    LocalTensor<float> in_[2], out_[2];
    uint32_t id_ = 0;
};

extern "C" __global__ __aicore__ void pipeline_stage_unwind(GM_ADDR x, GM_ADDR y, uint32_t count, uint32_t tile,
                                                            uint32_t copied)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * kMaxTile * sizeof(float));
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, count);
    yg.SetGlobalBuffer((__gm__ float *)y, count);
    PingPongStage stage(buf);
    for (uint32_t off = 0; off < count; off += copied) {
        stage.Step(xg[off], yg[off], copied, tile);
    }
}
