"""Per-ruleset game-flow settings (spec 2.13) as data.

Every ruleset-specific flow rule the engine applies is a field here, so the state machine (the
compiled :mod:`mahjong_core._round`, and its reference :mod:`mahjong_core.families.mahjong._ref.round`) never
branches on the ruleset name; the compiled core takes these fields as plain ints.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from typing import Any

from ..._validate import as_flag, as_int
from ...errors import MahjongError
from .constants import READY_ANY_DISCARD, READY_HEAVENLY_ONLY, READY_MODES, READY_NONE
from .rulesets import DEFAULT_RULESET, MAX_MIN_FAN, get_ruleset

__all__ = ["OPTION_NAMES", "FlowSettings", "flow_settings", "settings_and_options", "max_reserved_tail_tiles", "READY_NONE",
           "READY_HEAVENLY_ONLY", "READY_ANY_DISCARD"]



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
    dealer_on_win: str = "winner"
    """After a win: "winner" (the winner deals; a winning dealer keeps the deal, 2.10) or "next" (the
    dealer's 下家 deals whatever happened: `mcr`, where the deal passes every hand)."""

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


OPTION_NAMES = frozenset(f.name for f in fields(FlowSettings)) - {"ruleset", "players", "kinds", "stacks"}
_FLAG_OPTIONS = ("chi_from_previous_only", "ready_locks_hand", "ready_window", "first_turn_fans", "seat_winds",
                 "multiple_winners", "rob_kong", "literal_first_turn_exclusions")
_CHOICE_OPTIONS = {
    "kong_replacement": ("tail", "die"),
    "ready_mode": READY_MODES,
    "dealer_on_draw": ("stay", "next"),
    "dealer_on_win": ("winner", "next"),
    "replacement_bloom": ("any", "last_tile", "kongs_only"),
}
MAX_RESERVED_TAIL_TILES = 40
"""Upper bound of ``reserved_tail_tiles`` (OP-19); a ruleset's own bound may be lower (see
:func:`max_reserved_tail_tiles`)."""


def max_reserved_tail_tiles(players: int, n_tiles: int) -> int:
    """The largest dead wall that still leaves a playable wall after the deal: the deal takes
    ``13 * players + 1`` tiles and the initial flower replacement at most 8 more, and the round
    must start with no fewer live tiles than 0 (otherwise the exhaustive draw would never be
    reached before the wall runs out)."""
    return max(0, min(MAX_RESERVED_TAIL_TILES, n_tiles - (13 * players + 1) - 8))


_CACHE: dict[Any, FlowSettings] = {}


def flow_settings(ruleset: str = DEFAULT_RULESET, options: "dict[str, Any] | None" = None,
                  min_fan: "int | None" = None) -> FlowSettings:
    """The :class:`FlowSettings` of a ruleset, with optional overrides (``options``: field -> value).

    Every option is checked (:class:`~mahjong_core.errors.MahjongError` naming it): flags must be
    booleans (or 0/1), ``min_fan`` an integer 0-:data:`~mahjong_core.rulesets.MAX_MIN_FAN`,
    ``reserved_tail_tiles`` an integer 0-:func:`max_reserved_tail_tiles`, the other options one of
    their documented strings."""
    key = _cache_key(ruleset, options, min_fan)
    hit = _CACHE.get(key) if key is not None else None
    if hit is not None:
        return hit
    s = _flow_settings(ruleset, options, min_fan)
    if key is not None and len(_CACHE) < 1024:
        _CACHE[key] = s
    return s


def settings_and_options(ruleset: Any, options: Any = None, min_fan: Any = None) -> tuple[FlowSettings, dict[str, Any]]:
    """The checked :class:`FlowSettings` and the overrides as a round records them in its log
    header: ``options`` (plus ``min_fan`` when given) normalised (flags as ``bool``, integers
    as plain ``int``), so that the header is plain JSON and reloads to the same settings."""
    s = flow_settings(ruleset, options, min_fan)
    names = list(options) if options else []
    if min_fan is not None and "min_fan" not in names:
        names.append("min_fan")
    return s, {k: getattr(s, k) for k in names}


def _cache_key(ruleset: Any, options: Any, min_fan: Any) -> Any:
    """A hashable key that tells apart values Python counts as equal (``True == 1``, ``1.0 == 1``),
    so that a refused value never hits the cache entry of an accepted one; ``None`` when the
    arguments cannot be a key (they are then checked, and refused, by :func:`_flow_settings`)."""
    try:
        opts = () if options is None else tuple(sorted((k, type(v), v) for k, v in options.items()))
        key = (type(ruleset), ruleset, opts, type(min_fan), min_fan)
        hash(key)
        return key
    except (TypeError, AttributeError):  # unhashable or unsortable values, or options not a dict
        return None


def _flow_settings(ruleset: Any, options: Any, min_fan: Any) -> FlowSettings:
    rs = get_ruleset(ruleset, "flow_settings")
    base = FlowSettings(ruleset=rs.name, players=rs.players, kinds=tuple(rs.kinds), min_fan=rs.min_fan,
                        **asdict(rs.flow))
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise MahjongError(f"game options must be a dict of option -> value, got {type(options).__name__}")
    opts = dict(options)
    if min_fan is not None:
        opts["min_fan"] = min_fan
    unknown = [k for k in opts if k not in OPTION_NAMES]
    if unknown:
        names = sorted(repr(k) for k in unknown)
        raise MahjongError(f"unknown game option(s) {', '.join(names)}; known: {sorted(OPTION_NAMES)}")
    checked = {name: _checked_option(name, value, base) for name, value in opts.items()}
    s = replace(base, **checked) if checked else base
    if s.ready_mode == READY_NONE and s.ready_window:
        raise MahjongError("ready_window needs a ready_mode other than 'none'")
    if not rs.first_turn_and_ready and (s.first_turn_fans or s.ready_mode != READY_NONE):
        raise MahjongError(f"ruleset {rs.name!r} has no first-turn fans and no 报听 (spec 2.7, 2.11)")
    return s


def _checked_option(name: str, value: Any, base: FlowSettings) -> Any:
    if name in _FLAG_OPTIONS:
        return as_flag(value, name)
    if name == "min_fan":
        return as_int(value, "min_fan", 0, MAX_MIN_FAN)
    if name == "reserved_tail_tiles":
        return as_int(value, "reserved_tail_tiles", 0, max_reserved_tail_tiles(base.players, base.n_tiles))
    choices = _CHOICE_OPTIONS[name]
    if not isinstance(value, str) or value not in choices:
        raise MahjongError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return value
