"""Fan table and flow of ruleset `mcr`: Chinese Official mahjong (国标麻将, MCR), as data.

MCR is the parent ruleset of `public` (seed 003, 大众麻将), whose 82 rows are the 81 MCR fans plus
无财神 with the MCR exclusions (spec rules.md 3.3 and 4.1, the non-repeat, non-separation,
non-identical and account-once principles).  This module derives `mcr` from those rows: every
row that MCR scores the same way is :data:`~.public.PUBLIC`'s own row; only the differences
below are written here.

Readings chosen, with their sources:

* **Fans** — the 81 fans of the 1998 rulebook (中国麻将竞赛规则, 国家体育总局; spec [MCR]) with their
  points and the exclusion lists of `public` (which are the rulebook's 不计 lists plus the
  non-repeat additions, spec 3.3 "+[MCR]"), without `public`'s 无财神, plus **明暗杠** (5 fan: one
  exposed and one concealed kong; it replaces 明杠 + 暗杠, and 三杠 / 四杠 exclude it).  明暗杠 is in
  the later competition editions (the 2006 World Mahjong Organization rules used by Botzone's
  Chinese Standard Mahjong and by PyMahjongGB, "Concealed Kong and Melded Kong"); `public` keeps the
  1998 reading 明杠 1 + 暗杠 2 (spec OP-41).
* **Minimum and flowers** — 8 fan (起和) on the non-flower total; 花牌 1 per flower, counted after
  the minimum and never toward it (rulebook; spec 5.4).
* **和绝张** — holds when the three other copies of the winning tile are visible: discards,
  exposed groups (the winner's included); a concealed kong is face down and not visible (spec
  D10, OP-50).  The round engine works it out from the table; ``mj.score`` takes it as
  ``last_of_kind`` (and counts it when the winner's own exposed groups hold the three copies).
* **Special forms** — 十三幺, 七对, 全不靠 / 七星不靠 and the 组合龙 form (knitted straight + one
  group + a pair), as in `public` (spec D3).  Flower-replacement wins are not 杠上开花.
* **Game flow** — four players, 144 tiles (136 + 8 flowers, 72 stacks), the whole wall played
  (no dead wall; the hand is a draw when the last tile is drawn and discarded without a win);
  kong replacements and flower replacements from the tail of the wall by a plain draw (no
  die: `public`'s die draw is seed 003's); no ready declaration (报听) and no first-turn fans
  (天胡 / 地胡 / 人胡 are not MCR fans); claim priority 和 > 碰 = 明杠 > 吃, 吃 from the 上家 only,
  one winner per discard, the first in turn order after the discarder (截和); robbing a kong only
  on an added kong (a concealed kong cannot be robbed; 十三幺 robbing a concealed kong is not
  allowed either, rulebook 抢杠和 "和别人自抓开明杠的牌"); no kong once the wall is empty, and the
  last discard can only be claimed for a win (海底捞月).  Seat winds from the dealer (East), a
  prevalent wind passed to the evaluator; the deal passes to the dealer's 下家 after every hand,
  won or drawn (competition rules: no 连庄; ``Match(..., wind_rotation=True)`` then advances the
  prevalent wind every four hands, the rulebook's 16-hand match of four wind rounds).
* **Settlement** — the MCR scoring of the rulebook: on a discarded win the discarder pays 8 + F
  and each other player 8; on a self-draw each player pays 8 + F (profile ``public_mcr``, spec
  5.4; F = the hand's value with flowers).

PyMahjongGB (the scorer of Botzone's Chinese Standard Mahjong) is the parity oracle:
``tools/mcr_parity.py`` compares the two on random winning hands.
"""

from __future__ import annotations

from dataclasses import replace

from ..fandef import FanDef
from ..rulesetdef import HONORS, MAN, PIN, SOU, Flow, Ruleset
from .public import PUBLIC

__all__ = ["MCR", "RULESET"]

CONCEALED_KONG_AND_MELDED_KONG = FanDef(
    id="concealed_kong_and_melded_kong", zh="明暗杠", en="Concealed Kong and Melded Kong", points=5,
    excludes=("melded_kong", "concealed_kong"),
    per=None, combination=False, flower_derived=False,
    origin="[MCR 2006]", note="one exposed and one concealed kong (replaces 明杠 1 + 暗杠 2, spec OP-41)",
)
"""明暗杠: the one fan `mcr` has and `public` has not."""

_KONG_FAMILY = {"three_kongs", "four_kongs"}
"""Rows whose exclusion lists gain 明暗杠 (they already exclude 明杠 and 暗杠)."""


def _mcr_rows() -> tuple[FanDef, ...]:
    rows: list[FanDef] = []
    for f in PUBLIC:
        if f.id == "no_caishen":          # seed 003's 无财神: no wild tile exists in MCR
            continue
        if f.id in _KONG_FAMILY:
            f = replace(f, excludes=f.excludes + (CONCEALED_KONG_AND_MELDED_KONG.id,),
                        origin=f.origin + "[MCR 2006]")
        rows.append(f)
        if f.id == "two_dragon_pungs":    # the last 6-point row: 明暗杠 (5) follows the 6-point rows
            rows.append(CONCEALED_KONG_AND_MELDED_KONG)
    return tuple(rows)


MCR: tuple[FanDef, ...] = _mcr_rows()
"""The 82 rows of `mcr`: the 81 fans of the rulebook and 明暗杠, in `public`'s order."""

TIE_PREFERENCE: tuple[str, ...] = (
    "pure_triple_chow", "triple_pung", "all_fives", "middle_tiles",
    "edge_wait", "pure_double_chow",
)
"""Between readings of equal total, the fans PyMahjongGB reports first (its changelog: 一色三同顺,
三同刻, 全中 and 全带五 are preferred; 边张 over 坎张, 一般高 over the other 1-fan chow pairs; and, with
``tie_last``, the standard reading over 七对): the total is the same either way (spec 4.2 step 5).
Between two different divisions of the hand, ``tie_division_order`` and ``tie_division_favoured``
decide first, as PyMahjongGB 1.4.0's ``calculate_fan`` does: it keeps the first division of the
highest total its search meets, replaced by any later one of equal total with 一色三同顺 or 三同刻
(``tools/mcr_parity.py``: 1,000,000 of 1,000,000 hands alike with ``--seed 2026``)."""

RULESET = Ruleset(
    "mcr", 3, ("MCR",), 4, MAN + PIN + SOU + HONORS, special_forms=True, fans=MCR,
    flow=Flow(stacks=72, kong_replacement="tail", ready_mode="none", ready_window=False,
              first_turn_fans=False, seat_winds=True, dealer_on_draw="next", dealer_on_win="next"),
    settlement_profile="public_mcr", default_room="mcr",
    first_turn_and_ready=False,
    tie_preference=TIE_PREFERENCE, tie_last=("seven_pairs",), tie_division_order=True,
    tie_division_favoured=("pure_triple_chow", "triple_pung"),
)
"""国标麻将 (Chinese Official / MCR), four players, every tile."""
