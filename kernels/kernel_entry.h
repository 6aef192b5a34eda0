// Entry points of the built-in kernels: the tiling read, the kernel run, the extern "C" wrappers and
// the per-dtype instantiation lists.
//
// A kernel class K declares `using Tiling = ...;` (the host-side struct, read from global memory
// with LoadTiling) and has Init(GM_ADDR..., const Tiling &) and Process(). The entry macros write
// the standard Ascend C custom-op signature
//     extern "C" __global__ __aicore__ void NAME(GM_ADDR <operands>..., GM_ADDR workspace, GM_ADDR tiling)
// for 2, 3 or 4 global-memory operands (inputs first, outputs last) and run K on them. The kernel
// class is the macro's last argument, so template arguments with commas need no parentheses.
#ifndef PYASC_KERNEL_ENTRY_H_
#define PYASC_KERNEL_ENTRY_H_

#include "kernel_common.h"

namespace pyasc_kernels {

template <class K>
__aicore__ inline typename K::Tiling ReadTiling(GM_ADDR tiling) {
    typename K::Tiling t;
    LoadTiling(t, tiling);
    return t;
}

template <class K>
__aicore__ inline void Run(GM_ADDR tiling, GM_ADDR a0, GM_ADDR a1) {
    K op;
    op.Init(a0, a1, ReadTiling<K>(tiling));
    op.Process();
}

template <class K>
__aicore__ inline void Run(GM_ADDR tiling, GM_ADDR a0, GM_ADDR a1, GM_ADDR a2) {
    K op;
    op.Init(a0, a1, a2, ReadTiling<K>(tiling));
    op.Process();
}

template <class K>
__aicore__ inline void Run(GM_ADDR tiling, GM_ADDR a0, GM_ADDR a1, GM_ADDR a2, GM_ADDR a3) {
    K op;
    op.Init(a0, a1, a2, a3, ReadTiling<K>(tiling));
    op.Process();
}

}  // namespace pyasc_kernels

#define PYASC_ENTRY_2(NAME, ...)                                                                            \
    extern "C" __global__ __aicore__ void NAME(GM_ADDR a0, GM_ADDR a1, GM_ADDR workspace, GM_ADDR tiling) { \
        (void)workspace;                                                                                    \
        pyasc_kernels::Run<__VA_ARGS__>(tiling, a0, a1);                                                    \
    }

#define PYASC_ENTRY_3(NAME, ...)                                                                            \
    extern "C" __global__ __aicore__ void NAME(GM_ADDR a0, GM_ADDR a1, GM_ADDR a2, GM_ADDR workspace,       \
                                               GM_ADDR tiling) {                                            \
        (void)workspace;                                                                                    \
        pyasc_kernels::Run<__VA_ARGS__>(tiling, a0, a1, a2);                                                \
    }

#define PYASC_ENTRY_4(NAME, ...)                                                                            \
    extern "C" __global__ __aicore__ void NAME(GM_ADDR a0, GM_ADDR a1, GM_ADDR a2, GM_ADDR a3,              \
                                               GM_ADDR workspace, GM_ADDR tiling) {                         \
        (void)workspace;                                                                                    \
        pyasc_kernels::Run<__VA_ARGS__>(tiling, a0, a1, a2, a3);                                            \
    }

// X(dtype name, C++ type, extra...) once per dtype: the floating types, and those plus int32;
// PYASC_INT16_DTYPE the int16 instantiation of the ops whose vector instructions take int16_t.
// PYASC_BF16_DTYPE: the bfloat16 instantiation, left out on the Atlas inference series AI Core
// (__CCE_AICORE__ 200, Ascend310P): that family has no bfloat16_t in the reference's tables (DataCopy,
// Duplicate, Brcb, Gather, ... list none), so a bfloat16 kernel cannot exist there.
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 200
#define PYASC_HAS_BF16 0
#define PYASC_BF16_DTYPE(X, ...)
#else
#define PYASC_HAS_BF16 1
#define PYASC_BF16_DTYPE(X, ...) X(bfloat16, bfloat16_t, __VA_ARGS__)
#endif

#define PYASC_FLOAT_DTYPES(X, ...) \
    X(float16, half, __VA_ARGS__)  \
    PYASC_BF16_DTYPE(X, __VA_ARGS__) \
    X(float32, float, __VA_ARGS__)

#define PYASC_NUMERIC_DTYPES(X, ...) \
    PYASC_FLOAT_DTYPES(X, __VA_ARGS__) \
    X(int32, int32_t, __VA_ARGS__)

#define PYASC_INT16_DTYPE(X, ...) X(int16, int16_t, __VA_ARGS__)

#endif  // PYASC_KERNEL_ENTRY_H_
