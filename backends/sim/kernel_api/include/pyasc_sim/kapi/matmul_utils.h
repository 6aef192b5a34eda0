// Ascend C on the CPU -- the integer helpers the SDK's Matmul headers (lib/matmul_intf.h) put in namespace AscendC
// and public kernels call unqualified (sgl-kernel-npu block_sparse_attention: Align(tail, blockSize),
// Align<uint32_t>(n, 64)):
//   * Align(x, a)     -- x rounded up to a multiple of a (0 when a is 0);
//   * AlignDown(x, a) -- x rounded down to a multiple of a (0 when a is 0).
// The second argument converts to the first's type (T is deduced from x only).  Reachable, as in the SDK, only
// through lib/matmul_intf.h: kernels that define their own Align without including Matmul see no second one.
#ifndef PYASC_SIM_KAPI_MATMUL_UTILS_H_
#define PYASC_SIM_KAPI_MATMUL_UTILS_H_

#include <type_traits>

namespace AscendC {

template <typename T>
constexpr T Align(T num, typename std::enable_if<true, T>::type align) {
    return align == 0 ? T(0) : static_cast<T>((num + align - 1) / align * align);
}

template <typename T>
constexpr T AlignDown(T num, typename std::enable_if<true, T>::type align) {
    return align == 0 ? T(0) : static_cast<T>(num / align * align);
}

}  // namespace AscendC

#endif  // PYASC_SIM_KAPI_MATMUL_UTILS_H_
