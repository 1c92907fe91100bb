"""The long-card family's docstring examples run as written."""

from __future__ import annotations

import doctest

import mahjong_core.families.longcard as lc
import pytest
from mahjong_core.families.longcard import (
    advise,
    cards,
    counting,
    distance,
    fans,
    groups,
    hand_layer,
    options,
    round_actions,
    round_bots,
    round_counting,
    round_match,
    round_settings,
    round_settlement,
)
from mahjong_core.families.longcard._ref import round as round_ref

# The examples of docs/families/longcard.md (once the README's) run in tests/packaging/test_docs_examples.py,
# with every page's: test_every_pycon_block_runs.


@pytest.mark.parametrize("module", [lc, cards, counting, fans, groups, options, round_actions, round_bots,
                                    round_counting, round_match, round_ref, round_settings, round_settlement,
                                    advise, distance, hand_layer])
def test_docstrings(module):
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0

