#include "kernel_operator.h"
// Ascend C kernels for tests/test_sim_foreign_block.py: accesses through pointers computed from one
// argument that land in a live tensor the kernel was not given (gm-foreign-block), and pointers the
// kernel legitimately reads from GM it was given (a table of addresses).  The line that breaks a
// rule ends with a `BAD(<what>)` comment the tests look up.
using namespace AscendC;

// DataCopy of n floats (n a multiple of 8) from x to a GlobalTensor set to x + off bytes: with off
// pointing into another live tensor, a miscomputed output pointer.
extern "C" __global__ __aicore__ void gt_copy_at(GM_ADDR x, int64_t off, uint32_t n)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, n * sizeof(float));
    GlobalTensor<float> src, dst;
    src.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x), n);
    dst.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(x + off), n);
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, src, n);
    q.EnQue(t);
    t = q.DeQue<float>();
    DataCopy(dst, t, n);  // BAD(gt-foreign)
    q.FreeTensor(t);
}

// Every block stores n floats of 9.0 at x + off bytes through a raw pointer.
extern "C" __global__ __aicore__ void raw_fill_at(GM_ADDR x, int64_t off, uint32_t n)
{
    __gm__ float *o = reinterpret_cast<__gm__ float *>(x + off);
    for (uint32_t i = 0; i < n; ++i) o[i] = 9.0f;  // BAD(raw-foreign)
}

// out[i] = src[i] + 1 for n floats, where src is the address stored in table[k] (a tensor list):
// reachable through GM the kernel was given.
extern "C" __global__ __aicore__ void table_add_one(GM_ADDR table, GM_ADDR out, uint32_t k, uint32_t n)
{
    const uint64_t addr = reinterpret_cast<const __gm__ uint64_t *>(table)[k];
    const __gm__ float *src = reinterpret_cast<const __gm__ float *>(static_cast<uintptr_t>(addr));
    __gm__ float *o = reinterpret_cast<__gm__ float *>(out);
    for (uint32_t i = 0; i < n; ++i) o[i] = src[i] + 1.0f;  // BAD(table-load)
}

// A tiling struct passed by value that carries an address (a word of the argument blob).
struct AddrTiling {
    uint32_t n;
    uint32_t pad;
    uint64_t src;
};

// out[i] = src[i] + 1 for t.n floats, src = t.src: reachable through the argument blob itself.
extern "C" __global__ __aicore__ void struct_add_one(AddrTiling t, GM_ADDR out)
{
    const __gm__ float *src = reinterpret_cast<const __gm__ float *>(static_cast<uintptr_t>(t.src));
    __gm__ float *o = reinterpret_cast<__gm__ float *>(out);
    for (uint32_t i = 0; i < t.n; ++i) o[i] = src[i] + 1.0f;  // BAD(struct-load)
}
