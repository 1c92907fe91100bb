"""Per-fan acceptance cases of the three fan tables, as data (spec sections 3 and 4).

Every fan of every ruleset has at least two ``hit`` cases (the fan is counted, with
its count) and one ``miss`` (a close miss: the fan must be absent); every exclusion
(fan A excludes B, tables 3.1-3.3) has an ``exclusion`` case where A is counted and B,
although its definition holds for the hand, is absent (impossible pairs are listed in
``SKIPPED_EXCLUSIONS`` with the reason); the garbled seed lines of 3.4 that change a
score are tested as the spec resolved them (``source`` names the G-number).

Expected values were derived by hand from the definitions of section 3, the principles
of 4.1 and the worked cases of 4.4, not from an evaluator's output.  ``total`` is the
hand value F (flower-derived fans included) and is given where the whole fan list was
worked out.  A case whose expectation disagrees with the reference evaluator for a
reason the spec decides carries ``xfail_reason`` (spec clause).

Notation (spec 0.3 / ``mahjong_core.families.mahjong.tiles.parse_tiles``): ``hand`` is the concealed
tiles WITHOUT the winning tile (for 天胡 all 14 tiles and ``win=None``); ``melds`` are
``"pon CCC"``, ``"chi 123m"``, ``"kong EEEE"`` (exposed, also added kongs) and
``"ckong 9999m"`` (concealed kong); ``flowers`` like ``"1234f"`` (1f..8f = 春夏秋冬梅兰竹菊);
``seat``/``round`` are wind letters (only `public` scores them); ``flags`` are the keyword
flags of ``evaluate`` (``self_drawn``, ``last_tile``, ``kong_replacement``,
``flower_replacement``, ``robbing_kong``, ``last_of_kind``, ``ready_declared``,
``ready_concealed``, ``heavenly``, ``earthly``, ``humanly``, ``heavenly_ready``,
``options``).  ``sum_of`` lists ``((fan ids), n)``: the counts of those fans must add up
to n (used where 4.1 P5 allows several equally valued choices).
"""

from __future__ import annotations

from typing import NamedTuple


class Case(NamedTuple):
    ruleset: str
    fan_id: str
    kind: str  # "hit" | "miss" | "exclusion"
    hand: str
    win: "str | None"
    melds: tuple = ()
    flags: dict = {}
    flowers: str = ""
    seat: str = "E"
    round: str = "E"
    expect_present: dict = {}
    expect_absent: tuple = ()
    total: "int | None" = None
    source: str = ""
    xfail_reason: "str | None" = None
    sum_of: tuple = ()


_CASE_FIELDS = {"flowers", "seat", "round", "xfail_reason", "sum_of"}


class _Builder:
    """Small helper so that each case fits on a few lines."""

    def __init__(self, ruleset: str):
        self.ruleset = ruleset
        self.cases: list[Case] = []

    def _add(self, fan, kind, hand, win, melds, present, absent, total, src, kw):
        extra = {k: kw.pop(k) for k in list(kw) if k in _CASE_FIELDS}
        melds_t = tuple(m.strip() for m in melds.split(",") if m.strip()) if isinstance(melds, str) else tuple(melds)
        self.cases.append(Case(
            ruleset=self.ruleset, fan_id=fan, kind=kind, hand=hand, win=win, melds=melds_t,
            flags=dict(kw), expect_present=dict(present), expect_absent=tuple(absent),
            total=total, source=src, **extra,
        ))

    def hit(self, fan, hand, win, melds="", *, n=1, also=None, absent=(), total=None, src="", **kw):
        self._add(fan, "hit", hand, win, melds, {fan: n, **(also or {})}, absent, total, src, kw)

    def miss(self, fan, hand, win, melds="", *, also=None, absent=(), total=None, src="", **kw):
        self._add(fan, "miss", hand, win, melds, dict(also or {}), (fan, *absent), total, src, kw)

    def excl(self, fan, excluded, hand, win, melds="", *, n=1, also=None, absent=(), total=None, src="", **kw):
        if isinstance(excluded, str):
            excluded = (excluded,)
        self._add(fan, "exclusion", hand, win, melds, {fan: n, **(also or {})}, (*excluded, *absent),
                  total, src, kw)


SD = {"self_drawn": True}

# =====================================================================================
# two-player [000][004]: characters (m) and honors only.  Table 3.1.
# =====================================================================================
T = _Builder("two-player")

# --- first-turn fans (2.11) ------------------------------------------------------------
T.hit("heavenly_hand", "123456789mEEE99m", None, heavenly=True,
      also={"pure_straight": 1, "half_flush": 1, "pung_of_terminals_or_honors": 1}, total=71,
      src="4.4 #5")
T.hit("heavenly_hand", "234m234m567m678m88m", None, heavenly=True,
      also={"full_flush": 1, "all_simples": 1, "all_chows": 1, "pure_double_chow": 1, "short_straight": 1},
      total=78, src="3.1 天胡; P5: 234+234 一般高 and one 连六 (234+567)")
T.miss("heavenly_hand", "123456789mEEE9m", "9m", self_drawn=True,
       also={"fully_concealed_hand": 1}, src="3.1 天胡: an ordinary self-draw of the same tiles")
T.excl("heavenly_hand", ("fully_concealed_hand", "concealed_hand", "self_drawn"), "123456789mEEE99m", None,
       heavenly=True, total=71, src="3.1 天胡 +[resolved] excludes 不求人/门前清/自摸 (OP-23); D7 天胡 is self-drawn")
T.excl("heavenly_hand", ("single_wait", "edge_wait", "closed_wait"), "123m456m789mEEE9m", "9m", heavenly=True,
       total=71, src="3.1 天胡 excludes 单钓将/边张/坎张: no winning tile, a passed tile is just one of the 14")

T.hit("earthly_hand", "123m456m789mEEE9m", "9m", earthly=True,
      also={"pure_straight": 1, "half_flush": 1, "pung_of_terminals_or_honors": 1}, total=55,
      src="2.11 地胡; waits 3m/6m/9m: no 单钓将")
T.hit("earthly_hand", "EEESSS123m789mC", "C", earthly=True,
      also={"half_flush": 1, "outside_hand": 1, "two_concealed_pungs": 1, "pung_of_terminals_or_honors": 2,
            "two_terminal_chows": 1, "single_wait": 1}, total=48, src="2.11 地胡")
T.miss("earthly_hand", "EEESSS123m789mC", "C", self_drawn=True, also={"fully_concealed_hand": 1},
       src="2.11: not the first draw")
T.excl("earthly_hand", ("fully_concealed_hand", "concealed_hand", "self_drawn"), "EEESSS123m789mC", "C",
       earthly=True, total=48, src="3.1 地胡 +[resolved] (OP-23)")

T.hit("humanly_hand", "123m456m789mEE99m", "E", humanly=True,
      also={"pure_straight": 1, "half_flush": 1, "pung_of_terminals_or_honors": 1}, total=47,
      src="2.11 人胡; EEE completed by the discard is exposed (D6)")
T.hit("humanly_hand", "234m567m789mEEEC", "C", humanly=True,
      also={"half_flush": 1, "pung_of_terminals_or_honors": 1, "short_straight": 1, "single_wait": 1},
      total=33, src="2.11 人胡")
T.miss("humanly_hand", "234m567m789mEEEC", "C", also={"concealed_hand": 1}, total=11,
       src="ordinary discard win")
T.excl("humanly_hand", "concealed_hand", "234m567m789mEEEC", "C", humanly=True, total=33,
       src="3.1 人胡 +[resolved] excludes 门前清")

T.hit("heavenly_ready", "123m456m789mEE99m", "E", heavenly_ready=True,
      also={"concealed_hand": 1, "pure_straight": 1}, total=41, src="2.11 天听")
T.hit("heavenly_ready", "234m567m789mEEEC", "C", heavenly_ready=True, humanly=True,
      also={"humanly_hand": 1}, total=49, src="OP-22: 天听 combines with 人胡")
T.miss("heavenly_ready", "123m456m789mEE99m", "E", total=25, src="no 报听 in the window")

# --- 88 --------------------------------------------------------------------------------
T.hit("big_four_winds", "5m", "5m", "pon EEE, pon SSS, pon WWW, pon NNN",
      also={"melded_hand": 1, "half_flush": 1}, total=100, src="3.1 大四喜")
T.hit("big_four_winds", "NN22m", "N", "pon EEE, pon SSS, pon WWW", also={"half_flush": 1}, total=94,
      src="3.1 大四喜 (NNN completed by the discard)")
T.miss("big_four_winds", "NN23m", "4m", "pon EEE, pon SSS, pon WWW", also={"little_four_winds": 1},
       total=70, src="wind pair instead of the fourth pung: 小四喜")
T.excl("big_four_winds", ("big_three_winds", "all_pungs", "pung_of_terminals_or_honors"), "NN22m", "N",
       "pon EEE, pon SSS, pon WWW", total=94, src="3.1 大四喜 excludes 三风刻/碰碰和/幺九刻")

T.hit("big_three_dragons", "PPP999m5m", "5m", "pon CCC, pon FFF", **SD,
      also={"half_flush": 1, "all_pungs": 1, "pung_of_terminals_or_honors": 1, "two_concealed_pungs": 1,
            "single_wait": 1, "self_drawn": 1}, total=105, src="4.4 #1 / 4.1 P1 (D14: 999m keeps 幺九刻)")
T.hit("big_three_dragons", "CCCFFFPPP123m5m", "5m",
      also={"half_flush": 1, "three_concealed_pungs": 1, "concealed_hand": 1, "single_wait": 1}, total=113,
      src="3.1 大三元")
T.miss("big_three_dragons", "CCCFFFPP123m55m", "5m", also={"little_three_dragons": 1}, total=74,
       src="pair of the third dragon: 小三元")
T.excl("big_three_dragons", ("dragon_pung", "two_dragon_pungs"), "CCCFFFPPP123m5m", "5m", total=113,
       src="3.1 大三元 excludes 箭刻/双箭刻")

T.hit("nine_gates", "1112345678999m", "2m", also={"two_concealed_pungs": 1, "short_straight": 1}, total=91,
      src="4.4 #7")
T.hit("nine_gates", "1112345678999m", "9m", **SD,
      also={"pure_straight": 1, "tile_hog": 1, "self_drawn": 1}, total=107,
      src="3.1 九莲宝灯: winning on 9 adds 清龙 and 四归一; 4.3.3 自摸 stays")
T.miss("nine_gates", "1112345678899m", "9m", also={"full_flush": 1}, src="13 tiles not 1112345678999")
T.excl("nine_gates", ("full_flush", "concealed_hand", "pung_of_terminals_or_honors"), "1112345678999m", "2m",
       total=91, src="3.1 九莲宝灯 excludes 清一色/门前清/every 幺九刻 (D14 two-player)")
T.excl("nine_gates", ("fully_concealed_hand", "full_flush"), "1112345678999m", "9m", **SD, also={"self_drawn": 1},
       total=107, src="3.1 九莲宝灯 excludes 不求人; 4.3.3 (no propagation) keeps 自摸")

T.hit("four_kongs", "E", "E", "kong 2222m, kong 5555m, kong 8888m, kong CCCC",
      also={"melded_hand": 1, "half_flush": 1, "dragon_pung": 1}, total=102, src="3.1 四杠")
T.hit("four_kongs", "E", "E", "ckong 2222m, ckong 5555m, kong 8888m, kong CCCC", **SD,
      also={"half_flush": 1, "dragon_pung": 1, "two_concealed_pungs": 1, "self_drawn": 1}, total=99,
      src="D13: four kongs of which two concealed give 四杠 + 双暗刻")
T.miss("four_kongs", "E", "E", "kong 2222m, kong 5555m, kong 8888m, pon CCC",
       also={"three_kongs": 1, "all_pungs": 1}, total=52, src="three kongs and a pung")
T.excl("four_kongs", ("three_kongs", "two_melded_kongs", "melded_kong", "all_pungs"), "E", "E",
       "kong 2222m, kong 5555m, kong 8888m, kong CCCC", total=102, src="3.1 四杠 exclusions")
T.excl("four_kongs", ("three_kongs", "two_concealed_kongs", "concealed_kong", "melded_kong", "single_wait",
                      "all_pungs"), "E", "E", "ckong 2222m, ckong 5555m, kong 8888m, kong CCCC", **SD,
       total=99, src="3.1 四杠 exclusions; E is the only wait (单钓将 holds)")

T.hit("seven_shifted_pairs", "1122334455667m", "7m", total=88, src="3.1 连七对")
T.hit("seven_shifted_pairs", "2233445566778m", "8m", **SD, also={"all_simples": 1, "self_drawn": 1}, total=91,
      src="3.1 连七对; 4.3.3 自摸 stays")
T.miss("seven_shifted_pairs", "1122334455668m", "8m", also={"seven_pairs": 1, "full_flush": 1}, total=48,
       src="seven pairs, ranks not consecutive")
T.excl("seven_shifted_pairs", ("full_flush", "concealed_hand", "seven_pairs", "single_wait"), "1122344556677m",
       "3m", total=88, src="3.1 连七对 excludes 清一色/门前清/七对/单钓将 (the only wait is 3m)")
T.excl("seven_shifted_pairs", "fully_concealed_hand", "2233445566778m", "8m", **SD, also={"self_drawn": 1},
       total=91, src="3.1 连七对 excludes 不求人")

T.hit("little_four_winds", "NN23m", "4m", "pon EEE, pon SSS, pon WWW", also={"half_flush": 1}, total=70,
      src="3.1 小四喜")
T.hit("little_four_winds", "EEESSSWWWNN55m", "5m",
      also={"three_concealed_pungs": 1, "half_flush": 1, "all_pungs": 1, "concealed_hand": 1}, total=94,
      src="3.1 小四喜 (555m exposed by the discard, D6)")
T.miss("little_four_winds", "CC23m", "4m", "pon EEE, pon SSS, pon WWW", also={"big_three_winds": 1}, total=18,
       src="dragon pair instead of the fourth wind")
T.excl("little_four_winds", ("big_three_winds", "pung_of_terminals_or_honors"), "NN23m", "1m",
       "pon EEE, pon SSS, pon WWW", also={"outside_hand": 1}, total=74,
       src="3.1 小四喜 excludes 三风刻 and every 幺九刻")

T.hit("little_three_dragons", "CCCFFFPP123m55m", "5m",
      also={"half_flush": 1, "concealed_hand": 1, "two_concealed_pungs": 1}, total=74, src="3.1 小三元")
T.hit("little_three_dragons", "PP789m11m", "1m", "pon CCC, pon FFF",
      also={"half_flush": 1, "outside_hand": 1, "pung_of_terminals_or_honors": 1}, total=75, src="3.1 小三元")
T.miss("little_three_dragons", "CCCFFF123m555m9m", "9m", also={"two_dragon_pungs": 1},
       src="non-dragon pair")
T.excl("little_three_dragons", ("dragon_pung", "two_dragon_pungs"), "CCCFFFPP123m55m", "5m", total=74,
       src="G000-9/G004-1: 小三元 excludes 箭刻, 双箭刻")

T.hit("all_honors", "SSSFFNN", "F", "pon EEE, pon CCC", also={"two_dragon_pungs": 1}, absent=("dragon_pung",),
      total=70, src="3.1 字一色")
T.hit("all_honors", "EESSWWNNCCFFP", "P", also={"seven_pairs": 1}, total=88,
      src="D12/OP-35: 字一色 on seven pairs (字一色 + 七对 = 88)")
T.miss("all_honors", "SSSWW11m", "1m", "pon EEE, pon CCC", also={"all_terminals_and_honors": 1},
       src="one pung of 1m: 混幺九")
T.excl("all_honors", ("all_pungs", "outside_hand", "pung_of_terminals_or_honors"), "SSSFFNN", "F",
       "pon EEE, pon CCC", total=70, src="3.1 字一色 exclusions")

T.hit("four_concealed_pungs", "111m333m555mEEE9m", "9m",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 2, "single_wait": 1}, total=73, src="3.1 四暗刻")
T.hit("four_concealed_pungs", "111m333m555mEE99m", "E", **SD,
      also={"half_flush": 1, "pung_of_terminals_or_honors": 2, "self_drawn": 1}, total=73,
      src="3.1 四暗刻: 自摸 still counts")
T.miss("four_concealed_pungs", "111m333m555mEE99m", "E",
       also={"three_concealed_pungs": 1, "all_pungs": 1, "concealed_hand": 1}, total=32,
       src="D6: the discard makes EEE exposed")
T.excl("four_concealed_pungs", ("concealed_hand", "all_pungs", "three_concealed_pungs", "two_concealed_pungs"),
       "111m333m555mEEE9m", "9m", total=73, src="3.1 四暗刻 exclusions")
T.excl("four_concealed_pungs", "fully_concealed_hand", "111m333m555mEE99m", "E", **SD,
       also={"self_drawn": 1}, total=73, src="3.1 四暗刻 excludes 不求人; 4.3.3 自摸 stays")

T.hit("pure_terminal_chows", "123m123m789m789m5m", "5m", also={"concealed_hand": 1, "single_wait": 1},
      total=67, src="3.1 一色双龙会")
T.hit("pure_terminal_chows", "123m789m5m", "5m", "chi 123m, chi 789m", also={"single_wait": 1}, total=65,
      src="3.1 一色双龙会")
T.miss("pure_terminal_chows", "123m123m789m789m6m", "6m", also={"full_flush": 1},
       src="pair 66 instead of 55")
T.excl("pure_terminal_chows", ("all_chows", "seven_pairs", "full_flush", "pure_double_chow", "two_terminal_chows"),
       "123m123m789m789m5m", "5m", total=67, src="3.1 一色双龙会 exclusions (the tiles are also 7 pairs)")

# --- 48 / 32 ---------------------------------------------------------------------------
T.hit("quadruple_chow", "234m234m234m234mE", "E",
      also={"half_flush": 1, "concealed_hand": 1, "single_wait": 1}, total=57,
      src="3.1 一色四同顺 (P4: beats 222 333 444 234)")
T.hit("quadruple_chow", "345m345m9m", "9m", "chi 345m, chi 345m",
      also={"full_flush": 1, "all_chows": 1, "single_wait": 1}, total=75, src="3.1 一色四同顺")
T.miss("quadruple_chow", "234m234m234m345mE", "E", also={"pure_shifted_pungs": 1},
       src="one chow shifted; P4 then prefers 222 333 444 345")
T.excl("quadruple_chow", ("pure_shifted_pungs", "pure_double_chow", "tile_hog", "pure_triple_chow",
                          "seven_pairs"), "234m234m234m234mE", "E", total=57,
       src="3.1 一色四同顺 exclusions (the tiles also read 222 333 444 and as 7 pairs)")

T.hit("four_pure_shifted_pungs", "444m555m9m", "9m", "pon 222m, pon 333m",
      also={"full_flush": 1, "single_wait": 1, "two_concealed_pungs": 1}, total=75, src="3.1 一色四节高")
T.hit("four_pure_shifted_pungs", "888mE", "E", "pon 555m, pon 666m, pon 777m",
      also={"half_flush": 1, "single_wait": 1}, total=55, src="3.1 一色四节高")
T.miss("four_pure_shifted_pungs", "444m666m9m", "9m", "pon 222m, pon 333m", also={"pure_shifted_pungs": 1},
       src="222 333 444 666")
T.excl("four_pure_shifted_pungs", ("pure_triple_chow", "pure_shifted_pungs", "all_pungs"),
       "222m333m444m555m9m", "9m",
       also={"four_concealed_pungs": 1, "full_flush": 1, "single_wait": 1}, total=137,
       src="3.1 一色四节高 exclusions (222333444 also reads 234x3)")

T.hit("four_pure_shifted_chows", "123m234m345m456mE", "E",
      also={"half_flush": 1, "concealed_hand": 1, "single_wait": 1}, total=41, src="3.1 一色四步高 (+1)")
T.hit("four_pure_shifted_chows", "789m9m", "9m", "chi 123m, chi 345m, chi 567m",
      also={"full_flush": 1, "all_chows": 1}, total=58, src="3.1 一色四步高 (+2)")
T.miss("four_pure_shifted_chows", "123m234m345m567mE", "E", also={"pure_shifted_chows": 1},
       src="123 234 345 567")
T.excl("four_pure_shifted_chows", ("pure_shifted_chows", "short_straight"), "123m234m345m456mE", "E",
       total=41, src="3.1 一色四步高 excludes 一色三步高, 连六 (P2 example 123 234 345 456)")
T.excl("four_pure_shifted_chows", "two_terminal_chows", "789m9m", "9m", "chi 123m, chi 345m, chi 567m",
       total=58, src="P2 example 123 345 567 789: no 老少副")

T.hit("three_kongs", "23m55m", "1m", "kong EEEE, kong SSSS, kong CCCC",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 2, "dragon_pung": 1}, total=42, src="3.1 三杠")
T.hit("three_kongs", "EEE9m", "9m", "ckong 2222m, ckong 5555m, kong 8888m", **SD,
      also={"three_concealed_pungs": 1, "half_flush": 1, "all_pungs": 1, "pung_of_terminals_or_honors": 1,
            "single_wait": 1, "self_drawn": 1}, total=63, src="3.1 三杠, D13")
T.miss("three_kongs", "23m55m", "1m", "kong EEEE, kong SSSS, pon CCC", also={"two_melded_kongs": 1},
       src="two kongs and a pung")
T.excl("three_kongs", ("two_melded_kongs", "melded_kong"), "23m55m", "1m", "kong EEEE, kong SSSS, kong CCCC",
       total=42, src="3.1 三杠 exclusions")
T.excl("three_kongs", ("two_concealed_kongs", "concealed_kong", "melded_kong"), "EEE9m", "9m",
       "ckong 2222m, ckong 5555m, kong 8888m", **SD, total=63, src="3.1 三杠 exclusions")

T.hit("all_terminals_and_honors", "999mCCNN", "N", "pon EEE, pon 111m", also={"half_flush": 1}, total=38,
      src="3.1 混幺九; G000-10 (字牌和序数牌一、九)")
T.hit("all_terminals_and_honors", "11m99mEESSWWCCP", "P", also={"seven_pairs": 1, "half_flush": 1}, total=62,
      src="D12/OP-35: 混幺九 on seven pairs")
T.miss("all_terminals_and_honors", "999mCC22m", "2m", "pon EEE, pon 111m", also={"all_pungs": 1},
       src="one pung of 2m")
T.excl("all_terminals_and_honors", ("all_pungs", "pung_of_terminals_or_honors", "outside_hand"), "999mCCNN", "N",
       "pon EEE, pon 111m", total=38, src="3.1 混幺九 exclusions")

# --- 24 --------------------------------------------------------------------------------
T.hit("seven_pairs", "1111m33m55m77mEEW", "W", **SD,
      also={"half_flush": 1, "tile_hog": 1, "self_drawn": 1}, total=33, src="4.4 #4; OP-34")
T.hit("seven_pairs", "11m33m55m77m99mEES", "S", also={"half_flush": 1}, total=30, src="3.1 七对")
T.miss("seven_pairs", "11m22m33m444m55mEE", "E", src="a pung breaks the pairs")
T.excl("seven_pairs", "fully_concealed_hand", "1111m33m55m77mEEW", "W", **SD, also={"self_drawn": 1},
       total=33, src="3.1 七对 +[MCR] excludes 不求人; 4.3.3 自摸 stays")
T.excl("seven_pairs", ("concealed_hand", "single_wait"), "11m33m55m77m99mEES", "S", total=30,
       src="3.1 七对 +[MCR] excludes 门前清, 单钓将 (S is the only wait)")

T.hit("full_flush", "67m55m", "8m", "chi 123m, chi 456m, pon 999m",
      also={"pung_of_terminals_or_honors": 1, "short_straight": 1}, total=26, src="3.1 清一色")
T.hit("full_flush", "11m22m44m55m77m88m9m", "9m", also={"seven_pairs": 1}, total=48, src="3.1 清一色 (D12)")
T.miss("full_flush", "67m55m", "8m", "chi 123m, chi 456m, pon CCC", also={"half_flush": 1}, src="one honor pung")

T.hit("pure_triple_chow", "234m678mE", "E", "chi 234m, chi 234m",
      also={"half_flush": 1, "single_wait": 1}, total=31, src="3.1 一色三同顺")
T.hit("pure_triple_chow", "567m567m11mEE", "E", "chi 567m",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 1}, total=31, src="3.1 一色三同顺")
T.miss("pure_triple_chow", "234m678mE", "E", "chi 234m, chi 345m", also={"half_flush": 1},
       src="234 234 345: no three identical chows")
T.excl("pure_triple_chow", "pure_double_chow", "234m678mE", "E", "chi 234m, chi 234m", total=31,
       src="3.1 一色三同顺 excludes 一般高")
T.excl("pure_triple_chow", "pure_shifted_pungs", "55m666m777m234m88m", "5m",
       also={"full_flush": 1, "concealed_hand": 1, "all_simples": 1, "all_chows": 1, "short_straight": 1},
       total=55, src="3.1 一色三同顺 excludes 一色三节高; P4: chow reading 55 > pung reading 54 (555 exposed)")

T.hit("pure_shifted_pungs", "555666777m23m88m", "4m", **SD,
      also={"three_concealed_pungs": 1, "full_flush": 1, "fully_concealed_hand": 1, "all_simples": 1},
      total=70, src="4.4 #3 / 4.1 P4")
T.hit("pure_shifted_pungs", "333mNNWW", "W", "pon 111m, pon 222m",
      also={"half_flush": 1, "all_pungs": 1, "pung_of_terminals_or_honors": 2}, total=38, src="3.1 一色三节高")
T.miss("pure_shifted_pungs", "444mNNWW", "W", "pon 111m, pon 222m", also={"all_pungs": 1}, src="111 222 444")
T.excl("pure_shifted_pungs", "pure_triple_chow", "555666777m23m88m", "4m", **SD, total=70,
       src="3.1 一色三节高 excludes 一色三同顺 (555666777 also reads 567x3)")

# --- 16 --------------------------------------------------------------------------------
T.hit("pure_straight", "123m456m789m11mEE", "E",
      also={"half_flush": 1, "concealed_hand": 1, "pung_of_terminals_or_honors": 1}, total=25, src="3.1 清龙")
T.hit("pure_straight", "123m456m789m789m5m", "5m", also={"full_flush": 1, "all_chows": 1},
      sum_of=((("pure_double_chow", "short_straight", "two_terminal_chows"), 1),),
      src="[000] example 123456789 789 55; D15: the extra 789 forms exactly one more combination fan")
T.miss("pure_straight", "123m456m678m11mEE", "E", src="123 456 678")
T.excl("pure_straight", ("short_straight", "two_terminal_chows"), "123m456m789m11mEE", "E", total=25,
       src="3.1 清龙 excludes 连6, 老少副")
T.excl("pure_straight", (), "123m456m789m123mE", "E", also={"half_flush": 1}, total=26,
       sum_of=((("pure_double_chow", "short_straight", "two_terminal_chows"), 1),),
       src="D15/P5 scoped exclusion: 123 456 789 + 123 scores 清龙 + one of 一般高/连六/老少副")

T.hit("pure_shifted_chows", "123m234m345m99mEE", "E",
      also={"half_flush": 1, "concealed_hand": 1, "pung_of_terminals_or_honors": 1}, total=25,
      src="3.1 一色三步高 (+1)")
T.hit("pure_shifted_chows", "567mCC99m", "9m", "chi 123m, chi 345m",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 1}, total=23, src="3.1 一色三步高 (+2)")
T.miss("pure_shifted_chows", "123m234m456m99mEE", "E", also={"short_straight": 1}, src="123 234 456")

T.hit("three_concealed_pungs", "555m777mEEE9m", "9m", "chi 123m",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 1}, total=23, src="3.1 三暗刻 (waits 8m/9m)")
T.hit("three_concealed_pungs", "222m444m666m8m", "8m", "pon 999m", **SD,
      also={"all_pungs": 1, "full_flush": 1, "pung_of_terminals_or_honors": 1, "self_drawn": 1}, total=48,
      src="3.1 三暗刻")
T.miss("three_concealed_pungs", "555m777mEE99m", "E", "chi 123m", also={"two_concealed_pungs": 1},
       src="D6: EEE completed by the discard")
T.excl("three_concealed_pungs", "two_concealed_pungs", "555m777mEEE9m", "9m", "chi 123m", total=23,
       src="3.1 三暗刻 excludes 双暗刻")

# --- 12 --------------------------------------------------------------------------------
T.hit("upper_four", "789m99m66m", "9m", "chi 678m, chi 678m",
      also={"full_flush": 1, "pure_double_chow": 1, "pung_of_terminals_or_honors": 1, "tile_hog": 2}, total=42,
      src="3.1 大于5 (P1: + 清一色; 14 tiles of 4 ranks force 四归一)")
T.hit("upper_four", "789m77m88m", "8m", "pon 666m, pon 999m",
      also={"full_flush": 1, "pung_of_terminals_or_honors": 1, "tile_hog": 2}, total=41, src="3.1 大于5")
T.miss("upper_four", "789m99m66m", "9m", "chi 567m, chi 678m", also={"full_flush": 1}, src="a 5m")

T.hit("lower_four", "123m11m44m", "1m", "chi 234m, chi 234m",
      also={"full_flush": 1, "pure_double_chow": 1, "pung_of_terminals_or_honors": 1, "tile_hog": 2}, total=42,
      src="G000-2: 小于5 is worth 12 (not 8)")
T.hit("lower_four", "123m22m33m", "3m", "pon 111m, pon 444m",
      also={"full_flush": 1, "pung_of_terminals_or_honors": 1, "tile_hog": 2}, total=41,
      src="G000-2: 小于5 = 12")
T.miss("lower_four", "123m11m44m", "1m", "chi 234m, chi 345m", also={"full_flush": 1}, src="a 5m")

T.hit("big_three_winds", "CC23m", "4m", "pon EEE, pon SSS, pon WWW", also={"half_flush": 1},
      absent=("pung_of_terminals_or_honors",), total=18, src="3.1 三风刻; D14 its pungs score no 幺九刻")
T.hit("big_three_winds", "EEESSSNNN789m5m", "5m",
      also={"half_flush": 1, "three_concealed_pungs": 1, "concealed_hand": 1, "single_wait": 1}, total=37,
      src="3.1 三风刻")
T.hit("big_three_winds", "999m5m", "5m", "pon EEE, pon SSS, pon WWW",
      also={"half_flush": 1, "all_pungs": 1, "pung_of_terminals_or_honors": 1, "single_wait": 1}, total=26,
      src="D14: another terminal pung (999m) still scores 幺九刻")
T.miss("big_three_winds", "CC23m", "4m", "pon EEE, pon SSS, pon FFF",
       also={"pung_of_terminals_or_honors": 2, "dragon_pung": 1}, src="two winds and a dragon")

# --- 8 ---------------------------------------------------------------------------------
T.hit("last_tile_draw", "456m789mEEE5m", "5m", "chi 123m", self_drawn=True, last_tile=True, sum_of=((("single_wait", "closed_wait"), 1),), 
      also={"pure_straight": 1, "half_flush": 1, "pung_of_terminals_or_honors": 1},
      total=32, src="3.1 妙手回春")
T.hit("last_tile_draw", "456m789m9m", "9m", "kong CCCC, chi 123m", self_drawn=True, last_tile=True,
      kong_replacement=True,
      also={"out_with_replacement_tile": 1, "pure_straight": 1, "half_flush": 1, "dragon_pung": 1,
            "melded_kong": 1}, total=41, src="3.1 杠上开花 'may combine with 妙手回春' (replacement is the last tile)")
T.miss("last_tile_draw", "456m789mEEE5m", "5m", "chi 123m", last_tile=True, also={"last_tile_claim": 1},
       src="discard after the last tile: 海底捞月")
T.excl("last_tile_draw", "self_drawn", "456m789mEEE5m", "5m", "chi 123m", self_drawn=True, last_tile=True,
       total=32, src="G000-3: 妙手回春 excludes 自摸")

T.hit("last_tile_claim", "456m789mEEE5m", "5m", "chi 123m", last_tile=True, sum_of=((("single_wait", "closed_wait"), 1),), 
      also={"pure_straight": 1, "half_flush": 1, "pung_of_terminals_or_honors": 1},
      total=32, src="3.1 海底捞月")
T.hit("last_tile_claim", "123m456m789m11mEE", "E", last_tile=True, also={"concealed_hand": 1}, total=33,
      src="3.1 海底捞月")
T.miss("last_tile_claim", "123m456m789m11mEE", "E", self_drawn=True, last_tile=True,
       also={"last_tile_draw": 1}, src="self-drawn last tile: 妙手回春")

T.hit("out_with_replacement_tile", "123m456m789m5m", "5m", "kong CCCC", self_drawn=True, kong_replacement=True,
      also={"pure_straight": 1, "half_flush": 1, "dragon_pung": 1, "melded_kong": 1}, sum_of=((("single_wait", "closed_wait"), 1),), 
      total=34, src="3.1 杠上开花 (5m completes the pair or the 456: one wait fan, D9)")
T.hit("out_with_replacement_tile", "123m456m789m5m", "5m", "ckong CCCC", self_drawn=True, kong_replacement=True,
      also={"fully_concealed_hand": 1, "concealed_kong": 1}, total=39, src="3.1 杠上开花 after a concealed kong")
T.miss("out_with_replacement_tile", "123m456m789m5m", "5m", "pon CCC", self_drawn=True,
       flower_replacement=True, flowers="1f",
       also={"self_drawn": 1, "flower_tiles": 1}, total=27,
       src="2.6: a win on a flower replacement is 自摸, not 杠上开花 ([000][004] 不包括补花)")
T.excl("out_with_replacement_tile", "self_drawn", "123m456m789m5m", "5m", "kong CCCC", self_drawn=True,
       kong_replacement=True, total=34, src="3.1 杠上开花 excludes 自摸")

T.hit("robbing_the_kong", "123m345m78mEEE55m", "9m", robbing_kong=True, last_of_kind=True,
      also={"half_flush": 1, "concealed_hand": 1, "pung_of_terminals_or_honors": 1, "two_terminal_chows": 1},
      total=18, src="2.8 抢杠胡 (the three other 9m are the robbed kong: 和绝张 holds but is excluded)")
T.hit("robbing_the_kong", "46mEE", "5m", "chi 123m, pon CCC, pon 999m", robbing_kong=True,
      also={"half_flush": 1, "dragon_pung": 1, "closed_wait": 1, "pung_of_terminals_or_honors": 1, "short_straight": 1},
      total=19, src="2.8 抢杠胡")
T.miss("robbing_the_kong", "46mEE", "5m", "chi 123m, pon CCC, pon 999m", total=11, src="ordinary discard")
T.excl("robbing_the_kong", "last_tile", "123m345m78mEEE55m", "9m", robbing_kong=True, last_of_kind=True,
       total=18, src="3.1 抢杠胡 excludes 胡绝张")

# --- 6 ---------------------------------------------------------------------------------
T.hit("all_pungs", "888mEE99m", "E", "pon 222m, pon 555m",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 1}, total=13,
      src="G000-1: four pungs + pair is a winning form (碰碰和)")
T.hit("all_pungs", "777m9m", "9m", "pon 111m, pon 333m, pon 555m", **SD,
      also={"full_flush": 1, "pung_of_terminals_or_honors": 1, "self_drawn": 1}, total=32, src="3.1 碰碰和")
T.miss("all_pungs", "888mEE99m", "E", "pon 222m, chi 456m", src="one chow")

T.hit("half_flush", "789m55mEE", "E", "chi 123m, chi 456m",
      also={"pure_straight": 1, "pung_of_terminals_or_honors": 1}, total=23, src="3.1 混一色")
T.hit("half_flush", "234m567m88mSS", "S", "pon CCC",
      also={"dragon_pung": 1, "pung_of_terminals_or_honors": 1, "short_straight": 1}, total=10, src="3.1 混一色")
T.miss("half_flush", "789m55m99m", "9m", "chi 123m, chi 456m", also={"full_flush": 1}, src="no honor")

T.hit("melded_hand", "5m", "5m", "chi 123m, chi 456m, pon 999m, pon EEE",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 2, "short_straight": 1}, total=15, src="3.1 全求人")
T.hit("melded_hand", "E", "E", "kong CCCC, pon FFF, chi 234m, chi 678m",
      also={"half_flush": 1, "two_dragon_pungs": 1, "melded_kong": 1}, total=19, src="3.1 全求人")
T.miss("melded_hand", "5m", "5m", "chi 123m, chi 456m, pon 999m, pon EEE", **SD,
       also={"single_wait": 1, "self_drawn": 1}, src="self-drawn: not 全求人")
T.excl("melded_hand", "single_wait", "5m", "5m", "chi 123m, chi 456m, pon 999m, pon EEE", total=15,
       src="3.1 全求人 excludes 单钓将")

T.hit("two_concealed_kongs", "789mCC99m", "C", "ckong 2222m, ckong 5555m",
      also={"half_flush": 1, "dragon_pung": 1, "concealed_hand": 1}, total=16, src="3.1 双暗杠")
T.hit("two_concealed_kongs", "123m456m5m", "5m", "ckong EEEE, ckong 9999m", **SD,
      also={"half_flush": 1, "pung_of_terminals_or_honors": 2, "fully_concealed_hand": 1, "short_straight": 1},
      sum_of=((("single_wait", "closed_wait"), 1),), total=20, src="3.1 双暗杠; D5 concealed kongs keep the hand concealed")
T.miss("two_concealed_kongs", "789mCC99m", "C", "ckong 2222m, kong 5555m",
       also={"concealed_kong": 1, "melded_kong": 1}, src="one kong exposed (OP-41)")
T.excl("two_concealed_kongs", ("two_concealed_pungs", "concealed_kong"), "789mCC99m", "C",
       "ckong 2222m, ckong 5555m", total=16, src="3.1 双暗杠 excludes 双暗刻 (+[MCR] 暗杠), D13")

T.hit("two_dragon_pungs", "123m456m9m", "9m", "pon CCC, pon FFF",
      also={"half_flush": 1, "single_wait": 1, "short_straight": 1}, total=14, src="3.1 双箭刻")
T.hit("two_dragon_pungs", "CCCFFF234m567m8m", "8m",
      also={"half_flush": 1, "two_concealed_pungs": 1, "concealed_hand": 1, "short_straight": 1}, total=17,
      src="3.1 双箭刻")
T.miss("two_dragon_pungs", "123m456mF", "F", "pon CCC, pon 999m", also={"dragon_pung": 1},
       src="one dragon pung and a dragon pair")
T.excl("two_dragon_pungs", "dragon_pung", "123m456m9m", "9m", "pon CCC, pon FFF", total=14,
       src="3.1 双箭刻 excludes 箭刻")

# --- 4 ---------------------------------------------------------------------------------
T.hit("outside_hand", "SSSEE99m", "E", "chi 123m, chi 789m",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 2, "two_terminal_chows": 1}, total=13,
      src="3.1 全带幺; G000-7 幺九牌 includes honors")
T.hit("outside_hand", "123m123m789m99mEE", "E",
      also={"half_flush": 1, "concealed_hand": 1, "pung_of_terminals_or_honors": 1, "pure_double_chow": 1,
            "two_terminal_chows": 1}, total=15, src="3.1 全带幺; P3: one 老少副 (789 is shared)")
T.miss("outside_hand", "123m234m789m99mEE", "E", src="234 has no terminal")

T.hit("fully_concealed_hand", "123m456m789m11mEE", "E", **SD,
      also={"pure_straight": 1, "half_flush": 1, "pung_of_terminals_or_honors": 1}, total=27, src="3.1 不求人")
T.hit("fully_concealed_hand", "234m567m88m99m", "9m", "ckong CCCC", **SD,
      also={"two_concealed_pungs": 1, "concealed_kong": 1, "half_flush": 1, "dragon_pung": 1,
            "pung_of_terminals_or_honors": 1, "short_straight": 1}, total=18,
      src="3.1 不求人 with a concealed kong (D5); D13 双暗刻 = kong + 999m")
T.miss("fully_concealed_hand", "234m567m88m99m", "9m", "pon CCC", **SD, also={"self_drawn": 1},
       src="an exposed pung")
T.excl("fully_concealed_hand", ("concealed_hand", "self_drawn"), "123m456m789m11mEE", "E", **SD, total=27,
       src="3.1 不求人 excludes 门前清, 自摸")

T.hit("two_melded_kongs", "456m789m5m", "5m", "kong 2222m, kong CCCC", sum_of=((("single_wait", "closed_wait"), 1),), 
      also={"half_flush": 1, "dragon_pung": 1, "short_straight": 1}, total=14, src="3.1 双明杠")
T.hit("two_melded_kongs", "123m789m9m", "9m", "kong EEEE, kong SSSS", **SD,
      also={"half_flush": 1, "pung_of_terminals_or_honors": 2, "two_terminal_chows": 1, "self_drawn": 1,
            "outside_hand": 1}, total=18, src="3.1 双明杠")
T.miss("two_melded_kongs", "456m789m5m", "5m", "kong 2222m, pon CCC", also={"melded_kong": 1},
       src="one kong")
T.excl("two_melded_kongs", "melded_kong", "456m789m5m", "5m", "kong 2222m, kong CCCC", total=14,
       src="3.1 双明杠 excludes 明杠")

T.hit("last_tile", "123m456m78mEEE55m", "9m", last_of_kind=True,
      also={"pure_straight": 1, "half_flush": 1, "concealed_hand": 1, "pung_of_terminals_or_honors": 1},
      total=29, src="3.1 胡绝张 (D10)")
T.hit("last_tile", "46mEE", "5m", "chi 123m, pon CCC, pon 999m", **SD, last_of_kind=True,
      also={"half_flush": 1, "dragon_pung": 1, "closed_wait": 1, "self_drawn": 1, "short_straight": 1},
      total=16, src="3.1 胡绝张")
T.miss("last_tile", "123m456m78mEEE55m", "9m", total=25, src="a copy of 9m still unseen")

# --- 2 ---------------------------------------------------------------------------------
T.hit("dragon_pung", "234m567m88mSS", "S", "pon CCC",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 1, "short_straight": 1}, total=10, src="3.1 箭刻")
T.hit("dragon_pung", "FFF123m456m67m99m", "8m",
      also={"half_flush": 1, "concealed_hand": 1, "short_straight": 1}, total=11, src="3.1 箭刻")
T.miss("dragon_pung", "FF123m456m678m99m", "9m", src="dragon pair only")

T.hit("concealed_hand", "123m456m789m11mEE", "E", also={"pure_straight": 1}, total=25, src="3.1 门前清")
T.hit("concealed_hand", "234m567m88m99m", "9m", "ckong CCCC",
      also={"concealed_kong": 1, "half_flush": 1, "dragon_pung": 1, "pung_of_terminals_or_honors": 1,
            "short_straight": 1}, total=14, src="3.1 门前清 with a concealed kong (D5)")
T.miss("concealed_hand", "123m456m789m11mEE", "E", **SD, also={"fully_concealed_hand": 1},
       src="self-drawn: 不求人")

T.hit("all_chows", "234m567m567m9m", "9m", "chi 234m", also={"full_flush": 1, "single_wait": 1},
      sum_of=((("pure_double_chow", "short_straight"), 3),), total=30, src="4.4 #2")
T.hit("all_chows", "78m55m", "6m", "chi 123m, chi 123m, chi 789m",
      also={"full_flush": 1, "pure_double_chow": 1, "two_terminal_chows": 1}, total=28, src="3.1 平和")
T.miss("all_chows", "234m567m567mE", "E", "chi 234m", also={"half_flush": 1}, src="honor pair")

T.hit("tile_hog", "1111m33m55m77mEEW", "W", **SD, also={"seven_pairs": 1}, total=33, src="4.4 #4")
T.hit("tile_hog", "1111m2222m55m77m9m", "9m", n=2, also={"seven_pairs": 1, "full_flush": 1}, total=52,
      src="3.1 四归一 per kind (OP-34)")
T.miss("tile_hog", "234m567m88mEE", "E", "kong 1111m", also={"melded_kong": 1}, src="four copies as a kong")

T.hit("two_concealed_pungs", "123m456m999m11mEE", "E", **SD,
      also={"half_flush": 1, "fully_concealed_hand": 1, "pung_of_terminals_or_honors": 2, "short_straight": 1},
      total=15, src="4.4 #6 (self-drawn E)")
T.hit("two_concealed_pungs", "777m999mC", "C", "chi 123m, chi 456m",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 1, "single_wait": 1, "short_straight": 1}, total=11,
      src="3.1 双暗刻")
T.miss("two_concealed_pungs", "123m456m999m11mEE", "E",
       also={"half_flush": 1, "concealed_hand": 1, "pung_of_terminals_or_honors": 2, "short_straight": 1},
       total=11, src="4.4 #6 (discard E: EEE exposed)")

T.hit("concealed_kong", "789mEESS", "S", "ckong 5555m, chi 123m",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 1, "two_terminal_chows": 1}, total=10, src="3.1 暗杠")
T.hit("concealed_kong", "234m567m88m99m", "9m", "ckong CCCC", also={"concealed_hand": 1}, total=14,
      src="3.1 暗杠")
T.miss("concealed_kong", "789mEESS", "S", "kong 5555m, chi 123m", also={"melded_kong": 1}, total=9,
       src="exposed kong")

T.hit("all_simples", "555666777m23m88m", "4m", **SD, total=70, src="4.4 #3")
T.hit("all_simples", "456m345m2m", "2m", "chi 234m, pon 888m",
      also={"full_flush": 1, "pure_shifted_chows": 1}, total=42, src="3.1 断幺 (waits 2m/5m)")
T.miss("all_simples", "456m345m1m", "1m", "chi 234m, pon 888m", src="a 1m")

# --- 1 ---------------------------------------------------------------------------------
T.hit("pure_double_chow", "789mEECC", "C", "chi 234m, chi 234m",
      also={"half_flush": 1, "dragon_pung": 1}, total=9, src="3.1 一般高")
T.hit("pure_double_chow", "678m678mE", "E", "chi 234m, chi 234m", n=2,
      also={"half_flush": 1, "single_wait": 1}, total=9, src="D17 repeatable")
T.miss("pure_double_chow", "789mEECC", "C", "chi 234m, chi 345m", src="234 and 345")

T.hit("short_straight", "123m456m999m11mEE", "E", also={"concealed_hand": 1}, total=11, src="4.4 #6")
T.hit("short_straight", "234m567mE", "E", "chi 123m, chi 456m", n=2,
      also={"half_flush": 1, "single_wait": 1}, total=9, src="D17 repeatable (123+456, 234+567)")
T.hit("short_straight", "111mEE99m", "E", "chi 345m, chi 678m",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 2}, total=9,
      src="G000-8: the seeds' example 345+678, read as characters")
T.miss("short_straight", "111mEE99m", "E", "chi 345m, chi 789m", src="345 and 789")

T.hit("two_terminal_chows", "555mSSEE", "E", "chi 123m, chi 789m",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 1}, total=8, src="3.1 老少副")
T.hit("two_terminal_chows", "123m789mSSS11mEE", "E",
      also={"half_flush": 1, "outside_hand": 1, "concealed_hand": 1, "pung_of_terminals_or_honors": 2},
      total=15, src="3.1 老少副")
T.miss("two_terminal_chows", "555mSSEE", "E", "chi 123m, chi 678m", src="123 and 678")

T.hit("pung_of_terminals_or_honors", "123m456m999m11mEE", "E", n=2, total=11, src="4.4 #6")
T.hit("pung_of_terminals_or_honors", "EEE234mC", "C", "pon 111m, pon 999m", n=3,
      also={"half_flush": 1, "single_wait": 1}, total=10, src="3.1 幺九刻 per pung")
T.miss("pung_of_terminals_or_honors", "FFF123m456m67m99m", "8m", also={"dragon_pung": 1},
       src="D14: a dragon pung never scores 幺九刻")

T.hit("melded_kong", "789mEESS", "S", "kong 5555m, chi 123m",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 1, "two_terminal_chows": 1}, total=9, src="3.1 明杠")
T.hit("melded_kong", "123m456m789m5m", "5m", "kong CCCC", self_drawn=True, kong_replacement=True, total=34,
      src="3.1 明杠")
T.miss("melded_kong", "789mEESS", "S", "ckong 5555m, chi 123m", also={"concealed_kong": 1}, src="concealed kong")

T.hit("edge_wait", "12m456m678mEEE99m", "3m",
      also={"half_flush": 1, "concealed_hand": 1, "pung_of_terminals_or_honors": 1, "short_straight": 1},
      total=11, src="3.1 边张: 12 winning 3")
T.hit("edge_wait", "1233m789m", "3m", "chi 567m, pon CCC",
      also={"half_flush": 1, "dragon_pung": 1, "two_terminal_chows": 1}, total=10,
      src="[000] 1233胡3 is 边张 (D9)")
T.miss("edge_wait", "12345m99m", "3m", "chi 789m, pon CCC", src="[000] 12345胡3 不算边张 (waits 3m/6m)")

T.hit("closed_wait", "46mEE", "5m", "chi 123m, pon CCC, pon 999m", also={"half_flush": 1, "dragon_pung": 1, "short_straight": 1},
      total=11,
      src="3.1 坎张: 46 winning 5")
T.hit("closed_wait", "4556m999m", "5m", "chi 123m, pon CCC",
      also={"half_flush": 1, "dragon_pung": 1, "pung_of_terminals_or_honors": 1, "short_straight": 1},
      total=11, src="[000] 4556胡5 也为坎张")
T.miss("closed_wait", "45567m99m", "6m", "chi 123m, pon CCC", src="[000] 45567胡6不算坎张 (waits 3m/6m)")

T.hit("single_wait", "567mE", "E", "chi 234m, pon CCC, pon 999m",
      also={"half_flush": 1, "dragon_pung": 1, "short_straight": 1, "pung_of_terminals_or_honors": 1}, total=11,
      src="3.1 单钓将")
T.hit("single_wait", "111m333m555mEEE9m", "9m", also={"four_concealed_pungs": 1}, total=73, src="3.1 单钓将")
T.miss("single_wait", "1234m567m", "1m", "chi 789m, pon CCC", src="1234 waits 1m/4m: no unique wait (D9)")

T.hit("flower_tiles", "FFF123m456m67m99m", "8m", flowers="1f5f", n=2, total=13,
      src="3.1 花牌 1 per flower (D16)")
T.hit("flower_tiles", "FFF123m456m67m99m", "8m", flowers="12345678f", n=8, total=19,
      src="3.1 花牌: all 8 flowers (no 八仙过海 in two-player)")
T.miss("flower_tiles", "FFF123m456m67m99m", "8m", total=11, src="no flower")

T.hit("self_drawn", "456m789mEEE5m", "5m", "chi 123m", **SD, total=25, src="3.1 自摸")
T.hit("self_drawn", "456m789mEEE5m", "5m", "chi 123m", self_drawn=True, flower_replacement=True,
      flowers="2f", also={"flower_tiles": 1}, absent=("out_with_replacement_tile",), total=26,
      src="2.6: a win on a flower replacement counts 自摸 (not 杠上开花)")
T.miss("self_drawn", "456m789mEEE5m", "5m", "chi 123m", total=24, src="discard win")

TWO_PLAYER_CASES = T.cases

# =====================================================================================
# public (大众麻将) [003]: three suits + honors.  Table 3.3.  Default seat and prevalent
# wind are East, so a pung of E scores 圈风刻 + 门风刻 (D14); other wind pungs use N/S/W.
# =====================================================================================
P = _Builder("public")
W1 = (("single_wait", "closed_wait"), 1)

P.hit("big_four_winds", "5m", "5m", "pon EEE, pon SSS, pon WWW, pon NNN",
      also={"melded_hand": 1, "half_flush": 1}, total=100, src="3.3 大四喜")
P.hit("big_four_winds", "NN22m", "N", "pon EEE, pon SSS, pon WWW", also={"half_flush": 1}, total=94,
      src="3.3 大四喜")
P.miss("big_four_winds", "NN23m", "4m", "pon EEE, pon SSS, pon WWW",
       also={"little_four_winds": 1, "prevalent_wind": 1, "seat_wind": 1}, total=74,
       src="小四喜 does not exclude 圈风刻/门风刻")
P.excl("big_four_winds", ("prevalent_wind", "seat_wind", "big_three_winds", "all_pungs",
                          "pung_of_terminals_or_honors"), "NN22m", "N", "pon EEE, pon SSS, pon WWW", total=94,
       src="3.3 大四喜 exclusions")

P.hit("big_three_dragons", "PPP999m5m", "5m", "pon CCC, pon FFF", **SD,
      also={"half_flush": 1, "all_pungs": 1, "pung_of_terminals_or_honors": 1, "two_concealed_pungs": 1,
            "single_wait": 1, "self_drawn": 1}, total=105, src="4.1 P1 example")
P.hit("big_three_dragons", "CCCFFFPPP123m5m", "5m",
      also={"half_flush": 1, "three_concealed_pungs": 1, "concealed_hand": 1, "single_wait": 1}, total=113,
      src="3.3 大三元")
P.miss("big_three_dragons", "CCCFFFPP123m55m", "5m", also={"little_three_dragons": 1}, total=74,
       src="pair of the third dragon")
P.excl("big_three_dragons", ("dragon_pung", "two_dragon_pungs"), "CCCFFFPPP123m5m", "5m", total=113,
       src="3.3 大三元 excludes 箭刻 (+[MCR] 双箭刻)")

P.hit("all_green", "234s666s88sFF", "F", "chi 234s", also={"dragon_pung": 1, "pure_double_chow": 1}, total=91,
      src="3.3 绿一色")
P.hit("all_green", "888s44s33s", "3s", "pon 222s, pon 666s",
      also={"full_flush": 1, "all_pungs": 1, "all_simples": 1}, total=120,
      src="[003] 如无发字可计清一色; 4.1 P1 断幺 still counts")
P.miss("all_green", "888s55s33s", "3s", "pon 222s, pon 666s", also={"full_flush": 1}, src="5s is not green")
P.excl("all_green", "half_flush", "234s666s88sFF", "F", "chi 234s", total=91, src="3.3 绿一色 excludes 混一色")

P.hit("nine_gates", "1112345678999p", "2p",
      also={"two_concealed_pungs": 1, "pung_of_terminals_or_honors": 1, "short_straight": 1}, total=92,
      src="4.4 #8 (exactly one 幺九刻 excluded)")
P.hit("nine_gates", "1112345678999p", "5p", also={"two_concealed_pungs": 1, "pung_of_terminals_or_honors": 1},
      total=91, src="D14: 九莲宝灯 removes exactly one 幺九刻 (111p 234p 55p 678p 999p)")
P.miss("nine_gates", "1112345678899p", "9p", also={"full_flush": 1}, src="13 tiles not 1112345678999")
P.excl("nine_gates", ("full_flush", "concealed_hand", "no_honors"), "1112345678999p", "2p",
       also={"pung_of_terminals_or_honors": 1}, total=92, src="3.3 九莲宝灯 exclusions; D14 one instance")
P.excl("nine_gates", ("fully_concealed_hand", "pung_of_terminals_or_honors"), "1112345678999p", "9p", **SD,
       also={"pure_straight": 1, "tile_hog": 1, "self_drawn": 1}, total=107,
       src="3.3 九莲宝灯: the only 幺九刻 (999p) is the excluded one; 4.3.3 自摸 stays")

P.hit("four_kongs", "E", "E", "kong 2222m, kong 5555m, kong 8888m, kong CCCC",
      also={"melded_hand": 1, "half_flush": 1, "dragon_pung": 1}, total=102, src="3.3 四杠")
P.hit("four_kongs", "E", "E", "ckong 2222m, ckong 5555m, kong 8888m, kong CCCC", **SD,
      also={"two_concealed_pungs": 1, "self_drawn": 1}, total=99, src="D13")
P.miss("four_kongs", "E", "E", "kong 2222m, kong 5555m, kong 8888m, pon CCC", also={"three_kongs": 1}, total=52,
       src="three kongs")
P.excl("four_kongs", ("three_kongs", "two_melded_kongs", "melded_kong", "all_pungs"), "E", "E",
       "kong 2222m, kong 5555m, kong 8888m, kong CCCC", total=102, src="3.3 四杠 +[MCR] exclusions")
P.excl("four_kongs", ("two_concealed_kongs", "concealed_kong", "single_wait", "three_kongs"), "E", "E",
       "ckong 2222m, ckong 5555m, kong 8888m, kong CCCC", **SD, total=99, src="3.3 四杠 +[MCR] exclusions")

P.hit("seven_shifted_pairs", "1122334455667m", "7m", total=88, src="3.3 连七对")
P.hit("seven_shifted_pairs", "2233445566778p", "8p", **SD, also={"all_simples": 1, "self_drawn": 1}, total=91,
      src="3.3 连七对")
P.miss("seven_shifted_pairs", "1122334455668m", "8m", also={"seven_pairs": 1, "full_flush": 1}, total=48,
       src="not consecutive")
P.excl("seven_shifted_pairs", ("full_flush", "concealed_hand", "seven_pairs", "single_wait", "no_honors"),
       "1122344556677m", "3m", total=88, src="3.3 连七对 exclusions (unique wait 3m)")
P.excl("seven_shifted_pairs", "fully_concealed_hand", "2233445566778p", "8p", **SD, total=91,
       src="3.3 连七对 excludes 不求人")

P.hit("thirteen_orphans", "19m19p19sESWNCFP", "1m", total=88,
      src="3.3 十三幺 (混幺九 is defined on the standard form and seven pairs only, D12 row text)")
P.hit("thirteen_orphans", "119m19p19sESWNCF", "P", **SD, also={"self_drawn": 1}, total=89, src="3.3 十三幺")
P.miss("thirteen_orphans", "11m99m11p99pEECCF", "F",
       also={"seven_pairs": 1, "all_terminals_and_honors": 1}, src="terminals and honors as seven pairs")
P.excl("thirteen_orphans", ("all_types", "concealed_hand"), "19m19p19sESWNCFP", "1m", total=88,
       src="3.3 十三幺 excludes 五门齐 (+[MCR] 门前清)")
P.excl("thirteen_orphans", ("fully_concealed_hand", "single_wait", "all_types"), "119m19p19sESWNCF", "P", **SD,
       total=89, src="3.3 十三幺 excludes 不求人, 单钓 (P is the only wait)")

P.hit("all_terminals", "111p999p11s99s", "1s", "pon 111m", **SD,
      also={"triple_pung": 1, "three_concealed_pungs": 1, "self_drawn": 1}, total=97, src="4.4 #9")
P.hit("all_terminals", "1111m99m11p99p11s9s", "9s", also={"seven_pairs": 1, "tile_hog": 1}, total=90,
      src="D12/OP-35: 清幺九 on seven pairs")
P.miss("all_terminals", "111p999p11sEE", "E", "pon 111m", also={"all_terminals_and_honors": 1},
       src="an honor pung: 混幺九")
P.excl("all_terminals", ("all_pungs", "double_pung", "no_honors", "outside_hand", "pung_of_terminals_or_honors"),
       "111p999p11s99s", "1s", "pon 111m", **SD, total=97,
       src="3.3 清幺九 exclusions; G003-12 同刻 = 双同刻 (111m/111p)")

P.hit("little_four_winds", "NN23m", "4m", "pon EEE, pon SSS, pon WWW",
      also={"half_flush": 1, "prevalent_wind": 1, "seat_wind": 1}, total=74, src="3.3 小四喜")
P.hit("little_four_winds", "EEESSSWWWNN55m", "5m",
      also={"three_concealed_pungs": 1, "all_pungs": 1, "concealed_hand": 1, "prevalent_wind": 1,
            "seat_wind": 1}, total=98, src="3.3 小四喜")
P.miss("little_four_winds", "CC23m", "4m", "pon EEE, pon SSS, pon WWW", also={"big_three_winds": 1}, total=22,
       src="dragon pair")
P.excl("little_four_winds", ("big_three_winds", "pung_of_terminals_or_honors"), "NN23m", "4m",
       "pon EEE, pon SSS, pon WWW", seat="N", round="N", total=70,
       src="3.3 小四喜 excludes 三风刻, every 幺九刻 (winds N: the E/S/W pungs are plain wind pungs)")

P.hit("little_three_dragons", "CCCFFFPP123m55m", "5m", total=74, src="3.3 小三元")
P.hit("little_three_dragons", "PP789m11m", "1m", "pon CCC, pon FFF",
      also={"outside_hand": 1, "pung_of_terminals_or_honors": 1}, total=75, src="3.3 小三元")
P.miss("little_three_dragons", "CCCFFF123m555m9m", "9m", also={"two_dragon_pungs": 1}, src="non-dragon pair")
P.excl("little_three_dragons", ("dragon_pung", "two_dragon_pungs"), "CCCFFFPP123m55m", "5m", total=74,
       src="3.3 小三元 exclusions")

P.hit("all_honors", "SSSFFNN", "F", "pon EEE, pon CCC",
      also={"two_dragon_pungs": 1, "prevalent_wind": 1, "seat_wind": 1}, total=74,
      src="3.3 字一色 (圈风刻/门风刻 not excluded)")
P.hit("all_honors", "EESSWWNNCCFFP", "P", also={"seven_pairs": 1}, total=88, src="OP-35")
P.miss("all_honors", "SSSWW11m", "1m", "pon EEE, pon CCC", also={"all_terminals_and_honors": 1}, src="a 1m pung")
P.excl("all_honors", ("all_pungs", "outside_hand", "pung_of_terminals_or_honors"), "SSSFFNN", "F",
       "pon EEE, pon CCC", total=74, src="3.3 字一色 exclusions")

P.hit("four_concealed_pungs", "111m333m555mNNN9m", "9m",
      also={"half_flush": 1, "pung_of_terminals_or_honors": 2, "single_wait": 1}, total=73, src="3.3 四暗刻")
P.hit("four_concealed_pungs", "111m333m555mNN99m", "N", **SD, also={"self_drawn": 1}, total=73,
      src="3.3 四暗刻 自摸")
P.miss("four_concealed_pungs", "111m333m555mNN99m", "N", also={"three_concealed_pungs": 1}, total=32, src="D6")
P.excl("four_concealed_pungs", ("concealed_hand", "all_pungs", "three_concealed_pungs", "two_concealed_pungs"),
       "111m333m555mNNN9m", "9m", total=73, src="3.3 四暗刻 exclusions")
P.excl("four_concealed_pungs", "fully_concealed_hand", "111m333m555mNN99m", "N", **SD, total=73,
       src="3.3 四暗刻 +[MCR] excludes 不求人")

P.hit("pure_terminal_chows", "123m123m789m789m5m", "5m", also={"concealed_hand": 1, "single_wait": 1},
      total=67, src="3.3 一色双龙会")
P.hit("pure_terminal_chows", "123p789p5p", "5p", "chi 123p, chi 789p", total=65, src="3.3 一色双龙会")
P.miss("pure_terminal_chows", "123m123m789m789m6m", "6m", src="pair 66")
P.excl("pure_terminal_chows", ("all_chows", "seven_pairs", "full_flush", "pure_double_chow", "two_terminal_chows",
                               "no_honors"), "123m123m789m789m5m", "5m", total=67,
       src="3.3 一色双龙会; G003-5 平各 = 平和")

P.hit("quadruple_chow", "234m234m234m234mE", "E", total=57, src="3.3 一色四同顺")
P.hit("quadruple_chow", "345p345p9p", "9p", "chi 345p, chi 345p",
      also={"full_flush": 1, "all_chows": 1, "single_wait": 1, "reversible_tiles": 1}, total=83,
      src="3.3 一色四同顺 (3p 4p 5p 9p are all reversible: + 推不倒)")
P.miss("quadruple_chow", "234m234m234m345mE", "E", also={"pure_shifted_pungs": 1}, src="P4")
P.excl("quadruple_chow", ("pure_shifted_pungs", "pure_double_chow", "tile_hog", "pure_triple_chow",
                          "seven_pairs"), "234m234m234m234mE", "E", total=57, src="3.3 一色四同顺 exclusions")

P.hit("four_pure_shifted_pungs", "444m555m9m", "9m", "pon 222m, pon 333m", total=75, src="3.3 一色四节高")
P.hit("four_pure_shifted_pungs", "888pE", "E", "pon 555p, pon 666p, pon 777p", total=55, src="3.3 一色四节高")
P.miss("four_pure_shifted_pungs", "444m666m9m", "9m", "pon 222m, pon 333m", also={"pure_shifted_pungs": 1},
       src="222 333 444 666")
P.excl("four_pure_shifted_pungs", ("pure_triple_chow", "pure_shifted_pungs", "all_pungs"), "222m333m444m555m9m",
       "9m", also={"four_concealed_pungs": 1}, total=137, src="3.3 一色四节高 exclusions")

P.hit("four_pure_shifted_chows", "123m234m345m456mE", "E", total=41, src="3.3 一色四步高")
P.hit("four_pure_shifted_chows", "789s9s", "9s", "chi 123s, chi 345s, chi 567s", total=58, src="3.3 一色四步高")
P.miss("four_pure_shifted_chows", "123m234m345m567mE", "E", also={"pure_shifted_chows": 1}, src="123 234 345 567")
P.excl("four_pure_shifted_chows", ("pure_shifted_chows", "short_straight"), "123m234m345m456mE", "E", total=41,
       src="3.3 一色四步高 +[MCR]")
P.excl("four_pure_shifted_chows", "two_terminal_chows", "789s9s", "9s", "chi 123s, chi 345s, chi 567s", total=58,
       src="3.3 一色四步高 +[MCR] 老少副")

P.hit("three_kongs", "23m55m", "1m", "kong NNNN, kong SSSS, kong CCCC", total=42, src="3.3 三杠")
P.hit("three_kongs", "NNN9m", "9m", "ckong 2222m, ckong 5555m, kong 8888m", **SD,
      also={"three_concealed_pungs": 1}, total=63, src="3.3 三杠")
P.miss("three_kongs", "23m55m", "1m", "kong NNNN, kong SSSS, pon CCC", also={"two_melded_kongs": 1},
       src="two kongs")
P.excl("three_kongs", ("two_melded_kongs", "melded_kong"), "23m55m", "1m", "kong NNNN, kong SSSS, kong CCCC",
       total=42, src="3.3 三杠 +[MCR]")
P.excl("three_kongs", ("two_concealed_kongs", "concealed_kong"), "NNN9m", "9m",
       "ckong 2222m, ckong 5555m, kong 8888m", **SD, total=63, src="3.3 三杠 +[MCR]")

P.hit("all_terminals_and_honors", "999mCCNN", "N", "pon SSS, pon 111m", total=38, src="3.3 混幺九")
P.hit("all_terminals_and_honors", "11m99mSSWWNNCCP", "P", also={"seven_pairs": 1}, total=62, src="OP-35")
P.miss("all_terminals_and_honors", "999mCC22m", "2m", "pon SSS, pon 111m", src="a 2m pung")
P.excl("all_terminals_and_honors", ("all_pungs", "outside_hand", "pung_of_terminals_or_honors"), "999mCCNN", "N",
       "pon SSS, pon 111m", total=38, src="3.3 混幺九 exclusions")

P.hit("seven_pairs", "1111m33m55m77mEEW", "W", **SD, also={"tile_hog": 1, "self_drawn": 1}, total=33,
      src="3.3 七对")
P.hit("seven_pairs", "11p33p55p77p99pSSN", "N", total=30, src="3.3 七对")
P.miss("seven_pairs", "11m22m33m444m55mEE", "E", src="a pung")
P.excl("seven_pairs", "fully_concealed_hand", "1111m33m55m77mEEW", "W", **SD, total=33, src="3.3 七对 不计不求人")
P.excl("seven_pairs", ("concealed_hand", "single_wait"), "11p33p55p77p99pSSN", "N", total=30,
       src="3.3 七对 不计单钓 (+[MCR] 门前清)")

P.hit("greater_honors_and_knitted_tiles", "147m25p3sESWNCFP", "6s", total=24, src="3.3 七星不靠")
P.hit("greater_honors_and_knitted_tiles", "147m25p3sESWNCFP", "6s", **SD, also={"self_drawn": 1}, total=25,
      src="3.3 七星不靠, self-drawn")
P.miss("greater_honors_and_knitted_tiles", "147m258p36sESWNC", "F", also={"lesser_honors_and_knitted_tiles": 1},
       total=12, src="six honors: 全不靠 only")
P.excl("greater_honors_and_knitted_tiles", ("all_types", "concealed_hand", "lesser_honors_and_knitted_tiles"),
       "147m25p3sESWNCFP", "6s", total=24, src="3.3 七星不靠 exclusions")
P.excl("greater_honors_and_knitted_tiles", "fully_concealed_hand", "147m25p3sESWNCFP", "6s", **SD, total=25,
       src="3.3 七星不靠 excludes 不求人")

P.hit("all_even_pungs", "666s88m44s", "4s", "pon 222m, pon 444p", also={"double_pung": 1}, total=26,
      src="3.3 全双刻; G003-8 全双 = 全双刻")
P.hit("all_even_pungs", "888p2p", "2p", "pon 222m, pon 444m, pon 666m",
      also={"one_voided_suit": 1, "single_wait": 1}, total=26, src="3.3 全双刻")
P.miss("all_even_pungs", "666s88m33s", "3s", "pon 222m, pon 444p", also={"all_pungs": 1}, src="333s")
P.excl("all_even_pungs", ("all_pungs", "all_simples", "no_honors"), "666s88m44s", "4s", "pon 222m, pon 444p",
       total=26, src="3.3 全双刻 exclusions")

P.hit("full_flush", "67m55m", "8m", "chi 123m, chi 456m, pon 999m", total=26, src="3.3 清一色")
P.hit("full_flush", "11p22p44p55p77p88p9p", "9p", also={"seven_pairs": 1}, total=48, src="3.3 清一色")
P.miss("full_flush", "67m55m", "8m", "chi 123m, chi 456m, pon CCC", also={"half_flush": 1}, src="an honor")
P.excl("full_flush", "no_honors", "67m55m", "8m", "chi 123m, chi 456m, pon 999m", total=26,
       src="3.3 清一色 不计无字")

P.hit("pure_triple_chow", "234m678mE", "E", "chi 234m, chi 234m", total=31, src="3.3 一色三同顺")
P.hit("pure_triple_chow", "567p567p11pNN", "N", "chi 567p", total=31, src="3.3 一色三同顺")
P.miss("pure_triple_chow", "234m678mE", "E", "chi 234m, chi 345m", src="234 234 345")
P.excl("pure_triple_chow", "pure_double_chow", "234m678mE", "E", "chi 234m, chi 234m", total=31,
       src="3.3 +[MCR] 一般高")
P.excl("pure_triple_chow", "pure_shifted_pungs", "55m666m777m234m88m", "5m", total=55,
       src="3.3 一色三同顺 不计一色三节高 (P4 chow reading)")

P.hit("pure_shifted_pungs", "555666777m23m88m", "4m", **SD, total=70, src="4.1 P4")
P.hit("pure_shifted_pungs", "333mNNWW", "W", "pon 111m, pon 222m", total=38, src="3.3 一色三节高")
P.miss("pure_shifted_pungs", "444mNNWW", "W", "pon 111m, pon 222m", src="111 222 444")
P.excl("pure_shifted_pungs", "pure_triple_chow", "555666777m23m88m", "4m", **SD, total=70,
       src="3.3 一色三节高 不计一色三同顺")

P.hit("upper_tiles", "789s88s77p", "7p", "chi 789m, pon 999p",
      also={"mixed_double_chow": 1, "pung_of_terminals_or_honors": 1}, total=26, src="3.3 全大")
P.hit("upper_tiles", "77m99p", "9p", "chi 789m, chi 789p, chi 789s",
      also={"mixed_triple_chow": 1, "tile_hog": 1, "pung_of_terminals_or_honors": 1}, total=35, src="3.3 全大")
P.miss("upper_tiles", "678s88s77p", "7p", "chi 789m, pon 999p", also={"upper_four": 1}, src="a 6s: 大于五")
P.excl("upper_tiles", ("no_honors", "upper_four"), "789s88s77p", "7p", "chi 789m, pon 999p", total=26,
       src="3.3 全大; G003-11 also 大于五")

P.hit("middle_tiles", "666s55s44p", "4p", "pon 444m, pon 555p",
      also={"all_pungs": 1, "mixed_shifted_pungs": 1, "double_pung": 1}, total=40,
      src="3.3 全中; D15 双同刻 444m/444p shares a group with 三色三节高 but adds 444p")
P.hit("middle_tiles", "444s55m66s", "6s", "chi 456m, chi 456p", also={"mixed_double_chow": 1}, total=25,
      src="3.3 全中")
P.miss("middle_tiles", "666s55s77p", "7p", "pon 444m, pon 555p", src="7p")
P.excl("middle_tiles", ("all_simples", "no_honors"), "666s55s44p", "4p", "pon 444m, pon 555p", total=40,
       src="3.3 全中 exclusions")

P.hit("lower_tiles", "222s33s11s", "3s", "chi 123m, pon 111p", also={"pung_of_terminals_or_honors": 1},
      total=25, src="3.3 全小")
P.hit("lower_tiles", "123s22p33s", "3s", "chi 123m, chi 123p", also={"mixed_triple_chow": 1, "tile_hog": 1},
      total=34, src="3.3 全小")
P.miss("lower_tiles", "222s33s44s", "4s", "chi 123m, pon 111p", also={"lower_four": 1}, src="a 4s: 小于五")
P.excl("lower_tiles", ("no_honors", "lower_four"), "222s33s11s", "3s", "chi 123m, pon 111p", total=25,
       src="3.3 全小; G003-11 also 小于五")

P.hit("pure_straight", "123m456m789m11mNN", "N", total=25, src="3.3 清龙")
P.hit("pure_straight", "123p456p789p789p5p", "5p", also={"full_flush": 1, "all_chows": 1},
      sum_of=((("pure_double_chow", "short_straight", "two_terminal_chows"), 1),), src="3.3 清龙 + D15")
P.miss("pure_straight", "123m456m678m11mNN", "N", src="123 456 678")
P.excl("pure_straight", ("short_straight", "two_terminal_chows"), "123m456m789m11mNN", "N", total=25,
       src="3.3 +[MCR]")
P.excl("pure_straight", (), "123m456m789m123mE", "E", total=26,
       sum_of=((("pure_double_chow", "short_straight", "two_terminal_chows"), 1),), src="4.1 P5 / D15 scoped")

P.hit("three_suited_terminal_chows", "123m789m123p789p5s", "5s", also={"concealed_hand": 1, "single_wait": 1},
      total=19, src="3.3 三色双龙会")
P.hit("three_suited_terminal_chows", "123p789p5m", "5m", "chi 123s, chi 789s", total=17, src="3.3 三色双龙会")
P.miss("three_suited_terminal_chows", "123m789m123p789p5p", "5p", src="the 55 is of a chow suit")
P.excl("three_suited_terminal_chows", ("mixed_double_chow", "two_terminal_chows", "no_honors", "all_chows"),
       "123m789m123p789p5s", "5s", total=19, src="3.3 三色双龙会 exclusions")

P.hit("pure_shifted_chows", "123m234m345m99mNN", "N", total=25, src="3.3 一色三步高")
P.hit("pure_shifted_chows", "567mCC99m", "9m", "chi 123m, chi 345m", total=23, src="3.3 一色三步高 (+2)")
P.miss("pure_shifted_chows", "123m234m456m99mNN", "N", src="123 234 456")

P.hit("all_fives", "567m555s5p", "5p", "chi 345m, chi 456p", also={"single_wait": 1}, total=17, src="3.3 全带五")
P.hit("all_fives", "345p456p567s5s", "5s", "pon 555m", total=16, src="3.3 全带五 (waits 5s/8s)")
P.miss("all_fives", "567m555s9p", "9p", "chi 345m, chi 456p", src="pair 99p")
P.excl("all_fives", ("all_simples", "no_honors"), "567m555s5p", "5p", "chi 345m, chi 456p", total=17,
       src="3.3 全带五 exclusions")

P.hit("triple_pung", "111p999p11s99s", "1s", "pon 111m", **SD, total=97, src="4.4 #9")
P.hit("triple_pung", "555s23m88p", "4m", "pon 555m, pon 555p", also={"all_simples": 1}, total=18,
      src="3.3 三同刻")
P.miss("triple_pung", "666s23m88p", "4m", "pon 555m, pon 555p", also={"double_pung": 1}, src="two only")
P.excl("triple_pung", "double_pung", "555s23m88p", "4m", "pon 555m, pon 555p", total=18, src="3.3 +[MCR]")

P.hit("three_concealed_pungs", "555m777mNNN9m", "9m", "chi 123m", total=23, src="3.3 三暗刻")
P.hit("three_concealed_pungs", "111p999p11s99s", "1s", "pon 111m", **SD, total=97, src="4.4 #9")
P.miss("three_concealed_pungs", "555m777mNN99m", "N", "chi 123m", also={"two_concealed_pungs": 1}, src="D6")
P.excl("three_concealed_pungs", "two_concealed_pungs", "555m777mNNN9m", "9m", "chi 123m", total=23,
       src="3.3 +[MCR]")

P.hit("lesser_honors_and_knitted_tiles", "147m258p36sESWNC", "F", total=12, src="3.3 全不靠")
P.hit("lesser_honors_and_knitted_tiles", "147m258p369sESWN", "C", also={"knitted_straight": 1}, total=24,
      src="3.3 全不靠 with all 9 pattern tiles: + 组合龙")
P.miss("lesser_honors_and_knitted_tiles", "147m258p369s234sN", "N", also={"knitted_straight": 1},
       src="knitted form (9 tiles + group + pair), not 全不靠")
P.excl("lesser_honors_and_knitted_tiles", ("all_types", "concealed_hand"), "147m258p36sESWNC", "F", total=12,
       src="3.3 全不靠 exclusions")
P.excl("lesser_honors_and_knitted_tiles", "fully_concealed_hand", "147m258p36sESWNC", "F", **SD, total=13,
       src="3.3 全不靠 不计不求人")

P.hit("knitted_straight", "147m258p369sESWN", "C", also={"lesser_honors_and_knitted_tiles": 1}, total=24,
      src="3.3 组合龙 inside 全不靠")
P.hit("knitted_straight", "147m258p369s234sN", "N", also={"concealed_hand": 1, "single_wait": 1}, total=15,
      src="3.3 组合龙 knitted form (OP-52); D9 wait fan since N is not a knitted tile")
P.miss("knitted_straight", "147m258p36sESWNC", "F", src="8 of the 9 pattern tiles")

P.hit("upper_four", "789s66s88m", "6s", "chi 678m, pon 999p", also={"pung_of_terminals_or_honors": 1}, total=13,
      src="3.3 大于五")
P.hit("upper_four", "789m77m88m", "8m", "pon 666m, pon 999m", also={"full_flush": 1, "tile_hog": 2}, total=41,
      src="3.3 大于五")
P.miss("upper_four", "789s55s88m", "5s", "chi 678m, pon 999p", src="5s")
P.excl("upper_four", "no_honors", "789s66s88m", "6s", "chi 678m, pon 999p", total=13, src="3.3 大于五 不计无字")

P.hit("lower_four", "444s11p33s", "3s", "chi 123m, chi 234p", total=12, src="3.3 小于五")
P.hit("lower_four", "123m22m33m", "3m", "pon 111m, pon 444m", also={"full_flush": 1, "tile_hog": 2}, total=41,
      src="3.3 小于五")
P.miss("lower_four", "555s11p33s", "3s", "chi 123m, chi 234p", src="5s")
P.excl("lower_four", "no_honors", "444s11p33s", "3s", "chi 123m, chi 234p", total=12, src="3.3 小于五 不计无字")

P.hit("big_three_winds", "CC23m", "4m", "pon EEE, pon SSS, pon WWW",
      also={"prevalent_wind": 1, "seat_wind": 1}, absent=("pung_of_terminals_or_honors",), total=22,
      src="3.3 三风刻 (D14)")
P.hit("big_three_winds", "SSSWWWNNN789m5m", "5m", total=37, src="3.3 三风刻")
P.hit("big_three_winds", "999m5m", "5m", "pon SSS, pon WWW, pon NNN", also={"pung_of_terminals_or_honors": 1},
      total=26, src="D14: 999m still scores 幺九刻")
P.miss("big_three_winds", "CC23m", "4m", "pon SSS, pon WWW, pon FFF", src="two winds")

P.hit("mixed_straight", "123m456p789sNN55m", "N", total=11, src="3.3 花龙")
P.hit("mixed_straight", "789mCCFF", "F", "chi 123p, chi 456s", also={"dragon_pung": 1}, total=10, src="3.3 花龙")
P.miss("mixed_straight", "123m456p789pNN55m", "N", src="456 and 789 of one suit")

P.hit("reversible_tiles", "123p345p88s99s", "9s", "pon PPP", also={"dragon_pung": 1}, total=11,
      src="3.3 推不倒")
P.hit("reversible_tiles", "123p456s456s99p88s", "8s", also={"pure_double_chow": 1, "no_honors": 1}, total=12,
      src="3.3 推不倒")
P.miss("reversible_tiles", "123p345p88s99s", "9s", "pon CCC", src="中 is not reversible")
P.excl("reversible_tiles", "one_voided_suit", "123p345p88s99s", "9s", "pon PPP", total=11,
       src="3.3 推不倒 不计缺一门")

P.hit("mixed_triple_chow", "234m234p234s55mNN", "N", total=11, src="3.3 三色三同顺")
P.hit("mixed_triple_chow", "567s22m88s", "2m", "chi 567m, chi 567p", also={"all_simples": 1}, total=10,
      src="3.3 三色三同顺")
P.miss("mixed_triple_chow", "234m234p345s55mNN", "N", also={"mixed_double_chow": 1}, src="345s")
P.excl("mixed_triple_chow", "mixed_double_chow", "234m234p234s55mNN", "N", total=11, src="3.3 +[MCR]")
P.excl("mixed_triple_chow", (), "234m234p234s234m5s", "5s", total=15,
       sum_of=((("pure_double_chow", "mixed_double_chow"), 1),),
       src="D15 scoped: the fourth chow 234m adds one 一般高 or 喜相逢 (P5: at most one more)")

P.hit("mixed_shifted_pungs", "555sNN99m", "N", "pon 333m, pon 444p", also={"all_pungs": 1}, total=15,
      src="3.3 三色三节高")
P.hit("mixed_shifted_pungs", "222m333p444s567m8m", "8m", also={"three_concealed_pungs": 1}, total=28,
      src="3.3 三色三节高")
P.miss("mixed_shifted_pungs", "555sNN99m", "N", "pon 333m, pon 444m", src="333m 444m 555s")

CHICKEN = ("EE78p", "9p", "chi 234m, chi 345p, pon 777s")
P.hit("chicken_hand", *CHICKEN, total=8, src="3.3 无番和")
P.hit("chicken_hand", *CHICKEN, flowers="3f", also={"flower_tiles": 1}, total=9, src="D16: flowers ignored")
P.miss("chicken_hand", *CHICKEN, **SD, also={"self_drawn": 1}, total=1, src="自摸 is a fan")

P.hit("last_tile_draw", "456m789mNNN5m", "5m", "chi 123m", self_drawn=True, last_tile=True, sum_of=(W1,),
      total=32, src="3.3 妙手回春")
P.hit("last_tile_draw", "456m789m9m", "9m", "kong CCCC, chi 123m", self_drawn=True, last_tile=True,
      kong_replacement=True, also={"out_with_replacement_tile": 1}, total=41, src="with 杠上开花")
P.miss("last_tile_draw", "456m789mNNN5m", "5m", "chi 123m", last_tile=True, also={"last_tile_claim": 1},
       src="discard")
P.excl("last_tile_draw", "self_drawn", "456m789mNNN5m", "5m", "chi 123m", self_drawn=True, last_tile=True,
       total=32, src="3.3 妙手回春 不计自摸")

P.hit("last_tile_claim", "456m789mNNN5m", "5m", "chi 123m", last_tile=True, sum_of=(W1,), total=32,
      src="3.3 海底捞月")
P.hit("last_tile_claim", "123m456m789m11mNN", "N", last_tile=True, total=33, src="3.3 海底捞月")
P.miss("last_tile_claim", "123m456m789m11mNN", "N", self_drawn=True, last_tile=True, also={"last_tile_draw": 1},
       src="self-drawn")

P.hit("out_with_replacement_tile", "123m456m789m5m", "5m", "kong CCCC", self_drawn=True, kong_replacement=True,
      sum_of=(W1,), total=34, src="3.3 杠上开花")
P.hit("out_with_replacement_tile", "123m456m789m5m", "5m", "ckong CCCC", self_drawn=True, kong_replacement=True,
      total=39, src="3.3 杠上开花")
P.miss("out_with_replacement_tile", "123m456m789m5m", "5m", "pon CCC", self_drawn=True, flower_replacement=True,
       flowers="1f", also={"self_drawn": 1}, total=27, src="[003] 花牌补花成和计自摸分，不计杠上开花")
P.excl("out_with_replacement_tile", "self_drawn", "123m456m789m5m", "5m", "kong CCCC", self_drawn=True,
       kong_replacement=True, total=34, src="3.3 杠上开花 不计自摸")

P.hit("robbing_the_kong", "123m345m78mNNN55m", "9m", robbing_kong=True, last_of_kind=True, total=18,
      src="3.3 抢杠和")
P.hit("robbing_the_kong", "46mNN", "5m", "chi 123m, pon CCC, pon 999m", robbing_kong=True, total=19,
      src="3.3 抢杠和")
P.miss("robbing_the_kong", "46mNN", "5m", "chi 123m, pon CCC, pon 999m", total=11, src="plain discard")
P.excl("robbing_the_kong", "last_tile", "123m345m78mNNN55m", "9m", robbing_kong=True, last_of_kind=True,
       total=18, src="3.3 抢杠和 不计和绝张")

P.hit("all_pungs", "888mNN99m", "N", "pon 222m, pon 555m", total=13, src="3.3 碰碰和")
P.hit("all_pungs", "777m9m", "9m", "pon 111m, pon 333m, pon 555m", **SD, total=32, src="3.3 碰碰和")
P.miss("all_pungs", "888mNN99m", "N", "pon 222m, chi 456m", src="a chow")

P.hit("half_flush", "789m55mNN", "N", "chi 123m, chi 456m", total=23, src="3.3 混一色")
P.hit("half_flush", "234p567p88pSS", "S", "pon CCC", total=10, src="3.3 混一色")
P.miss("half_flush", "789m55m99s", "9s", "chi 123m, chi 456m", also={"one_voided_suit": 1}, src="a second suit")

P.hit("mixed_shifted_chows", "123m234p345s55mNN", "N", total=9, src="3.3 三色三步高")
P.hit("mixed_shifted_chows", "678s22m88s", "2m", "chi 456m, chi 567p", also={"all_simples": 1}, total=8,
      src="3.3 三色三步高")
P.miss("mixed_shifted_chows", "123m234p456s55mNN", "N", src="123 234 456")

P.hit("all_types", "123m567p999sEECC", "C", total=11, src="3.3 五门齐")
P.hit("all_types", "678sNNCC", "C", "chi 234m, chi 345p", total=8, src="3.3 五门齐")
P.miss("all_types", "123m567p999sEESS", "S", src="no dragon")

P.hit("melded_hand", "5m", "5m", "chi 123m, chi 456m, pon 999m, pon NNN", total=15, src="3.3 全求人")
P.hit("melded_hand", "E", "E", "kong CCCC, pon FFF, chi 234m, chi 678p",
      also={"two_dragon_pungs": 1, "melded_kong": 1, "one_voided_suit": 1}, total=14, src="3.3 全求人")
P.miss("melded_hand", "5m", "5m", "chi 123m, chi 456m, pon 999m, pon NNN", **SD, also={"single_wait": 1},
       src="self-drawn")
P.excl("melded_hand", "single_wait", "5m", "5m", "chi 123m, chi 456m, pon 999m, pon NNN", total=15,
       src="3.3 全求人 不计单钓将")

P.hit("two_concealed_kongs", "789mCC99m", "C", "ckong 2222m, ckong 5555m", total=16, src="3.3 双暗杠")
P.hit("two_concealed_kongs", "123m456m5m", "5m", "ckong NNNN, ckong 9999m", **SD, sum_of=(W1,), total=20,
      src="3.3 双暗杠")
P.miss("two_concealed_kongs", "789mCC99m", "C", "ckong 2222m, kong 5555m", src="one exposed")
P.excl("two_concealed_kongs", ("two_concealed_pungs", "concealed_kong"), "789mCC99m", "C",
       "ckong 2222m, ckong 5555m", total=16, src="3.3 +[MCR]")

P.hit("two_dragon_pungs", "123m456m9m", "9m", "pon CCC, pon FFF", total=14, src="3.3 双箭刻")
P.hit("two_dragon_pungs", "CCCFFF234m567m8m", "8m", total=17, src="3.3 双箭刻")
P.miss("two_dragon_pungs", "123m456mF", "F", "pon CCC, pon 999m", also={"dragon_pung": 1}, src="one")
P.excl("two_dragon_pungs", "dragon_pung", "123m456m9m", "9m", "pon CCC, pon FFF", total=14, src="3.3 +[MCR]")

P.hit("outside_hand", "SSSNN99m", "N", "chi 123m, chi 789m", total=13, src="3.3 全带幺")
P.hit("outside_hand", "123m123m789m99mNN", "N", total=15, src="3.3 全带幺")
P.hit("outside_hand", "789m123s789sE", "E", "chi 123m", also={"one_voided_suit": 1, "single_wait": 1},
      sum_of=((("two_terminal_chows", "mixed_double_chow"), 3),), total=9, src="4.4 #10 / 4.1 P5")
P.miss("outside_hand", "123m234m789m99mNN", "N", src="234")

P.hit("fully_concealed_hand", "123m456m789m11mNN", "N", **SD, total=27, src="3.3 不求人")
P.hit("fully_concealed_hand", "234m567m88m99m", "9m", "ckong CCCC", **SD, total=18, src="3.3 不求人")
P.miss("fully_concealed_hand", "234m567m88m99m", "9m", "pon CCC", **SD, also={"self_drawn": 1}, src="exposed")
P.excl("fully_concealed_hand", ("concealed_hand", "self_drawn"), "123m456m789m11mNN", "N", **SD, total=27,
       src="3.3 +[MCR]")

P.hit("two_melded_kongs", "456m789m5m", "5m", "kong 2222m, kong CCCC", sum_of=(W1,), total=14, src="3.3 双明杠")
P.hit("two_melded_kongs", "123m789m9m", "9m", "kong NNNN, kong SSSS", **SD, total=18, src="3.3 双明杠")
P.miss("two_melded_kongs", "456m789m5m", "5m", "kong 2222m, pon CCC", also={"melded_kong": 1}, src="one")
P.excl("two_melded_kongs", "melded_kong", "456m789m5m", "5m", "kong 2222m, kong CCCC", total=14, src="3.3 +[MCR]")

P.hit("last_tile", "123m456m78mNNN55m", "9m", last_of_kind=True, total=29, src="3.3 和绝张")
P.hit("last_tile", "46mNN", "5m", "chi 123m, pon CCC, pon 999m", **SD, last_of_kind=True, total=16,
      src="3.3 和绝张")
P.miss("last_tile", "123m456m78mNNN55m", "9m", total=25, src="not the last copy")

P.hit("dragon_pung", "234m567m88mSS", "S", "pon CCC", total=10, src="3.3 箭刻")
P.hit("dragon_pung", "FFF123m456m67m99m", "8m", total=11, src="3.3 箭刻")
P.miss("dragon_pung", "FF123m456m678m99m", "9m", src="pair only")

P.hit("prevalent_wind", "234m567m88mCC", "C", "pon SSS", round="S",
      also={"dragon_pung": 1, "half_flush": 1, "short_straight": 1}, absent=("pung_of_terminals_or_honors",),
      total=11, src="3.3 圈风刻 (D14)")
P.hit("prevalent_wind", "234m567m88mCC", "C", "pon EEE", also={"seat_wind": 1}, total=13,
      src="3.3: a pung both prevalent and seat wind scores both")
P.miss("prevalent_wind", "234m567m88mCC", "C", "pon WWW", round="S", also={"pung_of_terminals_or_honors": 1},
       total=10, src="W is neither")

P.hit("seat_wind", "234m567m88mCC", "C", "pon SSS", seat="S", total=11, src="3.3 门风刻")
P.hit("seat_wind", "234m567m88mCC", "C", "pon NNN", seat="N", total=11, src="3.3 门风刻")
P.miss("seat_wind", "234m567m88mCC", "C", "pon WWW", seat="S", total=10, src="W is neither")

P.hit("concealed_hand", "123m456m789m11mNN", "N", total=25, src="3.3 门前清")
P.hit("concealed_hand", "234m567m88m99m", "9m", "ckong CCCC", total=14, src="3.3 门前清 (D5)")
P.miss("concealed_hand", "123m456m789m11mNN", "N", **SD, also={"fully_concealed_hand": 1}, src="self-drawn")

P.hit("all_chows", "234m567m567m9m", "9m", "chi 234m", sum_of=((("pure_double_chow", "short_straight"), 3),),
      total=30, src="4.4 #2 rules")
P.hit("all_chows", "234m567p55s78s", "9s", "chi 123p", total=2, src="3.3 平和")
P.miss("all_chows", "234m567m567mE", "E", "chi 234m", src="honor pair")
P.excl("all_chows", "no_honors", "234m567p55s78s", "9s", "chi 123p", total=2, src="3.3 平和 +[MCR] 无字")

P.hit("tile_hog", "1111m33m55m77mEEW", "W", **SD, total=33, src="3.3 四归一")
P.hit("tile_hog", "1111m2222m55m77m9m", "9m", n=2, total=52, src="3.3 四归一")
P.miss("tile_hog", "234m567m88mEE", "E", "kong 1111m", src="kong")

P.hit("double_pung", "456s78sNN", "9s", "pon 333m, pon 333p", also={"short_straight": 1}, total=3,
      src="3.3 双同刻")
P.hit("double_pung", "666m666pN", "N", "pon 222m, pon 222p", n=2,
      also={"all_pungs": 1, "two_concealed_pungs": 1, "single_wait": 1, "one_voided_suit": 1}, total=14,
      src="D17 repeatable")
P.miss("double_pung", "456s78sNN", "9s", "pon 333m, pon 444p", src="different ranks")

P.hit("two_concealed_pungs", "123m456m999m11mNN", "N", **SD, total=15, src="3.3 双暗刻")
P.hit("two_concealed_pungs", "777m999mC", "C", "chi 123m, chi 456m", total=11, src="3.3 双暗刻")
P.miss("two_concealed_pungs", "123m456m999m11mNN", "N", total=11, src="D6")

P.hit("concealed_kong", "789mNNSS", "S", "ckong 5555m, chi 123m", total=10, src="3.3 暗杠")
P.hit("concealed_kong", "234m567m88m99m", "9m", "ckong CCCC", total=14, src="3.3 暗杠")
P.miss("concealed_kong", "789mNNSS", "S", "kong 5555m, chi 123m", total=9, src="exposed kong")

P.hit("all_simples", "555666777m23m88m", "4m", **SD, total=70, src="4.4 #3 rules")
P.hit("all_simples", "234m456p678s55s22p", "2p", also={"concealed_hand": 1}, total=4, src="3.3 断幺")
P.miss("all_simples", "234m456p678s55s99p", "9p", also={"no_honors": 1}, src="9p")
P.excl("all_simples", "no_honors", "234m456p678s55s22p", "2p", total=4, src="3.3 断幺 +[MCR] 无字")

NC = {"options": {"caishen_enabled": True}}
P.hit("no_caishen", *CHICKEN, **NC, absent=("chicken_hand",), total=2,
      src="G003-10: with the 财神 option on, 无财神 is a fan (so no 无番和)")
P.hit("no_caishen", "123m456m789m11mNN", "N", **NC, total=27, src="G003-10")
P.miss("no_caishen", *CHICKEN, options={"caishen_enabled": True, "caishen_used_as_wild": True},
       also={"chicken_hand": 1}, total=8, src="a 财神 used as a wild tile")
P.miss("no_caishen", *CHICKEN, also={"chicken_hand": 1}, total=8, src="G003-10: option off by default")

P.hit("pure_double_chow", "789mNNCC", "C", "chi 234m, chi 234m", total=9, src="3.3 一般高")
P.hit("pure_double_chow", "678m678mN", "N", "chi 234m, chi 234m", n=2, total=9, src="D17")
P.miss("pure_double_chow", "789mNNCC", "C", "chi 234m, chi 234p", also={"mixed_double_chow": 1},
       src="different suits")

P.hit("mixed_double_chow", "789sNNCC", "C", "chi 234m, chi 234p", also={"all_types": 1}, total=9,
      src="3.3 喜相逢")
P.hit("mixed_double_chow", "234m234p678m678pN", "N", n=2, total=6, src="D17")
P.miss("mixed_double_chow", "789sNNCC", "C", "chi 234m, chi 345p", src="different ranks")

P.hit("short_straight", "123m456m999m11mNN", "N", total=11, src="4.4 #6 rules")
P.hit("short_straight", "234m567mN", "N", "chi 123m, chi 456m", n=2, total=9, src="D17")
P.miss("short_straight", "111mNN99m", "N", "chi 345m, chi 789m", src="345 789")

P.hit("two_terminal_chows", "555mSSNN", "N", "chi 123m, chi 789m", total=8, src="3.3 老少副")
P.hit("two_terminal_chows", "123m789mSSS11mNN", "N", total=15, src="3.3 老少副")
P.miss("two_terminal_chows", "555mSSNN", "N", "chi 123m, chi 789p",
       src="123m and 789p")

P.hit("pung_of_terminals_or_honors", "123m456m999m11mNN", "N", n=2, total=11, src="3.3 幺九刻")
P.hit("pung_of_terminals_or_honors", "NNN234mC", "C", "pon 111m, pon 999m", n=3, total=10, src="3.3 幺九刻")
P.miss("pung_of_terminals_or_honors", "234m567m88mCC", "C", "pon EEE", also={"prevalent_wind": 1},
       src="D14: an E pung scores 圈风刻/门风刻, not 幺九刻")

P.hit("melded_kong", "789mNNSS", "S", "kong 5555m, chi 123m", total=9, src="3.3 明杠; G003-3 one fan")
P.hit("melded_kong", "123m456m789m5m", "5m", "kong CCCC", self_drawn=True, kong_replacement=True, total=34,
      src="3.3 明杠")
P.miss("melded_kong", "789mNNSS", "S", "ckong 5555m, chi 123m", src="concealed kong")

P.hit("one_voided_suit", "234p99pCC", "C", "chi 123m, chi 567m", total=3, src="3.3 缺一门")
P.hit("one_voided_suit", "234m234p678m678pN", "N", total=6, src="3.3 缺一门")
P.miss("one_voided_suit", "234s99pCC", "C", "chi 123m, chi 567m", src="three suits")

P.hit("no_honors", "123m456p789s55m22p", "2p", also={"mixed_straight": 1}, total=11, src="3.3 无字")
P.hit("no_honors", "234m234p678s99m55s", "9m", total=5, src="3.3 无字")
P.miss("no_honors", "123m456p789s55mNN", "N", src="an honor")

P.hit("edge_wait", "12m456m678mNNN99m", "3m", total=11, src="3.3 边张")
P.hit("edge_wait", "7789m555s", "7m", "chi 123p, pon CCC", also={"dragon_pung": 1}, total=3,
      src="G003-6 resolved: 7789 和 7 是边张")
P.miss("edge_wait", "56789m99s", "7m", "chi 123p, pon CCC", src="G003-6 resolved: 56789 和 7 不算边张")

P.hit("closed_wait", "46mNN", "5m", "chi 123m, pon CCC, pon 999m", total=11, src="3.3 坎张")
P.hit("closed_wait", "4556m999m", "5m", "chi 123m, pon CCC", total=11, src="[003] 4556 和 5 也为坎张")
P.miss("closed_wait", "45567m99m", "6m", "chi 123m, pon CCC", src="[003] 45567 和 6 不算坎张")

P.hit("single_wait", "567mN", "N", "chi 234m, pon CCC, pon 999m", total=11, src="3.3 单钓将")
P.hit("single_wait", "111m333m555mNNN9m", "9m", total=73, src="3.3 单钓将")
P.miss("single_wait", "1234m567m", "1m", "chi 789m, pon CCC", src="waits 1m/4m")

P.hit("self_drawn", "456m789mNNN5m", "5m", "chi 123m", **SD, total=25, src="3.3 自摸")
P.hit("self_drawn", "456m789mNNN5m", "5m", "chi 123m", self_drawn=True, flower_replacement=True, flowers="2f",
      absent=("out_with_replacement_tile",), total=26, src="[003] 花牌补花成和计自摸分")
P.miss("self_drawn", "456m789mNNN5m", "5m", "chi 123m", total=24, src="discard")

P.hit("flower_tiles", "FFF123m456m67m99m", "8m", flowers="1f5f", n=2, total=13, src="3.3 花牌")
P.hit("flower_tiles", "FFF123m456m67m99m", "8m", flowers="12345678f", n=8, total=19, src="3.3 花牌")
P.miss("flower_tiles", "FFF123m456m67m99m", "8m", total=11, src="no flower")

PUBLIC_CASES = P.cases

# =====================================================================================
# two-player-bamboo [001]: bamboo (s) and honors only.  Table 3.2.  Standard-form hands with
# a number pair also score 二五八将 (rank 2/5/8) or 幺九头 (rank 1/9); no wind fans.
# =====================================================================================
B = _Builder("two-player-bamboo")
ALL8 = "12345678f"
BASE12 = ("FFF123s456s67s99s", "8s")  # 箭刻 2 + 混一色 6 + 门前清 2 + 连六 1 + 幺九头 1 = 12

B.hit("eight_immortals", *BASE12, flowers=ALL8, also={"flower_tiles": 8}, total=108,
      src="3.2 八仙过海; OP-31: 88 + 8 x 花牌")
B.hit("eight_immortals", "123s456s789s11sEE", "E", flowers=ALL8, also={"flower_tiles": 8}, total=122,
      src="3.2 八仙过海")
B.miss("eight_immortals", *BASE12, flowers="1234567f", also={"four_seasons": 1, "flower_tiles": 7}, total=20,
       src="7 flowers")
B.excl("eight_immortals", ("four_plants", "four_seasons"), *BASE12, flowers=ALL8, total=108,
       src="3.2 八仙过海 +[proposed] excludes 梅兰竹菊, 春夏秋冬 (OP-31)")

B.hit("big_three_dragons", "PPP999s5s", "5s", "pon CCC, pon FFF", **SD, also={"pair_258": 1}, total=106,
      src="3.2 大三元")
B.hit("big_three_dragons", "CCCFFFPPP123s5s", "5s", total=114, src="3.2 大三元")
B.miss("big_three_dragons", "CCCFFFPP123s55s", "5s", also={"little_three_dragons": 1}, src="PP pair")
B.excl("big_three_dragons", ("dragon_pung", "two_dragon_pungs"), "CCCFFFPPP123s5s", "5s", total=114,
       src="3.2 大三元 exclusions")

B.hit("nine_gates", "1112345678999s", "2s",
      also={"two_concealed_pungs": 1, "pung_of_terminals_or_honors": 1, "short_straight": 1, "pair_258": 1},
      total=93, src="3.2 九莲宝灯 ('幺九刻数减1')")
B.hit("nine_gates", "1112345678999s", "5s", also={"pung_of_terminals_or_honors": 1}, total=92,
      src="3.2 九莲宝灯")
B.miss("nine_gates", "1112345678899s", "9s", also={"full_flush": 1}, src="not 1112345678999")
B.excl("nine_gates", ("full_flush", "concealed_hand", "no_honors"), "1112345678999s", "2s", total=93,
       src="3.2 九莲宝灯 exclusions")
B.excl("nine_gates", ("fully_concealed_hand", "pung_of_terminals_or_honors"), "1112345678999s", "9s", **SD,
       also={"self_drawn": 1, "pure_straight": 1, "tile_hog": 1, "pair_terminal": 1}, total=108,
       src="3.2 九莲宝灯: the one 幺九刻 (999s) minus 1")

B.hit("all_green", "234s666s88sFF", "F", "chi 234s", also={"pair_258": 1}, total=92, src="3.2 绿一色")
B.hit("all_green", "888s44s33s", "3s", "pon 222s, pon 666s", also={"full_flush": 1}, total=120,
      src="3.2 绿一色 without 发: + 清一色")
B.miss("all_green", "888s55s33s", "3s", "pon 222s, pon 666s", src="5s")
B.excl("all_green", "half_flush", "234s666s88sFF", "F", "chi 234s", total=92, src="3.2 绿一色 不记混一色")

B.hit("four_kongs", "E", "E", "kong 2222s, kong 5555s, kong 8888s, kong CCCC", total=102, src="3.2 四杠")
B.hit("four_kongs", "E", "E", "ckong 2222s, ckong 5555s, kong 8888s, kong CCCC", **SD, total=99, src="3.2 四杠")
B.miss("four_kongs", "E", "E", "kong 2222s, kong 5555s, kong 8888s, pon CCC", also={"three_kongs": 1},
       total=52, src="G001-2: three kongs are not 四杠")
B.excl("four_kongs", ("three_kongs", "two_melded_kongs", "melded_kong", "all_pungs"), "E", "E",
       "kong 2222s, kong 5555s, kong 8888s, kong CCCC", total=102, src="3.2 四杠 exclusions")
B.excl("four_kongs", ("two_concealed_kongs", "concealed_kong", "single_wait"), "E", "E",
       "ckong 2222s, ckong 5555s, kong 8888s, kong CCCC", **SD, total=99, src="3.2 四杠 exclusions")

B.hit("seven_pairs_all_honors", "EESSWWNNCCFFP", "P", total=64, src="3.2 七小对 全字牌 = 64 (OP-29)")
B.hit("seven_pairs_all_honors", "EEEESSWWNNCCF", "F", **SD, also={"tile_hog": 1, "self_drawn": 1}, total=67,
      src="3.2 七小对 全字牌 with four E")
B.miss("seven_pairs_all_honors", "EESSWWNNCCFF1s", "1s", also={"seven_pairs": 1, "half_flush": 1}, total=30,
       src="one bamboo pair")
B.excl("seven_pairs_all_honors", ("seven_pairs", "concealed_hand", "single_wait"), "EESSWWNNCCFFP", "P",
       total=64, src="3.2 exclusions")
B.excl("seven_pairs_all_honors", "fully_concealed_hand", "EEEESSWWNNCCF", "F", **SD, total=67,
       src="3.2 exclusions")

B.hit("little_three_dragons", "CCCFFFPP123s55s", "5s", total=74, src="3.2 小三元")
B.hit("little_three_dragons", "PP789s11s", "1s", "pon CCC, pon FFF", total=75, src="3.2 小三元")
B.miss("little_three_dragons", "CCCFFF123s555s9s", "9s", also={"two_dragon_pungs": 1}, src="non-dragon pair")
B.excl("little_three_dragons", ("dragon_pung", "two_dragon_pungs"), "CCCFFFPP123s55s", "5s", total=74,
       src="3.2 小三元 exclusions")

B.hit("all_honors", "SSSFFNN", "F", "pon EEE, pon CCC", also={"two_dragon_pungs": 1}, total=70, src="3.2 字一色")
B.hit("all_honors", "EEESSSWWWCCNN", "N", also={"big_three_winds": 1, "three_concealed_pungs": 1}, total=94,
      src="3.2 字一色; OP-51 four wind pungs give 三风刻")
B.miss("all_honors", "EESSWWNNCCFFP", "P", also={"seven_pairs_all_honors": 1},
       src="3.2: 字一色 is standard form only in this ruleset")
B.excl("all_honors", ("all_pungs", "outside_hand", "pung_of_terminals_or_honors"), "SSSFFNN", "F",
       "pon EEE, pon CCC", total=70, src="3.2 字一色 exclusions")

B.hit("pure_terminal_chows", "123s123s789s789s5s", "5s", total=67, src="3.2 一色双龙会")
B.hit("pure_terminal_chows", "123s789s5s", "5s", "chi 123s, chi 789s", total=65, src="3.2 一色双龙会")
B.miss("pure_terminal_chows", "123s123s789s789s6s", "6s", src="66")
B.excl("pure_terminal_chows", ("all_chows", "seven_pairs", "full_flush", "pure_double_chow", "two_terminal_chows",
                               "no_honors", "pair_258"), "123s123s789s789s5s", "5s", total=67,
       src="3.2 一色双龙会 exclusions (+[resolved] 二五八将)")

B.hit("four_concealed_pungs", "111s333s555sEEE9s", "9s", also={"pair_terminal": 1}, total=74, src="3.2 四暗刻")
B.hit("four_concealed_pungs", "111s333s555sEE99s", "E", **SD, total=74, src="3.2 四暗刻 自摸构成的刻子算暗刻")
B.miss("four_concealed_pungs", "111s333s555sEE99s", "E", total=33, src="[001] 碰牌构成的刻子算明刻 (D6)")
B.excl("four_concealed_pungs", ("concealed_hand", "all_pungs", "three_concealed_pungs", "two_concealed_pungs"),
       "111s333s555sEEE9s", "9s", total=74, src="3.2 exclusions")
B.excl("four_concealed_pungs", "fully_concealed_hand", "111s333s555sEE99s", "E", **SD, total=74,
       src="3.2 exclusions")

B.hit("heavenly_hand", "123456789sEEE99s", None, heavenly=True, total=72, src="3.2 天胡")
B.hit("heavenly_hand", "234s234s567s678s88s", None, heavenly=True, total=79, src="3.2 天胡")
B.miss("heavenly_hand", "123456789sEEE9s", "9s", **SD, src="not the first turn")
B.excl("heavenly_hand", ("fully_concealed_hand", "concealed_hand", "self_drawn"), "123456789sEEE99s", None,
       heavenly=True, total=72, src="3.2 天胡 +[resolved]")
B.excl("heavenly_hand", ("single_wait", "edge_wait", "closed_wait"), "123s456s789sEEE9s", "9s", heavenly=True,
       total=72, src="[001] 不记番: 单钓将、边张、砍张")

B.hit("four_pure_shifted_pungs", "444s555s9s", "9s", "pon 222s, pon 333s", total=76, src="3.2 一色四节高")
B.hit("four_pure_shifted_pungs", "888sE", "E", "pon 555s, pon 666s, pon 777s", total=55,
      src="G001-7: one fan, counted once")
B.miss("four_pure_shifted_pungs", "444s666s9s", "9s", "pon 222s, pon 333s", also={"pure_shifted_pungs": 1},
       src="222 333 444 666")
B.excl("four_pure_shifted_pungs", ("pure_triple_chow", "all_pungs", "pure_shifted_pungs"), "222s333s444s555s9s",
       "9s", total=138, src="3.2 exclusions")

B.hit("quadruple_chow", "234s234s234s234sE", "E", total=57, src="3.2 一色四同顺")
B.hit("quadruple_chow", "345s345s9s", "9s", "chi 345s, chi 345s", also={"pair_terminal": 1}, total=76,
      src="3.2 一色四同顺")
B.miss("quadruple_chow", "234s234s234s345sE", "E", src="one shifted")
B.excl("quadruple_chow", ("pure_shifted_pungs", "pure_triple_chow", "pure_double_chow", "tile_hog", "seven_pairs"),
       "234s234s234s234sE", "E", total=57, src="3.2 exclusions; G001-15 no 喜相逢")

B.hit("earthly_hand", "123s456s789sEEE9s", "9s", earthly=True, total=56, src="3.2 地胡")
B.hit("earthly_hand", "EEESSS123s789sC", "C", earthly=True, total=48, src="3.2 地胡")
B.miss("earthly_hand", "EEESSS123s789sC", "C", **SD, src="not the first draw")
B.excl("earthly_hand", ("fully_concealed_hand", "concealed_hand", "self_drawn"), "EEESSS123s789sC", "C",
       earthly=True, total=48, src="3.2 地胡 +[resolved]")

B.hit("four_pure_shifted_chows", "123s234s345s456sE", "E", total=41, src="3.2 一色四步高")
B.hit("four_pure_shifted_chows", "789s9s", "9s", "chi 123s, chi 345s, chi 567s", total=59, src="3.2 一色四步高")
B.miss("four_pure_shifted_chows", "123s234s345s567sE", "E", also={"pure_shifted_chows": 1}, src="567")
B.excl("four_pure_shifted_chows", ("pure_shifted_chows", "short_straight"), "123s234s345s456sE", "E", total=41,
       src="G001-8 resolved")
B.excl("four_pure_shifted_chows", "two_terminal_chows", "789s9s", "9s", "chi 123s, chi 345s, chi 567s",
       total=59, src="G001-8 resolved")

B.hit("three_kongs", "23s55s", "1s", "kong NNNN, kong SSSS, kong CCCC", total=43, src="G001-12: 三杠 32")
B.hit("three_kongs", "EEE9s", "9s", "ckong 2222s, ckong 5555s, kong 8888s", **SD, total=64, src="G001-12")
B.miss("three_kongs", "23s55s", "1s", "kong NNNN, kong SSSS, pon CCC", also={"two_melded_kongs": 1},
       src="two kongs")
B.excl("three_kongs", ("two_melded_kongs", "melded_kong"), "23s55s", "1s", "kong NNNN, kong SSSS, kong CCCC",
       total=43, src="3.2 三杠 exclusions")
B.excl("three_kongs", ("two_concealed_kongs", "concealed_kong"), "EEE9s", "9s",
       "ckong 2222s, ckong 5555s, kong 8888s", **SD, total=64, src="3.2 三杠 exclusions")

B.hit("humanly_hand", "123s456s789sEE99s", "E", humanly=True, total=48, src="3.2 人胡")
B.hit("humanly_hand", "234s567s789sEEEC", "C", humanly=True, total=33, src="3.2 人胡")
B.miss("humanly_hand", "234s567s789sEEEC", "C", total=11, src="plain discard")
B.excl("humanly_hand", "concealed_hand", "234s567s789sEEEC", "C", humanly=True, total=33, src="3.2 人胡")

B.hit("seven_pairs", "1111s33s55s77sEEW", "W", **SD, total=33, src="3.2 七小对")
B.hit("seven_pairs", "11s33s55s77s99sEES", "S", total=30, src="3.2 七小对")
B.miss("seven_pairs", "11s22s33s444s55sEE", "E", src="a pung")
B.excl("seven_pairs", "fully_concealed_hand", "1111s33s55s77sEEW", "W", **SD, total=33, src="3.2 +[MCR]")
B.excl("seven_pairs", ("concealed_hand", "single_wait"), "11s33s55s77s99sEES", "S", total=30, src="3.2 +[MCR]")

B.hit("pure_shifted_pungs", "555666777s23s88s", "4s", **SD, also={"pair_258": 1}, total=71, src="3.2 一色三节高")
B.hit("pure_shifted_pungs", "333sNNWW", "W", "pon 111s, pon 222s", total=38, src="3.2 一色三节高")
B.miss("pure_shifted_pungs", "444sNNWW", "W", "pon 111s, pon 222s", src="111 222 444")
B.excl("pure_shifted_pungs", "pure_triple_chow", "555666777s23s88s", "4s", **SD, total=71, src="3.2")

B.hit("pure_triple_chow", "234s678sE", "E", "chi 234s, chi 234s", total=31, src="3.2 一色三同顺")
B.hit("pure_triple_chow", "567s567s11sEE", "E", "chi 567s", also={"pair_terminal": 1}, total=32,
      src="3.2 一色三同顺")
B.miss("pure_triple_chow", "234s678sE", "E", "chi 234s, chi 345s", src="345")
B.excl("pure_triple_chow", "pure_double_chow", "234s678sE", "E", "chi 234s, chi 234s", total=31, src="3.2")
B.excl("pure_triple_chow", "pure_shifted_pungs", "55s666s777s234s88s", "5s", total=56,
       src="3.2 一色三同顺 不记一色三节高 (P4 chow reading)")

B.hit("full_flush", "67s55s", "8s", "chi 123s, chi 456s, pon 999s", also={"pair_258": 1}, total=27,
      src="3.2 清一色")
B.hit("full_flush", "11s22s44s55s77s88s9s", "9s", also={"seven_pairs": 1}, total=48,
      src="3.2 清一色 (OP-45: no pair fans on seven pairs)")
B.miss("full_flush", "67s55s", "8s", "chi 123s, chi 456s, pon CCC", also={"half_flush": 1}, src="an honor")
B.excl("full_flush", "no_honors", "67s55s", "8s", "chi 123s, chi 456s, pon 999s", total=27, src="3.2 不记无字")

RD = {"ready_declared": True, "ready_concealed": True}
B.hit("heavenly_ready", "123s456s789sEE99s", "E", heavenly_ready=True, **RD, also={"riichi": 1}, total=44,
      src="3.2 天听 with its 报听 (立直 too, OP-22)")
B.hit("heavenly_ready", "234s567s789sEEEC", "C", heavenly_ready=True, humanly=True, **RD, total=51,
      src="OP-22: 天听 + 人胡 + 立直")
B.miss("heavenly_ready", "123s456s789sEE99s", "E", **RD, also={"riichi": 1}, total=28,
       src="报听 later than the window: 立直 only")

B.hit("pure_straight", "123s456s789s11sEE", "E", also={"pair_terminal": 1}, total=26, src="3.2 青龙")
B.hit("pure_straight", "123s456s789s789s5s", "5s", also={"full_flush": 1, "pair_258": 1},
      sum_of=((("pure_double_chow", "short_straight", "two_terminal_chows"), 1),), src="3.2 + D15")
B.miss("pure_straight", "123s456s678s11sEE", "E", src="678")
B.excl("pure_straight", ("short_straight", "two_terminal_chows"), "123s456s789s11sEE", "E", total=26,
       src="3.2 青龙; G001-16 also 老少配")
B.excl("pure_straight", (), "123s456s789s123sE", "E", total=26,
       sum_of=((("pure_double_chow", "short_straight", "two_terminal_chows"), 1),), src="D15 scoped")

B.hit("pure_shifted_chows", "123s234s345s99sEE", "E", total=26, src="3.2 一色三步高")
B.hit("pure_shifted_chows", "567sCC99s", "9s", "chi 123s, chi 345s", total=23, src="3.2 一色三步高")
B.miss("pure_shifted_chows", "123s234s456s99sEE", "E", src="456")

B.hit("three_concealed_pungs", "555s777sEEE9s", "9s", "chi 123s", total=24, src="3.2 三暗刻")
B.hit("three_concealed_pungs", "222s444s666s8s", "8s", "pon 999s", **SD, also={"pair_258": 1}, total=49,
      src="3.2 三暗刻")
B.miss("three_concealed_pungs", "555s777sEE99s", "E", "chi 123s", also={"two_concealed_pungs": 1}, src="D6")
B.excl("three_concealed_pungs", "two_concealed_pungs", "555s777sEEE9s", "9s", "chi 123s", total=24, src="3.2")

B.hit("big_three_winds", "CC23s", "4s", "pon EEE, pon SSS, pon WWW", total=18, src="G001-3: 三风刻 = three wind pungs")
B.hit("big_three_winds", "EEESSSNNN789s5s", "5s", total=38, src="3.2 三风刻")
B.hit("big_three_winds", "NNN5s", "5s", "pon EEE, pon SSS, pon WWW",
      also={"pung_of_terminals_or_honors": 1, "all_pungs": 1}, total=27,
      src="OP-51: four wind pungs = 三风刻 + 幺九刻 for the fourth + 碰碰和")
B.miss("big_three_winds", "EE23s", "4s", "kong 5555s, kong 7777s, kong CCCC", also={"three_kongs": 1},
       src="G001-3: the printed text (三个明杠或暗杠) describes 三杠, not 三风刻")
B.excl("big_three_winds", "pung_of_terminals_or_honors", "CC23s", "4s", "pon EEE, pon SSS, pon WWW", total=18,
       src="3.2 三风刻 不记幺九刻")

B.hit("last_tile_draw", "456s789sEEE5s", "5s", "chi 123s", self_drawn=True, last_tile=True, sum_of=(W1,),
      total=33, src="3.2 海底捞月 (自摸)")
B.hit("last_tile_draw", "456s789sEEE5s", "5s", "chi 123s", self_drawn=True, last_tile=True,
      flower_replacement=True, flowers="1f", also={"out_with_replacement_tile": 1}, total=42,
      src="[001] 倒数第二张牌为花牌…算杠上开花+海底捞月")
B.miss("last_tile_draw", "456s789sEEE5s", "5s", "chi 123s", last_tile=True, also={"last_tile_claim": 1},
       src="discard")
B.excl("last_tile_draw", "self_drawn", "456s789sEEE5s", "5s", "chi 123s", self_drawn=True, last_tile=True,
       total=33, src="3.2 +[proposed] 自摸")

B.hit("last_tile_claim", "456s789sEEE5s", "5s", "chi 123s", last_tile=True, sum_of=(W1,), total=33,
      src="3.2 海底捞月 (点和)")
B.hit("last_tile_claim", "123s456s789s11sEE", "E", last_tile=True, total=34, src="3.2")
B.miss("last_tile_claim", "123s456s789s11sEE", "E", self_drawn=True, last_tile=True, also={"last_tile_draw": 1},
       src="self-drawn")

B.hit("out_with_replacement_tile", "123s456s789s5s", "5s", "kong CCCC", self_drawn=True, kong_replacement=True,
      sum_of=(W1,), total=35, src="3.2 杠上开花")
B.hit("out_with_replacement_tile", "123s456s789s5s", "5s", "pon CCC", self_drawn=True, flower_replacement=True,
      flowers="2f", total=35, src="OP-28: in this ruleset a flower replacement win is 杠上开花")
B.miss("out_with_replacement_tile", "123s456s789s5s", "5s", "pon CCC", self_drawn=True, flower_replacement=True,
       flowers="2f", options={"replacement_bloom": "kongs_only"}, also={"self_drawn": 1}, total=28,
       src="OP-28 configured 'kongs_only'")
B.excl("out_with_replacement_tile", "self_drawn", "123s456s789s5s", "5s", "kong CCCC", self_drawn=True,
       kong_replacement=True, total=35, src="3.2 +[proposed] 自摸")

B.hit("robbing_the_kong", "123s345s78sEEE55s", "9s", robbing_kong=True, last_of_kind=True, total=19,
      src="3.2 抢杠和 (OP-27)")
B.hit("robbing_the_kong", "46sEE", "5s", "chi 123s, pon CCC, pon 999s", robbing_kong=True, total=19, src="3.2")
B.miss("robbing_the_kong", "46sEE", "5s", "chi 123s, pon CCC, pon 999s", total=11, src="plain discard")
B.excl("robbing_the_kong", "last_tile", "123s345s78sEEE55s", "9s", robbing_kong=True, last_of_kind=True,
       total=19, src="3.2 抢杠和 不计和绝张")

B.hit("half_flush", "789s55sEE", "E", "chi 123s, chi 456s", total=24, src="3.2 混一色")
B.hit("half_flush", "234s567s88sSS", "S", "pon CCC", total=11, src="3.2 混一色")
B.miss("half_flush", "789s55s99s", "9s", "chi 123s, chi 456s", also={"full_flush": 1}, src="no honor")

B.hit("melded_hand", "5s", "5s", "chi 123s, chi 456s, pon 999s, pon EEE", total=16,
      src="G001-5: 全求人 = exposed groups + single discard")
B.hit("melded_hand", "E", "E", "kong CCCC, pon FFF, chi 234s, chi 678s", total=19, src="G001-5")
B.miss("melded_hand", "5s", "5s", "chi 123s, chi 456s, pon 999s, pon EEE", **SD, src="self-drawn")
B.excl("melded_hand", "single_wait", "5s", "5s", "chi 123s, chi 456s, pon 999s, pon EEE", total=16,
       src="3.2 +[MCR]")

B.hit("all_pungs", "888sEE99s", "E", "pon 222s, pon 555s", total=14, src="G001-5: 碰碰和 = pungs/kongs + pair")
B.hit("all_pungs", "777s9s", "9s", "pon 111s, pon 333s, pon 555s", **SD, total=33, src="G001-5")
B.miss("all_pungs", "888sEE99s", "E", "pon 222s, chi 456s", src="a chow")

B.hit("two_concealed_kongs", "789sCC99s", "C", "ckong 2222s, ckong 5555s", total=17, src="3.2 双暗杠")
B.hit("two_concealed_kongs", "123s456s5s", "5s", "ckong EEEE, ckong 9999s", **SD, sum_of=(W1,), total=21,
      src="3.2 双暗杠")
B.miss("two_concealed_kongs", "789sCC99s", "C", "ckong 2222s, kong 5555s", src="one exposed")
B.excl("two_concealed_kongs", ("two_concealed_pungs", "concealed_kong"), "789sCC99s", "C",
       "ckong 2222s, ckong 5555s", total=17, src="3.2 +[MCR]")

B.hit("two_dragon_pungs", "123s456s9s", "9s", "pon CCC, pon FFF", total=15, src="3.2 双箭刻")
B.hit("two_dragon_pungs", "CCCFFF234s567s8s", "8s", total=18, src="3.2 双箭刻")
B.miss("two_dragon_pungs", "123s456sF", "F", "pon CCC, pon 999s", also={"dragon_pung": 1}, src="one")
B.excl("two_dragon_pungs", "dragon_pung", "123s456s9s", "9s", "pon CCC, pon FFF", total=15,
       src="G001-17: 双箭刻 excludes 箭刻")

B.hit("outside_hand", "SSSEE99s", "E", "chi 123s, chi 789s", total=14, src="3.2 全带幺")
B.hit("outside_hand", "123s123s789s99sEE", "E", total=16, src="3.2 全带幺")
B.miss("outside_hand", "123s234s789s99sEE", "E", src="234")
B.excl("outside_hand", "no_honors", "123s789s789s1s", "1s", "chi 123s",
       also={"full_flush": 1, "tile_hog": 1, "pair_terminal": 1, "all_chows": 1},
       sum_of=((("pure_double_chow", "two_terminal_chows"), 3),), total=36,
       src="3.2 全带幺 不记无字 ([001]-specific)")

B.hit("last_tile", "123s456s78sEEE55s", "9s", last_of_kind=True, total=30, src="3.2 和绝张")
B.hit("last_tile", "46sEE", "5s", "chi 123s, pon CCC, pon 999s", **SD, last_of_kind=True, total=16, src="3.2")
B.miss("last_tile", "123s456s78sEEE55s", "9s", total=26, src="not the last copy")

B.hit("fully_concealed_hand", "123s456s789s11sEE", "E", **SD, total=28, src="3.2 不求人")
B.hit("fully_concealed_hand", "234s567s88s99s", "9s", "ckong CCCC", **SD, total=19, src="3.2 不求人")
B.miss("fully_concealed_hand", "234s567s88s99s", "9s", "pon CCC", **SD, also={"self_drawn": 1}, src="exposed")
B.excl("fully_concealed_hand", ("self_drawn", "concealed_hand"), "123s456s789s11sEE", "E", **SD, total=28,
       src="3.2 不求人")

B.hit("two_melded_kongs", "456s789s5s", "5s", "kong 2222s, kong CCCC", sum_of=(W1,), total=15, src="3.2 双明杠")
B.hit("two_melded_kongs", "123s789s9s", "9s", "kong EEEE, kong SSSS", **SD, total=19, src="3.2 双明杠")
B.miss("two_melded_kongs", "456s789s5s", "5s", "kong 2222s, pon CCC", also={"melded_kong": 1}, src="one")
B.excl("two_melded_kongs", "melded_kong", "456s789s5s", "5s", "kong 2222s, kong CCCC", total=15, src="3.2 +[MCR]")

B.hit("riichi", "234s345s666sCCC8s", "8s", **RD, also={"concealed_hand": 1, "pair_258": 1}, total=15,
      src="4.4 #11")
B.hit("riichi", "123s456s789s11sEE", "E", **SD, **RD, also={"fully_concealed_hand": 1}, total=30,
      src="OP-30: 立直 + 不求人")
B.miss("riichi", "456s789s11sEE", "E", "chi 123s", ready_declared=True, src="报听 with an exposed chow (OP-32)")

B.hit("all_simples", "555666777s23s88s", "4s", **SD, total=71, src="3.2 断幺九")
B.hit("all_simples", "456s345s2s", "2s", "chi 234s, pon 888s", total=43, src="3.2 断幺九")
B.miss("all_simples", "456s345s1s", "1s", "chi 234s, pon 888s", src="1s")
B.excl("all_simples", "no_honors", "456s345s2s", "2s", "chi 234s, pon 888s", total=43, src="3.2 不记无字")

B.hit("all_chows", "234s567s567s9s", "9s", "chi 234s", sum_of=((("pure_double_chow", "short_straight"), 3),),
      total=31, src="4.4 #2 rules")
B.hit("all_chows", "78s55s", "6s", "chi 123s, chi 123s, chi 789s", total=29, src="3.2 平胡")
B.miss("all_chows", "234s567s567sE", "E", "chi 234s", src="honor pair")
B.excl("all_chows", "no_honors", "234s567s567s9s", "9s", "chi 234s", total=31, src="3.2 平胡 不记无字")

B.hit("tile_hog", "1111s33s55s77sEEW", "W", **SD, total=33, src="3.2 四归一")
B.hit("tile_hog", "1111s2222s55s77s9s", "9s", n=2, total=52, src="3.2 四归一")
B.miss("tile_hog", "234s567s88sEE", "E", "kong 1111s", src="[001] 且非杠牌")

B.hit("concealed_hand", "123s456s789s11sEE", "E", total=26, src="3.2 门前清")
B.hit("concealed_hand", "234s567s88s99s", "9s", "ckong CCCC", total=15, src="3.2 门前清 (暗杠不计)")
B.miss("concealed_hand", "123s456s789s11sEE", "E", **SD, src="self-drawn")

B.hit("two_concealed_pungs", "123s456s999s11sEE", "E", **SD, total=16, src="G001-4: two concealed pungs")
B.hit("two_concealed_pungs", "777s999sC", "C", "chi 123s, chi 456s", total=11, src="G001-4")
B.miss("two_concealed_pungs", "CC23s", "4s", "pon EEE, pon SSS, pon WWW", also={"big_three_winds": 1},
       src="G001-4: the printed '(由3个风刻组成)' is 三风刻's text")

B.hit("dragon_pung", "234s567s88sSS", "S", "pon CCC", total=11, src="3.2 箭刻")
B.hit("dragon_pung", *BASE12, total=12, src="3.2 箭刻")
B.miss("dragon_pung", "FF123s456s678s99s", "9s", src="pair")

B.hit("concealed_kong", "789sEESS", "S", "ckong 5555s, chi 123s", total=10, src="3.2 暗杠")
B.hit("concealed_kong", "234s567s88s99s", "9s", "ckong CCCC", total=15, src="3.2 暗杠")
B.miss("concealed_kong", "789sEESS", "S", "kong 5555s, chi 123s", also={"melded_kong": 1}, src="exposed")

B.hit("pair_258", "234s345s666sCCC8s", "8s", **RD, total=15, src="4.4 #11")
B.hit("pair_258", "456s789sEEE5s", "5s", "chi 123s", sum_of=(W1,), total=25, src="3.2 二五八将")
B.miss("pair_258", "456s789sEEE6s", "6s", "chi 123s", src="66")

B.hit("pair_terminal", "123s456s789s11sEE", "E", total=26, src="3.2 幺九头")
B.hit("pair_terminal", "SSSEE99s", "E", "chi 123s, chi 789s", total=14, src="3.2 幺九头")
B.miss("pair_terminal", "123s456s789s33sEE", "E", src="33")

B.hit("four_plants", *BASE12, flowers="5678f", also={"flower_tiles": 4}, total=17, src="3.2 梅兰竹菊")
B.hit("four_plants", "123s456s789s11sEE", "E", flowers="15678f", also={"flower_tiles": 5}, total=32,
      src="3.2 梅兰竹菊")
B.miss("four_plants", *BASE12, flowers="567f", also={"flower_tiles": 3}, total=15, src="3 plants")

B.hit("four_seasons", *BASE12, flowers="1234f", also={"flower_tiles": 4}, total=17, src="3.2 春夏秋冬")
B.hit("four_seasons", "123s456s789s11sEE", "E", flowers="12345f", also={"flower_tiles": 5}, total=32,
      src="3.2 春夏秋冬")
B.miss("four_seasons", *BASE12, flowers="1235f", also={"flower_tiles": 4}, total=16, src="3 seasons")

B.hit("pure_double_chow", "789sEECC", "C", "chi 234s, chi 234s", total=9, src="3.2 一般高")
B.hit("pure_double_chow", "678s678sE", "E", "chi 234s, chi 234s", n=2, total=9, src="D17")
B.miss("pure_double_chow", "789sEECC", "C", "chi 234s, chi 567s", also={"short_straight": 1},
       src="G001-9: two chows of one suit are not enough, they must be identical")

B.miss("no_honors", "67s55s", "8s", "chi 123s, chi 456s, pon 999s", also={"full_flush": 1},
       src="3.2 无字: every honorless hand is 清一色, which excludes it")
B.miss("no_honors", "789s55sEE", "E", "chi 123s, chi 456s", src="an honor")

B.hit("short_straight", "123s456s999s11sEE", "E", total=12, src="3.2 六连张")
B.hit("short_straight", "234s567sE", "E", "chi 123s, chi 456s", n=2, total=9, src="D17")
B.miss("short_straight", "111sEE99s", "E", "chi 345s, chi 789s", src="345 789")

B.hit("edge_wait", "12s456s678sEEE99s", "3s", total=12, src="G001-6: 镶边 = 边张")
B.hit("edge_wait", "1233s789s", "3s", "chi 567s, pon CCC", total=10, src="G001-6 / D9 1233 winning 3")
B.miss("edge_wait", "234s567sE", "E", "chi 123s, chi 456s", also={"short_straight": 2},
       src="G001-6: 六连张 text is not 镶边")

B.hit("closed_wait", "46sEE", "5s", "chi 123s, pon CCC, pon 999s", total=11, src="[001] 46胡5就是嵌单")
B.hit("closed_wait", "4556s999s", "5s", "chi 123s, pon CCC", total=12, src="[001] 4556胡5也是")
B.miss("closed_wait", "45567s99s", "6s", "chi 123s, pon CCC", src="G001-10: read as 45567 winning 6, not 嵌单")

B.hit("single_wait", "567sE", "E", "chi 234s, pon CCC, pon 999s", total=11, src="3.2 单钓")
B.hit("single_wait", "111s333s555sEEE9s", "9s", total=74, src="3.2 单钓")
B.miss("single_wait", "1234s567s", "1s", "chi 789s, pon CCC", src="waits 1s/4s")

B.hit("two_terminal_chows", "555sSSEE", "E", "chi 123s, chi 789s", total=8, src="3.2 老少配")
B.hit("two_terminal_chows", "123s789sSSS11sEE", "E", total=16, src="3.2 老少配")
B.miss("two_terminal_chows", "555sSSEE", "E", "chi 123s, chi 678s", src="678")

B.hit("self_drawn", "456s789sEEE5s", "5s", "chi 123s", **SD, sum_of=(W1,), total=26, src="3.2 自摸")
B.hit("self_drawn", "46sEE", "5s", "chi 123s, pon CCC, pon 999s", **SD, total=12, src="3.2 自摸")
B.miss("self_drawn", "456s789sEEE5s", "5s", "chi 123s", total=25, src="discard")

B.hit("melded_kong", "789sEESS", "S", "kong 5555s, chi 123s", total=9, src="3.2 明杠")
B.hit("melded_kong", "123s456s789s5s", "5s", "kong CCCC", self_drawn=True, kong_replacement=True, total=35,
      src="3.2 明杠")
B.miss("melded_kong", "789sEESS", "S", "ckong 5555s, chi 123s", also={"concealed_kong": 1}, src="concealed")

B.hit("pung_of_terminals_or_honors", "123s456s999s11sEE", "E", n=2, total=12, src="G001-13: 幺九刻 restored, 1")
B.hit("pung_of_terminals_or_honors", "EEE234sC", "C", "pon 111s, pon 999s", n=3, total=10, src="G001-13")
B.miss("pung_of_terminals_or_honors", *BASE12, src="D14: dragon pung")

B.hit("flower_tiles", *BASE12, flowers="1f5f", n=2, total=14, src="3.2 花牌")
B.hit("flower_tiles", *BASE12, flowers="1236f", n=4, total=16, src="3.2 花牌")
B.miss("flower_tiles", *BASE12, total=12, src="no flower")

BAMBOO_CASES = B.cases

# =====================================================================================
# mcr (Chinese Official): `public`'s rows without 无财神, plus 明暗杠 (rulesets/mcr.py).  Every
# public case carries over, except the 无财神 / 财神 ones; a hand with one exposed and one
# concealed kong scores 明暗杠 5 instead of 明杠 1 + 暗杠 2 (+2 on the total).
# =====================================================================================
_KONG_SINGLES = ("melded_kong", "concealed_kong")


def _mcr_case(c: Case) -> "Case | None":
    """A `public` case as an `mcr` case, or None when it does not carry over."""
    opts = c.flags.get("options", {})
    if c.fan_id == "no_caishen" or any(k.startswith("caishen") for k in opts):
        return None
    kinds = [m.split()[0] for m in c.melds]
    if kinds.count("kong") != 1 or kinds.count("ckong") != 1:
        return c._replace(ruleset="mcr")
    if c.fan_id in _KONG_SINGLES or c.sum_of:
        return None
    present = {k: v for k, v in c.expect_present.items() if k not in _KONG_SINGLES}
    present["concealed_kong_and_melded_kong"] = 1
    return c._replace(ruleset="mcr", expect_present=present, expect_absent=c.expect_absent + _KONG_SINGLES,
                      total=None if c.total is None else c.total + 2)


M = _Builder("mcr")
# 明暗杠: exposed 5s kong, concealed 9m kong, 123p 789p, E pair waited alone (discard, seat/prevalent E):
# 明暗杠 5, 老少副 1, 幺九刻 (9m) 1, 单钓将 1
M.hit("concealed_kong_and_melded_kong", "123p789pE", "E", "kong 5555s, ckong 9999m", total=8,
      src="MCR 2006 明暗杠")
# the same kongs, 234p 678p and N waited alone: 明暗杠 5, 幺九刻 (9m) 1, 单钓将 1
M.hit("concealed_kong_and_melded_kong", "234p678pN", "N", "kong 5555s, ckong 9999m", total=7,
      also={"pung_of_terminals_or_honors": 1, "single_wait": 1}, src="MCR 2006 明暗杠")
M.miss("concealed_kong_and_melded_kong", "123p789pE", "E", "kong 5555s, kong 9999m",
       also={"two_melded_kongs": 1}, src="two exposed kongs: 双明杠")
M.miss("concealed_kong_and_melded_kong", "123p789pE", "E", "ckong 5555s, ckong 9999m",
       also={"two_concealed_kongs": 1}, src="two concealed kongs: 双暗杠")
M.excl("concealed_kong_and_melded_kong", _KONG_SINGLES, "123p789pE", "E", "kong 5555s, ckong 9999m", total=8,
       src="MCR 2006 明暗杠 不计明杠、暗杠")
M.excl("three_kongs", "concealed_kong_and_melded_kong", "789pE", "E", "kong 5555s, ckong 9999m, kong 1111p",
       src="三杠 不计明暗杠")
M.excl("four_kongs", "concealed_kong_and_melded_kong", "E", "E", "kong 5555s, ckong 9999m, kong 1111p, kong 7777p",
       src="四杠 不计明暗杠")

MCR_CASES = [m for m in (_mcr_case(c) for c in PUBLIC_CASES) if m is not None] + M.cases

# =====================================================================================
# Registry
# =====================================================================================

SKIPPED_EXCLUSIONS: dict = {
    ("two-player", "all_honors", "all_terminals_and_honors"):
        "混幺九 needs at least one terminal; a 字一色 hand has none",
    ("public", "all_honors", "all_terminals_and_honors"):
        "混幺九 needs at least one terminal; a 字一色 hand has none",
    ("public", "all_terminals", "all_terminals_and_honors"):
        "混幺九 needs at least one honor; a 清幺九 hand has none",
    ("public", "full_flush", "one_voided_suit"):
        "缺一门 needs number tiles of exactly two suits (3.3); a 清一色 hand has one",
    ("public", "greater_honors_and_knitted_tiles", "single_wait"):
        "never a unique wait: 13 tiles of 7 honors + 6 pattern tiles wait on the 3 missing pattern tiles, "
        "6 honors + 7 pattern tiles wait on the missing honor and (全不靠) on the 2 missing pattern tiles",
    ("public", "lesser_honors_and_knitted_tiles", "single_wait"):
        "never a unique wait: 13 distinct tiles of the 16 kinds (9 pattern + 7 honors) wait on all 3 missing kinds",
    ("two-player-bamboo", "big_three_dragons", "little_three_dragons"):
        "小三元 needs a pair of the third dragon, which 大三元 already holds as a pung (5 copies)",
    ("two-player-bamboo", "four_pure_shifted_chows", "pure_triple_chow"):
        "as printed (G001-8); four shifted chows never contain three identical chows",
    ("two-player-bamboo", "four_pure_shifted_chows", "all_pungs"):
        "as printed (G001-8); four chows are never four pungs",
    ("two-player-bamboo", "four_pure_shifted_chows", "pure_shifted_pungs"):
        "as printed (G001-8); 123 234 345 456 / 123 345 567 789 have no three-pung reading",
    ("two-player-bamboo", "seven_pairs_all_honors", "all_honors"):
        "字一色 is standard form only in this ruleset (3.2) and 7 honor pairs have no standard reading",
    ("two-player-bamboo", "outside_hand", "all_simples"):
        "全带幺 needs terminals or honors, 断幺九 forbids them",
}
IMPOSSIBLE_HITS: dict = {
    ("two-player-bamboo", "no_honors"):
        "3.2 无字 row: every honorless hand is 清一色 (one suit), which excludes 无字; 九莲宝灯 and 一色双龙会, "
        "the only fans that clear 清一色, exclude 无字 too",
}

SKIPPED_EXCLUSIONS.update({("mcr", a, b): why for (rs, a, b), why in list(SKIPPED_EXCLUSIONS.items())
                           if rs == "public"})

ALL_CASES: list = [*TWO_PLAYER_CASES, *BAMBOO_CASES, *PUBLIC_CASES, *MCR_CASES]
