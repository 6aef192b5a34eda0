"""Devices: a backend name plus an index ('sim:0'), interned so identity is equality."""

from __future__ import annotations

import numbers
import threading

from .errors import InvalidDeviceError


class Device:
    """Where a tensor lives. Host backends (numpy, meta) have no index and print as their name."""

    __slots__ = ("type", "index", "__weakref__")
    _interned: dict[tuple[str, int | None], Device] = {}
    _lock = threading.Lock()

    type: str
    index: int | None

    def __new__(cls, type: str, index: int | None = None) -> Device:  # noqa: A002
        key = (type, index)
        dev = cls._interned.get(key)
        if dev is None:
            _validate(type, index)
            with cls._lock:
                dev = cls._interned.get(key)
                if dev is None:
                    dev = object.__new__(cls)
                    object.__setattr__(dev, "type", type)
                    object.__setattr__(dev, "index", index)
                    cls._interned[key] = dev
        return dev

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Device is immutable")

    def __reduce__(self):
        return (Device, (self.type, self.index))

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __repr__(self) -> str:
        return f"device({str(self)!r})"


def _validate(type: object, index: object) -> None:  # noqa: A002
    if not isinstance(type, str) or not type:
        raise InvalidDeviceError(
            f"a device type must be a backend name such as 'numpy' or 'sim', got {type!r}; "
            "e.g. pyasc.Device('sim', 0)"
        )
    if index is not None and (not isinstance(index, numbers.Integral) or isinstance(index, bool) or index < 0):
        raise InvalidDeviceError(
            f"device index {index!r} of {type!r} is not valid; use an int >= 0 (or None), "
            f"e.g. pyasc.Device({type!r}, 0)"
        )


def parse_device_string(text: str) -> tuple[str, int | None]:
    """Split 'sim:1' into ('sim', 1); 'numpy' into ('numpy', None)."""
    name, sep, idx = text.partition(":")
    if not sep:
        return name, None
    try:
        index = int(idx)
    except ValueError:
        raise InvalidDeviceError(
            f"device string {text!r} has a bad index {idx!r}; write 'name' or 'name:N', e.g. 'sim:0'"
        ) from None
    if index < 0:
        raise InvalidDeviceError(
            f"device index must be >= 0, got {index} in {text!r}; write e.g. '{name}:0'"
        )
    return name, index
