"""The documentation site and the documents around it (issue 31, items 1, 3 and 4): the README is a
front page whose links land on pages that exist, the architecture page's layout names files that
exist and every package directory and compiled module, the command-line page is generated from
the parsers, the changelog keeps its format, and CONTRIBUTING's development set-up is run by
tools/check_dev_setup.sh (from .ci/run) whose mechanism is tested here on a small repository.
The site itself is built by .ci/run (`mkdocs build --strict`)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

import mahjong_core

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
README = ROOT / "README.md"
REPO_URL = "https://github.com/mahjong-core/mahjong-core/"


def _fence(text: str, lang: str, after: str = "") -> str:
    """The first fenced ``lang`` block of ``text`` after the line holding ``after``."""
    start = text.index(after) if after else 0
    m = re.search(rf"^```{lang}\n(.*?)^```", text[start:], re.M | re.S)
    assert m, (lang, after)
    return m.group(1)


# ---------------------------------------------------------------------------------- README
def test_readme_is_a_front_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200
    for heading in ("## Install", "## Set-up commands", "## A few examples", "## Documentation"):
        assert heading in text
    # the two set-up commands (main job, tests; .ci/run reads the second after its marker)
    setup = text.split("## Set-up commands", 1)[1].split("<!-- checkout-only: end -->", 1)[0]
    commands = re.findall(r"^```bash\n(.*?)\n```", setup, re.M | re.S)
    assert len(commands) == 2 and "mahjong-core simulate" in commands[0] and "pytest" in commands[1]
    assert "<!-- test-command" in setup


def test_readme_links_land_on_files_of_the_repository() -> None:
    """The README links into the site by absolute URLs (the package index shows it without the
    repository); each names a file or folder of this tree."""
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\((https://github\.com/mahjong-core/mahjong-core/(?:blob|tree)/main/[^)#]*)", text)
    assert len(targets) >= 15
    for url in targets:
        rel = url.split("/main/", 1)[1]
        assert (ROOT / rel).exists(), f"README links to {url}, which is not in the repository"


# ---------------------------------------------------------------------------------- architecture
def _layout() -> str:
    return _fence((DOCS / "architecture.md").read_text(encoding="utf-8"), "text", "## Layout")


def _tree() -> list[str]:
    skip = {"build", "site", ".git", "__pycache__", ".venv", "dist"}
    return [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
            if not skip & set(p.relative_to(ROOT).parts)]


def test_architecture_layout_names_existing_files() -> None:
    tree = _tree()
    names = set(re.findall(r"(?<![\w<])([\w./-]*\w\.(?:py|pyx|pxd|pxi|pyi|h|sh|toml|txt|yml))\b", _layout()))
    assert len(names) > 80
    missing = [n for n in names if not any(f == n or f.endswith("/" + n) for f in tree)]
    assert not missing, f"the architecture page's layout names files that do not exist: {sorted(missing)}"


def test_architecture_layout_names_every_package_and_compiled_module() -> None:
    layout = _layout()
    package = ROOT / "python" / "mahjong_core"
    dirs = sorted({p.parent.relative_to(package).as_posix() for p in package.rglob("__init__.py")} - {"."})
    unnamed = [d for d in dirs if d.split("/")[-1] + "/" not in layout]
    assert not unnamed, f"package directories the architecture page does not name: {unnamed}"
    modules = [p.stem for p in (ROOT / "src" / "mahjong_core").glob("*.pyx")]
    assert modules and not [m for m in modules if m + ".pyx" not in layout]


def test_scoring_guide_names_every_keyword_of_score() -> None:
    import inspect

    page = (DOCS / "guide" / "hands-and-scoring.md").read_text(encoding="utf-8")
    keywords = [n for n, p in inspect.signature(mahjong_core.score).parameters.items()
                if p.kind is inspect.Parameter.KEYWORD_ONLY and n not in ("ruleset", "melds")]
    assert len(keywords) > 15
    assert not [k for k in keywords if f"`{k}`" not in page]


def test_mahjong_family_table_matches_the_registry() -> None:
    """The ruleset table of docs/families/mahjong.md: every ruleset of the family, its players and
    its minimum, as the registry has them."""
    from mahjong_core.families import registry

    page = (DOCS / "families" / "mahjong.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([\w-]+)`.*\| (\d+) \| (\d+) fan \|$", page, re.M)
    mahjong = [n for n in registry.ruleset_names() if registry.family_of(n).name == "mahjong"]
    assert [r[0] for r in rows] == mahjong
    for name, players, minimum in rows:
        record = registry.get_ruleset(name)
        assert (int(players), int(minimum)) == (record.players, record.min_fan), name


def test_error_table_has_one_row_per_error_class() -> None:
    from mahjong_core import errors

    page = (DOCS / "reference" / "errors.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)`", page, re.M)
    assert sorted(rows) == sorted(errors.__all__) and len(rows) == len(set(rows))


def test_conformance_guide_names_every_check() -> None:
    from mahjong_core.testing import CHECKS

    page = (DOCS / "guide" / "conformance.md").read_text(encoding="utf-8")
    listed = page.split("The checks by name, in the order `CHECKS` runs them:", 1)[1].split(".\n", 1)[0]
    assert re.findall(r"`(\w+)`", listed) == list(CHECKS)


def test_lookup_table_figures_are_the_tables() -> None:
    """The sizes the architecture and long-card pages give are those the compiled modules report."""
    from mahjong_core import _hand, _lc_hand

    arch = " ".join((DOCS / "architecture.md").read_text(encoding="utf-8").split())
    info = _hand.table_info()
    assert f"{info['suit_rows']:,} of them".replace(",", " ") in arch
    assert f"{info['honor_rows']:,} rows".replace(",", " ") in arch
    assert f"a {round(info['suit_win_bits_bytes'] / 1000)} KB bitset" in arch
    assert f"About {round(info['total_bytes'] / 1e6)} MB in all" in arch
    longcard = " ".join((DOCS / "families" / "longcard.md").read_text(encoding="utf-8").split())
    assert f"{round(_lc_hand.table_info()['bytes'] / 1000)} KB in all" in longcard


# ---------------------------------------------------------------------------------- command line
def test_cli_reference_is_generated_from_the_parsers() -> None:
    import argparse

    from tests.support.scripts import load_script

    gen = load_script("tools/cli_reference.py")
    page = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    assert gen.MARKER in page
    assert "tools/cli_reference.py" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = gen.markdown()
    from mahjong_core.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    for name, parser in sub.choices.items():
        assert f"## `mahjong-core {name}`" in text
        for action in parser._actions:           # every option of every command is on the page
            for flag in action.option_strings:
                assert flag in text, (name, flag)
    assert gen.on_page_markdown(page, None).count("```text") == len(sub.choices) + 1


NOT_COMMAND_FLAGS = {"--strict", "--dist"}
"""Options the guides name that belong to another program (mkdocs, pytest-xdist)."""


def _script_options() -> set[str]:
    """The options the scripts of ``bench/`` and ``tools/`` define (``add_argument("--name"``):
    the guides name them beside their commands."""
    found: set[str] = set()
    for script in [*sorted((ROOT / "bench").glob("*.py")), *sorted((ROOT / "tools").glob("*.py"))]:
        found.update(re.findall(r"""add_argument\(\s*(?:"-\w",\s*)?["'](--[a-z][a-z0-9-]*)["']""",
                                script.read_text(encoding="utf-8")))
    return found


def test_every_option_the_guides_name_exists() -> None:
    """A ``--option`` in a guide, a family page, a reference page, Getting started or the README
    is an option of some ``mahjong-core`` command or of the bench or tool script it runs (the speed
    page names the benches' own)."""
    import argparse

    from mahjong_core.cli import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    options = {f for p in sub.choices.values() for a in p._actions for f in a.option_strings}
    scripts = _script_options()
    assert {"--tables", "--hands", "--dump", "--arms"} <= scripts, sorted(scripts)   # the pattern finds them
    pages = [README, DOCS / "getting-started.md", *sorted((DOCS / "guide").glob("*.md")),
             *sorted((DOCS / "families").glob("*.md")), *sorted((DOCS / "reference").glob("*.md"))]
    for page in pages:
        named = set(re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", page.read_text(encoding="utf-8")))
        unknown = named - options - scripts - NOT_COMMAND_FLAGS
        assert not unknown, f"{page.relative_to(ROOT)} names options no command has: {sorted(unknown)}"


# ---------------------------------------------------------------------------------- changelog
def test_changelog_keeps_a_changelog_from_the_current_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert text.startswith("# Changelog\n") and "Keep a Changelog" in text
    versions = re.findall(r"^## \[([^\]]+)\](?: - (.+))?$", text, re.M)
    assert versions[0][0] == "Unreleased"
    released = [v for v, _ in versions[1:]]
    assert released and released[0] == mahjong_core.__version__, "the newest version is the package's"
    for v, date in versions[1:]:
        assert re.fullmatch(r"\d+\.\d+\.\d+", v) and re.fullmatch(r"\d{4}-\d{2}-\d{2}|Unreleased", date), (v, date)
    kinds = set(re.findall(r"^### (.+)$", text, re.M))
    assert kinds <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}, kinds
    for v, _ in versions:                        # each version heading has its link reference
        assert re.search(rf"^\[{re.escape(v)}\]: https://", text, re.M), v


def test_versioning_policy_names_every_deprecation_of_the_changelog() -> None:
    policy = (DOCS / "development" / "versioning.md").read_text(encoding="utf-8")
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    deprecated = changelog.split("### Deprecated", 1)[1].split("\n## ", 1)[0]
    for name in ("next_banker", "PROFILES", "mahjong_core.game.Round"):
        assert name in deprecated and name in policy, name


# ---------------------------------------------------------------------------------- contributing
def test_contributing_set_up_is_run_by_ci() -> None:
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    block = _fence(contributing, "bash", "<!-- dev-setup")
    assert "python -m venv" in block and "--group dev" in block and "tools/build_inplace.sh" in block
    for path in re.findall(r"\b(tools/[\w./]+)", block):
        assert (ROOT / path).is_file(), path
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "tools/check_dev_setup.sh" in ci and "mkdocs build --strict" in ci


def _mini_repo(tmp_path: Path, block: str) -> Path:
    repo = tmp_path / "repo"
    (repo / "tools").mkdir(parents=True)
    (repo / "python" / "mahjong_core").mkdir(parents=True)
    shutil.copy2(ROOT / "tools" / "check_dev_setup.sh", repo / "tools" / "check_dev_setup.sh")
    (repo / "python" / "mahjong_core" / "__init__.py").write_text('__version__ = "9.8.7"\n', encoding="utf-8")
    (repo / "CONTRIBUTING.md").write_text(
        f"# Contributing\n\n<!-- dev-setup: -->\n```bash\n{block}\n```\n\n```bash\nfalse\n```\n", encoding="utf-8")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(repo)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "mini"], check=True)
    return repo


@pytest.mark.parametrize(("block", "ok"), [
    # the block runs in a clone (the untracked file is not there), with `python` on the path
    ('test ! -e untracked && python -c "print(\'9.8.7\', True)"', True),
    ('python -c "print(\'9.8.7\', True)" && false', False),      # a failing command fails the check
    ('python -c "print(\'9.8.7\', False)"', False),              # the last line must say True
])
def test_check_dev_setup_runs_the_block_in_a_fresh_clone(tmp_path: Path, block: str, ok: bool) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed: the check clones the repository")
    repo = _mini_repo(tmp_path, block)
    (repo / "untracked").write_text("x", encoding="utf-8")
    proc = subprocess.run(["bash", str(repo / "tools" / "check_dev_setup.sh")], capture_output=True, text=True,
                          timeout=60, check=False)
    assert (proc.returncode == 0) == ok, proc.stdout + proc.stderr
    if ok:
        assert "check_dev_setup: ok" in proc.stdout
