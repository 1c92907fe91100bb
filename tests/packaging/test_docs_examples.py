"""Every example of the documentation runs as written (issue 25, items 18 and 20; issue 31, item 1).

The documentation is README.md, CONTRIBUTING.md, CHANGELOG.md and every page under docs/ (the
site's sources; ``PAGES``).  In each:

* Every fenced ``python`` block runs, the blocks of one page in page order and in one namespace (a
  later block uses the ``mj`` and ``r`` of an earlier one), in an empty directory: one test per
  page, so that pages run in parallel under xdist.
* Every fenced ``pycon`` block is a doctest, the blocks of one page sharing one namespace: one
  test per page (``MIN_DOCTESTS``: the fewest examples of some pages).
* Every block marked ``<!-- typed -->`` (the line before its fence) passes ``mypy --strict``, each
  as its own module after a short prelude (``PRELUDE``: ``mj``, a round ``r``, a ``seat``).  Calls
  that must *not* pass (a misspelt keyword, a number given as a hand or a tile, a long-card round
  taken for a mahjong one) fail it: the public signatures are real ones.
* Every command line of a fenced ``bash`` block (and each ``$`` line of a ``console`` block) either
  runs here as written (``CHEAP``: quick and needing nothing but the package and the test extra)
  or is listed in ``NOT_IN_CI`` with the reason it cannot run in CI; a line in neither list fails
  the test, so a new command gets a decision.
* A block that must not run is marked ``<!-- not-run: the reason -->`` on the line before its
  fence, the same reason written in the page where a reader sees it
  (``test_not_run_marks_give_a_visible_reason``).

Runtime: each page's examples are meant to take a few seconds (a simulation in an example plays
a few thousand rounds, not a million); the pages run as separate tests, so ``-n 2`` spreads them.
"""

from __future__ import annotations

import doctest
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
DOCS = ROOT / "docs"
PYPROJECT = ROOT / "pyproject.toml"
TYPED = "<!-- typed -->"
"""The marker of a typed snippet: the line right before its ```python fence."""
NOT_RUN = re.compile(r"<!-- not-run:(.*)-->")
"""The marker of a block that does not run, with its reason: the line right before its fence."""


def _pages() -> list[Path]:
    pages = [README, ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md"]
    return pages + sorted(DOCS.rglob("*.md")) if DOCS.is_dir() else pages


PAGES = _pages()
"""Every Markdown source of the documentation (a page of the site that includes another file,
docs/development/contributing.md, holds no fence of its own: the included file is here)."""

MIN_DOCTESTS = {
    "docs/guide/learning-environments.md": 11,
    "docs/families/longcard.md": 6,
    "docs/guide/advisor-and-bots.md": 8,
}
"""The fewest examples some pages' doctests must hold (their sections' own tests asserted these
counts when the README held them): a page that loses its examples fails."""

PACKAGE_PARENT = Path(mahjong_core.__file__).resolve().parents[1]


def _rel(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def page_blocks(page: Path, lang: str) -> list[tuple[int, str, str]]:
    """``(line number, text, marker)`` of every fenced block of ``lang`` in ``page``; the marker
    is the line before the fence when it is an HTML comment (``<!-- typed -->``, ``<!-- not-run:
    ... -->``), else ``""``."""
    lines = page.read_text(encoding="utf-8").splitlines()
    out = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == f"```{lang}":
            start = i
            body = []
            indent = len(lines[i]) - len(lines[i].lstrip())
            i += 1
            while lines[i].strip() != "```":
                body.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i])
                i += 1
            before = lines[start - 1].strip() if start > 0 else ""
            out.append((start + 1, "\n".join(body) + "\n", before if before.startswith("<!--") else ""))
        i += 1
    return out


def blocks(lang: str) -> list[tuple[str, int, str, str]]:
    """``(page, line, text, marker)`` of every ``lang`` block of every page."""
    return [(_rel(p), n, text, mark) for p in PAGES for n, text, mark in page_blocks(p, lang)]


def _runs(marker: str) -> bool:
    return not NOT_RUN.match(marker)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(PACKAGE_PARENT), env.get("PYTHONPATH")) if p)
    return env


def _with(lang: str) -> list[Path]:
    return [p for p in PAGES if any(_runs(m) for _, _, m in page_blocks(p, lang))]


def _visible_reason(page: Path, mark: str) -> bool:
    """The reason of a not-run mark is given, and is also in the page's text (the mark itself is
    an HTML comment a reader of the site does not see)."""
    m = NOT_RUN.match(mark)
    if not m:
        return True
    reason = m.group(1).strip()
    prose = re.sub(r"<!--.*?-->", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    return len(reason) >= 10 and reason in " ".join(prose.split())


def test_not_run_marks_give_a_visible_reason() -> None:
    for lang in ("python", "pycon", "bash", "console"):
        for page, n, _, mark in blocks(lang):
            assert _visible_reason(ROOT / page, mark), f"{page}:{n}: a not-run mark without its reason in the text"


def test_marks_are_read_from_the_line_before_the_fence(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n<!-- typed -->\n```python\nx = 1\n```\n\nIt needs a network connection to run.\n"
                    "<!-- not-run: It needs a network connection to run. -->\n```python\nraise SystemExit(1)\n```\n"
                    "<!-- not-run: why -->\n```console\n$ mahjong-core serve\n```\n", encoding="utf-8")
    (typed, first), (skipped, second) = [(m, text) for _, text, m in page_blocks(page, "python")]
    assert typed == TYPED and _runs(typed) and first == "x = 1\n"
    assert not _runs(skipped) and "SystemExit" in second and _visible_reason(page, skipped)
    (_, _, short), = page_blocks(page, "console")
    assert not _runs(short) and not _visible_reason(page, short)


def test_every_page_is_in_the_site_or_at_the_root() -> None:
    """A page the test runs is one the site builds (mkdocs.yml's nav) or a root document."""
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in PAGES:
        rel = _rel(page)
        if rel.startswith("docs/") and not rel.startswith("docs/hooks/"):
            assert rel[len("docs/"):] in nav or "--8<--" in page.read_text(encoding="utf-8") or \
                rel.startswith(("docs/guide/", "docs/rules/")), f"{rel} is not in mkdocs.yml's nav"


# ---------------------------------------------------------------------------------- python snippets
@pytest.mark.parametrize("page", _with("python"), ids=_rel)
def test_every_python_block_runs(page: Path, tmp_path: Path) -> None:
    code = [(n, text) for n, text, mark in page_blocks(page, "python") if _runs(mark)]
    source = "".join(f"# {_rel(page)} line {n}\n{text}" for n, text in code)
    proc = subprocess.run([sys.executable, "-c", source], cwd=tmp_path, env=_env(), capture_output=True,
                          text=True, timeout=600, check=False)
    assert proc.returncode == 0, f"the python blocks of {_rel(page)} fail:\n{proc.stderr[-3000:]}"


def test_the_readme_has_its_examples() -> None:
    assert len(page_blocks(README, "python")) >= 3
    assert sum(len(page_blocks(p, "python")) for p in PAGES) >= 12


# ---------------------------------------------------------------------------------- pycon snippets
def run_page_doctests(page: Path) -> doctest.TestResults:
    """Run the ``pycon`` blocks of ``page`` as doctests in one namespace (``ELLIPSIS``), in order."""
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs: dict[str, object] = {}
    parser = doctest.DocTestParser()
    for n, text, mark in page_blocks(page, "pycon"):
        if _runs(mark):
            runner.run(parser.get_doctest(text, globs, f"{_rel(page)} line {n}", str(page), n))
    return runner.summarize(verbose=False)


@pytest.mark.parametrize("page", _with("pycon"), ids=_rel)
def test_every_pycon_block_runs(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = run_page_doctests(page)
    assert result.failed == 0 and result.attempted >= MIN_DOCTESTS.get(_rel(page), 1), _rel(page)


def test_pages_with_a_minimum_have_doctests() -> None:
    assert set(MIN_DOCTESTS) <= {_rel(p) for p in _with("pycon")}


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
round API's game flow.  Each snippet is checked as its own module after these lines, as a reader who
pastes that one snippet into his program would have it."""


def test_typed_snippets_pass_mypy_strict_and_wrong_calls_fail(tmp_path: Path) -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install '.[test]' installs it)")
    typed = [(page, n, text) for page, n, text, mark in blocks("python") if mark == TYPED]
    assert len(typed) >= 8, "the pages mark their typed snippets with <!-- typed -->"
    assert any(page == "README.md" for page, _, _ in typed)
    files = []
    for page, n, text in typed:
        path = tmp_path / f"doc_{re.sub(r'[^a-z0-9]', '_', page.lower())}_line_{n}.py"
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
    assert not [e for e in errors if e.startswith("doc_")], (
        f"documentation snippets (doc_PAGE_line_N.py: the snippet at line N of PAGE, after "
        f"{len(PRELUDE.splitlines())} lines of prelude) fail mypy --strict:\n{proc.stdout}")
    assert not [e for e in errors if not e.startswith(("doc_", *NOT_TYPED))], proc.stdout
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
    'mahjong-core score "PPP999m5m" --win 5m --melds "pon CCC" "pon FFF" --self-drawn',
    'mahjong-core hand "1112345678999m"',
    "mahjong-core --help",
    "mahjong-core match --ruleset changpai-ydr --rounds 3 --bots search,greedy,greedy --seed 1",
]
"""Documented commands this test runs as written (``mahjong-core`` as ``python -m mahjong_core``, which
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
    "mahjong-core serve --db mahjong.sqlite3 --init --difficulty normal --room-difficulty beginner=beginner":
        "serves until Ctrl-C: tests/server/test_server_difficulty.py starts serve with these options",
    "mahjong-core tournament --ruleset two-player --bots greedy,random --deals 20 --seed 1":
        "tests/tournament/test_guide.py runs the tournaments guide's commands",
    "mahjong-core tournament --ruleset changpai-ydr --bots greedy,random,random --deals 4 --json":
        "tests/tournament/test_guide.py runs the tournaments guide's commands",
    "mahjong-core tournament --ruleset public --bots greedy,random --deals 10 --csv bots.csv --plot bots.png":
        "tests/tournament/test_guide.py runs the tournaments guide's commands",
    "PYTHONPATH=python python tools/gen_rules_docs.py": "tests/packaging/test_rules_docs.py runs it with --check "
                                                        "(the generated blocks are current)",
    "mahjong-core play": "interactive (tests/cli runs play --help's examples, quitting at the first prompt)",
    "python -m venv .venv": "makes a development environment",
    ". .venv/bin/activate": "enters the development environment",
    'python -m pip install --upgrade "pip>=25.1"': "changes the development environment's pip",
    "python -m pip install --group dev": "installs the development environment (tests/packaging/test_packaging.py "
                                         "checks the group covers what the README uses)",
    "bash tools/build_inplace.sh": "compiles the core in place (minutes)",
    "python tools/mcr_batch_workload.py": "scores bench_mcr's five sets of 5 000 hands (about half a minute); "
                                          "tests/fan/test_batch_digest.py checks the same digests on 1 000 hands",
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
    "python bench/bench_server_load.py --tables 100 --seconds 30 --tree T": _BENCH,
    "python bench/bench_table_path.py": _BENCH,
    "python bench/bench_table_path_instructions.py --socket": _BENCH,
    "python bench/bench_rl.py": _BENCH,
    "python bench/bench_rl.py --rulesets changpai-ydr": _BENCH,
    "python bench/bench_mcr.py --ruleset mcr": _BENCH,
    "python bench/bench_search_bot.py --ruleset two-player --deals 300 --seed 9001":
        "300 duplicate deals of the search bot take about ten minutes; tests/bots/test_mj_bench_search.py runs the bench on a few walls",
    "python bench/bench_lc_search_bot.py --deals 400 --seed 1000":
        "400 long-card deals of the search bot take minutes; tests/bots/test_lc_bench_search_bot.py runs the bench on a few deals",
    "python tools/ladder.py": "every pair of bots in every ruleset takes many minutes; tests/tournament/test_ladder.py runs the tool on a few deals",
    "python bench/bench_decision_time.py --deals 100": _BENCH,
    "python bench/bench_decision_time.py --deals 30": _BENCH,
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
    'PYTHONPATH=python python -c "import mahjong_core as mj; print(mj.__version__, mj.is_win(\'11123456789999m\'))"':
        "the last line of CONTRIBUTING's set-up, in the tree it builds: tools/check_dev_setup.sh runs the block "
        "in a fresh clone (.ci/run)",
    "mkdocs build --strict": ".ci/run builds the site after the test command",
    "mkdocs serve": "serves the site until Ctrl-C",
    "python -m pip install .": _INSTALLS,
    "mahjong-core botzone-bot": "a command's name, not a command line",
    "mahjong-core simulate": "a command's name, not a command line",
    "mahjong-core COMMAND --help": "a synopsis (COMMAND stands for each command; its help is generated into "
                                   "docs/reference/cli.md and tests/cli runs every command's --help)",
    "mahjong-core botzone-bot --bot greedy": "reads Botzone's requests on standard input (the section's Python "
                                             "example runs it; tests/botzone run it under the adapter)",
}
"""Documented commands that cannot run in CI, each with the reason."""


def docs_commands() -> list[str]:
    """Every command of the documentation: each line of a fenced ``bash`` block (comments removed,
    a ``&&`` chain split into its commands), each ``$`` line of a ``console`` block, and each inline
    code span that is a whole command line (a span with ``[...]``, ``…`` or ``...`` is a synopsis,
    not a command).  Blocks marked not-run are left out."""
    out = []
    lines = []
    for _, _, text, mark in blocks("bash"):
        if _runs(mark):
            lines += text.splitlines()
    for _, _, text, mark in blocks("console"):
        if _runs(mark):
            lines += [ln[2:] for ln in text.splitlines() if ln.startswith("$ ")]
    for line in lines:
        line = re.sub(r"\s+#.*$", "", line).strip()
        out += [part.strip() for part in line.split("&&") if part.strip()]
    for page in PAGES:
        prose = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
        for span in re.findall(r"`([^`]+)`", prose):
            span = " ".join(span.split())
            if re.match(r"(mahjong-core|python |PYTHONPATH=\S+ |pip |bash |\.ci/)", span) and not re.search(
                    r"\[|…|\.\.\.|: error", span) and span not in ("pip install",):
                out.append(span)
    return list(dict.fromkeys(out))


def test_every_command_is_run_here_or_excused() -> None:
    commands = docs_commands()
    assert len(commands) > 20
    undecided = [c for c in commands if c not in NOT_IN_CI and c not in CHEAP]
    assert not undecided, f"documented commands that neither run in this test nor say why they cannot: {undecided}"
    stale = [c for c in [*CHEAP, *NOT_IN_CI] if c not in commands]
    assert not stale, f"commands listed here that the documentation no longer has: {stale}"


def test_getting_started_has_the_readme_set_up_commands() -> None:
    """The two set-up commands are the README's (which .ci/run reads); the site repeats them verbatim."""
    readme = [text for _, text, _ in page_blocks(README, "bash")][1:3]
    started = [text for _, text, _ in page_blocks(DOCS / "getting-started.md", "bash")]
    assert len(readme) == 2 and all(cmd in started for cmd in readme), readme


def _argv(line: str) -> list[str]:
    argv = shlex.split(line)
    assert argv[0] == "mahjong-core", line
    return [sys.executable, "-m", "mahjong_core", *argv[1:]]


@pytest.mark.parametrize("line", CHEAP)
def test_documented_command_runs_as_written(line: str, tmp_path: Path) -> None:
    if "--plot" in line:
        pytest.importorskip("matplotlib", reason="--plot needs the plot extra (the test extra installs it)")
    proc = subprocess.run(_argv(line), cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=900,
                          check=False)
    assert proc.returncode == 0, f"{line}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    assert proc.stdout.strip()
    for out in re.findall(r"--(?:out|csv|plot) (\S+)", line):
        assert (tmp_path / out).stat().st_size > 0, out


def test_the_development_benchmark_runs_from_the_tree(tmp_path: Path) -> None:
    """CONTRIBUTING's ``python bench/bench_hand.py`` (once the README's Development block) failed as written (no package on the
    path in a tree built in place): it is ``PYTHONPATH=python python bench/bench_hand.py``; its
    ``--quick`` run, against the package this session imports."""
    assert "PYTHONPATH=python python bench/bench_hand.py" in docs_commands()
    proc = subprocess.run([sys.executable, "bench/bench_hand.py", "--quick"], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=900, check=False)
    assert proc.returncode == 0 and "ratio" in proc.stdout, proc.stderr[-2000:]
