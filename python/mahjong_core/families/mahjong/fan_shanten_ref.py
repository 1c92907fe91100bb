"""The slow exact reference of fan-aware shanten (the oracle of :mod:`.fan_shanten`).

It follows the definition word for word: for n = 1, 2, ... it tries every multiset ``A`` of n
tiles the unseen copies allow, every winning tile ``w`` in ``A`` and every hand ``W`` of 3k+2
tiles inside ``H + A`` that holds ``w``, and asks the public :func:`mahjong_core.is_win` and
:func:`mahjong_core.score` whether ``W`` is a winning hand reaching the minimum.  Its cost grows
like 34^n, so it is meant for n <= 2 in ``public`` and n <= 3 in the two-player rulesets (16
kinds).  It searches nothing in a structured way: what it checks is the fast version's search;
the evaluator itself is held to its own pure-Python reference elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, combinations_with_replacement
from typing import Any

from ._constants import FLAG_SELF_DRAWN, MELD_NAMES
from .fan_shanten import Problem, prepare
from .hand import is_win
from .scoring import score
from .tiles import meld_tiles

__all__ = ["completes", "completing_sets", "fan_shanten_ref"]


def _counts(tiles: list[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


def _draws(prob: Problem, n: int) -> Iterator[tuple[int, ...]]:
    """Every multiset of n drawn kinds the unseen copies allow."""
    live = prob.live
    for drawn in combinations_with_replacement(prob.rs.kinds, n):
        if all(drawn.count(t) <= live[t] for t in set(drawn)):
            yield drawn


def completes(prob: Problem, drawn: tuple[int, ...], target: str | None = None) -> bool:
    """Whether the hand of ``prob`` with the tiles ``drawn`` holds a win reaching the minimum
    (and counting ``target``) whose winning tile is one of ``drawn``."""
    melds = [(MELD_NAMES[k], meld_tiles(k, f)) for k, f in prob.melds]
    held = [t for t in range(34) for _ in range(prob.hand[t])]
    for w in sorted(set(drawn)):
        rest = sorted(held + list(drawn))
        rest.remove(w)
        for removed in set(combinations(rest, len(drawn) - 1)):
            concealed = list(rest)
            for t in removed:
                concealed.remove(t)
            if not is_win(_counts(concealed + [w]), ruleset=prob.rs):
                continue
            for flag in prob.flags:
                s = score(_counts(concealed), w, ruleset=prob.rs, melds=melds, self_drawn=flag == FLAG_SELF_DRAWN,
                          seat_wind=prob.seat_wind, round_wind=prob.round_wind, min_fan=prob.min_fan)
                if s.non_flower_total >= prob.min_fan and (target is None or s.fan_counts.get(target, 0) > 0):
                    return True
    return False


def fan_shanten_ref(hand: Any, *, max_draws: int = 2, target: str | None = None, **context: Any) -> int | None:
    """Fan-aware shanten of a 3k+1 hand by brute force, or None if it is ``max_draws`` or more
    (no qualifying hand within ``max_draws`` drawn tiles).  ``context``: the keywords of
    :func:`~.fan_shanten.fan_shanten` (``ruleset``, ``melds``, ``visible``, winds, ``win``,
    ``min_fan``); ``target``: a fan id the scored hand must also count (the breakdown)."""
    prob = prepare(hand, tiles=13, **context)
    for n in range(1, max_draws + 1):
        if any(completes(prob, drawn, target) for drawn in _draws(prob, n)):
            return n - 1
    return None


def completing_sets(hand: Any, n: int, **context: Any) -> list[tuple[int, ...]]:
    """Every multiset of ``n`` drawn kinds with which a 3k+1 hand wins with enough fans (the
    advisor's effective tiles and ``ways`` come from these when ``n`` is the fewest)."""
    prob = prepare(hand, tiles=13, **context)
    return [drawn for drawn in _draws(prob, n) if completes(prob, drawn)]

