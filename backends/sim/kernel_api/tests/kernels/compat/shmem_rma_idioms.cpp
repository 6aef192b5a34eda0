// Compatibility kernels (ours, in the style of public SHMEM-SDK collectives such as sgl-kernel-npu's zccl
// all-gather / reduce-scatter and the deepep notify kernels): PE identity from the team, a symmetric
// `gva` buffer passed by the host (shmem_malloc), MTE puts / gets through a UB buffer to and from other
// PEs, signal words set with shmemx_signal_op and awaited with shmem_signal_wait_until, barriers across
// PEs. tests/test_sim_compat_shmem.py runs them on 2-4 PEs (pyasc_sim.shmem.Team) against NumPy.
#include "kernel_operator.h"
#include "shmem_api.h"

using namespace AscendC;

namespace {
constexpr uint32_t kSyncInterval = 16;  // int32 per signal word: one 64-byte line each (as zccl)
constexpr uint32_t kUbBytes = 16 * 1024;

// The block's share [start, start + len) of n elements split over the PE's blocks.
__aicore__ inline void split(uint32_t n, uint32_t &start, uint32_t &len)
{
    const uint32_t blocks = GetBlockNum();
    const uint32_t idx = GetBlockIdx();
    const uint32_t base = n / blocks;
    const uint32_t rem = n % blocks;
    len = base + (idx < rem ? 1 : 0);
    start = idx * base + (idx < rem ? idx : rem);
}
}  // namespace

// Each PE and block reports who it is: ids[pe][block] = {my_pe, n_pes, GetBlockIdx, GetBlockNum, UB_ALIGN_SIZE}
// (ids is the PE's own output buffer; 16 int32 -- one 64-byte line -- per block).
extern "C" __global__ __aicore__ void shmem_identity(GM_ADDR ids)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<int32_t> out;
    out.SetGlobalBuffer((__gm__ int32_t *)ids + GetBlockIdx() * 16, 16);
    out.SetValue(0, shmem_my_pe());
    out.SetValue(1, shmem_team_n_pes(SHMEM_TEAM_WORLD));
    out.SetValue(2, static_cast<int32_t>(GetBlockIdx()));
    out.SetValue(3, static_cast<int32_t>(GetBlockNum()));
    out.SetValue(4, static_cast<int32_t>(UB_ALIGN_SIZE));  // the SDK's global constant (deepep's comm args use it)
    DataCacheCleanAndInvalid<int32_t, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(out);
}

// All-gather: every PE puts its n floats into slot my_pe of the symmetric gva on every PE, all PEs
// meet, then each PE gets the n_pes * n gathered floats from its own gva into y (in chunks of the UB buffer).
extern "C" __global__ __aicore__ void shmem_allgather(GM_ADDR x, GM_ADDR gva, GM_ADDR y, uint32_t n)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const int me = shmem_my_pe();
    const int npes = shmem_n_pes();
    uint32_t start, len;
    split(n, start, len);
    GlobalTensor<float> xGm, gvaGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    gvaGm.SetGlobalBuffer((__gm__ float *)gva, npes * n);
    yGm.SetGlobalBuffer((__gm__ float *)y, npes * n);
    LocalTensor<float> buf(TPosition::VECIN, 0, kUbBytes / sizeof(float));
    for (int pe = 0; pe < npes; ++pe) {
        if (len != 0) {
            shmem_mte_put_mem_nbi(gvaGm[me * n + start], xGm[start], buf, len, pe, EVENT_ID0);
        }
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    shmem_quiet();
    shmem_barrier_all();
    for (int pe = 0; pe < npes; ++pe) {  // own symmetric memory -> y (a get from this PE, as zccl's all-gather)
        if (len != 0) {
            shmem_mte_get_mem_nbi(yGm[pe * n + start], gvaGm[pe * n + start], buf, len, me, EVENT_ID0);
        }
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
}

// Ring: PE p puts its n floats into the data area of PE (p + 1) % n_pes, then sets that PE's signal word
// for this block to `magic`; every PE waits for its own word and copies what arrived to y.
// gva: [signals: GetBlockNum() * kSyncInterval int32][data: n floats].  y = x of PE (p - 1) % n_pes.
extern "C" __global__ __aicore__ void shmem_ring(GM_ADDR x, GM_ADDR gva, GM_ADDR y, uint32_t n, int32_t magic)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const int me = shmem_team_my_pe(SHMEM_TEAM_WORLD);
    const int next = (me + 1) % shmem_team_n_pes(SHMEM_TEAM_WORLD);
    uint32_t start, len;
    split(n, start, len);
    __gm__ int32_t *sig = (__gm__ int32_t *)gva + GetBlockIdx() * kSyncInterval;
    __gm__ float *data = (__gm__ float *)((__gm__ int32_t *)gva + GetBlockNum() * kSyncInterval);
    GlobalTensor<float> xGm, dataGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    dataGm.SetGlobalBuffer(data, n);
    yGm.SetGlobalBuffer((__gm__ float *)y, n);
    LocalTensor<float> buf(TPosition::VECIN, 0, kUbBytes / sizeof(float));
    if (len != 0) {
        shmem_mte_put_mem_nbi(dataGm[start], xGm[start], buf, len, next, EVENT_ID1);
    }
    shmem_quiet();
    shmemx_signal_op(sig, magic, SHMEM_SIGNAL_SET, next);
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, magic);
    if (len != 0) {
        const DataCopyExtParams p{1, static_cast<uint32_t>(len * sizeof(float)), 0, 0, 0};
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID1);
        DataCopyPad(buf, dataGm[start], p, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID1);
        DataCopyPad(yGm[start], buf, p);
    }
}

// Reduce-scatter (zccl's small-data path): each PE copies its n_pes * chunk input into its own gva data
// area, its blocks meet (shmemi_barrier_core_soft), each block announces it with its signal word, waits
// for the same block of every other PE and gets that PE's chunk my_pe with SetAtomicAdd into y.
// y (chunk floats, zeroed by the host) = sum over PEs q of x_q[my_pe * chunk .. + chunk].
// gva: [signals: GetBlockNum() * kSyncInterval int32][data: n_pes * chunk floats].
extern "C" __global__ __aicore__ void shmem_reduce_scatter(GM_ADDR x, GM_ADDR gva, GM_ADDR y, uint32_t chunk,
                                                           int32_t magic)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const int me = shmem_my_pe();
    const int npes = shmem_n_pes();
    uint32_t start, len;
    split(chunk, start, len);
    __gm__ int32_t *sig = (__gm__ int32_t *)gva + GetBlockIdx() * kSyncInterval;
    GlobalTensor<float> xGm, dataGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, npes * chunk);
    dataGm.SetGlobalBuffer((__gm__ float *)((__gm__ int32_t *)gva + GetBlockNum() * kSyncInterval), npes * chunk);
    yGm.SetGlobalBuffer((__gm__ float *)y, chunk);
    LocalTensor<float> buf(TPosition::VECIN, 0, kUbBytes / sizeof(float));
    for (int q = 0; q < npes && len != 0; ++q) {  // local input -> own symmetric memory
        shmem_mte_put_mem_nbi(dataGm[q * chunk + start], xGm[q * chunk + start], buf, len, me, EVENT_ID0);
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    shmem_quiet();
    shmemi_barrier_core_soft();
    shmemx_signal_op(sig, magic, SHMEM_SIGNAL_SET, me);
    SetAtomicAdd<float>();
    for (int q = 0; q < npes; ++q) {
        __gm__ int32_t *remote = shmem_ptr(sig, q);
        shmem_signal_wait_until(remote, SHMEM_CMP_EQ, magic);
        if (len != 0) {
            shmem_mte_get_mem_nbi(yGm[start], dataGm[me * chunk + start], buf, len, q, EVENT_ID0);
        }
        SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);
    }
    SetAtomicNone();
    shmem_quiet();
    shmem_barrier_all();  // no PE leaves while another may still read its symmetric memory
}

// Element puts / gets between UB and another PE's symmetric memory (the typed `_mem_nbi` forms): PE p
// puts its n int32 into slot p of PE 0's gva, all meet, then every PE gets PE 0's n_pes * n gathered
// values back into y.  gva: n_pes * n int32.
extern "C" __global__ __aicore__ void shmem_gather_to_root(GM_ADDR x, GM_ADDR gva, GM_ADDR y, uint32_t n)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const int me = shmem_my_pe();
    const int npes = shmem_n_pes();
    if (GetBlockIdx() == 0) {
        GlobalTensor<int32_t> xGm, gvaGm;
        xGm.SetGlobalBuffer((__gm__ int32_t *)x, n);
        gvaGm.SetGlobalBuffer((__gm__ int32_t *)gva, npes * n);
        LocalTensor<int32_t> t(TPosition::VECIN, 0, npes * n);
        const DataCopyExtParams p{1, static_cast<uint32_t>(n * sizeof(int32_t)), 0, 0, 0};
        DataCopyPad(t, xGm, p, DataCopyPadExtParams<int32_t>{false, 0, 0, 0});
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        shmem_put_int32_mem_nbi(gvaGm[me * n], t, n, 0);
        shmem_quiet();
    }
    shmem_barrier_all();
    if (GetBlockIdx() == 0) {
        // GM <- PE 0's symmetric GM (the pointer form; it stages through the SDK's UB area)
        shmem_get_int32_mem_nbi((__gm__ int32_t *)y, (__gm__ int32_t *)gva, npes * n, 0);
        shmem_quiet();
    }
    shmem_barrier_all();
}

// Transfers that leave the heap, one per mode (the device layer must name the PE and the offset):
// 0 a put running past the heap's end, 1 a get from an address that is not in the heap (the PE's own
// output buffer), 2 a PE that does not exist, 3 shmem_ptr of an address before the heap.
extern "C" __global__ __aicore__ void shmem_bad(GM_ADDR gva, GM_ADDR y, uint32_t heapBytes, int32_t mode)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GlobalTensor<float> gvaGm, yGm;
    gvaGm.SetGlobalBuffer((__gm__ float *)gva, heapBytes / sizeof(float));
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> buf(TPosition::VECIN, 0, 64);
    const int other = (shmem_my_pe() + 1) % shmem_n_pes();
    if (mode == 0) {
        shmem_mte_put_mem_nbi(gvaGm[heapBytes / sizeof(float) - 8], yGm, buf, 64, other, EVENT_ID0);  // BAD(past-end)
    } else if (mode == 1) {
        shmem_mte_get_mem_nbi(gvaGm, yGm, buf, 64, other, EVENT_ID0);  // BAD(not-heap)
    } else if (mode == 2) {
        shmem_mte_put_mem_nbi(gvaGm, yGm, buf, 64, shmem_n_pes(), EVENT_ID0);  // BAD(bad-pe)
    } else {
        (void)shmem_ptr((__gm__ float *)gva - 16, other);  // BAD(before-heap)
    }
    shmem_quiet();
}

// A wait no PE will ever satisfy: every PE waits for its own signal word to become `magic`, nobody sets it.
// On hardware the cores hang; the simulator reports the deadlock at the wait.
extern "C" __global__ __aicore__ void shmem_wait_forever(GM_ADDR gva, int32_t magic)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    __gm__ int32_t *sig = (__gm__ int32_t *)gva + GetBlockIdx() * kSyncInterval;
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, magic);  // BAD(wait-forever)
}

// Ring with the wait written as zccl's big-data path polls: the flag fetched into UB with
// shmem_get_int32_mem_nbi(..., 1, pe) in a loop until it shows `magic`, then the data read. One block per PE.
// gva: [signal: kSyncInterval int32][data: n floats].  y = x of PE (p - 1) % n_pes.
extern "C" __global__ __aicore__ void shmem_ring_polled(GM_ADDR x, GM_ADDR gva, GM_ADDR y, uint32_t n, int32_t magic)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const int me = shmem_my_pe();
    const int next = (me + 1) % shmem_n_pes();
    GlobalTensor<int32_t> sigGm;
    sigGm.SetGlobalBuffer((__gm__ int32_t *)gva, kSyncInterval);
    GlobalTensor<float> xGm, dataGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, n);
    dataGm.SetGlobalBuffer((__gm__ float *)((__gm__ int32_t *)gva + kSyncInterval), n);
    yGm.SetGlobalBuffer((__gm__ float *)y, n);
    LocalTensor<float> buf(TPosition::VECIN, 0, kUbBytes / sizeof(float));
    LocalTensor<int32_t> flag(TPosition::VECIN, kUbBytes, 8);
    shmem_mte_put_mem_nbi(dataGm, xGm, buf, n, next, EVENT_ID0);
    shmem_quiet();
    shmemx_signal_op((__gm__ int32_t *)gva, magic, SHMEM_SIGNAL_SET, next);
    while (true) {
        shmem_get_int32_mem_nbi(flag, sigGm, 1, me);
        PipeBarrier<PIPE_ALL>();
        if (flag.GetValue(0) == magic) {
            break;
        }
    }
    shmem_mte_get_mem_nbi(yGm, dataGm, buf, n, me, EVENT_ID0);
}

// Strided (non-contiguous) puts and gets, the deepep MoE kernels' idiom (non_contiguous_copy_param: `repeat` rows of
// `length` elements, src_ld / dst_ld elements apart). x is the PE's [rows, cols] float matrix (cols a multiple of 8,
// so UB rows of cols floats sit on 32-byte boundaries); half < cols. On PE p, into PE next = (p + 1) % n_pes:
//   A: the left halves x[:, :half] from UB, packed     (typed UB -> GM form, src_ld cols, dst_ld half)
//   B: the right parts x[:, half:] straight from GM   (typed GM -> GM form, src_ld cols, dst_ld cols)
// then all PEs meet and each reads its own copies back:
//   y1[r, :half] = A[r] through UB spread back to rows of cols (typed GM -> UB get, dst_ld cols), the rest 0
//   y2[r, :]     = B[r, :cols - half] packed (the MTE GM -> GM get through a buffer, src_ld cols, dst_ld cols - half)
//   y3           = A, row by row (the `__gm__ float *` GM -> GM get form, src_ld half, dst_ld half)
// so y1 / y2 / y3 hold the previous PE's halves. gva: A [rows * half] then B [rows * cols] floats.
extern "C" __global__ __aicore__ void shmem_strided(GM_ADDR x, GM_ADDR gva, GM_ADDR y1, GM_ADDR y2, GM_ADDR y3,
                                                    uint32_t rows, uint32_t cols, uint32_t half)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const int me = shmem_my_pe();
    const int next = (me + 1) % shmem_n_pes();
    const uint32_t rest = cols - half;
    GlobalTensor<float> xGm, aGm, bGm, y1Gm, y2Gm;
    xGm.SetGlobalBuffer((__gm__ float *)x, rows * cols);
    aGm.SetGlobalBuffer((__gm__ float *)gva, rows * half);
    bGm.SetGlobalBuffer((__gm__ float *)gva + rows * half, rows * cols);
    y1Gm.SetGlobalBuffer((__gm__ float *)y1, rows * cols);
    y2Gm.SetGlobalBuffer((__gm__ float *)y2, rows * rest);
    LocalTensor<float> ub(TPosition::VECIN, 0, rows * cols);
    LocalTensor<float> buf(TPosition::VECIN, rows * cols * sizeof(float), kUbBytes / sizeof(float));
    if (GetBlockIdx() == 0) {
        const DataCopyExtParams all{1, static_cast<uint32_t>(rows * cols * sizeof(float)), 0, 0, 0};
        DataCopyPad(ub, xGm, all, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        non_contiguous_copy_param left{rows, half, cols, half};
        shmem_put_float_mem_nbi(aGm, ub, left, next);
        non_contiguous_copy_param right{rows, rest, cols, cols};
        shmem_put_float_mem_nbi(bGm, xGm[half], right, next);
        shmem_quiet();
    }
    shmem_barrier_all();
    if (GetBlockIdx() == 0) {
        Duplicate(ub, 0.0f, rows * cols);
        SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
        WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
        non_contiguous_copy_param spread{rows, half, half, cols};
        shmem_get_float_mem_nbi(ub, aGm, spread, me);
        SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
        DataCopyPad(y1Gm, ub, DataCopyExtParams{1, static_cast<uint32_t>(rows * cols * sizeof(float)), 0, 0, 0});
        non_contiguous_copy_param pack{rows, rest, cols, rest};
        shmem_mte_get_mem_nbi(y2Gm, bGm, buf, pack, me, EVENT_ID1);
        non_contiguous_copy_param rowsOfA{rows, half, half, half};
        shmem_get_float_mem_nbi((__gm__ float *)y3, (__gm__ float *)gva, rowsOfA, me);
        shmem_quiet();
    }
    shmem_barrier_all();
}

// Strided copies the device layer must refuse, one per mode: 0 a UB put whose first rows are inside the heap and
// whose last row runs past its end (a contiguous check of `length` elements would pass), 1 a leading dimension
// shorter than a row, 2 more rows than one DMA moves, 3 a GM -> GM get whose rows leave the peer's heap.
extern "C" __global__ __aicore__ void shmem_strided_bad(GM_ADDR gva, GM_ADDR y, uint32_t heapBytes, int32_t mode)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    const uint32_t heapFloats = heapBytes / sizeof(float);
    GlobalTensor<float> gvaGm, yGm;
    gvaGm.SetGlobalBuffer((__gm__ float *)gva, heapFloats);
    yGm.SetGlobalBuffer((__gm__ float *)y, 64);
    LocalTensor<float> ub(TPosition::VECIN, 0, 64);
    const int other = (shmem_my_pe() + 1) % shmem_n_pes();
    if (mode == 0) {
        non_contiguous_copy_param p{3, 8, 8, 32};  // rows at -64, -32 and 0 floats from the heap's end
        shmem_put_float_mem_nbi(gvaGm[heapFloats - 64], ub, p, other);  // BAD(strided-past-end)
    } else if (mode == 1) {
        non_contiguous_copy_param p{2, 16, 8, 16};
        shmem_put_float_mem_nbi(gvaGm, ub, p, other);  // BAD(short-ld)
    } else if (mode == 2) {
        non_contiguous_copy_param p{5000, 1, 1, 1};
        shmem_get_float_mem_nbi(ub, gvaGm, p, other);  // BAD(too-many-rows)
    } else {
        non_contiguous_copy_param p{4, 8, heapFloats / 2, 8};
        shmem_get_float_mem_nbi(yGm, gvaGm, p, other);  // BAD(get-past-end)
    }
    shmem_quiet();
}
