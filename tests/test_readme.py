"""The README's Python examples run as written (on the numpy backend)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_readme_has_python_examples():
    assert len(_blocks()) >= 5


def test_readme_examples_run(capsys):
    """As a user runs them: on the default backend (the simulator when it is installed)."""
    import pyasc
    from pyasc_core import selection

    selection.reset_for_tests()  # the default a fresh process gets
    namespace: dict = {}
    for block in _blocks():
        if "@pytest.mark" in block:
            continue  # a test for an op pack's own suite, exercised in test_pytest_plugin.py
        lines = [ln for ln in block.splitlines() if "DtypeError:" not in ln]
        exec(compile("\n".join(lines), str(README), "exec"), namespace)  # noqa: S102
    out = capsys.readouterr().out
    assert "tensor(" in out
    assert "device='sim:0'" in out  # the tour ran on the simulator
    custom = namespace["my_custom_op"](pyasc.tensor([1.0, 2.0, 3.0]), pyasc.tensor([4.0, 5.0, 6.0]))
    assert custom.numpy().tolist() == [10.0, 14.0, 18.0]
    assert pyasc.ops.mylib.scale(pyasc.tensor([1.0], device="numpy"), s=3.0).numpy().tolist() == [3.0]


def test_readme_dtype_error_example_is_true():
    import pyasc

    with pytest.raises(pyasc.DtypeError, match="pyasc::exp argument 'x' has dtype int64"):
        pyasc.exp(pyasc.tensor([1, 2], device="numpy"))
