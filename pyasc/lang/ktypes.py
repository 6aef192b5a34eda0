"""The types the JIT infers for kernel values, and how C++ spells them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import dtypes as dt


@dataclass(frozen=True)
class Scalar:
    """A C++ arithmetic scalar (``int32_t``, ``float``, ``half``, ``bool``)."""

    cpp: str

    @property
    def dtype(self) -> dt.DType:
        return dt.by_cpp(self.cpp)  # type: ignore[return-value]

    @property
    def is_float(self) -> bool:
        return self.dtype.is_float

    def __str__(self) -> str:
        return self.cpp


BOOL, INT32, INT64, UINT32, FLOAT = Scalar("bool"), Scalar("int32_t"), Scalar("int64_t"), Scalar("uint32_t"), Scalar("float")


def join(a: Scalar, b: Scalar) -> Scalar:
    """C++'s usual arithmetic conversions (integers narrower than int become int32_t)."""
    da, db = a.dtype, b.dtype
    if da.is_float or db.is_float:
        if da.is_float and db.is_float:
            return a if da.sizeof() >= db.sizeof() else b
        return a if da.is_float else b
    size = max(da.sizeof(), db.sizeof(), 4)
    unsigned = any(d.kind == "uint" and d.sizeof() == size and d.cpp != "bool" for d in (da, db))
    return Scalar(f"{'u' if unsigned else ''}int{size * 8}_t")


def scalar_of(value: Any) -> Scalar:
    """The C++ type a Python scalar argument or literal is given (int: int32_t, int64_t past its
    range; float: float; bool: bool; NumPy scalars: their own)."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT32 if -2**31 <= value < 2**31 else INT64
    if isinstance(value, float):
        return FLOAT
    return Scalar(dt.from_numpy(value.dtype).cpp)


@dataclass(frozen=True)
class GMAddr:
    """A ``GM_ADDR`` parameter whose element type is the launched tensor's; ``typed`` once offset."""

    dtype: dt.DType
    typed: bool = False

    def __str__(self) -> str:
        return "GM_ADDR" if not self.typed else f"__gm__ {self.dtype.cpp} *"


class GlobalTensorT:
    """``GlobalTensor<T>``; T may be set later, by the first ``set_global_buffer`` (mutable)."""

    def __init__(self, dtype: dt.DType | None) -> None:
        self.dtype = dtype

    def __str__(self) -> str:
        return f"AscendC::GlobalTensor<{self.dtype.cpp if self.dtype else '?'}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GlobalTensorT) and other.dtype is self.dtype

    def __hash__(self) -> int:
        return hash(("GlobalTensor", self.dtype))


@dataclass(frozen=True)
class LocalTensorT:
    dtype: dt.DType

    def __str__(self) -> str:
        return f"AscendC::LocalTensor<{self.dtype.cpp}>"


@dataclass(frozen=True)
class Obj:
    """A non-copyable kernel object (TPipe, TQue<...>, TQueBind<...>, TBuf<...>): passed by reference."""

    cls: str  # TPipe | TQue | TQueBind | TBuf
    cpp: str

    def __str__(self) -> str:
        return self.cpp


@dataclass(frozen=True)
class Struct:
    """A params struct or a tiling struct (``fields``: {name: Scalar} when known)."""

    cpp: str
    fields: tuple[tuple[str, Any], ...] = ()

    def field(self, name: str) -> Any:
        return dict(self.fields).get(name)

    def __str__(self) -> str:
        return self.cpp


def is_tensor(t: Any) -> bool:
    return isinstance(t, (GlobalTensorT, LocalTensorT))
