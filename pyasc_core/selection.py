"""Which backend new tensors go to: ``set_backend``, ``using_backend``, ``PYASC_BACKEND``, the default.

The default is the available backend with the highest priority among pyasc's own (``sim`` once
installed, else ``numpy``). A backend that is installed but misconfigured (a bad ``PYASC_SIM_*``
setting) raises instead of being skipped, and a third-party plugin's backend never becomes the
default: users select it by name. ``using_backend`` is scoped to the current thread/async context.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import threading
from collections.abc import Iterator
from typing import Any

from .device import Device, parse_device_string
from .errors import (
    BackendConfigError,
    BackendUnavailableError,
    InvalidDeviceError,
    PyascError,
    UnknownBackendError,
)
from .registry import REGISTRY

_global: str | None = None
_scoped: contextvars.ContextVar[str | None] = contextvars.ContextVar("pyasc_backend", default=None)
_lock = threading.Lock()
_checked_devices: set[Device] = set()


def _canonical(name: str) -> str:
    if not isinstance(name, str):
        raise UnknownBackendError(f"a backend name must be a string, got {type(name).__name__} {name!r}")
    backend = REGISTRY.available_backend(name)
    return backend.name


def default_candidates() -> list[str]:
    """The backends that may become the default, best first: pyasc's own with priority >= 0
    (a backend from a third-party plugin is used only when selected by name)."""
    from .plugins import OWN_DISTRIBUTION

    REGISTRY.ensure()
    ranked = sorted(REGISTRY.backends.values(), key=lambda b: -b.priority)
    return [b.name for b in ranked
            if b.priority >= 0 and REGISTRY.backend_sources.get(b.name) == OWN_DISTRIBUTION]


def default_backend_name() -> str:
    """``PYASC_BACKEND`` if set, else the highest-priority available backend of pyasc's own.

    A candidate that is installed but misconfigured raises its BackendConfigError rather than
    letting the default move silently to the next one (e.g. from ``sim`` to ``numpy``)."""
    env = os.environ.get("PYASC_BACKEND")
    if env and env.strip():
        try:
            return _canonical(env.strip())
        except (UnknownBackendError, BackendUnavailableError) as exc:
            raise type(exc)(f"PYASC_BACKEND={env!r}: {exc}") from None
    for name in default_candidates():
        if REGISTRY.availability(name)[0]:
            return name
        err = REGISTRY.config_error(name)
        if err is not None:
            raise BackendConfigError(
                f"{err} ({name!r} is the default backend here; pyasc does not fall back to another one silently)"
            ) from None
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
    _RESOLVED.clear()


#: device spec (str or Device) -> (Device, registry version, availability table) of a spec that
#: resolved to an available backend: the repeated ``synchronize("sim")`` skips parsing and checks
_RESOLVED: dict[Any, tuple[Device, int, Any]] = {}


def resolve_device(device: Any = None) -> Device:
    """A Device from None (current backend), a Device, or a string like 'sim', 'sim:1', 'reference'."""
    t = type(device)
    if t is str or t is Device:
        hit = _RESOLVED.get(device)
        if hit is not None and hit[1] == REGISTRY.version and hit[2] is REGISTRY._availability:
            return hit[0]
        dev = _resolve_device(device)
        if len(_RESOLVED) > 256:
            _RESOLVED.clear()
        _RESOLVED[device] = (dev, REGISTRY.version, REGISTRY._availability)
        return dev
    return _resolve_device(device)


def _resolve_device(device: Any) -> Device:
    if device is None:
        backend = REGISTRY.available_backend(get_backend())
        return backend.device(None)
    if isinstance(device, Device):
        backend = REGISTRY.available_backend(device.type)
        if device.index is not None and device not in _checked_devices:  # once per device: hot path
            _check_index(backend, device.index, str(device))
            _checked_devices.add(device)
        return device
    if isinstance(device, str):
        name, index = parse_device_string(device)
        backend = REGISTRY.available_backend(name)
        if index is not None:
            _check_index(backend, index, device)
        return backend.device(index)
    raise PyascError(
        f"cannot use {type(device).__name__} {device!r} as a device; pass a name such as 'numpy' "
        "or 'sim:0', or a pyasc.Device"
    )


def _check_index(backend: Any, index: int, text: str) -> None:
    count = backend.device_count()
    if index >= count:
        raise InvalidDeviceError(
            f"device {text!r} does not exist: backend {backend.name!r} has {count} device(s); use "
            f"an index in 0..{count - 1}, e.g. '{backend.name}:0' ('pyasc info' lists the devices)"
        )
