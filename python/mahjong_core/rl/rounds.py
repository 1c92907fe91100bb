"""Rounds for the learning environments: dealing from an environment's generator, and the
built-in bots that play the seats no learner plays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import MahjongError
from ..families.mahjong.round import Round
from ..families.registry import get_ruleset

__all__ = ["BOT_NAMES", "bot_kinds", "deal"]

BOT_NAMES = ("greedy", "random")
"""The built-in bots (compiled; index = the engine's bot kind)."""

_CALLER = -1   # the engine's code of a seat the caller acts for


def deal(ruleset: str, rng: np.random.Generator, options: dict[str, Any] | None) -> Round:
    """A new round of ``ruleset``: its seed and dealer drawn from ``rng`` (so an environment
    seeded once deals the same sequence of rounds)."""
    seed = int(rng.integers(2 ** 63))
    dealer = int(rng.integers(get_ruleset(ruleset).players))
    return Round(ruleset, seed=seed, dealer=dealer, options=options)


def bot_kinds(bots: Sequence[Any], players: int) -> list[int]:
    """The engine's bot kind of every seat: ``bots[k]`` is None (the caller acts for seat k),
    ``"greedy"`` or ``"random"``."""
    if isinstance(bots, str) or len(bots) != players:
        raise MahjongError(f"bots must name one bot (or None) for each of the {players} seats, got {bots!r}")
    out = []
    for k, b in enumerate(bots):
        if b is None:
            out.append(_CALLER)
        elif isinstance(b, str) and b in BOT_NAMES:
            out.append(BOT_NAMES.index(b))
        else:
            raise MahjongError(f"bots[{k}] must be None, 'greedy' or 'random', got {b!r}")
    return out
