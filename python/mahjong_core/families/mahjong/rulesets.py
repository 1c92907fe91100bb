"""The three mahjong rulesets of ``shared/spec/rules.md`` as data.

A :class:`Ruleset` says which tile kinds are in play and which winning forms
exist.  The compiled core only sees :attr:`Ruleset.code`; everything else is
read from here, so adding a setting never means an ``if ruleset == ...`` chain
in the hot code.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import RulesetError

__all__ = ["Ruleset", "RULESETS", "get_ruleset", "RULESET_NAMES", "MAX_MIN_FAN"]

MAX_MIN_FAN = 1000
"""Upper bound accepted for a minimum (起和) anywhere in the API.  No hand of any ruleset
reaches it (the largest totals are a few hundred), so a larger value can only be a mistake,
and bounding it keeps every minimum inside the compiled core's ``int``."""

_MAN = tuple(range(0, 9))
_PIN = tuple(range(9, 18))
_SOU = tuple(range(18, 27))
_HONORS = tuple(range(27, 34))


@dataclass(frozen=True)
class Ruleset:
    """One ruleset: its id, the tiles it plays with and the hand forms it knows."""

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
    min_fan: int = 8
    """Default minimum (起和) on the non-flower fan total (spec 2.12, OP-1: no seed gives a value)."""

    @property
    def kind_mask(self) -> int:
        """Bit ``i`` set when kind ``i`` is in play."""
        mask = 0
        for k in self.kinds:
            mask |= 1 << k
        return mask


RULESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        Ruleset("two-player", 0, ("000", "004"), 2, _MAN + _HONORS, False),
        Ruleset("two-player-bamboo", 1, ("001",), 2, _SOU + _HONORS, False),
        Ruleset("public", 2, ("003",), 4, _MAN + _PIN + _SOU + _HONORS, True),
    )
}
RULESET_NAMES: tuple[str, ...] = tuple(RULESETS)


def get_ruleset(ruleset: "str | Ruleset") -> Ruleset:
    """Return the registered :class:`Ruleset` for a name (or for one of the :data:`RULESETS`).

    >>> get_ruleset("public").players
    4
    """
    if isinstance(ruleset, Ruleset):
        # only the registered rulesets have compiled tables: a home-made Ruleset object (or a
        # modified copy) would send an unknown code or tile set into the core
        if RULESETS.get(ruleset.name) == ruleset:
            return RULESETS[ruleset.name]
        raise RulesetError(
            f"{ruleset!r} is not one of the registered rulesets ({', '.join(RULESET_NAMES)}); "
            "pass a ruleset name or an entry of RULESETS"
        )
    try:
        return RULESETS[ruleset]
    except (KeyError, TypeError):
        raise RulesetError(
            f"unknown ruleset {ruleset!r}; expected one of {', '.join(RULESET_NAMES)}"
        ) from None
