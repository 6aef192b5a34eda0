"""Probe kernels shared by the tests of one run: many small probes go into one source compiled once.

Compiling is most of the suite's time on a small machine, so a test file that needs twenty probe kernels
builds one source with twenty entry points. The source is written under a directory shared by the
pytest-xdist workers of the run, named by its content, so both workers hit one kernel-cache entry (the cache
key holds the source's path and text); a file lock keeps them from compiling it at the same moment."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
from pathlib import Path

try:
    import fcntl
except ImportError:  # not on Windows: two workers may then compile the same probe twice
    fcntl = None


def shared_dir(tmp_path_factory) -> Path:
    """The run's directory shared by all xdist workers (their base temp directories' parent)."""
    base = tmp_path_factory.getbasetemp()
    root = base.parent if base.name.startswith("popen-gw") else base
    out = root / "shared-probes"
    out.mkdir(exist_ok=True)
    return out


def write_shared(tmp_path_factory, name: str, text: str) -> Path:
    """``text`` as ``<shared dir>/<content hash>/<name>`` (written once, atomically)."""
    d = shared_dir(tmp_path_factory) / hashlib.sha256(text.encode()).hexdigest()[:16]
    d.mkdir(exist_ok=True)
    path = d / name
    if not path.exists():
        tmp = d / f".{name}.{os.getpid()}"
        tmp.write_text(text)
        os.replace(tmp, path)
    return path


@contextlib.contextmanager
def _locked(path: Path):
    if fcntl is None:
        yield
        return
    with open(path.parent / f".{path.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def compile_shared(tmp_path_factory, name: str, text: str, **options) -> tuple[Path, str]:
    """(source path, binary path): ``text`` compiled with ``pyasc_sim.compile(**options)`` once per run."""
    import pyasc_sim

    path = write_shared(tmp_path_factory, name, text)
    with _locked(path):
        return path, pyasc_sim.compile(path, **options)


def compile_error_shared(tmp_path_factory, name: str, text: str, **options):
    """The ``KernelCompileError`` that compiling ``text`` raises, computed once per worker process (a failed
    build is not cached on disk); AssertionError when it compiles."""
    path = write_shared(tmp_path_factory, name, text)
    return path, _compile_error(str(path), tuple(sorted((k, _frozen(v)) for k, v in options.items())))


def _frozen(value):
    return tuple(value) if isinstance(value, list) else value


@functools.lru_cache(maxsize=None)
def _compile_error(path: str, options: tuple):
    import pyasc_sim

    try:
        pyasc_sim.compile(path, **{k: list(v) if isinstance(v, tuple) else v for k, v in options})
    except pyasc_sim.KernelCompileError as exc:
        return exc
    raise AssertionError(f"{path} compiled, but the test expects a compile error")


_CONTEXT = re.compile(r"^In file included from |: In (instantiation of|substitution of|function|member function|"
                      r"static member function|constructor|destructor|lambda function)\b|: At global scope:")


def errors_at(output: str, path, line: int) -> str:
    """The diagnostics in a compiler's ``output`` attributed to ``path:line`` ("" when none): each error with its
    context (the instantiation it happened in) and notes, where the error itself is at that line or its
    instantiation is required from there. A compile-error probe with one case per line reads each case's own
    error with it, so a case that compiles fails its own test even when the other cases of its source do not."""
    blocks, cur, erred = [], [], False
    for text in output.splitlines():
        if erred and _CONTEXT.search(text):
            blocks.append(cur)
            cur, erred = [], False
        cur.append(text)
        erred = erred or ": error:" in text
    blocks.append(cur)
    here = re.compile(r"^(In file included from |\s*from )?%s:%d:(\d+:)?\s+(error:|required from)"
                      % (re.escape(str(path)), line))
    return "\n".join("\n".join(b) for b in blocks if any(": error:" in t for t in b)
                     and any(here.match(t) for t in b))


def case_error(probe: tuple, marker: str) -> str:
    """The compile error of the case whose line of a probe source holds ``marker``; ``probe`` is
    (path, text, KernelCompileError) of :func:`compile_error_shared`. AssertionError when that line caused no
    error (the case compiled)."""
    path, text, exc = probe
    line = line_of(text, marker)
    out = errors_at(exc.output, path, line)
    assert out, f"{path}:{line} ({marker}) compiled without an error; the test expects one"
    return out


def line_of(text: str, marker: str) -> int:
    """1-based line number of the only line of ``text`` holding ``marker``."""
    hits = [i for i, line in enumerate(text.splitlines(), 1) if marker in line]
    assert len(hits) == 1, (marker, hits)
    return hits[0]
