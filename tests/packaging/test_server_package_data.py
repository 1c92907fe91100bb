"""The server's web table is package data (issue 17): the wheel carries python/mahjong_core/server/
static/ (HTML, CSS, JS) and the learned opponent model's weights (``opponent_model.npz``) while ``wheel.exclude`` still keeps Cython's sources and annotation pages
out, and the sdist carries it (it holds the tracked files, test_packaging.py).

The wheel is built with the build backend's own PEP 517 hook and ``wheel.cmake=false`` (the same
file selection, nothing compiled) from a copy of the tracked tree with an annotation page planted.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile

import pytest

from .test_packaging import ROOT, _tracked

STATIC = ("index.html", "table.css", "table.js")


def _family_web_files() -> list[str]:
    """The families' own web-table files (``Family.server.web``: issue 28), as paths in the package."""
    from pathlib import Path

    import mahjong_core
    from mahjong_core.families import registry

    package = Path(mahjong_core.__file__).resolve().parent
    return [f"mahjong_core/{Path(f.server.web).resolve().relative_to(package).as_posix()}/{name}"
            for f in registry.families() if f.server is not None and f.server.web is not None
            for name in ("table.js", "table.css")]


def test_the_wheel_and_the_sdist_carry_the_web_table(tmp_path):
    pytest.importorskip("scikit_build_core", reason="the test extra installs scikit-build-core")
    pytest.importorskip("hatch_fancy_pypi_readme", reason="the test extra installs hatch-fancy-pypi-readme")
    tracked = _tracked()
    for name in STATIC:   # tracked, so in the sdist
        assert f"python/mahjong_core/server/static/{name}" in tracked
    family_files = _family_web_files()
    assert family_files, "no family has a web table of its own"
    for name in family_files:
        assert f"python/{name}" in tracked
    tree = tmp_path / "tree"
    for rel in tracked:
        (tree / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, tree / rel)
    (tree / "python/mahjong_core/_hand.html").write_text("Cython annotation\n")
    (tree / "python/mahjong_core/_hand.c").write_text("/* generated */\n")
    out = tmp_path / "dist"
    out.mkdir()
    proc = subprocess.run(
        [sys.executable, "-c", ("import sys; from scikit_build_core.build import build_wheel; "
                                "print(build_wheel(sys.argv[1], {'wheel.cmake': 'false'}))"), str(out)],
        cwd=tree, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    with zipfile.ZipFile(out / proc.stdout.strip().splitlines()[-1]) as whl:
        names = set(whl.namelist())
        for name in STATIC:
            assert f"mahjong_core/server/static/{name}" in names
        assert b"/static/table.js" in whl.read("mahjong_core/server/static/index.html")
        assert set(family_files) <= names
    assert "mahjong_core/server/app.py" in names
    # the learned opponent model's weights (issue 30): package data the search bot loads
    assert "python/mahjong_core/families/mahjong/opponent_model.npz" in tracked
    assert "mahjong_core/families/mahjong/opponent_model.npz" in names
    assert not {"mahjong_core/_hand.html", "mahjong_core/_hand.c"} & names
    assert not any(n.endswith((".pyx", ".pxd")) for n in names)
