"""Per-ruleset game-flow settings (spec 2.13) as data.

Every ruleset-specific flow rule the engine applies is a field here, so the state machine (the
compiled :mod:`mahjong_core._round`, and its reference :mod:`mahjong_core._ref.round_py`) never
branches on the ruleset name; the compiled core takes these fields as plain ints.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from typing import Any

from ..errors import MahjongError
from ..rulesets import get_ruleset

__all__ = ["FlowSettings", "flow_settings", "READY_NONE", "READY_HEAVENLY_ONLY", "READY_ANY_DISCARD"]

READY_NONE = "none"
READY_HEAVENLY_ONLY = "heavenly_only"
READY_ANY_DISCARD = "any_discard"


@dataclass(frozen=True)
class FlowSettings:
    """Game-flow parameters of one ruleset (spec 2.13, section 6 open points)."""

    ruleset: str
    players: int
    kinds: tuple[int, ...]
    """Tile kinds 0-33 in play (four copies each); the eight flowers 34-41 are always in."""
    stacks: int
    """Stacks of two tiles in the whole wall (1.3): 36 or 72."""
    min_fan: int
    """起和 on the non-flower fan total (2.12, OP-1)."""
    chi_from_previous_only: bool = True
    """吃 only from the claimer's 上家 (2.4); always true by the spec, kept as data."""
    kong_replacement: str = "tail"
    """"tail" (plain tail draw) or "die" (`public`: die tail draw, 1.4 / OP-17)."""
    ready_mode: str = READY_NONE
    """报听 (2.7): "none", "heavenly_only" (天听 window only, OP-20) or "any_discard"."""
    ready_locks_hand: bool = True
    """After 报听 only draw-discard, win or an added kong with the drawn tile (2.7, OP-32)."""
    ready_window: bool = False
    """The non-dealer's 天听 window after the deal (2.2 step 6, OP-21)."""
    first_turn_fans: bool = False
    """天胡 地胡 人胡 天听 tracked and passed to the evaluator (2.11)."""
    seat_winds: bool = False
    """Seat winds from the dealer (dealer East) and a prevalent wind passed to the evaluator (OP-13)."""
    dealer_on_draw: str = "stay"
    """After an exhaustive draw: "stay" (连庄) or "next" (the dealer's 下家 deals) (2.10)."""
    reserved_tail_tiles: int = 0
    """The hand ends when this many wall tiles remain (OP-19); 0 = the whole wall is played."""
    multiple_winners: bool = False
    """Several 和 claims on one discard all win (config of OP-14); default 截和: first in turn order."""
    rob_kong: bool = True
    """Robbing an added kong allowed (2.8, OP-27)."""
    replacement_bloom: str = "any"
    """Evaluator option of OP-28 (which replacement wins count 杠上开花 in `two-player-bamboo`)."""
    literal_first_turn_exclusions: bool = False
    """Evaluator option of OP-23."""

    @property
    def n_tiles(self) -> int:
        return 2 * self.stacks

    def tile_set(self) -> list[int]:
        """The sorted multiset of the wall's tiles (a new list)."""
        return list(_tile_set(self.kinds))

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["kinds"] = list(self.kinds)
        return d


@lru_cache(maxsize=None)
def _tile_set(kinds: tuple[int, ...]) -> tuple[int, ...]:
    return tuple([k for k in kinds for _ in range(4)] + list(range(34, 42)))


_BASE: dict[str, dict[str, Any]] = {
    "two-player": dict(
        stacks=36, kong_replacement="tail", ready_mode=READY_HEAVENLY_ONLY, ready_window=True,
        first_turn_fans=True, seat_winds=False, dealer_on_draw="stay",
    ),
    "two-player-bamboo": dict(
        stacks=36, kong_replacement="tail", ready_mode=READY_ANY_DISCARD, ready_window=True,
        first_turn_fans=True, seat_winds=False, dealer_on_draw="stay",
    ),
    "public": dict(
        stacks=72, kong_replacement="die", ready_mode=READY_NONE, ready_window=False,
        first_turn_fans=False, seat_winds=True, dealer_on_draw="next",
    ),
}

_OPTION_NAMES = frozenset(f.name for f in fields(FlowSettings)) - {"ruleset", "players", "kinds", "stacks"}


_CACHE: dict[Any, FlowSettings] = {}


def flow_settings(ruleset: str = "two-player", options: "dict[str, Any] | None" = None,
                  min_fan: "int | None" = None) -> FlowSettings:
    """The :class:`FlowSettings` of a ruleset, with optional overrides (``options``: field -> value)."""
    try:
        key = (ruleset, tuple(sorted(options.items())) if options else (), min_fan)
        hit = _CACHE.get(key)
    except TypeError:  # unhashable option values: no caching (they are refused below anyway)
        key, hit = None, None
    if hit is not None:
        return hit
    s = _flow_settings(ruleset, options, min_fan)
    if key is not None and len(_CACHE) < 1024:
        _CACHE[key] = s
    return s


def _flow_settings(ruleset: Any, options: "dict[str, Any] | None", min_fan: "int | None") -> FlowSettings:
    rs = get_ruleset(ruleset)
    base = FlowSettings(ruleset=rs.name, players=rs.players, kinds=tuple(rs.kinds), min_fan=rs.min_fan,
                        **_BASE[rs.name])
    opts = dict(options or {})
    if min_fan is not None:
        opts["min_fan"] = min_fan
    unknown = set(opts) - _OPTION_NAMES
    if unknown:
        raise MahjongError(f"unknown game option(s) {sorted(unknown)}; known: {sorted(_OPTION_NAMES)}")
    s = replace(base, **opts) if opts else base
    if not isinstance(s.min_fan, int) or isinstance(s.min_fan, bool) or s.min_fan < 0:
        raise MahjongError(f"min_fan must be a non-negative integer, got {s.min_fan!r}")
    if s.kong_replacement not in ("tail", "die"):
        raise MahjongError(f"kong_replacement must be 'tail' or 'die', got {s.kong_replacement!r}")
    if s.ready_mode not in (READY_NONE, READY_HEAVENLY_ONLY, READY_ANY_DISCARD):
        raise MahjongError(f"unknown ready_mode {s.ready_mode!r}")
    if s.dealer_on_draw not in ("stay", "next"):
        raise MahjongError(f"dealer_on_draw must be 'stay' or 'next', got {s.dealer_on_draw!r}")
    if not 0 <= s.reserved_tail_tiles <= 40:
        raise MahjongError(f"reserved_tail_tiles must be 0-40, got {s.reserved_tail_tiles!r}")
    if s.ready_mode == READY_NONE and s.ready_window:
        raise MahjongError("ready_window needs a ready_mode other than 'none'")
    if s.ruleset == "public" and (s.first_turn_fans or s.ready_mode != READY_NONE):
        raise MahjongError("ruleset 'public' has no first-turn fans and no 报听 (spec 2.7, 2.11)")
    return s
