"""The CANN devkit's asdops-style kernel headers by their bare names ``hardware.h``, ``layout.h``, ``mem.h``,
``common_func.h`` (kda-ascendc's aclab kernels include them from the devkit's include directories, not from their
repository): the simulator ships our own stand-ins (pyasc_sim/asdops/) -- ``ArchType``, ``BufferType`` and
``AsdopsBuffer<ArchType>::GetBuffer<BufferType, T>(byte offset)`` over the documented static-tensor constructor --
and steps aside for a caller's own header of the same name anywhere further along the include path.  Host programs
compiled the way the kernel build orders its include options (no kernel build)."""

from __future__ import annotations

import subprocess

import pytest

import pyasc_sim

NAMES = ["hardware.h", "layout.h", "mem.h", "common_func.h"]


def _syntax(tmp_path, body: str, user_dir=None) -> subprocess.CompletedProcess:
    # as pyasc_sim.build lays out a kernel build: the caller's flags (-I of its own directories) first, then
    # -iquote <kernel API>, then -I <kernel API>; the source itself in a directory of its own
    inc = pyasc_sim.get_include()
    src = tmp_path / "src" / "host.cpp"
    src.parent.mkdir(exist_ok=True)
    src.write_text(body)
    flags = ["-I", str(user_dir)] if user_dir else []
    return subprocess.run(["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Werror", *flags,
                           "-iquote", inc, "-I", inc, str(src)], capture_output=True, text=True)


def test_stand_ins_declare_the_buffer_api(tmp_path):
    body = "".join(f'#include "{n}"\n' for n in NAMES) + (
        "using AscendC::TPosition;\n"
        "static_assert(GetPosition<BufferType::ASCEND_UB>() == TPosition::VECIN);\n"
        "static_assert(GetPosition<BufferType::ASCEND_CB>() == TPosition::A1);\n"
        "static_assert(GetPosition<BufferType::ASCEND_L0A>() == TPosition::A2);\n"
        "static_assert(GetPosition<BufferType::ASCEND_L0B>() == TPosition::B2);\n"
        "static_assert(GetPosition<BufferType::ASCEND_L0C>() == TPosition::CO1);\n"
        "AscendC::LocalTensor<float> f(const AsdopsBuffer<ArchType::ASCEND_V220> &b) {\n"
        "    return b.GetBuffer<BufferType::ASCEND_L0C, float>(512); }\n"
        "int main() { (void)ArchType::ASCEND_V200; (void)ArchType::ASCEND_M200; }\n")
    proc = _syntax(tmp_path, body)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("name", NAMES)
def test_callers_own_header_wins(tmp_path, name):
    # a directory of the caller's (passed as -I, found after the kernel API's -iquote) holding its own header of
    # that name: that header is the one included, and the stand-in's names stay undeclared
    own = tmp_path / "own"
    own.mkdir()
    (own / name).write_text("#pragma once\n#define CALLERS_OWN_HEADER 1\n")
    body = (f'#include "{name}"\n'
            "#ifndef CALLERS_OWN_HEADER\n#error the callers header was not included\n#endif\n"
            "#if defined(PYASC_SIM_ASDOPS_HARDWARE_H_) || defined(PYASC_SIM_ASDOPS_MEM_H_)\n"
            "#error the stand-in was included as well\n#endif\n"
            "int main() {}\n")
    proc = _syntax(tmp_path, body, user_dir=own)
    assert proc.returncode == 0, proc.stderr
