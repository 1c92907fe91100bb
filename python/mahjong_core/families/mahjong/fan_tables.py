"""Fan (番) tables of the mahjong rulesets, as data (spec sections 3.1-3.3, and `mcr`).

``FAN_TABLES[ruleset]`` is the tuple of :class:`FanDef` rows of that ruleset in
the spec's table order (the order is used as the tie-break of the exclusion
pass, spec 4.3).  Row counts: ``two-player`` 59, ``two-player-bamboo`` 62,
``public`` 82 (81 MCR fans + 无财神; 花牌 included in every count), ``mcr`` 82 (81 MCR fans + 明暗杠).
"""

from __future__ import annotations

from .fandef import FanDef
from .rulesets import RULESETS, Ruleset, get_ruleset

__all__ = ["FanDef", "FAN_TABLES", "fan_table", "fan_by_id"]

FAN_TABLES: dict[str, tuple[FanDef, ...]] = {name: r.fans for name, r in RULESETS.items()}
"""Ruleset name -> its fan rows (each ruleset's module in :mod:`.rulesets` holds them)."""

_BY_ID: dict[str, dict[str, FanDef]] = {
    name: {f.id: f for f in table} for name, table in FAN_TABLES.items()
}


def fan_table(ruleset: "str | Ruleset") -> tuple[FanDef, ...]:
    """Return the fan rows of ``ruleset`` in spec table order.

    >>> len(fan_table("two-player"))
    59
    """
    return get_ruleset(ruleset, "mj.fan_table").fans


def fan_by_id(ruleset: "str | Ruleset", fan_id: str) -> FanDef:
    """Return the row ``fan_id`` of ``ruleset``; :class:`KeyError` if the ruleset has no such fan.

    >>> fan_by_id("public", "big_four_winds").points
    88
    """
    name = get_ruleset(ruleset, "fan_by_id").name
    try:
        return _BY_ID[name][fan_id]
    except KeyError:
        raise KeyError(f"ruleset {ruleset!r} has no fan {fan_id!r}") from None
