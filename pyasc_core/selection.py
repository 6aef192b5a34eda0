"""Which backend new tensors go to: ``set_backend``, ``using_backend``, ``PYASC_BACKEND``, the default.

The default is the available backend with the highest priority (``sim`` once installed, else
``numpy``). ``using_backend`` is scoped to the current thread/async context.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
from collections.abc import Iterator
from typing import Any

from .device import Device, parse_device_string
from .errors import BackendUnavailableError, PyascError, UnknownBackendError
from .registry import REGISTRY

_global: str | None = None
_scoped: contextvars.ContextVar[str | None] = contextvars.ContextVar("pyasc_backend", default=None)
_lock = threading.Lock()


def _canonical(name: str) -> str:
    if not isinstance(name, str):
        raise UnknownBackendError(f"a backend name must be a string, got {type(name).__name__} {name!r}")
    backend = REGISTRY.available_backend(name)
    return backend.name


def default_backend_name() -> str:
    """``PYASC_BACKEND`` if set, else the highest-priority available backend."""
    env = os.environ.get("PYASC_BACKEND")
    if env:
        try:
            return _canonical(env)
        except (UnknownBackendError, BackendUnavailableError) as exc:
            raise type(exc)(f"PYASC_BACKEND={env!r}: {exc}") from None
    REGISTRY.ensure()
    ranked = sorted(REGISTRY.backends.values(), key=lambda b: -b.priority)
    for b in ranked:
        if b.priority >= 0 and REGISTRY.availability(b.name)[0]:
            return b.name
    return "numpy"


def get_backend() -> str:
    """The name of the backend new tensors are created on."""
    scoped = _scoped.get()
    if scoped is not None:
        return scoped
    global _global
    if _global is None:
        with _lock:
            if _global is None:
                _global = default_backend_name()
    return _global


def set_backend(name: str) -> None:
    """Make ``name`` (or an alias such as ``reference``) the backend for new tensors, process-wide."""
    global _global
    _global = _canonical(name)


@contextlib.contextmanager
def using_backend(name: str) -> Iterator[str]:
    """Within the block (this thread/context only) new tensors go to backend ``name``."""
    token = _scoped.set(_canonical(name))
    try:
        yield _scoped.get()  # type: ignore[misc]
    finally:
        _scoped.reset(token)


def reset_for_tests() -> None:
    global _global
    _global = None


def resolve_device(device: Any = None) -> Device:
    """A Device from None (current backend), a Device, or a string like 'sim', 'sim:1', 'reference'."""
    if device is None:
        backend = REGISTRY.available_backend(get_backend())
        return backend.device(None)
    if isinstance(device, Device):
        REGISTRY.available_backend(device.type)
        return device
    if isinstance(device, str):
        name, index = parse_device_string(device)
        backend = REGISTRY.available_backend(name)
        if index is not None and index >= backend.device_count():
            raise PyascError(
                f"device {device!r} does not exist: backend {backend.name!r} has "
                f"{backend.device_count()} device(s), indexes 0..{backend.device_count() - 1}"
            )
        return backend.device(index)
    raise PyascError(
        f"cannot use {type(device).__name__} {device!r} as a device; pass a name such as 'numpy' "
        "or 'sim:0', or a pyasc.Device"
    )
