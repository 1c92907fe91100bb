"""Fan table of ruleset `two-player-bamboo` [001], spec table 3.2 (62 fans).

One :class:`FanDef` per row, in the order of the spec table.  Exclusion ids are the
seed ids plus the ``+[MCR]``/``+[resolved]``/``+[proposed]`` additions (all are in force);
parenthesised remarks of the exclusion column that describe behaviour are kept in ``note``.
"""

from __future__ import annotations

from ..fandef import FanDef
from ..rulesetdef import HONORS, MAN, PIN, SOU, Flow, Ruleset

__all__ = ["TWO_PLAYER_BAMBOO", "RULESET"]

TWO_PLAYER_BAMBOO: tuple[FanDef, ...] = (
    FanDef(
        id="eight_immortals", zh="八仙过海", en="Eight Immortals Crossing the Sea", points=88,
        excludes=("four_plants", "four_seasons"),
        per=None, combination=False, flower_derived=True,
        origin="[001]", note="flower_tiles still counts per flower, OP-31",
    ),
    FanDef(
        id="big_three_dragons", zh="大三元", en="Big Three Dragons", points=88,
        excludes=("little_three_dragons", "two_dragon_pungs", "dragon_pung"),
        per=None, combination=True, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="nine_gates", zh="九莲宝灯", en="Nine Gates", points=88,
        excludes=("full_flush", "fully_concealed_hand", "concealed_hand", "no_honors", "pung_of_terminals_or_honors"),
        per=None, combination=False, flower_derived=False,
        origin="[001]", note="pung_of_terminals_or_honors: exactly one instance (D14): \"根据牌型得出的幺九刻数减1\"",
    ),
    FanDef(
        id="all_green", zh="绿一色", en="All Green", points=88,
        excludes=("half_flush",),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="four_kongs", zh="四杠", en="Four Kongs", points=88,
        excludes=("two_concealed_kongs", "two_melded_kongs", "concealed_kong", "melded_kong", "three_kongs", "all_pungs", "single_wait"),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="seven_pairs_all_honors", zh="七小对 (全字牌)", en="Seven Pairs of Honors", points=64,
        excludes=("seven_pairs", "all_honors", "concealed_hand", "fully_concealed_hand", "single_wait"),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="little_three_dragons", zh="小三元", en="Little Three Dragons", points=64,
        excludes=("dragon_pung", "two_dragon_pungs"),
        per=None, combination=True, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="all_honors", zh="字一色", en="All Honors", points=64,
        excludes=("all_pungs", "outside_hand", "pung_of_terminals_or_honors"),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="pure_terminal_chows", zh="一色双龙会", en="Pure Terminal Chows", points=64,
        excludes=("all_chows", "seven_pairs", "full_flush", "pure_double_chow", "two_terminal_chows", "no_honors", "pair_258"),
        per=None, combination=True, flower_derived=False,
        origin="[001]", note="non-repetition: the pair 55 is always 二五八将",
    ),
    FanDef(
        id="four_concealed_pungs", zh="四暗刻", en="Four Concealed Pungs", points=64,
        excludes=("concealed_hand", "all_pungs", "fully_concealed_hand", "three_concealed_pungs", "two_concealed_pungs"),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="heavenly_hand", zh="天胡", en="Heavenly Hand", points=48,
        excludes=("single_wait", "edge_wait", "closed_wait", "fully_concealed_hand", "concealed_hand", "self_drawn"),
        per=None, combination=False, flower_derived=False,
        origin="[001]", note="[001] prints 单钓将、边张、砍张",
    ),
    FanDef(
        id="four_pure_shifted_pungs", zh="一色四节高", en="Four Pure Shifted Pungs", points=48,
        excludes=("pure_triple_chow", "all_pungs", "pure_shifted_pungs"),
        per=None, combination=True, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="quadruple_chow", zh="一色四同顺", en="Quadruple Chow", points=48,
        excludes=("pure_shifted_pungs", "pure_triple_chow", "pure_double_chow", "tile_hog", "seven_pairs"),
        per=None, combination=True, flower_derived=False,
        origin="[001]", note="[001] also lists 喜相逢, which does not exist here and cannot occur with one suit; dropped [resolved G001-15]",
    ),
    FanDef(
        id="earthly_hand", zh="地胡", en="Earthly Hand", points=32,
        excludes=("fully_concealed_hand", "concealed_hand", "self_drawn"),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="four_pure_shifted_chows", zh="一色四步高", en="Four Pure Shifted Chows", points=32,
        excludes=("pure_triple_chow", "all_pungs", "pure_shifted_pungs", "pure_shifted_chows", "short_straight", "two_terminal_chows"),
        per=None, combination=True, flower_derived=False,
        origin="[001]", note="as printed; they can never co-occur with four chows",
    ),
    FanDef(
        id="three_kongs", zh="三杠", en="Three Kongs", points=32,
        excludes=("two_melded_kongs", "two_concealed_kongs", "melded_kong", "concealed_kong"),
        per=None, combination=False, flower_derived=False,
        origin="[resolved]",
    ),
    FanDef(
        id="humanly_hand", zh="人胡", en="Humanly Hand", points=24,
        excludes=("concealed_hand",),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="seven_pairs", zh="七小对", en="Seven Pairs", points=24,
        excludes=("concealed_hand", "fully_concealed_hand", "single_wait"),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="pure_shifted_pungs", zh="一色三节高", en="Pure Shifted Pungs", points=24,
        excludes=("pure_triple_chow",),
        per=None, combination=True, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="pure_triple_chow", zh="一色三同顺", en="Pure Triple Chow", points=24,
        excludes=("pure_shifted_pungs", "pure_double_chow"),
        per=None, combination=True, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="full_flush", zh="清一色", en="Full Flush", points=24,
        excludes=("no_honors",),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="heavenly_ready", zh="天听", en="Heavenly Ready Hand", points=16,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="pure_straight", zh="青龙", en="Pure Straight", points=16,
        excludes=("short_straight", "two_terminal_chows"),
        per=None, combination=True, flower_derived=False,
        origin="[001]", note="also written 清龙; non-separation",
    ),
    FanDef(
        id="pure_shifted_chows", zh="一色三步高", en="Pure Shifted Chows", points=16,
        excludes=(),
        per=None, combination=True, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="three_concealed_pungs", zh="三暗刻", en="Three Concealed Pungs", points=16,
        excludes=("two_concealed_pungs",),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="big_three_winds", zh="三风刻", en="Big Three Winds", points=12,
        excludes=("pung_of_terminals_or_honors",),
        per=None, combination=True, flower_derived=False,
        origin="[001]", note="pung_of_terminals_or_honors: its three pungs only, D14",
    ),
    FanDef(
        id="last_tile_draw", zh="海底捞月 (自摸)", en="Last Tile Draw", points=8,
        excludes=("self_drawn",),
        per=None, combination=False, flower_derived=False,
        origin="[001] value [proposed]",
    ),
    FanDef(
        id="last_tile_claim", zh="海底捞月 (点和)", en="Last Tile Claim", points=8,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001] value [proposed]",
    ),
    FanDef(
        id="out_with_replacement_tile", zh="杠上开花", en="Out with Replacement Tile", points=8,
        excludes=("self_drawn",),
        per=None, combination=False, flower_derived=False,
        origin="[001] value [proposed]; flower case OP-28",
    ),
    FanDef(
        id="robbing_the_kong", zh="抢杠和", en="Robbing the Kong", points=8,
        excludes=("last_tile",),
        per=None, combination=False, flower_derived=False,
        origin="[proposed] (OP-27)",
    ),
    FanDef(
        id="half_flush", zh="混一色", en="Half Flush", points=6,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="melded_hand", zh="全求人", en="Melded Hand", points=6,
        excludes=("single_wait",),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="all_pungs", zh="碰碰和", en="All Pungs", points=6,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]", note="also written 碰碰胡",
    ),
    FanDef(
        id="two_concealed_kongs", zh="双暗杠", en="Two Concealed Kongs", points=6,
        excludes=("two_concealed_pungs", "concealed_kong"),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="two_dragon_pungs", zh="双箭刻", en="Two Dragon Pungs", points=6,
        excludes=("dragon_pung",),
        per=None, combination=True, flower_derived=False,
        origin="[001]", note="as [000][004] and MCR; [001] prints no list",
    ),
    FanDef(
        id="outside_hand", zh="全带幺", en="Outside Hand", points=4,
        excludes=("all_simples", "no_honors"),
        per=None, combination=False, flower_derived=False,
        origin="[001]", note="the 无字 exclusion is [001]-specific, not MCR",
    ),
    FanDef(
        id="last_tile", zh="和绝张", en="Last Tile", points=4,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="fully_concealed_hand", zh="不求人", en="Fully Concealed Hand", points=4,
        excludes=("self_drawn", "concealed_hand"),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="two_melded_kongs", zh="双明杠", en="Two Melded Kongs", points=4,
        excludes=("melded_kong",),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="riichi", zh="立直", en="Riichi", points=2,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]", note="门前清 and 不求人 still count [resolved, OP-30]",
    ),
    FanDef(
        id="all_simples", zh="断幺九", en="All Simples", points=2,
        excludes=("no_honors",),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="all_chows", zh="平胡", en="All Chows", points=2,
        excludes=("no_honors",),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="tile_hog", zh="四归一", en="Tile Hog", points=2,
        excludes=(),
        per="per kind", combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="concealed_hand", zh="门前清", en="Concealed Hand", points=2,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="two_concealed_pungs", zh="双暗刻", en="Two Concealed Pungs", points=2,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="dragon_pung", zh="箭刻", en="Dragon Pung", points=2,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]", note="no 幺九刻 for that pung, D14",
    ),
    FanDef(
        id="concealed_kong", zh="暗杠", en="Concealed Kong", points=2,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="pair_258", zh="二五八将", en="Pair of 2, 5 or 8", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="pair_terminal", zh="幺九头", en="Terminal Pair", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="four_plants", zh="梅兰竹菊", en="Four Plants", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=True,
        origin="[001]",
    ),
    FanDef(
        id="four_seasons", zh="春夏秋冬", en="Four Seasons", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=True,
        origin="[001]",
    ),
    FanDef(
        id="pure_double_chow", zh="一般高", en="Pure Double Chow", points=1,
        excludes=(),
        per="repeatable", combination=True, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="no_honors", zh="无字", en="No Honors", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="short_straight", zh="六连张", en="Short Straight", points=1,
        excludes=(),
        per="repeatable", combination=True, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="edge_wait", zh="镶边", en="Edge Wait", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="closed_wait", zh="嵌单", en="Closed Wait", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="single_wait", zh="单钓", en="Single Wait", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="two_terminal_chows", zh="老少配", en="Two Terminal Chows", points=1,
        excludes=(),
        per="repeatable", combination=True, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="self_drawn", zh="自摸", en="Self-Drawn", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="melded_kong", zh="明杠", en="Melded Kong", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[001]",
    ),
    FanDef(
        id="pung_of_terminals_or_honors", zh="幺九刻", en="Pung of Terminals or Honors", points=1,
        excludes=(),
        per="per pung", combination=False, flower_derived=False,
        origin="[resolved]",
    ),
    FanDef(
        id="flower_tiles", zh="花牌", en="Flower Tiles", points=1,
        excludes=(),
        per="per flower", combination=False, flower_derived=True,
        origin="[001]",
    ),
)

RULESET = Ruleset(
    "two-player-bamboo", 1, ("001",), 2, SOU + HONORS, special_forms=False, fans=TWO_PLAYER_BAMBOO,
    flow=Flow(stacks=36, kong_replacement="tail", ready_mode="any_discard", ready_window=True,
              first_turn_fans=True, seat_winds=False, dealer_on_draw="stay"),
    settlement_profile="coins_000", default_room="bamboo",
    terminal_honor_hands_in_seven_pairs=False, seven_pairs_all_honors=True,
    flower_replacement_bloom=True, flowers_scored_by_name=True,
)
"""Two players, bamboos and honors (seed 001)."""
