"""The compiled counting (``_lc_hand.counting``, ``_lc_hand.group_count``) against the pure-Python
oracle (``counting.counting_summary``, ``round_counting.groups_max``): the spec's example C1, every
option, seeded random hands with declared groups and dead copies, small hands exhaustively, hypothesis;
and the Python-boundary checks of both functions."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mahjong_core.errors import (
    ArrayShapeError,
    HandSizeError,
    RulesetError,
    TileCountError,
)
from mahjong_core.families.longcard import counting
from mahjong_core.families.longcard.groups import Group
from mahjong_core.families.longcard.round_counting import groups_max
from mahjong_core.families.longcard.sampling import random_deal, random_group_hand

from mahjong_core import _lc_hand

OPTION_SETS = [{"mao_bonus": m, "tmax_quad_value": q, "chi_may_use_kan": k}
               for m in ("live", "any", "s1", "off") for q in ("xiang", "weixiang") for k in (False, True)]


def check(counts, declared, dead, opts) -> tuple[int, int]:
    want = counting.counting_summary(np.asarray(counts, np.uint8), declared, dead, **opts)
    got = _lc_hand.counting(np.asarray(counts, np.uint8), declared, dead, **opts)
    assert got == (want.mao, want.t_max), (list(counts), declared, list(dead), opts)
    return got


def _random_case(rng):
    """Concealed counts (a group hand with a card removed or not, or a random deal), declared groups,
    and dead copies drawn from what is left of the deck."""
    if rng.random() < 0.5:
        counts, declared = random_group_hand(rng)
        counts = counts.copy()
        if rng.random() < 0.5:
            counts[int(rng.choice(np.flatnonzero(counts)))] -= 1
    else:
        counts, declared = random_deal(rng, int(rng.integers(3, 22)))[0], ()
    left = 5 - counts.astype(np.int64)
    for g in declared:
        for c in g.cards:
            left[c] -= 1
    dead = np.array([rng.integers(0, n + 1) if rng.random() < 0.35 else 0 for n in left], np.uint8)
    return counts, declared, dead


def test_spec_example_c1():
    hand = "44 44 44 14 14 55 55 16 34 56 12 23 26 35 46 11 25"
    assert _lc_hand.counting(hand, ["peng 66×3"]) == (7, 37)
    check(counting.to_counts(hand), ["peng 66×3"], None, {})


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: "-".join(str(v) for v in o.values()))
def test_seeded_hands_every_option(opts):
    rng = np.random.default_rng(sum(map(ord, str(opts))))
    for _ in range(120):
        check(*_random_case(rng), opts)


def test_small_hands_exhaustive_in_one_component():
    """Every count vector of 0-3 copies over the six faces of the largest point class, with and
    without a live copy of each face."""
    faces = _lc_hand.table_info()["components"][4]
    for ns in itertools.product(range(4), repeat=len(faces)):
        counts = np.zeros(21, np.uint8)
        counts[faces] = ns
        dead = np.zeros(21, np.uint8)
        dead[faces[sum(ns) % len(faces)]] = 5 - counts[faces[sum(ns) % len(faces)]]
        for opts in ({}, {"chi_may_use_kan": True, "mao_bonus": "any"}):
            check(counts, (), dead, opts)
        if sum(ns) <= 21:
            assert _lc_hand.group_count(counts) == groups_max(tuple(int(x) for x in counts))


def test_declared_weixiang_counts_as_a_growing_unit():
    hand = "44 44 44 14 14 55 55 16 34 56 12 23 26 35"
    for dead in (None, "66"):
        check(counting.to_counts(hand), [Group("tuhuo_weixiang", (20,) * 4), "peng 11×3"],
              counting._dead_counts(dead) if dead else None, {})


def test_group_count_seeded():
    rng = np.random.default_rng(5)
    for _ in range(400):
        counts = random_deal(rng, int(rng.integers(0, 22)))[0]
        assert _lc_hand.group_count(counts) == groups_max(tuple(int(x) for x in counts))


@st.composite
def cases(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    return (*_random_case(rng), draw(st.sampled_from(OPTION_SETS)))


@settings(max_examples=200, deadline=None)
@given(cases())
def test_hypothesis_counting(case):
    check(*case)


def test_dead_forms_and_boundary_errors():
    hand = "44 44 44 14 14 55 55 16 34 56 12 23 26 35 46 11 25"
    base = _lc_hand.counting(hand, ["peng 66×3"], "14 14 14")
    assert base == _lc_hand.counting(hand, ["peng 66×3"], counting._dead_counts("14 14 14"))
    assert base == _lc_hand.counting(hand, ["peng 66×3"], bytes(counting._dead_counts("14 14 14")))
    assert base == check(counting.to_counts(hand), ["peng 66×3"], counting._dead_counts("14 14 14"), {})
    with pytest.raises(TileCountError, match="deck holds 5"):
        _lc_hand.counting(hand, ["peng 66×3"], "44 44 44")
    with pytest.raises(ArrayShapeError):
        _lc_hand.counting(hand, None, [1, 2, 3])
    with pytest.raises(TileCountError):
        _lc_hand.counting(hand, None, bytes([6] + [0] * 20))
    with pytest.raises(RulesetError, match="mao_bonus"):
        _lc_hand.counting(hand, mao_bonus="sometimes")
    with pytest.raises(RulesetError, match="tmax_quad_value"):
        _lc_hand.counting(hand, tmax_quad_value=4)
    with pytest.raises(RulesetError, match="chi_may_use_kan"):
        _lc_hand.counting(hand, chi_may_use_kan="yes")
    with pytest.raises(HandSizeError):
        _lc_hand.group_count(np.full(21, 2, np.uint8))
    with pytest.raises(TileCountError):
        _lc_hand.group_count(bytes([7] + [0] * 20))


def _fan_kw(rng):
    return {"jiang": (int(rng.integers(22)), int(rng.integers(22))) if rng.random() < 0.7 else None,
            "caishen": int(rng.integers(0, 4)), "wumenjiang": bool(rng.random() < 0.8),
            "wumenjiang_weight": ("power_of_two", "no_upgrade")[int(rng.integers(2))],
            "xiang_bonus_on_fan_faces": bool(rng.random() < 0.3), "kan_as_peng": bool(rng.random() < 0.8)}


def check_fan(counts, declared, dead, kw) -> int:
    want = counting.theoretical_fan(np.asarray(counts, np.uint8), declared, dead, **kw)
    got = _lc_hand.theoretical_fan(np.asarray(counts, np.uint8), declared, dead, **kw)
    assert got == want, (list(counts), declared, list(dead), kw)
    return got


def test_theoretical_fan_seeded():
    rng = np.random.default_rng(11)
    for _ in range(600):
        check_fan(*_random_case(rng), _fan_kw(rng))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_hypothesis_theoretical_fan(seed):
    rng = np.random.default_rng(seed)
    check_fan(*_random_case(rng), _fan_kw(rng))


def test_theoretical_fan_examples_and_errors():
    # 地 pair with a live 地 -> 碰 (w 1); 人 triple with a live copy -> 杀 (2); declared 吐火未响 天 with
    # the 5th 天 live -> 响 (3 x 0 + the 响 bonus of a face without fan); 2 财神
    hand = "11 11 44 44 44 12 13 14 15"
    assert _lc_hand.theoretical_fan(hand, ["tuhuo_weixiang 66×4"], caishen=2) == 1 + 2 + 1 + 2
    # every other 天 and 地 dead: the 吐火 stays 未响 (0 for a face without fan), the 地 pair no 碰
    assert _lc_hand.theoretical_fan(hand, ["tuhuo_weixiang 66×4"], "66 11 11 11", caishen=2) == 2 + 2
    check_fan(counting.to_counts(hand), ["tuhuo_weixiang 66×4"], counting._dead_counts("66 11 11 11"),
              {"caishen": 2})
    with pytest.raises(TileCountError):
        _lc_hand.theoretical_fan(hand, caishen=6)
    with pytest.raises(RulesetError, match="kan_as_peng"):
        _lc_hand.theoretical_fan(hand, kan_as_peng=None)
