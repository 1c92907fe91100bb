"""`mcr`'s choice between readings of equal total (``Ruleset.tie_division_order``).

The rulebook asks only for the highest total; when two readings of a hand reach it, PyMahjongGB
keeps the first its division search meets (tiles in its order 万 条 饼 then honours, lowest tile
first, a pung before a chow on the same tile).  `mcr` keeps the same reading so that its fan lists
match PyMahjongGB's, in the compiled evaluator and in the reference alike.  The hands below are
ones where the two libraries used to report different (equal-valued) fan lists.
"""

from __future__ import annotations

import pytest

import mahjong_core as mj
from mahjong_core.families.mahjong._ref import fan as ref
from mahjong_core.families.mahjong.rulesets import get_ruleset
from mahjong_core.families.mahjong.tiles import parse_tiles

# (concealed, winning tile, melds, flags, the fans expected, a fan the other reading would show)
CASES = [
    # 1111s 22s 33s 4444s 5s 6s + 3s: the search meets 111s first (a pung before the chow on 1s):
    # 幺九刻, not the 一般高 of the reading 123s 123s.
    ("1111223444456s", "3s", [], dict(self_drawn=True, seat_wind="W", round_wind="E"),
     {"pung_of_terminals_or_honors"}, "pure_double_chow"),
    # 456p 66s 7s 88s 99s + 7s (chi 123p): 678s 678s 99s comes before 789s 789s 66s: 坎张, not 边张.
    ("456p6678899s", "7s", [("chi", "123p")], dict(seat_wind="E", round_wind="N"),
     {"closed_wait"}, "edge_wait"),
    # 1s 1s 2s 3s 3s 4s 4s 5s 6s 7s 7s 8s 9s + 2s: 老少副 of the first reading, not 连六.
    ("1123344567789s", "2s", [], dict(self_drawn=True, seat_wind="W", round_wind="E"),
     {"two_terminal_chows"}, "short_straight"),
]


def _melds(melds: list[tuple[str, str]]) -> list[tuple[str, list[int]]]:
    return [(kind, parse_tiles(text)) for kind, text in melds]


@pytest.mark.parametrize("concealed, win, melds, flags, expected, other", CASES)
def test_compiled_keeps_the_reading_pymahjonggb_meets_first(concealed, win, melds, flags, expected, other) -> None:
    s = mj.score(concealed, win, ruleset="mcr", melds=_melds(melds), **flags)
    ids = {f.id for f in s.fans}
    assert expected <= ids and other not in ids, ids


@pytest.mark.parametrize("concealed, win, melds, flags, expected, other", CASES)
def test_reference_agrees(concealed, win, melds, flags, expected, other) -> None:
    wind = {"E": 27, "S": 28, "W": 29, "N": 30}
    r = ref.evaluate("mcr", parse_tiles(concealed), parse_tiles(win)[0],
                     [ref.Meld(k, tuple(t)) for k, t in _melds(melds)],
                     self_drawn=flags.get("self_drawn", False),
                     seat_wind=wind[flags["seat_wind"]], round_wind=wind[flags["round_wind"]])
    compiled = mj.score(concealed, win, ruleset="mcr", melds=_melds(melds), **flags)
    assert sorted((f, n) for f, n, _ in r.fans) == sorted((f.id, f.count) for f in compiled.fans)
    assert r.total == compiled.total


def test_public_keeps_its_fan_list_rule() -> None:
    """Only `mcr` sets the quirk: `public` still chooses between equal totals by its fan-list order."""
    assert get_ruleset("mcr").tie_division_order and not get_ruleset("public").tie_division_order
    concealed, win, melds, flags, _, _ = CASES[2]
    a = mj.score(concealed, win, ruleset="mcr", melds=_melds(melds), **flags)
    b = mj.score(concealed, win, ruleset="public", melds=_melds(melds), **flags)
    assert a.total == b.total
    assert "two_terminal_chows" in {f.id for f in a.fans} and "short_straight" in {f.id for f in b.fans}


def test_division_key_orders_suits_as_pymahjonggb() -> None:
    """万 before 条 before 饼: a 条 (s) group sorts before a 饼 (p) group of the same rank."""
    c = ref.Candidate("standard", (ref.Group("chow", (9, 10, 11)), ref.Group("chow", (18, 19, 20)),
                                   ref.Group("pung", (0, 0, 0)), ref.Group("pung", (27, 27, 27)),
                                   ref.Group("pair", (33, 33))), 4, 0)
    assert ref.division_key(c) == ((0, False), (9, True), (18, True), (27, False))
