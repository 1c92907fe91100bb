"""Registers the race with the registry, as a family's own module does: its ruleset record and its
:class:`~mahjong_core.families.registry.Family` (round, match, bots, the re-deal of what a seat cannot see; no hands, no simulation and no
command line, which the shared layers then refuse by the family's name).

A real family registers when its package is imported; a test family registers for the duration of
a ``with registered():`` block, so that the other tests see the registry as the package leaves it.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Iterator

from mahjong_core.errors import UnsupportedError
from mahjong_core.families import registry

from .bots import BOTS
from .hidden_worlds import hidden_world
from .round import FAMILY_NAME, RaceMatch, RaceRound

__all__ = ["FAMILY_NAME", "RULESET", "FAMILY", "registered"]


@dataclass(frozen=True)
class RulesetRecord:
    """The registry's ruleset record (see :mod:`mahjong_core.families.registry`)."""

    name: str = "toy-race"
    family: str = FAMILY_NAME
    players: int = 3
    min_fan: int = 0
    fans: tuple = ()
    settlement_profile: str = "none"
    default_room: str = "none"


RULESET = RulesetRecord()


def _no_hands(*_a: Any, **_k: Any) -> Any:
    # the documented refusal (issue 27): an UnsupportedError naming the family and what it lacks
    raise UnsupportedError(f"hands: the {FAMILY_NAME} family does not offer is_win, waits or shanten "
                           "(the race has no hands)")


FAMILY = registry.Family(FAMILY_NAME, is_win=_no_hands, waits=_no_hands, shanten=_no_hands, new_round=RaceRound,
                         new_match=RaceMatch, bots=BOTS, hidden_worlds=hidden_world)


@contextmanager
def registered() -> Iterator[registry.Family]:
    """The race family registered with the registry inside the block (and removed after it)."""
    registry.register_rulesets(FAMILY_NAME, {RULESET.name: RULESET})
    registry.register_family(FAMILY)
    try:
        yield FAMILY
    finally:
        registry._RULESETS.pop(FAMILY_NAME, None)
        registry._FAMILIES.pop(FAMILY_NAME, None)
