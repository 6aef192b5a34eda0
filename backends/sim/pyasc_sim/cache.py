"""The per-user kernel cache: where it is, that only its user can write it, and publishing into it.

Built kernel binaries run as whoever loads them, so the cache is treated like pip's, ccache's and
CuPy's: it lives under ``$PYASC_CACHE_DIR``, else ``$XDG_CACHE_HOME/pyasc``, else
``~/.cache/pyasc``; it is created 0700 and on every use it must belong to the effective user and be
writable by nobody else (otherwise :class:`KernelCacheError` names the variable that chose the path,
the path, the problem and the fix; it is never chmod-ed behind the user's back).

An entry ``NAME`` is two files: the binary ``NAME-<sha256[:32]>.so`` (named by its content, so it
never changes once published) and the pointer ``NAME.sha256`` holding the binary's full sha256.
Both are written under private temporary names (``tempfile``: O_EXCL, random) inside the verified
directory and atomically renamed (``os.replace``), so concurrent builders of the same kernel are
race-free and a reader never sees half a file; a per-entry build lock (:func:`build_lock`) makes the
second of two concurrent builders wait and take the first's binary instead of compiling it again. :func:`lookup` returns a binary only if its content
hash matches the pointer. A size cap (``PYASC_CACHE_MAX_BYTES``, default 1 GiB) evicts the least
recently used entries after each publish. Entries ``cpudebug_*`` hold an object file
(``NAME-<sha256[:32]>.o``) of a CPU-debug program's source (:mod:`pyasc_sim.cpudebug`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import stat
import tempfile
import threading
import time

try:
    import fcntl
except ImportError:  # no flock (Windows): concurrent builders of one kernel each build it, as before
    fcntl = None  # type: ignore[assignment]

from pyasc_core.errors import PyascError

DEFAULT_MAX_BYTES = 1 << 30
#: the Cache Directory Tagging Specification's tag (backup tools skip tagged directories); its
#: presence also marks a directory pyasc created 0700
TAG_NAME = "CACHEDIR.TAG"
TAG_TEXT = ("Signature: 8a477f597d28d172789f06886806bc55\n"
            "# This file is a cache directory tag created by pyasc (its kernel cache).\n"
            "# For information about cache directory tags see https://bford.info/cachedir/\n")
SOURCES = "sources"
#: precompiled kernel API headers (pch.py)
PCH = "pch"
#: the build locks (:func:`build_lock`): a fixed set of lock files, never removed while in use
LOCKS = "locks"
_LOCK_STRIPES = 256
_ENTRY_RE = re.compile(r"^(?:ascendc|kernel|cpudebug)_[0-9a-f]+$")
_BINARY_RE = re.compile(r"^((?:ascendc|kernel)_[0-9a-f]+)(?:-([0-9a-f]{32}))?\.so$|^(cpudebug_[0-9a-f]+)-([0-9a-f]{32})\.o$")
_TMP_PREFIX = ".pyasc-tmp-"
_BUILD_PREFIX = "build_"
_ORPHAN_GRACE_S = 300  # an unreferenced binary younger than this may be a concurrent publish
_STALE_BUILD_S = 24 * 3600  # build directories of killed processes
_SIZE_RE = re.compile(r"^\s*(\d+)\s*([KMGT]?)i?B?\s*$", re.I)


class KernelCacheError(PyascError, OSError):
    """The kernel cache cannot be used safely (another owner, writable by others, not creatable,
    a bad setting): the message names the variable that chose the path, the path and the fix."""

    def __init__(self, message: str, *, variable: str = "", path: str = "") -> None:
        super().__init__(message)
        self.variable = variable
        self.path = path


def location() -> tuple[str, str]:
    """(cache directory, the variable that chose it): ``PYASC_CACHE_DIR`` (``PYASC_SIM_KERNEL_CACHE``
    is its older name), else ``$XDG_CACHE_HOME/pyasc`` (when absolute), else ``~/.cache/pyasc``."""
    for var in ("PYASC_CACHE_DIR", "PYASC_SIM_KERNEL_CACHE"):
        value = os.environ.get(var)
        if value:
            return os.path.abspath(os.path.expanduser(value)), var
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):  # the XDG spec ignores a relative value
        return os.path.join(xdg, "pyasc"), "XDG_CACHE_HOME"
    home = os.path.expanduser("~")
    if not os.path.isabs(home):
        raise KernelCacheError("pyasc's kernel cache has no place: HOME is not set and the user has no home "
                               "directory; set PYASC_CACHE_DIR to a directory of your own", variable="HOME")
    return os.path.join(home, ".cache", "pyasc"), "HOME"


def _origin(variable: str) -> str:
    if variable == "HOME":
        return "the default kernel cache ~/.cache/pyasc (no PYASC_CACHE_DIR or XDG_CACHE_HOME is set)"
    return f"the kernel cache chosen by {variable}"


def _fail(variable: str, path: str, problem: str, fix: str) -> KernelCacheError:
    return KernelCacheError(f"{_origin(variable)}, {path}, {problem}; {fix}", variable=variable, path=path)


def _owner(uid: int) -> str:
    try:
        import pwd

        return f"uid {uid} ({pwd.getpwuid(uid).pw_name})"
    except (ImportError, KeyError):
        return f"uid {uid}"


_OTHER_FIX = "or set PYASC_CACHE_DIR to a directory of your own"


def verify(path: str, variable: str) -> str:
    """Refuse a cache directory that someone else could write: it must be a directory owned by the
    effective user with no group/other write permission (no group/other access at all once pyasc
    created it 0700), under no world-writable directory without the sticky bit. Returns its real
    path (symlinks resolved once, so a link swapped later cannot redirect the cache)."""
    real = os.path.realpath(path)
    try:
        st = os.stat(real)
    except OSError as exc:
        raise _fail(variable, path, f"cannot be used ({exc.strerror})", f"create it or {_OTHER_FIX}") from None
    if not stat.S_ISDIR(st.st_mode):
        raise _fail(variable, path, "is not a directory", f"remove it {_OTHER_FIX}")
    euid = os.geteuid()
    if st.st_uid != euid:
        raise _fail(variable, path, f"belongs to {_owner(st.st_uid)}, not to you ({_owner(euid)}): its owner "
                    "could plant kernels there that would run as you",
                    f"nothing was loaded from it; remove it (as its owner or root) {_OTHER_FIX}")
    mode = stat.S_IMODE(st.st_mode)
    if mode & 0o022:
        who = "group and others" if mode & 0o022 == 0o022 else "its group" if mode & 0o020 else "others"
        raise _fail(variable, path, f"is writable by {who} (mode {mode:04o}): they could plant kernels that "
                    "would run as you",
                    f"nothing was loaded from it; check its contents, then 'chmod 700 {path}', {_OTHER_FIX}")
    if mode & 0o077 and os.path.exists(os.path.join(real, TAG_NAME)):
        raise _fail(variable, path, f"was created 0700 by pyasc but its mode is now {mode:04o}",
                    f"check its contents, then 'chmod 700 {path}', {_OTHER_FIX}")
    if not os.access(real, os.W_OK | os.X_OK):
        raise _fail(variable, path, f"is not writable by you (mode {mode:04o}, or a read-only file system)",
                    f"'chmod 700 {path}' {_OTHER_FIX}")
    parent = os.path.dirname(real)
    while True:
        try:
            pst = os.stat(parent)
        except OSError:
            break
        if pst.st_mode & stat.S_IWOTH and not pst.st_mode & stat.S_ISVTX:
            raise _fail(variable, path, f"is inside {parent}, which anyone can write (mode "
                        f"{stat.S_IMODE(pst.st_mode):04o}, no sticky bit) and so replace the cache",
                        f"move it: {_OTHER_FIX}")
        up = os.path.dirname(parent)
        if up == parent:
            break
        parent = up
    return real


def directory() -> str:
    """The verified cache directory, created 0700 (parents 0700 too, as XDG asks) if missing."""
    path, variable = location()
    created = False
    try:
        os.mkdir(path, 0o700)
        created = True
    except FileExistsError:
        pass
    except FileNotFoundError:
        try:
            os.makedirs(os.path.dirname(path), 0o700, exist_ok=True)
            os.mkdir(path, 0o700)
            created = True
        except FileExistsError:
            pass
        except OSError as exc:
            raise _fail(variable, path, f"cannot be created ({exc.strerror})", _OTHER_FIX) from None
    except OSError as exc:
        raise _fail(variable, path, f"cannot be created ({exc.strerror})", _OTHER_FIX) from None
    real = verify(path, variable)
    if created:
        write_atomic(real, TAG_NAME, TAG_TEXT.encode())
    return real


# -- publishing and lookup ------------------------------------------------------------------------

def build_dir(root: str, prefix: str = "build_") -> str:
    """A private (0700, random name) build directory inside the verified cache ``root``."""
    try:
        return tempfile.mkdtemp(dir=root, prefix=prefix)
    except OSError as exc:
        variable = location()[1]
        raise _fail(variable, root, f"cannot hold a build directory ({exc.strerror})",
                    f"free space or fix its permissions ('chmod 700 {root}'), {_OTHER_FIX}") from None


@contextlib.contextmanager
def build_lock(root: str, name: str, timeout: float = 600.0):
    """Hold the build lock of entry ``name`` (an exclusive ``flock`` shared by every process and thread
    using the cache): a second builder of the same kernel waits for the first and then finds its binary
    (the caller looks up again under the lock) instead of compiling the same thing at the same time.
    The locks are a fixed set of files (``locks/NN.lock``, picked by the name's hash; two names sharing
    one only wait for each other), so none is ever deleted while a process may hold it. After
    ``timeout`` seconds (a builder stopped or hung) the caller builds without the lock, as without flock."""
    if fcntl is None:
        yield
        return
    d = os.path.join(root, LOCKS)
    try:
        os.mkdir(d, 0o700)
    except FileExistsError:
        pass
    except OSError:
        yield  # the cache's own checks report an unusable directory; building needs no lock
        return
    stripe = int(hashlib.sha256(name.encode()).hexdigest()[:8], 16) % _LOCK_STRIPES
    try:
        fd = os.open(os.path.join(d, f"{stripe:02x}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        deadline = time.monotonic() + timeout
        delay = 0.005
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    break  # build without it
                time.sleep(delay)
                delay = min(delay * 2, 0.1)
        yield
    finally:
        os.close(fd)  # releases the lock


def write_atomic(root: str, name: str, data: bytes, mode: int = 0o600, prefix: str = "") -> str:
    """Write ``root/name`` through a private temporary file (O_EXCL, random name) and os.replace."""
    fd, tmp = tempfile.mkstemp(dir=root, prefix=prefix or _TMP_PREFIX)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        dest = os.path.join(root, name)
        os.replace(tmp, dest)
        return dest
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


_hash_lock = threading.Lock()
_hash_memo: dict[tuple[str, int, int, int, int], str] = {}


def file_sha256(path: str) -> str:
    """sha256 of a file, remembered per (path, device, inode, size, mtime) for this process."""
    st = os.stat(path)
    key = (path, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
    with _hash_lock:
        digest = _hash_memo.get(key)
    if digest is None:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        digest = h.hexdigest()
        with _hash_lock:
            _hash_memo[key] = digest
    return digest


def _binary_name(name: str, digest: str) -> str:
    # (cpudebug_*: an object file of a CPU-debug program, pyasc_sim.cpudebug)
    return f"{name}-{digest[:32]}{'.o' if name.startswith('cpudebug_') else '.so'}"


def lookup(root: str, name: str) -> str | None:
    """The cached binary of entry ``name`` if its content hash matches the recorded one, else None
    (missing, or changed since it was published: the caller rebuilds; it is never loaded)."""
    pointer = os.path.join(root, f"{name}.sha256")
    try:
        with open(pointer, "rb") as f:
            digest = f.read(100).decode("ascii", "replace").strip()
    except OSError:
        return None
    if not re.fullmatch(r"[0-9a-f]{64}", digest):
        return None
    binary = os.path.join(root, _binary_name(name, digest))
    try:
        if not stat.S_ISREG(os.lstat(binary).st_mode) or file_sha256(binary) != digest:
            return None
    except OSError:
        return None
    try:
        os.utime(pointer)  # last use, for the LRU eviction
    except OSError:
        pass
    return binary


def publish(root: str, name: str, built: str) -> str:
    """Move the freshly built binary ``built`` (a private file inside ``root``) into the cache as
    entry ``name``, record its hash, apply the size cap and return the binary's cached path."""
    digest = file_sha256(built)
    binary = os.path.join(root, _binary_name(name, digest))
    os.replace(built, binary)  # same content for the same name: concurrent publishers agree
    write_atomic(root, f"{name}.sha256", (digest + "\n").encode())
    evict(root, keep=name)
    return binary


def publish_source(root: str, text: str) -> str:
    """Keep a copy of source text as ``sources/kernel_<hash>.cpp`` so compiler messages can point at
    it. Only for people to read: builds compile the caller's own text, never this file."""
    d = os.path.join(root, SOURCES)
    try:
        os.mkdir(d, 0o700)
    except FileExistsError:
        pass
    data = text.encode()
    return write_atomic(d, f"kernel_{hashlib.sha256(data).hexdigest()[:16]}.cpp", data, 0o600)


# -- size cap, info, clear ------------------------------------------------------------------------

def max_bytes() -> int:
    """The size cap: ``PYASC_CACHE_MAX_BYTES`` (bytes, or with a K/M/G/T suffix; 0 = no cap), else 1 GiB."""
    value = os.environ.get("PYASC_CACHE_MAX_BYTES")
    if value is None or value.strip() == "":
        return DEFAULT_MAX_BYTES
    m = _SIZE_RE.match(value)
    if m is None:
        raise KernelCacheError(f"PYASC_CACHE_MAX_BYTES={value!r} is not a size; set it to a number of bytes, "
                               "optionally with a K, M, G or T suffix (e.g. 512M), or 0 for no cap",
                               variable="PYASC_CACHE_MAX_BYTES")
    return int(m.group(1)) << (10 * " KMGT".index((m.group(2) or " ").upper()))


def _scan(root: str) -> tuple[dict[str, tuple[float, int, str]], dict[str, tuple[float, int]], list[str]]:
    """(pointers name -> (mtime, size, digest), binaries file -> (mtime, size), build dirs)."""
    pointers: dict[str, tuple[float, int, str]] = {}
    binaries: dict[str, tuple[float, int]] = {}
    builds: list[str] = []
    with os.scandir(root) as it:
        for e in it:
            try:
                if e.is_dir(follow_symlinks=False):
                    if e.name.startswith(_BUILD_PREFIX):
                        builds.append(e.name)
                    continue
                if not e.is_file(follow_symlinks=False):
                    continue
                st = e.stat(follow_symlinks=False)
                if e.name.endswith(".sha256") and _ENTRY_RE.match(e.name[:-7]):
                    with open(e.path, "rb") as f:
                        digest = f.read(100).decode("ascii", "replace").strip()
                    pointers[e.name[:-7]] = (st.st_mtime, st.st_size, digest)
                elif _BINARY_RE.match(e.name):
                    binaries[e.name] = (st.st_mtime, st.st_size)
            except OSError:
                continue  # removed meanwhile by another process
    return pointers, binaries, builds


def _sources(root: str) -> dict[str, tuple[float, int]]:
    out: dict[str, tuple[float, int]] = {}
    try:
        with os.scandir(os.path.join(root, SOURCES)) as it:
            for e in it:
                try:
                    if e.is_file(follow_symlinks=False):
                        st = e.stat(follow_symlinks=False)
                        out[e.path] = (st.st_mtime, st.st_size)
                except OSError:
                    continue
    except OSError:
        pass
    return out


def _unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def evict(root: str, keep: str | None = None, cap: int | None = None) -> int:
    """Apply the size cap: drop stale leftovers, then the least recently used entries (never
    ``keep``) until the cache is at most ``cap`` bytes (default :func:`max_bytes`). Returns the
    number of entries removed."""
    cap = max_bytes() if cap is None else cap
    now = time.time()
    pointers, binaries, builds = _scan(root)
    for b in builds:
        try:
            if now - os.lstat(os.path.join(root, b)).st_mtime > _STALE_BUILD_S:
                shutil.rmtree(os.path.join(root, b), ignore_errors=True)
        except OSError:
            pass
    referenced = {_binary_name(n, d): n for n, (_, _, d) in pointers.items()}
    for fname, (mtime, _) in list(binaries.items()):
        if fname not in referenced and now - mtime > _ORPHAN_GRACE_S:
            _unlink(os.path.join(root, fname))
            del binaries[fname]
    sources = _sources(root)
    total = sum(s for _, s, _ in pointers.values()) + sum(s for _, s in binaries.values()) \
        + sum(s for _, s in sources.values())
    if cap <= 0 or total <= cap:
        return 0
    # (last use, bytes, files) of each entry, oldest first
    entries = []
    for n, (mtime, size, d) in pointers.items():
        if n == keep:
            continue
        files = [os.path.join(root, f"{n}.sha256")]
        b = _binary_name(n, d)
        if b in binaries:
            size += binaries[b][1]
            files.append(os.path.join(root, b))
        entries.append((mtime, size, files))
    entries += [(mtime, size, [p]) for p, (mtime, size) in sources.items()]
    entries.sort(key=lambda e: e[0])
    removed = 0
    for _, size, files in entries:
        if total <= cap:
            break
        for f in files:
            _unlink(f)
        total -= size
        removed += 1
    return removed


def info() -> dict[str, object]:
    """What ``pyasc cache info`` prints: path, the variable that chose it, entries, bytes, cap."""
    root = directory()
    pointers, binaries, _ = _scan(root)
    sources = _sources(root)
    total = sum(s for _, s, _ in pointers.values()) + sum(s for _, s in binaries.values()) \
        + sum(s for _, s in sources.values())
    headers, header_bytes = _pch_usage(root)
    return {"path": root, "variable": location()[1], "entries": len(pointers), "bytes": total,
            "max_bytes": max_bytes(), "pch_headers": headers, "pch_bytes": header_bytes}


def _pch_usage(root: str) -> tuple[int, int]:
    """Precompiled kernel API headers (pch.py) in the cache and their bytes: counted apart from the
    cap, which they have their own of (``PYASC_SIM_PCH_MAX``)."""
    try:
        with os.scandir(os.path.join(root, PCH)) as it:
            dirs = [e.path for e in it if e.is_dir(follow_symlinks=False) and not e.name.startswith("tmp_")]
    except OSError:
        return 0, 0
    return len(dirs), sum(_tree_usage(d)[1] for d in dirs)


def _tree_usage(path: str) -> tuple[int, int]:
    """Files under the directory ``path`` and their bytes (files that vanish meanwhile are skipped)."""
    count = size = 0
    for r, _, files in os.walk(path):
        for f in files:
            with contextlib.suppress(OSError):
                size += os.lstat(os.path.join(r, f)).st_size
                count += 1
    return count, size


def clear() -> tuple[int, int]:
    """Remove every kernel pyasc cached (binaries, their hashes, kept sources, build leftovers, precompiled headers),
    leaving any other file alone. Returns (files removed, bytes freed)."""
    root = directory()
    count = freed = 0
    with os.scandir(root) as it:
        for e in list(it):
            try:
                if e.is_dir(follow_symlinks=False):
                    if e.name.startswith(_BUILD_PREFIX) or e.name in (SOURCES, PCH, LOCKS):
                        files, size = _tree_usage(e.path)
                        count += files
                        freed += size
                        shutil.rmtree(e.path, ignore_errors=True)
                    continue
                ours = (_BINARY_RE.match(e.name) or e.name.startswith(_TMP_PREFIX)
                        or (e.name.endswith(".sha256") and _ENTRY_RE.match(e.name[:-7])))
                if ours:
                    size = e.stat(follow_symlinks=False).st_size
                    os.unlink(e.path)
                    count += 1
                    freed += size
            except OSError:
                continue
    return count, freed
