"""The discard evaluation's lowering-table path (issue 14) against the definition.

``_hand.discard_eval`` finds the tiles that lower the shanten of each best discard from the lowering
tables (standard form: the splits that reach the distance; seven pairs, thirteen orphans, 全不靠 and
the knitted straight: the forms at the best shanten) instead of one shanten call per drawn tile.
Here it is held against one full ``mj.shanten`` call per discard and per drawn tile on many hands:
random hands of every size, hands near each form, and the hands the greedy bots hold in real rounds.
tests/game/test_round_core.py checks the same kernel on smaller sets.
"""

from __future__ import annotations

import numpy as np
import pytest
from mahjong_core.families.mahjong._constants import KNITTED_PATTERNS, ORPHAN_KINDS
from mahjong_core.families.mahjong.rulesets import get_ruleset
from mahjong_core.families.mahjong.api import GreedyBot, Round

import mahjong_core as mj
from mahjong_core import _hand

from .test_round_core import _brute_discard_eval

RULESETS = ("two-player", "two-player-bamboo", "public")


def _check(c: np.ndarray, ruleset: str, unseen: list[int] | None = None, discards: int | None = None) -> None:
    rs = get_ruleset(ruleset)
    if discards is None:
        discards = sum(1 << int(k) for k in np.flatnonzero(c))
    if unseen is None:
        unseen = [int(4 - c[k]) for k in range(34)]
    got = _hand.discard_eval(c, rs.kind_mask, rs.special_forms, discards, unseen)
    assert got == _brute_discard_eval(c, ruleset, discards, unseen), (mj.format_counts(c), ruleset)


def _swap(rng: np.random.Generator, c: np.ndarray, kinds: list[int], times: int) -> np.ndarray:
    """Replace ``times`` random tiles of ``c`` by random kinds (never a fifth copy)."""
    c = c.copy()
    for _ in range(times):
        out = int(rng.choice(np.flatnonzero(c)))
        c[out] -= 1
        c[int(rng.choice([k for k in kinds if c[k] < 4]))] += 1
    return c


def _fill(rng: np.random.Generator, c: np.ndarray, kinds: list[int], size: int) -> np.ndarray:
    c = c.copy()
    while c.sum() < size:
        c[int(rng.choice([k for k in kinds if c[k] < 4]))] += 1
    return c


def _near_special(rng: np.random.Generator, form: str, size: int) -> np.ndarray:
    """A `public` hand of ``size`` tiles built on one special form, then disturbed."""
    kinds = list(get_ruleset("public").kinds)
    c = np.zeros(34, np.uint8)
    pattern = KNITTED_PATTERNS[int(rng.integers(len(KNITTED_PATTERNS)))]
    if form == "orphans":
        for k in rng.choice(ORPHAN_KINDS, size=min(size, 13), replace=False):
            c[k] += 1
    elif form == "honors_knitted":
        pool = list(pattern) + list(range(27, 34))
        for k in rng.choice(pool, size=min(size, 14), replace=False):
            c[k] += 1
    else:  # knitted straight: the pattern's tiles, then a group and a pair (or random tiles)
        for k in rng.choice(pattern, size=int(rng.integers(6, 10)), replace=False):
            c[k] += 1
    c = _fill(rng, c, kinds, size)
    while c.sum() > size:
        c[int(rng.choice(np.flatnonzero(c)))] -= 1
    return _swap(rng, c, kinds, int(rng.integers(0, 3)))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_random_hands_of_every_size(ruleset):
    rs = get_ruleset(ruleset)
    rng = np.random.default_rng(1414)
    wall = np.repeat(np.array(rs.kinds), 4)
    for i in range(600):
        size = (14, 14, 11, 8, 5)[i % 5]
        c = np.bincount(rng.choice(wall, size=size, replace=False), minlength=34).astype(np.uint8)
        unseen = [int(max(-1, 4 - c[k] - rng.integers(0, 3))) for k in range(34)]
        _check(c, ruleset, unseen)


@pytest.mark.parametrize("seed, form", [(1, "orphans"), (2, "honors_knitted"), (3, "knitted_straight")])
def test_hands_near_the_special_forms(seed, form):
    rng = np.random.default_rng(seed)
    for i in range(400):
        size = 14 if form != "knitted_straight" else (14, 11)[i % 2]
        _check(_near_special(rng, form, size), "public")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_hands_of_greedy_rounds(ruleset):
    """Every hand a greedy bot discards from in a few rounds (dense ties, few live tiles)."""
    players = 4 if ruleset == "public" else 2
    bots = [GreedyBot() for _ in range(players)]
    checked = 0
    for seed in range(8):
        rnd = Round(ruleset, seed=seed)
        while not rnd.is_over:
            seat = rnd.seats_to_act()[0]
            legal = rnd.legal_indices(seat)
            if any(i < 34 for i in legal):
                c = rnd.hand_counts(seat)
                unseen = [int(4 - c[k] - v) for k, v in enumerate(rnd.visible_counts())]
                discards = sum(1 << i for i in legal if i < 34)
                _check(c, ruleset, unseen, discards)
                checked += 1
            rnd.step(seat, bots[seat].act_index(rnd, seat))
    assert checked > 40
