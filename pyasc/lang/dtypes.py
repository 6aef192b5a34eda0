"""Element types of Python kernels (``asc.float16``, ``asc.float32``, ...) and parameter markers
(``asc.GlobalAddress``, ``asc.constexpr``): each element type knows its Ascend C spelling and size."""

from __future__ import annotations

from typing import Any

import numpy as np

from pyasc_core import dtypes as _core_dt


class DType:
    """An element type: ``asc.float32.cpp`` is ``float``, ``asc.float32.sizeof()`` is 4 (in a
    kernel, ``x.dtype.sizeof()`` is the C++ ``sizeof(float)``)."""

    __slots__ = ("name", "cpp", "np", "kind")

    def __init__(self, name: str, cpp: str, np_dtype: Any, kind: str) -> None:
        self.name, self.cpp, self.np, self.kind = name, cpp, np.dtype(np_dtype), kind

    def sizeof(self) -> int:
        """Bytes per element (C++ ``sizeof``)."""
        return self.np.itemsize

    @property
    def is_float(self) -> bool:
        return self.kind == "float"

    def __repr__(self) -> str:
        return f"asc.{self.name}"

    def __reduce__(self) -> Any:
        return (by_name, (self.name,))


bool_ = DType("bool_", "bool", np.bool_, "uint")
int8 = DType("int8", "int8_t", np.int8, "int")
uint8 = DType("uint8", "uint8_t", np.uint8, "uint")
int16 = DType("int16", "int16_t", np.int16, "int")
uint16 = DType("uint16", "uint16_t", np.uint16, "uint")
int32 = DType("int32", "int32_t", np.int32, "int")
uint32 = DType("uint32", "uint32_t", np.uint32, "uint")
int64 = DType("int64", "int64_t", np.int64, "int")
uint64 = DType("uint64", "uint64_t", np.uint64, "uint")
float16 = DType("float16", "half", np.float16, "float")
bfloat16 = DType("bfloat16", "bfloat16_t", _core_dt.bfloat16, "float")
float32 = DType("float32", "float", np.float32, "float")
float64 = DType("float64", "double", np.float64, "float")

ALL = (bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64, float16, bfloat16, float32, float64)
_BY_NAME = {d.name: d for d in ALL}
_BY_CPP = {d.cpp: d for d in ALL}
_BY_NP = {d.np: d for d in ALL}


def by_name(name: str) -> DType:
    return _BY_NAME[name]


def by_cpp(cpp: str) -> DType | None:
    """The element type spelled ``cpp`` in C++ (``half``), or None."""
    return _BY_CPP.get(cpp)


def from_numpy(dtype: Any) -> DType:
    """The element type of a NumPy / pyasc dtype (raises KeyError for one kernels cannot take)."""
    return _BY_NP[np.dtype(dtype)]


class GlobalAddress:
    """Annotation of a kernel parameter that is a tensor in global memory (C++ ``GM_ADDR``): its
    element type is the launched tensor's (``x.dtype`` in the kernel)."""


class constexpr:  # noqa: N801  (the spelling Triton users know)
    """Annotation of a compile-time parameter: its value is baked into the generated source and
    each value is its own specialisation (``tile: asc.constexpr``)."""
