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
from math import comb, factorial, prod
from typing import Any

from .._constants import FLAG_SELF_DRAWN, MELD_NAMES
from ..fan_shanten import Problem, prepare
from ..hand import is_win
from ..scoring import score
from ..tiles import meld_tiles

__all__ = ["completes", "fan_shanten_ref", "lowering_kinds", "winning_orders"]


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


def completes(prob: Problem, drawn: tuple[int, ...], target: str | None = None, last: int | None = None) -> bool:
    """Whether the hand of ``prob`` with the tiles ``drawn`` holds a win reaching the minimum
    (and counting ``target``) whose winning tile is one of ``drawn`` (``last``: that one)."""
    melds = [(MELD_NAMES[k], meld_tiles(k, f)) for k, f in prob.melds]
    held = [t for t in range(34) for _ in range(prob.hand[t])]
    for w in sorted(set(drawn)) if last is None else [last]:
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


def lowering_kinds(hand: Any, *, max_draws: int = 2, **context: Any) -> list[int]:
    """The advisor's effective tiles of a 3k+1 hand by their definition: the kinds with an unseen
    copy after whose draw some discard leaves a lower fan-aware shanten (the discard counted as
    seen, the drawn copy no longer unseen); for a ready hand, the kinds that win with enough fans.
    Empty when the hand's fan-aware shanten is ``max_draws`` or more."""
    prob = prepare(hand, tiles=13, **context)
    s = fan_shanten_ref(hand, max_draws=max_draws, **context)
    if s is None:
        return []
    out = []
    for t in prob.rs.kinds:
        if not prob.live[t]:
            continue
        if s == 0:
            if completes(prob, (t,)):
                out.append(t)
            continue
        drawn = [c + (k == t) for k, c in enumerate(prob.hand)]
        for e in range(34):
            if not drawn[e]:
                continue
            after = list(drawn)
            after[e] -= 1
            seen = list(prob.visible)
            seen[e] += 1
            if fan_shanten_ref(after, max_draws=s, **{**context, "visible": seen}) is not None:   # below s
                out.append(t)
                break
    return out


def winning_orders(hand: Any, n: int, **context: Any) -> int:
    """The advisor's ``ways`` of a 3k+1 hand whose fan-aware shanten is ``n - 1``: the orders of
    ``n`` unseen tiles (each copy counted apart) after whose draw, the spare tiles discarded on
    the way, the hand wins with enough fans on the last one.  With ``n`` the fewest, every spare
    tile is one held now, so an order counts when its last tile is a winning tile of the set:
    a set of multiset ``A`` has ``A[x] (n-1)!`` orders ending on kind ``x``."""
    prob = prepare(hand, tiles=13, **context)
    live = prob.live
    total = 0
    for drawn in _draws(prob, n):
        sets = prod(comb(live[t], drawn.count(t)) for t in set(drawn))
        for x in sorted(set(drawn)):
            if completes(prob, drawn, last=x):
                total += sets * drawn.count(x) * factorial(n - 1)
    return total

