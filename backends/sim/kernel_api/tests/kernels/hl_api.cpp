// High-level API compatibility kernels in public Ascend C style: Matmul (IterateAll over cores with
// bias, Iterate / GetTensorC), SoftMax, LayerNorm, Sum / Mean and the activations.  Tiling structs
// come from the host (pyasc_sim.hl_tiling) through a GM tiling buffer.
#include "kernel_operator.h"
#if __has_include("lib/matmul_intf.h")
#include "lib/matmul_intf.h"
#else
#include "pyasc_sim/kapi/matmul.h"
#endif
using namespace AscendC;

using A_TYPE = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using B_TYPE = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using C_TYPE = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BIAS_TYPE = MatmulType<TPosition::GM, CubeFormat::ND, float>;

template <typename T>
__aicore__ inline void LoadTiling(T *dst, GM_ADDR tiling)
{
    auto *src = reinterpret_cast<__gm__ uint32_t *>(tiling);
    auto *out = reinterpret_cast<uint32_t *>(dst);
    for (size_t i = 0; i < sizeof(T) / sizeof(uint32_t); ++i) {
        out[i] = src[i];
    }
}

extern "C" __global__ __aicore__ void hl_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR workspace,
                                                GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    LoadTiling(&tiling, tilingGm);
    if (GetBlockIdx() >= tiling.usedCoreNum) {
        return;
    }
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), tiling.M * tiling.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), tiling.Kb * tiling.N);
    biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(bias), tiling.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), tiling.M * tiling.N);

    const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
    const int32_t mIdx = GetBlockIdx() % mBlocks;
    const int32_t nIdx = GetBlockIdx() / mBlocks;
    const int32_t m0 = mIdx * tiling.singleCoreM, n0 = nIdx * tiling.singleCoreN;
    const int32_t tailM = tiling.M - m0 < tiling.singleCoreM ? tiling.M - m0 : tiling.singleCoreM;
    const int32_t tailN = tiling.N - n0 < tiling.singleCoreN ? tiling.N - n0 : tiling.singleCoreN;

    TPipe pipe;
    Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE> mm;
    REGIST_MATMUL_OBJ(&pipe, workspace, mm, &tiling);
    mm.SetTensorA(aGm[m0 * tiling.Ka]);
    mm.SetTensorB(bGm[n0]);
    if (tiling.isBias) {
        mm.SetBias(biasGm[n0]);
    }
    mm.SetTail(tailM, tailN);
    mm.IterateAll(cGm[m0 * tiling.N + n0]);
    mm.End();
}

// One core, B given transposed (N x K), tile by tile with Iterate / GetTensorC.
extern "C" __global__ __aicore__ void hl_matmul_iterate(GM_ADDR a, GM_ADDR bT, GM_ADDR c, GM_ADDR tilingGm)
{
    TCubeTiling tiling;
    LoadTiling(&tiling, tilingGm);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), tiling.M * tiling.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(bT), tiling.N * tiling.Kb);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), tiling.M * tiling.N);
    TPipe pipe;
    Matmul<A_TYPE, B_TYPE, C_TYPE> mm;
    mm.Init(&tiling, &pipe);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm, true);
    mm.SetTail(tiling.M, tiling.N, tiling.Ka);
    while (mm.Iterate()) {
        mm.GetTensorC(cGm);
    }
    mm.End();
}

// rows x cols floats: y = SoftMax's documented steps composed from basic instructions, row by row
// (ReduceMax, x + (-max), Exp, ReduceSum, Div by the sum broadcast with Duplicate): the float SoftMax
// must give these bits (tests/test_ascendc_hl_api.py).
extern "C" __global__ __aicore__ void hl_softmax_steps(GM_ADDR x, GM_ADDR y, GM_ADDR tilingGm)
{
    SoftMaxTiling tiling;
    LoadTiling(&tiling, tilingGm);
    const uint32_t rows = tiling.srcM, cols = tiling.srcK;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> calc;
    pipe.InitBuffer(inQ, 1, rows * cols * sizeof(float));
    pipe.InitBuffer(outQ, 1, rows * cols * sizeof(float));
    pipe.InitBuffer(calc, 3 * cols * sizeof(float) + 32);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), rows * cols);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), rows * cols);
    LocalTensor<float> xl = inQ.AllocTensor<float>();
    DataCopy(xl, xGm, rows * cols);
    inQ.EnQue(xl);
    xl = inQ.DeQue<float>();
    LocalTensor<float> yl = outQ.AllocTensor<float>();
    LocalTensor<float> buf = calc.Get<float>();
    LocalTensor<float> e = buf, work = buf[cols], dup = buf[2 * cols], one = buf[3 * cols];
    for (uint32_t r = 0; r < rows; ++r) {
        ReduceMax(one, xl[r * cols], work, cols);
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        const float m = one.GetValue(0);
        SetFlag<HardEvent::S_V>(EVENT_ID0);
        WaitFlag<HardEvent::S_V>(EVENT_ID0);
        Adds(e, xl[r * cols], -m, cols);
        Exp(e, e, cols);
        ReduceSum(one, e, work, cols);
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        const float s = one.GetValue(0);
        SetFlag<HardEvent::S_V>(EVENT_ID0);
        WaitFlag<HardEvent::S_V>(EVENT_ID0);
        Duplicate(dup, s, cols);
        Div(yl[r * cols], e, dup, cols);
    }
    outQ.EnQue(yl);
    inQ.FreeTensor(xl);
    yl = outQ.DeQue<float>();
    DataCopy(yGm, yl, rows * cols);
    outQ.FreeTensor(yl);
}

// rows x cols floats: y = SoftMax(x) by rows, sum / max: one 8-float block per row.
extern "C" __global__ __aicore__ void hl_softmax(GM_ADDR x, GM_ADDR y, GM_ADDR sum, GM_ADDR max, GM_ADDR tilingGm)
{
    SoftMaxTiling tiling;
    LoadTiling(&tiling, tilingGm);
    const uint32_t rows = tiling.srcM, cols = tiling.srcK;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ, sumQ, maxQ;
    pipe.InitBuffer(inQ, 1, rows * cols * sizeof(float));
    pipe.InitBuffer(outQ, 1, rows * cols * sizeof(float));
    pipe.InitBuffer(sumQ, 1, rows * 8 * sizeof(float));
    pipe.InitBuffer(maxQ, 1, rows * 8 * sizeof(float));
    GlobalTensor<float> xGm, yGm, sumGm, maxGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), rows * cols);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), rows * cols);
    sumGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(sum), rows * 8);
    maxGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(max), rows * 8);
    LocalTensor<float> xl = inQ.AllocTensor<float>();
    DataCopy(xl, xGm, rows * cols);
    inQ.EnQue(xl);
    xl = inQ.DeQue<float>();
    LocalTensor<float> yl = outQ.AllocTensor<float>();
    LocalTensor<float> sl = sumQ.AllocTensor<float>();
    LocalTensor<float> ml = maxQ.AllocTensor<float>();
    SoftMaxShapeInfo shape = {rows, cols, rows, cols};
    SoftMax<float>(yl, sl, ml, xl, tiling, shape);
    outQ.EnQue(yl);
    sumQ.EnQue(sl);
    maxQ.EnQue(ml);
    inQ.FreeTensor(xl);
    yl = outQ.DeQue<float>();
    sl = sumQ.DeQue<float>();
    ml = maxQ.DeQue<float>();
    DataCopy(yGm, yl, rows * cols);
    DataCopy(sumGm, sl, rows * 8);
    DataCopy(maxGm, ml, rows * 8);
    outQ.FreeTensor(yl);
    sumQ.FreeTensor(sl);
    maxQ.FreeTensor(ml);
}

// The GM / UB plumbing of the LayerNorm kernels below: x[b, s, h] float; gamma, beta [h]; y; mean, var [b * s]
// (a multiple of 8); `extra` bytes after mean's and var's rows; Load copies x, gamma, beta in, Store y, mean, var out.
struct LayerNormIo {
    LayerNormTiling tiling;
    uint32_t rows = 0, h = 0;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, gb, bb, yb, mb, vb;
    GlobalTensor<float> xGm, gGm, bGm, yGm, mGm, vGm;
    LocalTensor<float> xl, gl, bl, yl, ml, vl;

    __aicore__ inline void Init(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean, GM_ADDR var,
                                GM_ADDR tilingGm, uint32_t extra)
    {
        LoadTiling(&tiling, tilingGm);
        rows = tiling.bLength * tiling.sLength;
        h = tiling.hLength;
        pipe.InitBuffer(xb, rows * h * sizeof(float));
        pipe.InitBuffer(gb, h * sizeof(float));
        pipe.InitBuffer(bb, h * sizeof(float));
        pipe.InitBuffer(yb, rows * h * sizeof(float));
        pipe.InitBuffer(mb, rows * sizeof(float) + extra);
        pipe.InitBuffer(vb, rows * sizeof(float) + extra);
        xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), rows * h);
        gGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(gamma), h);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(beta), h);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), rows * h);
        mGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(mean), rows);
        vGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(var), rows);
        xl = xb.Get<float>();
        gl = gb.Get<float>();
        bl = bb.Get<float>();
        yl = yb.Get<float>();
        ml = mb.Get<float>();
        vl = vb.Get<float>();
    }
    __aicore__ inline void Load()
    {
        DataCopy(xl, xGm, rows * h);
        DataCopy(gl, gGm, h);
        DataCopy(bl, bGm, h);
        PipeBarrier<PIPE_ALL>();
    }
    __aicore__ inline void Store()
    {
        PipeBarrier<PIPE_ALL>();
        DataCopy(yGm, yl, rows * h);
        DataCopy(mGm, ml, rows);
        DataCopy(vGm, vl, rows);
    }
};

extern "C" __global__ __aicore__ void hl_layernorm(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y, GM_ADDR mean,
                                                   GM_ADDR var, float epsilon, GM_ADDR tilingGm)
{
    LayerNormIo io;
    io.Init(x, gamma, beta, y, mean, var, tilingGm, 0);
    TBuf<TPosition::VECCALC> tmp;
    io.pipe.InitBuffer(tmp, 1024);
    io.Load();
    LayerNorm<float, false>(io.yl, io.ml, io.vl, io.xl, io.gl, io.bl, tmp.Get<uint8_t>(), epsilon, io.tiling);
    io.Store();
}

// As hl_layernorm, composed from LayerNorm's documented steps with basic instructions, row by row:
// mean = ReduceSum(Muls(x, 1/h)); d = x - mean; variance = ReduceSum(Muls(Mul(d, d), 1/h));
// rstd = Exp(Muls(Ln(Adds(variance, eps)), -0.5)); y = d * rstd * gamma + beta. The float LayerNorm must
// give these bits (tests/test_ascendc_hl_api.py).
extern "C" __global__ __aicore__ void hl_layernorm_steps(GM_ADDR x, GM_ADDR gamma, GM_ADDR beta, GM_ADDR y,
                                                         GM_ADDR mean, GM_ADDR var, float epsilon, GM_ADDR tilingGm)
{
    LayerNormIo io;
    io.Init(x, gamma, beta, y, mean, var, tilingGm, 32);
    const uint32_t rows = io.rows, h = io.h;
    const float inv = 1.0f / static_cast<float>(h);
    TBuf<TPosition::VECCALC> calc;
    io.pipe.InitBuffer(calc, 3 * h * sizeof(float) + 64);
    LocalTensor<float> xl = io.xl, gl = io.gl, bl = io.bl, yl = io.yl, ml = io.ml, vl = io.vl;
    LocalTensor<float> buf = calc.Get<float>();
    LocalTensor<float> d = buf, sq = buf[h], work = buf[2 * h], one = buf[3 * h], v8 = buf[3 * h + 8];
    io.Load();
    for (uint32_t r = 0; r < rows; ++r) {
        Muls(d, xl[r * h], inv, h);
        ReduceSum(one, d, work, h);
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        const float mu = one.GetValue(0);
        SetFlag<HardEvent::S_V>(EVENT_ID0);
        WaitFlag<HardEvent::S_V>(EVENT_ID0);
        Adds(d, xl[r * h], -mu, h);
        Mul(sq, d, d, h);
        Muls(sq, sq, inv, h);
        ReduceSum(one, sq, work, h);
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        const float v = one.GetValue(0);
        SetFlag<HardEvent::S_V>(EVENT_ID0);
        WaitFlag<HardEvent::S_V>(EVENT_ID0);
        Duplicate(v8, v, 8);
        Adds(v8, v8, epsilon, 8);
        Ln(v8, v8, 8);
        Muls(v8, v8, -0.5f, 8);
        Exp(v8, v8, 8);
        SetFlag<HardEvent::V_S>(EVENT_ID0);
        WaitFlag<HardEvent::V_S>(EVENT_ID0);
        const float rstd = v8.GetValue(0);
        ml.SetValue(r, mu);
        vl.SetValue(r, v);
        SetFlag<HardEvent::S_V>(EVENT_ID0);
        WaitFlag<HardEvent::S_V>(EVENT_ID0);
        Muls(yl[r * h], d, rstd, h);
        Mul(yl[r * h], yl[r * h], gl, h);
        Add(yl[r * h], yl[r * h], bl, h);
    }
    io.Store();
}

// rows x inner floats, the first n of each row: out[0:rows] = Sum, out[rows:2 rows] = Mean.
extern "C" __global__ __aicore__ void hl_sum_mean(GM_ADDR x, GM_ADDR out, uint32_t rows, uint32_t inner, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, ob;
    pipe.InitBuffer(xb, rows * inner * sizeof(float));
    pipe.InitBuffer(ob, 2 * rows * sizeof(float));
    GlobalTensor<float> xGm, oGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), rows * inner);
    oGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(out), 2 * rows);
    LocalTensor<float> xl = xb.Get<float>(), ol = ob.Get<float>();
    DataCopy(xl, xGm, rows * inner);
    SetFlag<HardEvent::MTE2_V>(0);  // the loads land before the vector pipe reads them
    WaitFlag<HardEvent::MTE2_V>(0);
    SumParams sp{rows, inner, n};
    Sum(ol, xl, sp);
    MeanParams mp{rows, inner, n};
    Mean(ol[rows], xl, mp);
    SetFlag<HardEvent::V_MTE3>(0);  // the vector results are written before the store reads them
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(oGm, ol, 2 * rows);
}

// y[k * count: (k + 1) * count] = activation k of x: Sigmoid, Silu, Gelu, FasterGelu, Tanh, Swish(beta 1.5).
extern "C" __global__ __aicore__ void hl_activations(GM_ADDR x, GM_ADDR y, uint32_t count)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, yb, tmp;
    pipe.InitBuffer(xb, count * sizeof(float));
    pipe.InitBuffer(yb, 6 * count * sizeof(float));
    pipe.InitBuffer(tmp, 2048);
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), count);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 6 * count);
    LocalTensor<float> xl = xb.Get<float>(), yl = yb.Get<float>();
    LocalTensor<uint8_t> work = tmp.Get<uint8_t>();
    DataCopy(xl, xGm, count);
    SetFlag<HardEvent::MTE2_V>(0);  // the loads land before the vector pipe reads them
    WaitFlag<HardEvent::MTE2_V>(0);
    Sigmoid(yl, xl, work, count);
    Silu(yl[count], xl, count);
    Gelu(yl[2 * count], xl, work, count);
    FasterGelu(yl[3 * count], xl, count);
    Tanh(yl[4 * count], xl, count);
    Swish(yl[5 * count], xl, count, 1.5f);
    SetFlag<HardEvent::V_MTE3>(0);  // the vector results are written before the store reads them
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(yGm, yl, 6 * count);
}

// Wrong on purpose: IterateAll on a Matmul that was never given its tiling.
extern "C" __global__ __aicore__ void hl_matmul_uninit(GM_ADDR a, GM_ADDR b, GM_ADDR c)
{
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), 256);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), 256);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), 256);
    Matmul<A_TYPE, B_TYPE, C_TYPE> mm;
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm);  // BAD(matmul-uninit)
    mm.End();
}

// y[0:n) = SwiGLU(x, g, beta 0.75); y[n:2n) = SimpleSoftMax of x as 4 rows with max / sum from SoftMax.
extern "C" __global__ __aicore__ void hl_swiglu_simple_softmax(GM_ADDR x, GM_ADDR g, GM_ADDR y, GM_ADDR tilingGm)
{
    SoftMaxTiling tiling;
    LoadTiling(&tiling, tilingGm);
    const uint32_t n = tiling.srcM * tiling.srcK;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, gb, yb, sb, mb, scratch;
    pipe.InitBuffer(xb, n * sizeof(float));
    pipe.InitBuffer(gb, n * sizeof(float));
    pipe.InitBuffer(yb, 2 * n * sizeof(float));
    pipe.InitBuffer(sb, tiling.srcM * 8 * sizeof(float));
    pipe.InitBuffer(mb, tiling.srcM * 8 * sizeof(float));
    pipe.InitBuffer(scratch, n * sizeof(float));
    GlobalTensor<float> xGm, gGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    gGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(g), n);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), 2 * n);
    LocalTensor<float> xl = xb.Get<float>(), gl = gb.Get<float>(), yl = yb.Get<float>();
    LocalTensor<float> sl = sb.Get<float>(), ml = mb.Get<float>(), tl = scratch.Get<float>();
    DataCopy(xl, xGm, n);
    DataCopy(gl, gGm, n);
    SetFlag<HardEvent::MTE2_V>(0);  // the loads land before the vector pipe reads them
    WaitFlag<HardEvent::MTE2_V>(0);
    SwiGLU<float, false>(yl, xl, gl, 0.75f, n);
    SoftMax<float>(tl, sl, ml, xl, tiling);
    SimpleSoftMax<float>(yl[n], sl, ml, xl, tiling);
    SetFlag<HardEvent::V_MTE3>(0);  // the vector results are written before the store reads them
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(yGm, yl, 2 * n);
}

// x[b, s, h] float, gamma [h]: y = RmsNorm(x) * gamma.
extern "C" __global__ __aicore__ void hl_rmsnorm(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, float epsilon, GM_ADDR tilingGm)
{
    RmsNormTiling tiling;
    LoadTiling(&tiling, tilingGm);
    const uint32_t n = tiling.bLength * tiling.sLength * tiling.hLength;
    TPipe pipe;
    TBuf<TPosition::VECCALC> xb, gb, yb;
    pipe.InitBuffer(xb, n * sizeof(float));
    pipe.InitBuffer(gb, tiling.hLength * sizeof(float));
    pipe.InitBuffer(yb, n * sizeof(float));
    GlobalTensor<float> xGm, gGm, yGm;
    xGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    gGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(gamma), tiling.hLength);
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), n);
    LocalTensor<float> xl = xb.Get<float>(), gl = gb.Get<float>(), yl = yb.Get<float>();
    DataCopy(xl, xGm, n);
    DataCopy(gl, gGm, tiling.hLength);
    SetFlag<HardEvent::MTE2_V>(0);  // the loads land before the vector pipe reads them
    WaitFlag<HardEvent::MTE2_V>(0);
    RmsNorm<float>(yl, xl, gl, epsilon, tiling);
    SetFlag<HardEvent::V_MTE3>(0);  // the vector results are written before the store reads them
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(yGm, yl, n);
}
