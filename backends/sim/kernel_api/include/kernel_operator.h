// kernel_operator.h -- the Ascend C kernel API implemented on the CPU (pyasc_sim).
//
// Unmodified Ascend C kernel source compiles against this header with g++ (C++17):
//     #include "kernel_operator.h"
//     using namespace AscendC;
//     extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) { ... }
// and becomes a simulator kernel binary with one line per kernel after the source:
//     PYASC_SIM_KERNEL(add_custom)
// See backends/sim/kernel_api/README.md.  Written from the public Ascend C API reference;
// it contains no CANN code.
#ifndef PYASC_SIM_KERNEL_OPERATOR_H_
#define PYASC_SIM_KERNEL_OPERATOR_H_
#include "pyasc_sim/sdk_begin.h"  // INT_MAX / INT_MIN hidden after SDK headers (sdk_begin.h)

#include "pyasc_sim/kapi/arch.h"       // __CCE_AICORE__, __NPU_ARCH__, __DAV_C220_*__, ASCEND_IS_AIV / AIC
#include "pyasc_sim/kapi/base.h"       // qualifiers, half / bfloat16_t, enums, constants
#include "pyasc_sim/kapi/params.h"     // DataCopyParams, BinaryRepeatParams, MmadParams, ...
#include "pyasc_sim/kapi/state.h"      // the running block: context, sanitizer, cost model
#include "pyasc_sim/kapi/tensor.h"     // GlobalTensor, LocalTensor, GetBlockIdx / GetBlockNum
#include "pyasc_sim/kapi/pipe.h"       // TPipe, TQue, TQueBind, TBuf
#include "pyasc_sim/kapi/sync.h"       // PipeBarrier, SetFlag / WaitFlag
#include "pyasc_sim/kapi/cache.h"      // DataCacheCleanAndInvalid (CacheLine, DcciDst)
#include "pyasc_sim/kapi/xcore.h"      // SyncAll, IBSet / IBWait, CrossCoreSetFlag, SetAtomicAdd ...
#include "pyasc_sim/kapi/data_copy.h"  // DataCopy, DataCopyPad
#include "pyasc_sim/kapi/vector.h"     // Add ... Select, Cast, Duplicate
#include "pyasc_sim/kapi/reduce.h"     // ReduceSum / Max / Min, WholeReduce*
#include "pyasc_sim/kapi/cube.h"       // LoadData, Mmad, Fixpipe
#include "pyasc_sim/kapi/cube_load3d.h"  // Load3Dv2 (LoadData3DParamsV2), InitConstValue, InitSocState
#include "pyasc_sim/kapi/tiling.h"     // GET_TILING_DATA, TILING_KEY_IS, GetUserWorkspace, InitGlobalMemory
#include "pyasc_sim/kapi/compat.h"     // what the NPU compiler accepts: GetTPipePtr() in the global namespace
#include "pyasc_sim/kapi/vector_more.h"  // And/Or/Not, shifts, Axpy, BlockReduce*, Copy, Brcb, Gather(Mask), ...
#include "pyasc_sim/kapi/vector_extra.h"  // scalar bit helpers, RepeatReduceSum, GetReduceMaxMinCount, Trap; lacks-errors
#include "pyasc_sim/kapi/ascend950.h"  // Atlas 350 / Ascend 950 only: Neg, AbsSub, ExpSub, Subs, Divs, Ands, Ors, (De)Interleave
#include "pyasc_sim/kapi/dequant.h"    // SetDeqScale, CastDeq / CastDequant, AddDeqRelu, AddReluCast, SubReluCast, MulCast
#include "pyasc_sim/kapi/cmp_mask.h"   // CmpMask register: Compare (no dst), Get/SetCmpMask, Select (no mask); GetAccVal
#include "pyasc_sim/kapi/layout_5hd.h"  // TransDataTo5HD (NCHW -> NC1HWC0, address-list forms)
#include "pyasc_sim/kapi/system_counter.h"  // GetSystemCycle (the cost model's PIPE_S clock)
#include "pyasc_sim/kapi/bilinear.h"    // BilinearInterpolation
#include "pyasc_sim/kapi/reduce_cann9.h"  // ReduceDataBlock, ReduceRepeat, ReducePairElem (ReduceType)
#include "pyasc_sim/kapi/intrinsics.h"  // set_flag / wait_flag, LocalTensor operators
#include "pyasc_sim/kapi/activation.h"  // Sigmoid, Silu, Swish, Gelu, FasterGelu, Tanh
#include "pyasc_sim/kapi/int4.h"       // int4b_t: packed 4-bit integers (DataCopy, Cast <-> half)
#include "pyasc_sim/kapi/fp8.h"        // fp8_e4m3fn_t: the 950's 8-bit float (copies, Reg::Cast)
#include "pyasc_sim/kapi/sort.h"       // Sort32, Sort, MrgSort, Concat, Extract, TopK, GetSortLen
#include "pyasc_sim/kapi/proposal_sort.h"  // RpSort16, MrgSort4, GetMrgSortResult (region proposals)
#include "pyasc_sim/kapi/scatter.h"     // Scatter (inference series AI Core)
#include "pyasc_sim/kapi/math_round.h"  // Floor, Ceil, Trunc, Round (math library rounding)
#include "pyasc_sim/kapi/hl_reduce.h"   // Sum, Mean
#include "pyasc_sim/kapi/softmax.h"     // SoftMax (+ SoftMaxTiling, LayerNormTiling)
#include "pyasc_sim/kapi/normalization.h"  // LayerNorm
#include "pyasc_sim/kapi/debug.h"      // printf / PRINTF, DumpTensor, ASSERT
#include "pyasc_sim/kapi/engine.h"     // Async<EngineType::AIC / AIV, funPtr>(args...)
#include "pyasc_sim/kapi/tensor_trait.h"  // TensorTrait, Layout / Shape / Stride, LocalTensor<TensorTrait<...>>(addr)
#include "pyasc_sim/kapi/builtins.h"   // set_mask_*, min / max, block_idx / get_block_idx / get_subblockid, g_coreType, float16_t
#include "pyasc_sim/kapi/reduce_setmask.h"  // ReduceSum / Max / Min<T, isSetMask>
#include "pyasc_sim/kapi/broadcast.h"  // Broadcast<T, dim, axis> (BroadCast)
#include "pyasc_sim/kapi/align_utils.h"  // AlignUp, Ceil(a, b)
#include "pyasc_sim/kapi/soc_sizes.h"  // DEFAULT_C0_SIZE, TOTAL_*_SIZE
#include "pyasc_sim/kapi/local_mem_allocator.h"  // LocalMemAllocator<Hardware>
#include "pyasc_sim/kapi/pad_copy_builtins.h"  // copy_*_align_b*, DataCopyPadGm2UBImpl / DataCopyPadUB2GMImpl
#include "pyasc_sim/kapi/simt.h"       // Ascend 950 SIMT: Simt::VF_CALL / asc_vf_call, GetThreadIdx, threadIdx
#include "pyasc_sim/kapi/reg_simd.h"   // Ascend 950 SIMD VFs: Reg / MicroAPI RegTensor, MaskReg, VF_CALL<f>(args...)
#include "pyasc_sim/kapi/cumsum.h"     // CumSum (CumSumConfig, CumSumInfo)
#include "pyasc_sim/kapi/pad.h"        // Pad / UnPad (PadParams, UnPadParams, PadTiling, UnPadTiling)
#include "pyasc_sim/kapi/quant.h"      // AscendQuant, AscendDequant, AscendAntiQuant
#include "pyasc_sim/kapi/softmax_flash.h"  // SoftmaxFlashV2, SoftmaxFlash (SoftmaxConfig)
#include "pyasc_sim/kapi/softmax_grad.h"   // SoftmaxGrad, SoftmaxGradFront
#include "pyasc_sim/kapi/math_elementwise.h"  // Acos, Asin, ..., Erf, Erfc, Log, Log2, Log10
#include "pyasc_sim/kapi/math_power.h"        // Power
#include "pyasc_sim/kapi/math_exp.h"          // Exp<T, taylorExpandLevel> (the math library's)
#include "pyasc_sim/kapi/norm_grad.h"      // DeepNorm, LayerNormGrad, LayerNormGradBeta (+ their tiling structs)
#include "pyasc_sim/kapi/confusion_transpose.h"  // ConfusionTranspose (TransposeType, ConfusionTransposeTiling)
#include "pyasc_sim/kapi/simt_builtins.h" // 950 SIMT builtins: __sync_workitems, __reduce_min, atomicOr, __clz
#include "pyasc_sim/kapi/simt_api.h"   // Ascend 950 SIMT: __umulhi / __umul64hi, __ffs, atomicAdd-style atomics, uint4-style vector types
#include "pyasc_sim/kapi/simt_cache.h" // Ascend 950 SIMT: __ldg / __stg cache-hinted loads / stores, asc_ldcg / asc_stcg
#include "pyasc_sim/kapi/dcci.h"       // dcci intrinsic (cache_line_t, dcci_dst_t)
#include "pyasc_sim/kapi/ascendc_assert.h"  // ASCENDC_ASSERT(cond, behavior)
#include "pyasc_sim/kapi/clamp.h"      // ClampMax / ClampMin
#include "pyasc_sim/kapi/simt_asc_functions.h"  // 950 SIMT: Simt::UintDiv, asc_uintdiv, asc_atomic_*
#include "pyasc_sim/kapi/que_sync.h"   // TQueSync<src, dst>
#include "pyasc_sim/kapi/hl_reduce_pattern.h"  // ReduceSum/Max/Min/Mean/Prod<T, Pattern::Reduce::AR|RA>
#include "pyasc_sim/kapi/dropout.h"    // DropOut (DropOutShapeInfo)
#include "pyasc_sim/kapi/matmul_callback.h"  // MatmulCallBackFunc<DataCopyOut, CopyA1, CopyB1>
#include "pyasc_sim/kapi/type_utils.h"  // AscendC::IsSameType, AscendC::Conditional (CANN kernel type helpers)
#include "pyasc_sim/kapi/init_output.h"  // InitOutput (InitGlobalMemory's earlier spelling)
#include "pyasc_sim/kapi/select_bytes_mask.h"  // SelectWithBytesMask (SelectWithBytesMaskShapeInfo)
#include "pyasc_sim/kapi/cce_copy.h"   // copy_gm_to_ubuf / copy_ubuf_to_gm (CCE general data move), get_imm
#include "pyasc_sim/kapi/cce_vector_intrinsics.h"  // vcadd / get_acc_val, vector_dup, vor, vtranspose, copy_ubuf_to_ubuf, VA registers
#include "pyasc_sim/kapi/ffts_sync.h"   // ffts_cross_core_sync / wait_flag_dev (CCE cross-core sync intrinsics)
#include "pyasc_sim/kapi/sync_base_addr.h"  // SetSyncBaseAddr / set_ffts_base_addr (the FFTS base address)
#include "pyasc_sim/kapi/fixpipe_l1.h"  // Fixpipe L0C -> L1 (FixpipeParamsV220), the older FixpipeParams<T> / Nz2NdParams
#include "pyasc_sim/kapi/hf32.h"       // SetHF32Mode (bool / HF32Mode), SetHF32TransMode, SetMMLayoutTransform
#include "pyasc_sim/kapi/hccl_context.h"  // SetHcclContext / GetHcclContext<index>, HCCL_GROUP_ID_0 / _1
#include "pyasc_sim/kapi/hccl_client.h"   // Hccl<serverType, config> (declared; its methods report unsupported)
#include "pyasc_sim/kapi/load_transpose.h"  // LoadDataWithTranspose (LoadData2dTransposeParams), L1 -> L0A / L0B
#include "pyasc_sim/kapi/transpose_ext.h"  // enhanced Transpose: TransposeParamsExt, NCHW <-> NHWC
#include "pyasc_sim/kapi/entry.h"      // PYASC_SIM_KERNEL: entry stubs for the simulated runtime
#include "pyasc_sim/kapi/raw_gm.h"     // raw __gm__ loads / stores: checked in a -fsanitize=thread build (build.py)

#include "pyasc_sim/sdk_end.h"
#endif  // PYASC_SIM_KERNEL_OPERATOR_H_
