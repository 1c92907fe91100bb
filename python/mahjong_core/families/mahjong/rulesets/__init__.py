"""The mahjong rulesets, one module each, as data: the three seed rulesets and `mcr` (rules: ``docs/rules/``).

Each module (:mod:`.two_player`, :mod:`.two_player_bamboo`, :mod:`.public`, :mod:`.mcr`) holds its fan rows
and one :class:`~.rulesetdef.Ruleset` record (``RULESET``) with its flow, settlement profile
and quirks; this package collects them and registers them with
:mod:`mahjong_core.families.registry`.  The compiled core only sees :attr:`Ruleset.code`;
everything else is read from the records, so no code branches on a ruleset's name.
"""

from __future__ import annotations

from ....errors import RulesetError
from ... import registry
from ...registry import DEFAULT_RULESET
from ..constants import FAMILY_NAME
from ..rulesetdef import MAX_MIN_FAN, Flow, Ruleset
from . import mcr, public, two_player, two_player_bamboo

__all__ = ["Ruleset", "Flow", "RULESETS", "get_ruleset", "RULESET_NAMES", "MAX_MIN_FAN", "DEFAULT_RULESET"]

RULESETS: dict[str, Ruleset] = {
    r.name: r for r in (two_player.RULESET, two_player_bamboo.RULESET, public.RULESET, mcr.RULESET)
}
RULESET_NAMES: tuple[str, ...] = tuple(RULESETS)
assert [r.code for r in RULESETS.values()] == list(range(len(RULESETS))), "codes index the compiled tables"

registry.register_rulesets(FAMILY_NAME, RULESETS)


def get_ruleset(ruleset: "str | Ruleset", capability: str = "mj.get_ruleset") -> Ruleset:
    """Return the registered :class:`Ruleset` for a name (or for one of the :data:`RULESETS`).

    A ruleset of another family (``"changpai-ydr"``) is an
    :class:`~mahjong_core.errors.UnsupportedError` naming its family and ``capability`` (the
    entry point asking: ``"mj.Hand"``, ``"mj.advise"``, ...); an unknown name a
    :class:`~mahjong_core.errors.RulesetError`.

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
        pass
    registry.require_family(ruleset, FAMILY_NAME, capability)   # raises: unknown, or of another family
    raise AssertionError("unreachable: a mahjong ruleset is in RULESETS")   # pragma: no cover
