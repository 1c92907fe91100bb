"""Fan table of ruleset `two-player` [000][004], spec table 3.1 (59 fans).

One :class:`FanDef` per row, in the order of the spec table.  Exclusion ids are the
seed ids plus the ``+[MCR]``/``+[resolved]``/``+[proposed]`` additions (all are in force);
parenthesised remarks of the exclusion column that describe behaviour are kept in ``note``.
"""

from __future__ import annotations

from ..fandef import FanDef
from ..rulesetdef import HONORS, MAN, PIN, SOU, Flow, Ruleset

__all__ = ["TWO_PLAYER", "RULESET"]

TWO_PLAYER: tuple[FanDef, ...] = (
    FanDef(
        id="heavenly_hand", zh="天胡", en="Heavenly Hand", points=48,
        excludes=("single_wait", "edge_wait", "closed_wait", "fully_concealed_hand", "concealed_hand", "self_drawn"),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="earthly_hand", zh="地胡", en="Earthly Hand", points=32,
        excludes=("fully_concealed_hand", "concealed_hand", "self_drawn"),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="humanly_hand", zh="人胡", en="Humanly Hand", points=24,
        excludes=("concealed_hand",),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="heavenly_ready", zh="天听", en="Heavenly Ready Hand", points=16,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="big_four_winds", zh="大四喜", en="Big Four Winds", points=88,
        excludes=("big_three_winds", "all_pungs", "pung_of_terminals_or_honors"),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="big_three_dragons", zh="大三元", en="Big Three Dragons", points=88,
        excludes=("dragon_pung", "two_dragon_pungs"),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]", note="D15; 幺九刻 per D14 (its dragon pungs score no 幺九刻)",
    ),
    FanDef(
        id="nine_gates", zh="九莲宝灯", en="Nine Gates", points=88,
        excludes=("full_flush", "fully_concealed_hand", "concealed_hand", "pung_of_terminals_or_honors"),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]", note="pung_of_terminals_or_honors: every instance (scope per D14/4.3)",
    ),
    FanDef(
        id="four_kongs", zh="四杠", en="Four Kongs", points=88,
        excludes=("three_kongs", "two_concealed_kongs", "two_melded_kongs", "melded_kong", "concealed_kong", "single_wait", "all_pungs"),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="seven_shifted_pairs", zh="连七对", en="Seven Shifted Pairs", points=88,
        excludes=("full_flush", "fully_concealed_hand", "single_wait", "concealed_hand", "seven_pairs"),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="little_four_winds", zh="小四喜", en="Little Four Winds", points=64,
        excludes=("big_three_winds", "pung_of_terminals_or_honors"),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]", note="pung_of_terminals_or_honors: every instance (scope per D14/4.3)",
    ),
    FanDef(
        id="little_three_dragons", zh="小三元", en="Little Three Dragons", points=64,
        excludes=("dragon_pung", "two_dragon_pungs"),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]", note="[000] prints no list; [004] prints them under the garbled label \"示意图\"",
    ),
    FanDef(
        id="all_honors", zh="字一色", en="All Honors", points=64,
        excludes=("all_pungs", "all_terminals_and_honors", "outside_hand", "pung_of_terminals_or_honors"),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="four_concealed_pungs", zh="四暗刻", en="Four Concealed Pungs", points=64,
        excludes=("concealed_hand", "all_pungs", "three_concealed_pungs", "two_concealed_pungs", "fully_concealed_hand"),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="pure_terminal_chows", zh="一色双龙会", en="Pure Terminal Chows", points=64,
        excludes=("all_chows", "seven_pairs", "full_flush", "pure_double_chow", "two_terminal_chows"),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="quadruple_chow", zh="一色四同顺", en="Quadruple Chow", points=48,
        excludes=("pure_shifted_pungs", "pure_double_chow", "tile_hog", "pure_triple_chow", "seven_pairs"),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="four_pure_shifted_pungs", zh="一色四节高", en="Four Pure Shifted Pungs", points=48,
        excludes=("pure_triple_chow", "pure_shifted_pungs", "all_pungs"),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="four_pure_shifted_chows", zh="一色四步高", en="Four Pure Shifted Chows", points=32,
        excludes=("pure_shifted_chows", "short_straight", "two_terminal_chows"),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="three_kongs", zh="三杠", en="Three Kongs", points=32,
        excludes=("two_melded_kongs", "two_concealed_kongs", "melded_kong", "concealed_kong"),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="all_terminals_and_honors", zh="混幺九", en="All Terminals and Honors", points=32,
        excludes=("all_pungs", "pung_of_terminals_or_honors", "outside_hand"),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="seven_pairs", zh="七对", en="Seven Pairs", points=24,
        excludes=("concealed_hand", "fully_concealed_hand", "single_wait"),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="full_flush", zh="清一色", en="Full Flush", points=24,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="pure_triple_chow", zh="一色三同顺", en="Pure Triple Chow", points=24,
        excludes=("pure_shifted_pungs", "pure_double_chow"),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="pure_shifted_pungs", zh="一色三节高", en="Pure Shifted Pungs", points=24,
        excludes=("pure_triple_chow",),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="pure_straight", zh="清龙", en="Pure Straight", points=16,
        excludes=("short_straight", "two_terminal_chows"),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="pure_shifted_chows", zh="一色三步高", en="Pure Shifted Chows", points=16,
        excludes=(),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="three_concealed_pungs", zh="三暗刻", en="Three Concealed Pungs", points=16,
        excludes=("two_concealed_pungs",),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="upper_four", zh="大于5", en="Upper Four", points=12,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="lower_four", zh="小于5", en="Lower Four", points=12,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="big_three_winds", zh="三风刻", en="Big Three Winds", points=12,
        excludes=(),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]", note="幺九刻 of its pungs per D14",
    ),
    FanDef(
        id="last_tile_draw", zh="妙手回春", en="Last Tile Draw", points=8,
        excludes=("self_drawn",),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="last_tile_claim", zh="海底捞月", en="Last Tile Claim", points=8,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="out_with_replacement_tile", zh="杠上开花", en="Out with Replacement Tile", points=8,
        excludes=("self_drawn",),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="robbing_the_kong", zh="抢杠胡", en="Robbing the Kong", points=8,
        excludes=("last_tile",),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="all_pungs", zh="碰碰和", en="All Pungs", points=6,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="half_flush", zh="混一色", en="Half Flush", points=6,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="melded_hand", zh="全求人", en="Melded Hand", points=6,
        excludes=("single_wait",),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="two_concealed_kongs", zh="双暗杠", en="Two Concealed Kongs", points=6,
        excludes=("two_concealed_pungs", "concealed_kong"),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="two_dragon_pungs", zh="双箭刻", en="Two Dragon Pungs", points=6,
        excludes=("dragon_pung",),
        per=None, combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="outside_hand", zh="全带幺", en="Outside Hand", points=4,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="fully_concealed_hand", zh="不求人", en="Fully Concealed Hand", points=4,
        excludes=("concealed_hand", "self_drawn"),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="two_melded_kongs", zh="双明杠", en="Two Melded Kongs", points=4,
        excludes=("melded_kong",),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="last_tile", zh="胡绝张", en="Last Tile", points=4,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]", note="also written 和绝张",
    ),
    FanDef(
        id="dragon_pung", zh="箭刻", en="Dragon Pung", points=2,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]", note="that pung scores no 幺九刻, D14",
    ),
    FanDef(
        id="concealed_hand", zh="门前清", en="Concealed Hand", points=2,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="all_chows", zh="平和", en="All Chows", points=2,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]", note="also written 平胡",
    ),
    FanDef(
        id="tile_hog", zh="四归一", en="Tile Hog", points=2,
        excludes=(),
        per="per kind", combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="two_concealed_pungs", zh="双暗刻", en="Two Concealed Pungs", points=2,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="concealed_kong", zh="暗杠", en="Concealed Kong", points=2,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="all_simples", zh="断幺", en="All Simples", points=2,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="pure_double_chow", zh="一般高", en="Pure Double Chow", points=1,
        excludes=(),
        per="repeatable", combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="short_straight", zh="连6", en="Short Straight", points=1,
        excludes=(),
        per="repeatable", combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="two_terminal_chows", zh="老少副", en="Two Terminal Chows", points=1,
        excludes=(),
        per="repeatable", combination=True, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="pung_of_terminals_or_honors", zh="幺九刻", en="Pung of Terminals or Honors", points=1,
        excludes=(),
        per="per pung", combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="melded_kong", zh="明杠", en="Melded Kong", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="edge_wait", zh="边张", en="Edge Wait", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="closed_wait", zh="坎张", en="Closed Wait", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="single_wait", zh="单钓将", en="Single Wait", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
    FanDef(
        id="flower_tiles", zh="花牌", en="Flower Tiles", points=1,
        excludes=(),
        per="per flower", combination=False, flower_derived=True,
        origin="[000][004]",
    ),
    FanDef(
        id="self_drawn", zh="自摸", en="Self-Drawn", points=1,
        excludes=(),
        per=None, combination=False, flower_derived=False,
        origin="[000][004]",
    ),
)

RULESET = Ruleset(
    "two-player", 0, ("000", "004"), 2, MAN + HONORS, special_forms=False, fans=TWO_PLAYER,
    flow=Flow(stacks=36, kong_replacement="tail", ready_mode="heavenly_only", ready_window=True,
              first_turn_fans=True, seat_winds=False, dealer_on_draw="stay"),
    settlement_profile="coins_000", default_room="beginner",
    nine_gates_clears_terminal_pungs=True,
)
"""Two players, characters and honors (seeds 000 and 004)."""
