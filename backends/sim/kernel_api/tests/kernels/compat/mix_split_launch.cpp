// A kernel-launch source whose mixed cube/vector kernels keep their halves apart with
// #if defined(__DAV_C220_CUBE__) / #elif defined(__DAV_C220_VEC__), launched from host code with
// <<<...>>> as public samples do (a template kernel from a template host launcher, and an extern "C"
// kernel). Written for pyasc in the public style; the NPU toolchain compiles the file once per core
// kind, so each core runs its own half.
//
// mix_launch<T>(x, y, ws, info, base), blockDim AI Cores of one AIC and two AIV (KERNEL_TYPE_MIX_AIC_1_2):
//   the AIC of core g writes the scale base + g to ws[16 * g] and signals its AIV (CrossCoreSetFlag);
//   AIV sub of core g waits, then writes y = x * scale on its CHUNK elements (block 2 * g + sub).
//   Every core writes {cube macro, vector macro, ASCEND_IS_AIC, PassTag()} to its own 64-byte row of
//   info (row 3 * g + core, core 0 the AIC, 1 + sub the AIV).
#include "kernel_operator.h"
using namespace AscendC;

constexpr uint32_t CHUNK = 64;
constexpr int32_t FLAG_SCALE = 4;

__aicore__ inline void WriteInfo(GM_ADDR info, uint32_t group, uint32_t core, int32_t tag)
{
    GlobalTensor<int32_t> row;
    row.SetGlobalBuffer((__gm__ int32_t *)info + (group * 3 + core) * 16, 16);  // a data-cache line per core
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
    row.SetValue(2, ASCEND_IS_AIC ? 1 : 0);
    row.SetValue(3, tag);
}

#if defined(__DAV_C220_CUBE__)

inline int32_t PassTag() { return 100; }

template <typename T>
class MixScale {
public:
    __aicore__ inline void Run(GM_ADDR, GM_ADDR, GM_ADDR ws, GM_ADDR info, float base)
    {
        GlobalTensor<float> scale;
        scale.SetGlobalBuffer((__gm__ float *)ws + 16 * GetBlockIdx(), 16);
        scale.SetValue(0, base + static_cast<float>(GetBlockIdx()));
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE>(scale);
        WriteInfo(info, GetBlockIdx(), 0, PassTag());
        CrossCoreSetFlag<0x2, PIPE_FIX>(FLAG_SCALE);  // both AIV of this core may read the scale
    }
};

#elif defined(__DAV_C220_VEC__)

inline int32_t PassTag() { return 200; }

template <typename T>
class MixScale {
public:
    __aicore__ inline void Run(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR info, float base)
    {
        (void)base;
        const uint32_t group = GetBlockIdx() / GetTaskRation();
        CrossCoreWaitFlag(FLAG_SCALE);
        GlobalTensor<float> scale;
        scale.SetGlobalBuffer((__gm__ float *)ws + 16 * group, 16);
        DataCacheCleanAndInvalid<float, CacheLine::SINGLE_CACHE_LINE>(scale);
        const float s = scale.GetValue(0);
        GlobalTensor<T> xGm, yGm;
        xGm.SetGlobalBuffer((__gm__ T *)x + GetBlockIdx() * CHUNK, CHUNK);
        yGm.SetGlobalBuffer((__gm__ T *)y + GetBlockIdx() * CHUNK, CHUNK);
        TPipe pipe;
        TQue<QuePosition::VECIN, 1> inQ;
        TQue<QuePosition::VECOUT, 1> outQ;
        pipe.InitBuffer(inQ, 1, CHUNK * sizeof(T));
        pipe.InitBuffer(outQ, 1, CHUNK * sizeof(T));
        LocalTensor<T> a = inQ.AllocTensor<T>();
        DataCopy(a, xGm, CHUNK);
        inQ.EnQue(a);
        a = inQ.DeQue<T>();
        LocalTensor<T> b = outQ.AllocTensor<T>();
        Muls(b, a, static_cast<T>(s), CHUNK);
        outQ.EnQue(b);
        inQ.FreeTensor(a);
        b = outQ.DeQue<T>();
        DataCopy(yGm, b, CHUNK);
        outQ.FreeTensor(b);
        WriteInfo(info, group, 1 + GetSubBlockIdx(), PassTag());
    }
};

#endif

template <typename T>
__global__ __aicore__ void mix_launch(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR info, float base)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    MixScale<T> op;
    op.Run(x, y, ws, info, base);
}

extern "C" __global__ __aicore__ void mix_launch_c(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR info, float base)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    MixScale<float> op;
    op.Run(x, y, ws, info, base);
}

namespace demo {
// A template host launcher: its own parameter picks the kernel instance.
template <typename T>
void mix_launch_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *ws, uint8_t *info, float base)
{
    mix_launch<T><<<blockDim, nullptr, stream>>>(x, y, ws, info, base);
}
}  // namespace demo

void mix_launch_float(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *ws, uint8_t *info, float base)
{
    demo::mix_launch_do<float>(blockDim, stream, x, y, ws, info, base);
}

void mix_launch_half(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *ws, uint8_t *info, float base)
{
    mix_launch<half><<<blockDim, nullptr, stream>>>(x, y, ws, info, base);
}

void mix_launch_c_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *y, uint8_t *ws, uint8_t *info, float base)
{
    mix_launch_c<<<blockDim, nullptr, stream>>>(x, y, ws, info, base);
}

// mix_dav(info): the generic core macros bisheng defines too (__DAV_CUBE__ / __DAV_VEC__), one pass per
// core kind as well: each core writes {__DAV_CUBE__, __DAV_VEC__} to its 64-byte row of info.
extern "C" __global__ __aicore__ void mix_dav(GM_ADDR info)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    const bool aic = ASCEND_IS_AIC;
    const uint32_t group = aic ? GetBlockIdx() : GetBlockIdx() / GetTaskRation();
    GlobalTensor<int32_t> row;
    row.SetGlobalBuffer((__gm__ int32_t *)info + (group * 3 + (aic ? 0 : 1 + GetSubBlockIdx())) * 16, 16);
#if defined(__DAV_CUBE__)
    row.SetValue(0, 1);
#else
    row.SetValue(0, 0);
#endif
#ifdef __DAV_VEC__
    row.SetValue(1, 1);
#else
    row.SetValue(1, 0);
#endif
}

void mix_dav_do(uint32_t blockDim, void *stream, uint8_t *info)
{
    mix_dav<<<blockDim, nullptr, stream>>>(info);
}

// vec_only_tpl<T>(out): a vector-only TEMPLATE kernel in this split file, launched with <<<>>>: each
// block is one AIV running the vector pass only: out[16 * block + 0..3] = {cube macro, vector macro,
// PassTag(), sizeof(T)}, out[16 * block + 8] counts the passes that ran.
template <typename T>
__global__ __aicore__ void vec_only_tpl(GM_ADDR out)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<int32_t> row;
    row.SetGlobalBuffer((__gm__ int32_t *)out + 16 * GetBlockIdx(), 16);
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
    row.SetValue(2, PassTag());
    row.SetValue(3, static_cast<int32_t>(sizeof(T)));
    row.SetValue(8, row.GetValue(8) + 1);
}

void vec_only_do(uint32_t blockDim, void *stream, uint8_t *out)
{
    vec_only_tpl<half><<<blockDim, nullptr, stream>>>(out);
}
