// Ascend C on the CPU -- the preprocessor dtype / format numbers of an op build.
//
// CANN's op build compiles a kernel once per dtype combination with -DORIG_DTYPE_X=DT_FLOAT16
// (and -DFORMAT_X=FORMAT_ND), and the kernel headers define DT_* / FORMAT_* as plain integers so
// `#if ORIG_DTYPE_X == DT_FLOAT16` selects code in the preprocessor.  pyasc_sim.compile(dtypes=...)
// defines PYASC_SIM_OP_DTYPE_MACROS and includes this header (from kapi/tiling.h).  The numbers are
// the public ge::DataType / ge::Format enum values (graph/types.h uses the same ones).  Only an op
// build defines them: a kernel-launch source that includes the host tiling API and names
// ge::DT_FLOAT16 keeps working.
#ifndef PYASC_SIM_KAPI_OP_DTYPES_H_
#define PYASC_SIM_KAPI_OP_DTYPES_H_

// ge::DataType
#define DT_FLOAT 0
#define DT_FLOAT16 1
#define DT_INT8 2
#define DT_INT32 3
#define DT_UINT8 4
#define DT_INT16 6
#define DT_UINT16 7
#define DT_UINT32 8
#define DT_INT64 9
#define DT_UINT64 10
#define DT_DOUBLE 11
#define DT_BOOL 12
#define DT_STRING 13
#define DT_DUAL_SUB_INT8 14
#define DT_DUAL_SUB_UINT8 15
#define DT_COMPLEX64 16
#define DT_COMPLEX128 17
#define DT_QINT8 18
#define DT_QINT16 19
#define DT_QINT32 20
#define DT_QUINT8 21
#define DT_QUINT16 22
#define DT_RESOURCE 23
#define DT_STRING_REF 24
#define DT_DUAL 25
#define DT_VARIANT 26
#define DT_BF16 27
#define DT_UNDEFINED 28
#define DT_INT4 29
#define DT_UINT1 30
#define DT_INT2 31
#define DT_UINT2 32
#define DT_COMPLEX32 33
#define DT_HIFLOAT8 34
#define DT_FLOAT8_E5M2 35
#define DT_FLOAT8_E4M3FN 36
#define DT_FLOAT8_E8M0 37
#define DT_FLOAT6_E3M2 38
#define DT_FLOAT6_E2M3 39
#define DT_FLOAT4_E2M1 40
#define DT_FLOAT4_E1M2 41

// ge::Format (the common ones)
#define FORMAT_NCHW 0
#define FORMAT_NHWC 1
#define FORMAT_ND 2
#define FORMAT_NC1HWC0 3
#define FORMAT_FRACTAL_Z 4
#define FORMAT_HWCN 16
#define FORMAT_NDHWC 27
#define FORMAT_FRACTAL_ZZ 28
#define FORMAT_FRACTAL_NZ 29
#define FORMAT_NCDHW 30
#define FORMAT_DHWCN 31
#define FORMAT_NDC1HWC0 32
#define FORMAT_FRACTAL_Z_3D 33
#define FORMAT_CN 34
#define FORMAT_NC 35
#define FORMAT_NCL 47

#endif  // PYASC_SIM_KAPI_OP_DTYPES_H_
