"""Tests of the pure-Python reference fan evaluator (spec sections 3 and 4).

The 11 worked regression cases of spec 4.4 are the acceptance test; then the
examples of the counting principles (4.1), then, per fan, a hand that scores it
and a close miss, and the exclusion rules (4.3) with their scoped cases.
"""

from __future__ import annotations

import pytest

from mahjong_core.errors import HandSizeError, MahjongError, RulesetError, TileCountError
from mahjong_core.families.mahjong.fan_tables import FAN_TABLES, fan_by_id
from mahjong_core.families.mahjong._ref.fan import (
    DETECTABLE_FANS,
    Meld,
    NotWinningHandError,
    evaluate,
    wait_set,
)
from mahjong_core.families.mahjong.tiles import parse_tiles

E, S, W, N = 27, 28, 29, 30


def T(text: str) -> list[int]:
    return list(parse_tiles(text))


def melds(text: str) -> list[Meld]:
    """``"pon:CCC chi:234m ckong:EEEE"`` -> list of Meld."""
    out = []
    for item in text.split():
        kind, tiles = item.split(":")
        out.append(Meld(kind, tuple(T(tiles))))
    return out


def ev(ruleset: str, concealed: str, win: "str | None", meld_text: str = "", **flags):
    w = None if win is None else T(win)[0]
    return evaluate(ruleset, T(concealed), w, melds(meld_text), **flags)


# ---------------------------------------------------------------------------
# 4.4 worked regression cases (acceptance test): exact fan lists and totals
# ---------------------------------------------------------------------------

TWO = "two-player"
BAMBOO = "two-player-bamboo"
PUBLIC = "public"

REGRESSION_44 = [
    pytest.param(
        TWO, "PPP999m5m", "5m", "pon:CCC pon:FFF", dict(self_drawn=True),
        [{"big_three_dragons": 1, "half_flush": 1, "all_pungs": 1, "pung_of_terminals_or_honors": 1,
          "two_concealed_pungs": 1, "single_wait": 1, "self_drawn": 1}],
        105, id="4.4-1 big three dragons"),
    pytest.param(
        TWO, "234m567m567m9m", "9m", "chi:234m", {},
        [{"full_flush": 1, "all_chows": 1, "pure_double_chow": 2, "short_straight": 1, "single_wait": 1},
         {"full_flush": 1, "all_chows": 1, "pure_double_chow": 1, "short_straight": 2, "single_wait": 1}],
        30, id="4.4-2 account once"),
    pytest.param(
        TWO, "555666777m23m88m", "4m", "", dict(self_drawn=True),
        [{"pure_shifted_pungs": 1, "three_concealed_pungs": 1, "full_flush": 1,
          "fully_concealed_hand": 1, "all_simples": 1}],
        70, id="4.4-3 highest reading"),
    pytest.param(
        TWO, "1111m33m55m77mEEW", "W", "", dict(self_drawn=True),
        [{"seven_pairs": 1, "half_flush": 1, "tile_hog": 1, "self_drawn": 1}],
        33, id="4.4-4 seven pairs with four of a kind"),
    pytest.param(
        TWO, "123456789mEEE99m", None, "", dict(heavenly=True),
        [{"heavenly_hand": 1, "pure_straight": 1, "half_flush": 1, "pung_of_terminals_or_honors": 1}],
        71, id="4.4-5 heavenly hand"),
    pytest.param(
        TWO, "123m456m999m11mEE", "E", "", {},
        [{"half_flush": 1, "concealed_hand": 1, "pung_of_terminals_or_honors": 2, "short_straight": 1}],
        11, id="4.4-6a discard completes a pung (D6)"),
    pytest.param(
        TWO, "123m456m999m11mEE", "E", "", dict(self_drawn=True),
        [{"half_flush": 1, "fully_concealed_hand": 1, "two_concealed_pungs": 1,
          "pung_of_terminals_or_honors": 2, "short_straight": 1}],
        15, id="4.4-6b self-drawn keeps the pung concealed"),
    pytest.param(
        TWO, "1112345678999m", "2m", "", {},
        [{"nine_gates": 1, "two_concealed_pungs": 1, "short_straight": 1}],
        91, id="4.4-7 nine gates two-player"),
    pytest.param(
        PUBLIC, "1112345678999p", "2p", "", {},
        [{"nine_gates": 1, "two_concealed_pungs": 1, "pung_of_terminals_or_honors": 1, "short_straight": 1}],
        92, id="4.4-8 nine gates public removes one pung"),
    pytest.param(
        PUBLIC, "111p999p11s99s", "1s", "pon:111m", dict(self_drawn=True),
        [{"all_terminals": 1, "triple_pung": 1, "three_concealed_pungs": 1, "self_drawn": 1}],
        97, id="4.4-9 all terminals"),
    pytest.param(
        PUBLIC, "789m123s789sE", "E", "chi:123m", {},
        [{"two_terminal_chows": 2, "mixed_double_chow": 1, "outside_hand": 1, "one_voided_suit": 1,
          "single_wait": 1},
         {"two_terminal_chows": 1, "mixed_double_chow": 2, "outside_hand": 1, "one_voided_suit": 1,
          "single_wait": 1}],
        9, id="4.4-10 account once public"),
    pytest.param(
        BAMBOO, "234s345s666sCCC8s", "8s", "", dict(ready_declared=True, ready_concealed=True),
        [{"riichi": 1, "concealed_hand": 1, "half_flush": 1, "dragon_pung": 1, "pair_258": 1,
          "two_concealed_pungs": 1}],
        15, id="4.4-11 riichi"),
]


@pytest.mark.parametrize(("ruleset", "hand", "win", "meld_text", "flags", "alternatives", "total"),
                         REGRESSION_44)
def test_worked_regression_cases(ruleset, hand, win, meld_text, flags, alternatives, total):
    r = ev(ruleset, hand, win, meld_text, **flags)
    assert r.fan_counts() in alternatives
    assert r.total == r.non_flower_total == total
    for fid, n, pts in r.fans:
        assert pts == fan_by_id(ruleset, fid).points
    assert r.meets_minimum == (total >= 8)


def test_regression_11_waits_are_two():
    assert wait_set(BAMBOO, T("234s345s666sCCC8s")) == tuple(T("7s8s"))


# ---------------------------------------------------------------------------
# 4.1 principles
# ---------------------------------------------------------------------------


def test_p1_non_repetition_example_and_fourth_pung():
    # P1: dragons score no 幺九刻, 999m still does; 箭刻/双箭刻 excluded by 大三元
    r = ev(TWO, "PPP999m5m", "5m", "pon:CCC pon:FFF", self_drawn=True)
    c = r.fan_counts()
    assert c["pung_of_terminals_or_honors"] == 1
    assert "dragon_pung" not in c and "two_dragon_pungs" not in c


def test_p1_implication_on_definitions_only():
    # two-player: 大于5 and 清一色 both count (12 + 24), OP-42
    r = ev(TWO, "789m666m999m8m", "8m", "chi:678m")
    c = r.fan_counts()
    assert c["upper_four"] == 1 and c["full_flush"] == 1


def test_p4_highest_total_reading_b():
    r = ev(TWO, "555666777m23m88m", "4m", self_drawn=True)
    assert r.non_flower_total == 70
    assert [g.shape for g in r.groups].count("pung") == 3
    assert r.waits == tuple(T("1m4m"))


def test_p5_pure_straight_plus_exactly_one_more():
    # 123m 456m 789m + 123m: 清龙 + exactly one of 一般高 / 连六 / 老少副
    r = ev(PUBLIC, "123m456m789m123m5p", "5p")
    c = r.fan_counts()
    assert c["pure_straight"] == 1
    extra = sum(c.get(f, 0) for f in ("pure_double_chow", "short_straight", "two_terminal_chows"))
    assert extra == 1


def test_p5_at_most_three_combination_fans():
    r = ev(PUBLIC, "789m123s789sE", "E", "chi:123m")
    c = r.fan_counts()
    assert c.get("two_terminal_chows", 0) + c.get("mixed_double_chow", 0) == 3


def test_p2_no_short_straight_inside_four_shifted_chows():
    r = ev(TWO, "123m234m345m456mE", "E")
    c = r.fan_counts()
    assert c["four_pure_shifted_chows"] == 1
    assert "short_straight" not in c and "pure_shifted_chows" not in c


def test_p2_no_terminal_chows_inside_step_two_shifted_chows():
    r = ev(TWO, "123m345m567m789mE", "E")
    c = r.fan_counts()
    assert c["four_pure_shifted_chows"] == 1
    assert "two_terminal_chows" not in c and "short_straight" not in c


# ---------------------------------------------------------------------------
# Per-fan cases: a hand that scores the fan and a close miss
# ---------------------------------------------------------------------------


def case(fan, ruleset, hand, win, meld_text="", count=1, absent=(), **flags):
    """``count``: expected count of ``fan`` (0 = a close miss); ``absent``: fans that must not count."""
    label = f"{ruleset}:{fan}:{'hit' if count else 'miss'}:{hand}+{win}{(' ' + meld_text) if meld_text else ''}"
    return pytest.param(fan, ruleset, hand, win, meld_text, count, tuple(absent), flags, id=label)


FAN_CASES = [
    # --- first-turn fans (2.11) ---
    case("heavenly_hand", TWO, "123456789mEEE99m", None, heavenly=True,
         absent=("self_drawn", "fully_concealed_hand", "single_wait")),
    case("heavenly_hand", TWO, "123456789mEEE9m", "9m", count=0, self_drawn=True),
    case("earthly_hand", TWO, "123m456m789mEEE9m", "9m", earthly=True,
         absent=("self_drawn", "fully_concealed_hand", "concealed_hand")),
    case("humanly_hand", TWO, "123m456m789mEEE9m", "9m", humanly=True, absent=("concealed_hand",)),
    case("heavenly_ready", TWO, "123m456m789mEEE9m", "9m", heavenly_ready=True),
    case("heavenly_ready", BAMBOO, "123s456s789sEEE9s", "9s", heavenly_ready=True),
    # --- wind and dragon combinations ---
    case("big_four_winds", TWO, "EEESSSWWWNNN1m", "1m",
         absent=("big_three_winds", "all_pungs", "pung_of_terminals_or_honors", "little_four_winds")),
    case("big_four_winds", TWO, "EEESSSWWW111mN", "N", count=0),
    case("little_four_winds", TWO, "EEESSSWWW999mN", "N", absent=("big_three_winds",)),
    case("little_four_winds", TWO, "EEESSS999m111mN", "N", count=0),
    case("big_three_dragons", TWO, "CCCFFFPPP123mE", "E", absent=("dragon_pung", "two_dragon_pungs")),
    case("big_three_dragons", TWO, "CCCFFF123m456mP", "P", count=0),
    case("little_three_dragons", TWO, "CCCFFF123m456mP", "P", absent=("dragon_pung", "two_dragon_pungs")),
    case("little_three_dragons", TWO, "CCCFFF123m456mE", "E", count=0),
    case("two_dragon_pungs", TWO, "CCCFFF123m456mE", "E", absent=("dragon_pung",)),
    case("two_dragon_pungs", TWO, "CCCEEE123m456mF", "F", count=0),
    case("dragon_pung", TWO, "CCC123m456m789mE", "E", absent=("pung_of_terminals_or_honors",)),
    case("dragon_pung", TWO, "EEE123m456m789mC", "C", count=0),
    case("big_three_winds", TWO, "EEESSSWWW123m9m", "9m", absent=("pung_of_terminals_or_honors",)),
    case("big_three_winds", TWO, "EEESSS999m123m5m", "5m", count=0),
    # --- nine gates, seven pairs family, honours ---
    case("nine_gates", TWO, "1112345678999m", "5m",
         absent=("full_flush", "concealed_hand", "pung_of_terminals_or_honors")),
    case("nine_gates", TWO, "1112345678899m", "9m", count=0),
    case("seven_shifted_pairs", TWO, "1122334455667m", "7m", absent=("seven_pairs", "full_flush")),
    case("seven_shifted_pairs", TWO, "1122334455668m", "8m", count=0),
    case("seven_pairs", TWO, "1122m55m99mEESSC", "C", absent=("concealed_hand", "single_wait")),
    case("seven_pairs", TWO, "1122m55m99mEESSC", "C", "", count=1, self_drawn=True,
         absent=("fully_concealed_hand",)),
    case("all_honors", TWO, "EEESSSWWWCCCN", "N",
         absent=("all_pungs", "all_terminals_and_honors", "pung_of_terminals_or_honors")),
    case("all_honors", TWO, "EEESSSWWWCCC1m", "1m", count=0),
    case("all_terminals_and_honors", TWO, "111m999mEEESSSC", "C",
         absent=("all_pungs", "pung_of_terminals_or_honors", "outside_hand")),
    case("all_terminals_and_honors", TWO, "11m99mEESSWWNNC", "C"),
    case("all_terminals_and_honors", TWO, "111m789mEEESSSC", "C", count=0),
    # --- concealed pungs and kongs (D6, D13) ---
    case("four_concealed_pungs", TWO, "111m333m555mEEE9m", "9m", self_drawn=True,
         absent=("fully_concealed_hand", "all_pungs", "three_concealed_pungs")),
    case("four_concealed_pungs", TWO, "111m333m55mEEE99m", "5m", count=0),
    case("three_concealed_pungs", TWO, "111m333m55mEEE99m", "5m", absent=("two_concealed_pungs",)),
    case("two_concealed_pungs", TWO, "111m333m456m789mE", "E"),
    case("two_concealed_pungs", TWO, "111m456m789m234mE", "E", count=0),
    case("four_kongs", TWO, "9m", "9m", "kong:1111m kong:2222m ckong:EEEE kong:SSSS",
         absent=("three_kongs", "melded_kong", "concealed_kong", "two_melded_kongs", "single_wait",
                 "all_pungs")),
    case("three_kongs", TWO, "789mE", "E", "kong:1111m kong:2222m ckong:3333m",
         absent=("two_melded_kongs", "melded_kong", "concealed_kong")),
    case("three_kongs", TWO, "789m333mE", "E", "kong:1111m kong:2222m", count=0),
    case("two_melded_kongs", TWO, "789m333mE", "E", "kong:1111m kong:2222m", absent=("melded_kong",)),
    case("two_concealed_kongs", TWO, "789m456mE", "E", "ckong:1111m ckong:CCCC",
         absent=("two_concealed_pungs", "concealed_kong")),
    case("concealed_kong", TWO, "789m456m123mE", "E", "ckong:CCCC"),
    case("melded_kong", TWO, "789m456m123mE", "E", "kong:CCCC", absent=("concealed_kong",)),
    case("melded_kong", TWO, "789m456m123mE", "E", "pon:CCC", count=0),
    # --- chow combinations ---
    case("pure_terminal_chows", TWO, "123m123m789m789m5m", "5m",
         absent=("all_chows", "full_flush", "pure_double_chow", "two_terminal_chows", "seven_pairs")),
    case("quadruple_chow", TWO, "222233334444mE", "E",
         absent=("tile_hog", "pure_triple_chow", "pure_double_chow", "pure_shifted_pungs")),
    case("four_pure_shifted_pungs", TWO, "777m888mE", "E", "pon:555m pon:666m",
         absent=("all_pungs", "pure_shifted_pungs")),
    case("four_pure_shifted_pungs", TWO, "777m999mE", "E", "pon:555m pon:666m", count=0),
    case("pure_triple_chow", TWO, "234m678m9m", "9m", "chi:234m chi:234m", absent=("pure_double_chow",)),
    case("pure_triple_chow", TWO, "345m678m9m", "9m", "chi:234m chi:234m", count=0),
    case("pure_shifted_pungs", TWO, "555666777m23m88m", "4m", self_drawn=True),
    case("pure_straight", TWO, "123m456m789mEEE9m", "9m", absent=("short_straight", "two_terminal_chows")),
    case("pure_straight", TWO, "123m456m678mEEE9m", "9m", count=0),
    case("pure_shifted_chows", TWO, "123m234m345mEEE9m", "9m"),
    case("pure_shifted_chows", TWO, "678mEEE9m", "9m", "chi:123m chi:345m", count=0),
    case("pure_shifted_chows", TWO, "567mEEE9m", "9m", "chi:123m chi:345m"),
    case("pure_double_chow", TWO, "234m234m789mEEE9m", "9m"),
    case("short_straight", TWO, "123m456mEEE999mS", "S"),
    case("short_straight", TWO, "123m567mEEE999mS", "S", count=0),
    case("two_terminal_chows", TWO, "123m789mEEESSSC", "C"),
    case("two_terminal_chows", TWO, "123m678mEEESSSC", "C", count=0),
    # --- tile content ---
    case("full_flush", TWO, "123m456m789m111m9m", "9m"),
    case("full_flush", TWO, "123m456m789m111mE", "E", count=0),
    case("half_flush", TWO, "123m456m789m111mE", "E"),
    case("upper_four", TWO, "789m666m999m8m", "8m", "chi:678m"),
    case("upper_four", TWO, "789m666m999m8m", "8m", "chi:567m", count=0),
    case("lower_four", TWO, "123m234m111m4m", "4m", "chi:234m"),
    case("lower_four", TWO, "123m234m111m5m", "5m", "chi:234m", count=0),
    case("all_simples", TWO, "234m345m666m678m8m", "8m"),
    case("all_simples", TWO, "234m345m666m8m", "8m", "chi:789m", count=0),
    case("tile_hog", TWO, "1111m23m456mEEE9m", "9m"),
    case("tile_hog", TWO, "234m456mEEE9m", "9m", "kong:1111m", count=0),
    # --- structure ---
    case("all_pungs", TWO, "111m333m555mE", "E", "pon:999m"),
    case("all_pungs", TWO, "111m345m555mE", "E", "pon:999m", count=0),
    case("all_chows", TWO, "123m456m789m234m5m", "5m"),
    case("all_chows", TWO, "123m456m789m234mE", "E", count=0),
    case("outside_hand", TWO, "123m789m111mEEE9m", "9m"),
    case("outside_hand", TWO, "123m678m111mEEE9m", "9m", count=0),
    case("melded_hand", TWO, "E", "E", "chi:123m chi:456m pon:999m pon:SSS", absent=("single_wait",)),
    case("melded_hand", TWO, "E", "E", "chi:123m chi:456m pon:999m pon:SSS", count=0, self_drawn=True),
    case("melded_hand", TWO, "E", "E", "chi:123m chi:456m pon:999m ckong:SSSS", count=0),
    # --- win conditions (D7, D10, D11) ---
    case("self_drawn", TWO, "456m789mEEE9m", "9m", "chi:234m", count=0),
    case("fully_concealed_hand", TWO, "123m456m789mEEE9m", "9m", self_drawn=True,
         absent=("self_drawn", "concealed_hand")),
    case("fully_concealed_hand", TWO, "456m789mEEE9m", "9m", "ckong:1111m", self_drawn=True),
    case("concealed_hand", TWO, "123m456m789mEEE9m", "9m"),
    case("concealed_hand", TWO, "456m789mEEE9m", "9m", "chi:123m", count=0),
    case("last_tile", TWO, "123m456m789mEEE9m", "9m", last_of_kind=True),
    case("last_tile_draw", TWO, "123m456m789mEEE9m", "9m", last_tile=True, self_drawn=True,
         absent=("self_drawn", "last_tile_claim")),
    case("last_tile_claim", TWO, "123m456m789mEEE9m", "9m", last_tile=True, absent=("last_tile_draw",)),
    case("out_with_replacement_tile", TWO, "456m789mEEE9m", "9m", "kong:1111m", self_drawn=True,
         kong_replacement=True, absent=("self_drawn",)),
    case("out_with_replacement_tile", TWO, "456m789mEEE9m", "9m", "kong:1111m", count=0, self_drawn=True,
         flower_replacement=True),
    case("out_with_replacement_tile", TWO, "456m789mEEE9m", "9m", "kong:1111m", count=0, self_drawn=True,
         kong_replacement=True, flower_replacement=True),
    case("robbing_the_kong", TWO, "123m456m789mEEE9m", "9m", robbing_kong=True, last_of_kind=True,
         absent=("last_tile", "self_drawn")),
    # --- waits (D8, D9) ---
    case("edge_wait", TWO, "12m456m789mEEE99m", "3m"),
    case("edge_wait", TWO, "1233mEEESSSCCC", "3m"),
    case("edge_wait", TWO, "7789mEEESSSCCC", "7m"),
    case("edge_wait", TWO, "12345m789mEEE99m", "3m", count=0),
    case("closed_wait", TWO, "46mEEESSSCCC99m", "5m"),
    case("closed_wait", TWO, "46m123m789mEEE99m", "5m", count=0),
    case("closed_wait", TWO, "4556mEEESSSCCC", "5m", absent=("single_wait",)),
    case("closed_wait", TWO, "45567m123mEEE99m", "6m", count=0),
    case("edge_wait", TWO, "56789m123mEEE99m", "7m", count=0),
    case("single_wait", TWO, "123m456m789mEEEC", "C"),
    case("single_wait", TWO, "123m456m789mEEE9m", "9m", count=0),
    case("single_wait", TWO, "123m456m789mEE99m", "9m", count=0),
    # --- flowers (D16) ---
    case("flower_tiles", TWO, "123m456m789mEEE9m", "9m", count=3, flowers=[34, 36, 41]),
    # --- two-player-bamboo specifics ---
    case("eight_immortals", BAMBOO, "123s456s789sEEE9s", "9s", flowers=list(range(34, 42)),
         absent=("four_plants", "four_seasons")),
    case("four_seasons", BAMBOO, "123s456s789sEEE9s", "9s", flowers=[34, 35, 36, 37, 40]),
    case("four_plants", BAMBOO, "123s456s789sEEE9s", "9s", flowers=[38, 39, 40, 41]),
    case("four_plants", BAMBOO, "123s456s789sEEE9s", "9s", count=0, flowers=[34, 39, 40, 41]),
    case("all_green", BAMBOO, "234s234s666s888sF", "F", absent=("half_flush",)),
    case("all_green", BAMBOO, "234s234s666s888s2s", "2s", absent=("half_flush", "no_honors")),
    case("all_green", BAMBOO, "234s234s666s888sC", "C", count=0),
    case("all_green", BAMBOO, "22s33s44s66s88sFFF", "F"),
    case("seven_pairs_all_honors", BAMBOO, "EESSWWNNCCFFP", "P",
         absent=("seven_pairs", "all_honors", "concealed_hand", "single_wait")),
    case("seven_pairs", BAMBOO, "EESSWWNNCCFFP", "P", count=0),
    case("all_honors", BAMBOO, "EEESSSWWWCCCN", "N", absent=("all_pungs", "pung_of_terminals_or_honors")),
    case("riichi", BAMBOO, "234s345s666sCCC8s", "8s", ready_declared=True, ready_concealed=True,
         self_drawn=True, absent=("concealed_hand",)),
    case("riichi", BAMBOO, "345s666sCCC8s", "8s", "chi:234s", count=0, ready_declared=True),
    case("pair_258", BAMBOO, "234s345s666sCCC8s", "8s"),
    case("pair_258", BAMBOO, "123s345s666sCCC9s", "9s", count=0),
    case("pair_terminal", BAMBOO, "123s345s666sCCC9s", "9s"),
    case("pure_terminal_chows", BAMBOO, "123s123s789s789s5s", "5s",
         absent=("pair_258", "full_flush", "pure_double_chow", "all_chows")),
    case("big_three_winds", BAMBOO, "EEESSSWWWNNN1s", "1s"),
    case("out_with_replacement_tile", BAMBOO, "456s789sEEE9s", "9s", "kong:1111s", self_drawn=True,
         flower_replacement=True),
    case("last_tile_draw", BAMBOO, "123s456s789sEEE9s", "9s", last_tile=True, self_drawn=True),
    case("two_melded_kongs", BAMBOO, "789s333sE", "E", "kong:1111s kong:2222s", absent=("melded_kong",)),
    case("three_kongs", BAMBOO, "789sE", "E", "kong:1111s kong:2222s ckong:3333s"),
    case("robbing_the_kong", BAMBOO, "123s456s789sEEE9s", "9s", robbing_kong=True),
    # --- public specifics ---
    case("thirteen_orphans", PUBLIC, "19m19p19sESWNCFP", "1m",
         absent=("all_types", "concealed_hand", "single_wait", "all_terminals_and_honors")),
    case("thirteen_orphans", PUBLIC, "19m19p19sESWNCFP", "1m", self_drawn=True,
         absent=("fully_concealed_hand",)),
    case("greater_honors_and_knitted_tiles", PUBLIC, "147m258p3sESWNCF", "P",
         absent=("lesser_honors_and_knitted_tiles", "all_types", "concealed_hand", "knitted_straight")),
    case("lesser_honors_and_knitted_tiles", PUBLIC, "147m258p369sESWN", "C",
         absent=("all_types", "concealed_hand")),
    case("knitted_straight", PUBLIC, "147m258p369sESWN", "C"),
    case("lesser_honors_and_knitted_tiles", PUBLIC, "147m258p369sEEEC", "C", count=0),
    case("knitted_straight", PUBLIC, "147m258p369sEEEC", "C", seat_wind=S, round_wind=W),
    case("knitted_straight", PUBLIC, "147m258p369s456m5p", "5p"),
    case("all_chows", PUBLIC, "147m258p369s456m5p", "5p"),
    case("all_chows", PUBLIC, "147m258p369sEEEC", "C", count=0),
    case("all_terminals", PUBLIC, "111p999p11s99s", "1s", "pon:111m", self_drawn=True,
         absent=("all_pungs", "double_pung", "no_honors", "outside_hand", "pung_of_terminals_or_honors",
                 "all_terminals_and_honors")),
    case("all_terminals", PUBLIC, "11m99m11p99p11s99sE", "E", count=0),
    case("all_terminals", PUBLIC, "11m99m11p99p11s99s1m", "1m"),
    case("all_terminals", PUBLIC, "11m99m11p99p11s99s9s", "9s"),
    case("all_even_pungs", PUBLIC, "222m444p666s888m2p", "2p", absent=("all_pungs", "all_simples", "no_honors")),
    case("all_even_pungs", PUBLIC, "222m444p666s888m3p", "3p", count=0),
    case("upper_tiles", PUBLIC, "789m789p777s999s8m", "8m", absent=("upper_four", "no_honors")),
    case("upper_tiles", PUBLIC, "789m789p666s999s8m", "8m", count=0),
    case("middle_tiles", PUBLIC, "456m456p456s555m6p", "6p", absent=("all_simples", "no_honors")),
    case("lower_tiles", PUBLIC, "123m123p123s111m2s", "2s", absent=("lower_four", "no_honors")),
    case("lower_four", PUBLIC, "123m234p444s111m2s", "2s", absent=("no_honors",)),
    case("upper_four", PUBLIC, "678m789p666s999m8s", "8s", absent=("no_honors",)),
    case("three_suited_terminal_chows", PUBLIC, "123m789m123s789s5p", "5p",
         absent=("mixed_double_chow", "two_terminal_chows", "all_chows", "no_honors")),
    case("three_suited_terminal_chows", PUBLIC, "123m789m123s789s5s", "5s", count=0),
    case("all_fives", PUBLIC, "345m555p456s567m5s", "5s", absent=("all_simples",)),
    case("all_fives", PUBLIC, "345m555p456s678m5s", "5s", count=0),
    case("triple_pung", PUBLIC, "222m222p222s567m9s", "9s", absent=("double_pung",)),
    case("double_pung", PUBLIC, "222m222p567s567m9s", "9s"),
    case("double_pung", PUBLIC, "222m333p567s567m9s", "9s", count=0),
    case("mixed_straight", PUBLIC, "123m456p789sEEE1m", "1m"),
    case("mixed_straight", PUBLIC, "123m456p678sEEE1m", "1m", count=0),
    case("reversible_tiles", PUBLIC, "123p345p456s999sP", "P", absent=("one_voided_suit",)),
    case("reversible_tiles", PUBLIC, "123p345p456s999sC", "C", count=0),
    case("mixed_triple_chow", PUBLIC, "234m234p234s567m8p", "8p", absent=("mixed_double_chow",)),
    case("mixed_shifted_pungs", PUBLIC, "333m444p555s567m8p", "8p"),
    case("mixed_shifted_pungs", PUBLIC, "333m444p666s567m8p", "8p", count=0),
    case("mixed_shifted_chows", PUBLIC, "123m234p345s567m8p", "8p"),
    case("mixed_shifted_chows", PUBLIC, "123m234p456s567m8p", "8p", count=0),
    case("mixed_double_chow", PUBLIC, "123m123p567s999sE", "E"),
    case("all_types", PUBLIC, "123m456p789sEEEC", "C"),
    case("all_types", PUBLIC, "123m456p789sEEES", "S", count=0),
    case("one_voided_suit", PUBLIC, "123m456p789pEEES", "S"),
    case("no_honors", PUBLIC, "123m456p789p999m1m", "1m"),
    case("all_simples", PUBLIC, "234m456p678p555m2m", "2m", absent=("no_honors",)),
    case("prevalent_wind", PUBLIC, "EEE123m456p789s1m", "1m", seat_wind=S, round_wind=E,
         absent=("pung_of_terminals_or_honors", "seat_wind")),
    case("seat_wind", PUBLIC, "EEE123m456p789s1m", "1m", seat_wind=E, round_wind=S,
         absent=("pung_of_terminals_or_honors", "prevalent_wind")),
    case("pung_of_terminals_or_honors", PUBLIC, "EEE123m456p789s1m", "1m", seat_wind=S, round_wind=W),
    case("big_four_winds", PUBLIC, "EEESSSWWWNNN1m", "1m",
         absent=("prevalent_wind", "seat_wind", "pung_of_terminals_or_honors", "big_three_winds")),
    case("chicken_hand", PUBLIC, "34sEE", "5s", "chi:234m chi:567p pon:777s"),
    case("chicken_hand", PUBLIC, "34sEE", "5s", "chi:234m chi:567p pon:999s", count=0),
    case("no_caishen", PUBLIC, "34sEE", "5s", "chi:234m chi:567p pon:777s",
         options={"caishen_enabled": True}, absent=("chicken_hand",)),
    case("no_caishen", PUBLIC, "34sEE", "5s", "chi:234m chi:567p pon:777s", count=0,
         options={"caishen_enabled": True, "caishen_used_as_wild": True}),
    case("robbing_the_kong", PUBLIC, "123m456p789sEEE9s", "9s", robbing_kong=True, last_of_kind=True,
         absent=("last_tile",)),
    case("seven_shifted_pairs", PUBLIC, "3344556677889p", "9p", absent=("seven_pairs", "no_honors")),
    case("quadruple_chow", PUBLIC, "222233334444pE", "E", absent=("tile_hog", "pure_triple_chow")),
    case("four_pure_shifted_chows", PUBLIC, "123s234s345s456sN", "N"),
]


@pytest.mark.parametrize(("fan", "ruleset", "hand", "win", "meld_text", "count", "absent", "flags"), FAN_CASES)
def test_fan_hit_and_miss(fan, ruleset, hand, win, meld_text, count, absent, flags):
    r = ev(ruleset, hand, win, meld_text, **flags)
    c = r.fan_counts()
    assert c.get(fan, 0) == count, c
    for x in absent:
        assert x not in c, (x, c)
    assert r.total == sum(n * p for _, n, p in r.fans)


# ---------------------------------------------------------------------------
# Exclusion pass (4.3), D13, D14 and other scoped rules
# ---------------------------------------------------------------------------


def test_cleared_fan_does_not_propagate_four_concealed_pungs_self_drawn():
    # 4.3 step 3: 四暗刻 clears 不求人, so 不求人 does not clear 自摸
    c = ev(TWO, "111m333m555mEEE9m", "9m", self_drawn=True).fan_counts()
    assert c["four_concealed_pungs"] == 1 and c["self_drawn"] == 1
    assert "fully_concealed_hand" not in c


def test_nine_gates_self_drawn_keeps_self_drawn():
    c = ev(TWO, "1112345678999m", "5m", self_drawn=True).fan_counts()
    assert c["nine_gates"] == 1 and c["self_drawn"] == 1 and "fully_concealed_hand" not in c


def test_heavenly_clears_self_drawn_explicitly():
    c = ev(TWO, "123456789mEEE99m", None, heavenly=True).fan_counts()
    assert "self_drawn" not in c and "fully_concealed_hand" not in c


def test_literal_first_turn_exclusions_option():
    r = ev(TWO, "123456789mEEE99m", None, heavenly=True,
           options={"literal_first_turn_exclusions": True})
    c = r.fan_counts()
    assert c["heavenly_hand"] == 1 and c["fully_concealed_hand"] == 1 and "self_drawn" not in c


def test_d13_two_concealed_kongs_plus_concealed_pung():
    c = ev(TWO, "555m789mE", "E", "ckong:1111m ckong:CCCC").fan_counts()
    assert c["two_concealed_kongs"] == 1 and c["three_concealed_pungs"] == 1
    assert "two_concealed_pungs" not in c


def test_d13_four_kongs_two_concealed_gives_two_concealed_pungs():
    c = ev(TWO, "9m", "9m", "kong:1111m ckong:2222m ckong:EEEE kong:SSSS").fan_counts()
    assert c["four_kongs"] == 1 and c["two_concealed_pungs"] == 1
    assert "two_concealed_kongs" not in c


def test_d13_one_melded_and_one_concealed_kong():
    c = ev(TWO, "456m789mE", "E", "kong:1111m ckong:CCCC").fan_counts()
    assert c["melded_kong"] == 1 and c["concealed_kong"] == 1


def test_d14_little_four_winds_terminal_pung_is_all_terminals_and_honors():
    # the fourth group of 小四喜 can only be a terminal pung in a 混幺九 hand, which clears every 幺九刻
    c = ev(TWO, "EEESSSWWW999mN", "N").fan_counts()
    assert c["little_four_winds"] == 1 and c["all_terminals_and_honors"] == 1
    assert "pung_of_terminals_or_honors" not in c
    c = ev(TWO, "EEESSSWWW789mN", "N").fan_counts()
    assert c["little_four_winds"] == 1 and "pung_of_terminals_or_honors" not in c


def test_d14_big_three_winds_keeps_other_terminal_pung():
    c = ev(TWO, "EEESSSWWW999m5m", "5m").fan_counts()
    assert c["big_three_winds"] == 1 and c["pung_of_terminals_or_honors"] == 1


def test_d14_bamboo_four_wind_pungs_op51():
    # OP-51: 三风刻 + 幺九刻 for the fourth wind pung + 碰碰和 ...
    c = ev(BAMBOO, "SSSWWWNNN1s", "1s", "pon:EEE").fan_counts()
    assert c["big_three_winds"] == 1 and c["pung_of_terminals_or_honors"] == 1
    assert c["all_pungs"] == 1 and c["three_concealed_pungs"] == 1


def test_d14_nine_gates_bamboo_removes_exactly_one():
    c = ev(BAMBOO, "1112345678999s", "2s").fan_counts()
    assert c["nine_gates"] == 1 and c["pung_of_terminals_or_honors"] == 1


def test_d14_nine_gates_public_winning_on_terminal_removes_it():
    c = ev(PUBLIC, "1112345678999p", "9p").fan_counts()
    assert c["nine_gates"] == 1 and "pung_of_terminals_or_honors" not in c


def test_d14_wind_pung_with_prevalent_and_seat_scores_both():
    c = ev(PUBLIC, "EEE123m456p789s1m", "1m", seat_wind=E, round_wind=E).fan_counts()
    assert c["prevalent_wind"] == 1 and c["seat_wind"] == 1
    assert "pung_of_terminals_or_honors" not in c


def test_d15_scoped_exclusion_pure_straight_plus_fourth_chow():
    c = ev(TWO, "123m456m789m123mE", "E").fan_counts()
    assert c["pure_straight"] == 1
    assert c.get("pure_double_chow", 0) + c.get("short_straight", 0) + c.get("two_terminal_chows", 0) == 1


def test_all_honors_seven_pairs_is_88_op35():
    r = ev(TWO, "EESSWWNNCCFFP", "P")
    assert r.fan_counts() == {"all_honors": 1, "seven_pairs": 1}
    assert r.non_flower_total == 88


def test_bamboo_all_honor_seven_pairs_is_64_op29():
    r = ev(BAMBOO, "EESSWWNNCCFFP", "P")
    assert r.fan_counts() == {"seven_pairs_all_honors": 1}
    assert r.non_flower_total == 64


def test_eight_immortals_keeps_flower_tiles_op31():
    r = ev(BAMBOO, "123s456s789sEEE9s", "9s", flowers=list(range(34, 42)))
    c = r.fan_counts()
    assert c["eight_immortals"] == 1 and c["flower_tiles"] == 8
    assert r.total - r.non_flower_total == 96


def test_flowers_never_count_toward_minimum():
    # chow hand below 8 without flowers stays below the minimum with 8 flowers
    r = ev(PUBLIC, "34sEE", "5s", "chi:234m chi:567p pon:999s", flowers=list(range(34, 42)))
    assert r.non_flower_total < 8 and not r.meets_minimum
    assert r.total == r.non_flower_total + 8


def test_min_fan_option():
    r = ev(PUBLIC, "34sEE", "5s", "chi:234m chi:567p pon:999s", options={"min_fan": 0})
    assert r.meets_minimum


def test_chicken_hand_total():
    r = ev(PUBLIC, "34sEE", "5s", "chi:234m chi:567p pon:777s")
    assert r.fan_counts() == {"chicken_hand": 1} and r.non_flower_total == 8 and r.meets_minimum


def test_riichi_with_self_draw_scores_fully_concealed_op30():
    c = ev(BAMBOO, "234s345s666sCCC8s", "8s", ready_declared=True, ready_concealed=True,
           self_drawn=True).fan_counts()
    assert c["riichi"] == 1 and c["fully_concealed_hand"] == 1


def test_replacement_bloom_option_bamboo():
    kw = dict(self_drawn=True, flower_replacement=True)
    assert "out_with_replacement_tile" not in ev(
        BAMBOO, "123s456s789sEEE9s", "9s", options={"replacement_bloom": "kongs_only"}, **kw).fan_counts()
    assert "out_with_replacement_tile" not in ev(
        BAMBOO, "123s456s789sEEE9s", "9s", options={"replacement_bloom": "last_tile"}, **kw).fan_counts()
    assert "out_with_replacement_tile" in ev(
        BAMBOO, "123s456s789sEEE9s", "9s", options={"replacement_bloom": "last_tile"}, last_tile=True,
        **kw).fan_counts()


def test_heavenly_nine_gates_op24():
    c = ev(TWO, "11123456789999m", None, heavenly=True).fan_counts()
    assert c["nine_gates"] == 1 and c["heavenly_hand"] == 1


def test_four_wind_pungs_in_bamboo_have_no_big_four_winds():
    assert "big_four_winds" not in ev(BAMBOO, "EEESSSWWWNNN1s", "1s").fan_counts()


# ---------------------------------------------------------------------------
# Forms, waits, groups and errors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "hand", "win", "meld_text", "form"),
    [
        (TWO, "123m456m789mEEE9m", "9m", "", "standard"),
        (TWO, "1122m55m99mEESSC", "C", "", "seven_pairs"),
        (PUBLIC, "19m19p19sESWNCFP", "1m", "", "thirteen_orphans"),
        (PUBLIC, "147m258p369sESWN", "C", "", "honors_knitted"),
        (PUBLIC, "147m258p369s456m5p", "5p", "", "knitted_straight"),
        (PUBLIC, "147m258p369s5p", "5p", "pon:CCC", "knitted_straight"),
    ],
)
def test_forms(ruleset, hand, win, meld_text, form):
    assert ev(ruleset, hand, win, meld_text).form == form


def test_special_forms_only_in_public():
    with pytest.raises(NotWinningHandError):
        ev(TWO, "19m19mESWNCFPEE", "P")


@pytest.mark.parametrize(
    ("ruleset", "hand", "meld_text", "waits"),
    [
        (TWO, "1112345678999m", "", "123456789m"),
        (TWO, "12345m789mEEE99m", "", "36m"),
        (TWO, "1233mEEESSSCCC", "", "3m"),
        (PUBLIC, "19m19p19sESWNCFP", "", "19m19p19sESWNCFP"),
        (PUBLIC, "147m258p369sESWN", "", "CFP"),
        (TWO, "1112m", "pon:EEE pon:SSS pon:WWW", "23m"),
        (TWO, "46m123m789mEEE99m", "", "145m"),
    ],
)
def test_wait_sets(ruleset, hand, meld_text, waits):
    assert wait_set(ruleset, T(hand), melds(meld_text)) == tuple(sorted(T(waits)))


def test_groups_report_placement_and_exposure():
    r = ev(TWO, "123m456m999m11mEE", "E")
    win_groups = [g for g in r.groups if g.has_win_tile]
    assert len(win_groups) == 1 and win_groups[0].tiles == (E, E, E) and win_groups[0].exposed
    assert r.groups[-1].shape == "pair"


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: ev(TWO, "123m456m789mEEE", "9m"), HandSizeError),
        (lambda: ev(TWO, "1111m456m789mEE1m", "E"), TileCountError),
        (lambda: ev(TWO, "123m456m789mEES9m", "9m"), NotWinningHandError),
        (lambda: ev(TWO, "123p456m789mEEE9m", "9m"), RulesetError),
        (lambda: ev(BAMBOO, "123m456s789sEEE9s", "9s"), RulesetError),
        (lambda: ev(PUBLIC, "123m456p789sEEE9s", "9s", heavenly_ready=True), RulesetError),
        (lambda: ev(TWO, "123m456m789mEEE9m", "9m", robbing_kong=True, self_drawn=True), MahjongError),
        (lambda: ev(TWO, "123m456m789mEEE9m", None), HandSizeError),
        (lambda: ev(TWO, "123m456m789mEEE9m", "9m", options={"min_fans": 8}), MahjongError),
        (lambda: evaluate(TWO, T("456m789mEEE9m"), T("9m")[0], [("chi", (0, 1, 3))]), MahjongError),
        (lambda: ev(TWO, "123m456m789mEEE9m", "9m", flowers=[34, 34]), TileCountError),
        (lambda: ev("riichi", "123m456m789mEEE9m", "9m"), RulesetError),
    ],
)
def test_errors(call, error):
    with pytest.raises(error):
        call()
    assert issubclass(error, ValueError)


def test_every_table_row_has_a_detector():
    for ruleset, table in FAN_TABLES.items():
        missing = {f.id for f in table} - DETECTABLE_FANS
        assert not missing, (ruleset, missing)


def test_table_exclusions_reach_scored_fans_only_through_the_table():
    # a fan id that the ruleset does not have is never scored (OP-51: no 小四喜 in bamboo)
    for ruleset in FAN_TABLES:
        ids = {f.id for f in FAN_TABLES[ruleset]}
        r = ev(ruleset, {"two-player": "EEESSSWWW999mN", "two-player-bamboo": "EEESSSWWW999sN",
                         "public": "EEESSSWWW999mN", "mcr": "EEESSSWWW999mN"}[ruleset], "N")
        assert set(r.fan_counts()) <= ids


# ---------------------------------------------------------------------------
# `public` regression hands whose exact fan lists were cross-checked against an
# independent MCR fan calculator (random hands; they agreed on every hand except
# those with one exposed and one concealed kong, where MCR's later 明暗杠 is not
# adopted, OP-41).
# ---------------------------------------------------------------------------

CROSS_CHECKED_PUBLIC = [
    ('333m111678888p5s', '5s', '', {'self_drawn': True, 'seat_wind': 29, 'round_wind': 28},
     {'three_concealed_pungs': 1, 'fully_concealed_hand': 1, 'tile_hog': 1, 'pung_of_terminals_or_honors': 1, 'no_honors': 1, 'single_wait': 1}, 25),
    ('2224567m222777p', '7m', '', {'self_drawn': True, 'seat_wind': 27, 'round_wind': 27},
     {'three_concealed_pungs': 1, 'fully_concealed_hand': 1, 'double_pung': 1, 'all_simples': 1, 'one_voided_suit': 1}, 25),
    ('147m36889p25899s', '9s', '', {'seat_wind': 30, 'round_wind': 29},
     {'knitted_straight': 1, 'concealed_hand': 1, 'pung_of_terminals_or_honors': 1, 'no_honors': 1}, 16),
    ('33666m666p46999s', '5s', '', {'seat_wind': 29, 'round_wind': 29},
     {'three_concealed_pungs': 1, 'concealed_hand': 1, 'double_pung': 1, 'pung_of_terminals_or_honors': 1, 'no_honors': 1, 'closed_wait': 1}, 23),
    ('77789m66777s', '7m', 'pon:888m', {'self_drawn': True, 'seat_wind': 30, 'round_wind': 27},
     {'upper_four': 1, 'tile_hog': 2, 'double_pung': 1, 'two_concealed_pungs': 1, 'one_voided_suit': 1, 'self_drawn': 1}, 22),
    ('33m2255588p9999s', '5p', '', {'self_drawn': True, 'seat_wind': 29, 'round_wind': 30},
     {'seven_pairs': 1, 'tile_hog': 2, 'no_honors': 1, 'self_drawn': 1}, 30),
    ('12388p33s', '8p', 'chi:345p chi:567p', {'self_drawn': True, 'seat_wind': 28, 'round_wind': 27},
     {'pure_shifted_chows': 1, 'one_voided_suit': 1, 'no_honors': 1, 'self_drawn': 1}, 19),
    ('55m555p44499s', '9s', 'chi:234s', {'self_drawn': True, 'seat_wind': 28, 'round_wind': 29},
     {'three_concealed_pungs': 1, 'tile_hog': 1, 'pung_of_terminals_or_honors': 1, 'no_honors': 1, 'self_drawn': 1}, 21),
    ('223458m1147p369s', '1p', '', {'self_drawn': True, 'seat_wind': 29, 'round_wind': 29},
     {'knitted_straight': 1, 'fully_concealed_hand': 1, 'all_chows': 1, 'single_wait': 1}, 19),
    ('12399m66677799s', '9s', '', {'self_drawn': True, 'seat_wind': 30, 'round_wind': 27},
     {'three_concealed_pungs': 1, 'fully_concealed_hand': 1, 'pung_of_terminals_or_honors': 1, 'one_voided_suit': 1, 'no_honors': 1}, 23),
    ('22888p55666s', '2p', 'pon:777m', {'seat_wind': 27, 'round_wind': 30},
     {'mixed_shifted_pungs': 1, 'all_pungs': 1, 'two_concealed_pungs': 1, 'all_simples': 1}, 18),
    ('123447m369p2568s', '6s', '', {'seat_wind': 27, 'round_wind': 27},
     {'knitted_straight': 1, 'concealed_hand': 1, 'all_chows': 1, 'single_wait': 1}, 17),
    ('1112333344sCCC', '4s', '', {'seat_wind': 27, 'round_wind': 28},
     {'three_concealed_pungs': 1, 'half_flush': 1, 'dragon_pung': 1, 'concealed_hand': 1, 'tile_hog': 1, 'pung_of_terminals_or_honors': 1}, 29),
    ('123m1222p', '3p', 'pon:111s pon:333m', {'self_drawn': True, 'seat_wind': 28, 'round_wind': 28},
     {'lower_tiles': 1, 'tile_hog': 1, 'mixed_double_chow': 1, 'pung_of_terminals_or_honors': 1, 'self_drawn': 1}, 29),
]


@pytest.mark.parametrize(("hand", "win", "meld_text", "flags", "fans", "total"), CROSS_CHECKED_PUBLIC)
def test_public_cross_checked_hands(hand, win, meld_text, flags, fans, total):
    r = ev(PUBLIC, hand, win, meld_text, **flags)
    assert r.fan_counts() == fans
    assert r.total == total


def test_d8_wait_by_shape_even_if_all_copies_are_held():
    # D8 "ignoring ... how many copies of t remain": 6s is a wait although the
    # player holds all four 6s (three in an exposed pung), so 3s is no single wait.
    assert wait_set(PUBLIC, T("789m3456s"), melds("pon:666s pon:888m")) == tuple(T("3s6s"))
    r = ev(PUBLIC, "789m3456s", "3s", "pon:666s pon:888m")
    assert r.fan_counts() == {"tile_hog": 2, "one_voided_suit": 1, "no_honors": 1}
