// A mixed cube/vector kernel in the style of public mixed kernels (kernel_api/COMPAT.md, "Mixed
// kernels split with #if"), written for pyasc: the cube and vector halves are separate classes of the
// same name, chosen by #if defined(__DAV_C220_CUBE__) / #elif defined(__DAV_C220_VEC__), as the NPU
// toolchain compiles the file once per core kind and each core runs its own half.
//
// mix_split:       per AI Core g (1 AIC + 2 AIV): the AIC computes c = a[g] (16 x 32 half) @ b^T
//                  (b: 16 x 32 half) into L0C and moves it (16 x 16 float, Fixpipe) to the GM
//                  workspace, then CrossCoreSetFlag; each AIV waits for the flag, reads its 8 rows back
//                  and writes y = relu(c) * alpha + 1 to out[g][8 * sub ...].
// mix_split_info:  what each core of a block sees, one row of 8 int32 per core (AIC, AIV 0, AIV 1):
//                  the core macros, ASCEND_IS_AIC, g_coreType, GetSubBlockIdx, a per-pass inline
//                  function's static (PassTag) and the same-named class's answer (Part::Kind).
// mix_split_tag<T>: a template kernel's instance, split the same way (below).
#include "kernel_operator.h"

using namespace AscendC;

namespace {
constexpr uint32_t M = 16;
constexpr uint32_t K = 32;
constexpr uint32_t N = 16;
constexpr uint32_t HALF_ROWS = M / 2;
constexpr int32_t FLAG_TILE_READY = 5;
}  // namespace

#if defined(__DAV_C220_CUBE__)

// the cube pass's tag: an inline function's static, one per pass
inline int32_t PassTag() {
    static int32_t tag = 100;
    return tag;
}

class Part {
public:
    __aicore__ inline int32_t Kind() const { return 1; }
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR, float) {
        aGm.SetGlobalBuffer((__gm__ half *)a + GetBlockIdx() * M * K, M * K);
        bGm.SetGlobalBuffer((__gm__ half *)b, N * K);
        wsGm.SetGlobalBuffer((__gm__ float *)ws + GetBlockIdx() * M * N, M * N);
        pipe.InitBuffer(qa, 1, M * K * sizeof(half));
        pipe.InitBuffer(qb, 1, N * K * sizeof(half));
        pipe.InitBuffer(qc, 1, M * N * sizeof(float));
    }
    __aicore__ inline void Process() {
        LocalTensor<half> a1 = qa.AllocTensor<half>();
        LocalTensor<half> b1 = qb.AllocTensor<half>();
        DataCopy(a1, aGm, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
        DataCopy(b1, bGm, Nd2NzParams(1, N, K, 0, K, N, 1, 0));
        qa.EnQue(a1);
        qb.EnQue(b1);
        a1 = qa.DeQue<half>();
        b1 = qb.DeQue<half>();
        LocalTensor<half> a0(TPosition::A2, 0, M * K);  // static L0A / L0B tensors
        LocalTensor<half> b0(TPosition::B2, 0, N * K);
        LoadData(a0, a1, LoadData2dParams(0, M * K / 256, 1, 0, 0, false, 0));
        LoadData(b0, b1, LoadData2dParams(0, N * K / 256, 1, 0, 0, false, 0));
        SetFlag<HardEvent::MTE1_M>(EVENT_ID0);
        WaitFlag<HardEvent::MTE1_M>(EVENT_ID0);
        LocalTensor<float> c0 = qc.AllocTensor<float>();
        Mmad(c0, a0, b0, MmadParams(M, N, K, 0, false, true));
        SetFlag<HardEvent::M_FIX>(EVENT_ID0);
        WaitFlag<HardEvent::M_FIX>(EVENT_ID0);
        FixpipeParamsV220 fp(N, M, M, N, false);
        fp.quantPre = QuantMode_t::NoQuant;
        Fixpipe<float, float, CFG_ROW_MAJOR>(wsGm, c0, fp);
        qa.FreeTensor(a1);
        qb.FreeTensor(b1);
        qc.FreeTensor(c0);
        CrossCoreSetFlag<2, PIPE_FIX>(FLAG_TILE_READY);  // the tile is in GM: both AIV may read it
    }

private:
    TPipe pipe;
    TQue<QuePosition::B1, 1> qa, qb;
    TQue<QuePosition::CO1, 1> qc;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> wsGm;
};

#elif defined(__DAV_C220_VEC__)

// the vector pass's tag
inline int32_t PassTag() {
    static int32_t tag = 200;
    return tag;
}

class Part {
public:
    __aicore__ inline int32_t Kind() const { return 2; }
    __aicore__ inline void Init(GM_ADDR, GM_ADDR, GM_ADDR ws, GM_ADDR out, float alpha) {
        const uint32_t group = GetBlockIdx() / GetTaskRation();
        const uint32_t rows = GetSubBlockIdx() * HALF_ROWS * N;
        wsGm.SetGlobalBuffer((__gm__ float *)ws + group * M * N + rows, HALF_ROWS * N);
        outGm.SetGlobalBuffer((__gm__ float *)out + group * M * N + rows, HALF_ROWS * N);
        scale = alpha;
        pipe.InitBuffer(inQ, 1, HALF_ROWS * N * sizeof(float));
        pipe.InitBuffer(outQ, 1, HALF_ROWS * N * sizeof(float));
    }
    __aicore__ inline void Process() {
        CrossCoreWaitFlag(FLAG_TILE_READY);  // the AIC's Fixpipe result is in GM
        LocalTensor<float> in = inQ.AllocTensor<float>();
        DataCopy(in, wsGm, HALF_ROWS * N);
        inQ.EnQue(in);
        in = inQ.DeQue<float>();
        LocalTensor<float> y = outQ.AllocTensor<float>();
        Relu(y, in, HALF_ROWS * N);
        PipeBarrier<PIPE_V>();
        Muls(y, y, scale, HALF_ROWS * N);
        PipeBarrier<PIPE_V>();
        Adds(y, y, 1.0f, HALF_ROWS * N);
        outQ.EnQue(y);
        inQ.FreeTensor(in);
        y = outQ.DeQue<float>();
        DataCopy(outGm, y, HALF_ROWS * N);
        outQ.FreeTensor(y);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    GlobalTensor<float> wsGm, outGm;
    float scale = 0.0f;
};

#endif

extern "C" __global__ __aicore__ void mix_split(GM_ADDR a, GM_ADDR b, GM_ADDR ws, GM_ADDR out, float alpha) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    Part op;
    op.Init(a, b, ws, out, alpha);
    op.Process();
}

extern "C" __global__ __aicore__ void mix_split_info(GM_ADDR info) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    const bool aic = ASCEND_IS_AIC;
    const uint32_t group = aic ? GetBlockIdx() : GetBlockIdx() / GetTaskRation();
    const uint32_t core = aic ? 0 : 1 + GetSubBlockIdx();
    GlobalTensor<int32_t> row;
    // one 64-byte data-cache line per core: cores storing into one line would race (gm-cache-line-share)
    row.SetGlobalBuffer((__gm__ int32_t *)info + (group * 3 + core) * 16, 8);
#if defined(__DAV_C220_CUBE__)
    row.SetValue(0, 1);
#else
    row.SetValue(0, 0);
#endif
#if defined(__DAV_C220_VEC__)
    row.SetValue(1, 1);
#else
    row.SetValue(1, 0);
#endif
    row.SetValue(2, aic ? 1 : 0);
    row.SetValue(3, static_cast<int32_t>(g_coreType));
    row.SetValue(4, static_cast<int32_t>(GetSubBlockIdx()));
    row.SetValue(5, PassTag());
    row.SetValue(6, Part().Kind());
    row.SetValue(7, static_cast<int32_t>(GetBlockIdx()));
}

// mix_split_tag<T>: a template kernel instance built per core kind too: each core of block 0 writes
// its pass's PassTag() + sizeof(T) at out[16 * core] (core 0 the AIC, 1 + sub the AIV; a cache line each).
template <typename T>
__global__ __aicore__ void mix_split_tag(GM_ADDR out) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    const uint32_t core = ASCEND_IS_AIC ? 0 : 1 + GetSubBlockIdx();
    if ((ASCEND_IS_AIC ? GetBlockIdx() : GetBlockIdx() / GetTaskRation()) != 0) {
        return;
    }
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out + 16 * core, 8);
    o.SetValue(0, PassTag() + static_cast<int32_t>(sizeof(T)));
}
template __global__ __aicore__ void mix_split_tag<float>(GM_ADDR out);

// mix_split_vec_only: a vector-only kernel (KERNEL_TYPE_AIV_ONLY) in the same file: its blocks run on
// AIV, so they run the vector pass: out = {cube macro, vector macro, PassTag(), Part::Kind()}.
extern "C" __global__ __aicore__ void mix_split_vec_only(GM_ADDR out) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 8);
#if defined(__DAV_C220_CUBE__)
    o.SetValue(0, 1);
#else
    o.SetValue(0, 0);
#endif
#if defined(__DAV_C220_VEC__)
    o.SetValue(1, 1);
#else
    o.SetValue(1, 0);
#endif
    o.SetValue(2, PassTag());
    o.SetValue(3, Part().Kind());
}

// mix_split_vec_only_tpl<T>: a vector-only TEMPLATE kernel (public template op kernels declare the task
// type in their body too): its one core per block is an AIV, so it runs only the vector pass:
// out[0..3] = {cube macro, vector macro, PassTag(), sizeof(T)}; out[8] counts the passes that ran.
template <typename T>
__global__ __aicore__ void mix_split_vec_only_tpl(GM_ADDR out) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 16);
#if defined(__DAV_C220_CUBE__)
    o.SetValue(0, 1);
#else
    o.SetValue(0, 0);
#endif
#if defined(__DAV_C220_VEC__)
    o.SetValue(1, 1);
#else
    o.SetValue(1, 0);
#endif
    o.SetValue(2, PassTag());
    o.SetValue(3, static_cast<int32_t>(sizeof(T)));
    o.SetValue(8, o.GetValue(8) + 1);
}
template __global__ __aicore__ void mix_split_vec_only_tpl<half>(GM_ADDR out);

// mix_split_handback: the AIV hand a flag back to their AIC (CrossCoreSetFlag<2> from the vector half, the
// AIC's CrossCoreWaitFlag<2>), as public mixed kernels end a phase; the AIC then writes 7 to out[0]. With
// `bad` != 0 each AIV first asks a 32-byte TBuf for 64 floats (local-out-of-bounds) and never sets the flag:
// the launch reports the AIV's own failure, not the AIC's consequent cross-core deadlock.
extern "C" __global__ __aicore__ void mix_split_handback(GM_ADDR out, int32_t bad) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    constexpr int32_t FLAG_BACK = 9;
#if defined(__DAV_C220_CUBE__)
    CrossCoreWaitFlag<2, PIPE_MTE3>(FLAG_BACK);
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    o.SetValue(0, 7);
#elif defined(__DAV_C220_VEC__)
    if (bad != 0) {
        TPipe pipe;
        TBuf<TPosition::VECCALC> tiny;
        pipe.InitBuffer(tiny, 32);
        LocalTensor<float> t = tiny.Get<float>(64);
        Duplicate(t, 0.0f, 8);
    }
    CrossCoreSetFlag<2, PIPE_MTE3>(FLAG_BACK);
#endif
}
