"""The pluggy hook specifications: the only way backends, ops, kernels and commands reach pyasc.

Built-in backends and ops use these same hooks (as pytest's built-in plugins do). A plugin module
(or object) implements any of them with ``@pyasc.hookimpl`` and is found through the ``pyasc``
entry-point group::

    [project.entry-points.pyasc]
    mypack = "mypack.plugin"

The call contract, common to every hook here:

- Each hook receives one argument, ``register``, a callable of the type named in its signature
  (the Protocols below). The hook calls it once per item it provides and returns ``None``: a hook
  that returns its items instead fails with :class:`~pyasc_core.errors.PluginHookError`.
- The registry hooks (backends, ops, kernels) run together, plugin by plugin, in that order, when
  the registry is rebuilt: on first use and after a plugin is registered or unregistered or a
  runtime op or kernel is defined. Never per op call. The command hook runs once per ``pyasc``
  command line.
- A hook that raises (anything but ``KeyboardInterrupt``, ``sys.exit()`` included) marks its
  plugin failed: a :class:`~pyasc_core.errors.PyascPluginWarning` names it, ``pyasc plugins``
  shows why, and everything that plugin registered is dropped while every other plugin works.
- A conflict (a backend name, op name or (op, backend) kernel that an earlier plugin already
  registered) marks the *later* third-party plugin failed the same way; pyasc's built-ins always
  win. The ``pyasc::`` op namespace is reserved for pyasc's own ops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

import pluggy

if TYPE_CHECKING:  # annotations only: the hook layer imports nothing of the core at run time
    import argparse

    from .backend import Backend
    from .opdef import OpDef

hookspec = pluggy.HookspecMarker("pyasc")
hookimpl = pluggy.HookimplMarker("pyasc")


class RegisterBackend(Protocol):
    """The ``register`` of :func:`pyasc_register_backends`."""

    def __call__(self, backend: Backend) -> None:
        """Provide ``backend`` (a :class:`pyasc_core.backend.Backend` instance; not its class).

        Raises :class:`~pyasc_core.errors.OpRegistrationError` for anything else. Its ``name``
        and ``aliases`` must be unique across plugins (see the module's conflict rule).
        """


class RegisterOp(Protocol):
    """The ``register`` of :func:`pyasc_register_ops`."""

    def __call__(self, op: OpDef) -> None:
        """Provide ``op`` (a :class:`pyasc_core.opdef.OpDef`) under its namespaced name.

        Raises :class:`~pyasc_core.errors.OpRegistrationError` for anything but an OpDef, and
        :class:`~pyasc_core.errors.ReservedNamespaceError` for a third-party op named
        ``pyasc::...`` (use your own namespace, e.g. ``mypack::``). An op without ``source`` is
        credited to the plugin's distribution.
        """


class RegisterKernel(Protocol):
    """The ``register`` of :func:`pyasc_register_kernels`."""

    def __call__(self, op: str, backend: str, fn: Callable[..., Any], *,
                 source: str | None = None) -> None:
        """Provide ``fn`` as the kernel of op ``op`` (e.g. ``"mypack::gelu"``) on backend ``backend``
        (a name or alias).

        ``fn(out_meta, *args)`` gets the TensorMeta (or tuple of them) the op's meta function
        computed and the bound arguments in schema order, and returns the output Tensor(s).
        The op may come from any plugin (kernels for ``pyasc::`` ops on your own backend are
        fine); an op that no plugin defines fails the plugin. Raises
        :class:`~pyasc_core.errors.OpRegistrationError` when ``fn`` is not callable.
        ``source`` overrides who is credited (default: the plugin's distribution).
        """


class RegisterCommand(Protocol):
    """The ``register`` of :func:`pyasc_register_commands`."""

    def __call__(self, name: str, help: str,  # noqa: A002  (argparse's word)
                 add_arguments: Callable[[argparse.ArgumentParser], None],
                 run: Callable[[argparse.Namespace], int]) -> None:
        """Provide the subcommand ``pyasc NAME``.

        ``add_arguments(parser)`` adds its options to its ``argparse`` parser; ``run(args)`` runs
        it with the parsed ``argparse.Namespace`` and returns the exit status (a
        :class:`~pyasc_core.errors.PyascError` it raises is printed as ``pyasc NAME: error: ...``,
        status 2). A name that a built-in command (info, ops, plugins, check, bench) or an
        earlier plugin already took is skipped with a warning; the plugin's other commands stay.
        """


@hookspec
def pyasc_register_backends(register: RegisterBackend) -> None:
    """Register the backends this plugin provides: ``register(backend)`` for each.

    :param register: a :class:`RegisterBackend`; call it once per backend instance.

    Called first of the registry hooks, once per registry rebuild. What a failing call raises
    marks the plugin failed (see the module docstring); its backends are then not available.
    """


@hookspec
def pyasc_register_ops(register: RegisterOp) -> None:
    """Register the ops this plugin defines: ``register(op_def)`` for each.

    :param register: a :class:`RegisterOp`; call it once per :class:`pyasc_core.opdef.OpDef`.

    Called after every plugin's :func:`pyasc_register_backends`, once per registry rebuild.
    An op name that an earlier plugin (or a built-in) defines fails this plugin, never the
    other one; ``pyasc::`` names are refused for third-party plugins.
    """


@hookspec
def pyasc_register_kernels(register: RegisterKernel) -> None:
    """Register kernels of ops on backends: ``register(op_name, backend_name, kernel)`` for each.

    :param register: a :class:`RegisterKernel`; call it once per (op, backend) pair.

    Called after every plugin's :func:`pyasc_register_ops`, once per registry rebuild, so a
    kernel may name an op of another plugin. A kernel for an op nobody defines, or for an
    (op, backend) pair an earlier plugin already serves, fails this plugin. A kernel for a
    backend nobody provides is kept but unused, with a warning.
    """


@hookspec
def pyasc_register_commands(register: RegisterCommand) -> None:
    """Register ``pyasc`` CLI subcommands: ``register(name, help, add_arguments, run)`` for each.

    :param register: a :class:`RegisterCommand`; call it once per subcommand.

    Called once per ``pyasc`` command line, while its argument parser is built. A hook that
    raises marks the plugin failed, as the registry hooks do; the other commands still work.
    """
