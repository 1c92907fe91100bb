"""The README's learning-environment examples and the rl modules' docstring examples run as written."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="the rl extra (pip install '.[test]' installs it)")
pytest.importorskip("gymnasium", reason="the rl extra (pip install '.[test]' installs it)")
from mahjong_core.rl import gymnasium_env, pettingzoo_env, vector

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_learning_environments_section() -> None:
    section = README.read_text(encoding="utf-8").split("## Learning environments", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```pycon\n(.*?)```", section, re.DOTALL)
    assert blocks
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        runner.run(doctest.DocTestParser().get_doctest(block, {}, f"README rl block {i}", str(README), 0))
    assert runner.failures == 0 and runner.tries > 10


@pytest.mark.parametrize("module", [vector, pettingzoo_env, gymnasium_env])
def test_docstrings(module: object) -> None:
    result = doctest.testmod(module)   # type: ignore[arg-type]
    assert result.failed == 0 and result.attempted > 0
