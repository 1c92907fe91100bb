"""The example hands of the MCR rulebook, scored under ruleset `mcr`, each with its expected total.

The hands are the rulebook's examples of each fan (中国麻将竞赛规则, 国家体育总局 1998; the section of each
row names the fan it illustrates), as transcribed in the test file of the ChineseOfficialMahjongHelper
project (``Classes/mahjong-algorithm/unit_test.cpp``, after "以下测试用例来自于规则书上": "the cases below
come from the rulebook").  The rulebook prints the hands without totals: each total here was worked
out from the fan rows and the counting principles, and is the total PyMahjongGB 1.4.0 gives as well
(``test_rulebook_totals_agree_with_pymahjonggb`` checks that whenever it is installed).  The comment
of a row lists the fans counted.

Notation of the rows (that project's): ``[...]`` a declared group (``[123m]`` chow, ``[EEE]`` pung,
``[2222s1]`` exposed kong whose digit names the player who gave the tile, ``[EEEE]`` concealed kong),
then the concealed tiles; the last tile is the winning tile.  Every row is won on a discard unless
``self_drawn``; seat and prevalent wind East; no flowers.
"""

from __future__ import annotations

import re

import pytest

import mahjong_core as mj
from mahjong_core.families.mahjong.tiles import parse_tiles

RULEBOOK: list[tuple[str, str, bool, int]] = [
    ("big four winds", "[EEE][WWW]SSSNNCCN", False, 152),  # 大四喜 字一色
    ("big four winds", "[EEE][WWW]99mSSSNNN", False, 126),  # 大四喜 混幺九 混一色
    ("big four winds", "[EEE][WWW]33sSSSNNN", False, 94),  # 大四喜 混一色
    ("big three dragons", "[CCC][PPP]11m99pFFF1m", False, 121),  # 大三元 混幺九 缺一门
    ("big three dragons", "[CCC][PPP]EEWWFFFE", False, 156),  # 大三元 字一色 圈风刻 门风刻
    ("big three dragons", "[CCC][PPP]5556sFFF4s", False, 94),  # 大三元 混一色
    ("all green", "[234s]23466888sFF6s", False, 89),  # 绿一色 一般高
    ("all green", "[234s]22334666sFF4s", False, 112),  # 绿一色 一色三同顺
    ("all green", "[222s][444s]3366688s3s", False, 144),  # 绿一色 清一色 一色三节高 碰碰和 断幺
    ("all green", "223344668888sFF", False, 114),  # 绿一色 七对 四归一
    ("nine gates", "1112345678999m9m", False, 106),  # 九莲宝灯 清龙 四归一
    ("four kongs", "[2222s1][5555m2][7777p3][EEEE]CC", True, 99),  # 四杠 五门齐 圈风刻 门风刻 自摸
    ("four kongs", "[1111m1][2222s2][3333p3][1111s1]4m4m", True, 113),  # 四杠 小于五 三色三节高 双同刻 幺九刻2 自摸
    ("four kongs", "[7777p1][NNNN2][CCCC3][3333p1]5p5p", True, 98),  # 四杠 混一色 箭刻 幺九刻 自摸
    ("seven shifted pairs", "1122334455667m7m", False, 88),  # 连七对
    ("seven shifted pairs", "2233445566778p8p", False, 90),  # 连七对 断幺
    ("thirteen orphans", "19m19s19pESWNCFPN", False, 88),  # 十三幺
    ("all terminals", "[111m][111s][999m]99s1p1p9s", False, 64),  # 清幺九
    ("little four winds", "[EEE][WWW][NNN]23sSS1s", False, 78),  # 小四喜 混一色 全带幺 圈风刻 门风刻
    ("little four winds", "[WWW][SSS][NNN]EEPPP", False, 130),  # 小四喜 字一色 箭刻
    ("little three dragons", "[CCC][FFF]11199pPP9p", False, 102),  # 小三元 混幺九 混一色
    ("little three dragons", "[CCC][FFF]23s111pPP1s", False, 70),  # 小三元 全带幺 幺九刻 缺一门
    ("little three dragons", "[CCC][FFF]EEENNPPN", False, 132),  # 小三元 字一色 圈风刻 门风刻
    ("all honors", "[CCC][PPP]EEESSNNS", False, 74),  # 字一色 双箭刻 圈风刻 门风刻
    ("four concealed pungs", "3444m222s222333p3m", False, 88),  # 四暗刻 小于五 三色三节高 双同刻 断幺
    ("pure terminal chows", "1223355778899s1s", False, 66),  # 一色双龙会 门前清
    ("quadruple chow", "[123m][123m]1122334m4m", False, 86),  # 一色四同顺 清一色 小于五 平和
    ("four pure shifted pungs", "[111p][222p][333p]22s44p4p", False, 69),  # 一色四节高 小于五 推不倒 幺九刻
    ("four pure shifted chows", "[123m][234m][345m]1145m6m", False, 58),  # 一色四步高 清一色 平和
    ("four pure shifted chows", "[123s][345s][567s]78s55p9s", False, 35),  # 一色四步高 平和 缺一门
    ("three kongs", "[2222m1][3333m2][4444m3]2233s2s", False, 79),  # 三杠 一色三节高 小于五 碰碰和 双同刻 断幺 缺一门
    ("all terminals and honors", "[EEE][111m][999s]99pCC9p", False, 44),  # 混幺九 五门齐 圈风刻 门风刻 双同刻
    ("seven pairs", "33m22s77pEENCCPPN", True, 31),  # 七对 五门齐 自摸
    ("seven pairs", "33336688m22557s7s", False, 29),  # 七对 四归一 断幺 缺一门
    ("seven pairs", "EESSWWNNCCFFPP", False, 88),  # 字一色 七对
    ("seven pairs", "1199m1199s11999p9p", False, 90),  # 清幺九 七对 四归一
    ("greater honors and knitted tiles", "17m36s25pESWNCFP9s", True, 25),  # 七星不靠 自摸
    ("all even pungs", "[222m][444s][666p]4488p8p", False, 24),  # 全双刻
    ("all even pungs", "[222m][222s][222p]44m44s4m", False, 52),  # 全双刻 三同刻 小于五
    ("all even pungs", "[666m][666s][666p]88m22s8m", False, 40),  # 全双刻 三同刻
    ("full flush", "[111m]2223334449m9m", False, 90),  # 一色四节高 清一色 三暗刻 幺九刻 单钓将
    ("full flush", "[123s]1112223334s4s", False, 86),  # 一色四同顺 清一色 小于五 平和
    ("full flush", "[789p]1234567899p9p", False, 45),  # 清一色 清龙 平和 四归一 一般高
    ("pure triple chow", "[456m][456m][456m]4556p5p", False, 69),  # 一色三同顺 全中 全带五 平和 喜相逢 缺一门 坎张
    ("pure shifted pungs", "[222s][333s][444s]2233p3p", False, 47),  # 一色三节高 小于五 碰碰和 双同刻 断幺 缺一门
    ("upper tiles", "[789m][789s][789p]7899p9p", False, 41),  # 全大 三色三同顺 全带幺 平和 四归一 一般高
    ("upper tiles", "[777s][888m][777p]99m88s9m", False, 33),  # 全大 碰碰和 双同刻 幺九刻
    ("upper tiles", "[789m][789s][888s]88m88p8p", False, 29),  # 全大 四归一 双同刻 喜相逢
    ("middle tiles", "[456s][444s][555s]66s66p6s", False, 55),  # 一色三节高 全中 四归一3 缺一门
    ("lower tiles", "[123p][123m][123s]2333s1s", False, 37),  # 全小 三色三同顺 平和 四归一 一般高
    ("pure straight", "[123m][456m][789m]2377m1m", False, 43),  # 清一色 清龙 平和 一般高
    ("pure straight", "[123s][456s][789s]6688p6p", False, 18),  # 清龙 缺一门 无字
    ("three suited terminal chows", "[123p][789p]12378m55s9m", False, 16),  # 三色双龙会
    ("pure shifted chows", "[123p][234p][345p]2234s2s", False, 20),  # 一色三步高 平和 喜相逢 缺一门
    ("pure shifted chows", "[123s][345s][567s]2345s2s", False, 43),  # 清一色 一色三步高 平和 一般高
    ("pure shifted chows", "[123m]345567m77s88p8p", False, 17),  # 一色三步高 无字
    ("all five", "[456p][456s][456m]4555m6m", False, 53),  # 全中 全带五 三色三同顺 平和 四归一 一般高
    ("all five", "[345m][456m][555p]55m55s5s", False, 20),  # 全带五 四归一 双同刻
    ("triple pung", "[333p][333m]44m23333s4s", False, 32),  # 三同刻 小于五 四归一 断幺
    ("triple pung", "[111m][111p][111s]99s99p9p", False, 80),  # 清幺九 三同刻
    ("three concealed pungs", "999m11s99pEEECCC1s", False, 62),  # 混幺九 三暗刻 五门齐 箭刻 圈风刻 门风刻 门前清
    ("three concealed pungs", "[123s]4445777888s5s", False, 40),  # 清一色 三暗刻
    ("lesser honors and knitted tiles", "258m147s36pESWFPC", False, 12),  # 全不靠
    ("lesser honors and knitted tiles", "147m39s258pEWCFPN", False, 12),  # 全不靠
    ("lesser honors and knitted tiles", "147m258s369pSWNCF", False, 24),  # 全不靠 组合龙
    ("knitted straight", "23358m14447s369p4s", False, 17),  # 组合龙 门前清 四归一 无字
    ("knitted straight", "147m3669s122358p6s", False, 17),  # 组合龙 门前清 平和 单钓将
    ("knitted straight", "369m258s147pEEPPE", False, 24),  # 组合龙 五门齐 圈风刻 门风刻 门前清
    ("upper four", "[789s][678p][777p]78m99s9m", False, 15),  # 大于五 四归一 喜相逢
    ("upper four", "[789m][789s][789p]77s78p9p", False, 35),  # 全大 三色三同顺 平和 一般高
    ("upper four", "[666s][666p][666m]7788p7p", False, 36),  # 三同刻 大于五 碰碰和 断幺
    ("lower four", "[123s][123m][123p]2333m1m", False, 37),  # 全小 三色三同顺 平和 四归一 一般高
    ("lower four", "[111s][222s]22m33344s4s", False, 62),  # 一色四节高 小于五 幺九刻 缺一门
    ("big three winds", "[EEE][SSS][WWW]99m99s9m", False, 49),  # 混幺九 三风刻 圈风刻 门风刻 缺一门
    ("big three winds", "[SSS][WWW][NNN]2345m5m", False, 18),  # 三风刻 混一色
    ("big three winds", "[SSS][WWW]NNNCCFFC", False, 78),  # 字一色 三风刻 箭刻
    ("mixed straight", "[123s][456p]789m23s88p1s", False, 11),  # 花龙 平和 一般高
    ("mixed straight", "[123m][456s][789p]77m45p6p", False, 11),  # 花龙 平和 喜相逢
    ("reversible tiles", "[123p][234p][345p]8899p8p", False, 48),  # 清一色 一色三步高 推不倒
    ("reversible tiles", "[234p][234p][234p]1123p4p", False, 98),  # 一色四同顺 清一色 小于五 推不倒 和绝张 平和
    ("reversible tiles", "[345p][345p][456s]4555s6s", False, 30),  # 全带五 推不倒 平和 四归一 一般高2
    ("reversible tiles", "[234p][456s][888p]88sPP8s", False, 10),  # 推不倒 双同刻
    ("reversible tiles", "[111p][222p][333p]4455p4p", False, 81),  # 一色四节高 清一色 推不倒 幺九刻
    ("reversible tiles", "[222s][456s]4555888s6s", False, 37),  # 清一色 推不倒 四归一 断幺 一般高
    ("reversible tiles", "[888p][999p][999s]88sPPP", False, 20),  # 推不倒 碰碰和 箭刻 双同刻 幺九刻2
    ("reversible tiles", "1122334455889p9p", False, 56),  # 七对 清一色 推不倒
    ("mixed triple chow", "[345s][345p][345m]4456m4m", False, 14),  # 三色三同顺 平和 四归一 断幺
    ("mixed triple chow", "[678m][678s][678p]99s67p8p", False, 23),  # 大于五 三色三同顺 平和 一般高
    ("mixed shifted pungs", "[222p][333s][444m]22m33p3p", False, 30),  # 小于五 三色三节高 碰碰和 双同刻 断幺
    ("mixed shifted pungs", "[777m][888s][999p]99m78p9p", False, 39),  # 全大 三色三节高 和绝张 四归一 幺九刻
    ("chicken hand", "[123p][444s][789m]34pCC2p", False, 8),  # 无番和
    ("two concealed kongs", "[1111s][EEEE1][SSS][789m]8m8m", True, 14),  # 明暗杠 圈风刻 门风刻 幺九刻2 缺一门 单钓将 自摸
    ("all pungs", "[888m][888p]888sEEPPP", False, 30),  # 三同刻 碰碰和 五门齐 箭刻
    ("half flush", "[123m][234m]34578mCC9m", False, 23),  # 一色三步高 混一色 老少副
    ("mixed shifted chows", "[123s][234m][345p]55m45s6s", False, 9),  # 三色三步高 平和 连六
    ("all types", "[123m][456p]789sNNFFF", False, 16),  # 花龙 五门齐 箭刻
    ("melded hand", "[2222m1][456p][678p][888s]6m6m", False, 9),  # 全求人 断幺 明杠
    ("two dragons pungs", "[CCC][FFF]12378m88s9m", False, 8),  # 双箭刻 老少副 缺一门
    ("outside hand", "[123m][123m][111p]11s11m1s", False, 35),  # 全小 全带幺 四归一 双同刻 一般高 幺九刻2
    ("outside hand", "[789p][789m]7788999s9s", False, 41),  # 全大 三色三同顺 全带幺 平和 四归一 一般高
    ("outside hand", "[123m][123m][789m]78mCC9m", False, 13),  # 混一色 全带幺 一般高2 老少副
    ("outside hand", "[123m][123p]999m78pEE9p", False, 8),  # 全带幺 喜相逢 老少副 幺九刻 缺一门
    ("fully concealed hand", "234m4468s345678p7s", True, 11),  # 不求人 平和 断幺 喜相逢 连六 坎张
    ("two melded kongs", "[4444p1][4444m1][CCC]1133m1m", False, 16),  # 碰碰和 双明杠 箭刻 双同刻 幺九刻 缺一门
    ("concealed hand", "234567m66s34567p8p", False, 8),  # 门前清 平和 断幺 连六2
    ("all chows", "234m456789s3477p5p", False, 11),  # 三色三步高 门前清 平和 连六
    ("tile hog", "[789p][789s][789m]77m33p7m", False, 11),  # 三色三同顺 四归一 无字
    ("double pung", "[222m][555m][555s]4488p8p", False, 10),  # 碰碰和 双同刻 断幺
    ("two concealed pungs", "[9999p]1255789m999s3m", False, 13),  # 门前清 双同刻 双暗刻 暗杠 老少副 幺九刻2 无字 边张
    ("all simples", "234m456777s3444p5p", False, 10),  # 三色三步高 门前清 断幺
    ("self drawn", "[1111p1][456s]2789s456p2s", True, 8),  # 喜相逢 连六 幺九刻 明杠 缺一门 无字 单钓将 自摸
]


def rulebook_args(text: str) -> tuple[list[int], int, list[str]]:
    """(concealed counts, winning tile, melds) of a row's notation."""
    melds = []
    for group in re.findall(r"\[([^\]]*)\]", text):
        m = re.fullmatch(r"(\d+[msp]|[ESWNCFP]+)(\d?)", group)
        assert m, group
        tiles, offer = m.groups()
        kinds = parse_tiles(tiles)
        if len(kinds) == 4:
            melds.append(("kong " if offer else "ckong ") + tiles)
        else:
            melds.append(("pon " if kinds[0] == kinds[1] else "chi ") + tiles)
    tiles = parse_tiles(re.sub(r"\[[^\]]*\]", "", text))
    counts = [0] * 34
    for t in tiles[:-1]:
        counts[t] += 1
    return counts, tiles[-1], melds


@pytest.mark.parametrize(("fan", "text", "self_drawn", "total"), RULEBOOK, ids=[r[1] for r in RULEBOOK])
def test_rulebook_hand_total(fan: str, text: str, self_drawn: bool, total: int) -> None:
    counts, win, melds = rulebook_args(text)
    s = mj.score(counts, win, ruleset="mcr", melds=melds, self_drawn=self_drawn, seat_wind="E", round_wind="E")
    assert s.total == total, s


def test_rulebook_covers_the_fans() -> None:
    """One section per fan the rulebook illustrates with a hand: 60 of them (that file transcribes
    no hand for the situational fans and most 1-fan rows)."""
    assert len({r[0] for r in RULEBOOK}) == 60
    assert len(RULEBOOK) == 111


def test_rulebook_totals_agree_with_pymahjonggb() -> None:
    gb = pytest.importorskip("MahjongGB", reason="PyMahjongGB (the parity oracle, extra 'test') is not installed")
    names = [f"W{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)] + [f"T{r}" for r in range(1, 10)] \
        + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
    for _, text, self_drawn, total in RULEBOOK:
        counts, win, melds = rulebook_args(text)
        pack = []
        for m in melds:
            kind, tiles = m.split()
            t = parse_tiles(tiles)
            pack.append({"chi": ("CHI", names[t[1]], 1), "pon": ("PENG", names[t[0]], 1),
                         "kong": ("GANG", names[t[0]], 1), "ckong": ("GANG", names[t[0]], 0)}[kind])
        hand = tuple(names[k] for k in range(34) for _ in range(counts[k]))
        fans = gb.MahjongFanCalculator(pack=tuple(pack), hand=hand, winTile=names[win], flowerCount=0,
                                       isSelfDrawn=self_drawn, is4thTile=False, isAboutKong=False,
                                       isWallLast=False, seatWind=0, prevalentWind=0)
        assert sum(points for points, _ in fans) == total, text
