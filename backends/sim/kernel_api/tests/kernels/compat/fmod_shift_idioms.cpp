// Our own kernels in the style of Ascend/DrivingSDK's grid_sampler2d_v2 (the reflection padding's Fmod) and its arch35
// point_to_voxel (a voxel key packed with MicroAPI::ShiftLefts, repeats counted with ONE_REPEAT_FLOAT_SIZE); COMPAT.md
// "Round 30 (s30b)", tests/test_sim_compat_fmod_shift.py:
//   fmod_reflect(a, b, out, n): out[0:n] = Fmod(a, b) (the calCount form), out[n:2n] = Fmod(a, b) again through the
//     sharedTmpBuffer form; n a multiple of ONE_REPEAT_FLOAT_SIZE (the number of floats one repeat handles).
//   reg_voxel_key(xyz, out, n) (Ascend 950 only): xyz holds n x, n y, n z int32 coordinates; out[i] = x << 19 | y << 8 | z
//     for coordinates inside [0, 2048) x [0, 2048) x [0, 256), -1 elsewhere -- Compares / And into a MaskReg, ShiftLefts
//     with int16_t counts, Add, Select -- one VL per loop, ONE_REPEAT_FLOAT_SIZE lanes of int32 each.
//   reg_voxel_decode(keys, out, n) (Ascend 950 only): voxel_to_point's decode of such keys with ShiftRights (page
//     atlasascendc_api_07_0387): out[0:n] = x = (k >> 8) >> 11, out[n:2n] = y = (k >> 8) - (x << 11), out[2n:3n] =
//     z = k - ((k >> 8) << 8), all arithmetic on int32 (negative keys keep their sign); out[3n:4n] = the keys as
//     uint32 shifted right logically by 20; out[4n:5n] = k >> 40 as int32, the sign fill (0 or -1).
//   reg_floor_cells(pts, out, n) (Ascend 950 only): out[i] = floor(pts[i] * 4) as int32, by a member of a class template
//     whose VF declares its CastTrait (CAST_FLOOR) as a block-scope `static constexpr` object, as point_to_voxel does.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t FMOD_MAX = 1024;

extern "C" __global__ __aicore__ void fmod_reflect(GM_ADDR a, GM_ADDR b, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(buf, 4 * FMOD_MAX * sizeof(float));
    pipe.InitBuffer(tmpBuf, 4 * FMOD_MAX);
    LocalTensor<float> x = buf.Get<float>();
    LocalTensor<float> y = x[FMOD_MAX];
    LocalTensor<float> r0 = x[2 * FMOD_MAX];
    LocalTensor<float> r1 = x[3 * FMOD_MAX];
    GlobalTensor<float> aGm, bGm, outGm;
    aGm.SetGlobalBuffer((__gm__ float *)a, n);
    bGm.SetGlobalBuffer((__gm__ float *)b, n);
    outGm.SetGlobalBuffer((__gm__ float *)out, 2 * n);
    const uint32_t repeats = n / ONE_REPEAT_FLOAT_SIZE;
    DataCopy(x, aGm, repeats * ONE_REPEAT_FLOAT_SIZE);
    DataCopy(y, bGm, repeats * ONE_REPEAT_FLOAT_SIZE);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Fmod(r0, x, y, n);
    Fmod(r1, x, y, tmpBuf.Get<uint8_t>(), n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(outGm, r0, n);
    DataCopy(outGm[n], r1, n);
}

#if __CCE_AICORE__ == 310
constexpr int16_t KEY_BITS_Z = 8;
constexpr int16_t KEY_BITS_Y = 11;
constexpr int32_t KEY_INVALID = -1;

extern "C" __global__ __aicore__ void reg_voxel_key(GM_ADDR xyz, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * FMOD_MAX * sizeof(int32_t));
    LocalTensor<int32_t> in = buf.Get<int32_t>();
    LocalTensor<int32_t> res = in[3 * FMOD_MAX];
    GlobalTensor<int32_t> xyzGm, outGm;
    xyzGm.SetGlobalBuffer((__gm__ int32_t *)xyz, 3 * n);
    outGm.SetGlobalBuffer((__gm__ int32_t *)out, n);
    DataCopy(in, xyzGm, 3 * n);
    PipeBarrier<PIPE_ALL>();
    __local_mem__ int32_t *px = (__local_mem__ int32_t *)in.GetPhyAddr();
    __local_mem__ int32_t *py = px + n;
    __local_mem__ int32_t *pz = px + 2 * n;
    __local_mem__ int32_t *po = (__local_mem__ int32_t *)res.GetPhyAddr();
    const uint16_t repeats = n / ONE_REPEAT_FLOAT_SIZE;
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<int32_t> x, y, z, key, bad;
        MicroAPI::MaskReg all = MicroAPI::CreateMask<int32_t, MicroAPI::MaskPattern::ALL>();
        MicroAPI::MaskReg ok, lo, hi;
        MicroAPI::Duplicate(bad, KEY_INVALID, all);
        for (uint16_t i = 0; i < repeats; ++i) {
            const uint32_t off = i * ONE_REPEAT_FLOAT_SIZE;
            MicroAPI::DataCopy(x, px + off);
            MicroAPI::DataCopy(y, py + off);
            MicroAPI::DataCopy(z, pz + off);
            MicroAPI::Compares<int32_t, CMPMODE::GE>(lo, x, 0, all);
            MicroAPI::Compares<int32_t, CMPMODE::LT>(hi, x, 2048, all);
            MicroAPI::And(ok, lo, hi, all);
            MicroAPI::Compares<int32_t, CMPMODE::GE>(lo, y, 0, all);
            MicroAPI::Compares<int32_t, CMPMODE::LT>(hi, y, 2048, all);
            MicroAPI::And(ok, ok, lo, all);
            MicroAPI::And(ok, ok, hi, all);
            MicroAPI::Compares<int32_t, CMPMODE::GE>(lo, z, 0, all);
            MicroAPI::Compares<int32_t, CMPMODE::LT>(hi, z, 256, all);
            MicroAPI::And(ok, ok, lo, all);
            MicroAPI::And(ok, ok, hi, all);
            MicroAPI::ShiftLefts(y, y, KEY_BITS_Z, all);
            MicroAPI::ShiftLefts(x, x, static_cast<int16_t>(KEY_BITS_Y + KEY_BITS_Z), all);
            MicroAPI::Add(x, x, y, all);
            MicroAPI::Add(key, x, z, all);
            MicroAPI::Select(key, key, bad, ok);
            MicroAPI::DataCopy(po + off, key, all);
        }
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, res, n);
}

extern "C" __global__ __aicore__ void reg_voxel_decode(GM_ADDR keys, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 6 * FMOD_MAX * sizeof(int32_t));
    LocalTensor<int32_t> in = buf.Get<int32_t>();
    LocalTensor<int32_t> res = in[FMOD_MAX];
    GlobalTensor<int32_t> keysGm, outGm;
    keysGm.SetGlobalBuffer((__gm__ int32_t *)keys, n);
    outGm.SetGlobalBuffer((__gm__ int32_t *)out, 5 * n);
    DataCopy(in, keysGm, n);
    PipeBarrier<PIPE_ALL>();
    __local_mem__ int32_t *pk = (__local_mem__ int32_t *)in.GetPhyAddr();
    __local_mem__ int32_t *po = (__local_mem__ int32_t *)res.GetPhyAddr();
    const uint16_t repeats = n / ONE_REPEAT_FLOAT_SIZE;
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<int32_t> k, t, x, y, z, sign;
        MicroAPI::RegTensor<uint32_t> u;
        MicroAPI::MaskReg all = MicroAPI::CreateMask<int32_t, MicroAPI::MaskPattern::ALL>();
        for (uint16_t i = 0; i < repeats; ++i) {
            const uint32_t off = i * ONE_REPEAT_FLOAT_SIZE;
            MicroAPI::DataCopy(k, pk + off);
            MicroAPI::ShiftRights(z, k, KEY_BITS_Z, all);
            MicroAPI::ShiftLefts(z, z, KEY_BITS_Z, all);
            MicroAPI::Sub(z, k, z, all);
            MicroAPI::ShiftRights(t, k, KEY_BITS_Z, all);
            MicroAPI::ShiftRights(x, t, KEY_BITS_Y, all);
            MicroAPI::ShiftLefts(y, x, KEY_BITS_Y, all);
            MicroAPI::Sub(y, t, y, all);
            MicroAPI::ShiftRights(sign, k, static_cast<int16_t>(40), all);
            MicroAPI::DataCopy(u, (__local_mem__ uint32_t *)pk + off);
            MicroAPI::ShiftRights(u, u, static_cast<int16_t>(20), all);
            MicroAPI::DataCopy(po + off, x, all);
            MicroAPI::DataCopy(po + n + off, y, all);
            MicroAPI::DataCopy(po + 2 * n + off, z, all);
            MicroAPI::DataCopy((__local_mem__ uint32_t *)po + 3 * n + off, u, all);
            MicroAPI::DataCopy(po + 4 * n + off, sign, all);
        }
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, res, 5 * n);
}

// reg_shift_by(keys, out, n, left, count) (Ascend 950 only): one ShiftLefts (left != 0) or ShiftRights by a count the
// host gives -- a negative one is not supported by either page and is reported.
extern "C" __global__ __aicore__ void reg_shift_by(GM_ADDR keys, GM_ADDR out, uint32_t n, uint32_t left, int32_t count)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * FMOD_MAX * sizeof(int32_t));
    LocalTensor<int32_t> in = buf.Get<int32_t>();
    LocalTensor<int32_t> res = in[FMOD_MAX];
    GlobalTensor<int32_t> keysGm, outGm;
    keysGm.SetGlobalBuffer((__gm__ int32_t *)keys, n);
    outGm.SetGlobalBuffer((__gm__ int32_t *)out, n);
    DataCopy(in, keysGm, n);
    PipeBarrier<PIPE_ALL>();
    __local_mem__ int32_t *pk = (__local_mem__ int32_t *)in.GetPhyAddr();
    __local_mem__ int32_t *po = (__local_mem__ int32_t *)res.GetPhyAddr();
    const int16_t bits = static_cast<int16_t>(count);
    __VEC_SCOPE__ {
        MicroAPI::RegTensor<int32_t> k;
        MicroAPI::MaskReg all = MicroAPI::CreateMask<int32_t, MicroAPI::MaskPattern::ALL>();
        for (uint16_t i = 0; i < n / ONE_REPEAT_FLOAT_SIZE; ++i) {
            MicroAPI::DataCopy(k, pk + i * ONE_REPEAT_FLOAT_SIZE);
            if (left != 0) {
                MicroAPI::ShiftLefts(k, k, bits, all);
            } else {
                MicroAPI::ShiftRights(k, k, bits, all);
            }
            MicroAPI::DataCopy(po + i * ONE_REPEAT_FLOAT_SIZE, k, all);
        }
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, res, n);
}

template <typename T>
class FloorCells {
public:
    __aicore__ inline void Run(__local_mem__ T *src, __local_mem__ int32_t *dst, uint16_t repeats)
    {
        __VEC_SCOPE__ {
            MicroAPI::RegTensor<T> v;
            MicroAPI::RegTensor<int32_t> cell;
            MicroAPI::MaskReg all = MicroAPI::CreateMask<int32_t, MicroAPI::MaskPattern::ALL>();
            static constexpr MicroAPI::CastTrait floorTrait = {MicroAPI::RegLayout::ZERO, MicroAPI::SatMode::SAT,
                                                               MicroAPI::MaskMergeMode::ZEROING, RoundMode::CAST_FLOOR};
            for (uint16_t i = 0; i < repeats; ++i) {
                MicroAPI::DataCopy(v, src + i * ONE_REPEAT_FLOAT_SIZE);
                MicroAPI::Muls(v, v, static_cast<T>(4), all);
                MicroAPI::Cast<int32_t, T, floorTrait>(cell, v, all);
                MicroAPI::DataCopy(dst + i * ONE_REPEAT_FLOAT_SIZE, cell, all);
            }
        }
    }
};

extern "C" __global__ __aicore__ void reg_floor_cells(GM_ADDR pts, GM_ADDR out, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * FMOD_MAX * sizeof(float));
    LocalTensor<float> in = buf.Get<float>();
    LocalTensor<int32_t> res = in[FMOD_MAX].ReinterpretCast<int32_t>();
    GlobalTensor<float> ptsGm;
    GlobalTensor<int32_t> outGm;
    ptsGm.SetGlobalBuffer((__gm__ float *)pts, n);
    outGm.SetGlobalBuffer((__gm__ int32_t *)out, n);
    DataCopy(in, ptsGm, n);
    PipeBarrier<PIPE_ALL>();
    FloorCells<float> op;
    op.Run((__local_mem__ float *)in.GetPhyAddr(), (__local_mem__ int32_t *)res.GetPhyAddr(),
           static_cast<uint16_t>(n / ONE_REPEAT_FLOAT_SIZE));
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, res, n);
}
#endif
