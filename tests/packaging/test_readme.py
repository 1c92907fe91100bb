"""The README as a user meets it (issue 25, items 18 and 20): its snippets and commands run as written.

* Every fenced ``python`` block runs, in README order, in one namespace (a later block uses the
  ``mj`` and ``r`` of an earlier one), in an empty directory.
* Every block marked ``<!-- typed -->`` (the line before its fence) passes ``mypy --strict``; they
  are checked together, in README order, as one module.  Calls that must *not* pass (a misspelt
  keyword, a number given as a hand or a tile) fail it: the public signatures are real ones.
* Every command line of a fenced ``bash`` block either runs here as written (``CHEAP``: quick and
  needing nothing but the package and the test extra) or is listed in ``NOT_IN_CI`` with the reason
  it cannot run in CI; a line in neither list fails the test, so a new command gets a decision.
  (``pycon`` blocks are doctests of their sections' own test files.)
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

import mahjong_core

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PYPROJECT = ROOT / "pyproject.toml"
TYPED = "<!-- typed -->"
"""The marker of a typed snippet: the line right before its ```python fence."""

PACKAGE_PARENT = Path(mahjong_core.__file__).resolve().parents[1]


def blocks(lang: str) -> list[tuple[int, str, bool]]:
    """``(line number, text, typed)`` of every fenced block of ``lang`` in the README."""
    lines = README.read_text(encoding="utf-8").splitlines()
    out = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == f"```{lang}":
            start = i
            body = []
            i += 1
            while lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            typed = start > 0 and lines[start - 1].strip() == TYPED
            out.append((start + 1, "\n".join(body) + "\n", typed))
        i += 1
    return out


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PACKAGE_PARENT), env.get("PYTHONPATH")) if p)
    return env


# ---------------------------------------------------------------------------------- python snippets
def test_every_python_block_runs(tmp_path: Path) -> None:
    code = blocks("python")
    assert len(code) >= 6
    source = "".join(f"# README.md line {n}\n{text}" for n, text, _ in code)
    proc = subprocess.run([sys.executable, "-c", source], cwd=tmp_path, env=_env(), capture_output=True,
                          text=True, timeout=600, check=False)
    assert proc.returncode == 0, f"the README's python blocks fail:\n{proc.stderr[-3000:]}"


# ---------------------------------------------------------------------------------- typed snippets
NOT_TYPED = {
    # (a line that must fail mypy --strict, the error mypy must name)
    "misspelt_keyword.py": ('mj.Round(rulset="public", seed=1)', "rulset"),
    "number_as_hand.py": ("mj.is_win(123)", "is_win"),
    "numbers_to_score.py": ("mj.score(12345, 4.5)", "score"),
    "longcard_round_is_not_mahjong.py": ('r: mj.Round = mj.Round("changpai-ydr", seed=1)', "LongcardRound"),
}


def _mypy_config(tmp_path: Path) -> Path:
    """The project's mypy configuration without its targets and path: the snippets are the targets,
    the package is the one this session imports (built in place or installed)."""
    config = PYPROJECT.read_text(encoding="utf-8")
    config = config.replace('mypy_path = "python"\n', "").replace('packages = ["mahjong_core"]\n', "")
    path = tmp_path / "pyproject.toml"
    path.write_text(config, encoding="utf-8")
    return path


def test_typed_snippets_pass_mypy_strict_and_wrong_calls_fail(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install '.[test]' installs it)")
    typed = [(n, text) for n, text, t in blocks("python") if t]
    assert len(typed) >= 5, "the README marks its typed snippets with <!-- typed -->"
    ok = tmp_path / "readme_snippets.py"
    ok.write_text("".join(f"# README.md line {n}\n{text}" for n, text in typed), encoding="utf-8")
    files = [ok]
    for name, (line, _) in NOT_TYPED.items():
        (tmp_path / name).write_text(f"import mahjong_core as mj\n\n{line}\n", encoding="utf-8")
        files.append(tmp_path / name)
    env = dict(os.environ)
    site = {Path(sysconfig.get_paths()[k]).resolve() for k in ("purelib", "platlib")}
    if PACKAGE_PARENT not in site:   # built in place: mypy reads the package from its source tree
        env["MYPYPATH"] = str(PACKAGE_PARENT)
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file", str(_mypy_config(tmp_path)),
                           "--cache-dir", str(tmp_path / "cache"), "--no-error-summary", "--show-error-codes",
                           *map(str, files)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900,
                          check=False)
    errors = [ln for ln in proc.stdout.splitlines() if ": error:" in ln]
    assert not [e for e in errors if e.startswith(ok.name)], proc.stdout
    assert not [e for e in errors if not any(e.startswith(f) for f in (ok.name, *NOT_TYPED))], proc.stdout
    for name, (line, word) in NOT_TYPED.items():
        mine = [e for e in errors if e.startswith(f"{name}:3:")]
        assert mine and any(word in e for e in mine), (name, line, proc.stdout)


# ---------------------------------------------------------------------------------- commands
CHEAP = [
    "mahjong-core simulate --ruleset two-player --rounds 10000 --out results.json",
    'mahjong-core hand "19m19p19sESWNCFP" --ruleset public --json',
    'mahjong-core score "PPP999m5m" --win 5m --melds "pon CCC" "pon FFF" --self-drawn --json',
    'mahjong-core advise "1234567m1199pEEC" --ruleset public',
    "mahjong-core match --ruleset two-player --room beginner --rounds 8 --bots greedy,random",
    "mahjong-core simulate --ruleset changpai-ydr -n 10000 --bots greedy,random,random --out s.json --csv s.csv"
    " --plot s.png",
    "mahjong-core match --ruleset changpai-ydr --rounds 8 --bots greedy,random,random --seed 1",
    "python bench/bench_hand.py --quick",
]
"""README command lines this test runs as written (with ``mahjong-core`` the installed command or,
in a source tree, ``python -m mahjong_core``), from inline code spans and fenced blocks alike."""

NOT_IN_CI = {
    "pip install mahjong-core": "installs from the package index (CI tests the build of this tree)",
    'pip install "mahjong-core[plot]"': "installs from the package index",
    'pip install "mahjong-core[distributed]"': "installs from the package index",
    'pip install "mahjong-core[server]"': "installs from the package index",
    'pip install "mahjong-core[rl]"': "installs from the package index",
    'python -m pip install ".[plot]" && mahjong-core simulate --ruleset two-player --rounds 50000 --bots '
    "greedy,greedy --workers 2 --out results.json --plot results.png":
        "the main job: a fresh install with the compile and minutes of simulation (README: Set-up commands)",
    'python -m pip install ".[test]" && python -m pytest -n 2 --dist worksteal':
        "the test command itself: .ci/run runs it (this test is part of it)",
    "mahjong-core serve --db mahjong.sqlite3": "serves until Ctrl-C: tests/server/test_server_cli.py runs it",
    "python -m venv .venv && . .venv/bin/activate": "makes a development environment (README: Development)",
    'python -m pip install --upgrade "pip>=25.1"': "changes the development environment's pip",
    "python -m pip install --group dev": "installs the development environment (tests/packaging/test_packaging.py "
                                         "checks the group covers what the README uses)",
    "bash tools/build_inplace.sh": "compiles the core in place (minutes; tools/test_checked_build.sh builds a variant)",
    "PYTHONPATH=python python -m pytest -n 2": "the test suite itself, run from a source tree",
    "python bench/bench_hand.py": "a benchmark run of minutes (its --quick form runs here)",
}
"""README command lines that cannot run in CI, each with the reason."""


def _command_lines() -> list[str]:
    """Every command of the README's fenced bash blocks, comments and continuation removed."""
    out = []
    for _, text, _ in blocks("bash"):
        for line in text.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line:
                out.append(line)
    return out


def test_every_readme_command_is_run_here_or_excused() -> None:
    lines = _command_lines()
    readme = README.read_text(encoding="utf-8")
    undecided = [c for c in lines if c not in NOT_IN_CI and c not in CHEAP]
    assert not undecided, f"README commands that neither run in this test nor say why they cannot: {undecided}"
    stale = [c for c in [*CHEAP, *NOT_IN_CI] if c not in lines and c.replace(" --quick", "") not in readme
             and c not in readme]
    assert not stale, f"commands listed here that the README no longer has: {stale}"


def _argv(line: str) -> list[str]:
    argv = shlex.split(line)
    if argv[0] == "mahjong-core":
        return [sys.executable, "-m", "mahjong_core", *argv[1:]]
    if argv[0] == "python":
        return [sys.executable, *argv[1:]]
    raise AssertionError(line)


@pytest.mark.parametrize("line", CHEAP)
def test_readme_command_runs_as_written(line: str, tmp_path: Path) -> None:
    if "--plot" in line:
        pytest.importorskip("matplotlib", reason="--plot needs the plot extra (the test extra installs it)")
    argv = _argv(line)
    cwd = ROOT if argv[1].startswith("bench/") else tmp_path
    proc = subprocess.run(argv, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0, f"{line}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    for out in re.findall(r"--(?:out|csv|plot) (\S+)", line):
        assert (tmp_path / out).stat().st_size > 0, out
