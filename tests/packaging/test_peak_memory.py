"""``tools/peak_memory.py`` (issue 25, item 19), which ``.ci/run`` runs the README's test command under:
it adds up the memory of a command's whole process tree (the xdist workers are children of pytest,
the hostile tests' interpreters grandchildren) and fails above its limit.  Shown here on commands
whose memory is known: one grandchild holding 300 MB, two children at 120 MB at once (each under
a 200 MB limit, their sum above it), and a small command under the limit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[2] / "tools" / "peak_memory.py"
HOLD = "import time; b = b'x' * ({mb} * 2**20); time.sleep({seconds})"   # b'x' * n writes every page

if not Path("/proc/self/status").exists():   # pragma: no cover - the CI and development machines are Linux
    pytest.skip("tools/peak_memory.py reads Linux's /proc", allow_module_level=True)


def _run(limit_mb: float, code: str, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], dict]:
    report = tmp_path / "peak.json"
    proc = subprocess.run([sys.executable, str(TOOL), "--limit-mb", str(limit_mb), "--interval", "0.05",
                           "--report", str(report), "--", sys.executable, "-c", code],
                          capture_output=True, text=True, timeout=120, check=False)
    return proc, json.loads(report.read_text(encoding="utf-8"))


def test_a_grandchild_above_the_limit_fails_the_run(tmp_path):
    code = f"import subprocess, sys; subprocess.run([sys.executable, '-c', {HOLD.format(mb=300, seconds=1.5)!r}])"
    proc, report = _run(150, code, tmp_path)
    assert proc.returncode == 3, proc.stderr
    assert report["peak_bytes"] >= 300 * 2**20 and report["command_status"] == 0
    assert "above the limit of 150 MB" in proc.stderr
    assert proc.stderr.splitlines()[-1].startswith("peak memory of the process tree: ")


def test_children_are_added_up_not_the_largest_one(tmp_path):
    child = HOLD.format(mb=120, seconds=1.5)
    code = ("import subprocess, sys\n"
            f"ps = [subprocess.Popen([sys.executable, '-c', {child!r}]) for _ in range(2)]\n"
            "[p.wait() for p in ps]")
    proc, report = _run(200, code, tmp_path)    # each child holds 120 MB, under 200; both together do not
    assert proc.returncode == 3, proc.stderr
    assert report["peak_bytes"] >= 240 * 2**20
    assert sum(1 for p in report["processes"] if p[2] >= 120 * 2**20) == 2


def test_a_small_command_passes_and_a_failing_one_keeps_its_status(tmp_path):
    proc, report = _run(2048, HOLD.format(mb=20, seconds=0.5), tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert 20 * 2**20 <= report["peak_bytes"] < 2048 * 2**20 and report["samples"] >= 3
    proc, report = _run(2048, "raise SystemExit(7)", tmp_path)
    assert proc.returncode == 7 and report["command_status"] == 7


def test_ci_runs_the_readme_test_command_under_it():
    ci = (Path(__file__).resolve().parents[2] / ".ci" / "run").read_text(encoding="utf-8")
    assert 'tools/peak_memory.py --limit-mb 2560 -- bash -c "$cmd"' in ci
