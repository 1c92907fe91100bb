"""The compiled search (``mahjong_core._advise``: enumeration, pruning of rows that cannot be an
answer, fewest draws) held to the pure-Python search it replaced, field for field, on the
advisor and on the fan-aware shanten with its breakdown; the reference holds both
(test_fan_shanten, test_advise)."""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong_core.families.mahjong.advise import advise_problem
from mahjong_core.families.mahjong.fan_shanten import distinct_rows, prepare, solve

import mahjong_core as mj
from tests.advisor.hands import near_complete, near_special

_SLOW = [HealthCheck.too_slow, HealthCheck.filter_too_much]


@st.composite
def random_hand(draw, ruleset: str) -> np.ndarray:
    """14 tiles drawn from the ruleset's wall, as a player holds them early in a round."""
    wall = [t for t in mj.get_ruleset(ruleset).kinds for _ in range(4)]
    picks = draw(st.lists(st.integers(0, len(wall) - 1), min_size=14, max_size=14, unique=True))
    return np.bincount([wall[i] for i in picks], minlength=34).astype(np.uint8)


def _both_advise(ruleset: str, hand, **kw) -> None:
    prob = prepare(hand, ruleset=ruleset, tiles=14, **kw)
    assert advise_problem(prob, 6) == advise_problem(prob, 6, compiled=False)


@settings(max_examples=25, deadline=None, suppress_health_check=_SLOW)
@given(hand=random_hand("two-player"))
def test_advise_random_two_player(hand):
    _both_advise("two-player", hand)


@settings(max_examples=6, deadline=None, suppress_health_check=_SLOW)
@given(hand=random_hand("public"))
def test_advise_random_public(hand):
    _both_advise("public", hand)


@settings(max_examples=15, deadline=None, suppress_health_check=_SLOW)
@given(case=near_complete("public", max_swaps=2, max_melds=2), extra=st.integers(0, 33))
def test_advise_near_complete_public_with_context(case, extra):
    hand = case["hand"].copy()
    melds_at = [0] * 34
    for _, g in case["melds"]:
        for t in g:
            melds_at[t] += 1
    if hand[extra] + melds_at[extra] + case["visible"][extra] >= 4:
        return
    hand[extra] += 1
    _both_advise("public", hand, melds=case["melds"],
                 visible=case["visible"], win=case["win"], seat_wind=case["seat_wind"],
                 round_wind=case["round_wind"], min_fan=case["min_fan"])


@settings(max_examples=20, deadline=None, suppress_health_check=_SLOW)
@given(case=near_complete("two-player", max_swaps=3, max_melds=1))
def test_fan_shanten_with_breakdown_two_player(case):
    prob = prepare(case["hand"], ruleset="two-player", tiles=13,
                   melds=case["melds"],
                   visible=case["visible"], win=case["win"], min_fan=case["min_fan"])
    assert solve(prob, 6, True) == solve(prob, 6, True, compiled=False)


@settings(max_examples=8, deadline=None, suppress_health_check=_SLOW)
@given(hand=near_special())
def test_fan_shanten_special_forms(hand):
    prob = prepare(hand, ruleset="public", tiles=13)
    assert solve(prob, 4, True) == solve(prob, 4, True, compiled=False)


@given(rows=st.lists(st.lists(st.integers(0, 4), min_size=34, max_size=34), max_size=30))
def test_distinct_rows_is_unique(rows):
    a = np.array(rows, np.int16).reshape(-1, 34)
    got = distinct_rows(a)
    assert sorted(map(bytes, got.astype(np.uint8))) == sorted(map(bytes, np.unique(a, axis=0).astype(np.uint8)))
