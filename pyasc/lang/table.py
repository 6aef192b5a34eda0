"""The one table of the Python kernel language: Python name -> Ascend C spelling and kind.

The JIT translates with it, ``pyasc.lang`` exports its names, docs/pyasc-lang-api.md is rendered
from it (:func:`markdown`), and the coverage test checks the reference's list against it. Python
names are the snake_case of the Ascend C names (classes, enums and structs keep their names);
``tmpl`` leading arguments become C++ template arguments (``set_flag(HardEvent.MTE2_V, 0)`` ->
``SetFlag<HardEvent::MTE2_V>(0)``, ``alloc_tensor(asc.float32)`` -> ``AllocTensor<float>()``)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Api:
    """One name: ``py`` (in ``pyasc.lang`` or as a method of ``owner``), ``cpp`` (the Ascend C
    spelling, without ``AscendC::`` unless ``ns`` is empty), ``kind`` (class | enum | struct |
    function | method), ``tmpl`` (leading args that are template arguments), ``ret`` (result: a
    C++ scalar type, ``local`` = LocalTensor of the template dtype, ``elem`` = the tensor's
    element type, ``tN`` = the element type given as template argument N, None = void), ``documented`` (in the public Ascend C reference)."""

    py: str
    cpp: str
    kind: str
    tmpl: int = 0
    ret: str | None = None
    owner: str | None = None
    ns: str = "AscendC::"
    documented: bool = True
    members: tuple[str, ...] = field(default=())
    scoped: bool = True       # enum class (members spelled Enum::M) or a plain enum (M)
    by_address: tuple[int, ...] = ()  # macro arguments passed as &arg (REGIST_MATMUL_OBJ)
    include: str | None = None  # the SDK header that declares it, when kernel_operator.h does not

    @property
    def spelled(self) -> str:
        return self.ns + self.cpp


def _fns(spec: str, **kw) -> list[Api]:
    """``"add:Add sub:Sub"`` -> function entries."""
    out = []
    for item in spec.split():
        py, cpp = item.split(":")
        out.append(Api(py, cpp, "function", **kw))
    return out


def _methods(owner: str, spec: str, **kw) -> list[Api]:
    out = []
    for item in spec.split():
        py, cpp = item.split(":")
        out.append(Api(py, cpp, "method", owner=owner, **kw))
    return out


_TPOSITION = ("GM", "A1", "A2", "B1", "B2", "C1", "C2", "CO1", "CO2", "VECIN", "VECOUT", "VECCALC", "LCM",
              "SPM", "SHM", "TSCM", "C2PIPE2GM", "C2PIPE2LOCAL")
_HARD_EVENT = ("MTE2_MTE1", "MTE1_MTE2", "MTE1_M", "M_MTE1", "MTE2_V", "V_MTE2", "MTE3_V", "V_MTE3", "M_V",
               "V_M", "V_V", "MTE3_MTE1", "MTE1_MTE3", "MTE1_V", "MTE2_M", "M_MTE2", "V_MTE1", "M_FIX", "FIX_M",
               "MTE3_MTE2", "MTE2_MTE3", "S_V", "V_S", "S_MTE2", "MTE2_S", "S_MTE3", "MTE3_S", "MTE2_FIX",
               "FIX_MTE2", "FIX_S", "M_S", "FIX_MTE3", "MTE1_FIX", "FIX_MTE1", "FIX_FIX")

TABLE: tuple[Api, ...] = tuple([
    # -- basic data structures and memory management
    Api("GlobalTensor", "GlobalTensor", "class"),
    Api("LocalTensor", "LocalTensor", "class"),
    Api("TPipe", "TPipe", "class"),
    Api("TQue", "TQue", "class"),
    Api("TQueBind", "TQueBind", "class"),
    Api("TBuf", "TBuf", "class"),
    Api("Matmul", "Matmul", "class", include="lib/matmul_intf.h"),            # asc.Matmul(a_type, b_type, c_type[, bias_type])
    Api("MatmulType", "MatmulType", "typearg", include="lib/matmul_intf.h"),  # asc.MatmulType(position, CubeFormat, dtype): a template argument
    # -- enums
    Api("TPosition", "TPosition", "enum", members=_TPOSITION),
    Api("QuePosition", "QuePosition", "enum", members=_TPOSITION),
    Api("HardEvent", "HardEvent", "enum", members=_HARD_EVENT),
    Api("RoundMode", "RoundMode", "enum", members=("CAST_NONE", "CAST_RINT", "CAST_FLOOR", "CAST_CEIL",
                                                   "CAST_ROUND", "CAST_TRUNC", "CAST_ODD")),
    Api("CMPMODE", "CMPMODE", "enum", members=("LT", "GT", "EQ", "LE", "GE", "NE")),
    Api("SELMODE", "SELMODE", "enum", members=("VSEL_CMPMASK_SPR", "VSEL_TENSOR_SCALAR_MODE",
                                               "VSEL_TENSOR_TENSOR_MODE")),
    Api("ReduceOrder", "ReduceOrder", "enum", members=("ORDER_VALUE_INDEX", "ORDER_INDEX_VALUE",
                                                       "ORDER_ONLY_VALUE", "ORDER_ONLY_INDEX")),
    Api("BlockMode", "BlockMode", "enum", members=("BLOCK_MODE_NORMAL", "BLOCK_MODE_MATRIX", "BLOCK_MODE_VECTOR",
                                                   "BLOCK_MODE_SMALL_CHANNEL", "BLOCK_MODE_DEPTHWISE")),
    Api("MaskMode", "MaskMode", "enum", members=("NORMAL", "COUNTER")),
    Api("CO2Layout", "CO2Layout", "enum", members=("NZ", "ROW_MAJOR", "COLUMN_MAJOR")),
    Api("CubeFormat", "CubeFormat", "enum", ns="", include="lib/matmul_intf.h", members=("ND", "NZ", "ZN", "ZZ", "NN", "ND_ALIGN", "SCALAR",
                                                           "VECTOR")),
    Api("pipe_t", "pipe_t", "enum", ns="", scoped=False, members=("PIPE_S", "PIPE_V", "PIPE_M", "PIPE_MTE1", "PIPE_MTE2",
                                                    "PIPE_MTE3", "PIPE_ALL", "PIPE_FIX")),
    Api("QuantMode_t", "QuantMode_t", "enum", ns="", scoped=False, members=("NoQuant", "F322F16", "F322BF16", "DEQF16",
                                                              "VDEQF16", "REQ8", "VREQ8")),
    # -- params structs (positional args: the documented constructor; keywords: fields)
    *[Api(n, n, "struct") for n in (
        "DataCopyParams", "DataCopyExtParams", "DataCopyPadParams", "DataCopyEnhancedParams", "Nd2NzParams",
        "BinaryRepeatParams", "UnaryRepeatParams", "LoadData2DParams", "MmadParams", "FixpipeParamsV220",
        "GatherMaskParams", "CopyRepeatParams", "BrcbRepeatParams", "SumParams", "MeanParams",
        "SoftMaxShapeInfo", "SoftMaxTiling", "LayerNormTiling", "RmsNormTiling")],
    Api("DataCopyPadExtParams", "DataCopyPadExtParams", "struct", tmpl=1),
    Api("TCubeTiling", "TCubeTiling", "struct", ns="", include="lib/matmul_intf.h"),  # Matmul's tiling (pyasc_sim.hl_tiling.matmul_tiling)
    # -- data movement
    *_fns("data_copy:DataCopy data_copy_pad:DataCopyPad copy:Copy load_data:LoadData fixpipe:Fixpipe "
          "init_global_memory:InitGlobalMemory"),
    # -- vector compute
    *_fns("add:Add sub:Sub mul:Mul div:Div max:Max min:Min and_:And or_:Or exp:Exp ln:Ln abs:Abs relu:Relu "
          "sqrt:Sqrt rsqrt:Rsqrt reciprocal:Reciprocal not_:Not adds:Adds muls:Muls maxs:Maxs mins:Mins "
          "shift_left:ShiftLeft shift_right:ShiftRight leaky_relu:LeakyRelu add_relu:AddRelu sub_relu:SubRelu "
          "mul_add_dst:MulAddDst fused_mul_add:FusedMulAdd axpy:Axpy duplicate:Duplicate cast:Cast "
          "compare:Compare compares:Compares compare_scalar:CompareScalar select:Select brcb:Brcb "
          "gather:Gather gather_mask:GatherMask transpose:Transpose "
          "set_vector_mask:SetVectorMask reset_mask:ResetMask set_mask_norm:SetMaskNorm "
          "set_mask_count:SetMaskCount"),
    # -- reductions
    *_fns("reduce_sum:ReduceSum reduce_max:ReduceMax reduce_min:ReduceMin whole_reduce_sum:WholeReduceSum "
          "whole_reduce_max:WholeReduceMax whole_reduce_min:WholeReduceMin block_reduce_sum:BlockReduceSum "
          "block_reduce_max:BlockReduceMax block_reduce_min:BlockReduceMin pair_reduce_sum:PairReduceSum"),
    # -- sorting
    *_fns("sort32:Sort32 sort:Sort mrg_sort:MrgSort concat:Concat extract:Extract "
          "create_vec_index:CreateVecIndex arith_progression:ArithProgression top_k:TopK"),
    *_fns("fused_mul_add_relu:FusedMulAddRelu proposal_concat:ProposalConcat proposal_extract:ProposalExtract "
          "trunc:Trunc"),
    *_fns("get_sort_len:GetSortLen get_sort_offset:GetSortOffset", tmpl=1, ret="uint32_t"),
    Api("scalar_cast", "ScalarCast", "function", tmpl=3, ret="t1"),  # scalar_cast(src_t, dst_t, mode, v)
    # -- cube
    *_fns("mmad:Mmad"),
    # -- synchronisation (the event / pipe is a template argument)
    *_fns("set_flag:SetFlag wait_flag:WaitFlag pipe_barrier:PipeBarrier", tmpl=1),
    *_fns("sync_all:SyncAll set_atomic_none:SetAtomicNone ib_set:IBSet ib_wait:IBWait"),
    *_fns("set_atomic_type:SetAtomicType", tmpl=1),
    *_fns("cross_core_set_flag:CrossCoreSetFlag cross_core_wait_flag:CrossCoreWaitFlag", tmpl=2),
    *_fns("set_atomic_add:SetAtomicAdd set_atomic_max:SetAtomicMax set_atomic_min:SetAtomicMin", tmpl=1),
    # -- system
    *_fns("get_block_idx:GetBlockIdx get_block_num:GetBlockNum get_sub_block_idx:GetSubBlockIdx "
          "get_sub_block_num:GetSubBlockNum get_task_ration:GetTaskRation get_task_ratio:GetTaskRatio", ret="int64_t"),
    *_fns("dump_tensor:DumpTensor"),
    Api("get_sys_workspace_ptr", "GetSysWorkSpacePtr", "function", ret="GM_ADDR"),
    Api("regist_matmul_obj", "REGIST_MATMUL_OBJ", "function", ns="", by_address=(0, 3), include="lib/matmul_intf.h"),
    # -- high-level APIs
    *_fns("sigmoid:Sigmoid silu:Silu swish:Swish gelu:Gelu faster_gelu:FasterGelu tanh:Tanh sum:Sum mean:Mean "
          "softmax:SoftMax simple_softmax:SimpleSoftMax layer_norm:LayerNorm rms_norm:RmsNorm broadcast:Broadcast "
          "swiglu:SwiGLU floor:Floor ceil:Ceil"),
    # -- methods
    *_methods("GlobalTensor", "set_global_buffer:SetGlobalBuffer set_value:SetValue "
              "set_l2_cache_hint:SetL2CacheHint"),
    *_methods("GlobalTensor", "get_value:GetValue", ret="elem"),
    *_methods("GlobalTensor", "get_size:GetSize", ret="uint64_t"),
    *_methods("LocalTensor", "set_value:SetValue set_size:SetSize set_user_tag:SetUserTag"),
    *_methods("LocalTensor", "get_value:GetValue", ret="elem"),
    *_methods("LocalTensor", "get_size:GetSize get_length:GetLength", ret="uint32_t"),
    *_methods("LocalTensor", "get_user_tag:GetUserTag", ret="int32_t"),
    *_methods("LocalTensor", "reinterpret_cast:ReinterpretCast", tmpl=1, ret="local"),
    *_methods("TPipe", "init_buffer:InitBuffer reset:Reset destroy:Destroy"),
    *_methods("TPipe", "alloc_event_id:AllocEventID fetch_event_id:FetchEventID", tmpl=1, ret="int32_t"),
    *_methods("TPipe", "release_event_id:ReleaseEventID", tmpl=1),
    *[m for owner in ("TQue", "TQueBind") for m in (
        *_methods(owner, "alloc_tensor:AllocTensor deque:DeQue", tmpl=1, ret="local"),
        *_methods(owner, "enque:EnQue free_tensor:FreeTensor"),
        *_methods(owner, "vacant_in_que:VacantInQue has_tensor_in_que:HasTensorInQue "
                         "has_idle_buffer:HasIdleBuffer", ret="bool"),
        *_methods(owner, "get_tensor_count_in_que:GetTensorCountInQue", ret="int32_t"))],
    *_methods("TBuf", "get:Get get_with_offset:GetWithOffset", tmpl=1, ret="local"),
    *_methods("Matmul", "init:Init set_tensor_a:SetTensorA set_tensor_b:SetTensorB set_bias:SetBias "
                        "set_org_shape:SetOrgShape set_single_shape:SetSingleShape set_tail:SetTail "
                        "iterate_all:IterateAll get_tensor_c:GetTensorC end:End"),
    *_methods("Matmul", "iterate:Iterate", ret="bool"),
])

#: fields of the kernel API's structs that kernels read (all int32_t)
STRUCT_FIELDS = {"TCubeTiling": (
    "usedCoreNum", "M", "N", "Ka", "Kb", "singleCoreM", "singleCoreN", "singleCoreK", "baseM", "baseN", "baseK",
    "depthA1", "depthB1", "stepM", "stepN", "isBias", "transLength", "iterateOrder", "shareMode", "shareL1Size",
    "shareL0CSize", "shareUbSize", "batchM", "batchN", "singleBatchM", "singleBatchN", "stepKa", "stepKb",
    "depthAL1CacheUB", "depthBL1CacheUB", "dbL0A", "dbL0B", "dbL0C")}

FUNCTIONS = {a.py: a for a in TABLE if a.kind == "function"}
CLASSES = {a.py: a for a in TABLE if a.kind in ("class", "typearg")}
ENUMS = {a.py: a for a in TABLE if a.kind == "enum"}
STRUCTS = {a.py: a for a in TABLE if a.kind == "struct"}
METHODS = {(a.owner, a.py): a for a in TABLE if a.kind == "method"}


def cpp_names() -> set[str]:
    """Every Ascend C name the table reaches (classes, enums and members, structs, functions, methods)."""
    out = {a.cpp for a in TABLE}
    for a in TABLE:
        out.update(a.members)
    return out


def markdown() -> str:
    """The table as docs/pyasc-lang-api.md shows it (tests check the file is this text)."""
    lines = ["# pyasc.lang: Python names and their Ascend C spellings", "",
             "Generated from `pyasc/lang/table.py` (`python -m pyasc.lang.table > docs/pyasc-lang-api.md`).",
             "`tmpl` leading arguments become template arguments: `asc.set_flag(asc.HardEvent.MTE2_V, 0)` is",
             "`AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(0)`.", "",
             "| Python (`import pyasc.lang as asc`) | Ascend C | kind | tmpl |", "| --- | --- | --- | --- |"]
    for a in TABLE:
        py = f"{a.owner}.{a.py}" if a.owner else f"asc.{a.py}"
        cpp = f"{a.owner}::{a.cpp}" if a.owner else a.spelled
        lines.append(f"| `{py}` | `{cpp}` | {a.kind} | {a.tmpl or ''} |")
    lines += ["", "Element types: `asc.bool_ int8 uint8 int16 uint16 int32 uint32 int64 uint64 float16 bfloat16 "
              "float32 float64` (C++ `bool int8_t ... half bfloat16_t float double`), each with `.sizeof()`.", ""]
    return "\n".join(lines)


if __name__ == "__main__":
    print(markdown(), end="")
