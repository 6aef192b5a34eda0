"""Tiling structs for Ascend C kernels (re-exported from ``pyasc_core.tiling`` and
``pyasc_core.kernel``): the C field types, ``array``, ``TilingStruct`` and ``upload``."""

from pyasc_core.kernel import upload
from pyasc_core.tiling import (
    Array,
    CType,
    Field,
    TilingStruct,
    array,
    bfloat16,
    bool_,
    double,
    float16,
    float32,
    float64,
    half,
    int8_t,
    int16_t,
    int32_t,
    int64_t,
    uint8_t,
    uint16_t,
    uint32_t,
    uint64_t,
)

__all__ = ["Array", "CType", "Field", "TilingStruct", "array", "bfloat16", "bool_", "double", "float16",
           "float32", "float64", "half", "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
           "uint32_t", "uint64_t", "upload"]
