// The basic vector APIs only the Atlas 350 / Ascend 950 has (build with soc="Ascend950PR_9599"), each
// called as the reference's prototype shows: Neg, AbsSub, ExpSub, Subs / Divs / Ands / Ors (scalar after
// and before the tensor), Interleave, DeInterleave (two inputs and one).
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t N = 256;  // elements per row
constexpr uint32_t ROWS = 13;
constexpr uint32_t IROWS = 4;

extern "C" __global__ __aicore__ void a950_api(GM_ADDR x, GM_ADDR y, GM_ADDR xi, GM_ADDR out, GM_ADDR outi)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> bx, by, bi, bo, boi, bh;
    pipe.InitBuffer(bx, N * sizeof(float));
    pipe.InitBuffer(by, N * sizeof(float));
    pipe.InitBuffer(bi, N * sizeof(int32_t));
    pipe.InitBuffer(bo, ROWS * N * sizeof(float));
    pipe.InitBuffer(boi, IROWS * N * sizeof(int32_t));
    pipe.InitBuffer(bh, 2 * N * sizeof(half));
    GlobalTensor<float> gx, gy, go;
    GlobalTensor<int32_t> gi, goi;
    gx.SetGlobalBuffer((__gm__ float *)x, N);
    gy.SetGlobalBuffer((__gm__ float *)y, N);
    gi.SetGlobalBuffer((__gm__ int32_t *)xi, N);
    go.SetGlobalBuffer((__gm__ float *)out, ROWS * N);
    goi.SetGlobalBuffer((__gm__ int32_t *)outi, IROWS * N);
    LocalTensor<float> lx = bx.Get<float>(), ly = by.Get<float>(), lo = bo.Get<float>();
    LocalTensor<int32_t> li = bi.Get<int32_t>(), loi = boi.Get<int32_t>();
    LocalTensor<half> lh = bh.Get<half>();
    DataCopy(lx, gx, N);
    DataCopy(ly, gy, N);
    DataCopy(li, gi, N);
    PipeBarrier<PIPE_ALL>();

    Neg(lo[0 * N], lx, N);
    AbsSub(lo[1 * N], lx, ly, N);
    ExpSub(lo[2 * N], lx, ly, N);
    Subs(lo[3 * N], lx, 1.5f, N);
    Subs(lo[4 * N], 2.0f, lx, N);
    Divs(lo[5 * N], lx, 4.0f, N);
    Divs(lo[6 * N], 3.0f, ly, N);
    Interleave(lo[7 * N], lo[8 * N], lx, ly, N);
    DeInterleave(lo[9 * N], lo[9 * N + N / 2], lx, N);
    DeInterleave(lo[10 * N], lo[11 * N], lx, ly, N);
    Cast(lh, lx, RoundMode::CAST_NONE, N);
    Cast(lh[N], ly, RoundMode::CAST_NONE, N);
    ExpSub<float, half>(lo[12 * N], lh, lh[N], N);  // half sources, float result

    Neg(loi[0 * N], li, N);
    Ands(loi[1 * N], li, 0x0F0F, N);
    Ors(loi[2 * N], 0x100, li, N);
    Subs<int32_t>(loi[3 * N], 7, li, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(go, lo, ROWS * N);
    DataCopy(goi, loi, IROWS * N);
}

// Interleave with an odd count: the reference requires an even one (a sanitizer error here).
extern "C" __global__ __aicore__ void a950_odd_interleave(GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 4 * N * sizeof(float));
    LocalTensor<float> t = b.Get<float>();
    Duplicate(t, 1.0f, 2 * N);
    PipeBarrier<PIPE_ALL>();
    Interleave(t[2 * N], t[3 * N], t, t[N], N - 1);  // BAD(odd-count)
    PipeBarrier<PIPE_ALL>();
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)out, 8);
    DataCopy(g, t[2 * N], 8);
}
