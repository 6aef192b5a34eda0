"""pyasc_core: tensors, dtypes, devices, the op registry and dispatch, memory and stream API,
pluggy hooks and plugin manager, errors, and the CLI. Backends plug in through its hooks."""

__version__ = "0.1.0"
