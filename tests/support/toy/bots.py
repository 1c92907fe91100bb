"""The race's bots (the :class:`~mahjong_core.game.bots.Bot` protocol), registered by name in
:mod:`.family`."""

from __future__ import annotations

from typing import Any

import numpy as np

from .round import Move

__all__ = ["FirstLegal", "RandomMove", "BOTS"]


class FirstLegal:
    """The highest legal move."""

    def act_index(self, rnd: Any, seat: int) -> int:
        return rnd.legal_indices(seat)[-1]

    def act(self, rnd: Any, seat: int) -> Move:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


class RandomMove:
    """A legal move at random (seeded: a seed reproduces its games)."""

    def __init__(self, seed: "int | None" = None) -> None:
        self._rng = np.random.default_rng(seed)

    def act_index(self, rnd: Any, seat: int) -> int:
        legal = rnd.legal_indices(seat)
        return legal[int(self._rng.integers(len(legal)))]

    def act(self, rnd: Any, seat: int) -> Move:
        return rnd.decode_action(seat, self.act_index(rnd, seat))


BOTS = {"first": lambda seed: FirstLegal(), "random": RandomMove}
"""Bot name -> factory ``(seed) -> bot`` (``Family.bots``)."""
