// Host headers that spell ge::DT_* (graph/types.h, the tiling helpers) include this first and
// pyasc_sim/kapi/dt_names_end.h after: an op build defines DT_* as preprocessor numbers
// (kapi/op_dtypes.h), which would otherwise turn ge::DT_FLOAT16 into ge::1.  No include guard.
#pragma push_macro("DT_FLOAT")
#undef DT_FLOAT
#pragma push_macro("DT_FLOAT16")
#undef DT_FLOAT16
#pragma push_macro("DT_INT8")
#undef DT_INT8
#pragma push_macro("DT_INT32")
#undef DT_INT32
#pragma push_macro("DT_UINT8")
#undef DT_UINT8
#pragma push_macro("DT_INT16")
#undef DT_INT16
#pragma push_macro("DT_UINT16")
#undef DT_UINT16
#pragma push_macro("DT_UINT32")
#undef DT_UINT32
#pragma push_macro("DT_INT64")
#undef DT_INT64
#pragma push_macro("DT_UINT64")
#undef DT_UINT64
#pragma push_macro("DT_DOUBLE")
#undef DT_DOUBLE
#pragma push_macro("DT_BOOL")
#undef DT_BOOL
#pragma push_macro("DT_BF16")
#undef DT_BF16
