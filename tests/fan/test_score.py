"""The public scoring API: mj.score / mj.score_batch / the score command line."""

from __future__ import annotations

import json

import numpy as np
import pytest

import mahjong_core as mj
from mahjong_core import cli
from mahjong_core import tiles as T
from mahjong_core.families.mahjong.scoring import FLAGS, MELD_KINDS, Fan, Score, parse_meld, score_batch


def fans(s: Score) -> dict[str, int]:
    return s.fan_counts


# ------------------------------------------------------------------ the issue's call
def test_issue_example_call_is_accepted_and_refuses_the_impossible_hand():
    # The example of the issue holds 1112345678999m + 5m in hand *and* four melds (26 tiles), and
    # 999m in hand plus a concealed kong 9999m: seven copies of 9m.  The call is accepted and the
    # impossible hand is refused with a TileCountError naming the tile.
    with pytest.raises(mj.TileCountError, match="7 copies of 9m"):
        mj.score("1112345678999m", "5m", ruleset="two-player", self_drawn=True,
                 melds=["pon CCC", "chi 123m", "kong EEEE", "ckong 9999m"], flowers=2)


def test_same_call_shape_with_a_legal_hand():
    s = mj.score("5m", "5m", ruleset="two-player", self_drawn=True,
                 melds=["pon CCC", "chi 123m", "kong EEEE", "ckong 9999m"], flowers=2)
    assert isinstance(s.total, int)
    assert s.total == 17 and s.non_flower_total == 15 and s.meets_minimum
    assert fans(s) == {
        "half_flush": 1, "dragon_pung": 1, "concealed_kong": 1, "pung_of_terminals_or_honors": 2,
        "melded_kong": 1, "single_wait": 1, "flower_tiles": 2, "self_drawn": 1,
    }
    f = s.fans[0]
    assert isinstance(f, Fan) and (f.id, f.name, f.name_en, f.points, f.count) == (
        "half_flush", "混一色", "Half Flush", 6, 1)
    assert sum(f.points * f.count for f in s.fans) == s.total
    assert s.form == "standard"


# ------------------------------------------------------------------ spec 4.4 worked cases
WORKED = [
    # (ruleset, hand, win, melds, kwargs, total, fans)
    ("two-player", "PPP999m5m", "5m", ["pon CCC", "pon FFF"], {"self_drawn": True}, 105,
     {"big_three_dragons": 1, "half_flush": 1, "all_pungs": 1, "pung_of_terminals_or_honors": 1,
      "two_concealed_pungs": 1, "single_wait": 1, "self_drawn": 1}),
    ("two-player", "234m567m567m9m", "9m", ["chi 234m"], {}, 30, None),
    ("two-player", "555666777m23m88m", "4m", [], {"self_drawn": True}, 70,
     {"pure_shifted_pungs": 1, "three_concealed_pungs": 1, "full_flush": 1, "fully_concealed_hand": 1,
      "all_simples": 1}),
    ("two-player", "1111m33m55m77mEEW", "W", [], {"self_drawn": True}, 33,
     {"seven_pairs": 1, "half_flush": 1, "tile_hog": 1, "self_drawn": 1}),
    ("two-player", "123456789mEEE99m", None, [], {"heavenly": True}, 71,
     {"heavenly_hand": 1, "pure_straight": 1, "half_flush": 1, "pung_of_terminals_or_honors": 1}),
    ("two-player", "123m456m999m11mEE", "E", [], {}, 11,
     {"half_flush": 1, "concealed_hand": 1, "pung_of_terminals_or_honors": 2, "short_straight": 1}),
    ("two-player", "123m456m999m11mEE", "E", [], {"self_drawn": True}, 15,
     {"half_flush": 1, "fully_concealed_hand": 1, "two_concealed_pungs": 1,
      "pung_of_terminals_or_honors": 2, "short_straight": 1}),
    ("two-player", "1112345678999m", "2m", [], {}, 91,
     {"nine_gates": 1, "two_concealed_pungs": 1, "short_straight": 1}),
    ("public", "1112345678999p", "2p", [], {}, 92,
     {"nine_gates": 1, "two_concealed_pungs": 1, "pung_of_terminals_or_honors": 1, "short_straight": 1}),
    ("public", "111p999p11s99s", "1s", ["pon 111m"], {"self_drawn": True}, 97,
     {"all_terminals": 1, "triple_pung": 1, "three_concealed_pungs": 1, "self_drawn": 1}),
    ("public", "789m123s789sE", "E", ["chi 123m"], {}, 9, None),
    ("two-player-bamboo", "234s345s666sCCC8s", "8s", [], {"ready": True}, 15,
     {"riichi": 1, "concealed_hand": 1, "half_flush": 1, "dragon_pung": 1, "pair_258": 1,
      "two_concealed_pungs": 1}),
]


@pytest.mark.parametrize("ruleset, hand, win, melds, kwargs, total, expected", WORKED,
                         ids=[f"4.4-{i + 1}" for i in range(len(WORKED))])
def test_spec_worked_cases(ruleset, hand, win, melds, kwargs, total, expected):
    s = mj.score(hand, win, ruleset=ruleset, melds=melds, **kwargs)
    assert s.total == total
    if expected is not None:
        assert fans(s) == expected


def test_worked_case_2_combination_fans_counted_three_times():
    s = mj.score("234m567m567m9m", "9m", melds=["chi 234m"])
    f = fans(s)
    assert f["full_flush"] == 1 and f["all_chows"] == 1 and f["single_wait"] == 1
    assert f.get("pure_double_chow", 0) + f.get("short_straight", 0) == 3


def test_worked_case_10_account_once():
    s = mj.score("789m123s789sE", "E", ruleset="public", melds=["chi 123m"])
    f = fans(s)
    assert f.get("two_terminal_chows", 0) + f.get("mixed_double_chow", 0) == 3
    assert f["outside_hand"] == 1 and f["one_voided_suit"] == 1 and f["single_wait"] == 1
    assert s.meets_minimum


# ------------------------------------------------------------------ minimum, flowers, options
def test_below_minimum_is_scored_and_flagged():
    # exposed chow and pung, shanpon wait 8m/S, won on 8m: 混一色 6 only, under the minimum 8
    s = mj.score("567m88mSS", "8m", melds=["chi 123m", "pon 444m"])
    assert s.fan_counts == {"half_flush": 1} and s.total == 6
    assert s.meets_minimum is False and s.min_fan == 8
    assert mj.score("567m88mSS", "8m", melds=["chi 123m", "pon 444m"], min_fan=0).meets_minimum is True


def test_minimum_and_flowers():
    # chow hand of one suit + honors pair, discard win: 混一色 6 + 门前清 2 ... kept small
    s = mj.score("123m345m567mEEE9m", "9m", melds=[], flowers=0)
    base = s.non_flower_total
    with_flowers = mj.score("123m345m567mEEE9m", "9m", flowers=3)
    assert with_flowers.non_flower_total == base
    assert with_flowers.total == base + 3
    assert with_flowers.fan_counts["flower_tiles"] == 3
    assert mj.score("123m345m567mEEE9m", "9m", min_fan=base + 1).meets_minimum is False
    assert mj.score("123m345m567mEEE9m", "9m", min_fan=base).meets_minimum is True
    assert mj.score("123m345m567mEEE9m", "9m", min_fan=base + 1, flowers=8).meets_minimum is False


def test_bamboo_flower_sets():
    hand, win = "123s456s789sCCC5s", "5s"
    eight = mj.score(hand, win, ruleset="two-player-bamboo", flowers=8)
    assert eight.fan_counts["eight_immortals"] == 1 and eight.fan_counts["flower_tiles"] == 8
    assert "four_seasons" not in eight.fan_counts and "four_plants" not in eight.fan_counts
    plants = mj.score(hand, win, ruleset="two-player-bamboo", flowers="梅兰竹菊")
    assert plants.fan_counts["four_plants"] == 1 and plants.fan_counts["flower_tiles"] == 4
    with pytest.raises(mj.MahjongError, match="ambiguous"):
        mj.score(hand, win, ruleset="two-player-bamboo", flowers=4)
    with pytest.raises(mj.TileCountError):
        mj.score(hand, win, ruleset="two-player-bamboo", flowers="梅梅")


def test_public_winds():
    hand = "123m456p789sSSS1p"
    plain = mj.score(hand, "1p", ruleset="public", melds=[])
    seat = mj.score(hand, "1p", ruleset="public", seat_wind="S")
    both = mj.score(hand, "1p", ruleset="public", seat_wind="S", round_wind="S")
    assert "seat_wind" not in plain.fan_counts and plain.fan_counts.get("pung_of_terminals_or_honors") == 1
    assert seat.fan_counts["seat_wind"] == 1 and "pung_of_terminals_or_honors" not in seat.fan_counts
    assert both.fan_counts["seat_wind"] == 1 and both.fan_counts["prevalent_wind"] == 1
    with pytest.raises(mj.MahjongError, match="seat_wind"):
        mj.score(hand, "1p", ruleset="public", seat_wind="X")


# ------------------------------------------------------------------ errors
@pytest.mark.parametrize(
    "call, exc, fragment",
    [
        (lambda: mj.score("123m456m789m11mEE", "S"), mj.NotWinningHandError, ""),
        (lambda: mj.score("123m456m789m11m", "E"), mj.HandSizeError, "12"),
        (lambda: mj.score("11112345678999m", "1m"), mj.TileCountError, "1m"),
        (lambda: mj.score("123p456m789m11mEE", "E"), mj.RulesetError, "not played"),
        (lambda: mj.score("123m456m789m11mE", "Q"), mj.TileParseError, "Q"),
        (lambda: mj.score("123m456m789m11mE", "EE"), mj.TileParseError, "one tile"),
        (lambda: mj.score("123m456m789m11mE", None), mj.MahjongError, "win_tile"),
        (lambda: mj.score("456m789m11mE", "E", melds=["chi 124m"]), mj.TileParseError, "consecutive"),
        (lambda: mj.score("456m789m11mE", "E", melds=["pon 123m"]), mj.TileParseError, "identical"),
        (lambda: mj.score("456m789m11mE", "E", melds=["peng 111m"]), mj.TileParseError, "peng"),
        (lambda: mj.score("456m789m11mE", "E", melds=["kong 111m"]), mj.TileParseError, "4 identical"),
        (lambda: mj.score("456m789m11mE", "E", melds=[42]), mj.TileParseError, "meld"),
        (lambda: mj.score("123m456m789m11mE", "E", ruleset="riichi"), mj.RulesetError, "riichi"),
        (lambda: mj.score("123m456m789m11mE", "E", min_fan=-1), mj.MahjongError, "min_fan"),
        (lambda: mj.score("123m456m789m11mE", "E", replacement_bloom="x"), mj.MahjongError, "replacement_bloom"),
        (lambda: mj.score("123m456m789m11mE", "E", flowers=9), mj.TileCountError, "8 flowers"),
        (lambda: mj.score("123m456m789m11mE", "E", ready_concealed=True), mj.MahjongError, "ready"),
    ],
)
def test_score_errors(call, exc, fragment):
    with pytest.raises(exc) as info:
        call()
    assert isinstance(info.value, ValueError)
    assert fragment.lower() in str(info.value).lower()


def test_parse_meld():
    assert parse_meld("chi 123m") == (MELD_KINDS["chi"], 0)
    assert parse_meld("pon CCC") == (MELD_KINDS["pon"], 31)
    assert parse_meld("kong EEEE") == (MELD_KINDS["kong"], 27)
    assert parse_meld(("ckong", "9999m")) == (MELD_KINDS["ckong"], 8)
    assert parse_meld(("chi", [20, 19, 18])) == (MELD_KINDS["chi"], 18)
    with pytest.raises(mj.TileParseError, match="consecutive"):
        parse_meld("chi 89m1p")


def test_score_result_plain_data():
    s = mj.score("123m456m789m11mEE", "E", self_drawn=True)
    d = s.to_dict()
    assert json.loads(json.dumps(d, ensure_ascii=False)) == d
    assert d["total"] == sum(f["points"] * f["count"] for f in d["fans"])
    assert "清龙" in repr(s)


# ------------------------------------------------------------------ batch
def test_score_batch_equals_score():
    cases = [
        ("two-player", "123m456m789m11mEE", "E", ["chi 123m"][:0], FLAGS["self_drawn"]),
        ("two-player", "PPP999m5m", "5m", ["pon CCC", "pon FFF"], FLAGS["self_drawn"]),
        ("two-player", "1112345678999m", "2m", [], 0),
        ("two-player", "234m567m567m9m", "9m", ["chi 234m"], 0),
    ]
    hands = np.stack([T.parse_hand(h) for _, h, _, _, _ in cases])
    wins = np.array([T.parse_tiles(w)[0] for _, _, w, _, _ in cases], np.int16)
    melds = np.full((len(cases), 4, 2), 255, np.uint8)
    for i, (_, _, _, ms, _) in enumerate(cases):
        for j, m in enumerate(ms):
            melds[i, j] = parse_meld(m)
    flags = np.array([c[4] for c in cases], np.uint32)
    totals, nonflower, counts = score_batch(hands, wins, ruleset="two-player", melds=melds, flags=flags)
    for i, (rs, h, w, ms, fl) in enumerate(cases):
        s = mj.score(h, w, ruleset=rs, melds=ms, self_drawn=bool(fl & FLAGS["self_drawn"]))
        assert totals[i] == s.total and nonflower[i] == s.non_flower_total
        assert counts[i].tolist() == s._counts.tolist()
    assert counts.shape == (len(cases), len(mj.fan_table("two-player")))


def test_score_batch_names_the_bad_row():
    hands = np.stack([T.parse_hand("123m456m789m11mEE"), T.parse_hand("123m456m789m11mEE")])
    with pytest.raises(mj.NotWinningHandError, match="row 1"):
        score_batch(hands, np.array([27, 28], np.int16))


# ------------------------------------------------------------------ command line
def test_cli_score_table_and_json(capsys):
    assert cli.main(["score", "PPP999m5m", "--win", "5m", "--melds", "pon CCC", "pon FFF", "--self-drawn"]) == 0
    out = capsys.readouterr().out
    assert "大三元" in out and "Big Three Dragons" in out and "105" in out
    assert cli.main(["score", "123m456m789m11mEE", "--win", "E", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == mj.score("123m456m789m11mEE", "E").total


def test_cli_score_user_error_exits_2(capsys):
    assert cli.main(["score", "123m456m789m11mEE", "--win", "S"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mahjong-core: error:") and "Traceback" not in err
