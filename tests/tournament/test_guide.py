"""docs/guide/tournaments.md: its Python examples and its ``mahjong-core tournament`` lines run as
shown (the ``serve`` line is the server's, run until Ctrl-C: its options are tested in tests/server)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from mahjong_core import cli

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "tournaments.md"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("code", _blocks("python"))
def test_the_python_examples_run(code, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(GUIDE), "exec"), {})
    assert "duplicate deals of two-player" in capsys.readouterr().out


@pytest.mark.parametrize("line", [line for block in _blocks("bash") for line in block.splitlines()
                                  if line.startswith("mahjong-core tournament")])
def test_the_command_lines_run(line, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(line)
    assert cli.main(argv[1:]) == 0
    for option in ("--csv", "--plot"):
        if option in argv:
            assert (tmp_path / argv[argv.index(option) + 1]).stat().st_size > 0


def test_the_guide_has_examples():
    assert _blocks("python") and len([b for b in _blocks("bash") if "tournament" in b]) == 1
