"""The three mahjong rulesets of ``shared/spec/rules.md`` as data.

A :class:`Ruleset` says which tile kinds are in play and which winning forms
exist.  The compiled core only sees :attr:`Ruleset.code`; everything else is
read from here, so adding a setting never means an ``if ruleset == ...`` chain
in the hot code.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import RulesetError

__all__ = ["Ruleset", "RULESETS", "get_ruleset", "RULESET_NAMES"]

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
    """Return the :class:`Ruleset` for a name (or pass a Ruleset through).

    >>> get_ruleset("public").players
    4
    """
    if isinstance(ruleset, Ruleset):
        return ruleset
    try:
        return RULESETS[ruleset]
    except (KeyError, TypeError):
        raise RulesetError(
            f"unknown ruleset {ruleset!r}; expected one of {', '.join(RULESET_NAMES)}"
        ) from None
