"""Issue 10 point 7: every sanitizer check is documented with its severity. The check names the kernel
API and the simulated runtime raise (``fail("name", ...)`` errors, ``warn`` / ``defer_warning`` warnings,
the runtime's launch checks) are read from the sources, and each must have a row of the kernel API
README's Sanitizer table with the same severity: a new check without its row fails here, naming it.
(Round 15 audit: eight error checks had no row.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SIM = ROOT / "backends" / "sim"
README = SIM / "kernel_api" / "README.md"

_ERROR = re.compile(r"\bfail\w*\(\s*\"([a-z0-9]+(?:-[a-z0-9]+)+)\"|check '([a-z0-9]+(?:-[a-z0-9]+)+)' failed")
_WARNING = re.compile(r"\b(?:warn|defer_warning)\w*\(\s*\"([a-z0-9]+(?:-[a-z0-9]+)+)\"|warning '([a-z0-9-]+)'")


def _sources() -> list[Path]:
    return sorted((SIM / "kernel_api" / "include").rglob("*.h")) + sorted((SIM / "runtime").glob("*.cpp"))


def raised_checks() -> dict[str, str]:
    """check name -> "error" / "warning" as the sources raise it (a check raised as a warning is a
    warning: PYASC_SIM_STRICT turns it into a failure in the same code)."""
    found: dict[str, str] = {}
    for path in _sources():
        text = path.read_text(encoding="utf-8", errors="replace")
        for m in _ERROR.finditer(text):
            found.setdefault(m.group(1) or m.group(2), "error")
        for m in _WARNING.finditer(text):
            found[m.group(1) or m.group(2)] = "warning"
    return found


def documented_checks() -> dict[str, str]:
    """check name -> severity from the rows of the README's Sanitizer table (a row may name several)."""
    text = README.read_text(encoding="utf-8")
    section = text[text.index("\n## Sanitizer"):]
    section = section[:section.index("\n## ", 1)]
    out: dict[str, str] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if len(cells) < 4 or not cells[1].startswith("`"):
            continue
        severity = cells[2].strip("*")
        for name in re.findall(r"`([a-z0-9]+(?:-[a-z0-9]+)+)`", cells[1]):
            out[name] = severity
    return out


def test_the_scan_finds_the_known_checks_of_both_severities():
    raised = raised_checks()
    assert raised["gm-out-of-tensor"] == raised["pipe-race"] == raised["gm-cross-core-race"] == "error"
    assert raised["queue-leak"] == raised["gm-cache-line-share"] == raised["setvalue-not-atomic"] == "warning"
    assert len(raised) >= 40


def test_every_raised_check_has_a_row_with_its_severity():
    raised, documented = raised_checks(), documented_checks()
    missing = sorted(n for n in raised if n not in documented)
    assert not missing, f"checks with no row in {README}'s Sanitizer table: {missing}"
    wrong = {n: (documented[n], s) for n, s in raised.items() if documented[n] != s}
    assert not wrong, f"documented severity != raised severity (README, code): {wrong}"
