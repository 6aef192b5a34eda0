// kapi/matmul_callback.h -- MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1>: the Matmul template argument MM_CB.
#ifndef PYASC_SIM_KAPI_MATMUL_CALLBACK_H_
#define PYASC_SIM_KAPI_MATMUL_CALLBACK_H_

#include "pyasc_sim/kapi/tensor.h"

namespace AscendC {

// ---- MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1> (MatmulCallBackFunc page, atlasascendc_api_07_0618): the
// Matmul template argument MM_CB naming custom CO1 -> GM / GM -> A1 / GM -> B1 copy functions.  CopyB1 is run
// (kapi/matmul.h, "custom CopyB1"): for each baseK x baseN block of B the Matmul calls it with an L1 tensor to fill
// in the NZ layout the cube reads, the block's (row, col) indices along K and N, its useK x useN size and the
// SetUserDefInfo / SetSelfDefineData values, and multiplies with what it wrote.  DataCopyOut and CopyA1 are not
// run: a non-null one is refused at compile time.
using MatmulCopyB1Fn = void (*)(const LocalTensor<int8_t> &bMatrix, const __gm__ void *gm, int row, int col, int useK,
                                int useN, const uint64_t tilingPtr, const uint64_t dataPtr);
template <void (*DataCopyOut)(const __gm__ void *gm, const LocalTensor<int8_t> &co1Local,
                              const void *dataCopyOutParams, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyA1)(const LocalTensor<int8_t> &aMatrix, const __gm__ void *gm, int row, int col, int useM,
                         int useK, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr,
          void (*CopyB1)(const LocalTensor<int8_t> &bMatrix, const __gm__ void *gm, int row, int col, int useK,
                         int useN, const uint64_t tilingPtr, const uint64_t dataPtr) = nullptr>
struct MatmulCallBackFunc {
    static_assert(DataCopyOut == nullptr && CopyA1 == nullptr,
                  "the simulator's Matmul runs a custom CopyB1 only: MatmulCallBackFunc's DataCopyOut and CopyA1 "
                  "must be nullptr");
    static constexpr MatmulCopyB1Fn kCopyB1 = CopyB1;
};

}  // namespace AscendC

// matmul::MatmulCallBackFunc is declared in kapi/matmul.h (lib/matmul_intf.h): a global namespace `matmul`
// here would clash with kernels named matmul.


#endif  // PYASC_SIM_KAPI_MATMUL_CALLBACK_H_
