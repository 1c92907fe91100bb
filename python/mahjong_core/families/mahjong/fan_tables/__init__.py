"""Fan (番) tables of the three rulesets, as data (spec sections 3.1-3.3).

``FAN_TABLES[ruleset]`` is the tuple of :class:`FanDef` rows of that ruleset in
the spec's table order (the order is used as the tie-break of the exclusion
pass, spec 4.3).  Row counts: ``two-player`` 59, ``two-player-bamboo`` 62,
``public`` 82 (81 MCR fans + 无财神; 花牌 included in every count).
"""

from __future__ import annotations

from ....errors import RulesetError
from .fandef import FanDef
from .public import PUBLIC
from .two_player import TWO_PLAYER
from .two_player_bamboo import TWO_PLAYER_BAMBOO

__all__ = ["FanDef", "FAN_TABLES", "fan_table", "fan_by_id"]

FAN_TABLES: dict[str, tuple[FanDef, ...]] = {
    "two-player": TWO_PLAYER,
    "two-player-bamboo": TWO_PLAYER_BAMBOO,
    "public": PUBLIC,
}

_BY_ID: dict[str, dict[str, FanDef]] = {
    name: {f.id: f for f in table} for name, table in FAN_TABLES.items()
}


def fan_table(ruleset: str) -> tuple[FanDef, ...]:
    """Return the fan rows of ``ruleset`` in spec table order.

    >>> len(fan_table("two-player"))
    59
    """
    try:
        return FAN_TABLES[ruleset]
    except (KeyError, TypeError):
        raise RulesetError(
            f"unknown ruleset {ruleset!r}; expected one of {', '.join(FAN_TABLES)}"
        ) from None


def fan_by_id(ruleset: str, fan_id: str) -> FanDef:
    """Return the row ``fan_id`` of ``ruleset``; :class:`KeyError` if the ruleset has no such fan.

    >>> fan_by_id("public", "big_four_winds").points
    88
    """
    fan_table(ruleset)  # validates the ruleset name
    try:
        return _BY_ID[ruleset][fan_id]
    except KeyError:
        raise KeyError(f"ruleset {ruleset!r} has no fan {fan_id!r}") from None
