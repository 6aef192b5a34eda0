"""Finding and loading the ACL library: ``PYASC_ACL_LIBRARY``, else
``$ASCEND_HOME_PATH/lib64/libascendcl.so``, else the standard CANN install roots."""

from __future__ import annotations

import os
import threading

STANDARD_ROOTS = ("/usr/local/Ascend/cann", "/usr/local/Ascend/ascend-toolkit/latest")
LIBRARY_NAME = "libascendcl.so"
HOW_TO_FIX = (
    "Install CANN and source its set_env.sh (which sets ASCEND_HOME_PATH), or point pyasc at the "
    "library with PYASC_ACL_LIBRARY=/path/to/lib64/libascendcl.so"
)

_lock = threading.Lock()
_libraries: dict[str, object] = {}


def candidates() -> list[tuple[str, str]]:
    """(where it came from, path) for every place searched, in order."""
    env = os.environ.get("PYASC_ACL_LIBRARY")
    if env:
        return [("PYASC_ACL_LIBRARY", env)]
    out = []
    home = os.environ.get("ASCEND_HOME_PATH")
    if home:
        out.append(("ASCEND_HOME_PATH", os.path.join(home, "lib64", LIBRARY_NAME)))
    out += [("standard install root", os.path.join(root, "lib64", LIBRARY_NAME)) for root in STANDARD_ROOTS]
    return out


def locate_acl_library() -> tuple[str | None, str]:
    """(path, "") of the first ACL library found, or (None, why not: every path searched + the fix)."""
    found = candidates()
    for _, path in found:
        if os.path.isfile(path):
            return path, ""
    if found[0][0] == "PYASC_ACL_LIBRARY":
        return None, f"PYASC_ACL_LIBRARY={found[0][1]} does not exist; set it to an existing libascendcl.so"
    searched = ", ".join(f"{path} ({src})" for src, path in found)
    env_note = "" if os.environ.get("ASCEND_HOME_PATH") else " (ASCEND_HOME_PATH is not set)"
    return None, f"no ACL library (libascendcl.so) found; searched {searched}{env_note}. {HOW_TO_FIX}"


def load(path: str):
    """The loaded ``_acl.Library`` for ``path`` (loaded and aclInit-ed once per process)."""
    with _lock:
        lib = _libraries.get(path)
        if lib is None:
            from . import _acl

            lib = _libraries[path] = _acl.Library.open(path)
            _register_shutdown()
        return lib


_shutdown_registered = False


def _register_shutdown() -> None:
    """At interpreter exit: release the devices and aclFinalize (RAII objects then stop calling ACL)."""
    global _shutdown_registered
    if not _shutdown_registered:
        import atexit

        from . import _acl

        atexit.register(_acl.shutdown)
        _shutdown_registered = True
