"""The README's long-card examples and the family's docstring examples run as written."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import mahjong_core.families.longcard as lc
import pytest
from mahjong_core.families.longcard import (
    advise,
    cards,
    counting,
    fans,
    groups,
    options,
    round_actions,
    round_bots,
    round_counting,
    round_match,
    round_settings,
    round_settlement,
)
from mahjong_core.families.longcard import distance, hand_layer
from mahjong_core.families.longcard._ref import round as round_ref

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_longcard_section():
    text = README.read_text(encoding="utf-8")
    section = text.split("## The long-card game", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```pycon\n(.*?)```", section, re.DOTALL)
    assert blocks
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README longcard block {i}", str(README), 0)
        runner.run(test)
    assert runner.failures == 0 and runner.tries > 5


@pytest.mark.parametrize("module", [lc, cards, counting, fans, groups, options, round_actions, round_bots,
                                    round_counting, round_match, round_ref, round_settings, round_settlement,
                                    advise, distance, hand_layer])
def test_docstrings(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0

