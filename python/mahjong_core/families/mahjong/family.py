"""Registers the mahjong family (its hand functions, round, match and bots) with the registry.

Its rulesets register themselves when :mod:`.rulesets` is imported (plain data); this module
adds the callables, which need the compiled core and the game engine.  ``import mahjong_core``
imports it.
"""

from __future__ import annotations

from ...game.bots import BUILTIN_BOTS
from .match import Match
from .round import Round
from .. import registry
from .constants import FAMILY_NAME
from .hand import is_win, shanten, waits

__all__ = ["FAMILY"]

FAMILY = registry.Family(
    FAMILY_NAME,
    is_win=is_win,
    waits=waits,
    shanten=shanten,
    new_round=Round,
    new_match=Match,
    bots=BUILTIN_BOTS,
)
registry.register_family(FAMILY)
