// Idioms of the tenth public-kernel study (kernel_api/COMPAT.md, round 10), written for pyasc in the
// style of the public kernels studied: the newer SDK header path, the CPU-debug globals block_idx /
// block_num and the builtins get_block_idx() / get_block_num(), likely(), AscendC::AlignUp,
// AllocTensor / FreeTensor on a TBuf, LocalMemAllocator (static tensors), the CCE data-move builtins
// copy_gm_to_ubuf_align_b32 / copy_ubuf_to_gm_align_b16 behind DataCopyPad, and std::cout in the
// CPU-debug build (__CCE_KT_TEST__), float32_t.
#include "acl/acl_base.h"
#include "ascendc/basic_api/kernel_operator.h"

using namespace AscendC;

// y[block rows] = x[block rows] * 2 + block index; rows of `cols` floats (cols need not fill 32 bytes).
extern "C" __global__ __aicore__ void rows_scale_plus_block(GM_ADDR x, GM_ADDR y, uint32_t rowsPerBlock, uint32_t cols)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    const uint32_t alignCols = AlignUp(cols, 8u);  // rows padded to 32 bytes in UB
    pipe.InitBuffer(buf, rowsPerBlock * alignCols * sizeof(float));
    int64_t first = block_idx * rowsPerBlock;
    if (likely(block_idx < block_num)) {
        LocalTensor<float> t = buf.AllocTensor<float>();
        __gm__ float *src = (__gm__ float *)x + first * cols;
        __gm__ float *dst = (__gm__ float *)y + first * cols;
        copy_gm_to_ubuf_align_b32((__ubuf__ float *)t.GetPhyAddr(), src, 0, rowsPerBlock, cols * sizeof(float), 0, 0, 0, 0);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Muls(t, t, 2.0f, rowsPerBlock * alignCols);
        Adds(t, t, static_cast<float>(get_block_idx()), rowsPerBlock * alignCols);
        SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
        // the b16 form moves the same bytes (the public kernels call it on float data too)
        copy_ubuf_to_gm_align_b16(dst, (__ubuf__ float *)t.GetPhyAddr(), 0, rowsPerBlock, cols * sizeof(float), 0, 0, 0, 0);
        buf.FreeTensor(t);
    }
#ifdef __CCE_KT_TEST__
    if (get_block_idx() == 0 && get_block_num() < 0) std::cout << "unreachable" << std::endl;
#endif
}

// Static tensors from a LocalMemAllocator: out = a + b (n floats, n a multiple of 8), one block.
extern "C" __global__ __aicore__ void allocator_add(GM_ADDR a, GM_ADDR b, GM_ADDR out, GM_ADDR addrs, uint32_t n)
{
    LocalMemAllocator<Hardware::UB> ub;
    LocalTensor<float> ta = ub.Alloc<float>(n);
    LocalTensor<float> tb = ub.Alloc<TPosition::VECIN, float>(n);
    LocalTensor<float32_t> tc = ub.Alloc<float32_t, 64>();  // float32_t: the toolchain's alias of float
    GlobalTensor<float> ga, gb, go;
    ga.SetGlobalBuffer((__gm__ float *)a, n);
    gb.SetGlobalBuffer((__gm__ float *)b, n);
    go.SetGlobalBuffer((__gm__ float *)out, n);
    GlobalTensor<uint32_t> gaddr;
    gaddr.SetGlobalBuffer((__gm__ uint32_t *)addrs, 8);
    DataCopy(ta, ga, n);
    DataCopy(tb, gb, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Add(tc, ta, tb, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(go, tc, n);
    gaddr.SetValue(0, static_cast<uint32_t>(reinterpret_cast<uint8_t *>(tb.GetPhyAddr()) - reinterpret_cast<uint8_t *>(ta.GetPhyAddr())));
    gaddr.SetValue(1, static_cast<uint32_t>(reinterpret_cast<uint8_t *>(tc.GetPhyAddr()) - reinterpret_cast<uint8_t *>(ta.GetPhyAddr())));
    gaddr.SetValue(2, ub.GetCurAddr());
}

// Asks a LocalMemAllocator for `n` floats twice: past the UB end the static-tensor check reports it.
extern "C" __global__ __aicore__ void allocator_overflow(GM_ADDR out, uint32_t n)
{
    LocalMemAllocator<> ub;
    LocalTensor<float> t0 = ub.Alloc<float>(n);
    LocalTensor<float> t1 = ub.Alloc<float>(n);
    Duplicate(t1, 1.0f, 8);
    (void)t0;
    (void)out;
}
