"""Release packaging (issue 15, items 1, 3 and 7): the sdist, the metadata, the wheel test command
and the development dependency group, checked against pyproject.toml and git.

The sdist is built with the build backend's own PEP 517 hook (no build frontend, no compiler: an
sdist compiles nothing) from a copy of the files git tracks, into which the outputs a working tree
collects have been planted; it must hold exactly the tracked files a build and its tests need.
"""

from __future__ import annotations

import email.parser
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"

# Tracked, but not needed to build or test the package: CI plumbing.
NOT_IN_SDIST = ("/.ci/", "/.github/")
# What a working tree collects that git does not track (the README main job writes results.*
# into the repository root; tools/build_inplace.sh puts the compiled modules next to the sources).
PLANTED = (
    "results.json", "results.png", "out.csv",
    "python/mahjong_core/_hand.cpython-311-x86_64-linux-gnu.so",
    "python/mahjong_core/__pycache__/hand.cpython-311.pyc",
    "build/cp311-cp311-linux_x86_64/CMakeCache.txt", "dist/mahjong_core-0.1.0.tar.gz", "site/index.html",
    ".venv/bin/python", "src/mahjong_core/_hand.html",
)


def _toml() -> dict:
    tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from 3.11")
    with PYPROJECT.open("rb") as f:
        return tomllib.load(f)


def _tracked() -> list[str]:
    if shutil.which("git") is None:
        pytest.skip("git is not installed: nothing to compare the sdist with")
    proc = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True, check=False)
    if proc.returncode != 0:
        pytest.skip("not a git checkout (an unpacked sdist?): nothing to compare the sdist with")
    return sorted(p for p in proc.stdout.decode().split("\0") if p)


@pytest.fixture(scope="module")
def sdist(tmp_path_factory) -> tuple[list[str], list[str], email.message.Message]:
    """(tracked files, sdist members without the top directory, PKG-INFO) of an sdist built from a
    copy of the tracked tree with the planted files added."""
    pytest.importorskip("scikit_build_core", reason="the test extra installs scikit-build-core")
    pytest.importorskip("hatch_fancy_pypi_readme", reason="the test extra installs hatch-fancy-pypi-readme")
    tracked = _tracked()
    tree = tmp_path_factory.mktemp("tree")
    for rel in tracked:
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, tree / rel)
    for rel in PLANTED:
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        (tree / rel).write_bytes(b"not tracked\n")
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [sys.executable, "-c", ("import sys; from scikit_build_core.build import build_sdist; "
                                "print(build_sdist(sys.argv[1]))"), str(out)],
        cwd=tree, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    name = proc.stdout.strip().splitlines()[-1]
    with tarfile.open(out / name) as tar:
        members = [m.name for m in tar.getmembers() if m.isfile()]
        top = members[0].split("/")[0]
        pkg_info = tar.extractfile(f"{top}/PKG-INFO").read().decode()
    names = sorted(m.split("/", 1)[1] for m in members)
    return tracked, names, email.parser.Parser().parsestr(pkg_info)


def test_sdist_holds_exactly_the_tracked_files_a_build_needs(sdist):
    tracked, names, _ = sdist
    expected = {p for p in tracked if not any(("/" + p).startswith(d) for d in NOT_IN_SDIST)}
    expected.add("PKG-INFO")
    got = set(names)
    assert not got - expected, f"in the sdist but not tracked (or CI-only): {sorted(got - expected)}"
    assert not expected - got, f"tracked but missing from the sdist: {sorted(expected - got)}"
    assert len(names) == len(got), "a file is in the sdist twice"
    assert {"LICENSE", "CMakeLists.txt", "pyproject.toml", "src/mahjong_core/_hand.pyx"} <= got


def test_metadata_license_and_classifiers(sdist):
    _, _, meta = sdist
    assert tuple(int(x) for x in meta["Metadata-Version"].split(".")) >= (2, 4)
    assert meta["License-Expression"] == "MIT"
    assert meta.get_all("License-File") == ["LICENSE"]
    assert "License" not in meta, "the legacy License field is replaced by License-Expression"
    classifiers = set(meta.get_all("Classifier"))
    assert {"Typing :: Typed", "Programming Language :: Cython",
            *(f"Programming Language :: Python :: 3.{m}" for m in range(10, 15))} <= classifiers
    assert not any(c.startswith("License ::") for c in classifiers), "PEP 639: no license classifier"
    trove = pytest.importorskip("trove_classifiers", reason="installed with hatch-fancy-pypi-readme")
    assert not classifiers - trove.classifiers, "the package index refuses unknown classifiers"
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert {"Homepage", "Source", "Issues"} <= set(urls)
    assert all(u.startswith("https://") for u in urls.values())
    assert meta["Author"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_long_description_works_on_the_package_index(sdist):
    """No relative links (the index has no repository to resolve them against), no path to a
    file outside the package, no install command that only works in a clone."""
    _, _, meta = sdist
    assert meta["Description-Content-Type"].startswith("text/markdown")
    text = meta.get_payload()
    assert text.startswith("# mahjong-core") and "## Install" in text and "## Documentation" in text
    for target in re.findall(r"\]\(([^)]*)\)", text):
        assert target.startswith(("https://", "#")), f"relative link in the long description: {target}"
    assert "shared/spec" not in text
    assert not re.search(r"pip install (-e )?[\"']?\.", text), "a repo-local install command"
    assert "pip install mahjong-core" in text
    assert "<!-- checkout-only" not in text


def test_wheel_test_command_names_existing_tests():
    """cibuildwheel runs these test files against every wheel: a renamed file must be renamed there."""
    cfg = _toml()["tool"]["cibuildwheel"]
    files = [a for a in shlex.split(cfg["test-command"]) if a.startswith("tests/")]
    assert len(files) >= 5
    for f in files:
        assert (ROOT / f).is_file(), f"[tool.cibuildwheel] test-command names a missing file: {f}"
    assert "tests" in cfg["test-sources"]
    assert "cpython-freethreading" in cfg["enable"]
    assert set(cfg["build"].split()) == {"cp310-*", "cp311-*", "cp312-*", "cp313-*", "cp314-*",
                                         "cp313t-*", "cp314t-*"}


def _name(req: str) -> str:
    return re.split(r"[\s<>=!~;\[]", req, maxsplit=1)[0].lower().replace("_", "-")


def _group(groups: dict, name: str) -> set[str]:
    out: set[str] = set()
    for item in groups[name]:
        out |= _group(groups, item["include-group"]) if isinstance(item, dict) else {_name(item)}
    return out


def test_dev_group_covers_build_runtime_and_tests():
    """`pip install --group dev` gives everything CONTRIBUTING.md's development set-up uses: the build
    requirements, CMake and Ninja, the runtime dependencies, the test extra, mypy."""
    data = _toml()
    dev = _group(data["dependency-groups"], "dev")
    needed = ({_name(r) for r in data["build-system"]["requires"]}
              | {_name(r) for r in data["project"]["dependencies"]}
              | {_name(r) for r in data["project"]["optional-dependencies"]["test"]}
              | {_name(r) for r in data["project"]["optional-dependencies"]["docs"]}
              | {"cython", "cmake", "ninja", "mypy", "pytest", "mkdocs"})
    assert needed <= dev, f"missing from the dev group: {sorted(needed - dev)}"
    # the site's own group is its extra (CONTRIBUTING.md: "pip install '.[docs]'" or the group)
    assert _group(data["dependency-groups"], "docs") == {
        _name(r) for r in data["project"]["optional-dependencies"]["docs"]}
