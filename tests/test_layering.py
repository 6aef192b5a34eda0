"""The layering contract of pyasc_core (pyproject.toml [tool.importlinter]): the core's modules
import one way and never import a backend package; a new upward import makes it fail."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("importlinter")

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = REPO / "pyproject.toml"
CORE = REPO / "pyasc_core"


def _lint(config: Path, cwd: Path) -> subprocess.CompletedProcess:
    code = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"
    env = dict(os.environ, PYTHONPATH=str(cwd))
    return subprocess.run([sys.executable, "-c", code, str(config), "--no-cache"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def _contract_section() -> str:
    text = PYPROJECT.read_text()
    start = text.index("\n[tool.importlinter]\n") + 1
    end = text.index("\n[tool.", start + 1)
    return text[start:end]


def test_the_core_keeps_its_layers_and_imports_no_backend():
    out = _lint(PYPROJECT, REPO)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "2 kept, 0 broken" in out.stdout


@pytest.fixture
def core_copy(tmp_path: Path) -> tuple[Path, Path]:
    """pyasc_core copied under another name (so the installed package cannot stand in for it),
    with the contracts rewritten to that name."""
    shutil.copytree(CORE, tmp_path / "core_copy", ignore=shutil.ignore_patterns("__pycache__", "*.so", "native"))
    config = tmp_path / "pyproject.toml"
    config.write_text(re.sub(r"\bpyasc_core\b", "core_copy", _contract_section()))
    return tmp_path, config


def test_the_contract_holds_on_an_untouched_copy(core_copy):
    root, config = core_copy
    out = _lint(config, root)
    assert out.returncode == 0, out.stdout + out.stderr


def test_a_new_upward_import_breaks_the_contract(core_copy):
    # a function-local import counts as much as a module-level one
    root, config = core_copy
    with open(root / "core_copy" / "schema.py", "a") as f:
        f.write("\n\ndef _upward():\n    from .tensor import Tensor\n\n    return Tensor\n")
    out = _lint(config, root)
    assert out.returncode != 0
    assert "BROKEN" in out.stdout
    assert "core_copy.schema -> core_copy.tensor" in out.stdout, out.stdout


def test_importing_a_backend_from_the_core_breaks_the_contract(core_copy):
    root, config = core_copy
    with open(root / "core_copy" / "registry.py", "a") as f:
        f.write("\n\ndef _backend():\n    import pyasc_sim\n\n    return pyasc_sim\n")
    out = _lint(config, root)
    assert out.returncode != 0
    assert "never imports a backend package BROKEN" in out.stdout.replace("\n", " "), out.stdout
    assert "core_copy.registry -> pyasc_sim" in out.stdout, out.stdout
