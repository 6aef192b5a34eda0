"""pyasc_sim: a simulated Ascend device on the CPU: its ACL runtime library (``libpyasc_acl_sim.so``,
exporting the ACL ABI), the kernel compiler (``compile``, with its cache) and the headers of the
Ascend C kernel API for the CPU. The ``sim`` backend is pyasc_acl's ACL backend over that library."""

from __future__ import annotations

import os

from .build import KernelBuildError, KernelCompileError, cache_dir, compile, compile_kernel, template_arguments
from .cache import KernelCacheError
from .host import host_function
from .tiling import SYS_WORKSPACE_SIZE, TilingStruct, tiling_struct

LIBRARY_NAME = "libpyasc_acl_sim.so"

__all__ = [
    "LIBRARY_NAME", "KernelBuildError", "KernelCacheError", "KernelCompileError", "cache_dir", "compile",
    "compile_kernel",
    "get_include", "kernel_api_reference", "library_path", "SYS_WORKSPACE_SIZE", "TilingStruct",
    "tiling_struct", "host_function", "template_arguments",
]


def _package_dirs() -> list[str]:
    # an editable install spreads the package over the source tree and site-packages
    return [os.fspath(p) for p in __path__]


def kernel_api_reference() -> str:
    """The path of the kernel API reference installed with pyasc (``docs/kernel_api.md``: the
    Ascend C calls the simulator implements, its deviations and checks); in a source checkout,
    backends/sim/kernel_api/README.md."""
    for d in _package_dirs():
        for path in (os.path.join(d, "docs", "kernel_api.md"), os.path.join(d, "..", "kernel_api", "README.md")):
            if os.path.isfile(path):
                return os.path.abspath(path)
    raise FileNotFoundError(f"the kernel API reference is not installed in pyasc_sim ({', '.join(_package_dirs())}); "
                            "reinstall pyasc with 'pip install .'")


def library_path() -> str:
    """The path of the simulated ACL runtime library (FileNotFoundError if it was not built)."""
    for d in _package_dirs():
        path = os.path.join(d, "lib", LIBRARY_NAME)
        if os.path.isfile(path):
            return path
    raise FileNotFoundError(
        f"{LIBRARY_NAME} is not installed in pyasc_sim ({', '.join(_package_dirs())}); "
        "reinstall pyasc with 'pip install .' (or 'pip install -e .' after C++ changes)"
    )


def get_include() -> str:
    """The directory holding ``kernel_operator.h`` (the Ascend C kernel API for the CPU) and
    ``pyasc_sim/kernel_abi.h`` / ``pyasc/acl_abi.h``: pass it as ``-I`` when compiling kernels."""
    fallback = None
    for d in _package_dirs():
        inc = os.path.join(d, "include")
        if os.path.isfile(os.path.join(inc, "kernel_operator.h")):
            return inc
        if fallback is None and os.path.isfile(os.path.join(inc, "pyasc_sim", "kernel_abi.h")):
            fallback = inc
    if fallback is not None:
        return fallback
    here = os.path.dirname(os.path.abspath(__file__))  # a source checkout
    inc = os.path.join(os.path.dirname(here), "include")
    if os.path.isfile(os.path.join(inc, "pyasc_sim", "kernel_abi.h")):
        return inc
    raise FileNotFoundError("pyasc_sim's headers are not installed; reinstall pyasc with 'pip install .'")
