"""Cards, notation, groups and options of 长牌 (spec 1, 2.2, 6, 8.1)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from mahjong_core.errors import (
    ArrayShapeError,
    MahjongError,
    RulesetError,
    TileCountError,
    TileParseError,
)
from mahjong_core.families import longcard as lc


def test_index_scheme_and_constants():
    assert [lc.format_cards([f]) for f in (0, 3, 5, 15, 20)] == ["11", "14", "16", "44", "66"]
    assert len(lc.PIPS) == 21 and all(lc.cards.face_index(a, b) == f for f, (a, b) in enumerate(lc.PIPS))
    red = [f for f in range(21) if lc.IS_RED[f]]
    assert red == [0, 1, 2, 3, 4, 5, 8, 12, 15, 16, 17, 20]           # 12 red faces, 9 black (spec 1.1)
    assert lc.PARTNERS[2] == (17, 18) and lc.PARTNERS[4] == (10, 13, 15) and lc.PARTNERS[5] == (9, 12)
    assert lc.cards.RED_PIPS[20] == 6 and lc.cards.RED_PIPS[3] == 5
    assert sorted(lc.YDR) == [0, 3, 15] and lc.SEVENS == (5, 9, 12)


@pytest.mark.parametrize("text, faces", [
    ("11 66 44 16", [0, 20, 15, 5]),
    ("61 41", [5, 3]),                                  # larger pip first is read too
    ("天牌 地牌 人牌 和牌 长三 高脚七", [20, 0, 15, 2, 11, 5]),
    ("天地人", [20, 0, 15]),                            # short names, no spaces
    ("板凳 红锤六 幺六 斧头 梅子", [6, 4, 5, 19, 18]),
    ("55×3 CS", [18, 18, 18, 21]),
    ("(11 11 11) [46 46 13]", [0, 0, 0, 17, 17, 2]),
    ("🁫🂓", [0, 20]),
])
def test_parse(text, faces):
    assert lc.parse_cards(text) == faces


@pytest.mark.parametrize("text", ["77", "10", "1", "11 x", "ab", "11 天x", "CSS"])
def test_unknown_notation(text):
    with pytest.raises(TileParseError):
        lc.parse_cards(text)


def test_round_trip_every_style():
    faces = list(range(21))
    for style in ("pips", "zh", "glyph"):
        assert lc.parse_cards(lc.format_cards(faces, style)) == faces
    assert lc.format_cards(lc.to_counts("66 11 11"), counts=True) == "11 11 66"
    assert lc.face_name(21) == "财神"


def test_counts_errors():
    assert lc.to_counts("11×5")[0] == 5
    with pytest.raises(TileCountError, match="6 copies of 11"):
        lc.to_counts("11×5 11")
    with pytest.raises(TileParseError, match="财神"):
        lc.to_counts("11 CS")
    with pytest.raises(TileCountError):
        lc.to_counts(np.array([6] + [0] * 20))
    with pytest.raises(TileParseError):
        lc.to_counts(np.zeros(21, np.float64))
    assert issubclass(TileParseError, MahjongError) and issubclass(MahjongError, ValueError)


def test_groups():
    g = lc.parse_group("碰 66 66 66")
    assert (g.kind, g.cards, g.tuo) == ("peng", (20, 20, 20), 8)
    assert lc.parse_group(("吐火响", "56×5")).tuo == 8
    assert lc.parse_group("tuhuo_weixiang 44×4").tuo == 12
    assert lc.parse_group("chi 16 25 34").tuo == 2
    assert lc.parse_group("kan 22 22 22").tuo == 4
    for bad in ("chi 11 11 11", "peng 11 11", "sha 11×3 12", "chi 11 12 13", "pong 11×3", "peng 11 11 CS"):
        with pytest.raises(TileParseError):
            lc.parse_group(bad)
    with pytest.raises(TileCountError):
        lc.parse_declared(["peng 11×3", "sha 11×4"])
    with pytest.raises(TileCountError):
        lc.parse_declared(["peng 11×3"] * 8)
    with pytest.raises(TileParseError):
        lc.parse_declared("peng 11×3")


def test_options_table():
    assert lc.DEFAULTS["settlement_mode"] == "tikan" and lc.DEFAULTS["face_names"] is None
    spec = Path("/work/shared/spec/changpai.md")
    if spec.exists():   # every key of the spec's parameter table (section 6) is an option
        table = spec.read_text(encoding="utf-8").split("## 6. Parameter summary")[1].split("## 7.")[0]
        rows = [line.split("|")[1] for line in table.splitlines() if line.startswith("| ")]
        keys = {m for cell in rows for m in re.findall(r"`([a-z_0-9]+)`", cell)}
        assert keys and keys <= set(lc.OPTIONS)
    assert lc.check_options(face_names=[str(i) for i in range(21)])["face_names"][0] == "0"
    cps = {o.cp for o in lc.OPTIONS.values()}
    assert {"CP-11", "CP-12", "CP-13", "CP-14", "CP-15", "CP-23", "CP-29", "CP-34", "CP-35", "CP-38", "CP-39",
            "CP-51"} <= cps
    assert set(lc.HAND_OPTIONS) <= set(lc.OPTIONS)
    with pytest.raises(RulesetError):
        lc.check_options({"fan_cap": "4"})
    with pytest.raises(RulesetError):
        lc.check_options(nonsense=1)
    assert lc.check_options(wumenjiang=False)["wumenjiang"] is False


def test_weights_table_of_spec_4_5():
    w = lc.face_weights("36 25")
    assert (w[14], w[9], w[0], w[3], w[15], w[20]) == (1, 1, 1, 1, 1, 0)
    assert lc.face_weights("26 26")[10] == 2                           # other face = J1 and J2
    assert lc.face_weights("11 11")[0] == 4                            # 幺地人 face = J1 and J2
    assert lc.face_weights("11 66")[0] == 2                            # 幺地人 face = one 将 (CP-39)
    assert lc.face_weights("11 66", wumenjiang_weight="no_upgrade")[0] == 1
    assert lc.face_weights("11 11", wumenjiang=False)[0] == 1 and lc.face_weights("11 11", wumenjiang=False)[20] == 0


def test_all_black_option():
    """CP-13: an all-black win needs no 陀 threshold when the option is on."""
    hand = "22 22 22 23 23 23 25 25 25 26 26 26 33 33 33 35 35 35 55 55"   # 8 black 坎-like faces, 20 cards
    assert lc.waits(hand) == []                          # black 坎 are 4 陀 each: at most 28
    assert 18 in lc.waits(hand, all_black_waives_tuo=True)
    s = lc.score(hand, "55", all_black_waives_tuo=True)
    assert s.tuo == 28 and s.total == 1      # 7 black 坎: 28 陀 < 33, only 对对胡
    assert not lc.is_win(lc.to_counts(hand + " 55"))
    assert lc.is_win(lc.to_counts(hand + " 55"), all_black_waives_tuo=True)


def test_kan_as_peng_off():
    s = lc.score("11 11 11 66 66 66 33 33", "33", declared=["peng 44×3", "peng 15×3", "peng 22×3", "peng 35×3"],
                 kan_as_peng=False)
    assert s.fan_counts.get("peng") == 1      # only the declared 人 碰; the concealed 地 坎 bears no fan


def test_array_errors():
    with pytest.raises(ArrayShapeError):
        lc.is_win_batch(np.zeros((2, 20), np.uint8))
