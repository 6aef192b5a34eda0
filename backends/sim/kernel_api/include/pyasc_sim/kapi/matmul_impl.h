// Ascend C on the CPU -- MatmulImpl, the implementation-class spelling of Matmul that kernels
// written against lib/matrix/matmul/matmul.h use (`MatmulImpl<A, B, C, Bias> mm;
// mm.SetSubBlockIdx(0); mm.Init(&tiling, &pipe); ...`). It is the simulator's Matmul plus
// SetSubBlockIdx (which vector sub-block of a mixed launch consumes the results: no effect here,
// where one core computes the whole product).
#ifndef PYASC_SIM_KAPI_MATMUL_IMPL_H_
#define PYASC_SIM_KAPI_MATMUL_IMPL_H_

#include "pyasc_sim/kapi/matmul.h"

#if !PYASC_SIM_DOCUMENTED_ONLY  // MatmulImpl: an implementation-class name the reference does not document
namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = MatmulDefaultBias<C_TYPE>,
          const MatmulConfig &MM_CFG = CFG_NORM, class MM_CB = void>
class MatmulImpl : public Matmul<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB> {
public:
    void SetSubBlockIdx(uint8_t subBlockIdx) { subBlockIdx_ = subBlockIdx; }
    uint8_t GetSubBlockIdx() const { return subBlockIdx_; }

private:
    uint8_t subBlockIdx_ = 0;
};

}  // namespace AscendC

namespace matmul {
using AscendC::MatmulImpl;
}  // namespace matmul
#endif

#endif  // PYASC_SIM_KAPI_MATMUL_IMPL_H_
