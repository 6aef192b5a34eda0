"""The CANN devkit's asdops-style kernel headers by their bare names ``hardware.h``, ``layout.h``, ``mem.h``,
``common_func.h`` (kda-ascendc's aclab kernels include them from the devkit's include directories, not from their
repository): the simulator ships our own stand-ins (pyasc_sim/asdops/) -- ``ArchType``, ``BufferType`` and
``AsdopsBuffer<ArchType>::GetBuffer<BufferType, T>(byte offset)`` over the documented static-tensor constructor --
and steps aside for a caller's own header of the same name anywhere further along the include path -- as do the
basic API's bare ``kernel_common.h`` / ``kernel_tpipe_impl.h`` (round 34).  Host programs compiled the way the kernel
build and its preprocessing pass order their include options (no kernel build)."""

from __future__ import annotations

import subprocess

import pytest

from ascendc_kernels import host_syntax

NAMES = ["hardware.h", "layout.h", "mem.h", "common_func.h"]


# The bare SDK names the simulator stands in for, each with the macro its stand-in defines once it comes in:
# the asdops-style four and the basic API's kernel_common.h / kernel_tpipe_impl.h (DrivingSDK, round 34).
DONE = {"hardware.h": "PYASC_SIM_ASDOPS_HARDWARE_DONE", "layout.h": "PYASC_SIM_ASDOPS_LAYOUT_DONE",
        "mem.h": "PYASC_SIM_ASDOPS_MEM_DONE", "common_func.h": "PYASC_SIM_ASDOPS_COMMON_FUNC_DONE",
        "kernel_common.h": "PYASC_SIM_SDK_KERNEL_COMMON_DONE",
        "kernel_tpipe_impl.h": "PYASC_SIM_SDK_KERNEL_TPIPE_IMPL_DONE"}


def _syntax(tmp_path, body: str, user_dir=None, layout: str = "build") -> subprocess.CompletedProcess:
    # "build": as pyasc_sim.build lays out a kernel compile -- the caller's flags (-I of its own directories) first,
    # then -iquote <kernel API>, then -I <kernel API>; "stubgen": as its preprocessing pass (_stubgen.preprocess) --
    # the kernel API's directory twice (-iquote and -I) before the caller's -I
    own = ["-I", str(user_dir)] if user_dir else []
    return host_syntax(tmp_path, body, before=own) if layout == "build" else host_syntax(tmp_path, body, after=own)


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


@pytest.mark.parametrize("layout", ["build", "stubgen"])
@pytest.mark.parametrize("name", sorted(DONE))
def test_callers_own_header_wins(tmp_path, name, layout):
    # a directory of the caller's (passed as -I) holding its own header of that name: that header is the one
    # included, and the stand-in does not come in -- in both include-path layouts of a kernel build
    own = tmp_path / "own"
    own.mkdir()
    (own / name).write_text("#pragma once\n#define CALLERS_OWN_HEADER 1\n")
    body = (f'#include "{name}"\n#include <{name}>\n'
            "#ifndef CALLERS_OWN_HEADER\n#error the callers header was not included\n#endif\n"
            f"#ifdef {DONE[name]}\n#error the stand-in was included as well\n#endif\n"
            "int main() {}\n")
    proc = _syntax(tmp_path, body, user_dir=own, layout=layout)
    assert proc.returncode == 0, proc.stderr


def test_stand_ins_come_in_once_without_a_callers_header(tmp_path):
    # no header of those names but the kernel API's, on the path twice (the preprocessing layout; the kernel build's
    # is test_stand_ins_declare_the_buffer_api's): each stand-in comes in, once, however often and in whichever form
    # its name is included (one compile for all six: they bring in the kernel API)
    body = "".join(f'#include "{n}"\n#include <{n}>\n#include "{n}"\n'
                   f"#ifndef {DONE[n]}\n#error the stand-in of {n} did not come in\n#endif\n" for n in sorted(DONE))
    proc = _syntax(tmp_path, body + "int main() {}\n", layout="stubgen")
    assert proc.returncode == 0, proc.stderr
