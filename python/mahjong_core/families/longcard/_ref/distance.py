"""Pure-Python reference of the "cards to a win" distance (:mod:`..distance`): the oracle, for small
cases only.

Brute force over the cards that may come in: for k = 0, 1, 2, ... every multiset ``A`` of k faces
within the copies still obtainable is drawn, and every ``N``-card part of ``hand + A`` is checked
with the reference win check (:func:`.hand.is_win`); the first k with a winning part is the
distance.  No tables, no components, no pruning beyond the copy limits.  The number of multisets
grows as C(21 + k - 1, k), so only hands with few concealed cards (several declared groups) and
small distances are practical: ``max_k`` bounds the search (``None`` then means "more than max_k").

Arguments are validated data: ``counts`` 21 ints, ``declared`` a tuple of :class:`Group`, ``avail``
21 ints (copies that may still come in).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations_with_replacement, product

from ..cards import N_FACES
from ..groups import Group
from .hand import is_win


def _parts(counts: Sequence[int], size: int) -> Iterator[tuple[int, ...]]:
    """Every sub-multiset of ``size`` cards of ``counts``."""
    faces = [f for f in range(N_FACES) if counts[f]]
    for pick in product(*(range(counts[f] + 1) for f in faces)):
        if sum(pick) == size:
            out = [0] * N_FACES
            for f, n in zip(faces, pick):
                out[f] = n
            yield tuple(out)


def cards_to_win(counts: Sequence[int], declared: Sequence[Group], avail: Sequence[int], banker: bool = False, *,
                 max_k: int, win_split_kan: bool = True, all_black_waives_tuo: bool = False) -> int | None:
    """The fewest incoming cards to a winning hand, searched up to ``max_k`` (None beyond)."""
    size = 3 * (7 - len(declared))
    seen: dict[tuple[int, ...], bool] = {}

    def wins(part: tuple[int, ...]) -> bool:
        if part not in seen:
            seen[part] = is_win(part, declared, banker, win_split_kan=win_split_kan,
                                all_black_waives_tuo=all_black_waives_tuo)
        return seen[part]

    for k in range(max_k + 1):
        for drawn in combinations_with_replacement(range(N_FACES), k):
            extra = [drawn.count(f) for f in range(N_FACES)]
            if any(extra[f] > avail[f] for f in range(N_FACES)):
                continue
            total = [counts[f] + extra[f] for f in range(N_FACES)]
            if any(wins(part) for part in _parts(total, size)):
                return k
    return None
