"""Reading pyasc's environment switches: one parser for every boolean variable, so that a value
pyasc does not understand raises (naming the variable and the valid values) instead of being
taken silently as on or off."""

from __future__ import annotations

import os

from .errors import EnvironmentSettingError

TRUE_VALUES = ("1", "true", "yes", "on")
FALSE_VALUES = ("0", "false", "no", "off")


def parse_flag(name: str, value: str | None, default: bool = False) -> bool:
    """``value`` of boolean variable ``name`` as a bool (unset or empty: ``default``)."""
    if value is None or not value.strip():
        return default
    text = value.strip().lower()
    if text in TRUE_VALUES:
        return True
    if text in FALSE_VALUES:
        return False
    raise EnvironmentSettingError(
        f"{name}={value!r} is not understood; set it to one of {'/'.join(TRUE_VALUES)} (on) or "
        f"{'/'.join(FALSE_VALUES)} (off), or unset it (default: {'on' if default else 'off'})"
    )


def env_flag(name: str, default: bool = False) -> bool:
    """The boolean environment variable ``name`` (see :func:`parse_flag`)."""
    return parse_flag(name, os.environ.get(name), default)
