"""The README as a user meets it (issue 25, items 18 and 20): its snippets and commands run as written.

* Every fenced ``python`` block runs, in README order, in one namespace (a later block uses the
  ``mj`` and ``r`` of an earlier one), in an empty directory.
* Every block marked ``<!-- typed -->`` (the line before its fence) passes ``mypy --strict``, each
  as its own module after a short prelude (``PRELUDE``: ``mj``, a round ``r``, a ``seat``).  Calls
  that must *not* pass (a misspelt keyword, a number given as a hand or a tile, a long-card round
  taken for a mahjong one) fail it: the public signatures are real ones.
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
    "misspelt_keyword.py": ('mj.Round(rulset="public", seed=1)', 'No overload variant of "Round"'),
    "number_as_hand.py": ("mj.is_win(123)", "is_win"),
    "numbers_to_score.py": ("mj.score(12345, 4.5)", "score"),
    # another family's round is typed as the shared contract's Round (game/contract.py), not mahjong's
    "longcard_round_is_not_mahjong.py": ('r: mj.Round = mj.Round("changpai-ydr", seed=1)', "contract.Round"),
}


def _mypy_config(tmp_path: Path) -> Path:
    """The project's mypy configuration without its targets and path: the snippets are the targets,
    the package is the one this session imports (built in place or installed)."""
    config = PYPROJECT.read_text(encoding="utf-8")
    config = config.replace('mypy_path = "python"\n', "").replace('packages = ["mahjong_core"]\n', "")
    path = tmp_path / "pyproject.toml"
    path.write_text(config, encoding="utf-8")
    return path


PRELUDE = """import mahjong_core as mj

r = mj.Round(ruleset="two-player", seed=1)
seat = 0
"""
"""What a typed snippet may use without defining it: ``mj`` and the round ``r`` and ``seat`` of the
README's game flow.  Each snippet is checked as its own module after these lines, as a reader who
pastes that one snippet into his program would have it."""


def test_typed_snippets_pass_mypy_strict_and_wrong_calls_fail(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install '.[test]' installs it)")
    typed = [(n, text) for n, text, t in blocks("python") if t]
    assert len(typed) >= 5, "the README marks its typed snippets with <!-- typed -->"
    files = []
    for n, text in typed:
        path = tmp_path / f"readme_line_{n}.py"
        path.write_text(PRELUDE + text, encoding="utf-8")
        files.append(path)
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
    assert not [e for e in errors if e.startswith("readme_line_")], (
        f"README snippets (readme_line_N.py: the snippet at README.md line N, after {len(PRELUDE.splitlines())} "
        f"lines of prelude) fail mypy --strict:\n{proc.stdout}")
    assert not [e for e in errors if not e.startswith(("readme_line_", *NOT_TYPED))], proc.stdout
    for name, (line, word) in NOT_TYPED.items():
        mine = [e for e in errors if e.startswith(f"{name}:3:")]
        assert mine and any(word in e for e in mine), (name, line, proc.stdout)


# ---------------------------------------------------------------------------------- commands
CHEAP = [
    # fenced blocks
    "mahjong-core simulate --ruleset two-player --rounds 50000 --bots greedy,greedy --workers 2 --out results.json "
    "--plot results.png",
    # inline, in the text
    "mahjong-core simulate --ruleset two-player --rounds 10000 --out results.json",
    "mahjong-core simulate --ruleset changpai-ydr -n 10000 --bots greedy,random,random --out s.json --csv s.csv "
    "--plot s.png",
    'mahjong-core score "46 46 13 16 34 25 14 14 55 55 55" --win 36 --melds "peng 11×3" "sha 44×4" "sha 66×4" '
    '--ruleset changpai-ydr --jiang "36 25"',
    "mahjong-core match --ruleset two-player --room beginner --rounds 8 --bots greedy,random",
    'mahjong-core advise "46 46 13 16 34 25 14 14 55 55 55 22" --melds "peng 11×3" "sha 44×4" "sha 66×4" '
    '--jiang "36 25" --ruleset changpai-ydr',
]
"""README commands this test runs as written (``mahjong-core`` as ``python -m mahjong_core``, which
is the same command line, so that a source tree without the console script works too)."""

_INSTALLS = "installs from the package index or builds this tree (CI installs it once, .ci/run)"
_BENCH = ("a benchmark of minutes (python bench/bench_hand.py --quick, and the benchmark suite's smoke tests, "
          "run here)")
NOT_IN_CI = {
    "pip install mahjong-core": _INSTALLS,
    'pip install "mahjong-core[plot]"': _INSTALLS,
    'pip install "mahjong-core[distributed]"': _INSTALLS,
    'pip install "mahjong-core[server]"': _INSTALLS,
    'pip install "mahjong-core[rl]"': _INSTALLS,
    'python -m pip install ".[plot]"': _INSTALLS,
    'python -m pip install ".[test]"': _INSTALLS,
    "python -m pytest -n 2 --dist worksteal": "the test suite itself (.ci/run runs it; this test is part of it)",
    "mahjong-core serve --db mahjong.sqlite3 --init": "serves until Ctrl-C: tests/server/test_server_cli.py runs "
                                                     "it as serve --help's example",
    "mahjong-core serve --db mahjong.sqlite3": "serves until Ctrl-C: tests/server/test_server_durability.py restarts "
                                              "serve without --init on the database a first start made",
    "mahjong-core serve": "serves until Ctrl-C (tests/server/test_server_cli.py)",
    "mahjong-core play": "interactive (tests/cli runs play --help's examples, quitting at the first prompt)",
    "python -m venv .venv": "makes a development environment",
    ". .venv/bin/activate": "enters the development environment",
    'python -m pip install --upgrade "pip>=25.1"': "changes the development environment's pip",
    "python -m pip install --group dev": "installs the development environment (tests/packaging/test_packaging.py "
                                         "checks the group covers what the README uses)",
    "bash tools/build_inplace.sh": "compiles the core in place (minutes)",
    "python tools/import_graph.py": "tests/packaging/test_family_boundaries.py makes the same checks with this "
                                    "tool's functions",
    "PYTHONPATH=python python -m pytest -n 2": "the test suite itself, from a source tree",
    "PYTHONPATH=python python bench/bench_hand.py": _BENCH,
    "python bench/bench_hand.py": _BENCH,
    "python bench/bench_api.py": _BENCH,
    "python bench/bench_fan_shanten.py": _BENCH,
    "python bench/bench_server.py": _BENCH,
    "python bench/bench_server_load.py --tables 100 --seconds 30": _BENCH,
    "python bench/bench_server_load.py --tables 100 --seconds 20 --tree T": _BENCH,
    "python bench/bench_table_path.py": _BENCH,
    "python bench/bench_rl.py": _BENCH,
    "python bench/bench_rl.py --rulesets changpai-ydr": _BENCH,
    "python bench/bench_longcard.py": _BENCH,
    "python bench/bench_memory.py": _BENCH,
    "python bench/bench_game.py": _BENCH,
    "python bench/bench_simulation.py": _BENCH,
    "python -m pytest bench/": _BENCH,
    "PYTHONPATH=python python tools/lc_property_run.py --hands 10000": "10,000 hands of play (minutes; the suite "
                                                                        "plays a few dozen: tests/longcard)",
    "python -m mypy": "tests/packaging/test_typing.py runs it",
    "python -m mypy.stubtest mahjong_core --mypy-config-file pyproject.toml --allowlist "
    "tests/packaging/stubtest_allowlist.txt": "tests/packaging/test_typing.py runs it",
    "python -m build": "builds the sdist and a wheel (minutes; tests/packaging/test_packaging.py builds the sdist)",
    "bash tools/test_checked_build.sh": ".ci/run runs it after the test command",
    "PYTHONPATH=python python tools/mcr_parity.py --hands 1000000":
        "a million hands against PyMahjongGB take minutes; tests/mcr/test_mcr_parity.py runs the script on 4 000",
    ".ci/run": "CI itself",
    "mahjong-core": "the program's name, not a command",
    "python -m mahjong_core": "the program's name, not a command",
    "mahjong-core botzone-bot --bot greedy": "reads Botzone's requests on standard input (the section's Python "
                                             "example runs it; tests/botzone run it under the adapter)",
}
"""README commands that cannot run in CI, each with the reason."""


def readme_commands() -> list[str]:
    """Every command of the README: each line of a fenced ``bash`` block (comments removed, a
    ``&&`` chain split into its commands) and each inline code span that is a whole command line
    (a span with ``[...]``, ``…`` or ``...`` is a synopsis, not a command)."""
    out = []
    for _, text, _ in blocks("bash"):
        for line in text.splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            out += [part.strip() for part in line.split("&&") if part.strip()]
    prose = re.sub(r"```.*?```", "", README.read_text(encoding="utf-8"), flags=re.S)
    for span in re.findall(r"`([^`]+)`", prose):
        span = " ".join(span.split())
        if re.match(r"(mahjong-core|python |PYTHONPATH=\S+ |pip |bash |\.ci/)", span) and not re.search(
                r"\[|…|\.\.\.|: error", span) and span not in ("pip install",):
            out.append(span)
    return list(dict.fromkeys(out))


def test_every_readme_command_is_run_here_or_excused() -> None:
    commands = readme_commands()
    assert len(commands) > 20
    undecided = [c for c in commands if c not in NOT_IN_CI and c not in CHEAP]
    assert not undecided, f"README commands that neither run in this test nor say why they cannot: {undecided}"
    stale = [c for c in [*CHEAP, *NOT_IN_CI] if c not in commands]
    assert not stale, f"commands listed here that the README no longer has: {stale}"


def _argv(line: str) -> list[str]:
    argv = shlex.split(line)
    assert argv[0] == "mahjong-core", line
    return [sys.executable, "-m", "mahjong_core", *argv[1:]]


@pytest.mark.parametrize("line", CHEAP)
def test_readme_command_runs_as_written(line: str, tmp_path: Path) -> None:
    if "--plot" in line:
        pytest.importorskip("matplotlib", reason="--plot needs the plot extra (the test extra installs it)")
    proc = subprocess.run(_argv(line), cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=900,
                          check=False)
    assert proc.returncode == 0, f"{line}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    assert proc.stdout.strip()
    for out in re.findall(r"--(?:out|csv|plot) (\S+)", line):
        assert (tmp_path / out).stat().st_size > 0, out


def test_the_development_benchmark_runs_from_the_tree(tmp_path: Path) -> None:
    """The Development block's ``python bench/bench_hand.py`` failed as written (no package on the
    path in a tree built in place): it is ``PYTHONPATH=python python bench/bench_hand.py``; its
    ``--quick`` run, against the package this session imports."""
    assert "PYTHONPATH=python python bench/bench_hand.py" in readme_commands()
    proc = subprocess.run([sys.executable, "bench/bench_hand.py", "--quick"], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0 and "ratio" in proc.stdout, proc.stderr[-2000:]
