"""The discard advisor: every field on hands counted by hand, the ranking, errors, and the
effective tiles and completion counts held to a brute force."""

from __future__ import annotations

import doctest
from math import comb, perm

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mahjong_core.errors import (
    HandSizeError,
    RulesetError,
    TileCountError,
    TileParseError,
)
from mahjong_core.families.mahjong import advise as advise_module
from mahjong_core.families.mahjong.fan_shanten import fan_shanten
from mahjong_core.families.mahjong._ref.fan_shanten import (
    fan_shanten_ref,
    lowering_kinds,
    winning_orders,
)

import mahjong_core as mj
from tests.advisor.hands import near_complete

T = mj.parse_tiles


def _one(tile: str) -> int:
    (t,) = T(tile)
    return t


def _option(advice: mj.Advice, tile: str) -> mj.DiscardOption:
    return next(o for o in advice.options if o.discard == _one(tile))


def test_doctests():
    result = doctest.testmod(advise_module)
    assert result.attempted >= 3 and result.failed == 0


def test_nine_gates_every_field():
    # 1112345678999m + 5m in two-player: 16 kinds x 4 = 64 tiles, 14 held, 50 unseen.  Discarding
    # 5m leaves 九莲宝灯 (88): ready on 1m-9m, every win over the minimum.  Live: 1m and 9m 4-3,
    # 5m 4-2 (the discarded copy is seen), the others 4-1: 1+3+3+3+2+3+3+3+1 = 22.
    a = mj.advise("1112345678999m5m", ruleset="two-player")
    assert (a.ruleset, a.min_fan, a.unseen) == ("two-player", 8, 50)
    best = a.best
    assert best.discard_tile == "5m"
    assert (best.fan_shanten, best.fan_exact, best.shanten) == (0, True, 0)
    assert [(e.tile, e.live) for e in best.effective] == list(zip(range(9), [1, 3, 3, 3, 2, 3, 3, 3, 1]))
    assert best.live_total == 22
    assert best.ways == 22 and best.probability == pytest.approx(22 / 50)
    # discarding 2m leaves 111345 5678 999m: every wait is a 清一色 (24) win, so the effective
    # tiles are the plain waits 2m 4m 5m 7m 8m: 3+3+2+3+3 = 14
    two = _option(a, "2m")
    assert (two.fan_shanten, two.shanten) == (0, 0)
    assert [e.tile for e in two.effective] == mj.waits("1113455678999m", ruleset="two-player") == [1, 3, 4, 6, 7]
    assert two.live_total == two.ways == 14
    assert [o.discard_tile for o in a.options[:3]] == ["5m", "2m", "8m"]   # 22, then 14 and 14 by tile
    assert {o.discard for o in a.options} == set(range(9))                 # one option per distinct tile


def test_thirteen_orphans():
    # 19m19p19sESWNCFP + P: discarding P waits on all 13 (three live copies each, P two): 38 of 122
    a = mj.advise("19m19p19sESWNCFPP", ruleset="public")
    assert a.unseen == 136 - 14
    best = a.best
    assert best.discard_tile == "P" and best.fan_shanten == 0
    assert [e.live for e in best.effective] == [3] * 12 + [2]
    assert best.live_total == best.ways == 38 and best.probability == pytest.approx(38 / 122)
    one = _option(a, "1m")           # then only 1m completes it (4 - 1 held - 0 seen ... = 3)
    assert [(e.tile, e.live) for e in one.effective] == [(0, 3)]
    assert one.ways == 3


def test_fan_aware_ranking_beats_plain_shanten():
    # 55789m 678p 345s S CC (public).  Discarding S is ready (5m / C) but every win is short:
    # 5m scores 门前清 2 (不求人 4 self-drawn), C 箭刻 + 门前清 4 (6).  Discarding 5m keeps S and CC:
    # drawing S (3 live) or C (2 live) heads for 五门齐 (6) + 箭刻 or 门前清, over 8.  The orders of
    # two unseen tiles that finish it: S then S (3 x 2 copies) and S, C in either order (the
    # single wait on S and the C pung both score enough: 2 x 3 x 2), 18 of the 122 x 121.
    hand = "55789m678p345sSCC"
    for w, totals in (("5m", (2, 4)), ("C", (4, 6))):
        got = tuple(mj.score("55789m678p345sCC", w, ruleset="public", self_drawn=sd).non_flower_total
                    for sd in (False, True))
        assert got == totals
    a = mj.advise(hand, ruleset="public")
    s = _option(a, "S")
    assert (s.shanten, s.fan_shanten) == (0, 2)
    best = a.best
    assert best.discard_tile == "5m"
    assert (best.shanten, best.fan_shanten) == (1, 1)
    assert [(mj.format_tiles([e.tile]), e.live) for e in best.effective] == [("S", 3), ("C", 2)]
    assert best.live_total == 5 and best.ways == 18
    assert best.probability == pytest.approx(18 / (122 * 121)) == pytest.approx(9 / comb(122, 2))
    by = {t.fan: t.shanten for t in a.targets}
    assert by["full_flush"] is None or by["full_flush"] >= 2


def test_visible_tiles_cut_live_counts():
    a = mj.advise("1112345678999m5m", ruleset="two-player", visible="1m 9m 春")   # the flower is ignored
    assert a.unseen == 48
    best = a.best
    assert [e.tile for e in best.effective] == list(range(1, 8))     # no 1m and no 9m left
    assert best.live_total == 20 and best.ways == 20


def test_melds_and_winds():
    # 123m 456p 789s = 花龙 (8): whichever of 1p / E goes, the other is a qualifying single wait
    a = mj.advise("123m456p789s1pE", ruleset="public", melds=["pon WWW"], seat_wind="W")
    assert a.melds == ((1, 29),)
    best = a.best
    assert best.fan_shanten == 0 and best.discard_tile in ("1p", "E")
    assert {o.discard_tile: o.fan_shanten for o in a.options}["1p"] == 0
    j = a.to_json()
    assert j["melds"] == ["pon WWW"]


def test_ranking_order():
    a = mj.advise("3457m677889p24sNN", ruleset="public")
    keys = [(o.fan_shanten, not o.fan_exact, -o.live_total, -o.ways, o.shanten, o.discard) for o in a.options]
    assert keys == sorted(keys)


@pytest.mark.parametrize("hand, kwargs, error, match", [
    ("1112345678999m", {}, HandSizeError, "must discard has 14"),
    ("1112345678999m5m5m", {}, HandSizeError, "15 tiles"),
    ("1112345678999m5m", {"visible": "5m5m5m"}, TileCountError, "5m: 2 in hand, 0 in melds and 3 visible"),
    ("1112345678999m5m", {"visible": [0] * 33}, mj.ArrayShapeError, "34"),
    ("1112345678mE", {"melds": ["pon 111m"]}, TileCountError, "1m: 3 in hand, 3 in melds"),
    ("1112345678999p5p", {}, RulesetError, "1p"),
    ("1112345678999m5m", {"melds": ["pung EEE"]}, TileParseError, "pung"),
    ("1112345678999m5x", {}, TileParseError, "x"),
])
def test_bad_input(hand, kwargs, error, match):
    with pytest.raises(error, match=match):
        mj.advise(hand, ruleset="two-player", **kwargs)


def test_results_are_immutable_and_json():
    a = mj.advise("1112345678999m5m", ruleset="two-player")
    with pytest.raises(AttributeError):
        a.options = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        a.best.ways = 0  # type: ignore[misc]
    j = a.to_json()
    assert j["hand"] == "1112345678999m5m" or sorted(T(j["hand"])) == sorted(T("1112345678999m5m"))
    first = j["options"][0]
    assert first == {"discard": "5m", "fan_shanten": 0, "fan_exact": True, "shanten": 0,
                     "effective": [{"tile": f"{r}m", "live": n} for r, n in zip(range(1, 10), [1, 3, 3, 3, 2, 3, 3, 3, 1])],
                     "live_total": 22, "ways": 22, "probability": 0.44}


# ------------------------------------------------------------------ brute force
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(case=near_complete("two-player", max_swaps=2, max_melds=1), extra=st.integers(0, 15))
def test_effective_tiles_and_ways_equal_brute_force(case, extra):
    rs = mj.get_ruleset("two-player")
    hand = case["hand"].copy()
    melds = case["melds"]
    meld_counts = np.zeros(34, np.int64)
    for _, tiles in melds:
        for t in tiles:
            meld_counts[t] += 1
    t = rs.kinds[extra]
    if hand[t] + meld_counts[t] + case["visible"][t] >= 4:
        return
    hand[t] += 1
    ctx = {"ruleset": "two-player", "melds": melds, "win": case["win"], "min_fan": case["min_fan"]}
    a = mj.advise(hand, visible=case["visible"], **ctx)
    live = [4 - int(hand[k]) - int(meld_counts[k]) - case["visible"][k] if k in rs.kinds else 0 for k in range(34)]
    assert a.unseen == sum(live)
    for o in a.options[:2]:
        if not o.fan_exact or o.fan_shanten > 1:
            continue
        after = hand.copy()
        after[o.discard] -= 1
        seen = list(case["visible"])
        seen[o.discard] += 1
        assert o.fan_shanten == fan_shanten_ref(after, visible=seen, max_draws=2, **ctx)
        assert o.fan_shanten == fan_shanten(after, visible=seen, breakdown=False, **ctx).shanten
        assert [e.tile for e in o.effective] == lowering_kinds(after, visible=seen, max_draws=2, **ctx)
        assert all(e.live == live[e.tile] for e in o.effective)
        assert o.live_total == sum(live[e.tile] for e in o.effective)
        ways = winning_orders(after, o.fan_shanten + 1, visible=seen, **ctx)
        assert o.ways == ways
        assert o.probability == pytest.approx(ways / perm(sum(live), o.fan_shanten + 1))


def test_search_limit_gives_lower_bounds():
    # 159m 159p 159s ESWNC: discarding a 5 leaves 十三幺 two tiles away (shanten 2); discarding an
    # orphan leaves three away.  The search always tries the first budget (plain shanten + 1 = 3
    # draws for the best discard) and stops there when max_draws is smaller: the orphan discards
    # then get the lower bound 3, no effective tiles, and rank after the exact ones.
    a = mj.advise("159m159p159sESWNC", ruleset="public", max_draws=1)
    exact = [o for o in a.options if o.fan_exact]
    inexact = [o for o in a.options if not o.fan_exact]
    assert [o.discard_tile for o in exact] == ["5m", "5p", "5s"] and all(o.fan_shanten == 2 for o in exact)
    assert a.options[:3] == tuple(exact)
    assert len(inexact) == 11
    assert all(o.fan_shanten == 3 and o.effective == () and o.live_total == o.ways == 0 for o in inexact)
    full = mj.advise("159m159p159sESWNC", ruleset="public")
    assert all(o.fan_exact and o.fan_shanten == 3 for o in full.options[3:])


def test_bad_visible_counts_are_named():
    with pytest.raises(TileCountError, match="^visible: count -1 for 1m"):
        mj.advise("1112345678999m5m", visible=np.full(34, -1))
    with pytest.raises(mj.ArrayShapeError, match="^visible: "):
        mj.advise("1112345678999m5m", visible=5)


def test_five_types_carry_the_best_discard():
    # 55789m678p345sSCC: the pair-breaking 5m leaves 5789m678p345sSCC, one draw from ready for
    # 五门齐 (6) + 箭刻 (2); every other discard is two away from the minimum
    a = mj.advise("55789m678p345sSCC", ruleset="public")
    assert (a.best.discard_tile, a.best.fan_shanten) == ("5m", 1)
    assert all(o.fan_shanten >= 2 for o in a.options[1:])
    assert {t.fan: t.shanten for t in a.targets}["all_types"] == 1


# ------------------------------------------------------------------ effective tiles lower the fan-aware shanten
def _best_after_draw(hand, tile: int, visible, **ctx) -> int:
    """The best fan-aware shanten over the discards of ``hand`` + ``tile`` (each discard counted
    as seen), by the fast search; -1 when ``tile`` wins with enough fans (the reference's win)."""
    drawn = list(hand)
    drawn[tile] += 1
    best = 99
    for e in range(34):
        if not drawn[e]:
            continue
        after = list(drawn)
        after[e] -= 1
        seen = list(visible)
        seen[e] += 1
        r = fan_shanten(after, visible=seen, breakdown=False, **ctx)
        best = min(best, r.shanten if r.exact else 99)
    return best


def _check_effective(hand14, ruleset: str, visible=None, **ctx) -> int:
    """Every exact option of ``advise`` with fan-aware shanten >= 1: its effective tiles are the
    kinds with a live copy whose draw, with the best discard, gives a lower fan-aware shanten."""
    visible = [0] * 34 if visible is None else list(visible)
    a = mj.advise(hand14, ruleset=ruleset, visible=visible, **ctx)
    checked = 0
    for o in a.options[:3]:
        if not o.fan_exact or o.fan_shanten < 1:
            continue
        hand = list(a.hand)
        hand[o.discard] -= 1
        seen = list(visible)
        seen[o.discard] += 1
        live = {t: 4 - hand[t] - seen[t] for t in mj.get_ruleset(ruleset).kinds}   # no melds here
        want = [t for t, n in sorted(live.items())
                if n and _best_after_draw(hand, t, seen, ruleset=ruleset, **ctx) < o.fan_shanten]
        assert [e.tile for e in o.effective] == want, o.discard_tile
        checked += 1
    return checked


def test_effective_leaves_out_a_tile_that_only_finishes_the_hand():
    # issue 25 item 12: after discarding E, 5m completes some qualifying wins only as the winning
    # tile (drawn last); drawn now it leaves the fan-aware shanten at 3, so it is no effective tile
    hand, visible = "236m112377p44sESF", "1p"
    a = mj.advise(hand, ruleset="public", visible=visible)
    e = _option(a, "E")
    assert (e.fan_shanten, e.fan_exact) == (3, True)
    after = [0] * 34
    for t in T(hand):
        after[t] += 1
    after[_one("E")] -= 1
    seen = [0] * 34
    for t in T(visible + "E"):
        seen[t] += 1
    assert _best_after_draw(after, _one("5m"), seen, ruleset="public") == 3
    assert _one("5m") not in [x.tile for x in e.effective]
    assert [mj.format_tiles([x.tile]) for x in e.effective] == \
        ["1m", "2m", "3m", "4m", "6m", "1p", "2p", "3p", "4p", "7p", "4s", "S", "F"]
    assert e.live_total == sum(x.live for x in e.effective) == 38


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=st.lists(st.integers(0, 63), min_size=14, max_size=14, unique=True))
def test_effective_is_what_lowers_the_shanten_two_player(picks):
    kinds = mj.get_ruleset("two-player").kinds
    hand = np.bincount([kinds[i // 4] for i in picks], minlength=34)
    _check_effective(hand, "two-player")


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=near_complete("public", max_swaps=3, max_melds=0), extra=st.integers(0, 33))
def test_effective_is_what_lowers_the_shanten_public(case, extra):
    hand = case["hand"].copy()
    if hand[extra] + case["visible"][extra] >= 4:
        return
    hand[extra] += 1
    _check_effective(hand, "public", case["visible"], win=case["win"], min_fan=case["min_fan"])
