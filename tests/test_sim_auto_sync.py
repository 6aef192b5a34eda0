"""The BiSheng compiler's automatic synchronisation as a build mode of the sanitizer (check 'pipe-race', round 26).

BiSheng "Automatic Synchronization" (atlas_bisheng_10_0008): ``--cce-auto-sync`` "is enabled in kernel launch
projects and custom operator projects by default" and inserts the synchronisation "Between MTE2 and the Scalar
Unit; Between MTE3 and the Scalar Unit; Between the Vector and Scalar Units; Between the Vector Units" -- the
remaining pairs are the Ascend C framework's (the queues). So in the default build every Scalar Unit pair of
rounds 22-25 (a SetValue before EnQue, a GetValue after DeQue or after a vector op, ...) runs clean and
bit-exact with no flag of the kernel's own, and is reported with ``--cce-auto-sync=off`` (the build some op
projects use, e.g. vllm-ascend's build_dspark_swa_indices); a pair the compiler does not insert (MTE2 -> V on a
TBuf) is reported in both.
The ordering the compiler inserts is a happens-before edge later accesses build on, not a dropped report.
Kernels: backends/sim/kernel_api/tests/kernels/auto_sync.cpp, races.cpp, races_r15.cpp."""

from __future__ import annotations

import os
import subprocess

import numpy as np
import pytest

import pyasc
import pyasc_acl
from ascendc_kernels import expect_pipe_race as expect_race
from ascendc_kernels import load

pyasc_sim = pytest.importorskip("pyasc_sim")

TILE = 256
OFF = ("--cce-auto-sync=off",)
OFF_NOTE = "This pair is needed because the kernel is built with the compiler's automatic synchronisation off"
ON_NOTE = "inserts only the Scalar Unit's pairs with MTE2 / MTE3 / V, not this one"


def upload(a):
    t = pyasc.tensor(a, device="sim")
    pyasc.synchronize("sim")  # the upload before the launch on the test's stream
    return t


# ---- every Scalar Unit form of rounds 22-25: clean and bit-exact in the default build, reported with it off ----

@pytest.mark.parametrize("flags, tag, this_pipe, other_pipe", [
    (0, "raw-s-enque-mte3", "MTE3", "S"),  # SetValue into a VECOUT tile, EnQue, DeQue, DataCopy to GM
    (2, "raw-s-enque-v", "V", "S"),        # SetValue into a VECIN tile, EnQue, DeQue, a vector op
])
def test_scalar_store_before_enque(stream, flags, tag, this_pipe, other_pipe):
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(load("races.cpp").function("scalar_then_queue"), 1, (z, flags), stream=stream)
    stream.synchronize()
    want = np.full(TILE, 3.0 if flags & 2 else 2.0, dtype=np.float32)
    want[3] = 10.0 if flags & 2 else 9.0
    np.testing.assert_array_equal(z.numpy(), want)
    pyasc_acl.launch(load("races.cpp", OFF).function("scalar_then_queue"), 1, (z, flags), stream=stream)
    msg = expect_race(stream, "races.cpp", "scalar_then_queue", tag, "read-after-write", this_pipe, other_pipe)
    assert OFF_NOTE in msg, msg


# GetValue after DeQue (VECIN, VECOUT) and after an explicit WaitFlag<MTE2_V>: tests/test_sim_races.py
# test_scalar_read_after_deque_needs_its_own_flag runs each clean and bit-exact in the default build without the pair
# and reports it with --cce-auto-sync=off.


def test_scalar_read_after_a_vector_op(stream):
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(load("races.cpp").function("scalar_after_vector"), 1, (z, 0), stream=stream)
    stream.synchronize()
    want = np.full(TILE, 3.0, np.float32)  # Duplicate 2, Adds 1; element 1 := element 0 (3)
    np.testing.assert_array_equal(z.numpy(), want)
    pyasc_acl.launch(load("races.cpp", OFF).function("scalar_after_vector"), 1, (z, 0), stream=stream)
    expect_race(stream, "races.cpp", "scalar_after_vector", "raw-v-s", "read-after-write", "S", "V")


def test_scalar_store_before_a_vector_op_and_a_store(stream):
    z = pyasc.zeros(2 * TILE, dtype="float32", device="sim")
    pyasc_acl.launch(load("races.cpp").function("scalar_then_vector"), 1, (z, 0), stream=stream)
    stream.synchronize()
    want = np.concatenate([np.full(TILE, 6.0), np.full(TILE, 2.0)]).astype(np.float32)
    want[0], want[TILE] = 12.0, 7.0
    np.testing.assert_array_equal(z.numpy(), want)
    off = load("races.cpp", OFF)
    pyasc_acl.launch(off.function("scalar_then_vector"), 1, (z, 2), stream=stream)
    expect_race(stream, "races.cpp", "scalar_then_vector", "raw-s-v", "read-after-write", "V", "S")
    pyasc_acl.launch(off.function("scalar_then_vector"), 1, (z, 1), stream=stream)
    expect_race(stream, "races.cpp", "scalar_then_vector", "raw-s-mte3", "read-after-write", "MTE3", "S")


def test_scalar_read_after_a_gm_to_ub_copy_on_a_tbuf(stream):
    xa = np.arange(TILE, dtype=np.float32) + 0.5
    x = upload(xa)
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(load("races_r15.cpp").function("scalar_after_load"), 1, (x, z, 0), stream=stream)
    stream.synchronize()
    assert z.numpy()[0] == 3.5 and not z.numpy()[1:].any()
    pyasc_acl.launch(load("races_r15.cpp", OFF).function("scalar_after_load"), 1, (x, z, 0), stream=stream)
    expect_race(stream, "races_r15.cpp", "scalar_after_load", "raw-mte2-s", "read-after-write", "S", "MTE2")


def test_scalar_stores_around_a_vector_op(stream):
    # V -> S (write-after-write), S -> V and S -> MTE3 (through V's V_MTE3 pair) with no flag of the kernel's
    xa = np.arange(TILE, dtype=np.float32) * 0.5 - 3.0
    x = upload(xa)
    want = np.concatenate([2.0 * xa + 1.0, 2.0 * xa]).astype(np.float32)
    want[0], want[TILE + 1] = 11.0, 7.0
    for kernels, flags in ((load("auto_sync.cpp"), 0), (load("auto_sync.cpp"), 1), (load("auto_sync.cpp", OFF), 1)):
        z = pyasc.zeros(2 * TILE, dtype="float32", device="sim")
        pyasc_acl.launch(kernels.function("scalar_stores_around_vector"), 1, (x, z, flags), stream=stream)
        stream.synchronize()
        np.testing.assert_array_equal(z.numpy(), want)
    pyasc_acl.launch(load("auto_sync.cpp", OFF).function("scalar_stores_around_vector"), 1, (x, z, 0), stream=stream)
    msg = expect_race(stream, "auto_sync.cpp", "scalar_stores_around_vector", "war-v-s", "write-after-read", "S",
                      "V")
    assert OFF_NOTE in msg, msg


# ---- the inserted ordering is an edge, and the pairs the compiler does not insert stay reported ----

def test_the_compilers_wait_orders_what_the_scalar_unit_issues_later(stream):
    # MTE2 -> S before the GetValue stalls the Scalar Unit: the Adds it issues later is ordered after the load
    # too (a dropped report would leave the Adds' MTE2 -> V unordered and report it)
    xa = np.arange(TILE, dtype=np.float32) * 0.75
    x = upload(xa)
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(load("auto_sync.cpp").function("read_bridges_load"), 1, (x, z, 1), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), xa + xa[3])
    # with it off the GetValue is the first access without its pair
    pyasc_acl.launch(load("auto_sync.cpp", OFF).function("read_bridges_load"), 1, (x, z, 1), stream=stream)
    expect_race(stream, "auto_sync.cpp", "read_bridges_load", "raw-bridge-mte2-s", "read-after-write", "S", "MTE2")


def test_the_compilers_wait_covers_the_work_before_it_only(stream):
    # after the V -> S wait at the GetValue, a new vector op's result still needs its V_MTE3 pair
    want = np.concatenate([np.full(TILE, 2.0), np.full(TILE, 4.0)]).astype(np.float32)
    z = pyasc.zeros(2 * TILE, dtype="float32", device="sim")
    pyasc_acl.launch(load("auto_sync.cpp").function("vector_after_read"), 1, (z, 1), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), want)
    pyasc_acl.launch(load("auto_sync.cpp").function("vector_after_read"), 1, (z, 0), stream=stream)
    msg = expect_race(stream, "auto_sync.cpp", "vector_after_read", "raw-after-read-v-mte3", "read-after-write",
                      "MTE3", "V")
    assert ON_NOTE in msg, msg


@pytest.mark.parametrize("flags", [(), OFF])
def test_a_pair_the_compiler_does_not_insert_is_reported_in_both_builds(stream, flags):
    # MTE2 -> V on a TBuf (no scalar access between): the framework's pair (a queue) or the kernel's
    xa = np.arange(TILE, dtype=np.float32)
    x = upload(xa)
    z = pyasc.zeros(TILE, dtype="float32", device="sim")
    pyasc_acl.launch(load("auto_sync.cpp", flags).function("read_bridges_load"), 1, (x, z, 0), stream=stream)
    msg = expect_race(stream, "auto_sync.cpp", "read_bridges_load", "raw-bridge-mte2-v", "read-after-write", "V",
                      "MTE2")
    assert (ON_NOTE in msg) == (not flags) and OFF_NOTE not in msg, msg
    # races.cpp's TBuf kernel without its MTE2_V pair, likewise
    y = pyasc.full((TILE,), 1.5, dtype="float32", device="sim")
    pyasc_acl.launch(load("races.cpp", flags).function("tbuf_add_one"), 1, (y, z, 1, 6), stream=stream)
    expect_race(stream, "races.cpp", "tbuf_add_one", "raw-mte2-v", "read-after-write", "V", "MTE2")


def test_a_vector_result_stored_without_v_mte3_is_reported_in_both_builds(stream):
    # V -> MTE3 without a queue: not the compiler's (rows_then_read bit 2 leaves the scalar read out)
    for flags in ((), OFF):
        z = pyasc.zeros(2 * TILE, dtype="float32", device="sim")
        pyasc_acl.launch(load("races.cpp", flags).function("rows_then_read"), 1, (z, 4), stream=stream)
        expect_race(stream, "races.cpp", "rows_then_read", "raw-rows-v-mte3", "read-after-write", "MTE3", "V")
    # with the scalar read (no V_S of the kernel's) the compiler's V -> S wait orders the store after the Adds
    pyasc_acl.launch(load("races.cpp").function("rows_then_read"), 1, (z, 0), stream=stream)
    stream.synchronize()
    np.testing.assert_array_equal(z.numpy(), np.full(2 * TILE, 3.0, dtype=np.float32))


# ---- the switch, spelled each accepted way ----

SMALL = r"""{define}#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void get_after_vector(GM_ADDR z)
{{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    GlobalTensor<float> gz;
    gz.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(z), 8);
    LocalTensor<float> t = buf.Get<float>();
    Duplicate(t, 4.0f, 256);
    gz.SetValue(0, t.GetValue(5));  // GET
}}
"""


@pytest.mark.parametrize("flags, define, checked", [
    ([], "", False),
    (["--cce-auto-sync"], "", False),
    (["--cce-auto-sync=on"], "", False),
    (["--cce-auto-sync=off"], "", True),
    (["-DPYASC_SIM_AUTO_SYNC=0"], "", True),
    ([], "#define PYASC_SIM_AUTO_SYNC 0\n", True),
    (["--cce-auto-sync=off", "--cce-auto-sync"], "", False),  # the last one decides
    (["--cce-auto-sync", "--cce-auto-sync=off"], "", True),
])
def test_each_spelling_of_the_switch(tmp_path, stream, flags, define, checked):
    src = tmp_path / "get_after_vector.cpp"
    src.write_text(SMALL.format(define=define))
    fn = pyasc_acl.Binary(pyasc_sim.compile(src, opt="-O0", extra_flags=flags), device="sim").function(
        "get_after_vector")
    z = pyasc.zeros(8, dtype="float32", device="sim")
    pyasc.synchronize("sim")
    pyasc_acl.launch(fn, 1, (z,), stream=stream)
    if checked:
        with pytest.raises(pyasc_acl.AclKernelError, match=r"(?s)pipe-race.*this S instruction reads UB.*V_S"):
            stream.synchronize()
    else:
        stream.synchronize()
        assert z.numpy()[0] == 4.0


@pytest.mark.parametrize("bad", ["--cce-auto-sync=maybe", "--cce-auto-sync=", "--cce-auto-sync=OFF",
                                 "--cce-auto-syncoff"])
def test_a_bad_spelling_is_a_clear_error(tmp_path, bad):
    src = tmp_path / "k.cpp"
    src.write_text(SMALL.format(define=""))
    from pyasc_sim import cpudebug

    value = bad.partition("=")[2] if "=" in bad else bad[len("--cce-auto-sync"):]
    for build in (lambda: pyasc_sim.compile(src, extra_flags=[bad]),
                  lambda: cpudebug.build([src], tmp_path / "prog", extra_flags=[bad])):
        with pytest.raises(pyasc_sim.KernelBuildError) as info:
            build()
        msg = str(info.value)
        assert isinstance(info.value, pyasc.PyascError)
        assert f"{bad!r}" in msg and f"got the value {value!r}" in msg, msg
        assert "'--cce-auto-sync=off'" in msg and "'--cce-auto-sync=on'" in msg, msg


def test_other_flags_pass_through():
    from pyasc_sim.build import auto_sync_flags

    assert auto_sync_flags(["-DN=8", "--cce-auto-sync=off", "-I/x"]) == ["-DN=8", "-I/x", "-DPYASC_SIM_AUTO_SYNC=0"]
    assert auto_sync_flags(["--cce-auto-sync=on", "-O2"]) == ["-O2"]
    # BiSheng's --cce-auto-sync-log=<file> is another option (left to the compiler)
    assert auto_sync_flags(["--cce-auto-sync-log=x.log"]) == ["--cce-auto-sync-log=x.log"]


# ---- the CPU-debug build takes the switch too ----

MAIN = r"""#include <cstdint>
#include <cstdio>
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void get_after_vector(GM_ADDR z);

int32_t main()
{
    uint8_t *z = (uint8_t *)AscendC::GmAlloc(32);
    AscendC::SetKernelMode(KernelMode::AIV_MODE);
    ICPU_RUN_KF(get_after_vector, 1, z);
    std::printf("z0=%g\n", ((float *)z)[0]);
    AscendC::GmFree(z);
    return 0;
}
"""


def test_cpu_debug_build_takes_the_switch(tmp_path):
    from pyasc_sim import cpudebug

    (tmp_path / "k.cpp").write_text(SMALL.format(define=""))
    (tmp_path / "main.cpp").write_text(MAIN)
    env = {**os.environ, "PYASC_SIM_CPU_DEBUG_CONTINUE": "1", "PYASC_SIM_CHECKS": "1"}
    for flags, checked in (([], False), (["--cce-auto-sync=off"], True)):
        exe = cpudebug.build([tmp_path / "main.cpp", tmp_path / "k.cpp"], tmp_path / f"prog{len(flags)}",
                             extra_flags=flags)
        proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=120, env=env)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert ("sanitizer check 'pipe-race' failed" in proc.stderr) == checked, proc.stderr
        if checked:
            assert OFF_NOTE in proc.stderr, proc.stderr
        else:
            assert proc.stderr == "" and proc.stdout.strip() == "z0=4", proc.stdout + proc.stderr


def test_the_compile_command_takes_the_switch(tmp_path):
    # `pyasc compile --cce-auto-sync=off` builds what extra_flags=["--cce-auto-sync=off"] builds (same binary);
    # a value other than on / off is refused by the command line
    import sys

    src = tmp_path / "k.cpp"
    src.write_text(SMALL.format(define=""))
    env = {**os.environ, "PYASC_CACHE_DIR": str(pyasc_sim.cache_dir())}

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "pyasc_core.cli", "compile", str(src), "--opt=-O0", *args],
                              capture_output=True, text=True, env=env, timeout=600, cwd=str(tmp_path))

    done = cli("--cce-auto-sync=off")
    assert done.returncode == 0, done.stdout + done.stderr
    want = pyasc_sim.compile(src, opt="-O0", extra_flags=["--cce-auto-sync=off"])
    assert done.stdout.splitlines()[0] == want, done.stdout
    assert want != pyasc_sim.compile(src, opt="-O0")
    bad = cli("--cce-auto-sync=maybe")
    assert bad.returncode == 2 and "invalid choice: 'maybe'" in bad.stderr, bad.stdout + bad.stderr
