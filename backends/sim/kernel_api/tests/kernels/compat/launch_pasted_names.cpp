// Host launchers whose <<<>>> launches name the kernel by token pasting inside a macro, and a launch of a
// globally qualified kernel from a namespace whose host function has the kernel's name, as kvcache-ops'
// load_and_reshape_flash.cpp (`load_and_reshape_flash_copy_##TYPE##_##SLOTTYPE<<<...>>>(...)` in a #define)
// and LMCache-Ascend's block mover (`::multi_layer_block_transfer_kernel<<<...>>>` inside
// `namespace kvcache_ops`) do (kernel_api/COMPAT.md, round 21 s21f).  Written for pyasc in that style.
//
// add_one_<T>:  y[i] = x[i] + 1 over n elements per block (T = half, float, int32_t), declared by a macro.
// add_one:      dispatches on a type id to the pasted launch of add_one_<T> (two macro levels, as kvcache-ops).
// add_one_named: launches add_one_float through a name-making macro (`ADD_ONE_NAME(float)<<<...>>>`, as kvcache-ops'
//                multi_layer launchers); any other type id reports it with ASCENDC_REPORT_NOT_SUPPORT, written
//                without a trailing `;` as kvcache-ops does, and launches nothing.
// twice:        y[i] = 2 x[i]; lib::twice is its host launcher (`::twice<<<...>>>`).
#include <string>

#include "kernel_operator.h"

using namespace AscendC;

template <typename T>
__aicore__ inline void AddOneBlock(GM_ADDR x, GM_ADDR y, uint32_t n) {
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T *)x + GetBlockIdx() * n, n);
    yGm.SetGlobalBuffer((__gm__ T *)y + GetBlockIdx() * n, n);
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> que;
    pipe.InitBuffer(que, 1, n * sizeof(T));
    LocalTensor<T> t = que.AllocTensor<T>();
    DataCopy(t, xGm, n);
    que.EnQue(t);
    t = que.DeQue<T>();
    Adds(t, t, static_cast<T>(1), n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, t, n);
    que.FreeTensor(t);
}

#define ADD_ONE_DECLARE(TYPE)                                                                   \
    extern "C" __global__ __aicore__ void add_one_##TYPE(GM_ADDR x, GM_ADDR y, uint32_t n) { \
        AddOneBlock<TYPE>(x, y, n);                                                             \
    }

ADD_ONE_DECLARE(half)
ADD_ONE_DECLARE(float)
ADD_ONE_DECLARE(int32_t)

#define ADD_ONE_LAUNCH(TYPE) add_one_##TYPE<<<blocks, nullptr, stream>>>(x, y, n)
#define ADD_ONE_CASE(ID, TYPE) \
    case ID:                   \
        ADD_ONE_LAUNCH(TYPE);  \
        break;

void add_one(int32_t type, uint32_t blocks, void *stream, uint8_t *x, uint8_t *y, uint32_t n) {
    switch (type) {
        ADD_ONE_CASE(0, half)
        ADD_ONE_CASE(1, float)
        ADD_ONE_CASE(2, int32_t)
        default:
            break;
    }
}

#define ADD_ONE_NAME(TYPE) add_one_##TYPE

void add_one_named(int32_t type, uint32_t blocks, void *stream, uint8_t *x, uint8_t *y, uint32_t n) {
    if (type == 1) {
        ADD_ONE_NAME(float)<<<blocks, nullptr, stream>>>(x, y, n);
    } else {
        ASCENDC_REPORT_NOT_SUPPORT(false, "type " + std::to_string(type) + " is not supported.")
    }
}

extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y, uint32_t n) {
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * n, n);
    yGm.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * n, n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(t, t, 2.0f, n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(yGm, t, n);
}

namespace lib {

void twice(uint32_t blocks, void *stream, uint8_t *x, uint8_t *y, uint32_t n) {
    ::twice<<<blocks, nullptr, stream>>>(x, y, n);
}

}  // namespace lib
