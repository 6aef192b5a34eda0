// Our own kernel in the style of public cube code whose last block is partial but still moves every slot's
// operand to L0B with LoadDataWithTranspose and multiplies it, storing only the valid slots' products
// (kda-ascendc's k1_fixpipe_shape_probe, C = 6: backends/sim/kernel_api/COMPAT.md "Round 26 (s26b)").
//
//   partial_slots_transposing_load   y[s] = a @ v[s] (fp32, 16 x 16) for s < nstore: a by Nd2Nz + LoadData to L0A;
//                    only the first nload of the four v tiles are copied to L1, yet all four are moved by
//                    LoadDataWithTranspose and multiplied.  As with the 2D LoadData (cube_taint.h), a never-written
//                    L1 fractal leaves its L0B fractal -- and the product -- unwritten, reported only where it
//                    leaves the cube: the Fixpipe of a slot s >= nload.
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void partial_slots_transposing_load(GM_ADDR pa, GM_ADDR pv, GM_ADDR py, int32_t nload,
                                                                     int32_t nstore) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    constexpr int32_t SLOTS = 4;
    TPipe pipe;
    TEventID e21 = pipe.AllocEventID<HardEvent::MTE2_MTE1>();
    TEventID e1m = pipe.AllocEventID<HardEvent::MTE1_M>();
    TEventID emf = pipe.AllocEventID<HardEvent::M_FIX>();
    TBuf<TPosition::B1> bufA, bufV;
    pipe.InitBuffer(bufA, 256 * sizeof(half));
    pipe.InitBuffer(bufV, SLOTS * 256 * sizeof(half));
    GlobalTensor<half> gA, gV;
    GlobalTensor<float> gY;
    gA.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(pa), 256);
    gV.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(pv), SLOTS * 256);
    gY.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(py), SLOTS * 256);
    LocalTensor<half> la = bufA.Get<half>();
    LocalTensor<half> lv = bufV.Get<half>();
    LocalTensor<half> a(TPosition::A2, 0, 256);
    LocalTensor<half> b(TPosition::B2, 0, SLOTS * 256);
    LocalTensor<float> c(TPosition::CO1, 0, SLOTS * 256);

    DataCopy(la, gA, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
    for (int32_t s = 0; s < nload; ++s) {
        DataCopy(lv[s * 256], gV[s * 256], Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
    }
    SetFlag<HardEvent::MTE2_MTE1>(e21);
    WaitFlag<HardEvent::MTE2_MTE1>(e21);
    LoadData(a, la, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
    for (int32_t s = 0; s < SLOTS; ++s) {  // every slot, loaded or not
        LoadDataWithTranspose(b[s * 256], lv[s * 256], LoadData2dTransposeParams(0, 1, 1, 0, 0));
    }
    SetFlag<HardEvent::MTE1_M>(e1m);
    WaitFlag<HardEvent::MTE1_M>(e1m);
    for (int32_t s = 0; s < SLOTS; ++s) {
        Mmad(c[s * 256], a, b[s * 256], MmadParams(16, 16, 16, 0, false, true));
    }
    SetFlag<HardEvent::M_FIX>(emf);
    WaitFlag<HardEvent::M_FIX>(emf);
    for (int32_t s = 0; s < nstore; ++s) {
        Fixpipe<float, float, CFG_ROW_MAJOR>(gY[s * 256], c[s * 256],  // BAD(store-slot)
                                             FixpipeParamsV220(16, 16, 16, 16, false, QuantMode_t::NoQuant, 0, 1, 0, 0, 0));
    }
    PipeBarrier<PIPE_ALL>();
}
