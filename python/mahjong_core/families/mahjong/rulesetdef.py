"""The :class:`Ruleset` record: everything one mahjong ruleset means, as fields.

One file per ruleset in :mod:`.rulesets` builds one record: its tiles and forms, its fan rows,
its flow settings (:class:`Flow`), its settlement profile and its rule quirks.  Code reads these
fields and never compares ruleset names; the compiled core sees :attr:`Ruleset.code` and the
tables generated from the records.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..registry import MAX_MIN_FAN
from .constants import FAMILY_NAME, READY_NONE
from .fandef import FanDef

__all__ = ["Ruleset", "Flow", "MAX_MIN_FAN", "MAN", "PIN", "SOU", "HONORS"]


MAN = tuple(range(0, 9))
PIN = tuple(range(9, 18))
SOU = tuple(range(18, 27))
HONORS = tuple(range(27, 34))


@dataclass(frozen=True)
class Flow:
    """A ruleset's own game-flow defaults (spec 2.13); the other :class:`FlowSettings` fields
    have the same default in every ruleset."""

    stacks: int
    """Stacks of two tiles in the whole wall (1.3): 36 or 72."""
    kong_replacement: str = "tail"
    """"tail" (plain tail draw) or "die" (die tail draw, 1.4 / OP-17)."""
    ready_mode: str = READY_NONE
    """报听 (2.7): "none", "heavenly_only" (天听 window only, OP-20) or "any_discard"."""
    ready_window: bool = False
    """The non-dealer's 天听 window after the deal (2.2 step 6, OP-21)."""
    first_turn_fans: bool = False
    """天胡 地胡 人胡 天听 tracked and passed to the evaluator (2.11)."""
    seat_winds: bool = False
    """Seat winds from the dealer (dealer East) and a prevalent wind passed to the evaluator (OP-13)."""
    dealer_on_draw: str = "stay"
    """After an exhaustive draw: "stay" (连庄) or "next" (the dealer's 下家 deals) (2.10)."""
    dealer_on_win: str = "winner"
    """After a win: "winner" (the winner deals, 2.10) or "next" (the dealer's 下家 deals: no 连庄)."""


@dataclass(frozen=True)
class Ruleset:
    """One ruleset: its id, tiles, forms, fans, flow, settlement profile and quirks."""

    name: str
    """Ruleset id as used in the spec and the API: ``"two-player"`` etc."""
    code: int
    """Small integer the compiled core uses (index into its ruleset tables)."""
    seeds: tuple[str, ...]
    """Seed documents the ruleset comes from."""
    players: int
    kinds: tuple[int, ...]
    """Tile kinds (0-33) in play, four copies each."""
    special_forms: bool
    """True if thirteen orphans, 全不靠/七星不靠 and the knitted-straight form are winning forms."""
    fans: tuple[FanDef, ...] = field(default=(), repr=False, compare=False)
    """The fan rows in spec table order (the order is the tie-break of the exclusion pass, 4.3);
    left out of ``==``, hashing and the repr: a ruleset is told apart by its other fields."""
    flow: Flow = Flow(stacks=36)
    """The ruleset's game-flow defaults."""
    settlement_profile: str = "coins_000"
    """The payment rules a unit room of this ruleset uses (simulation points, the result's
    ``deltas``; spec 5.2-5.4): a profile of :mod:`..settlement` (the family's)."""
    default_room: str = ""
    """The seeds' room (of :mod:`..settlement`) the command line settles a match of this ruleset in."""
    min_fan: int = 8
    """Default minimum (起和) on the non-flower fan total (spec 2.12, OP-1: no seed gives a value)."""
    family: str = FAMILY_NAME
    """The game family (:mod:`mahjong_core.families.registry`)."""
    # --- rule quirks: behaviour one ruleset has and the others do not, read by the reference
    # evaluator, the scoring checks and the table generator instead of the ruleset's name
    first_turn_and_ready: bool = True
    """The ruleset knows 天胡 地胡 人胡 天听 and 报听 (2.7, 2.11); False: such flags are refused."""
    nine_gates_clears_terminal_pungs: bool = False
    """九莲宝灯 clears every 幺九刻 (D14, two-player); otherwise it clears one instance."""
    terminal_honor_hands_in_seven_pairs: bool = True
    """字一色, 清幺九, 混幺九 also count in the seven-pairs form (D12, OP-35)."""
    seven_pairs_all_honors: bool = False
    """七小对(全字牌) replaces 七对 when every pair is an honor (OP-29, two-player-bamboo)."""
    flower_replacement_bloom: bool = False
    """A flower replacement can count 杠上开花 (option ``replacement_bloom``, OP-28)."""
    flowers_scored_by_name: bool = False
    """Flower fans depend on which flowers (梅兰竹菊 / 春夏秋冬), so a bare count of 4-7 is ambiguous."""
    tie_preference: tuple[str, ...] = ()
    """Between readings of equal total (spec 4.2 step 5) the fan lists are compared sorted by points
    descending, then these fan ids in this order, then the other ids ascending: the fans a ruleset's
    reference scorer reports first when two readings are worth the same (the total never changes)."""
    tie_last: tuple[str, ...] = ()
    """Fan ids compared after every other fan on equal totals, whatever their points: a reading
    without them is preferred to one of the same total with them (`mcr`: 七对, whose equal-total
    standard reading PyMahjongGB reports)."""
    tie_division_order: bool = False
    """Between two standard readings of equal total, keep the one whose concealed groups come first
    in PyMahjongGB's division search (tiles in its order 万 条 饼 then honours, lowest tile first, a
    pung before a chow on the same tile), and compare fan lists only between placements of one
    reading: that search keeps the first reading of the highest total (`mcr`, for parity)."""
    tie_division_favoured: tuple[str, ...] = ()
    """With ``tie_division_order``: a standard reading with one of these fans beats one of equal
    total without, and between two with them the later division is kept (PyMahjongGB replaces its
    choice by every later reading of equal total that has 一色三同顺 or 三同刻)."""

    @property
    def kind_mask(self) -> int:
        """Bit ``i`` set when kind ``i`` is in play."""
        mask = 0
        for k in self.kinds:
            mask |= 1 << k
        return mask
