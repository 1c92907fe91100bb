"""``Family.hidden_worlds`` of the race: the same race as one seat saw it, the other seats' secret
cards dealt again (the conformance suite's ``hidden_information`` check)."""

from __future__ import annotations

from typing import Any

import numpy as np

from mahjong_core.game.schema import MAX_SEED

__all__ = ["hidden_world"]

_TRIES = 64
"""Seeds tried for a deal that gives ``seat`` its own card again (each does with chance 1/3)."""


def hidden_world(r: Any, seat: int, rng: np.random.Generator) -> Any:
    """A race of ``r``'s class dealt from a seed drawn by ``rng`` that gives ``seat`` its card of
    ``r`` (the others' cards as they fall), with ``r``'s moves replayed; None when none of the
    seeds tried does, or when a move is illegal there (a seat that moved 2 holds no card 1)."""
    cls = type(r)
    for _ in range(_TRIES):
        other = cls(r.ruleset, int(rng.integers(min(MAX_SEED, 2**62))), dealer=r.dealer)
        if other.cards[seat] == r.cards[seat]:
            break
    else:
        return None
    return other if other._follow(r._action_pairs()) else None
