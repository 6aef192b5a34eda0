// Vector instructions that read their destination: MulAddDst (dst = src0 * src1 + dst), FusedMulAdd
// (dst = src0 * dst + src1), FusedMulAddRelu, Axpy (dst = src * scalar + dst). An accumulator tile is
// cleared (Duplicate) or copied in before the first one, as in public epilogues; forgetting that is
// reading never-written UB. For tests/test_sim_dst_read.py (local-uninit-read: the destination is a
// source, carried as taint like the other sources and reported where it is stored).
#include "kernel_operator.h"
using namespace AscendC;

namespace {
constexpr uint32_t kN = 256;  // floats: 4 repeats of 64
}

// out = op(a, b, acc) with acc = c (init 1), 0 (init 2) or never written (init 0); op: 0 MulAddDst,
// 1 FusedMulAdd, 2 FusedMulAddRelu, 3 Axpy (scalar 0.5, src a), 4 MulAddDst mask form (64 lanes, 4
// repeats), 5 Axpy mask form, 6 MulAddDst with half sources (a and b cast to half first) into the float acc.
extern "C" __global__ __aicore__ void dst_read_accumulate(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR out,
                                                          uint32_t op, uint32_t init)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ba, bb, bacc, bha, bhb;
    pipe.InitBuffer(ba, kN * sizeof(float));
    pipe.InitBuffer(bha, kN * sizeof(half));
    pipe.InitBuffer(bhb, kN * sizeof(half));
    pipe.InitBuffer(bb, kN * sizeof(float));
    pipe.InitBuffer(bacc, kN * sizeof(float));
    GlobalTensor<float> aGm, bGm, cGm, outGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(a), kN);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(b), kN);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), kN);
    outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), kN);
    LocalTensor<float> la = ba.Get<float>(), lb = bb.Get<float>(), acc = bacc.Get<float>();
    DataCopy(la, aGm, kN);
    DataCopy(lb, bGm, kN);
    if (init == 1) DataCopy(acc, cGm, kN);
    PipeBarrier<PIPE_ALL>();
    if (init == 2) Duplicate(acc, 0.0f, kN);
    BinaryRepeatParams bp;
    UnaryRepeatParams up;
    switch (op) {
        case 0: MulAddDst(acc, la, lb, kN); break;
        case 1: FusedMulAdd(acc, la, lb, kN); break;
        case 2: FusedMulAddRelu(acc, la, lb, kN); break;
        case 3: Axpy(acc, la, 0.5f, kN); break;
        case 4: MulAddDst(acc, la, lb, 64, 4, bp); break;
        case 6: {
            LocalTensor<half> ha = bha.Get<half>(), hb = bhb.Get<half>();
            Cast(ha, la, RoundMode::CAST_RINT, kN);
            Cast(hb, lb, RoundMode::CAST_RINT, kN);
            PipeBarrier<PIPE_V>();
            MulAddDst(acc, ha, hb, kN);
            break;
        }
        case 5: Axpy(acc, la, 0.5f, 64, 4, up); break;
        default: break;
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(outGm, acc, kN);  // BAD(stored-acc)
}
