// kapi/study15b.h -- round-15 (study15b) additions seen in public kernels (IndexSDK rotate_and_l2_at_fp32):
// * get_subblockid() / get_subblockdim(): the NPU compiler's builtins next to get_block_idx() / get_block_num()
//   (kapi/study10.h). On a vector core of a mixed AIC:AIV = 1:2 kernel get_subblockid() is 0 or 1 (the
//   documented GetSubBlockIdx()) and get_subblockdim() is 2 (GetSubBlockNum()); on the cube core and in
//   vector-only kernels they are 0 and 1. get_block_idx() * get_subblockdim() + get_subblockid() is then the
//   vector core's GetBlockIdx().
#ifndef PYASC_SIM_KAPI_STUDY15B_H_
#define PYASC_SIM_KAPI_STUDY15B_H_

#include <cstdint>

#include "pyasc_sim/kapi/tensor.h"

inline int64_t get_subblockid() { return AscendC::GetSubBlockIdx(); }
inline int64_t get_subblockdim() { return AscendC::GetSubBlockNum(); }

#endif  // PYASC_SIM_KAPI_STUDY15B_H_
