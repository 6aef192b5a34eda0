"""Where an op's work runs on a device backend (AI Core kernel, AI CPU kernel, host fallback) and
what pyasc does when only the host fallback is left (``PYASC_FALLBACK`` / ``set_fallback``).

Backends report each op run here (:func:`ran`); ``pyasc check`` reads the counts around a sample
so a host-fallback row never counts as a kernel pass. The fallback copies the inputs to the host,
runs the op's reference and copies the result back, in stream order."""

from __future__ import annotations

import os
import threading
import warnings
from typing import Any

from .errors import ArgumentError, EnvironmentSettingError, KernelNotFoundError

#: the places an op can run, as `pyasc ops` / `pyasc check` name them
AICORE, AICPU, HOST, NONE = "AI Core", "AI CPU", "host fallback", "none"
PLACES = (AICORE, AICPU, HOST, NONE)
MODES = ("error", "warn", "silent")
DEFAULT_MODE = "warn"


class FallbackWarning(UserWarning):
    """An op ran on the host (copy out, NumPy reference, copy in) because the device has no kernel
    for it: correct but slow. Shown once per op and backend (PYASC_FALLBACK=silent hides it)."""


_lock = threading.Lock()
_mode: str | None = None
_warned: set[tuple[str, str]] = set()
#: how many op runs went to each place since the process started
COUNTS: dict[str, int] = {AICORE: 0, AICPU: 0, HOST: 0}


def _check_mode(value: Any, what: str, error: type[Exception]) -> str:
    if isinstance(value, str) and value.strip().lower() in MODES:
        return value.strip().lower()
    raise error(f"{what} must be one of {', '.join(MODES)} (what to do when an op has no device kernel and "
                f"would run on the host), got {value!r}; e.g. pyasc.set_fallback('warn') or PYASC_FALLBACK=error")


def set_fallback(mode: str) -> None:
    """Choose what an op with no device kernel does: 'error' raises KernelNotFoundError, 'warn'
    (the default) runs it on the host with a one-time FallbackWarning, 'silent' runs it quietly."""
    global _mode
    _mode = _check_mode(mode, "pyasc.set_fallback(mode)", ArgumentError)


def get_fallback() -> str:
    """The fallback mode: set_fallback's, else PYASC_FALLBACK, else 'warn'."""
    if _mode is not None:
        return _mode
    env = os.environ.get("PYASC_FALLBACK", "")
    if not env:
        return DEFAULT_MODE
    return _check_mode(env, "PYASC_FALLBACK", EnvironmentSettingError)


def ran(place: str) -> None:
    """Count one op run at ``place`` (AICORE, AICPU or HOST)."""
    COUNTS[place] += 1


def snapshot() -> dict[str, int]:
    return dict(COUNTS)


def allow_host(op: str, backend: str, why: str) -> None:
    """Called before an op falls back to the host: raises in 'error' mode, warns once per (op,
    backend) in 'warn' mode."""
    mode = get_fallback()
    if mode == "error":
        raise KernelNotFoundError(
            f"{op} has no {backend} kernel for this call ({why}) and PYASC_FALLBACK/set_fallback is 'error'; "
            "allow the host fallback with pyasc.set_fallback('warn'), cast to a dtype the device runs, or "
            "run it on the reference with .to('numpy')")
    if mode == "warn":
        with _lock:
            first = (op, backend) not in _warned
            _warned.add((op, backend))
        if first:
            warnings.warn(f"{op} runs on the host on {backend} ({why}): its inputs are copied out, computed by "
                          "the NumPy reference and copied back (slow). pyasc.set_fallback('silent') hides this, "
                          "'error' forbids it", FallbackWarning, stacklevel=4)
