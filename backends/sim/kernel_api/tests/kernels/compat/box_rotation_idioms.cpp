// Whole-tensor math calls and the SDK's element-size constants, in the style of DrivingSDK's box kernels
// (tests/test_sim_compat_box_rotation.py; COMPAT.md round 28; the IBShare Matmul config is in load3d_b2_idioms.cpp):
// * rotate_corners(angles, out, n): n angles (n <= 8, one 32-byte block of floats); the kernel rotates the half-size
//   vector (0.5, 0.25) by each angle with Sin(dst, src) / Cos(dst, src) -- the documented whole-tensor forms, which
//   compute src.GetSize() elements -- and Sin(dst, src, tmp) / Cos(dst, src, tmp) with a shared buffer; out holds
//   [x' (8) | y' (8) | sin via tmp (8) | cos via tmp (8)] and then the constants B64 / B32 / B16 / B8_BYTE_SIZE as
//   floats (4), each row stored by DataCopyPad with DataCopyParams{1, kLanes * B32_BYTE_SIZE, 0, 0} (bytes), as
//   bev_pool_v3_grad stores one float with {1, B32_BYTE_SIZE, 0, 0}.
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t kLanes = 8;
}  // namespace

extern "C" __global__ __aicore__ void rotate_corners(GM_ADDR angles, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> angleBuf, sinBuf, cosBuf, sin2Buf, cos2Buf, tmpBuf, resBuf;
    GlobalTensor<float> angleGm, outGm;
    angleGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(angles), kLanes);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), 5 * kLanes);
    pipe.InitBuffer(angleBuf, kLanes * sizeof(float));
    pipe.InitBuffer(sinBuf, kLanes * sizeof(float));
    pipe.InitBuffer(cosBuf, kLanes * sizeof(float));
    pipe.InitBuffer(sin2Buf, kLanes * sizeof(float));
    pipe.InitBuffer(cos2Buf, kLanes * sizeof(float));
    pipe.InitBuffer(tmpBuf, 4096);
    pipe.InitBuffer(resBuf, 5 * kLanes * sizeof(float));
    LocalTensor<float> angle = angleBuf.Get<float>();
    LocalTensor<float> s = sinBuf.Get<float>();
    LocalTensor<float> c = cosBuf.Get<float>();
    LocalTensor<float> s2 = sin2Buf.Get<float>();
    LocalTensor<float> c2 = cos2Buf.Get<float>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    LocalTensor<float> res = resBuf.Get<float>();

    DataCopyParams rowParams{1, static_cast<uint16_t>(kLanes * B32_BYTE_SIZE), 0, 0};  // blockLen in bytes
    Duplicate(angle, 0.0f, kLanes);
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    DataCopyPad(angle, angleGm, {1, static_cast<uint32_t>(n * B32_BYTE_SIZE), 0, 0, 0}, {false, 0, 0, 0});
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Sin(s, angle);             // whole tensor: 8 elements
    Cos(c, angle);
    Sin(s2, angle, tmp);       // whole tensor with a shared buffer
    Cos(c2, angle, tmp);
    SetFlag<HardEvent::V_S>(EVENT_ID0);
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
    for (uint32_t i = 0; i < kLanes; ++i) {
        const float x = 0.5f, y = 0.25f;
        res.SetValue(i, x * c.GetValue(i) - y * s.GetValue(i));
        res.SetValue(kLanes + i, x * s.GetValue(i) + y * c.GetValue(i));
        res.SetValue(2 * kLanes + i, s2.GetValue(i));
        res.SetValue(3 * kLanes + i, c2.GetValue(i));
        res.SetValue(4 * kLanes + i, 0.0f);
    }
    res.SetValue(4 * kLanes + 0, static_cast<float>(B64_BYTE_SIZE));
    res.SetValue(4 * kLanes + 1, static_cast<float>(B32_BYTE_SIZE));
    res.SetValue(4 * kLanes + 2, static_cast<float>(B16_BYTE_SIZE));
    res.SetValue(4 * kLanes + 3, static_cast<float>(B8_BYTE_SIZE));
    SetFlag<HardEvent::S_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::S_MTE3>(EVENT_ID0);
    for (uint32_t row = 0; row < 5; ++row) {
        DataCopyPad(outGm[row * kLanes], res[row * kLanes], rowParams);
    }
}
