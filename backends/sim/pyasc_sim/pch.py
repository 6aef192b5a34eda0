"""A precompiled kernel API header for :func:`pyasc_sim.compile`.

Parsing ``kernel_operator.h`` is most of a small kernel's build (about 60% of a probe kernel at
``-O0``). A set of compile flags used a second time gets a GCC precompiled header of the prelude
(``stdint.h``, ``stddef.h``, ``kernel_operator.h``); later builds with those flags load it instead
of parsing the headers again. Only sources whose first line of code is ``#include
"kernel_operator.h"`` use it, so the headers see exactly the macros they would have seen. A header
GCC finds unusable is ignored by GCC itself (the build parses the text as before) and dropped here.

The headers live in the kernel cache's ``pch`` directory (made private as the cache is), one
directory per flag set, at most ``PYASC_SIM_PCH_MAX`` of them (default 6, about 120 MB each; the
least recently used go first); ``PYASC_SIM_PCH=0`` turns the whole mechanism off.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time

from . import cache

DIRECTORY = cache.PCH
HEADER = "pyasc_sim_pch.h"
#: The NPU toolchain makes the fixed-width integer types and size_t visible before a source's first
#: line (public kernels' tiling headers use uint32_t / size_t before including anything, e.g.
#: KsanaLLM's add_tiling.h); every compile step pre-includes the C headers that declare them
#: (build.PRELUDE_FLAGS is this tuple).
PRELUDE = ("-include", "stdint.h", "-include", "stddef.h")
#: what the header holds: the prelude, then the kernel API
TEXT = "".join(f"#include <{h}>\n" for h in PRELUDE[1::2]) + '#include "kernel_operator.h"\n'
_LAYOUT = "pch-1"
_DEFAULT_MAX = 6
_STALE_TMP_S = 3600
_FIRST_INCLUDE_RE = re.compile(r'#\s*include\s*(?:"kernel_operator\.h"|<kernel_operator\.h>)\s*(?://.*|/\*.*)?$')
_COMMENT_RE = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)


class Unavailable(Exception):
    """No precompiled header for this build (internal: the build goes on without one)."""


def enabled() -> bool:
    """False when ``PYASC_SIM_PCH`` is ``0`` (or ``off`` / ``no`` / ``false``)."""
    return os.environ.get("PYASC_SIM_PCH", "1").strip().lower() not in ("0", "off", "no", "false")


def max_headers() -> int:
    """``PYASC_SIM_PCH_MAX`` (a count; 0 turns the headers off), else 6."""
    value = os.environ.get("PYASC_SIM_PCH_MAX", "").strip()
    if not value:
        return _DEFAULT_MAX
    if not value.isdigit():
        raise cache.KernelCacheError(f"PYASC_SIM_PCH_MAX={value!r} is not a count; set it to how many precompiled "
                                     "kernel API headers to keep (about 120 MB each; 0 keeps none), or unset it "
                                     f"for {_DEFAULT_MAX}", variable="PYASC_SIM_PCH_MAX")
    return int(value)


def starts_with_kernel_operator(text: str) -> bool:
    """True when the first line of code of ``text`` is ``#include "kernel_operator.h"``: then the
    prelude header may come first without changing what any header sees."""
    head = _COMMENT_RE.sub(lambda m: "\n" * m.group(0).count("\n"), text[:20000].lstrip("\ufeff"))
    for line in head.splitlines():
        line = line.strip()
        if line:
            return bool(_FIRST_INCLUDE_RE.match(line))
    return False


def _pch_flags(flags: list[str], inc: str) -> list[str] | None:
    """The flags the header is built with (the build's own, without linking and the prelude), or None
    when the build pre-includes other files (an op project's tiling header, ``-include`` in extra flags)."""
    rest = [f for f in flags if f != "-shared"]
    for i in range(len(rest) - len(PRELUDE) + 1):
        if tuple(rest[i:i + len(PRELUDE)]) == PRELUDE:
            rest = rest[:i] + rest[i + len(PRELUDE):]
            break
    else:
        return None
    if any(f.startswith(("-include", "-imacros")) or f in ("-E", "-M", "-MM") for f in rest):
        return None
    if any(f.startswith("-fsanitize") and f != "-fsanitize=thread" for f in rest):
        return None  # SIMT's -fsanitize-coverage (kapi/simt.h's lockstep hook): never compared with a header
    # a raw-__gm__ build (-fsanitize=thread, build.RAW_GM_FLAGS) gets one too, built with the same flags: its
    # instructions are those of the build without a header (only the debug-info layout differs; the cache's build
    # lock keeps two processes' first builds of one source from publishing two such binaries; tests/test_sim_pch.py)
    return [*rest, "-iquote", inc, "-I", inc]


def include_flags(root: str, cxx: str, inc: str, header_version: str, flags: list[str], text: str) -> list[str]:
    """``["-include", <header>]`` to use in place of the prelude flags for this build; raises
    :class:`Unavailable` when none applies (yet: the first build of a flag set only records it)."""
    if not enabled() or max_headers() <= 0 or not starts_with_kernel_operator(text):
        raise Unavailable
    pch_flags = _pch_flags(flags, inc)
    if pch_flags is None:
        raise Unavailable
    key = hashlib.sha256("\0".join([_LAYOUT, cxx, inc, header_version, *pch_flags]).encode()).hexdigest()[:32]
    base = os.path.join(root, DIRECTORY)
    os.makedirs(base, 0o700, exist_ok=True)
    final = os.path.join(base, key)
    header = os.path.join(final, HEADER)
    if _usable(final):
        with contextlib.suppress(OSError):
            os.utime(final)  # last use, for the eviction
        return ["-include", header]
    seen = os.path.join(base, f"{key}.seen")
    if not os.path.exists(seen):  # a flag set used once gets no header: building one costs two builds
        with open(seen, "w"):
            pass
        raise Unavailable
    if os.path.exists(os.path.join(base, f"{key}.failed")):
        raise Unavailable
    _build(base, final, key, cxx, pch_flags)
    return ["-include", header]


def _usable(final: str) -> bool:
    gch = os.path.join(final, HEADER + ".gch")
    try:
        with open(os.path.join(final, "sha256"), encoding="ascii") as f:
            digest = f.read().strip()
        return cache.file_sha256(gch) == digest
    except OSError:
        return False


def _build(base: str, final: str, key: str, cxx: str, pch_flags: list[str]) -> None:
    """Build the header into a private directory renamed into place (one process builds it; the others
    build without it meanwhile)."""
    import fcntl

    with open(os.path.join(base, f"{key}.lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise Unavailable from None
        if _usable(final):
            return
        tmp = tempfile.mkdtemp(prefix="tmp_", dir=base)
        try:
            header = os.path.join(tmp, HEADER)
            with open(header, "w", encoding="utf-8") as f:
                f.write(TEXT)
            proc = subprocess.run([cxx, *pch_flags, "-x", "c++-header", header, "-o", header + ".gch"],
                                  capture_output=True, text=True)
            if proc.returncode != 0:  # the build itself will report what is wrong with these flags
                with open(os.path.join(base, f"{key}.failed"), "w", encoding="utf-8") as f:
                    f.write(proc.stderr[-4000:])
                raise Unavailable
            with open(os.path.join(tmp, "sha256"), "w", encoding="ascii") as f:
                f.write(cache.file_sha256(header + ".gch") + "\n")
            shutil.rmtree(final, ignore_errors=True)  # a damaged one
            os.rename(tmp, final)
            tmp = ""
        finally:
            if tmp:
                shutil.rmtree(tmp, ignore_errors=True)
    evict(base, keep=os.path.basename(final))


def drop(header_flags: list[str]) -> None:
    """Remove the header a build found unusable (GCC said so under -Winvalid-pch) and keep its flag set
    from building another."""
    final = os.path.dirname(header_flags[1])
    with contextlib.suppress(OSError):
        open(final + ".failed", "w").close()
    shutil.rmtree(final, ignore_errors=True)


def evict(base: str, keep: str = "") -> None:
    """Keep at most :func:`max_headers` headers (the most recently used) and no stale leftovers."""
    now = time.time()
    dirs = []
    with os.scandir(base) as it:
        for e in it:
            try:
                if not e.is_dir(follow_symlinks=False):
                    continue
                mtime = e.stat(follow_symlinks=False).st_mtime
                if e.name.startswith("tmp_"):
                    if now - mtime > _STALE_TMP_S:
                        shutil.rmtree(e.path, ignore_errors=True)
                elif e.name != keep:
                    dirs.append((mtime, e.path))
            except OSError:
                continue
    dirs.sort(reverse=True)
    for _, path in dirs[max(max_headers() - 1, 0):]:
        shutil.rmtree(path, ignore_errors=True)
