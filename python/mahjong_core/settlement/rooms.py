"""Rooms as data (spec 5.2-5.5, open points OP-2..OP-9, OP-44, OP-49).

A :class:`Room` holds every figure settlement needs and names its settlement profile (a
:class:`~mahjong_core.settlement.profiles.SettlementProfile` the family of its ruleset registered).
The presets in :data:`ROOMS` are the families' own rooms (each family registers its seeds' rooms
with :func:`register_rooms`); anything else is configuration (``Room(...)`` or
``dataclasses.replace(preset, ...)``).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validate import as_int
from ..errors import MahjongError, RoomEntryError, RulesetError
from ..families.registry import MAX_MIN_FAN, get_ruleset
from .profiles import SettlementProfile, get_profile, profile_names

__all__ = ["Room", "ROOMS", "get_room", "register_rooms", "RoomEntryError", "ESCAPE_RULES"]

ESCAPE_RULES = ("forced_quit", "away", "closed_client", "disconnects")
"""The names a room's ``escape_rules`` may hold (see :class:`Room`)."""

_INT_FIELDS = (
    # (field, lowest, highest accepted)
    ("value_per_fan", 0, None),
    ("base", 0, None),
    ("entry_min", 0, None),
    ("table_fee", 0, None),
    ("service_fee_ratio", 0, 10_000),
    ("escape_multiplier", 0, None),
    ("escape_system_share", 0, 100),
    ("escape_disconnects", 1, None),
)


MAX_SECONDS = 10.0 ** 9
"""Longest duration (about 31 years) accepted for an away limit or an away time."""


def check_seconds(value: object, what: str) -> float:
    """A duration in seconds as a float: a finite int or float in 0..MAX_SECONDS (no bool, NaN, str)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise MahjongError(f"{what} must be a number of seconds, got {value!r}")
    if isinstance(value, (int, np.integer)):
        ok = 0 <= value <= MAX_SECONDS        # compared as an int: a huge int never meets float()
    else:
        ok = math.isfinite(value) and 0 <= value <= MAX_SECONDS
    if not ok:
        raise MahjongError(f"{what} must be a finite number of seconds 0-{MAX_SECONDS:.0e}, got {value!r}")
    return float(value)


@dataclass(frozen=True)
class Room:
    """One room: the unit values, fees, penalties and entry limits of a settlement profile."""

    name: str
    ruleset: str
    profile: str
    value_per_fan: int
    """Currency per fan (point): what the profile multiplies a hand's value with (the base of a
    points room, the beans per fan of a beans room)."""
    base: int = 1
    """当局基数 / 底分 (OP-2): the unit of fees and penalties."""
    coefficient: int | None = None
    """房间系数 (OP-4), for a profile whose penalty uses it; None = value_per_fan."""
    entry_min: int = 0
    entry_max: int | None = None
    table_fee: int = 0
    """对局费 per player per hand (OP-9, default 0)."""
    service_fee_ratio: int = 0
    """Service fee in percent of ``base`` per player per hand."""
    escape_multiplier: int = 0
    """Penalty = multiplier × base (unless the profile computes its own, see
    :attr:`SettlementProfile.escape_penalty <mahjong_core.settlement.profiles.SettlementProfile.escape_penalty>`)."""
    escape_system_share: int = 0
    """Percent of the penalty kept by the system (the rest goes to the others)."""
    min_fan: int | None = None
    """起和 for this room; None = the ruleset's default (``rulesets``' ``min_fan``).  When set, only
    hands played under this minimum are settled here (see :func:`~mahjong_core.settlement.settle_hand`)."""
    escape_rules: tuple[str, ...] = ("forced_quit",)
    """Which server events count as an escape: "forced_quit" (强退, all rulesets), "away"
    (away longer than ``away_limit_s``), "closed_client", "disconnects"
    (``escape_disconnects`` or more disconnects in one hand)."""
    away_limit_s: float = 90.0
    escape_disconnects: int = 3
    extra: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise MahjongError(f"a room's name must be a non-empty string, got {self.name!r}")
        # the registered ruleset's name (a Ruleset object is accepted and stored by name)
        object.__setattr__(self, "ruleset", get_ruleset(self.ruleset).name)
        family = get_ruleset(self.ruleset).family
        try:
            profile = get_profile(self.profile)
        except RulesetError:
            raise MahjongError(f"unknown settlement profile {self.profile!r} for room {self.name!r}; the "
                               f"{family} family registers {', '.join(profile_names(family)) or 'none'} "
                               f"(registered: {', '.join(profile_names())})") from None
        if profile.family != family:
            raise MahjongError(f"room {self.name!r}: settlement profile {self.profile!r} settles the {profile.family} "
                               f"family's rulesets, not {self.ruleset} (the {family} family registers "
                               f"{', '.join(profile_names(family)) or 'none'})")
        for name, lo, hi in _INT_FIELDS:
            self._set_int(name, lo, hi)
        for name, lo in (("coefficient", 0), ("entry_max", 0), ("min_fan", 0)):
            if getattr(self, name) is not None:
                self._set_int(name, lo, MAX_MIN_FAN if name == "min_fan" else None)
        if self.entry_max is not None and self.entry_max < self.entry_min:
            raise MahjongError(f"room {self.name!r}: entry_max {self.entry_max} < entry_min {self.entry_min}")
        object.__setattr__(self, "escape_rules", self._checked_escape_rules())
        object.__setattr__(self, "away_limit_s", check_seconds(self.away_limit_s, f"room {self.name!r}: away_limit_s"))
        if not isinstance(self.extra, dict):
            raise MahjongError(f"room {self.name!r}: extra must be a dict, got {type(self.extra).__name__}")

    def _set_int(self, name: str, lo: int, hi: "int | None") -> None:
        value = as_int(getattr(self, name), f"room {self.name!r}: {name}", lo, hi)
        object.__setattr__(self, name, value)

    def _checked_escape_rules(self) -> tuple[str, ...]:
        rules = self.escape_rules
        if not isinstance(rules, (tuple, list)):   # a bare string would be searched letter by letter
            raise MahjongError(f"room {self.name!r}: escape_rules must be a tuple of rule names, got {rules!r}")
        for rule in rules:
            if not isinstance(rule, str) or rule not in ESCAPE_RULES:
                raise MahjongError(f"room {self.name!r}: unknown escape rule {rule!r} in escape_rules; expected some of "
                                   f"{', '.join(ESCAPE_RULES)}")
        return tuple(rules)

    @property
    def players(self) -> int:
        """Seats at a table of this room (its ruleset's)."""
        return get_ruleset(self.ruleset).players

    @property
    def default_min_fan(self) -> int:
        """The minimum (起和) of a hand in this room: the room's own, else the ruleset's."""
        return self.min_fan if self.min_fan is not None else get_ruleset(self.ruleset).min_fan

    @property
    def room_coefficient(self) -> int:
        return self.value_per_fan if self.coefficient is None else self.coefficient

    @property
    def settlement_profile(self) -> SettlementProfile:
        """The registered profile this room names (its payment rules)."""
        return get_profile(self.profile)

    @property
    def escape_penalty(self) -> int:
        """What an escaper is charged (before capping at his balance): the profile's own
        penalty if it has one, else ``escape_multiplier`` × ``base``."""
        own = self.settlement_profile.escape_penalty
        if own is not None:
            return int(own(self))
        return self.escape_multiplier * self.base

    @property
    def service_fee(self) -> int:
        return self.base * self.service_fee_ratio // 100

    def check_entry(self, balance: int) -> None:
        """Refuse a player whose balance is outside the entry limits (with a clear message)."""
        balance = as_int(balance, "balance", 0)
        if balance < self.entry_min:
            raise RoomEntryError(f"room {self.name!r} needs at least {self.entry_min:,} to enter; the balance is {balance:,}")
        if self.entry_max is not None and balance > self.entry_max:
            raise RoomEntryError(f"room {self.name!r} admits at most {self.entry_max:,}; the balance is {balance:,}")


ROOMS: dict[str, Room] = {}
"""The preset rooms of every registered family by name (what the server's lobby offers and
:func:`get_room` finds by name), filled by the families through :func:`register_rooms` in their
registration order."""


def register_rooms(*rooms: Room) -> None:
    """Add a family's preset rooms to :data:`ROOMS`.  A name another room already holds raises
    :class:`~mahjong_core.errors.RulesetError` (nothing is added)."""
    names = [r.name for r in rooms if isinstance(r, Room)]
    for room in rooms:
        if not isinstance(room, Room):
            raise RulesetError(f"expected Room objects, got {type(room).__name__}")
        taken = ROOMS.get(room.name)
        if (taken is not None and taken != room) or names.count(room.name) > 1:
            other = taken.ruleset if taken is not None else room.ruleset
            raise RulesetError(f"room name {room.name!r} is already taken (by a room of {other})")
    for room in rooms:
        ROOMS[room.name] = room


def get_room(room: "str | Room") -> Room:
    if isinstance(room, Room):
        return room
    if isinstance(room, str) and room in ROOMS:
        return ROOMS[room]
    raise MahjongError(f"unknown room {room!r}; expected one of {', '.join(ROOMS)} or a Room")


def __getattr__(name: str) -> Any:
    if name == "PROFILES":   # the old fixed tuple: deprecated (see mahjong_core.settlement.PROFILES)
        warnings.warn("mahjong_core.settlement.rooms.PROFILES is deprecated: use "
                      "mahjong_core.settlement.profile_names()", DeprecationWarning, stacklevel=2)
        return profile_names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
