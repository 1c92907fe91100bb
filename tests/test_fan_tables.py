"""Checks of the fan tables (spec sections 3.1-3.3, D15-D17) as data."""

from __future__ import annotations

import pathlib
import re

import pytest

from mahjong_core.errors import RulesetError
from mahjong_core.families.mahjong.fan_tables import FAN_TABLES, FanDef, fan_by_id, fan_table
from mahjong_core.families.mahjong.fandef import PER_VALUES

RULESETS = ("two-player", "two-player-bamboo", "public")

# Row counts stated by the spec headings: 3.1 "59 fans", 3.2 "62 fans", 3.3 "82 fans"
# (花牌 is a row of every table and is included in each count).
EXPECTED_COUNTS = {"two-player": 59, "two-player-bamboo": 62, "public": 82}

# D15: the set C of meld-combination fans, by Chinese name.
SET_C_ZH = (
    "一般高 喜相逢 连六 老少副 一色三同顺 三色三同顺 一色三步高 三色三步高 清龙 花龙 一色四同顺 一色四步高 "
    "一色双龙会 三色双龙会 双同刻 三同刻 一色三节高 三色三节高 一色四节高 双箭刻 大三元 小三元 三风刻 小四喜 大四喜"
).split()
SET_C_IDS = {
    "pure_double_chow", "mixed_double_chow", "short_straight", "two_terminal_chows",
    "pure_triple_chow", "mixed_triple_chow", "pure_shifted_chows", "mixed_shifted_chows",
    "pure_straight", "mixed_straight", "quadruple_chow", "four_pure_shifted_chows",
    "pure_terminal_chows", "three_suited_terminal_chows", "double_pung", "triple_pung",
    "pure_shifted_pungs", "mixed_shifted_pungs", "four_pure_shifted_pungs", "two_dragon_pungs",
    "big_three_dragons", "little_three_dragons", "big_three_winds", "little_four_winds",
    "big_four_winds",
}

# (ruleset, id, zh, points) spot checks copied from the spec tables.
SPOT = [
    ("two-player", "heavenly_hand", "天胡", 48),
    ("two-player", "earthly_hand", "地胡", 32),
    ("two-player", "humanly_hand", "人胡", 24),
    ("two-player", "heavenly_ready", "天听", 16),
    ("two-player", "big_four_winds", "大四喜", 88),
    ("two-player", "nine_gates", "九莲宝灯", 88),
    ("two-player", "seven_shifted_pairs", "连七对", 88),
    ("two-player", "little_four_winds", "小四喜", 64),
    ("two-player", "pure_terminal_chows", "一色双龙会", 64),
    ("two-player", "quadruple_chow", "一色四同顺", 48),
    ("two-player", "four_pure_shifted_chows", "一色四步高", 32),
    ("two-player", "all_terminals_and_honors", "混幺九", 32),
    ("two-player", "seven_pairs", "七对", 24),
    ("two-player", "pure_straight", "清龙", 16),
    ("two-player", "upper_four", "大于5", 12),
    ("two-player", "lower_four", "小于5", 12),
    ("two-player", "big_three_winds", "三风刻", 12),
    ("two-player", "robbing_the_kong", "抢杠胡", 8),
    ("two-player", "melded_hand", "全求人", 6),
    ("two-player", "two_dragon_pungs", "双箭刻", 6),
    ("two-player", "last_tile", "胡绝张", 4),
    ("two-player", "all_chows", "平和", 2),
    ("two-player", "short_straight", "连6", 1),
    ("two-player", "flower_tiles", "花牌", 1),
    ("two-player", "self_drawn", "自摸", 1),
    ("two-player-bamboo", "eight_immortals", "八仙过海", 88),
    ("two-player-bamboo", "all_green", "绿一色", 88),
    ("two-player-bamboo", "seven_pairs_all_honors", "七小对 (全字牌)", 64),
    ("two-player-bamboo", "heavenly_hand", "天胡", 48),
    ("two-player-bamboo", "four_pure_shifted_pungs", "一色四节高", 48),
    ("two-player-bamboo", "three_kongs", "三杠", 32),
    ("two-player-bamboo", "seven_pairs", "七小对", 24),
    ("two-player-bamboo", "pure_straight", "青龙", 16),
    ("two-player-bamboo", "last_tile_draw", "海底捞月 (自摸)", 8),
    ("two-player-bamboo", "last_tile_claim", "海底捞月 (点和)", 8),
    ("two-player-bamboo", "all_pungs", "碰碰和", 6),
    ("two-player-bamboo", "riichi", "立直", 2),
    ("two-player-bamboo", "all_simples", "断幺九", 2),
    ("two-player-bamboo", "all_chows", "平胡", 2),
    ("two-player-bamboo", "pair_258", "二五八将", 1),
    ("two-player-bamboo", "pair_terminal", "幺九头", 1),
    ("two-player-bamboo", "four_plants", "梅兰竹菊", 1),
    ("two-player-bamboo", "four_seasons", "春夏秋冬", 1),
    ("two-player-bamboo", "short_straight", "六连张", 1),
    ("two-player-bamboo", "edge_wait", "镶边", 1),
    ("two-player-bamboo", "closed_wait", "嵌单", 1),
    ("two-player-bamboo", "single_wait", "单钓", 1),
    ("two-player-bamboo", "two_terminal_chows", "老少配", 1),
    ("two-player-bamboo", "pung_of_terminals_or_honors", "幺九刻", 1),
    ("public", "thirteen_orphans", "十三幺", 88),
    ("public", "all_terminals", "清幺九", 64),
    ("public", "greater_honors_and_knitted_tiles", "七星不靠", 24),
    ("public", "all_even_pungs", "全双刻", 24),
    ("public", "upper_tiles", "全大", 24),
    ("public", "middle_tiles", "全中", 24),
    ("public", "lower_tiles", "全小", 24),
    ("public", "three_suited_terminal_chows", "三色双龙会", 16),
    ("public", "all_fives", "全带五", 16),
    ("public", "triple_pung", "三同刻", 16),
    ("public", "lesser_honors_and_knitted_tiles", "全不靠", 12),
    ("public", "knitted_straight", "组合龙", 12),
    ("public", "upper_four", "大于五", 12),
    ("public", "mixed_straight", "花龙", 8),
    ("public", "reversible_tiles", "推不倒", 8),
    ("public", "mixed_triple_chow", "三色三同顺", 8),
    ("public", "mixed_shifted_pungs", "三色三节高", 8),
    ("public", "chicken_hand", "无番和", 8),
    ("public", "mixed_shifted_chows", "三色三步高", 6),
    ("public", "all_types", "五门齐", 6),
    ("public", "prevalent_wind", "圈风刻", 2),
    ("public", "seat_wind", "门风刻", 2),
    ("public", "double_pung", "双同刻", 2),
    ("public", "no_caishen", "无财神", 2),
    ("public", "mixed_double_chow", "喜相逢", 1),
    ("public", "one_voided_suit", "缺一门", 1),
    ("public", "no_honors", "无字", 1),
]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_row_count_matches_spec_heading(ruleset):
    assert len(fan_table(ruleset)) == EXPECTED_COUNTS[ruleset]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_ids_and_names_unique(ruleset):
    table = fan_table(ruleset)
    ids = [f.id for f in table]
    assert len(set(ids)) == len(ids)
    zh = [f.zh for f in table]
    assert len(set(zh)) == len(zh)
    en = [f.en for f in table]
    assert len(set(en)) == len(en)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_rows_well_formed(ruleset):
    for f in fan_table(ruleset):
        assert isinstance(f, FanDef)
        assert re.fullmatch(r"[a-z][a-z0-9_]*", f.id), f.id
        assert f.key == f.id.upper()
        assert f.zh and all(ord(c) > 0x2E80 or c in " ()0123456789" for c in f.zh), f.zh
        assert any(ord(c) > 0x2E80 for c in f.zh)
        assert f.en and f.en[0].isupper()
        assert f.points in (1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 88), (f.id, f.points)
        assert f.per is None or f.per in PER_VALUES
        assert f.origin.startswith("["), (f.id, f.origin)
        assert isinstance(f.excludes, tuple)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_exclusions_refer_to_fans_of_the_same_ruleset(ruleset):
    ids = {f.id for f in fan_table(ruleset)}
    for f in fan_table(ruleset):
        assert f.id not in f.excludes, f"{f.id} excludes itself"
        assert len(set(f.excludes)) == len(f.excludes), f.id
        for x in f.excludes:
            assert x in ids, f"{ruleset}: {f.id} excludes unknown {x}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_combination_flags_are_set_c(ruleset):
    table = fan_table(ruleset)
    flagged = {f.id for f in table if f.combination}
    assert flagged == SET_C_IDS & {f.id for f in table}
    for f in table:
        if f.combination:
            assert f.zh.split(" ")[0] in SET_C_ZH or f.zh in ("连6", "六连张", "老少配", "青龙"), f.zh


def test_set_c_complete_in_public():
    assert {f.id for f in fan_table("public") if f.combination} == SET_C_IDS
    assert len(SET_C_ZH) == 25


@pytest.mark.parametrize("ruleset", RULESETS)
def test_flower_derived_and_multiplicity(ruleset):
    table = fan_table(ruleset)
    flower = {f.id for f in table if f.flower_derived}
    expected = {"flower_tiles"}
    if ruleset == "two-player-bamboo":
        expected |= {"eight_immortals", "four_plants", "four_seasons"}
    assert flower == expected
    per = {f.id: f.per for f in table if f.per}
    assert per["flower_tiles"] == "per flower"
    assert per["pung_of_terminals_or_honors"] == "per pung"
    assert per["tile_hog"] == "per kind"
    for fid in ("pure_double_chow", "short_straight", "two_terminal_chows"):
        assert per[fid] == "repeatable"
    if ruleset == "public":
        assert per["mixed_double_chow"] == per["double_pung"] == "repeatable"
    assert len(per) == (8 if ruleset == "public" else 6)


@pytest.mark.parametrize(("ruleset", "fid", "zh", "points"), SPOT)
def test_spot_check_points_and_names(ruleset, fid, zh, points):
    f = fan_by_id(ruleset, fid)
    assert (f.zh, f.points) == (zh, points)


@pytest.mark.parametrize(
    ("ruleset", "fid", "excluded"),
    [
        # seed ids and +[MCR]/+[resolved]/+[proposed] ids are all in force
        ("two-player", "heavenly_hand", {"single_wait", "edge_wait", "closed_wait",
                                         "fully_concealed_hand", "concealed_hand", "self_drawn"}),
        ("two-player", "four_kongs", {"three_kongs", "two_concealed_kongs", "two_melded_kongs",
                                      "melded_kong", "concealed_kong", "single_wait", "all_pungs"}),
        ("two-player", "little_three_dragons", {"dragon_pung", "two_dragon_pungs"}),
        ("two-player", "big_three_winds", set()),
        ("two-player", "seven_pairs", {"concealed_hand", "fully_concealed_hand", "single_wait"}),
        ("two-player-bamboo", "eight_immortals", {"four_plants", "four_seasons"}),
        ("two-player-bamboo", "pure_terminal_chows", {"all_chows", "seven_pairs", "full_flush",
                                                      "pure_double_chow", "two_terminal_chows",
                                                      "no_honors", "pair_258"}),
        ("two-player-bamboo", "big_three_winds", {"pung_of_terminals_or_honors"}),
        ("two-player-bamboo", "riichi", set()),
        ("two-player-bamboo", "two_concealed_pungs", set()),
        ("public", "big_four_winds", {"prevalent_wind", "seat_wind", "big_three_winds",
                                      "all_pungs", "pung_of_terminals_or_honors"}),
        ("public", "all_terminals", {"all_pungs", "double_pung", "no_honors", "outside_hand",
                                     "pung_of_terminals_or_honors", "all_terminals_and_honors"}),
        ("public", "full_flush", {"no_honors", "one_voided_suit"}),
        ("public", "robbing_the_kong", {"last_tile"}),
        ("public", "knitted_straight", set()),
    ],
)
def test_exclusion_lists(ruleset, fid, excluded):
    assert set(fan_by_id(ruleset, fid).excludes) == excluded


def test_behaviour_notes_are_not_exclusions():
    f = fan_by_id("two-player", "big_three_winds")
    assert f.excludes == () and "D14" in f.note
    assert "D14" in fan_by_id("public", "dragon_pung").note
    assert "flower_tiles" not in fan_by_id("two-player-bamboo", "eight_immortals").excludes


def test_ruleset_specific_fans():
    two = {f.id for f in fan_table("two-player")}
    bamboo = {f.id for f in fan_table("two-player-bamboo")}
    public = {f.id for f in fan_table("public")}
    assert {"prevalent_wind", "seat_wind", "chicken_hand"}.isdisjoint(two | bamboo)
    # OP-51: bamboo has none of these two-player fans
    assert {"big_four_winds", "little_four_winds", "seven_shifted_pairs",
            "all_terminals_and_honors", "upper_four", "lower_four"}.isdisjoint(bamboo)
    assert {"heavenly_hand", "earthly_hand", "humanly_hand", "heavenly_ready"}.isdisjoint(public)
    assert "riichi" in bamboo and "riichi" not in two | public


def test_lookup_errors():
    with pytest.raises(RulesetError):
        fan_table("riichi")
    with pytest.raises(KeyError):
        fan_by_id("two-player", "riichi")
    assert FAN_TABLES["public"] is fan_table("public")


# shared/ lies beside the repository clone (dev workspace and CI)
_SPEC_CANDIDATES = [
    pathlib.Path(__file__).resolve().parents[2] / "shared" / "spec" / "rules.md",
    pathlib.Path("/work/shared/spec/rules.md"),
]
_SPEC = next((p for p in _SPEC_CANDIDATES if p.exists()), None)


@pytest.mark.skipif(_SPEC is None, reason="shared/spec/rules.md is not beside this checkout")
def test_every_row_matches_the_spec_document():
    text = _SPEC.read_text(encoding="utf-8")
    starts = {
        "two-player": "### 3.1 ",
        "two-player-bamboo": "### 3.2 ",
        "public": "### 3.3 ",
    }
    for ruleset, head in starts.items():
        section = text.split(head, 1)[1].split("\n### ", 1)[0]
        rows = [
            [c.strip() for c in ln.strip().strip("|").split(" | ")]
            for ln in section.splitlines()
            if re.match(r"^\| [a-z_0-9]+ \|", ln) and not ln.startswith("| id ")
        ]
        table = fan_table(ruleset)
        assert [r[0] for r in rows] == [f.id for f in table]
        for (fid, zh, pts, _defn, exc, origin), f in zip(rows, table):
            assert int(pts.split()[0]) == f.points, fid
            assert zh.startswith(f.zh), fid
            assert origin == f.origin, fid
            bare = re.sub(r"\[[^\]]*\]", "", re.sub(r"\([^()]*\)", "", exc))
            assert set(re.findall(r"[a-z][a-z0-9_]+", bare)) == set(f.excludes), fid
