"""The difficulty of a room's seat-filling bots: a level names a bot, found in the family's bots.

A level (:data:`DIFFICULTIES`, easiest first) names the bot that plays it (:data:`DIFFICULTY_BOTS`:
beginner the random bot, normal the greedy one, hard the fan-aware advisor, expert the search bot).
A family that does not register that bot plays the level with the bot of the nearest **easier**
level it does register (a room never gets a stronger bot than it asked for), else with its first
bot.  The server's settings give a level to every room (``ServerSettings.difficulty``) and may give
a room its own (``ServerSettings.room_difficulty``); an unknown level is refused when the settings
are made, so a server never starts with one.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..errors import MahjongError

__all__ = ["DIFFICULTIES", "DIFFICULTY_BOTS", "DEFAULT_DIFFICULTY", "check_difficulty", "difficulty_bot"]

DIFFICULTY_BOTS: Mapping[str, str] = {"beginner": "random", "normal": "greedy", "hard": "advisor", "expert": "search"}
"""Difficulty level -> the name of the bot that plays it (a name of ``Family.bots``)."""
DIFFICULTIES: tuple[str, ...] = tuple(DIFFICULTY_BOTS)
"""The levels, easiest first."""
DEFAULT_DIFFICULTY = "normal"
"""The level of a room the settings say nothing of: the greedy bot, the table's bot before levels."""


def check_difficulty(level: Any, what: str = "difficulty") -> str:
    """``level`` if it is one of :data:`DIFFICULTIES`, else a MahjongError naming it and them."""
    if not isinstance(level, str) or level not in DIFFICULTY_BOTS:
        raise MahjongError(f"{what} must be one of {', '.join(DIFFICULTIES)}, got {level!r}")
    return level


def difficulty_bot(bots: Mapping[str, Any], level: str) -> str:
    """The name of the bot among ``bots`` (a family's ``Family.bots``, not empty) that plays
    ``level``: the level's own bot, else that of the nearest easier level ``bots`` has, else the
    first of ``bots``."""
    check_difficulty(level)
    for easier in reversed(DIFFICULTIES[:DIFFICULTIES.index(level) + 1]):
        if DIFFICULTY_BOTS[easier] in bots:
            return DIFFICULTY_BOTS[easier]
    return next(iter(bots))
