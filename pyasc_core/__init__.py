"""pyasc_core: tensors, dtypes, devices, the op registry and dispatch, memory and stream API,
pluggy hooks and plugin manager, errors, and the CLI. Backends plug in through its hooks."""

__version__ = "0.1.0"

# The Tensor's constructor, operators and DLPack export are added by the layers above tensor.py
# when they load (pyasc_core.creation, .tensor_ops, .interop); load them with the package so a
# Tensor is always complete, whichever module is imported first.
from . import creation, interop, tensor_ops  # noqa: E402,F401
