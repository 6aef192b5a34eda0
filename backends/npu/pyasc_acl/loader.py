"""Finding and loading the ACL library: ``PYASC_ACL_LIBRARY``, else
``$ASCEND_HOME_PATH/lib64/libascendcl.so``, else the standard CANN install roots.

These variables are trusted input: the library they name is loaded into the process and runs as
the user. A directory, a world-writable file or a file in a world-writable directory without the
sticky bit (anyone could replace it) is refused with a message naming the variable, the path and
the fix."""

from __future__ import annotations

import os
import stat
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


def untrusted_reason(source: str, path: str) -> str:
    """Why the library at ``path`` (chosen by ``source``) must not be loaded, or "" if it may."""
    what = f"PYASC_ACL_LIBRARY={path}" if source == "PYASC_ACL_LIBRARY" else f"{path} (from {source})"
    try:
        st = os.stat(path)
    except OSError:
        return ""
    if stat.S_ISDIR(st.st_mode):
        return (f"{what} is a directory, not the ACL library; set PYASC_ACL_LIBRARY to the library file "
                f"itself, e.g. {os.path.join(path, 'lib64', LIBRARY_NAME)}")
    if st.st_mode & stat.S_IWOTH:
        return (f"{what} is writable by every user (mode {stat.S_IMODE(st.st_mode):04o}): anyone could make it "
                f"run code as you, so it was not loaded; remove the write permission ('chmod o-w {path}', "
                "as its owner) or point PYASC_ACL_LIBRARY at a copy only you can write")
    parent = os.path.dirname(os.path.abspath(path))
    try:
        pst = os.stat(parent)
    except OSError:
        return ""
    if pst.st_mode & stat.S_IWOTH and not pst.st_mode & stat.S_ISVTX:
        return (f"{what} is in {parent}, which every user can write (mode {stat.S_IMODE(pst.st_mode):04o}, no "
                "sticky bit): anyone could replace the library, so it was not loaded; remove the write "
                f"permission ('chmod o-w {parent}') or point PYASC_ACL_LIBRARY at a copy only you can write")
    return ""


def locate_acl_library() -> tuple[str | None, str]:
    """(path, "") of the first ACL library found, or (None, why not: every path searched + the fix).
    A library that exists but may not be trusted (see :func:`untrusted_reason`) stops the search."""
    found = candidates()
    for source, path in found:
        if source == "PYASC_ACL_LIBRARY" or os.path.exists(path):
            reason = untrusted_reason(source, path)
            if reason:
                return None, reason
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
