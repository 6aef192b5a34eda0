"""The Python objects ``pyasc.lang`` exports for the table's names: markers the JIT resolves at
compile time (calling one outside a ``@pyasc.jit`` kernel is an error that says so)."""

from __future__ import annotations

from typing import Any

from .errors import CompileError
from .table import CLASSES, ENUMS, FUNCTIONS, STRUCTS, Api


class ApiObject:
    """A name of the kernel API (``asc.add``, ``asc.TQue``, ``asc.DataCopyParams``)."""

    __slots__ = ("api",)

    def __init__(self, api: Api) -> None:
        self.api = api

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise CompileError(f"asc.{self.api.py} ({self.api.spelled}) runs on the NPU: call it inside a "
                           "@pyasc.jit kernel")

    def __repr__(self) -> str:
        return f"<asc.{self.api.py}: {self.api.kind} {self.api.spelled}>"


class EnumMember:
    """``asc.TPosition.VECIN``: spelled ``AscendC::TPosition::VECIN`` (``PIPE_V`` for pipe_t)."""

    __slots__ = ("enum", "name")

    def __init__(self, enum: Api, name: str) -> None:
        self.enum, self.name = enum, name

    @property
    def cpp(self) -> str:
        return f"{self.enum.spelled}::{self.name}" if self.enum.scoped else self.name

    def __repr__(self) -> str:
        return f"asc.{self.enum.py}.{self.name}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EnumMember) and (self.enum.cpp, self.name) == (other.enum.cpp, other.name)

    def __hash__(self) -> int:
        return hash((self.enum.cpp, self.name))


class TypeArg:
    """A C++ type given as a template argument (``asc.MatmulType(...)`` in a kernel)."""

    __slots__ = ("cpp",)

    def __init__(self, cpp: str) -> None:
        self.cpp = cpp

    def __repr__(self) -> str:
        return self.cpp

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TypeArg) and other.cpp == self.cpp

    def __hash__(self) -> int:
        return hash(self.cpp)


class ApiEnum(ApiObject):
    """An enum: its members are attributes."""

    __slots__ = ("_members",)

    def __init__(self, api: Api) -> None:
        super().__init__(api)
        self._members = {m: EnumMember(api, m) for m in api.members}

    def __getattr__(self, name: str) -> EnumMember:
        try:
            return self._members[name]
        except KeyError:
            raise AttributeError(f"asc.{self.api.py} has no member {name!r}; its members are "
                                 f"{', '.join(self._members)}") from None

    def __dir__(self) -> list[str]:
        return list(self._members)


def exports() -> dict[str, Any]:
    """{python name: object} of every table entry at module level."""
    out: dict[str, Any] = {}
    for table in (CLASSES, FUNCTIONS, STRUCTS):
        out.update({k: ApiObject(v) for k, v in table.items()})
    out.update({k: ApiEnum(v) for k, v in ENUMS.items()})
    return out
