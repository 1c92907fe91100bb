"""The tabled pool search of the long-card counting (``_lc_counting.pxi``, POOL_TAB): the table
without ``chi_may_use_kan`` is built at import, each ``mao_bonus`` table with it on first use (by
``counting`` or a RoundCore of those settings), and the answers read from a table equal the
pure-Python oracle (``counting.counting_summary``) on hands that use every table."""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core.families.longcard import counting
from mahjong_core.families.longcard.round_engine import new_core
from mahjong_core.families.longcard.sampling import random_deal

from mahjong_core import _lc_hand

MODES = ("live", "any", "s1", "off")


def test_the_plain_table_is_built_at_import() -> None:
    assert _lc_hand._pool_tables_built()[0]


@pytest.mark.parametrize("mode", MODES)
def test_chi_may_use_kan_tables_are_built_on_first_use_and_answer_as_the_oracle(mode: str) -> None:
    kind = 1 + MODES.index(mode)
    rng = np.random.default_rng(kind)
    for _ in range(12):
        hand = random_deal(rng, 20)[0]
        dead = np.array([rng.integers(0, 5 - n + 1) if rng.random() < 0.4 else 0 for n in hand], np.uint8)
        for chi_kan in (False, True):
            opts = {"mao_bonus": mode, "chi_may_use_kan": chi_kan}
            want = counting.counting_summary(hand, (), dead, **opts)
            assert _lc_hand.counting(hand, None, dead, **opts) == (want.mao, want.t_max)
    assert _lc_hand._pool_tables_built()[kind]


def test_a_round_core_builds_the_table_of_its_settings() -> None:
    core = new_core(0, options={"chi_may_use_kan": True, "mao_bonus": "any"})
    assert core.result is None and _lc_hand._pool_tables_built()[1 + MODES.index("any")]
