"""The kernel type of a kernel that declares none, as the NPU compiler infers it.

The Ascend C documentation lets a kernel leave out ``KERNEL_TASK_TYPE_DEFAULT``: the compiler infers
the kernel type from the instructions the kernel compiles to (the programming guide's Kernel-type
constraints page: no inference when a compilation unit holds more than one kernel, nor on the Atlas 350
or the Atlas inference series; a scalar-only kernel cannot be inferred). A kernel with cube and vector
instructions is a mixed kernel, launched on the Atlas A2 / A3 as numBlocks groups of one AIC and two AIV
(SetBlockDim's "Vector/Cube融合计算的算子").

This module decides at compile time whether a build asks for that inference; the fact the inference
needs -- which core kinds' instructions the binary instantiates -- is only known after linking, so the
kernel API reads it at run time (kapi/core_usage.h) and ``run_entry`` (kapi/entry.h) launches the block
as KERNEL_TYPE_MIX_AIC_1_2 when the binary holds both. The request is a definition the stub unit carries
(:func:`stub_definition`), not a ``-D`` flag, so the precompiled kernel API header stays shared.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

#: a kernel's own task-type declaration, in its source text or where the preprocessor expanded it
_DECLARES_RE = re.compile(r"\bKERNEL_TASK_TYPE(?:_DEFAULT)?\s*\(|::pyasc_sim::kapi::declare_task_type\s*\(")
_DECLARES_BYTES_RE = re.compile(rb"\bKERNEL_TASK_TYPE(?:_DEFAULT)?\s*\(")
#: what a kernel written for the separated cube / vector cores uses to tell them apart (or to hand work
#: between them); one that uses none of it runs the same code on every core
_CORE_AWARE = (r"\b(?:ASCEND_IS_(?:NOT_)?AI[CV]|g_coreType|GetSubBlockIdx|GetTaskRati(?:on|o)|get_subblockid|"
               r"CrossCore(?:Set|Wait)Flag|ffts_cross_core_sync|wait_flag_dev|REGIST_MATMUL_OBJ|"
               r"__DAV_(?:C220_)?(?:CUBE|VEC)__)\b")
_CORE_AWARE_RE = re.compile(_CORE_AWARE)
_CORE_AWARE_BYTES_RE = re.compile(_CORE_AWARE.encode())
#: the 910B vector-core macro: the build is for an Atlas A2 / A3 SoC with vector cores ("vec" or "mix")
_A2_VECTOR_FLAG = "-D__DAV_C220_VEC__=1"
#: the symbol the stub unit defines when the build asks for the inference (kapi/core_usage.h reads it)
SYMBOL = "__pyasc_sim_infer_task_type"


def kernel_functions(names: Iterable[str]) -> set[str]:
    """The distinct kernel functions among kernel names (a template kernel's instances are one function)."""
    out = set()
    for name in names:
        base = name.split("<", 1)[0].strip()
        out.add(base)
    return out


def wanted(flags: Sequence[str], preprocessed: str, sources: Sequence[bytes], kernel_names: Iterable[str]) -> bool:
    """True when the build should infer the task type: an Atlas A2 / A3 build with vector cores
    (``core="vec"`` or ``"mix"``; not ``"cube"``, which asks for the AIC half), exactly one kernel
    function in the compilation unit, no ``KERNEL_TASK_TYPE_DEFAULT`` / ``KERNEL_TASK_TYPE`` of its own
    (in the preprocessed text or, inside a core's ``#if`` half, in the source and its headers), and no
    ``-DPYASC_SIM_DEFAULT_TASK_TYPE`` (the explicit form of round 16, which wins), and the kernel tells its
    cores apart (:func:`core_aware`)."""
    if _A2_VECTOR_FLAG not in flags:
        return False
    if any(f.startswith("-DPYASC_SIM_DEFAULT_TASK_TYPE") for f in flags):
        return False
    if len(kernel_functions(kernel_names)) != 1:
        return False
    if _DECLARES_RE.search(preprocessed) or any(_DECLARES_BYTES_RE.search(s) for s in sources):
        return False
    return core_aware(preprocessed, sources)


def core_aware(preprocessed: str, sources: Sequence[bytes]) -> bool:
    """Whether the kernel's code tells the cube and vector cores apart (``ASCEND_IS_AIC`` / ``ASCEND_IS_AIV``,
    ``g_coreType``, ``GetSubBlockIdx`` / ``GetTaskRation``, cross-core flags, ``REGIST_MATMUL_OBJ``, the core
    macros): a kernel written for the separated architecture. One that never does would run all its code on
    every core of a mixed launch; it keeps the simulator's model of one core per block running both kinds of
    instruction (pyasc's own JIT and tutorial kernels rely on it; kernel_api/README.md, deviations). The
    preprocessed text is the kernel's own code (the stub generator preprocesses with a stand-in
    kernel_operator.h, so the kernel API's macros stay as written)."""
    return bool(_CORE_AWARE_RE.search(preprocessed)) or any(_CORE_AWARE_BYTES_RE.search(s) for s in sources)


def stub_definition() -> str:
    """The line the stub unit gets when the build infers the task type."""
    return f'\nextern "C" __attribute__((visibility("hidden"))) const int {SYMBOL} = 1;\n'
