"""Random 长牌 hands for tests and benchmarks: deals from the 105-card deck and hands assembled from
groups (most of them wins), reproducible from a ``numpy.random.Generator``."""

from __future__ import annotations

import numpy as np

from ._ref.hand import ALL_TRIPLES
from .cards import COPIES, N_FACES
from .groups import Group

__all__ = ["random_deal", "random_group_hand"]

_DECK = np.repeat(np.arange(N_FACES), COPIES)
_DECLARED_SIZES = {"peng": 3, "kan": 3, "sha": 4, "tuhuo_weixiang": 4, "tuhuo_xiang": 5}


def random_deal(rng: np.random.Generator, n_cards: int = 21, rows: int = 1) -> np.ndarray:
    """``(rows, 21)`` uint8 count arrays of ``n_cards`` cards drawn from the deck without replacement."""
    out = np.zeros((rows, N_FACES), np.uint8)
    for r in range(rows):
        out[r] = np.bincount(rng.choice(_DECK, n_cards, replace=False), minlength=N_FACES)
    return out


def random_group_hand(rng: np.random.Generator, n_declared: int | None = None
                      ) -> tuple[np.ndarray, tuple[Group, ...]]:
    """Concealed counts (21 - 3 x declared cards) and declared groups, assembled from 7 random groups
    within the deck's copies.  A win in shape; whether the 陀 suffices is left to chance."""
    left = np.full(N_FACES, COPIES, np.int64)
    d = int(rng.integers(0, 6)) if n_declared is None else n_declared
    declared: list[Group] = []
    while len(declared) < d:
        if rng.random() < 0.2:
            t = ALL_TRIPLES[int(rng.integers(len(ALL_TRIPLES)))]
            if t[0] == t[2] or any(left[f] < t.count(f) for f in set(t)):
                continue
            declared.append(Group("chi", t))
            for f in t:
                left[f] -= 1
            continue
        kind = ("peng", "peng", "peng", "sha", "tuhuo_weixiang", "tuhuo_xiang")[int(rng.integers(6))]
        f = int(rng.integers(N_FACES))
        size = _DECLARED_SIZES[kind]
        if left[f] < size:
            continue
        left[f] -= size
        declared.append(Group(kind, (f,) * size))
    counts = np.zeros(N_FACES, np.uint8)
    placed = d
    while placed < 7:
        t = ALL_TRIPLES[int(rng.integers(len(ALL_TRIPLES)))]
        if t[0] == t[2] and rng.random() < 0.5:
            continue        # fewer 坎: more 吃 groups, more alternative splits
        if any(left[f] < t.count(f) for f in set(t)):
            continue
        for f in t:
            left[f] -= 1
            counts[f] += 1
        placed += 1
    return counts, tuple(declared)
