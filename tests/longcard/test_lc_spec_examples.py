"""Every worked example of the long-card spec (changpai.md 2.9, 4.8, 4.9 X1-X16, fan parts of 5.5),
with the spec's exact numbers, through the public API and the pure-Python reference."""

from __future__ import annotations

import pytest
from mahjong_core.errors import NotWinningHandError, TileCountError
from mahjong_core.families import longcard as lc
from mahjong_core.families.longcard import counting
from mahjong_core.families.longcard._ref import hand as _ref

X1_DECL = ["peng 11×3", "sha 44×4", "sha 66×4"]
X1_HAND = "46 46 13 16 34 25 14 14 55 55 55"
X4_DECL = ["tuhuo_xiang 44×5", "peng 55×3", "sha 33×4", "tuhuo_xiang 56×5"]
X4_HAND = "14 14 14 22 22 22 26 26"
X5_DECL = ["peng 44×3", "peng 11×3", "peng 66×3"]
X5_HAND = "46 46 13 16 34 25 24 24 35 14 14"
X6_DECL = ["peng 66×3", "peng 45×3", "peng 15×3"]
X6_HAND = "46 46 12 12 56 16 34 25 24 24 26"
X9_DECL = ["peng 11×3", "peng 66×3", "peng 14×3"]
X9_HAND = "44 44 44 15 15 16 34 25 13 13 55"
X10_DECL = ["peng 44×3", "peng 15×3", "peng 22×3", "peng 35×3"]
X10_HAND = "11 11 11 66 66 66 33 33"
X11_DECL = ["peng 11×3", "peng 66×3", "sha 44×4"]
X11_HAND = "46 46 13 14 14 16 34 25 24 24 26"
X12_DECL = ["peng 44×3", "peng 15×3", "peng 66×3"]
X12_HAND = "16 34 25 46 46 22 24 24 26 11 11"
X13_DECL = ["peng 55×3", "peng 44×3", "sha 26×4", "peng 22×3"]
X13_HAND = "14 14 14 33 33 33 35 35"

# id: (banker, declared, hand, card, keywords, fan, 陀, 梯坎番 points, 番乘番 points)
WINS = {
    "X1": (False, X1_DECL, X1_HAND, "36", {"jiang": "36 25"}, 4, 43, 5, 16),
    "X2": (False, X1_DECL, X1_HAND, "45", {"jiang": "36 25"}, 4, 44, 5, 16),
    "X3": (True, X1_DECL, X1_HAND, "36", {"jiang": "36 25"}, 3, 43, 4, 8),
    "X4": (True, X4_DECL, X4_HAND, "26", {"jiang": "13 12", "caishen": 1}, 8, 50, 9, 256),
    "X4-xiang-bonus": (True, X4_DECL, X4_HAND, "26", {"jiang": "13 12", "caishen": 1,
                                                      "xiang_bonus_on_fan_faces": True}, 9, 50, 10, 512),
    "X4-cap4": (True, X4_DECL, X4_HAND, "26", {"jiang": "13 12", "caishen": 1, "fan_cap": 4}, 4, 50, 5, 16),
    "X5": (False, X5_DECL, X5_HAND, "36", {"jiang": "44 44"}, 5, 33, 6, 32),
    "X5-wumenjiang-off": (False, X5_DECL, X5_HAND, "36", {"jiang": "44 44", "wumenjiang": False}, 2, 33, 3, 4),
    "X6": (False, X6_DECL, X6_HAND, "13", {}, 0, 33, 1, 1),
    "X9": (False, X9_DECL, X9_HAND, "24", {}, 2, 34, 3, 4),
    "X10": (False, X10_DECL, X10_HAND, "33", {}, 4, 44, 5, 16),
    "X11": (True, X11_DECL, X11_HAND, "45", {"jiang": "CS 11", "caishen": 1}, 7, 38, 8, 128),
    "X12": (False, X12_DECL, X12_HAND, "11", {}, 2, 38, 3, 4),
    "X13": (False, X13_DECL, X13_HAND, "35", {"jiang": "55 55"}, 5, 38, 6, 32),
    "X13-wumenjiang-off": (False, X13_DECL, X13_HAND, "35", {"jiang": "55 55", "wumenjiang": False}, 3, 38, 4, 8),
}


def _ref_best(banker, declared, hand, card, kw):
    counts = lc.to_counts(hand + " " + card)
    groups = lc.parse_declared(declared)
    opts = {k: v for k, v in kw.items() if k not in ("jiang", "caishen")}
    weights = lc.face_weights(kw.get("jiang"), wumenjiang=opts.get("wumenjiang", True))
    return _ref.best_win(list(counts), groups, banker, weights=weights, caishen=kw.get("caishen", 0), options=opts)


@pytest.mark.parametrize("case", list(WINS))
def test_win_fan_tuo_and_points(case):
    banker, declared, hand, card, kw, fan, tuo, tikan, fcf = WINS[case]
    s = lc.score(hand, card, declared=declared, banker=banker, **kw)
    assert (s.total, s.tuo) == (fan, tuo)
    assert (s.points(), s.points("fan_cheng_fan")) == (tikan, fcf)
    assert sum(f.total for f in s.fans) == s.fan                 # the breakdown adds up (before the cap)
    assert len(s.groups) == 7 and s.tuo == sum(g.tuo for g in s.groups)
    assert lc.is_win(lc.to_counts(hand + " " + card), declared=declared, banker=banker)
    best = _ref_best(banker, declared, hand, card, kw)
    assert best is not None and (best[0], best[2]) == (fan, tuo)


def _fans(s):
    return {(f.id, f.name): f.total for f in s.fans}


def test_w1_breakdown_and_split():
    """W1 (= X1): the decomposition is unique; 幺四 and 36 (a 将 face) inside 吃 groups bear no fan."""
    s = lc.score(X1_HAND, "36", declared=X1_DECL, jiang="36 25")
    assert sorted(g.cards for g in s.concealed_groups) == sorted([(2, 17, 17), (3, 3, 14), (5, 9, 12), (18, 18, 18)])
    assert [g.tuo for g in s.declared] == [8, 12, 12] and sorted(g.tuo for g in s.concealed_groups) == [2, 2, 3, 4]
    assert _fans(s) == {("peng", "碰地牌"): 1, ("sha", "杀人牌"): 2, ("gaohu", "高胡"): 1}


def test_w2_breakdown():
    s = lc.score(X4_HAND, "26", declared=X4_DECL, banker=True, jiang="13 12", caishen=1)
    assert s.fan_counts == {"xiang": 3, "xiang_bonus": 1, "peng": 1, "gaohu": 1, "duidui": 1, "caishen": 1}
    assert s.fan == 8 and lc.score(X4_HAND, "26", declared=X4_DECL, banker=True, jiang="13 12", caishen=1,
                                   fan_cap=4).fan == 8


def test_w3_weight_four_for_ren_as_both_jiang():
    s = lc.score(X5_HAND, "36", declared=X5_DECL, jiang="44 44")
    assert _fans(s) == {("peng", "碰人牌"): 4, ("peng", "碰地牌"): 1}
    assert lc.face_weights("44 44")[15] == 4


def test_x10_two_decompositions_larger_fan_chosen():
    s = lc.score(X10_HAND, "33", declared=X10_DECL)
    assert sorted(g.cards for g in s.concealed_groups) == [(0, 0, 0), (11, 11, 11), (20, 20, 20)]
    assert s.fan_counts == {"peng": 2, "duidui": 1, "gaohu": 1}
    # the other reading B: [11 11 66] [11 66 66] [33×3] with 陀 34 is also a win, worth 1
    wins = _ref.winning_decompositions(list(lc.to_counts(X10_HAND + " 33")), lc.parse_declared(X10_DECL), False)
    assert sorted(t for _, t in wins) == [34, 44]


def test_x11_caishen_j1_counts_as_j2():
    assert lc.parse_jiang("CS 11") == (0, 0)
    assert lc.face_weights("CS 11")[0] == 4
    assert lc.parse_jiang("11 CS") == (0, 3)       # a 财神 J2 counts as 幺四
    assert lc.parse_jiang("CS CS") == (3, 3)       # both: 幺四 twice (CP-41)


@pytest.mark.parametrize("card, why", [("22", "陀 32 < 33"), ("55", "no split")])
def test_x7_x8_no_win(card, why):
    counts = lc.to_counts(X6_HAND + " " + card)
    assert not lc.is_win(counts, declared=X6_DECL)
    assert not _ref.is_win(list(counts), lc.parse_declared(X6_DECL))
    with pytest.raises(NotWinningHandError, match=why):
        lc.score(X6_HAND, card, declared=X6_DECL)


def test_x7_shape_completes_but_tuo_short():
    s_counts = list(lc.to_counts(X6_HAND + " 22"))
    assert _ref.decompositions(s_counts)       # the shape is complete: [46 46 22] = 2
    assert _ref.winning_decompositions(s_counts, lc.parse_declared(X6_DECL), False) == []


def test_x9_needs_split_kan():
    counts = lc.to_counts(X9_HAND + " 24")
    assert lc.is_win(counts, declared=X9_DECL)
    assert not lc.is_win(counts, declared=X9_DECL, win_split_kan=False)
    assert not _ref.is_win(list(counts), lc.parse_declared(X9_DECL), win_split_kan=False)
    s = lc.score(X9_HAND, "24", declared=X9_DECL)
    assert {(8, 15, 15), (4, 4, 15)} <= {g.cards for g in s.concealed_groups}   # [44 44 24] [44 15 15]


WAITS = {
    "X6": (X6_DECL, X6_HAND, {}, {2: (0, 33), 17: (0, 38)}),
    "X9": (X9_DECL, X9_HAND, {}, {4: (4, 44), 8: (2, 34), 10: (3, 38), 11: (2, 33), 13: (3, 38), 15: (3, 39)}),
    "X9-no-split": (X9_DECL, X9_HAND, {"win_split_kan": False}, {4: (4, 44), 10: (3, 38), 13: (3, 38), 15: (3, 39)}),
    "X12": (X12_DECL, X12_HAND, {}, {0: (2, 38), 20: (1, 33)}),
}


@pytest.mark.parametrize("case", list(WAITS))
def test_waits(case):
    declared, hand, kw, expected = WAITS[case]
    assert lc.wait_scores(hand, declared=declared, **kw) == expected
    assert lc.waits(hand, declared=declared, **kw) == sorted(expected)
    opts = dict(kw)
    assert _ref.waits(list(lc.to_counts(hand)), lc.parse_declared(declared), weights=lc.face_weights(None),
                      options=opts) == expected


def test_x6_wait_46_even_if_all_dead():
    """46 is a wait by the rules even if every other 46 is dead (the 5-copy cap is no liveness test)."""
    assert 17 in lc.waits(X6_HAND, declared=X6_DECL)


def test_x12_best_win():
    assert max(fan for fan, _ in lc.wait_scores(X12_HAND, declared=X12_DECL).values()) == 2


def test_illegal_wait_all_five_owned():
    """A hand holding (45×3) 碰 and 45 45 concealed owns all five 45: 45 is never a wait."""
    declared = ["peng 45×3", "peng 66×3", "peng 11×3"]
    hand = "45 45 46 46 13 16 34 25 24 24 35"   # 45 45 could only be completed by a 6th copy
    assert 16 not in lc.waits(hand, declared=declared)
    assert 16 not in _ref.waits(list(lc.to_counts(hand)), lc.parse_declared(declared), weights=lc.face_weights(None))
    with pytest.raises(TileCountError, match="6 copies of 45"):
        lc.score(hand, "45", declared=declared)


# -------------------------------------------------------------------- 2.9 counting example C1
C1_HAND = "44 44 44 14 14 55 55 16 34 56 12 23 26 35 46 11 25"
C1_DECL = ["peng 66 66 66"]


def _dead(**faces):
    d = [0] * 21
    for pips, n in faces.items():
        d[lc.parse_card(pips[1:])] = n
    return d


def test_c1_qualified():
    c = counting.counting_summary(C1_HAND, C1_DECL)
    assert (c.mao, c.t_max, c.qualified) == (7, 37, True)
    assert c.live[15] == 2 and c.live[3] == 3 and c.live[18] == 3


def test_c1_after_another_player_pengs_yaosi():
    c = counting.counting_summary(C1_HAND, C1_DECL, _dead(f14=3))
    assert c.live[3] == 0
    assert (c.mao, c.t_max, c.qualified) == (7, 32, False)
    assert counting.is_effective(3, 3, c.live)            # still effective through 吃 with a live 9


def test_c1_other_ren_dead():
    c = counting.counting_summary(C1_HAND, C1_DECL, _dead(f44=2))
    assert (c.mao, c.t_max, c.qualified) == (6, 33, False)


def test_chi_tuo_examples():
    """2.2: [66 66 11] = 3, [55 55 13] = 1, [16 25 34] = 2, [26 26 33] = 0."""
    assert [lc.group_tuo("chi", lc.parse_cards(t)) for t in ("66 66 11", "55 55 13", "16 25 34", "26 26 33")] \
        == [3, 1, 2, 0]


# -------------------------------------------------------------------- 5.5 settlement (fan parts)
def test_settlement_w1_w2_and_cap():
    assert [lc.settlement_points(n) for n in (4, 8)] == [5, 9]
    assert [lc.settlement_points(n, "fan_cheng_fan") for n in (4, 8)] == [16, 256]
    s = lc.score(X4_HAND, "26", declared=X4_DECL, banker=True, jiang="13 12", caishen=1, fan_cap=4)
    assert (s.points(), s.points("fan_cheng_fan")) == (5, 16)
    assert 2 * lc.score(X1_HAND, "36", declared=X1_DECL, jiang="36 25").points() == 10   # winner +10


def test_baozi_not_ready_peng_di_and_caishen():
    """包子, not ready, holds (11 11 11) 碰 地 and 1 财神: H = 2, N = max(3, 2) = 3 -> 4 / 8 each."""
    hand = "12 56 23 36 26 35 46 13 13 22 25 14 45 24 55 66 33"   # 17 concealed cards, no wait
    assert lc.waits(hand, declared=["peng 11×3"]) == []
    assert counting.held_fan(hand, ["peng 11×3"], caishen=1) == 2
    n = counting.baozi_fan(hand, ["peng 11×3"], caishen=1)
    assert n == 3 and (lc.settlement_points(n), lc.settlement_points(n, "fan_cheng_fan")) == (4, 8)


def test_baozi_ready_best_win_5():
    """包子, ready with best_win = 5: 6 / 32 each.  The spec gives no hand; X13's hand before its card has
    best_win 5 (waits 15 -> 4, 24 -> 4, 33 -> 4, 35 -> 5)."""
    assert lc.wait_scores(X13_HAND, declared=X13_DECL, jiang="55 55") == {4: (4, 35), 8: (4, 35), 11: (4, 34),
                                                                         13: (5, 38)}
    n = counting.baozi_fan(X13_HAND, X13_DECL, jiang="55 55")
    assert n == 5 and (lc.settlement_points(n), lc.settlement_points(n, "fan_cheng_fan")) == (6, 32)


def test_x14_baozi_held_fan_4():
    """X14: (44×4) 杀 人 (2), (56×5) 吐火响 斧头 (+1), 1 财神 (+1): H = 4 -> 5 / 16."""
    declared = ["sha 44×4", "tuhuo_xiang 56×5"]
    hand = "12 23 36 26 35 46 13 22 25 45 24 55 33 15"   # 14 concealed cards, not ready
    assert lc.waits(hand, declared=declared) == []
    assert counting.held_fan(hand, declared, caishen=1) == 4
    n = counting.baozi_fan(hand, declared, caishen=1)
    assert (n, lc.settlement_points(n), lc.settlement_points(n, "fan_cheng_fan")) == (4, 5, 16)


def test_x15_baozi_ready_best_win_2():
    n = counting.baozi_fan(X12_HAND, X12_DECL)
    assert (n, lc.settlement_points(n), lc.settlement_points(n, "fan_cheng_fan")) == (3, 4, 8)


def test_x16_baozi_ready_ping_hu():
    n = counting.baozi_fan(X6_HAND, X6_DECL)
    assert (n, lc.settlement_points(n), lc.settlement_points(n, "fan_cheng_fan")) == (3, 4, 8)


def test_baozi_cap_applies():
    assert counting.baozi_fan(X13_HAND, X13_DECL, jiang="55 55", fan_cap=4) == 4
    assert counting.baozi_fan(X6_HAND, X6_DECL, fan_cap=3) == 3          # the lowest cap settles the minimum 3
