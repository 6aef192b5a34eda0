"""SIMT code built for a SoC without SIMT: find the SIMT API in g++'s diagnostics, to name it in the error.

The SIMT programming model -- ``__simt_vf__`` functions started with ``asc_vf_call`` / ``Simt::VF_CALL``, the
built-in variables ``threadIdx`` / ``blockIdx`` / ``blockDim`` / ``gridDim``, the warp functions, the SIMT atomics
and the NPU compiler's builtins such as ``__sync_workitems`` -- exists on the Atlas 350 / Ascend 950 only (dav-c310,
``__NPU_ARCH__`` 3510: the public ``simt_api`` headers declare ``asc_vf_call`` under ``#if __NPU_ARCH__ == 3510``).
The simulator declares these names for a build with ``soc="Ascend950PR_9599"`` only (kapi/simt*.h), so SIMT code
built for an Atlas A2 SoC (Ascend910B*, the default) or the Atlas inference series fails to compile, as it does on
the NPU, but g++ only says "'__sync_workitems' was not declared in this scope". :func:`find` picks the first
diagnostic that names a SIMT API; the build then raises :class:`pyasc_sim.build.SimtUnavailableError` naming it,
the SoC the kernel was built for and the ``soc=`` / ``--soc`` value that has SIMT.
"""

from __future__ import annotations

import re
from typing import NamedTuple

#: the SoC whose profile has SIMT (the value of soc= / --soc / PYASC_SIM_SOC to build SIMT code for)
SIMT_SOC = "Ascend950PR_9599"

#: the SIMT names the kernel API declares for the Ascend 950 only (kapi/simt.h, simt_builtins.h, simt_api.h,
#: simt_cache.h, simt_asc_functions.h; tests/test_sim_simt_soc_error.py checks each is declared there)
SIMT_NAMES = frozenset("""
Simt asc_vf_call dim3 __simt_vf__ __simt_callee__ LAUNCH_BOUND __launch_bounds__
threadIdx blockIdx blockDim gridDim
asc_shfl asc_shfl_up asc_shfl_down asc_shfl_xor __shfl __shfl_up __shfl_down __shfl_xor __ballot
asc_all asc_any asc_ballot asc_activemask asc_reduce_add asc_reduce_max asc_reduce_min
__sync_workitems __reduce_add __reduce_max __reduce_min __all __any __activemask __clz
atomicAnd atomicOr atomicXOr atomicXor atomicAdd atomicSub atomicExch atomicMax atomicMin atomicCAS
__umulhi __umul64hi __ffs __popc asc_threadfence asc_threadfence_block __threadfence __threadfence_block
asc_syncthreads make_half2 __halves2half2 half2
__ldg __stg asc_ldcg asc_ldca asc_stcg asc_stwt
asc_uintdiv asc_get_uintdiv_magic_and_shift asc_atomic_add asc_atomic_sub asc_atomic_exch asc_atomic_max
asc_atomic_min asc_atomic_and asc_atomic_or asc_atomic_xor asc_atomic_cas
""".split())

# g++'s ways of saying a name is unknown ('...' or the UTF-8 quotes of a UTF-8 locale)
_Q = "[\u2018']"
_QE = "[\u2019']"
_UNKNOWN_RE = re.compile(
    rf"{_Q}(?P<a>[\w:]+){_QE}\s+(?:was not declared|does not name a type|has not been declared|is not a member of"
    rf"|in namespace {_Q}[\w:]+{_QE} does not name a (?:template )?type)"
    rf"|there are no arguments to {_Q}(?P<b>\w+){_QE}")
_ERROR_RE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?:(?P<col>\d+):)?\s*(?:fatal )?error:\s*(?P<msg>.*)$")
_ECHO_RE = re.compile(r"^\s*\d+\s*\|(?P<code>.*)$")
_SIMT_MEMBER_RE = re.compile(r"(?:AscendC\s*::\s*)?Simt\s*::\s*(\w+)")


class SimtUse(NamedTuple):
    """A SIMT API a diagnostic names: ``api`` as the source spells it (``Simt::VF_CALL``, ``__sync_workitems``)
    and where (``file``, ``line``; '' / 0 when g++ gave no location)."""
    api: str
    file: str
    line: int


def find(output: str) -> SimtUse | None:
    """The first SIMT API g++'s ``output`` reports unknown ("'X' was not declared in this scope", "'X' does not name
    a type", "'Simt' has not been declared", ...), or None when no error names one."""
    lines = output.splitlines()
    for i, text in enumerate(lines):
        m = _ERROR_RE.match(text)
        if m is None:
            continue
        u = _UNKNOWN_RE.search(m.group("msg"))
        if u is None:
            continue
        name = (u.group("a") or u.group("b") or "").split("::")[-1]
        if name not in SIMT_NAMES:
            continue
        api = name
        if name == "Simt":  # the namespace: name the member the source uses, from the echoed code line
            echo = _ECHO_RE.match(lines[i + 1]) if i + 1 < len(lines) else None
            if echo is not None:
                col = int(m.group("col") or 1)
                code = echo.group("code")
                mm = _SIMT_MEMBER_RE.search(code[max(col - 2, 0):]) or _SIMT_MEMBER_RE.search(code)
                api = f"Simt::{mm.group(1)}" if mm else "AscendC::Simt"
            else:
                api = "AscendC::Simt"
        return SimtUse(api, m.group("file"), int(m.group("line")))
    return None


def message(use: SimtUse, soc: str, arch: int) -> str:
    """The first line of the error: the API, that SIMT is an Ascend 950 feature, and the fix."""
    where = f"{use.file}:{use.line}: " if use.line else (f"{use.file}: " if use.file else "")
    return (f"{where}error: {use.api} is a SIMT API, and SIMT (asc_vf_call / Simt::VF_CALL of __simt_vf__ functions, "
            f"threadIdx, the warp functions, SIMT atomics and builtins such as __sync_workitems) exists on the Atlas "
            f"350 / Ascend 950 only (dav-c310, __NPU_ARCH__ 3510); this kernel was built for {soc} (__NPU_ARCH__ "
            f"{arch}), which has no SIMT, so it cannot compile for it (nor on that NPU). Build it for the Ascend 950: "
            f"soc=\"{SIMT_SOC}\" (pyasc compile / pyasc cpu-debug --soc {SIMT_SOC}, or PYASC_SIM_SOC={SIMT_SOC})")
