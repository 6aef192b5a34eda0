"""The exception hierarchy: every failure a user can cause is a PyascError subclass.

Classes also derive from the matching built-in exception (TypeError, ValueError, ...) so that
code written against NumPy or PyTorch conventions keeps catching them.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class PyascError(Exception):
    """Base class of every error pyasc raises on purpose."""


class ArgumentError(PyascError, TypeError):
    """An op was called with a wrong number of arguments, an unknown or missing one, or a bad value."""


class DtypeError(PyascError, TypeError):
    """A dtype is not supported here, or not allowed for this op argument."""


class ShapeError(PyascError, ValueError):
    """Shapes do not broadcast, do not match, or an axis is out of range."""


class IndexingError(PyascError, IndexError):
    """An index is out of range or malformed."""


class OutOfMemoryError(PyascError, MemoryError):
    """An allocation did not fit; the message states allocated, reserved, free and total bytes."""


class DeviceMismatchError(PyascError, ValueError):
    """One op was given tensors that live on different devices."""


class BackendError(PyascError, RuntimeError):
    """Base class of backend selection and backend runtime failures."""


class UnknownBackendError(BackendError, ValueError):
    """A backend name that no plugin registered."""


class BackendUnavailableError(BackendError):
    """A registered backend that cannot run on this machine (the message says why)."""


class BackendConfigError(BackendUnavailableError, ValueError):
    """A backend that is installed but cannot start with the settings given (e.g. a ``PYASC_SIM_*``
    variable with a bad value). Unlike a backend that is not installed, it is never skipped
    silently: selecting it, or choosing the default backend, raises this error."""


class EnvironmentSettingError(PyascError, ValueError):
    """An environment variable of pyasc has a value pyasc does not understand."""


class InvalidDeviceError(PyascError, ValueError):
    """A device name or index that does not exist (e.g. 'sim:7' with one simulated device)."""


class DevicePointerError(PyascError, ValueError):
    """A device address given to ``pyasc.from_device_pointer`` that cannot be wrapped: null,
    misaligned, too small for the shape, not inside device memory of that device, or pyasc's own."""


class ValueRangeError(ArgumentError, ValueError, OverflowError):
    """A value does not fit the dtype it goes into: NaN or infinity into an integer tensor, or a
    number outside the integer dtype's range (convert on purpose with ``astype``)."""


class KernelNotFoundError(BackendError, NotImplementedError):
    """An op has no kernel on the backend of its inputs, and no composite definition."""


class NotOnSocError(KernelNotFoundError):
    """The dtype does not exist on the SoC the backend's kernels are built for (bfloat16 on the
    Atlas inference series): no kernel can exist, so ``pyasc check`` reports the row "not supported
    by the SoC" (neither a failure nor a pass). ``soc`` names the SoC, ``reason`` the reference fact."""

    def __init__(self, message: str, soc: str = "", reason: str = "") -> None:
        super().__init__(message)
        self.soc = soc
        self.reason = reason


class OpRegistrationError(PyascError, ValueError):
    """An op, schema or kernel definition is malformed."""


class UnknownOpError(PyascError, LookupError):
    """An op name that nothing registered."""


class TorchUnavailableError(PyascError, ImportError):
    """A PyTorch feature of pyasc was used but torch is not installed (pip install 'pyasc-runtime[torch]')."""


class PluginError(PyascError, RuntimeError):
    """Base class of plugin loading problems."""


class PluginHookError(PluginError):
    """A plugin hook broke its contract (e.g. returned values instead of calling ``register``)."""


class PluginConflictError(PluginError):
    """Two plugins define the same op, kernel or backend."""


class ReservedNamespaceError(PluginConflictError, OpRegistrationError):
    """A third-party plugin or user code defined an op in the ``pyasc::`` namespace, which is
    reserved for pyasc's built-in ops (the fix: your own namespace, e.g. ``mypack::``)."""


class ReferenceMismatchError(PyascError, AssertionError):
    """A kernel's result or metadata disagrees with the op's reference or meta function."""


class StreamRaceError(PyascError, RuntimeError):
    """Work on two streams touches the same device bytes, one writing, with no event, stream wait
    or synchronize between them (the stream sanitizer, ``PYASC_STREAM_SANITIZER``)."""


class PyascPluginWarning(UserWarning):
    """A plugin failed to load or register, or registered something that cannot be used."""


class SanitizerWarning(UserWarning):
    """A kernel did something the hardware tolerates but that is suspicious (severity "warning"
    of the simulator's sanitizer, e.g. a queue tensor never freed); raised at the synchronize
    that follows the launch. PYASC_SIM_STRICT=1 makes these errors of the kernel instead."""


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """A ' Did you mean ...?' suffix for a misspelt name, or ''."""
    close = difflib.get_close_matches(name, list(choices), n=1)
    return f" Did you mean {close[0]!r}?" if close else ""
