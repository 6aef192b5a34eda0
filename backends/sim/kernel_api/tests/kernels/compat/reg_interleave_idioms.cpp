// Our own kernel in the style of the arch35 deformable-sampling kernels (DrivingSDK's arch35 multi_scale_deformable_attn
// msda.h, COMPAT.md "Round 29 (s29a)"), Ascend 950 (tests/test_sim_compat_reg_interleave.py):
//   reg_pixel_coords(xy, out, flags): xy holds REG_PAIRS (x, y) pairs in [0, 1], interleaved. On registers it splits them
//     with MicroAPI::DeInterleave, maps x -> x * W - 0.5 with FusedMulDstAdd and y -> y * H - 0.5 with MulDstAdd, joins
//     them again with Interleave and stores them to out (interleaved, as xy); flags[i] = 1 where the pair lies outside
//     (-1, W) x (-1, H) -- Compares GT -1 and Compare LT size, And of the masks, Not, then Select of 1 / 0.
//   simt_floor(in, out, n): out[i] = Simt::Floor(in[i]) from a __simt_vf__ grid-stride loop.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t REG_PAIRS = 128;  // 2 VLs of float pairs
constexpr float REG_W = 7.0f;
constexpr float REG_H = 5.0f;

extern "C" __global__ __aicore__ void reg_pixel_coords(GM_ADDR xy, GM_ADDR out, GM_ADDR flags)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 5 * REG_PAIRS * sizeof(float));
    LocalTensor<float> in = buf.Get<float>();
    LocalTensor<float> res = in[2 * REG_PAIRS];
    LocalTensor<int32_t> flag = in[4 * REG_PAIRS].ReinterpretCast<int32_t>();
    GlobalTensor<float> xyGm, outGm;
    GlobalTensor<int32_t> flagGm;
    xyGm.SetGlobalBuffer((__gm__ float *)xy, 2 * REG_PAIRS);
    outGm.SetGlobalBuffer((__gm__ float *)out, 2 * REG_PAIRS);
    flagGm.SetGlobalBuffer((__gm__ int32_t *)flags, REG_PAIRS);
    DataCopy(in, xyGm, 2 * REG_PAIRS);
    PipeBarrier<PIPE_ALL>();
    __local_mem__ float *src = (__local_mem__ float *)in.GetPhyAddr();
    __local_mem__ float *dst = (__local_mem__ float *)res.GetPhyAddr();
    __local_mem__ int32_t *fl = (__local_mem__ int32_t *)flag.GetPhyAddr();
    const uint16_t step = GetVecLen() / sizeof(float);
    const uint16_t repeats = REG_PAIRS / step;
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<float> xy0, xy1, x, y, w, h, half;
        MicroAPI::RegTensor<int32_t> one, zero, sel;
        MicroAPI::MaskReg all = MicroAPI::CreateMask<float, MicroAPI::MaskPattern::ALL>();
        MicroAPI::MaskReg inside, tmp;
        MicroAPI::Duplicate(w, REG_W, all);
        MicroAPI::Duplicate(h, REG_H, all);
        MicroAPI::Duplicate(half, -0.5f, all);
        MicroAPI::Duplicate(one, 1, all);
        MicroAPI::Duplicate(zero, 0, all);
        for (uint16_t i = 0; i < repeats; i++) {
            MicroAPI::DataCopy(xy0, src + 2 * i * step);
            MicroAPI::DataCopy(xy1, src + 2 * i * step + step);
            MicroAPI::DeInterleave(x, y, xy0, xy1);
            MicroAPI::FusedMulDstAdd(x, w, half, all);
            MicroAPI::MulDstAdd(y, h, half, all);
            MicroAPI::Compares<float, CMPMODE::GT>(inside, x, -1.0f, all);
            MicroAPI::Compares<float, CMPMODE::GT>(tmp, y, -1.0f, all);
            MicroAPI::And(inside, inside, tmp, all);
            MicroAPI::Compare<float, CMPMODE::LT>(tmp, x, w, all);
            MicroAPI::And(inside, inside, tmp, all);
            MicroAPI::Compare<float, CMPMODE::LT>(tmp, y, h, all);
            MicroAPI::And(inside, inside, tmp, all);
            MicroAPI::Not(tmp, inside, all);
            MicroAPI::Select(sel, one, zero, tmp);
            MicroAPI::Interleave(xy0, xy1, x, y);
            MicroAPI::DataCopy(dst + 2 * i * step, xy0, all);
            MicroAPI::DataCopy(dst + 2 * i * step + step, xy1, all);
            MicroAPI::DataCopy(fl + i * step, sel, all);
        }
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, res, 2 * REG_PAIRS);
    DataCopy(flagGm, flag, REG_PAIRS);
}

__simt_vf__ __launch_bounds__(128) inline void FloorVf(__gm__ float *in, __gm__ float *out, int32_t n)
{
    for (int32_t i = threadIdx.x; i < n; i += blockDim.x) {
        out[i] = Simt::Floor(in[i]);
    }
}

extern "C" __global__ __aicore__ void simt_floor(GM_ADDR in, GM_ADDR out, int32_t n)
{
    Simt::VF_CALL<FloorVf>(Simt::Dim3{128, 1, 1}, (__gm__ float *)in, (__gm__ float *)out, n);
}
