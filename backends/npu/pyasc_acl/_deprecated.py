"""Old import names kept for one release: ``alias(old, new, submodules)`` makes ``old`` and
``old.<sub>`` the very modules ``new`` and ``new.<sub>`` (one copy of their state) and warns once."""

from __future__ import annotations

import importlib
import sys
import warnings


def alias(old: str, new: str, submodules: tuple[str, ...]) -> None:
    """Warn that ``old`` is deprecated in favour of ``new``, then bind ``old`` and ``old.<sub>`` in
    sys.modules to ``new`` and ``new.<sub>`` (a submodule that fails to import is left out)."""
    warnings.warn(
        f"{old} is deprecated and will be removed in the next release; import {new} instead "
        f"({old}.<name> is now {new}.<name>)",
        DeprecationWarning,
        stacklevel=3,  # the importing code: warn() itself skips the import machinery's frames
    )
    module = importlib.import_module(new)
    for sub in submodules:
        try:
            sys.modules[f"{old}.{sub}"] = importlib.import_module(f"{new}.{sub}")
        except ImportError:  # e.g. the compiled binding is not built: importing it says so
            continue
    sys.modules[old] = module
