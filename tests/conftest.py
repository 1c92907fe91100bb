"""Shared test helpers.

``run_cases`` / ``run_code`` run hostile input in a separate interpreter, so that a crash of the
compiled core (a segmentation fault, an AddressSanitizer report) fails one test with the input
that caused it instead of killing the whole run.  The child imports the same ``mahjong_core``
build as the test run (the directory of the imported package goes first on its ``PYTHONPATH``);
``tools/test_checked_build.sh`` runs the hostile suite against a build with Cython's bounds
checks and AddressSanitizer on.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any, Iterable

import pytest

import mahjong_core

TESTS_DIR = Path(__file__).resolve().parent
PACKAGE_PARENT = str(Path(mahjong_core.__file__).resolve().parent.parent)
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))  # tests import their data modules (fan_cases.py ...) by name


@pytest.fixture
def fast_switching():
    """Make the interpreter switch threads every microsecond (default 5 ms) for the test, so that
    threads are interrupted inside every read-modify-write and call sequence."""
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        yield
    finally:
        sys.setswitchinterval(old)


def _child_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (PACKAGE_PARENT, str(TESTS_DIR), env.get("PYTHONPATH")) if p)
    env.setdefault("PYTHONHASHSEED", "0")
    return env


def _crash_report(proc: subprocess.CompletedProcess, what: str) -> str:
    sig = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit status {proc.returncode}"
    return f"{what} crashed the interpreter ({sig}); stderr tail:\n{proc.stderr[-3000:]}"


def _crashed(proc: subprocess.CompletedProcess) -> bool:
    return proc.returncode != 0 or "AddressSanitizer" in proc.stderr or "Fatal Python error" in proc.stderr


def run_code(code: str, *, timeout: float = 300, args: Iterable[str] = ()) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter (same build); returns the finished process.
    The caller asserts on ``returncode`` (negative: killed by a signal), stdout and stderr."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True,
                          text=True, timeout=timeout, env=_child_env())


def run_cases(target: str, cases: "list[Any]", *, timeout: float = 600) -> list[dict[str, Any]]:
    """Call ``target`` (``"module:function"``, a module in tests/) on every case in one child
    interpreter; return one outcome dict per case (see ``_isolated_runner``).  A crash fails the
    test, naming the case that was running; so does an ``unexpected`` (non-MahjongError)
    exception, which is reported with its case and traceback."""
    with tempfile.TemporaryDirectory() as tmp:
        cases_path = os.path.join(tmp, "cases.jsonl")
        results_path = os.path.join(tmp, "results.json")
        progress_path = os.path.join(tmp, "progress")
        with open(cases_path, "w", encoding="utf-8") as f:
            for c in cases:
                f.write(json.dumps(c, ensure_ascii=False) + "\n")
        proc = subprocess.run(
            [sys.executable, str(TESTS_DIR / "_isolated_runner.py"), target, cases_path, results_path, progress_path],
            capture_output=True, text=True, timeout=timeout, env=_child_env())
        if _crashed(proc) or not os.path.exists(results_path):
            i = None
            if os.path.exists(progress_path):
                text = open(progress_path).read().strip()
                i = int(text) if text else None
            case = json.dumps(cases[i], ensure_ascii=False)[:2000] if i is not None else "?"
            pytest.fail(_crash_report(proc, f"case {i} of {target}") + f"\ncase: {case}")
        with open(results_path, encoding="utf-8") as f:
            out = json.load(f)
    bad = [(i, r) for i, r in enumerate(out) if r["outcome"] == "unexpected"]
    if bad:
        i, r = bad[0]
        pytest.fail(f"{len(bad)} of {len(out)} cases of {target} raised a non-MahjongError; first, case {i}: "
                    f"{r['error']}: {r['message']}\ncase: {json.dumps(cases[i], ensure_ascii=False)[:2000]}\n"
                    f"{r['traceback']}")
    return out


def assert_no_crash(proc: subprocess.CompletedProcess, what: str = "the child") -> None:
    """Fail (with the stderr tail) when ``proc`` died of a signal or reported a memory error."""
    if proc.returncode < 0 or "AddressSanitizer" in proc.stderr or "Fatal Python error" in proc.stderr:
        pytest.fail(_crash_report(proc, what))
