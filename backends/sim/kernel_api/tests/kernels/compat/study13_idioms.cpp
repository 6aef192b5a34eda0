#include "kernel_operator.h"
// Idioms of round 13's public kernel (RecSDK's c310 block_bucketize_sparse_features), in its style:
// a tensor-list argument parsed with ListTensorDesc / TensorDesc (kernel_operator_list_tensor_intf.h),
// scalar GM stores flushed with the dcci intrinsic and its cache_line_t / dcci_dst_t enums, and on the
// Atlas 350 / Ascend 950 a SIMT bucketing pass: fast division by a fixed divisor (GetUintDivMagicAndShift
// on the scalar side, Simt::UintDiv / asc_uintdiv in the VF function) and per-bucket counters in UB
// counted with asc_atomic_add (simt_api/device_atomic_functions.h).
#include "kernel_operator_list_tensor_intf.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

// Lays out a list of the three 1-D int32 tensors a, b, c in `list` the way the framework does (the data-pointer
// offset, one [dim | index << 32, length] descriptor per tensor, the data pointers), flushes it, then reads it
// back through ListTensorDesc: out gets the tensors one after another, info the list's size and each tensor's
// dim, index, length and whether GetDataPtr / GetDataObj / TensorDesc::GetDataPtr agree with the argument.
extern "C" __global__ __aicore__ void study13_list_gather(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR list,
                                                          GM_ADDR out, GM_ADDR info, uint32_t na, uint32_t nb,
                                                          uint32_t nc)
{
    __gm__ uint64_t *words = reinterpret_cast<__gm__ uint64_t *>(list);
    GM_ADDR tensors[3] = {a, b, c};
    const uint64_t lens[3] = {na, nb, nc};
    words[0] = 8 + 3 * 2 * 8;
    for (uint64_t i = 0; i < 3; ++i) {
        words[1 + 2 * i] = 1 | (i << 32);
        words[2 + 2 * i] = lens[i];
        words[7 + i] = reinterpret_cast<uint64_t>(tensors[i]);
    }
    dcci(words, cache_line_t::SINGLE_CACHE_LINE, dcci_dst_t::CACHELINE_OUT);
    dcci(words + 8, cache_line_t::SINGLE_CACHE_LINE, dcci_dst_t::CACHELINE_OUT);

    ListTensorDesc listDesc;
    listDesc.Init(list, 8 + 3 * 2 * 8 + 3 * 8, 3);
    __gm__ int32_t *o = reinterpret_cast<__gm__ int32_t *>(out);
    __gm__ int64_t *inf = reinterpret_cast<__gm__ int64_t *>(info);
    inf[0] = listDesc.GetSize();
    uint64_t at = 0;
    for (uint32_t i = 0; i < listDesc.GetSize(); ++i) {
        uint64_t shape = 0;
        TensorDesc<int32_t> desc;
        desc.SetShapeAddr(&shape);
        listDesc.GetDesc(desc, i);
        GlobalTensor<int32_t> g = desc.GetDataObj();
        for (uint64_t k = 0; k < desc.GetShape(0); ++k) {
            o[at + k] = g.GetValue(k);
        }
        at += desc.GetShape(0);
        inf[1 + 4 * i] = desc.GetDim();
        inf[2 + 4 * i] = desc.GetIndex();
        inf[3 + 4 * i] = shape;
        inf[4 + 4 * i] = (listDesc.GetDataPtr<int32_t>(i) == reinterpret_cast<__gm__ int32_t *>(tensors[i])) &&
                         (desc.GetDataPtr() == listDesc.GetDataPtr<int32_t>(i));
    }
    dcci(out, 1, dcci_dst_t::CACHELINE_OUT);  // the whole data cache's GM lines
}

// Parses a list laid out by the caller (e.g. the pointer-only form: dim 0, the count in the header's high half,
// 0xffffffff, then the pointers): info gets its size and each data pointer.
extern "C" __global__ __aicore__ void study13_list_parse(GM_ADDR list, GM_ADDR info)
{
    ListTensorDesc listDesc(reinterpret_cast<__gm__ void *>(list));
    __gm__ uint64_t *inf = reinterpret_cast<__gm__ uint64_t *>(info);
    inf[0] = listDesc.GetSize();
    for (uint32_t i = 0; i < listDesc.GetSize(); ++i) {
        inf[1 + i] = reinterpret_cast<uint64_t>(listDesc.GetDataPtr<uint8_t>(i));
    }
    dcci(inf, cache_line_t::SINGLE_CACHE_LINE);
}

// RecSDK disentangle_attention's vector idioms: ClampMin / ClampMax with and without a temporary buffer, the SoftMax
// form with a temporary buffer and no sum / max outputs, ASCENDC_ASSERT, a MatmulType with its SRCPOS parameter.
static_assert(MatmulType<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NONE, false, TPosition::VECOUT>::srcPos ==
                  TPosition::VECOUT && MatmulType<TPosition::GM, CubeFormat::ND, half>::srcPos == TPosition::GM,
              "MatmulType's SRCPOS");

extern "C" __global__ __aicore__ void study13_clamp_softmax(GM_ADDR x, GM_ADDR clipped, GM_ADDR probs, uint32_t rows,
                                                            uint32_t cols)
{
    ASCENDC_ASSERT((rows * cols <= 1024), { KERNEL_LOG(KERNEL_ERROR, "too big: %u x %u", rows, cols); });
    const uint32_t n = rows * cols;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> tmpBuf;
    pipe.InitBuffer(inQ, 1, 1024 * sizeof(float));
    pipe.InitBuffer(outQ, 1, 2 * 1024 * sizeof(float));
    pipe.InitBuffer(tmpBuf, 8192);
    GlobalTensor<float> xGm, cGm, pGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    cGm.SetGlobalBuffer((__gm__ float *)clipped, n);
    pGm.SetGlobalBuffer((__gm__ float *)probs, n);
    LocalTensor<float> in = inQ.AllocTensor<float>();
    DataCopy(in, xGm, n);
    inQ.EnQue(in);
    in = inQ.DeQue<float>();
    LocalTensor<uint8_t> tmp = tmpBuf.Get<uint8_t>();
    LocalTensor<float> out = outQ.AllocTensor<float>();
    ClampMin(out, in, tmp, -0.5f, n);
    ClampMax(out, out, 0.5f, n);
    SoftMaxTiling tiling{};
    SoftMaxShapeInfo shape = {rows, cols, rows, cols};
    SoftMax<float>(out[1024], in, tmp, tiling, shape);
    outQ.EnQue(out);
    out = outQ.DeQue<float>();
    DataCopy(cGm, out, n);
    DataCopy(pGm, out[1024], n);
    outQ.FreeTensor(out);
    inQ.FreeTensor(in);
}

#if __CCE_AICORE__ == 310
#include "simt_api/device_atomic_functions.h"
#include "simt_api/device_warp_functions.h"

constexpr int32_t BUCKET_THREADS = 256;

// Each thread buckets x[i] (i strided by the thread count) by its remainder mod d: q = x / d through the
// precomputed magic / shift, counts[r] += 1 with asc_atomic_add on a UB counter; the 64-bit path divides
// x64 by d64 through asc_uintdiv.
__simt_vf__ __aicore__ LAUNCH_BOUND(BUCKET_THREADS) inline void BucketVf(
    __gm__ uint32_t *x, __gm__ uint32_t *q, __gm__ int32_t *counts, __ubuf__ int32_t *ubCounts, uint32_t n,
    uint32_t d, uint32_t magic, uint32_t shift, __gm__ uint64_t *x64, __gm__ uint64_t *q64, uint64_t magic64,
    uint64_t shift64)
{
    const int32_t tid = Simt::GetThreadIdx<0>();
    const int32_t threads = Simt::GetThreadNum<0>();
    for (uint32_t b = tid; b < d; b += threads) {
        ubCounts[b] = 0;
    }
    Simt::ThreadBarrier();
    for (uint32_t i = tid; i < n; i += threads) {
        const uint32_t quo = Simt::UintDiv<uint32_t>(x[i], magic, shift);
        q[i] = quo;
        const int32_t before = asc_atomic_add(&ubCounts[x[i] - quo * d], 1);
        (void)before;
        q64[i] = asc_uintdiv(x64[i], magic64, shift64);
    }
    Simt::ThreadBarrier();
    for (uint32_t b = tid; b < d; b += threads) {
        counts[b] = ubCounts[b];
    }
}

extern "C" __global__ __aicore__ void study13_simt_bucket(GM_ADDR x, GM_ADDR q, GM_ADDR counts, GM_ADDR x64,
                                                          GM_ADDR q64, uint32_t n, uint32_t d, uint64_t d64)
{
    uint32_t magic = 0, shift = 0;
    GetUintDivMagicAndShift<uint32_t>(magic, shift, d);
    uint64_t magic64 = 0, shift64 = 0;
    asc_get_uintdiv_magic_and_shift(magic64, shift64, d64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024 * sizeof(int32_t));
    LocalTensor<int32_t> ub = buf.Get<int32_t>();
    asc_vf_call<BucketVf>(dim3{BUCKET_THREADS}, (__gm__ uint32_t *)x, (__gm__ uint32_t *)q, (__gm__ int32_t *)counts,
                          reinterpret_cast<__ubuf__ int32_t *>(ub.GetPhyAddr()), n, d, magic, shift,
                          (__gm__ uint64_t *)x64, (__gm__ uint64_t *)q64, magic64, shift64);
}

// GetUintDivMagicAndShift with a divisor outside [1, INT32_MAX]: an invalid-argument error.
extern "C" __global__ __aicore__ void study13_bad_divisor(GM_ADDR out, uint32_t d)
{
    uint32_t magic = 0, shift = 0;
    GetUintDivMagicAndShift<uint32_t>(magic, shift, d);
    *reinterpret_cast<__gm__ uint32_t *>(out) = magic;
}
#endif
