// The kernel side of computation-communication (MC2) ops as public kernels write it (kernel_api/COMPAT.md,
// round 20 s20f: sgl-kernel-npu's deepep ops cast `GetHcclContext<HCCL_GROUP_ID_0>()` to the HCCL library's
// context struct and take their rank and the GM windows of the ranks from it, and embed Mc2InitTiling /
// Mc2CcTiling ahead of their own tiling fields), written for pyasc in that style.
// The simulator has no HCCL runtime, so the kernels set the slot themselves from a context the test places
// in GM; the struct below is ours (its layout is the HCCL library's business, not Ascend C's).
//
// hccl_window_copy:  SetHcclContext<HCCL_GROUP_ID_0>(ctx); then, as an MC2 kernel would, read rankId / rankDim
//                    from GetHcclContext<0>() and copy 64 floats from the window of rank (rankId + 1) % rankDim
//                    into out[0:64], scaled by (rankId + 1); out[64] = rankDim, out[65] = 1 if domain 1 was
//                    never set (GetHcclContext<1>() == nullptr), out[66] = 1 if domain 1 reads back what
//                    SetHcclContext<HCCL_GROUP_ID_1> stored.
// hccl_client_init: an Hccl<HCCL_SERVER_TYPE_AICPU> client's Init(context): the simulator has no HCCL server, so
//                    the call is reported as unsupported (hccl_window_copy holds an unused client: that compiles).
// mc2_tiling_fields: a tiling struct {Mc2InitTiling; Mc2CcTiling; DemoInfo}, read with GET_TILING_DATA_WITH_STRUCT:
//                    out = {sizeof(Mc2InitTiling), sizeof(Mc2CcTiling), offsetof(info), info.n, info.scale * n}.
// hccl_batch_write_item: one 32-byte BatchWrite item {uint64 localGM, remoteGM, dataSize; uint32 dataType at u32
//                    index 6, targetRank at 7} built in UB through uint64 and uint32 views of one buffer (as
//                    sgl-kernel-npu's deepep notify_dispatch_a2 builds its RDMA items), the data type spelled
//                    AscendC::HcclDataType::HCCL_DATA_TYPE_BFP16, copied to item[0:8]; codes = the HcclDataType /
//                    HcclReduceOp values {INT8, INT32, FP16, FP32, BFP16, INT128, SUM, PROD, MAX, MIN}.
// hccl_task_call:    an Hccl client's BatchWrite<true>(item, 1) (mode 0) or AllReduce<true>(send, recv, 8,
//                    HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM) (mode 1): reported as unsupported, naming the method.
#include <cstddef>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

using namespace AscendC;

namespace {
constexpr uint32_t MAX_RANKS = 4;
constexpr uint32_t N = 64;

struct DemoHcclContext {
    uint32_t rankId;
    uint32_t rankDim;
    uint64_t windowsIn[MAX_RANKS];
};
}  // namespace

extern "C" __global__ __aicore__ void hccl_window_copy(GM_ADDR ctx, GM_ADDR ctx1, GM_ADDR out) {
    Hccl<HCCL_SERVER_TYPE_AICPU> hccl;  // held, never called (as public MC2 kernels hold one)
    (void)hccl;
    SetHcclContext<HCCL_GROUP_ID_0>(ctx);
    const bool unsetBefore = GetHcclContext<HCCL_GROUP_ID_1>() == nullptr;
    SetHcclContext<1>(ctx1);
    const bool roundTrip = GetHcclContext<1>() == ctx1;

    auto context = (__gm__ DemoHcclContext *)GetHcclContext<0>();
    const uint32_t rank = context->rankId;
    const uint32_t dim = context->rankDim;
    const uint32_t peer = (rank + 1) % dim;

    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, N * sizeof(float));
    GlobalTensor<float> window;
    window.SetGlobalBuffer((__gm__ float *)context->windowsIn[peer], N);
    GlobalTensor<float> outGm;
    outGm.SetGlobalBuffer((__gm__ float *)out, N + 8);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, window, N);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(t, t, static_cast<float>(rank + 1), N);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, t, N);
    outGm.SetValue(N, static_cast<float>(dim));
    outGm.SetValue(N + 1, unsetBefore ? 1.0f : 0.0f);
    outGm.SetValue(N + 2, roundTrip ? 1.0f : 0.0f);
}

namespace {
struct DemoInfo {
    uint32_t n;
    uint32_t pad;
    uint64_t scale;
};
struct DemoMc2TilingData {
    Mc2InitTiling mc2InitTiling;
    Mc2CcTiling mc2CcTiling1;
    DemoInfo info;
};
}  // namespace

extern "C" __global__ __aicore__ void mc2_tiling_fields(GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling) {
    REGISTER_TILING_DEFAULT(DemoMc2TilingData);
    GET_TILING_DATA_WITH_STRUCT(DemoMc2TilingData, tilingData, tiling);
    GlobalTensor<uint64_t> outGm;
    outGm.SetGlobalBuffer((__gm__ uint64_t *)out, 8);
    outGm.SetValue(0, sizeof(Mc2InitTiling));
    outGm.SetValue(1, sizeof(Mc2CcTiling));
    outGm.SetValue(2, offsetof(DemoMc2TilingData, info));
    outGm.SetValue(3, tilingData.info.n);
    outGm.SetValue(4, tilingData.info.scale * tilingData.info.n);
}

extern "C" __global__ __aicore__ void hccl_client_init(GM_ADDR ctx) {
    SetHcclContext<HCCL_GROUP_ID_0>(ctx);
    Hccl<HCCL_SERVER_TYPE_AICPU> hccl;
    hccl.Init(GetHcclContext<HCCL_GROUP_ID_0>());
}

extern "C" __global__ __aicore__ void hccl_batch_write_item(GM_ADDR local, GM_ADDR remote, GM_ADDR item,
                                                            GM_ADDR codes) {
    TPipe pipe;
    TBuf<> itemBuf;
    pipe.InitBuffer(itemBuf, 32);
    LocalTensor<uint64_t> itemU64 = itemBuf.Get<uint64_t>();
    LocalTensor<uint32_t> itemU32 = itemBuf.Get<uint32_t>();
    itemU64(0) = (uint64_t)local;
    itemU64(1) = (uint64_t)remote;
    itemU64(2) = 96;
    itemU32(6) = static_cast<uint32_t>(AscendC::HcclDataType::HCCL_DATA_TYPE_BFP16);
    itemU32(7) = 3;
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    GlobalTensor<uint32_t> itemGm;
    itemGm.SetGlobalBuffer((__gm__ uint32_t *)item, 8);
    DataCopy(itemGm, itemU32, 8);

    const int32_t values[] = {HCCL_DATA_TYPE_INT8, HCCL_DATA_TYPE_INT32, HCCL_DATA_TYPE_FP16, HCCL_DATA_TYPE_FP32,
                              HcclDataType::HCCL_DATA_TYPE_BFP16, HCCL_DATA_TYPE_INT128, HCCL_REDUCE_SUM,
                              HCCL_REDUCE_PROD, HcclReduceOp::HCCL_REDUCE_MAX, HCCL_REDUCE_MIN};
    GlobalTensor<int32_t> codesGm;
    codesGm.SetGlobalBuffer((__gm__ int32_t *)codes, 16);
    for (uint32_t i = 0; i < sizeof(values) / sizeof(values[0]); ++i) {
        codesGm.SetValue(i, values[i]);
    }
}

extern "C" __global__ __aicore__ void hccl_task_call(GM_ADDR send, GM_ADDR recv, GM_ADDR mode) {
    Hccl<HCCL_SERVER_TYPE_AICPU> hccl;
    GlobalTensor<int32_t> modeGm;
    modeGm.SetGlobalBuffer((__gm__ int32_t *)mode, 1);
    if (modeGm.GetValue(0) == 0) {
        HcclHandle handle = hccl.BatchWrite<true>(send, 1);
        (void)handle;
    } else {
        HcclHandle handle = hccl.AllReduce<true>(send, recv, 8, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM);
        (void)handle;
    }
}
