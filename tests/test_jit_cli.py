"""``pyasc compile kernel.py`` writes the Ascend C of the file's @pyasc.jit kernels, which compiles
and runs as a C++ kernel (pyasc.Kernel) with the same result."""

from __future__ import annotations

import os

import numpy as np
import pytest

import pyasc
from pyasc_core.cli import main

EXAMPLES = os.path.join(os.path.dirname(__file__), os.pardir, "examples")


def test_pyasc_compile_writes_the_generated_source(tmp_path, capsys):
    src = os.path.join(EXAMPLES, "02_add_flags.py")
    assert main(["compile", src, "-o", str(tmp_path), "--dtype", "float16"]) == 0
    out = tmp_path / "02_add_flags_add_flags.cpp"
    assert str(out) in capsys.readouterr().out
    text = out.read_text()
    assert 'extern "C" __global__ __aicore__ void add_flags(GM_ADDR x, GM_ADDR y, GM_ADDR z' in text
    assert "AscendC::GlobalTensor<half> x_gm;" in text and f'#line 9 "{os.path.abspath(src)}"' in text
    k = pyasc.Kernel(str(out), "add_flags")  # the written file is an ordinary Ascend C kernel
    n = 2048
    x = pyasc.tensor(np.arange(n, dtype=np.float16) % 17)
    z = pyasc.empty(n, dtype="float16")
    k[2](x, x, z, n // 2, 256)
    np.testing.assert_array_equal(z.numpy(), 2 * (np.arange(n, dtype=np.float16) % 17))


def test_pyasc_compile_errors(tmp_path, capsys):
    src = os.path.join(EXAMPLES, "02_add_flags.py")
    assert main(["compile", src, "--kernel", "nope", "-o", str(tmp_path)]) == 2
    assert "has no @pyasc.jit kernel 'nope'; its kernels are add_flags" in capsys.readouterr().err
    assert main(["compile", src, "--dtype", "complex", "-o", str(tmp_path)]) == 2
    assert "--dtype 'complex'" in capsys.readouterr().err


def test_pyasc_compile_defines_but_does_not_launch(tmp_path, capsys):
    src = tmp_path / "k.py"
    src.write_text("import pyasc\nimport pyasc.lang as asc\n\n\n@pyasc.jit\n"
                   "def k(x: asc.GlobalAddress, n: int):\n    g = asc.GlobalTensor()\n    g.set_global_buffer(x, n)\n\n\n"
                   "k[1](pyasc.empty(8), 8)\nopen('/nonexistent/launch-was-run')\n")
    assert main(["compile", str(src), "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert 'extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)' in out
    assert f'#line 8 "{src}"' in out
