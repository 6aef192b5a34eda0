"""The pluggy hook specifications: the only way backends, ops and kernels reach pyasc.

Built-in backends and ops use these same hooks. A plugin module (or object) implements any of
them with ``@pyasc.hookimpl`` and is found through the ``pyasc`` entry-point group::

    [project.entry-points.pyasc]
    mypack = "mypack.plugin"

Each hook receives a ``register`` callable. Hooks run once per registry rebuild, never per op call.
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("pyasc")
hookimpl = pluggy.HookimplMarker("pyasc")


@hookspec
def pyasc_register_backends(register):  # type: ignore[no-untyped-def]
    """Call ``register(backend)`` for each :class:`pyasc_core.backend.Backend` instance provided."""


@hookspec
def pyasc_register_ops(register):  # type: ignore[no-untyped-def]
    """Call ``register(op_def)`` for each :class:`pyasc_core.library.OpDef` provided."""


@hookspec
def pyasc_register_kernels(register):  # type: ignore[no-untyped-def]
    """Call ``register(op_name, backend_name, kernel)`` for each kernel provided.

    A kernel is called as ``kernel(out_meta, *args)``: ``out_meta`` is the TensorMeta (or tuple of
    them) the op's meta function computed, ``args`` the bound arguments in schema order.
    It returns the output Tensor (or tuple of Tensors).
    """


@hookspec
def pyasc_register_commands(register):  # type: ignore[no-untyped-def]
    """Call ``register(name, help, add_arguments, run)`` for each ``pyasc`` CLI subcommand provided.

    ``add_arguments(parser)`` adds the subcommand's options to its ``argparse`` parser;
    ``run(args)`` runs it with the parsed ``argparse.Namespace`` and returns the exit status
    (a :class:`pyasc_core.errors.PyascError` it raises is printed as ``pyasc NAME: error: ...``,
    status 2). Built-in command names (info, ops, plugins, check, bench) cannot be taken.
    """
