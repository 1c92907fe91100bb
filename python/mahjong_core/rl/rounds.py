"""Rounds for the learning environments: dealing from an environment's generator, and the
built-in bots that play the seats no learner plays.  The family's hooks
(:func:`~mahjong_core.rl.hooks.rl_hooks`) deal; this module names no family."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import MahjongError
from .hooks import EnvRound, rl_hooks

__all__ = ["BOT_NAMES", "CoreDealer", "bot_kinds", "deal", "deal_env_round"]

BOT_NAMES = ("greedy", "random")
"""The built-in bots (compiled; index = the batches' bot kind): every family's greedy bot and its
random one."""

_CALLER = -1   # the engine's code of a seat the caller acts for


def deal_env_round(ruleset: str, rng: np.random.Generator, options: dict[str, Any] | None) -> EnvRound:
    """A new round of ``ruleset`` for an environment (its compiled core and public round), its
    seed and dealer drawn from ``rng`` (so an environment seeded once deals the same rounds)."""
    return rl_hooks(ruleset).deal(ruleset, rng, options)


def deal(ruleset: str, rng: np.random.Generator, options: dict[str, Any] | None) -> Any:
    """The public round of :func:`deal_env_round` (a :class:`~mahjong_core.Round` for mahjong)."""
    return deal_env_round(ruleset, rng, options).round


class CoreDealer:
    """Deals compiled rounds of ``ruleset`` fast, for the vectorised loop: ``dealer(rng)`` a new
    core from a NumPy Generator (the same deal as the batch's ``deal(i, rng.bit_generator)``),
    :meth:`as_round` the family's round with a core's deal and actions.  The family's dealer
    (``RlHooks.dealer``) does the work; its attributes (``settings``, ``options`` ...) are this
    one's."""

    def __init__(self, ruleset: str, options: dict[str, Any] | None) -> None:
        self._impl = rl_hooks(ruleset).dealer(ruleset, options)

    def __call__(self, rng: np.random.Generator) -> Any:
        return self._impl(rng)

    def as_round(self, core: Any) -> Any:
        """``core``'s round as the family's round, its actions replayed."""
        return self._impl.as_round(core)

    def __getattr__(self, name: str) -> Any:
        if name == "_impl":
            raise AttributeError(name)
        return getattr(self._impl, name)


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
