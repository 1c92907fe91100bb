"""The ``changpai-ydr`` ruleset record and its registration with the family registry.

Plain data, importable without the compiled core (the registry's interface: name, family, players,
min_fan, fans, settlement_profile, default_room).  The hand of play (the reference engine and the
compiled one), its settlement and matches are the ``round_*`` modules; the record names the
family's default settlement profile (the mode of spec 5.1) and its preset room, both registered
with the shared settlement layer by :mod:`.settlement`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import registry
from .fans import FAN_SOURCES, FanSource
from .options import DEFAULTS, RULESET

__all__ = ["CHANGPAI_YDR", "FAMILY_NAME", "RULESETS", "LongcardRuleset"]

FAMILY_NAME = "longcard"


@dataclass(frozen=True)
class LongcardRuleset:
    name: str
    family: str
    seeds: tuple[str, ...]
    players: int
    """3 (spec 3.1, CP-1)."""
    min_fan: int
    """0: 平胡 (no fan) is a win (spec 4.1)."""
    fans: tuple[FanSource, ...]
    """The fan sources of spec 4.4 (a face fan's points are w(F) x 1/2/3)."""
    settlement_profile: str
    """``tikan`` / ``fan_cheng_fan`` (spec 5.1): the family's settlement profiles (:mod:`.settlement`)."""
    default_room: str | None
    """The family's preset points room (``changpai``, :mod:`.settlement`): what a server room of the
    ruleset settles in.  The command line's ``match`` takes no ``--room``: it pays each hand's own
    points (spec 5) on the shared ledger."""


CHANGPAI_YDR = LongcardRuleset(
    name=RULESET, family=FAMILY_NAME, seeds=("002",), players=3, min_fan=0, fans=FAN_SOURCES,
    settlement_profile=DEFAULTS["settlement_mode"], default_room="changpai",
)
RULESETS = {RULESET: CHANGPAI_YDR}
"""The long-card family's rulesets by name (registered as they are)."""

registry.register_rulesets(FAMILY_NAME, RULESETS)
