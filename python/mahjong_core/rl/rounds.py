"""Rounds for the learning environments: dealing from an environment's generator, and the
built-in bots that play the seats no learner plays."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._round import RoundCore, shuffle_tiles
from ..errors import MahjongError
from ..families.mahjong.round import Round, _compiled
from ..families.mahjong.rulesets import get_ruleset as mahjong_ruleset
from ..families.mahjong.settings import settings_and_options
from ..families.mahjong.wall import N_KONG_DICE
from ..families.registry import get_ruleset

__all__ = ["BOT_NAMES", "CoreDealer", "bot_kinds", "deal"]

BOT_NAMES = ("greedy", "random")
"""The built-in bots (compiled; index = the engine's bot kind)."""

_CALLER = -1   # the engine's code of a seat the caller acts for
_EAST = 27     # a round's default wind (Round's round_wind)


def deal(ruleset: str, rng: np.random.Generator, options: dict[str, Any] | None) -> Round:
    """A new round of ``ruleset``: its seed and dealer drawn from ``rng`` (so an environment
    seeded once deals the same sequence of rounds)."""
    seed = int(rng.integers(2 ** 63))
    dealer = int(rng.integers(get_ruleset(ruleset).players))
    return Round(mahjong_ruleset(ruleset, "the learning environments"), seed=seed, dealer=dealer, options=options)


class CoreDealer:
    """Deals compiled rounds fast, for the vectorised loop (no :class:`Round` wrapper, no seed
    sequence per round): the wall, dice and kong dice are shuffled on the bit stream of ``rng``
    (NumPy's algorithms, as :func:`~mahjong_core.families.mahjong.wall.shuffle_wall` does on a
    round's own generator) and the dealer drawn from it.  :meth:`as_round` rebuilds a dealt
    round as a :class:`Round` from the wall it holds."""

    def __init__(self, ruleset: str, options: dict[str, Any] | None) -> None:
        self.settings, _ = settings_and_options(ruleset, options)
        self.options = options
        self._c = _compiled(self.settings)
        self._tiles = self.settings.tile_set()

    def __call__(self, rng: np.random.Generator) -> RoundCore:
        tiles, dice, kong_dice = shuffle_tiles(self._tiles, rng.bit_generator, N_KONG_DICE)
        c = self._c
        return RoundCore(c.settings_dict, c.code, c.special, c.kind_mask, int(rng.integers(self.settings.players)),
                         _EAST, tiles, dice, kong_dice)

    def as_round(self, core: RoundCore) -> Round:
        """``core``'s round as a :class:`Round` (a scripted wall: the core's), its actions replayed.
        The wall, dice and every kong die are the core's, so the round owes nothing to a seed: its
        header records seed 0 (a Round without one would draw a fresh seed, and two snapshots of
        one state would differ)."""
        state = core.get_state()
        r = Round(mahjong_ruleset(self.settings.ruleset), seed=0, dealer=core.dealer, options=self.options,
                  wall=state["wall"]["tiles"], dice=state["dice"], kong_dice=state["kong_dice"])
        pairs = core.action_pairs()
        for k in range(0, len(pairs), 2):
            r.step(pairs[k], pairs[k + 1])
        return r


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
