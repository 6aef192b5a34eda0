"""The kernel cache is not an attack surface (issue 16, point 1): a per-user 0700 cache whose owner
and mode are checked on every use, private temporary names and atomic renames, binaries loaded only
when their recorded sha256 matches, the caller's own source text compiled, pyasc's headers before
anything in the current or kernel directory, a size cap with LRU eviction, ``pyasc cache
info|clear``, and an ACL library override that must be a file nobody else can replace.

The attacker's directories are built here: as another uid (os.chown, the tests run as root) or
with the wrong modes."""

from __future__ import annotations

import hashlib
import json
import os
import stat
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pyasc

pyasc_sim = pytest.importorskip("pyasc_sim")
pyasc_acl = pytest.importorskip("pyasc_acl")
from pyasc_sim import cache as kcache  # noqa: E402

OTHER_UID = 12345
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to create another user's directory")

KERNEL = textwrap.dedent("""\
    #include "kernel_operator.h"
    using namespace AscendC;
    extern "C" __global__ __aicore__ void add_one(GM_ADDR x, GM_ADDR y, uint32_t n) {
        if (GetBlockIdx() != 0) return;
        GlobalTensor<int32_t> xg, yg;
        xg.SetGlobalBuffer((__gm__ int32_t *)x, n);
        yg.SetGlobalBuffer((__gm__ int32_t *)y, n);
        for (uint32_t i = 0; i < n; ++i) yg.SetValue(i, xg.GetValue(i) + 1);
    }
""")
EVIL_HEADER = '#error "the attacker\'s kernel_operator.h was included"\n'
_ENV = ("PYASC_CACHE_DIR", "PYASC_SIM_KERNEL_CACHE", "XDG_CACHE_HOME", "PYASC_CACHE_MAX_BYTES")


@pytest.fixture
def env(monkeypatch):
    for key in _ENV:
        monkeypatch.delenv(key, raising=False)
    return monkeypatch


@pytest.fixture
def cache(tmp_path, env):
    d = tmp_path / "cache"
    env.setenv("PYASC_CACHE_DIR", str(d))
    return d


def _run_add_one(path: str) -> None:
    fn = pyasc_acl.Binary(path, device="sim").function("add_one")
    x = pyasc.tensor(np.arange(5, dtype=np.int32), device="sim")
    y = pyasc.zeros(5, dtype="int32", device="sim")
    fn(1, x, y, 5)
    np.testing.assert_array_equal(y.numpy(), np.arange(1, 6, dtype=np.int32))


def _sha256(path) -> str:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


# -- location, creation, ownership and mode --------------------------------------------------------

def test_default_cache_is_per_user_and_created_0700(tmp_path, env):
    env.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    d = pyasc_sim.cache_dir()
    assert d == str(tmp_path / "xdg" / "pyasc")
    assert stat.S_IMODE(os.stat(d).st_mode) == 0o700 and os.stat(d).st_uid == os.geteuid()
    assert os.path.isfile(os.path.join(d, "CACHEDIR.TAG"))
    env.setenv("XDG_CACHE_HOME", "relative/dir")  # the XDG spec ignores a relative value
    env.setenv("HOME", str(tmp_path / "home"))
    assert pyasc_sim.cache_dir() == str(tmp_path / "home" / ".cache" / "pyasc")
    assert stat.S_IMODE(os.stat(tmp_path / "home" / ".cache" / "pyasc").st_mode) == 0o700
    env.setenv("PYASC_SIM_KERNEL_CACHE", str(tmp_path / "legacy"))  # the older name still works
    assert pyasc_sim.cache_dir() == str(tmp_path / "legacy")
    env.setenv("PYASC_CACHE_DIR", str(tmp_path / "mine"))
    assert pyasc_sim.cache_dir() == str(tmp_path / "mine")
    os.symlink(tmp_path / "mine", tmp_path / "link")  # resolved once: a swapped link cannot redirect it
    env.setenv("PYASC_CACHE_DIR", str(tmp_path / "link"))
    assert pyasc_sim.cache_dir() == str(tmp_path / "mine")


def _plant_cache(d, uid=OTHER_UID, mode=0o700):
    """An attacker's cache directory holding a binary, made before the victim's first use."""
    d.mkdir(mode=0o700)
    (d / "planted.so").write_bytes(b"\x7fELF planted")
    os.chmod(d, mode)
    os.chown(d, uid, uid)
    return sorted(os.listdir(d))


@as_root
@pytest.mark.parametrize("variable", ["PYASC_CACHE_DIR", "XDG_CACHE_HOME", "HOME"])
def test_cache_owned_by_another_user_is_refused(tmp_path, env, variable):
    base = tmp_path / "base"
    base.mkdir()
    d = {"PYASC_CACHE_DIR": base / "c", "XDG_CACHE_HOME": base / "pyasc", "HOME": base / ".cache" / "pyasc"}[variable]
    if variable == "HOME":
        (base / ".cache").mkdir()
    env.setenv(variable, str(d) if variable == "PYASC_CACHE_DIR" else str(base))
    before = _plant_cache(d)
    with pytest.raises(pyasc_sim.KernelCacheError) as info:
        pyasc_sim.compile(KERNEL)
    err = info.value
    assert isinstance(err, pyasc.PyascError) and err.variable == variable and err.path == str(d)
    msg = str(err)
    assert str(d) in msg and f"uid {OTHER_UID}" in msg and "PYASC_CACHE_DIR" in msg
    assert (variable in msg) if variable != "HOME" else ("~/.cache/pyasc" in msg)
    assert "nothing was loaded" in msg
    assert sorted(os.listdir(d)) == before and os.stat(d).st_uid == OTHER_UID  # untouched, not chmod-ed
    with pytest.raises(pyasc_sim.KernelCacheError):
        pyasc_sim.compile_kernel("int x;\n")


@pytest.mark.parametrize("mode", [0o777, 0o770, 0o702, 0o1777])
def test_cache_writable_by_others_is_refused(tmp_path, env, mode):
    d = tmp_path / "shared"
    env.setenv("PYASC_CACHE_DIR", str(d))
    _plant_cache(d, uid=os.geteuid(), mode=mode)
    with pytest.raises(pyasc_sim.KernelCacheError, match=r"PYASC_CACHE_DIR.*writable by .*chmod 700"):
        pyasc_sim.compile(KERNEL)
    assert stat.S_IMODE(os.stat(d).st_mode) == mode  # refused, not silently fixed


def test_pyasc_created_cache_whose_mode_was_opened_is_refused(cache, env):
    pyasc_sim.cache_dir()  # created 0700 and tagged
    os.chmod(cache, 0o755)
    with pytest.raises(pyasc_sim.KernelCacheError, match="created 0700 by pyasc but its mode is now 0755"):
        pyasc_sim.cache_dir()
    own = cache.parent / "own"  # a directory of the user's own, readable by others: fine
    own.mkdir(mode=0o755)
    os.chmod(own, 0o755)
    env.setenv("PYASC_CACHE_DIR", str(own))
    assert pyasc_sim.cache_dir() == str(own)


def test_cache_inside_a_world_writable_directory_without_sticky_bit_is_refused(tmp_path, env):
    open_dir = tmp_path / "open"
    open_dir.mkdir()
    os.chmod(open_dir, 0o777)
    env.setenv("PYASC_CACHE_DIR", str(open_dir / "cache"))
    with pytest.raises(pyasc_sim.KernelCacheError, match=r"anyone can write .*no sticky bit"):
        pyasc_sim.cache_dir()
    os.chmod(open_dir, 0o1777)  # like /tmp: others cannot rename what is ours
    assert pyasc_sim.cache_dir() == str(open_dir / "cache")


def test_unusable_cache_path_and_bad_cap_name_their_variable(tmp_path, env):
    (tmp_path / "file").write_text("x")
    env.setenv("PYASC_CACHE_DIR", str(tmp_path / "file"))
    with pytest.raises(pyasc_sim.KernelCacheError, match=r"PYASC_CACHE_DIR, .*file, is not a directory"):
        pyasc_sim.cache_dir()
    env.setenv("PYASC_CACHE_DIR", str(tmp_path / "file" / "sub"))
    with pytest.raises(pyasc_sim.KernelCacheError, match=r"cannot be created .*set PYASC_CACHE_DIR"):
        pyasc_sim.cache_dir()
    env.setenv("PYASC_CACHE_MAX_BYTES", "lots")
    with pytest.raises(pyasc_sim.KernelCacheError, match=r"PYASC_CACHE_MAX_BYTES='lots' is not a size"):
        kcache.max_bytes()
    env.setenv("PYASC_CACHE_MAX_BYTES", "512M")
    assert kcache.max_bytes() == 512 << 20


# -- what is loaded and compiled -------------------------------------------------------------------

def _evil_library(tmp_path, marker) -> bytes:
    """A shared object whose constructor creates ``marker`` if it is ever loaded."""
    src = tmp_path / "evil.cpp"
    src.write_text('#include <fcntl.h>\n#include <unistd.h>\n'
                   '__attribute__((constructor)) static void evil() '
                   f'{{ close(open("{marker}", O_CREAT | O_WRONLY, 0600)); }}\n'
                   'extern "C" void __pyasc_sim_entry_add_one(void *) {}\n')
    out = tmp_path / "evil.so"
    subprocess.run(["g++", "-shared", "-fPIC", str(src), "-o", str(out)], check=True)
    return out.read_bytes()


def test_planted_binary_with_the_wrong_hash_is_never_loaded(cache, tmp_path):
    path = pyasc_sim.compile(KERNEL)
    pointer = [f for f in os.listdir(cache) if f.endswith(".sha256")]
    assert len(pointer) == 1 and (cache / pointer[0]).read_text().strip() == _sha256(path)
    marker = tmp_path / "evil-ran"
    evil = _evil_library(tmp_path, marker)
    with open(path, "wb") as f:  # swap the cached binary for the attacker's
        f.write(evil)
    again = pyasc_sim.compile(KERNEL)
    assert _sha256(again) == (cache / pointer[0]).read_text().strip()
    assert open(again, "rb").read() != evil  # rebuilt, not returned
    _run_add_one(again)
    assert not marker.exists()


def test_no_predictable_temp_name_is_followed(cache, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "out" / "k.so"
    out.parent.mkdir()
    for pid in range(os.getpid() - 2, os.getpid() + 3):  # the names the old code used
        os.symlink(victim, f"{out}.tmp{pid}")
    # a symlink where the kept copy of the source text goes
    sources = cache / "sources"
    os.makedirs(sources)
    os.chmod(cache, 0o700)
    shown = sources / f"kernel_{hashlib.sha256(KERNEL.encode()).hexdigest()[:16]}.cpp"
    os.symlink(victim, shown)
    assert pyasc_sim.compile(KERNEL, output=out) == str(out)
    assert victim.read_text() == "precious"
    assert out.is_file() and not out.is_symlink()
    assert not shown.is_symlink() and shown.read_text() == KERNEL
    _run_add_one(str(out))


def test_a_source_planted_in_the_cache_is_not_compiled(cache):
    sources = cache / "sources"
    os.makedirs(sources)
    os.chmod(cache, 0o700)
    planted = sources / f"kernel_{hashlib.sha256(KERNEL.encode()).hexdigest()[:16]}.cpp"
    planted.write_text("#error planted source compiled\n")
    path = pyasc_sim.compile(KERNEL)
    _run_add_one(path)
    assert planted.read_text() == KERNEL  # the kept copy is the caller's text again


def test_kernel_operator_h_in_cwd_or_kernel_dir_is_not_included(cache, tmp_path, monkeypatch):
    checkout = tmp_path / "untrusted"
    checkout.mkdir()
    (checkout / "kernel_operator.h").write_text(EVIL_HEADER)
    (checkout / "cstdint").write_text(EVIL_HEADER)  # -I . would also hijack <cstdint>
    (checkout / "tile.h").write_text("#define TILE_ADD 1\n")
    monkeypatch.chdir(checkout)
    _run_add_one(pyasc_sim.compile(KERNEL))  # source text: the current directory is the checkout
    src = checkout / "k.cpp"  # the kernel's own directory holds the planted header too
    src.write_text(KERNEL.replace('#include "kernel_operator.h"', '#include "kernel_operator.h"\n#include "tile.h"')
                   .replace("+ 1);", "+ TILE_ADD);"))
    path = pyasc_sim.compile(src)
    _run_add_one(path)
    from pyasc_sim.build import kernel_names

    assert kernel_names(src) == ["add_one"]


def test_errors_still_name_the_callers_file_and_line(cache, tmp_path):
    bad = tmp_path / "bad.cpp"
    bad.write_text(KERNEL.replace("yg.SetValue(i, xg.GetValue(i) + 1);", "oops;"))
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(bad)
    assert info.value.file == str(bad) and info.value.line == 8
    with pytest.raises(pyasc_sim.KernelCompileError) as info:
        pyasc_sim.compile(bad.read_text())
    kept = info.value.file
    assert kept.startswith(str(cache / "sources")) and open(kept).read() == bad.read_text()


def test_concurrent_builders_publish_one_verified_binary(cache, tmp_path, monkeypatch):
    code = textwrap.dedent(f"""
        import hashlib, pyasc_sim
        p = pyasc_sim.compile({KERNEL!r}, opt="-O0")
        assert hashlib.sha256(open(p, "rb").read()).hexdigest()[:32] in p
        print(p)
    """)
    env = dict(os.environ, PYASC_CACHE_DIR=str(cache))
    procs = [subprocess.Popen([sys.executable, "-c", code], env=env, cwd=tmp_path, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(3)]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [o[1] for o in outs]
    paths = {o[0].strip() for o in outs}
    assert all(os.path.isfile(p) for p in paths)
    monkeypatch.chdir(tmp_path)  # source text: the current directory is part of the key
    assert pyasc_sim.compile(KERNEL, opt="-O0") in paths
    assert not [f for f in os.listdir(cache) if f.startswith((".pyasc-tmp-", "build_"))]


# -- size cap, info, clear -------------------------------------------------------------------------

def _publish_fake(root: str, name: str, size: int, fill: bytes) -> str:
    built = os.path.join(root, f"build_{name}")
    os.mkdir(built)
    f = os.path.join(built, "kernel.so")
    with open(f, "wb") as out:
        out.write(fill * size)
    try:
        return kcache.publish(root, name, f)
    finally:
        os.rmdir(built)


def test_size_cap_evicts_the_least_recently_used(cache, env):
    env.setenv("PYASC_CACHE_MAX_BYTES", "2600")
    root = pyasc_sim.cache_dir()
    names = ["ascendc_aa", "ascendc_bb", "ascendc_cc"]
    a = _publish_fake(root, names[0], 1000, b"a")
    os.utime(os.path.join(root, names[0] + ".sha256"), (1000, 1000))
    _publish_fake(root, names[1], 1000, b"b")
    os.utime(os.path.join(root, names[1] + ".sha256"), (2000, 2000))
    assert kcache.lookup(root, names[0]) == a  # a use: now the most recent
    c = _publish_fake(root, names[2], 1000, b"c")
    assert kcache.lookup(root, names[1]) is None  # the least recently used went
    assert kcache.lookup(root, names[0]) == a and kcache.lookup(root, names[2]) == c
    assert kcache.info()["bytes"] <= 2600 and kcache.info()["entries"] == 2


def _cli(*args, env, cwd):
    return subprocess.run([sys.executable, "-m", "pyasc_core.cli", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


def test_cli_cache_info_and_clear(cache, tmp_path):
    path = pyasc_sim.compile(KERNEL, opt="-O0")
    (cache / "notes.txt").write_text("not pyasc's")
    env = dict(os.environ, PYASC_CACHE_DIR=str(cache), PYASC_CACHE_MAX_BYTES="64M")
    done = _cli("cache", "info", env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"path: {cache} (from PYASC_CACHE_DIR)" in done.stdout
    assert "entries: 1" in done.stdout and f"max bytes: {64 << 20}" in done.stdout
    assert "precompiled headers: 0 (0 bytes;" in done.stdout  # one build of a flag set makes none
    data = json.loads(_cli("cache", "info", "--json", env=env, cwd=tmp_path).stdout)
    assert data["entries"] == 1 and data["bytes"] >= os.path.getsize(path) and data["path"] == str(cache)
    done = _cli("cache", "clear", env=env, cwd=tmp_path)
    assert done.returncode == 0 and "removed" in done.stdout, done.stderr
    assert not os.path.exists(path) and (cache / "notes.txt").exists()
    assert "entries: 0" in _cli("cache", "info", env=env, cwd=tmp_path).stdout
    os.chmod(cache, 0o777)
    done = _cli("cache", "info", env=env, cwd=tmp_path)
    assert done.returncode == 2 and "pyasc cache: error: the kernel cache chosen by PYASC_CACHE_DIR" in done.stderr


# -- the ACL library is trusted input --------------------------------------------------------------

def test_acl_library_override_must_be_a_file_nobody_else_can_replace(tmp_path, env):
    from pyasc_acl.loader import locate_acl_library

    real = pyasc_sim.library_path()
    env.setenv("PYASC_ACL_LIBRARY", str(tmp_path))
    path, reason = locate_acl_library()
    assert path is None and f"PYASC_ACL_LIBRARY={tmp_path} is a directory" in reason and "libascendcl.so" in reason
    lib = tmp_path / "libascendcl.so"
    lib.write_bytes(open(real, "rb").read())
    os.chmod(lib, 0o777)
    env.setenv("PYASC_ACL_LIBRARY", str(lib))
    path, reason = locate_acl_library()
    assert path is None and "writable by every user (mode 0777)" in reason and f"chmod o-w {lib}" in reason
    os.chmod(lib, 0o755)
    os.chmod(tmp_path, 0o777)
    path, reason = locate_acl_library()
    assert path is None and "no sticky bit" in reason
    os.chmod(tmp_path, 0o755)
    assert locate_acl_library() == (str(lib), "")
    env.delenv("PYASC_ACL_LIBRARY")
    home = tmp_path / "cann"
    (home / "lib64").mkdir(parents=True)
    (home / "lib64" / "libascendcl.so").write_bytes(b"x")
    os.chmod(home / "lib64" / "libascendcl.so", 0o666)
    env.setenv("ASCEND_HOME_PATH", str(home))
    path, reason = locate_acl_library()
    assert path is None and "(from ASCEND_HOME_PATH) is writable by every user" in reason


def test_refused_acl_library_makes_npu_unavailable_with_the_reason(tmp_path, env):
    from pyasc_core import plugins

    env.setenv("PYASC_ACL_LIBRARY", str(tmp_path))
    plugins.reset_for_tests()
    try:
        with pytest.raises(pyasc.BackendUnavailableError, match=r"PYASC_ACL_LIBRARY=.* is a directory"):
            pyasc.set_backend("npu")
    finally:
        env.undo()
        plugins.reset_for_tests()


def test_plain_abi_kernel_cache_key_follows_the_headers(tmp_path, monkeypatch):
    """A binary built against an older pyasc_sim/kernel_abi.h is never reused after an upgrade:
    the headers' content is part of compile_kernel's cache key (a stale binary fails every launch
    with an ABI version mismatch)."""
    from pyasc_sim import build

    monkeypatch.setenv("PYASC_CACHE_DIR", str(tmp_path / "cache"))
    src = '#include "pyasc_sim/kernel_abi.h"\nextern "C" int pyasc_probe_fn(void) { return 1; }\n'
    first = build.compile_kernel(src)
    assert build.compile_kernel(src) == first  # a hit while the headers are the same
    monkeypatch.setattr(build, "_header_version", lambda include_dir: "another release's headers")
    assert build.compile_kernel(src) != first
