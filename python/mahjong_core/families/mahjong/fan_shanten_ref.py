"""The slow exact reference of fan-aware shanten (the oracle of :mod:`.fan_shanten`).

It follows the definition word for word: for n = 1, 2, ... it tries every multiset ``A`` of n
tiles the unseen copies allow, every winning tile ``w`` in ``A`` and every hand ``W`` of 3k+2
tiles inside ``H + A`` that holds ``w``, and asks the public :func:`mahjong_core.is_win` and
:func:`mahjong_core.score` whether ``W`` is a winning hand reaching the minimum.  Its cost grows
like 34^n, so it is meant for n <= 2 in ``public`` and n <= 3 in the two-player rulesets (16
kinds).  It searches nothing in a structured way: what it checks is the fast version's search,
the evaluator itself is held to its own pure-Python reference elsewhere.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from typing import Any

from ._constants import FLAG_SELF_DRAWN, MELD_NAMES
from .fan_shanten import WIN_METHODS, prepare
from .hand import is_win
from .rulesets import DEFAULT_RULESET, Ruleset
from .scoring import score
from .tiles import meld_tiles

__all__ = ["fan_shanten_ref"]


def fan_shanten_ref(
    hand: Any,
    *,
    ruleset: str | Ruleset = DEFAULT_RULESET,
    melds: Any = (),
    visible: Any = None,
    seat_wind: Any = None,
    round_wind: Any = None,
    win: str = "any",
    min_fan: int | None = None,
    max_draws: int = 2,
    target: str | None = None,
) -> int | None:
    """Fan-aware shanten of a 3k+1 hand by brute force, or None if it is ``max_draws`` or more
    (no qualifying hand within ``max_draws`` drawn tiles).  ``target``: a fan id the scored hand
    must also count (the breakdown of :func:`~.fan_shanten.fan_shanten`)."""
    prob = prepare(hand, ruleset=ruleset, melds=melds, visible=visible, seat_wind=seat_wind,
                   round_wind=round_wind, win=win, min_fan=min_fan, tiles=13)
    meld_args = [(MELD_NAMES[k], meld_tiles(k, f)) for k, f in prob.melds]
    live = prob.live
    held = [t for t in range(34) for _ in range(prob.hand[t])]
    self_drawn_options = [flag == FLAG_SELF_DRAWN for flag in WIN_METHODS[win]]

    def qualifies(concealed: list[int], w: int) -> bool:
        counts = [0] * 34
        for t in concealed:
            counts[t] += 1
        counts[w] += 1
        if not is_win(counts, ruleset=prob.rs):
            return False
        for self_drawn in self_drawn_options:
            s = score(concealed_str(concealed), w, ruleset=prob.rs, melds=meld_args, self_drawn=self_drawn,
                      seat_wind=prob.seat_wind, round_wind=prob.round_wind, min_fan=prob.min_fan)
            if s.non_flower_total >= prob.min_fan and (target is None or s.fan_counts.get(target, 0) > 0):
                return True
        return False

    for n in range(1, max_draws + 1):
        for drawn in combinations_with_replacement(prob.rs.kinds, n):
            if any(drawn.count(t) > live[t] for t in set(drawn)):
                continue
            for w in sorted(set(drawn)):
                rest = sorted(held + list(drawn))
                rest.remove(w)
                for removed in set(combinations(rest, n - 1)):
                    concealed = list(rest)
                    for t in removed:
                        concealed.remove(t)
                    if qualifies(concealed, w):
                        return n - 1
    return None


def concealed_str(tiles: list[int]) -> list[int]:
    """The concealed tiles as 34 counts (the form :func:`score` takes fastest)."""
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts
